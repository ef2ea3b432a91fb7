"""Game records: ``{game, version, config, seed, moves}``, enough to replay a game exactly,
the moves in the game's notation (as PGN does), so a record reads as well as it replays.

>>> from tabletop_rules import dice_poker as dp
>>> state = dp.new_game(seed=9)
>>> record = GameRecord.start(dp.RULES, state)
>>> for text in ("roll", "write chance"):
...     record = record.play(text)
>>> record.moves
('roll', 'write chance')
>>> final = replay(GameRecord.from_json(record.to_json()))
>>> final == dp.apply(dp.apply(state, dp.Roll()), dp.Write(dp.Box.CHANCE))
True
"""

from __future__ import annotations

import json
import warnings
from collections import deque
from collections.abc import Iterator
from operator import attrgetter
from typing import Any, TypeVar, overload

import attrs

from ._messages import short_repr, short_text
from .errors import InvalidStateError, TabletopError
from .protocol import Ruleset, check_ruleset, get_ruleset
from .rng import is_valid_state
from .serialize import (
    DocumentKind,
    add_document_kind,
    converter,
    document_game,
    from_data,
    parse_json,
    to_data,
)

__all__ = [
    "GameRecord",
    "check_record",
    "record_data",
    "record_from_data",
    "replay",
    "replay_states",
    "replay_steps",
]


@attrs.frozen
class GameRecord:
    """A game as its setup and moves. ``moves`` are in the game's notation.

    Attributes:
        game: The registry name of the game, e.g. ``"dice-poker"``.
        config: The game's ``Config``.
        seed: The seed the game started from.
        moves: Every move in order, chance outcomes included, as notation text.
        deal: The deck order the game was dealt from, when ``new_game`` was given one
            (``deal=``); ``None`` when the seed shuffled it, or the game has no deck.

    """

    game: str
    config: Any
    seed: int
    moves: tuple[str, ...] = ()
    deal: tuple[Any, ...] | None = None

    @classmethod
    def start(cls, ruleset: Ruleset[Any, Any, Any], state: Any) -> GameRecord:
        """An empty record of the game that ``state`` begins; ``InvalidStateError`` if
        ``state`` is not the new game of its config and seed.
        """
        ruleset = check_ruleset(ruleset)
        config, seed = ruleset.config_of(state), ruleset.seed_of(state)
        deal = ruleset.deal_of(state)
        if ruleset.new_game(config, seed=seed, deal=deal) != state:
            raise InvalidStateError("GameRecord.start needs a new game, not one already under way")
        return cls(ruleset.name, config, seed, deal=deal)

    @property
    def ruleset(self) -> Ruleset[Any, Any, Any]:
        """The game's ruleset."""
        return get_ruleset(self.game)

    _reached: Any = attrs.field(default=None, init=False, eq=False, repr=False)
    """The state the moves lead to, kept by :meth:`play` so as not to replay each time."""

    def play(self, move: Any) -> GameRecord:
        """This record with ``move`` (a move or its notation) appended, in notation as the
        listed move it equals (``canonical``), once it is legal where the moves lead.
        ``NotationError`` or ``IllegalMoveError`` for a move that cannot be played there,
        ``InvalidStateError`` for a record whose own moves cannot be replayed.
        """
        ruleset = self.ruleset
        state = self._reached if self._reached is not None else replay(self)
        if isinstance(move, str):
            move = ruleset.parse_move(state, move)  # the listed move already
        else:
            move = ruleset.canonical(state, move)  # as its text will be read on replay
        reached = ruleset.apply(state, move)
        record = attrs.evolve(self, moves=(*self.moves, ruleset.format_move(move)))
        object.__setattr__(record, "_reached", reached)  # a cache, outside eq and repr
        return record

    def to_json(self) -> str:
        """The record as JSON: ``{"game", "version", "config", "seed", "deal", "moves"}``,
        ``deal`` only for a game dealt from a given deck order.
        """
        header = {"game": self.game, "version": self.ruleset.format_version}
        return json.dumps({**header, **record_data(self)})

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """The record :meth:`to_json` wrote, read under the limits of
        :func:`~tabletop_rules.serialize.parse_json`; ``InvalidStateError`` if malformed.
        """
        data = parse_json(text)
        if not isinstance(data, dict) or data.keys() - {"deal"} != {"game", "version", *_KEYS}:
            raise InvalidStateError(
                "a game record has game, version, config, seed and moves (and deal, for a "
                "game dealt from a given deck), and nothing else"
            )
        ruleset = document_game(data.pop("game"), data.pop("version"), "record")
        return record_from_data(ruleset, data)


StateT = TypeVar("StateT")

_KEYS = frozenset({"config", "seed", "moves"})


def record_data(record: GameRecord) -> dict[str, Any]:
    """The record's ``config``, ``seed``, ``deal`` (if any) and ``moves`` as JSON data,
    for :func:`~tabletop_rules.serialize.dumps` and :meth:`GameRecord.to_json`.
    """
    if type(record) is not GameRecord:
        raise TypeError(f"expected a GameRecord, got {short_repr(record)}")
    data: dict[str, Any] = {"config": to_data(record.config), "seed": record.seed}
    if record.deal is not None:
        data["deal"] = converter.unstructure(list(record.deal))
    return {**data, "moves": list(record.moves)}


def record_from_data(ruleset: Ruleset[Any, Any, Any], data: Any) -> GameRecord:
    """The record of ``ruleset``'s game that :func:`record_data` wrote, checked by
    :func:`check_record`; ``InvalidStateError`` if it is malformed.
    """
    if not isinstance(data, dict) or data.keys() - {"deal"} != _KEYS:
        raise InvalidStateError(
            "a game record has config, seed and moves (and deal, for a game dealt from a "
            "given deck), and nothing else"
        )
    moves = data["moves"]
    if type(moves) is not list:
        raise InvalidStateError("moves must be a list of move texts")
    config = from_data(data["config"], ruleset.config_type)
    deal = _deal_from_data(ruleset, data["deal"]) if "deal" in data else None
    record = GameRecord(ruleset.name, config, data["seed"], tuple(moves), deal)
    check_record(record)
    return record


def _deal_from_data(ruleset: Ruleset[Any, Any, Any], data: Any) -> tuple[Any, ...]:
    """A deal's cards from JSON data, in the game's own form (cards as text)."""
    if ruleset.deal_type is None:
        raise InvalidStateError(f"a {ruleset.name} record has no deal: the game has no deck")
    if type(data) is not list:
        raise InvalidStateError("deal must be a list of cards")
    try:
        deal = tuple(converter.structure(item, ruleset.deal_type) for item in data)
    except Exception as error:  # data of any shape: the game's card hook says what is wrong
        raise InvalidStateError(f"malformed {ruleset.name} deal: {short_text(error)}") from error
    if converter.unstructure(list(deal)) != data:
        raise InvalidStateError(f"{ruleset.name} deal: loading takes only what dumps writes")
    return deal


def check_record(record: GameRecord) -> None:
    """``InvalidStateError`` unless ``record`` holds a registered game, its ``Config``, a
    seed in ``[0, 2**64)``, a tuple of move texts, and no deal or a tuple of its cards
    (whether the moves can be played is for :func:`replay_states`).
    """
    if not isinstance(record, GameRecord):
        raise InvalidStateError(f"expected a GameRecord, got {type(record).__name__}")
    ruleset = document_game(record.game)
    if type(record.config) is not ruleset.config_type:
        raise InvalidStateError(
            f"a {record.game} record needs a {ruleset.config_type.__name__}, "
            f"got {type(record.config).__name__}"
        )
    if not is_valid_state(record.seed):
        raise InvalidStateError(
            f"seed must be an integer in [0, 2**64), got {short_repr(record.seed)}"
        )
    moves = record.moves
    if type(moves) is not tuple or not all(type(move) is str for move in moves):
        raise InvalidStateError("moves must be a list of move texts")
    deal, card = record.deal, ruleset.deal_type
    if deal is not None and card is None:
        raise InvalidStateError(f"a {record.game} record has no deal: the game has no deck")
    if deal is not None and (type(deal) is not tuple or any(type(c) is not card for c in deal)):
        raise InvalidStateError(f"a {record.game} record's deal is None or a tuple of its cards")


def replay_states(record: GameRecord) -> Iterator[Any]:
    """Every state of the recorded game, the new game first; ``InvalidStateError`` for a
    record :func:`check_record` refuses, or naming the first move that cannot be played.
    """
    for _move, state, _events in replay_steps(record, events=False):
        yield state


def replay_steps(
    record: GameRecord, *, events: bool = True, rules: Ruleset[Any, Any, Any] | None = None
) -> Iterator[tuple[Any, Any, Any]]:
    """``(move, state, events)`` for the new game (``None``, the new game, ``()``), then for
    each recorded move (events ``()`` with ``events=False``, which skips making them);
    ``InvalidStateError`` as :func:`replay_states` raises it, or for another game than ``rules``.
    """
    try:
        check_record(record)
        ruleset = record.ruleset
        state = ruleset.new_game(record.config, seed=record.seed, deal=record.deal)
    except TabletopError as error:
        raise InvalidStateError(f"the record cannot start a game: {error}") from error
    if rules is not None and rules.name != record.game:
        raise InvalidStateError(f"a {record.game} record cannot be replayed as {rules.name}")
    yield None, state, ()
    happened: tuple[Any, ...] = ()
    for number, text in enumerate(record.moves, 1):
        try:
            move = ruleset.parse_move(state, text)
            if events:
                state, happened = ruleset.apply_with_events(state, move)
            else:
                state = ruleset.apply(state, move)
        except TabletopError as error:
            raise InvalidStateError(
                f"move {number} ({short_repr(text)}) cannot be played: {error}"
            ) from error
        yield move, state, happened


def rules_and_record(
    caller: str, first: object, second: object
) -> tuple[Ruleset[Any, Any, Any] | None, Any]:
    """The ruleset (``None``: the record's own) and the record of ``caller(rules, record)``
    or ``caller(record)``; the older ``caller(record, rules)`` warns ``DeprecationWarning``.
    """
    if second is None:
        return None, first
    if type(first) is GameRecord:
        warnings.warn(
            f"{caller}(record, rules) is deprecated: write {caller}(rules, record), the "
            f"rules first as in Match(rules, ...) and GameRecord.start(rules, ...)",
            DeprecationWarning,
            stacklevel=3,
        )
        first, second = second, first
    return check_ruleset(first), second


@overload
def replay(rules: Ruleset[Any, StateT, Any], record: GameRecord, /) -> StateT: ...


@overload
def replay(record: GameRecord, /) -> Any: ...


@overload
def replay(record: GameRecord, rules: Ruleset[Any, StateT, Any], /) -> StateT: ...


def replay(
    rules: Ruleset[Any, Any, Any] | GameRecord,
    record: GameRecord | Ruleset[Any, Any, Any] | None = None,
    /,
) -> Any:
    """The state the recorded game reached: ``replay(rules, record)`` (the game's own
    ``State`` type, the record checked to be of that game), or ``replay(record)``.

    >>> from tabletop_rules import dice_poker as dp
    >>> record = GameRecord("dice-poker", dp.Config(), 9, ("roll",))
    >>> replay(dp.RULES, record).throws_used
    1
    >>> from tabletop_rules import palace
    >>> replay(palace.RULES, record)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.InvalidStateError: a dice-poker record cannot be replayed as palace

    The older ``replay(record, rules)`` works for one release, with a ``DeprecationWarning``.
    """
    ruleset, checked = rules_and_record("replay", rules, record)
    last = deque(replay_steps(checked, events=False, rules=ruleset), maxlen=1)
    return last[0][1]


add_document_kind(
    "record",
    DocumentKind(
        GameRecord, attrgetter("ruleset"), to_data=record_data, from_data=record_from_data
    ),
)
