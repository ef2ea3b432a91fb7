"""Every game as an OpenSpiel game: ``pyspiel.load_game("python_tabletop_palace(players=3)")``.

Importing this module registers the three built-in games with OpenSpiel (the
``openspiel`` extra: ``pip install -e '.[openspiel]'``); :func:`register` registers any
other :class:`~tabletop_rules.protocol.Ruleset` the same way. The parameters are the house
rules but ``auto_chance``; chance is explicit, a deck's deal too (a chance node per card,
then one per byte of the generator's seed); a seat learns only what its view shows; the
returns are zero-sum, at the end. The OpenSpiel page of the docs gives each choice and
its reason.

>>> import pyspiel
>>> game = pyspiel.load_game("python_tabletop_dice_poker(players=2,stages=1)")
>>> state = game.new_initial_state()
>>> state.current_player(), state.action_to_string(state.legal_actions()[0])
(0, 'roll')
"""

from __future__ import annotations

import json
import typing
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs
import numpy as np
import pyspiel

from .._seats import zero_sum_rewards
from ..errors import ConfigError, IllegalMoveError
from ..house_rules import configured, house_rules, value_text
from ..protocol import CHANCE, Ruleset, check_ruleset, get_ruleset
from ..rng import Rng
from ..serialize import dumps, loads

__all__ = [
    "SEED_BYTES",
    "SOLO_SCALE",
    "config_of_parameters",
    "game_name",
    "game_state",
    "parameters_of",
    "register",
]

SEED_BYTES: Final = 8
"""The chance nodes, one byte each, of the seed a game with a deck draws after its cards."""

SOLO_SCALE: Final = 100
"""A one-player game returns ``score / (|score| + SOLO_SCALE)``."""

_AUTO_CHANCE: Final = "auto_chance"
_BYTE: Final = 256
_NONE: Final = -1  # None, for a house rule that is a whole number or None
_SEPARATOR: Final = ";"  # stands for "," in a JSON parameter: game strings split at commas

_Parameter = int | float | bool | str


def game_name(rules: Ruleset[Any, Any, Any]) -> str:
    """The OpenSpiel name of a game: ``python_tabletop_`` and its name, ``-`` as ``_``."""
    return "python_tabletop_" + check_ruleset(rules).name.replace("-", "_")


def game_state(state: Any) -> Any:
    """The library's game state inside an OpenSpiel state; ``None`` until the deal is done."""
    if not isinstance(state, _State):
        raise TypeError(f"expected a state of a tabletop_rules game, got {type(state).__name__}")
    return state.node.state


def _optional_ints(config_type: type[Any]) -> frozenset[str]:
    """The house rules whose values are a whole number or ``None``."""
    hints = typing.get_type_hints(config_type)
    return frozenset(
        name for name, hint in hints.items() if set(typing.get_args(hint)) == {int, type(None)}
    )


def _parameter(config: Any, name: str) -> _Parameter:
    """A house rule's value as an OpenSpiel parameter: itself, -1 for ``None``, or JSON."""
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
    """The OpenSpiel parameters of ``config`` (``None``: the defaults): every house rule
    but ``auto_chance``.

    >>> from tabletop_rules import dice_poker as dp
    >>> parameters_of(dp.RULES)["stage_orders"]
    '["free"]'
    """
    config = check_ruleset(rules).config_type() if config is None else config
    return {
        rule.name: _parameter(config, rule.name)
        for rule in house_rules(rules.config_type)
        if rule.name != _AUTO_CHANCE
    }


def _text(value: object, optional_int: bool) -> str:
    if optional_int and value == _NONE:
        return "null"
    return value.replace(_SEPARATOR, ",") if isinstance(value, str) else json.dumps(value)


def config_of_parameters(rules: Ruleset[Any, Any, Any], parameters: Mapping[str, object]) -> Any:
    """The validated config, with explicit chance, that OpenSpiel ``parameters`` name;
    :class:`~tabletop_rules.errors.ConfigError` for an unknown name or a refused value.
    """
    names = {rule.name for rule in house_rules(check_ruleset(rules).config_type)}
    optional_ints = _optional_ints(rules.config_type)
    texts = [f"{name}={_text(value, name in optional_ints)}" for name, value in parameters.items()]
    if _AUTO_CHANCE in parameters:
        raise ConfigError("the OpenSpiel games always play with explicit chance: no auto_chance")
    if _AUTO_CHANCE in names:
        texts.append(f"{_AUTO_CHANCE}=false")
    return configured(rules.config_type, texts)


@attrs.frozen
class _Deck:
    """A deck as chance outcomes: ``i`` deals ``cards[i]``, of which it holds ``counts[i]``."""

    cards: tuple[Any, ...]
    counts: tuple[int, ...]
    size: int

    @property
    def steps(self) -> int:
        """The deal's chance nodes: one per card, one per byte of the generator's seed."""
        return self.size + SEED_BYTES


@attrs.frozen
class _Node:
    """An OpenSpiel state's Python side as one value: its own deep copy, pickled as JSON."""

    rules: Ruleset[Any, Any, Any]
    config: Any
    deck: _Deck | None
    state: Any  # None until the deal is done
    dealt: tuple[int, ...] = ()
    """The deal's chance outcomes so far: cards, then bytes of the seed (none once done)."""
    left: tuple[int, ...] = ()
    """How many of each of the deck's cards the deal has still to give."""
    record: tuple[str, ...] = ()
    """The text of each move and public chance outcome so far: what every seat saw happen."""

    def deal(self, outcome: int) -> _Node:
        """The node after the deal's next card or seed byte; the last byte starts the game."""
        deck = self.deck
        assert deck is not None
        assert self.state is None
        dealt, left = (*self.dealt, outcome), self.left
        if len(self.dealt) < deck.size:
            if not 0 <= outcome < len(left) or not left[outcome]:
                raise IllegalMoveError(f"deal {outcome} is no card left in the deck")
            left = (*left[:outcome], left[outcome] - 1, *left[outcome + 1 :])
        elif not 0 <= outcome < _BYTE:
            raise IllegalMoveError(f"seed byte {outcome} is not one of 0..{_BYTE - 1}")
        if len(dealt) < deck.steps:
            return attrs.evolve(self, dealt=dealt, left=left)
        cards = tuple(deck.cards[card] for card in dealt[: deck.size])
        seed = int.from_bytes(bytes(dealt[deck.size :]), "big")
        state = self.rules.new_game(self.config, seed=seed, deal=cards)
        return attrs.evolve(self, state=state, dealt=(), left=(), record=(*self.record, "deal"))

    def __deepcopy__(self, memo: object) -> _Node:
        return self

    def __reduce__(self) -> tuple[Callable[[str], _Node], tuple[str]]:
        text = json.dumps(
            {
                "game": self.rules.name,
                "config": dumps(self.config),
                "dealt": list(self.dealt),
                "state": None if self.state is None else dumps(self.state),
                "record": list(self.record),
            }
        )
        return _node_from_json, (text,)


def _node_from_json(text: str) -> _Node:
    """The node :meth:`_Node.__reduce__` wrote, each part validated (the deal, re-dealt)."""
    data = json.loads(text)
    rules = get_ruleset(data["game"])
    config = loads(data["config"], rules.config_type)
    state = None if data["state"] is None else loads(data["state"], rules.state_type)
    if state is not None and rules.config_of(state) != config:
        raise ValueError("the serialized state's config is not its game's")
    record = tuple(str(text) for text in data["record"])
    dealt = [int(outcome) for outcome in data["dealt"]]
    node = _initial_node(rules, config)
    if state is not None:
        if dealt:
            raise ValueError("a serialized state after the deal holds no deal in progress")
        return attrs.evolve(node, state=state, left=(), record=record)
    if node.deck is None or len(dealt) >= node.deck.steps:
        raise ValueError("a serialized state before its game starts is a deal in progress")
    for outcome in dealt:
        node = node.deal(outcome)
    return attrs.evolve(node, record=record)


def _initial_node(rules: Ruleset[Any, Any, Any], config: Any) -> _Node:
    """The node before the first move: the deal to come, or the game from seed 0 (with
    explicit chance its generator draws nothing); ``ConfigError`` for no deck to deal.
    """
    if rules.deal_type is None:
        return _Node(rules, config, None, rules.new_game(config, seed=0))
    cards = rules.deck(config)
    if not cards:
        raise ConfigError(f"{rules.name} has a deal_type but its ruleset names no deck")
    counts = Counter(cards)  # each card once, in the deck's order
    deck = _Deck(tuple(counts), tuple(counts.values()), len(cards))
    return _Node(rules, config, deck, None, left=deck.counts)


class _State(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state: the game's state (or the deal still to come) in a node."""

    def __init__(self, game: _Game) -> None:
        super().__init__(game)
        self.node: _Node = game.initial_node
        """The game state and its context."""

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` at a chance node, ``TERMINAL`` when over."""
        node = self.node
        player = CHANCE if node.state is None else node.rules.current_player(node.state)
        if player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else player

    def _legal_actions(self, player: int) -> list[int]:
        node = self.node
        return sorted(node.rules.encode(move) for move in node.rules.legal_moves(node.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each chance outcome (from 0) and its probability."""
        node = self.node
        if node.state is None:
            assert node.deck is not None
            remaining = node.deck.size - len(node.dealt)
            if remaining > 0:
                return [(card, n / remaining) for card, n in enumerate(node.left) if n]
            return [(byte, 1.0 / _BYTE) for byte in range(_BYTE)]
        offset = node.rules.chance_offset(node.config)
        return sorted(
            (node.rules.encode(move) - offset, float(probability))
            for move, probability in node.rules.chance_probabilities(node.state).items()
        )

    def _apply_action(self, action: int) -> None:
        node = self.node
        rules = node.rules
        if node.state is None:
            self.node = node.deal(action)
            return
        number = action
        if rules.current_player(node.state) == CHANCE:
            number += rules.chance_offset(node.config)
        elif not 0 <= action < rules.chance_offset(node.config):
            raise IllegalMoveError(f"action {action} is not a player's action number")
        move = rules.decode(node.state, number)
        state = rules.apply(node.state, move)
        self.node = attrs.evolve(node, state=state, record=(*node.record, rules.format_move(move)))

    def _action_to_string(self, player: int, action: int) -> str:
        node = self.node
        if player == pyspiel.PlayerId.CHANCE:
            if node.state is None:
                assert node.deck is not None
                cards = node.deck.cards
                if len(node.dealt) >= node.deck.size:
                    return f"seed byte {action}"
                return f"deal {cards[action] if 0 <= action < len(cards) else action}"
            action += node.rules.chance_offset(node.config)
        return node.rules.action_text(node.config, action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        node = self.node
        return node.state is not None and node.rules.is_over(node.state)

    def returns(self) -> list[float]:
        """Each seat's return: zero-sum in ``[-1, 1]`` (see the module's introduction)."""
        rules, state, players = self.node.rules, self.node.state, self.num_players()
        if state is None or not rules.is_over(state):
            return [0.0] * players
        if players == 1:
            (score,) = rules.score(state)
            return [score / (abs(score) + SOLO_SCALE)]
        return zero_sum_rewards(rules.winners(state), players)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> _State:
        """A state with this history that ``player_id`` cannot tell from it: what it does
        not see re-dealt (``determinize``), from a generator the sampler seeds.
        """
        clone: _State = self.clone()
        node = self.node
        rng = Rng.from_seed(int(probability_sampler() * (1 << 53)))
        if node.state is not None:
            view = node.rules.view(node.state, player_id)
            clone.node = attrs.evolve(node, state=node.rules.determinize(view, rng))
        elif node.dealt:
            assert node.deck is not None
            deck = node.deck
            cards, rng = rng.shuffled([c for c, n in enumerate(deck.counts) for _ in range(n)])
            sample = attrs.evolve(node, dealt=(), left=deck.counts)
            for step in range(len(node.dealt)):
                if step < deck.size:
                    sample = sample.deal(cards[step])
                else:
                    byte, rng = rng.below(_BYTE)
                    sample = sample.deal(byte)
            clone.node = sample
        return clone

    def __str__(self) -> str:
        """The whole state (no seat's view): the game's JSON, or the deal so far."""
        node = self.node
        if node.state is not None:
            return dumps(node.state)
        assert node.deck is not None
        size = node.deck.size
        cards = [str(node.deck.cards[card]) for card in node.dealt[:size]]
        seed = [str(byte) for byte in node.dealt[size:]]
        return " ".join(["(the deal)", *cards, *(["seed", *seed] if seed else [])])


class _Observer:
    """OpenSpiel's ``PyObserver`` of a state by one seat, through its view only."""

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
        self.tensor[:] = 0.0 if view is None else self.rules.observe(view)

    def string_from(self, state: _State, player: int) -> str:
        """``state`` as ``player`` sees it: its view's JSON, with the moves so far above."""
        node = state.node
        view = self._view(state, player)
        if view is None:
            assert node.deck is not None
            done = len(node.dealt)
            now = f"seat {player}: the deal, {done} of {node.deck.steps} chance outcomes drawn"
        else:
            now = dumps(view)
        return "\n".join([*node.record, now]) if self.perfect_recall else now


class _Game(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game of one ruleset and one config; subclassed per ruleset."""

    rules: Ruleset[Any, Any, Any]
    facts: dict[str, Any]
    """The ``GameType`` registered, as keywords."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        rules = self.rules
        given: dict[str, Any] = dict(params or {})
        config = config_of_parameters(rules, given)
        self.config = config
        self.initial_node = _initial_node(rules, config)
        deck = self.initial_node.deck
        players = rules.players(config)
        offset = rules.chance_offset(config)
        dice = rules.num_actions(config) - offset
        info = pyspiel.GameInfo(
            num_distinct_actions=offset,
            max_chance_outcomes=max(dice, len(deck.cards), _BYTE) if deck else dice,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=rules.max_moves(config),
        )
        self._max_chance_nodes = (rules.max_moves(config) if dice else 0) + (
            deck.steps if deck else 0
        )
        # This config's type: general-sum alone at the table, deterministic without chance.
        facts = dict(self.facts)
        if players == 1:
            facts["utility"] = pyspiel.GameType.Utility.GENERAL_SUM
        if not dice and deck is None:
            facts["chance_mode"] = pyspiel.GameType.ChanceMode.DETERMINISTIC
        super().__init__(pyspiel.GameType(**facts), info, given)

    def new_initial_state(self, *_args: object) -> _State:
        """The game before its first move (before the deal, for a game with a deck)."""
        return _State(self)

    def max_chance_nodes_in_history(self) -> int:
        """One chance node per move of the game's bound, and the deal's."""
        return self._max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, object] | None = None
    ) -> _Observer:
        """An observer of a seat's view, or the spectator's for public information only."""
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


def _game_facts(rules: Ruleset[Any, Any, Any]) -> dict[str, Any]:
    """The OpenSpiel ``GameType`` of a ruleset, as keywords."""
    fewest, most = rules.seats
    return {
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
        "max_num_players": most,
        "min_num_players": fewest,
        "provides_information_state_string": True,
        "provides_information_state_tensor": False,
        "provides_observation_string": True,
        "provides_observation_tensor": True,
        "parameter_specification": parameters_of(rules),
    }


_REGISTERED: dict[str, type[_Game]] = {}


def register(rules: Ruleset[Any, Any, Any]) -> str:
    """Register ``rules`` with OpenSpiel (once) as :func:`game_name`; that name."""
    name = game_name(rules)
    if name in _REGISTERED:
        return name
    facts = _game_facts(rules)
    game_class = type(
        f"{rules.title.title().replace(' ', '')}Game",
        (_Game,),
        {"rules": rules, "facts": facts, "__module__": __name__},
    )
    pyspiel.register_game(pyspiel.GameType(**facts), game_class)
    _REGISTERED[name] = game_class
    return name


for _builtin in ("dice-poker", "palace", "account"):
    register(get_ruleset(_builtin))
