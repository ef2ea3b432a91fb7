"""Every game as an OpenSpiel game: ``pyspiel.load_game("python_tabletop_palace(players=3)")``.

Importing this module registers the three built-in games with OpenSpiel (it needs the
``openspiel`` extra: ``pip install -e '.[openspiel]'``); :func:`register` registers any
other :class:`~tabletop_rules.protocol.Ruleset` the same way. The adapter is written once,
against the protocol, for every game:

- **Parameters** are the house rules of the game's ``Config`` (see
  :func:`~tabletop_rules.house_rules.house_rules`), with the same names and defaults. A
  number, flag or word travels as itself; any other value (a list, a table, ``null``) as a
  string holding its JSON with ``;`` for ``,``, since OpenSpiel's game strings split
  parameters at commas: ``python_tabletop_dice_poker(stage_orders=["down";"up"])``.
  ``auto_chance`` is no parameter: the adapter always plays with explicit chance.
- **Chance** is explicit (``EXPLICIT_STOCHASTIC``): every die the game throws is a chance
  node whose outcomes are the game's chance actions, numbered from 0 (action number minus
  the ruleset's ``chance_offset``), with the exact probabilities as floats. A game with a
  deck (palace, the account game) starts with one more chance node, *the deal*: its
  outcome ``i`` of the ``deals`` parameter's many (uniform) shuffles the deck with seed
  ``seed + i``. The deal is hidden from every player.
- **Player actions** are the game's action numbers below ``chance_offset``.
- **Information** comes from the seat's view only: the observation is the view (its JSON
  as the string, ``Ruleset.observe`` as the tensor); the information state adds the text of
  every move and public chance outcome so far, so that a seat remembers what it saw.
- **Returns** (terminal only) are zero-sum in ``[-1, 1]`` for two or more players: the
  winners share +1 and the others share -1 (a draw by all is 0 for all). Alone at the
  table, the return is the score squashed into ``(-1, 1)``: ``score / (|score| + 100)``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_tabletop_dice_poker(players=2,stages=1)")
>>> state = game.new_initial_state()
>>> state.current_player(), state.action_to_string(state.legal_actions()[0])
(0, 'roll')
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from ..errors import ConfigError, IllegalMoveError
from ..house_rules import configured, house_rules, value_text
from ..protocol import CHANCE, Ruleset, get_ruleset
from ..rng import Rng
from ..seats import zero_sum_rewards
from ..serialize import dumps, loads

__all__ = [
    "DEFAULT_DEALS",
    "SOLO_SCALE",
    "config_of_parameters",
    "game_name",
    "game_state",
    "parameters_of",
    "register",
]

DEFAULT_DEALS: Final = 1 << 16
"""How many shuffles the deal chance node chooses among by default (``deals``)."""

SOLO_SCALE: Final = 100
"""A one-player game returns ``score / (|score| + SOLO_SCALE)``."""

_AUTO_CHANCE: Final = "auto_chance"
_DEALS: Final = "deals"
_SEED: Final = "seed"
_NONE: Final = -1  # None, for a house rule that is a whole number or None
_SEPARATOR: Final = ";"  # stands for "," in a JSON parameter: game strings split at commas

_Parameter = int | float | bool | str


def game_name(rules: Ruleset[Any, Any, Any]) -> str:
    """The OpenSpiel name of a game: ``python_tabletop_`` and its name, ``-`` as ``_``."""
    return "python_tabletop_" + rules.name.replace("-", "_")


def game_state(state: Any) -> Any:
    """The library's game state inside an OpenSpiel state of these games (``None`` before
    the deal), for code that wants the game's own functions, e.g. a bot's view:
    ``rules.view(game_state(state), seat)``.
    """
    node: _Node = state.node
    return node.state


def _has_deal(rules: Ruleset[Any, Any, Any]) -> bool:
    return rules.deal_type is not None


def _optional_ints(config_type: type[Any]) -> frozenset[str]:
    """The house rules whose values are a whole number or ``None``."""
    hints = typing.get_type_hints(config_type)
    return frozenset(
        name for name, hint in hints.items() if set(typing.get_args(hint)) == {int, type(None)}
    )


def _parameter(config: Any, name: str) -> _Parameter:
    """A house rule's value as an OpenSpiel parameter: itself when OpenSpiel has the type,
    -1 for ``None`` where the value is a whole number or ``None``, else JSON text.
    """
    value = getattr(config, name)
    if value is None and name in _optional_ints(type(config)):
        return _NONE
    if isinstance(value, bool | int | float | str):
        return value
    text = value_text(config, name)
    if _SEPARATOR in text:
        raise ConfigError(
            f"house rule {name}'s value {text} holds {_SEPARATOR!r}: "
            "it cannot travel as an OpenSpiel parameter"
        )
    return text.replace(",", _SEPARATOR)


def parameters_of(rules: Ruleset[Any, Any, Any], config: Any = None) -> dict[str, _Parameter]:
    """The OpenSpiel parameters that load ``config`` (the default ``Config()`` when
    ``None``): every house rule but ``auto_chance``, and for a game with a deck the
    deal's ``deals`` and ``seed``.

    >>> from tabletop_rules import dice_poker as dp
    >>> parameters_of(dp.RULES)["stage_orders"]
    '["free"]'
    """
    config = rules.config_type() if config is None else config
    parameters: dict[str, _Parameter] = {
        rule.name: _parameter(config, rule.name)
        for rule in house_rules(rules.config_type)
        if rule.name != _AUTO_CHANCE
    }
    if _has_deal(rules):
        parameters[_DEALS] = DEFAULT_DEALS
        parameters[_SEED] = 0
    return parameters


def _text(value: object, optional_int: bool) -> str:
    if optional_int and value == _NONE:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value.replace(_SEPARATOR, ",")
    return str(value)


def config_of_parameters(rules: Ruleset[Any, Any, Any], parameters: Mapping[str, object]) -> Any:
    """The validated config that OpenSpiel ``parameters`` name, with explicit chance.

    Raises :class:`~tabletop_rules.errors.ConfigError` for a parameter that names no house
    rule, or a value the config refuses.
    """
    names = {rule.name for rule in house_rules(rules.config_type)}
    optional_ints = _optional_ints(rules.config_type)
    texts = [
        f"{name}={_text(value, name in optional_ints)}"
        for name, value in parameters.items()
        if name not in (_DEALS, _SEED) or not _has_deal(rules)
    ]
    if _AUTO_CHANCE in parameters:
        raise ConfigError("the OpenSpiel games always play with explicit chance: no auto_chance")
    if _AUTO_CHANCE in names:
        texts.append(f"{_AUTO_CHANCE}=false")
    return configured(rules.config_type, texts)


@attrs.frozen
class _Deal:
    """How a game with a deck is dealt: outcome ``i`` shuffles with seed ``seed + i``."""

    deals: int
    seed: int


@attrs.frozen
class _Node:
    """Everything an OpenSpiel state holds on the Python side, as one immutable value.

    OpenSpiel clones a Python state by deep-copying its attributes; a node is its own
    deep copy, so a clone shares it (the game states are immutable). It pickles (as
    OpenSpiel serializes a state) through the library's validated JSON.
    """

    rules: Ruleset[Any, Any, Any]
    config: Any
    deal: _Deal | None
    state: Any  # None before the deal
    record: tuple[str, ...] = ()
    """The text of each move and public chance outcome so far: what every seat saw happen."""

    def __deepcopy__(self, memo: object) -> _Node:
        return self

    def __reduce__(self) -> tuple[Callable[[str], _Node], tuple[str]]:
        text = json.dumps(
            {
                "game": self.rules.name,
                "config": dumps(self.config),
                "deal": None if self.deal is None else [self.deal.deals, self.deal.seed],
                "state": None if self.state is None else dumps(self.state),
                "record": list(self.record),
            }
        )
        return _node_from_json, (text,)


def _node_from_json(text: str) -> _Node:
    """The node that :meth:`_Node.__reduce__` wrote, every part validated by its loader."""
    data = json.loads(text)
    rules = get_ruleset(data["game"])
    config = loads(data["config"], rules.config_type)
    state = None if data["state"] is None else loads(data["state"], rules.state_type)
    if state is not None and rules.config_of(state) != config:
        raise ValueError("the serialized state's config is not its game's")
    deal = None if data["deal"] is None else _Deal(*map(int, data["deal"]))
    record = tuple(str(text) for text in data["record"])
    return _Node(rules, config, deal, state, record)


def _returns(rules: Ruleset[Any, Any, Any], state: Any, players: int) -> list[float]:
    if state is None or not rules.is_over(state):
        return [0.0] * players
    if players == 1:
        (score,) = rules.score(state)
        return [score / (abs(score) + SOLO_SCALE)]
    return zero_sum_rewards(rules.winners(state), players)


class _State(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state: the game's state (or the deal still to come) in a node."""

    _node: _Node

    def __init__(self, game: _Game) -> None:
        super().__init__(game)
        self._node = game.initial_node

    @property
    def node(self) -> _Node:
        """The game state and its context."""
        return self._node

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` at a chance node, ``TERMINAL`` when over."""
        node = self._node
        if node.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = node.rules.current_player(node.state)
        if player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        return sorted(node.rules.encode(move) for move in node.rules.legal_moves(node.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each chance outcome (from 0) and its probability."""
        node = self._node
        if node.state is None:
            assert node.deal is not None
            return [(outcome, 1.0 / node.deal.deals) for outcome in range(node.deal.deals)]
        offset = node.rules.chance_offset(node.config)
        return sorted(
            (node.rules.encode(move) - offset, float(probability))
            for move, probability in node.rules.chance_probabilities(node.state).items()
        )

    def _apply_action(self, action: int) -> None:
        node = self._node
        rules = node.rules
        if node.state is None:
            assert node.deal is not None
            if not 0 <= action < node.deal.deals:
                raise IllegalMoveError(f"deal {action} is not one of 0..{node.deal.deals - 1}")
            state = rules.new_game(node.config, seed=node.deal.seed + action)
            self._node = attrs.evolve(node, state=state, record=(*node.record, "deal"))
            return
        number = action
        if rules.current_player(node.state) == CHANCE:
            number += rules.chance_offset(node.config)
        elif not 0 <= action < rules.chance_offset(node.config):
            raise IllegalMoveError(f"action {action} is not a player's action number")
        move = rules.decode(node.state, number)
        state = rules.apply(node.state, move)
        self._node = attrs.evolve(node, state=state, record=(*node.record, rules.format_move(move)))

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._node
        if player == pyspiel.PlayerId.CHANCE:
            if node.state is None:
                return f"deal {action}"
            action += node.rules.chance_offset(node.config)
        text: str = node.rules.action_text(node.config, action)
        return text

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        node = self._node
        return node.state is not None and node.rules.is_over(node.state)

    def returns(self) -> list[float]:
        """Each seat's return: zero-sum in ``[-1, 1]`` (see the module's introduction)."""
        node = self._node
        return _returns(node.rules, node.state, self.num_players())

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> _State:
        """A state that ``player_id``'s view cannot tell from this one, everything it does
        not see re-dealt by ``determinize`` from a generator seeded by the sampler. The
        history stays this state's.
        """
        clone: _State = self.clone()
        node = self._node
        if node.state is not None:
            seed = int(probability_sampler() * (1 << 53))
            view = node.rules.view(node.state, player_id)
            sample = node.rules.determinize(view, Rng.from_seed(seed))
            clone._node = attrs.evolve(node, state=sample)
        return clone

    def __str__(self) -> str:
        node = self._node
        return "(before the deal)" if node.state is None else dumps(node.state)


class _Observer:
    """An observation of a state by one seat, through its view only (OpenSpiel's
    ``PyObserver`` interface: ``tensor``, ``dict``, ``set_from``, ``string_from``).
    """

    def __init__(self, node: _Node, perfect_recall: bool, public_only: bool) -> None:
        self.perfect_recall = perfect_recall
        self.public_only = public_only
        self.rules = node.rules
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        if perfect_recall:  # the information state has a string, and no tensor
            self.tensor = None
            self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        else:
            size = node.rules.observation_spec(node.config).size
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def _view(self, state: _State, player: int) -> Any:
        node = state.node
        if node.state is None:
            return None
        return node.rules.view(node.state, None if self.public_only else player)

    def set_from(self, state: _State, player: int) -> None:
        """Write the tensor of ``state`` as ``player`` sees it."""
        if self.tensor is None:
            return
        view = self._view(state, player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.rules.observe(view)

    def string_from(self, state: _State, player: int) -> str:
        """The string of ``state`` as ``player`` sees it: its view's JSON, and for the
        information state the moves so far above it.
        """
        view = self._view(state, player)
        now = f"seat {player}: before the deal" if view is None else dumps(view)
        if not self.perfect_recall:
            return now
        return "\n".join([*state.node.record, now])


class _Game(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game of one ruleset and one config; subclassed per ruleset."""

    rules: Ruleset[Any, Any, Any]
    registered_type: Any

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        rules = self.rules
        given: dict[str, Any] = dict(params or {})
        config = config_of_parameters(rules, given)
        deal = None
        if _has_deal(rules):
            deal = _Deal(int(given.get(_DEALS, DEFAULT_DEALS)), int(given.get(_SEED, 0)))
            if deal.deals < 1 or deal.seed < 0 or deal.seed + deal.deals > 1 << 64:
                raise ConfigError(
                    f"deals must be at least 1 and seed at least 0, got {deal.deals}, {deal.seed}"
                )
        self.config = config
        self.initial_node = _Node(
            rules, config, deal, None if deal else rules.new_game(config, seed=0)
        )
        players = rules.players(config)
        offset = rules.chance_offset(config)
        dice = rules.num_actions(config) - offset
        info = pyspiel.GameInfo(
            num_distinct_actions=offset,
            max_chance_outcomes=max(dice, deal.deals if deal else 0),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=rules.max_moves(config),
        )
        self._max_chance_nodes = (rules.max_moves(config) if dice else 0) + (1 if deal else 0)
        super().__init__(_instance_type(self.registered_type, players, dice, deal), info, given)

    def new_initial_state(self, *_args: object) -> _State:
        """The game before its first move (before the deal, for a game with a deck)."""
        return _State(self)

    def max_chance_nodes_in_history(self) -> int:
        """At most one chance node per move of the game's bound, and the deal."""
        return self._max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, object] | None = None
    ) -> _Observer:
        """An observer: the information state for a perfect-recall type, else the
        observation; a seat's own view, or the spectator's for public information only.
        """
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer sees one seat's view or the public one, not all seats")
        return _Observer(
            self.initial_node,
            perfect_recall=bool(iig_obs_type.perfect_recall),
            public_only=private == pyspiel.PrivateInfoType.NONE,
        )


def _game_type(rules: Ruleset[Any, Any, Any], **changes: object) -> Any:
    """The OpenSpiel ``GameType`` of a ruleset, ``changes`` applied (per config)."""
    default = rules.config_type()
    players = [count for count in range(1, 17) if _seats(rules, count)]
    facts: dict[str, Any] = {
        "short_name": game_name(rules),
        "long_name": f"Python tabletop_rules {rules.title}",
        "dynamics": pyspiel.GameType.Dynamics.SEQUENTIAL,
        "chance_mode": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        "information": (
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if rules.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        "utility": pyspiel.GameType.Utility.ZERO_SUM,
        "reward_model": pyspiel.GameType.RewardModel.TERMINAL,
        "max_num_players": max(players),
        "min_num_players": min(players),
        "provides_information_state_string": True,
        "provides_information_state_tensor": False,
        "provides_observation_string": True,
        "provides_observation_tensor": True,
        "parameter_specification": parameters_of(rules, default),
    }
    facts.update(changes)
    return pyspiel.GameType(**facts)


def _instance_type(registered: Any, players: int, dice: int, deal: _Deal | None) -> Any:
    """The type of one game: general-sum alone at the table, deterministic without chance."""
    fields = (
        "short_name",
        "long_name",
        "dynamics",
        "chance_mode",
        "information",
        "utility",
        "reward_model",
        "max_num_players",
        "min_num_players",
        "provides_information_state_string",
        "provides_information_state_tensor",
        "provides_observation_string",
        "provides_observation_tensor",
        "parameter_specification",
    )
    facts = {name: getattr(registered, name) for name in fields}
    if players == 1:
        facts["utility"] = pyspiel.GameType.Utility.GENERAL_SUM
    if not dice and deal is None:
        facts["chance_mode"] = pyspiel.GameType.ChanceMode.DETERMINISTIC
    return pyspiel.GameType(**facts)


def _seats(rules: Ruleset[Any, Any, Any], players: int) -> bool:
    """Whether the game can seat ``players``."""
    try:
        configured(rules.config_type, [f"players={players}"])
    except ConfigError:
        return False
    return True


_REGISTERED: dict[str, type[_Game]] = {}


def register(rules: Ruleset[Any, Any, Any]) -> str:
    """Register ``rules`` with OpenSpiel as :func:`game_name` and return that name; a
    ruleset registered already is left as it is.
    """
    name = game_name(rules)
    if name in _REGISTERED:
        return name
    game_type = _game_type(rules)
    game_class = type(
        f"{rules.title.title().replace(' ', '')}Game",
        (_Game,),
        {"rules": rules, "registered_type": game_type, "__module__": __name__},
    )
    pyspiel.register_game(game_type, game_class)
    _REGISTERED[name] = game_class
    return name


def _register_builtin(names: Sequence[str]) -> None:
    for name in names:
        register(get_ruleset(name))


_register_builtin(("dice-poker", "palace", "account"))
