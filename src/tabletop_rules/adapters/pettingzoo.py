"""Every game as a PettingZoo AEC environment (the ``pettingzoo`` extra:
``pip install -e '.[pettingzoo]'``): :func:`env` wraps it as PettingZoo's classic
environments are; :class:`TabletopEnv` (also :data:`raw_env`) is it without wrappers.

The agents are the seats (``"player_0"`` on) and act by the player action numbers; each
observes its seat's view, encoded, with an action mask. Rewards come at the end, zero-sum;
the environment resolves chance from the seed. The PettingZoo page of the docs says each
in full.

>>> from tabletop_rules.adapters.pettingzoo import env
>>> table = env("dice-poker")
>>> table.reset(seed=1)
>>> table.agents, table.agent_selection
(['player_0', 'player_1'], 'player_0')
>>> observation, reward, terminated, truncated, info = table.last()
>>> observation["action_mask"].dtype, int(observation["action_mask"].sum())
(dtype('int8'), 10)
"""

from __future__ import annotations

import operator
from typing import Any, Final, TypeAlias

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._movetable import check_action
from .._seats import zero_sum_rewards
from ..errors import IllegalMoveError, NotationError
from ..protocol import CHANCE, Ruleset, Seat, check_ruleset, get_ruleset
from ..rng import Rng, derived_seed, resolve_seed, sample_outcome

__all__ = [
    "RENDER_MODES",
    "AgentID",
    "Observation",
    "TabletopEnv",
    "agent_name",
    "env",
    "raw_env",
    "seat_of",
]

AgentID: TypeAlias = str
"""An agent's name: ``"player_"`` and its seat, ``"player_0"`` first."""

Observation: TypeAlias = dict[str, NDArray[Any]]
"""What an agent observes: the encoded view (``float32``) and the action mask (``int8``)."""

RENDER_MODES: Final = ("human", "ansi")
"""``"human"`` prints the table as a spectator sees it; ``"ansi"`` returns that text."""

_PREFIX: Final = "player_"


def agent_name(seat: Seat) -> AgentID:
    """The agent that plays ``seat``.

    >>> agent_name(0)
    'player_0'
    """
    return f"{_PREFIX}{seat}"


def seat_of(agent: AgentID) -> Seat:
    """The seat ``agent`` plays; ``ValueError`` for a name that is no agent's.

    >>> seat_of("player_2")
    2
    """
    if type(agent) is not str:
        raise TypeError(f"an agent is named by text, got {type(agent).__name__}")
    number = agent.removeprefix(_PREFIX)
    if number == agent or not number.isdigit() or (number != "0" and number.startswith("0")):
        raise ValueError(f"{agent!r} is no agent: agents are named player_0, player_1, ...")
    return int(number)


class TabletopEnv(AECEnv):
    """One game (a name such as ``"palace"``, or a ruleset) under ``config`` (``None``: the
    defaults) as a PettingZoo AEC environment without wrappers, ``render_mode`` one of
    :data:`RENDER_MODES` or ``None``: an illegal action raises
    :class:`~tabletop_rules.errors.IllegalMoveError` naming the rule, changing nothing.
    """

    def __init__(
        self,
        game: str | Ruleset[Any, Any, Any],
        config: Any = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}"
            )
        rules = get_ruleset(game) if isinstance(game, str) else check_ruleset(game)
        self.rules: Ruleset[Any, Any, Any] = rules
        """The game's ruleset."""
        self.config: Any = rules.config_type() if config is None else config
        """The house rules of every game this environment plays."""
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"tabletop_{rules.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self._offset = rules.chance_offset(self.config)
        spec = rules.observation_spec(self.config)
        self.possible_agents = [agent_name(seat) for seat in range(rules.players(self.config))]
        self.action_spaces = {
            agent: spaces.Discrete(self._offset) for agent in self.possible_agents
        }
        low, high = (np.array(bound, dtype=np.float32) for bound in (spec.low, spec.high))
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, shape=spec.shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(self._offset,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._seat_agents([])
        self._state: Any = None
        self._chance = Rng.from_seed(0)
        self._base_seed: int | None = None
        self._episode = 0

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: AgentID) -> spaces.Dict:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Discrete:
        """The action space of ``agent``, ``Discrete(chance_offset)`` (the same object)."""
        return self.action_spaces[agent]

    @property
    def game_state(self) -> Any:
        """The game's state now, for records, analysis and tests; agents see only views."""
        return self._require_state()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start ``new_game(config, seed=seed)``, or with ``options={"state": state}`` from
        ``state``. Without a seed, the games after ``reset(seed=s)`` take
        ``derived_seed(s, 1)``, ``derived_seed(s, 2)``, ...; before any, fresh seeds.
        """
        if seed is not None:
            self._base_seed, self._episode = resolve_seed(seed), 0
            game_seed: int | None = self._base_seed
        elif self._base_seed is not None:
            self._episode += 1
            game_seed = derived_seed(self._base_seed, self._episode)
        else:
            game_seed = None
        start = (options or {}).get("state")
        if start is None:
            state = self.rules.new_game(self.config, seed=game_seed)
        else:
            state = self._checked_start(start)
        self._chance = Rng.from_seed(derived_seed(self.rules.seed_of(state), 0))
        self._state = self._resolve_chance(state)
        self._seat_agents(self.possible_agents[:])
        self.agent_selection = self.agents[0]
        self._after_move()

    def observe(self, agent: AgentID) -> Observation:
        """What ``agent`` observes now: :meth:`observe_view` of its seat's view."""
        return self.observe_view(self.rules.view(self._require_state(), seat_of(agent)))

    def observe_view(self, view: Any) -> Observation:
        """The observation of a seat's ``view``: it reads nothing else."""
        mask = np.zeros(self._offset, dtype=np.int8)
        mask[[self.rules.encode(move) for move in view.legal_moves]] = 1
        return {
            "observation": np.asarray(self.rules.observe(view), dtype=np.float32),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """Play ``action`` (``None`` to leave a finished game), then resolve any chance;
        :class:`~tabletop_rules.errors.IllegalMoveError`, changing nothing, if illegal.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        move = self._move(state, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._state = self._resolve_chance(self.rules.apply(state, move))
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def why_illegal(self, action: Any) -> str | None:
        """The rule that forbids the agent to act ``action``, or ``None`` if it may."""
        try:
            self._move(self._require_state(), action)
        except IllegalMoveError as error:
            return str(error)
        return None

    def render(self) -> str | None:
        """The spectator's table: printed (``"human"``), returned (``"ansi"``) or ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        text = self.rules.display(self.rules.view(self._require_state(), None))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no window, file or process."""

    def _seat_agents(self, agents: list[AgentID]) -> None:
        """``agents`` at the table, none rewarded, ended or told anything yet."""
        self.agents = agents
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in agents}

    def _require_state(self) -> Any:
        if self._state is None:
            raise RuntimeError("reset() starts a game; call it first")
        return self._state

    def _checked_start(self, state: Any) -> Any:
        if not isinstance(state, self.rules.state_type):
            raise TypeError(f"options['state'] must be a {self.rules.title} state")
        if self.rules.config_of(state) != self.config:
            raise ValueError("options['state'] is a game under other house rules")
        self.rules.check_state(state)
        return state

    def _resolve_chance(self, state: Any) -> Any:
        rules = self.rules
        while rules.current_player(state) == CHANCE:
            outcome, self._chance = sample_outcome(rules.chance_probabilities(state), self._chance)
            state = rules.apply(state, outcome)
        return state

    def _move(self, state: Any, action: Any) -> Any:
        """The move ``action`` stands for, or ``IllegalMoveError`` naming the rule."""
        try:
            number = operator.index(action)  # a NumPy integer too, as a policy gives it
        except TypeError:
            number = action  # check_action says what it is not
        number = check_action(number, self._offset)
        try:
            return self.rules.decode(state, number)
        except IllegalMoveError as error:
            text = self.rules.action_text(self.config, number)
            reason = str(error)
            try:
                self.rules.parse_move(state, text)
            except IllegalMoveError as rule:  # the rule the move breaks, in its words
                reason = str(rule)
            except NotationError:
                pass
            raise IllegalMoveError(f"action {number} ({text}) is illegal: {reason}") from None

    def _after_move(self) -> None:
        """Select the seat to move, or end the game for every agent."""
        rules, state = self.rules, self._require_state()
        if not rules.is_over(state):
            player = rules.current_player(state)
            assert player is not None, "a game that is not over has a player to move"
            assert player != CHANCE, "chance is resolved before an agent is selected"
            self.agent_selection = agent_name(player)
            return
        seats = len(self.possible_agents)
        scores = rules.score(state)
        for seat, reward in enumerate(zero_sum_rewards(rules.winners(state), seats)):
            agent = agent_name(seat)
            self.rewards[agent] = reward
            self.infos[agent] = {"score": scores[seat]}
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()


raw_env = TabletopEnv
"""PettingZoo's usual name for the unwrapped environment class: :class:`TabletopEnv`."""


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):
    """``TerminateIllegalWrapper``, writing the rule broken to ``info["illegal_move"]``."""

    def step(self, action: Any) -> None:
        raw: TabletopEnv = self.env.unwrapped
        agent = raw.agent_selection
        live = not (raw.terminations.get(agent) or raw.truncations.get(agent))
        reason = raw.why_illegal(action) if live and raw.agents else None
        super().step(action)
        if reason is not None and agent in raw.infos:
            raw.infos[agent]["illegal_move"] = reason


def env(
    game: str | Ruleset[Any, Any, Any], config: Any = None, render_mode: str | None = None
) -> AECEnv:
    """The environment of ``game`` (a name or a ruleset) under ``config``, wrapped as
    PettingZoo's classic games are: calls before :meth:`~TabletopEnv.reset` raise, an
    action outside the space fails an assertion, and one the mask forbids ends the game,
    -1 for its agent (whose ``info["illegal_move"]`` names the rule) and 0 for the others.
    """
    table = TabletopEnv(game, config, render_mode)
    wrapped = _TerminateIllegal(table, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
