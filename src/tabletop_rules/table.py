"""The table one seat sees: everything a front end shows that seat, as one value.

:func:`seat_table` reads a :class:`~tabletop_rules.match.Match` for a seat (or a
spectator, ``None``) and gives a :class:`Table`: the seat's view, the game's drawing of it
(:meth:`~tabletop_rules.game.Game.drawn`), the seat's legal moves in notation and as
action numbers, the moves since a cursor with their events told for that seat, whose
turn, the scores and the result. Nothing in it comes from another seat's view, so a
server sends it as it is; :meth:`Table.to_json` is plain JSON data, described for clients
in other languages by :data:`TABLE_SCHEMA`.

>>> from tabletop_rules import Match, dice_poker
>>> match = Match(dice_poker.RULES, dice_poker.Config(stages=1), seed=7)
>>> events = match.play("roll")
>>> table = seat_table(match, 1)
>>> table.version, table.to_move, table.moves
(1, 0, ())
>>> table.log
(LogEntry(number=1, seat=0, move='roll', events=('P0 threw 1 2 2 3 3 (throw 1)',)),)
>>> seat_table(match, 0, since=1).log, seat_table(match, 0).moves[:2]
((), ('roll', 'roll keep 1'))
>>> Table.from_json(table.to_json()) == table
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

import attrs

from ._messages import short_repr
from .bots import own_bot_name
from .errors import InvalidStateError
from .game import CHANCE, Seat
from .house_rules import house_rules
from .match import Match
from .protocol import Ruleset, check_ruleset
from .serialize import document_game, from_data, to_data

__all__ = ["TABLE_SCHEMA", "LogEntry", "Table", "game_entry", "seat_table", "state_table"]


def _frozen(notes: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(notes))


@attrs.frozen(kw_only=True)
class LogEntry:
    """One move of the game as a seat reads it."""

    number: int
    """The move's number, from 1."""
    seat: int
    """The seat that moved; :data:`~tabletop_rules.game.CHANCE` (-1) for a chance outcome."""
    move: str
    """The move in notation."""
    events: tuple[str, ...]
    """Its events, each in one sentence as the table's seat may read it
    (:meth:`~tabletop_rules.game.Game.describe`)."""


@attrs.frozen(kw_only=True)
class Table:
    """What one seat (or a spectator) of a match sees now, built by :func:`seat_table`."""

    game: str
    """The game's registry name: ``"dice-poker"``."""
    title: str
    """The game's name for people: ``"Dice poker"``."""
    seat: int | None
    """Whose table this is; ``None``: a spectator's."""
    players: int
    """The number of seats."""
    version: int
    """The moves played so far: the state version a move answers."""
    to_move: int | None
    """The seat to move, :data:`~tabletop_rules.game.CHANCE` at a chance point, ``None``
    once over."""
    view: Any
    """The seat's view as the library's serializer writes it
    (:func:`~tabletop_rules.serialize.to_data`): JSON data."""
    display: str
    """The view drawn as plain text (:meth:`~tabletop_rules.game.Game.display`)."""
    drawn: Any
    """The view drawn as data for a graphical front end
    (:meth:`~tabletop_rules.game.Game.drawn`), or ``None`` for a game without one."""
    moves: tuple[str, ...]
    """The seat's legal moves in notation; empty unless it is to move."""
    actions: tuple[int, ...]
    """The action number of each of :attr:`moves`, in the same order."""
    move_notes: Mapping[str, str] = attrs.field(converter=_frozen)
    """A note for some of :attr:`moves`, by notation: what the move would do."""
    hints: tuple[str, ...]
    """What the seat's moves would do, in a few lines (:meth:`~tabletop_rules.game.Game.hint`);
    empty unless it is to move."""
    log_from: int
    """The cursor the log starts after: the ``since`` asked, at most :attr:`version`."""
    log: tuple[LogEntry, ...]
    """Moves ``log_from + 1`` to :attr:`version`, as the seat reads them."""
    scores: tuple[int, ...]
    """Each seat's score now."""
    over: bool
    """Whether the game has ended."""
    winners: tuple[int, ...]
    """The winning seats, sorted; empty until the game is over."""

    def to_json(self) -> dict[str, Any]:
        """The table as plain JSON data (``json.dumps`` writes it), as :data:`TABLE_SCHEMA`
        describes it.
        """
        return {
            "game": self.game,
            "title": self.title,
            "seat": self.seat,
            "players": self.players,
            "version": self.version,
            "to_move": self.to_move,
            "view": self.view,
            "display": self.display,
            "drawn": self.drawn,
            "moves": list(self.moves),
            "actions": list(self.actions),
            "move_notes": dict(self.move_notes),
            "hints": list(self.hints),
            "log_from": self.log_from,
            "log": [
                {
                    "number": entry.number,
                    "seat": entry.seat,
                    "move": entry.move,
                    "events": list(entry.events),
                }
                for entry in self.log
            ],
            "scores": list(self.scores),
            "over": self.over,
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, data: object) -> Table:
        """The table :meth:`to_json` wrote, checked field by field (the view by the game's
        own loader); :class:`~tabletop_rules.errors.InvalidStateError` saying what is wrong
        with any other document.
        """
        fields = _object(data, "a table", _TABLE_KEYS)
        ruleset = document_game(fields["game"])
        players = _int(fields, "players", 1)
        version = _int(fields, "version", 0)
        seat = _seat(fields["seat"], players)
        to_move = fields["to_move"]
        if to_move is not None and (type(to_move) is not int or not CHANCE <= to_move < players):
            raise _bad("to_move", to_move, f"a seat, {CHANCE} (chance) or null")
        view = fields["view"]
        if not isinstance(view, dict):
            raise _bad("view", view, "an object")
        seen = from_data(view, ruleset.view_type)
        if seen.seat != seat:
            raise InvalidStateError(f"the view is {_whose(seen.seat)}, the table {_whose(seat)}")
        moves = _texts(fields, "moves")
        actions = tuple(_items(fields, "actions", int))
        if len(actions) != len(moves) or any(action < 0 for action in actions):
            raise _bad("actions", fields["actions"], "an action number from 0 for each move")
        notes = fields["move_notes"]
        if not isinstance(notes, dict) or not all(type(n) is str for n in notes.values()):
            raise _bad("move_notes", notes, "an object of texts")
        log_from = _int(fields, "log_from", 0)
        if log_from > version:
            raise _bad("log_from", log_from, f"at most the version, {version}")
        entries = fields["log"]
        if not isinstance(entries, list):
            raise _bad("log", entries, "an array of moves")
        log = tuple(_entry(item, log_from + 1 + at, players) for at, item in enumerate(entries))
        if len(log) != version - log_from:
            raise _bad("log", entries, f"moves {log_from + 1} to {version}")
        scores = tuple(_items(fields, "scores", int))
        if len(scores) != players:
            raise _bad("scores", fields["scores"], f"a score for each of {players} seats")
        over = fields["over"]
        if type(over) is not bool or over != (to_move is None):
            raise _bad("over", over, "true exactly when no seat is to move")
        winners = tuple(_items(fields, "winners", int))
        if list(winners) != sorted(set(winners)) or not set(winners) <= set(range(players)):
            raise _bad("winners", fields["winners"], "seats, sorted, each once")
        _text(fields, "title")
        _text(fields, "display")
        return cls(
            game=ruleset.name,
            title=fields["title"],
            seat=seat,
            players=players,
            version=version,
            to_move=to_move,
            view=view,
            display=fields["display"],
            drawn=_drawn(fields["drawn"]),
            moves=moves,
            actions=actions,
            move_notes=notes,
            hints=_texts(fields, "hints"),
            log_from=log_from,
            log=log,
            scores=scores,
            over=over,
            winners=winners,
        )


def seat_table(match: Match[Any, Any, Any], seat: Seat | None, *, since: int = 0) -> Table:
    """What ``seat`` (``None``: a spectator) of ``match`` sees now, with the log of the
    moves after the first ``since`` (a client's cursor; one past the moves played, as
    after a take-back, is clipped, and the client replaces its log from
    :attr:`Table.log_from` on). ``SeatError`` for a seat not at the table, ``TypeError``
    for what is no match, seat or cursor.
    """
    if not isinstance(match, Match):
        raise TypeError(f"seat_table needs a Match, got {short_repr(match)}")
    if type(since) is not int or since < 0:
        raise TypeError(f"since is a whole number of moves from 0, got {short_repr(since)}")
    rules, history, moves, events = match.rules, match.history, match.moves, match.move_events
    version = len(moves)
    last = events[-1] if version else ()
    table = state_table(rules, match.state, seat, events=last, version=version)
    log_from = min(since, version)
    log = tuple(
        LogEntry(
            number=index + 1,
            seat=_mover(rules, history[index]),
            move=rules.format_move(moves[index]),
            events=tuple(rules.describe(event, seat) for event in events[index]),
        )
        for index in range(log_from, version)
    )
    return attrs.evolve(table, log_from=log_from, log=log)


def state_table(
    rules: Ruleset[Any, Any, Any],
    state: Any,
    seat: Seat | None,
    *,
    events: Sequence[Any] = (),
    version: int = 0,
) -> Table:
    """What ``seat`` sees of ``state`` alone, a state without a match's history (one
    loaded, or set up): :func:`seat_table`'s table with an empty log from ``version``;
    ``events`` are those of the move that led to ``state`` (all of them: each is redacted
    for ``seat`` here). In every state ``seat`` cannot tell from ``state`` its table is
    the same (the conformance suite's leak check compares them).
    """
    check_ruleset(rules)
    if type(version) is not int or version < 0:
        raise TypeError(f"version is a whole number of moves from 0, got {short_repr(version)}")
    seen = rules.view(state, seat)
    player = rules.current_player(state)
    to_move = seat is not None and player == seat
    legal = seen.legal_moves if to_move else ()
    redacted = [rules.redact(event, seat) for event in events]
    return Table(
        game=rules.name,
        title=rules.title,
        seat=seat,
        players=rules.players(rules.config_of(state)),
        version=version,
        to_move=player,
        view=_plain(to_data(seen), "view"),
        display=rules.display(seen),
        drawn=_drawn(rules.drawn(seen, redacted)),
        moves=tuple(map(rules.format_move, legal)),
        actions=tuple(map(rules.encode, legal)),
        move_notes=rules.move_notes(seen) if to_move else {},
        hints=tuple(rules.hint(seen)) if to_move else (),
        log_from=version,
        log=(),
        scores=tuple(rules.score(state)),
        over=player is None,
        winners=tuple(sorted(rules.winners(state))),
    )


def _mover(rules: Ruleset[Any, Any, Any], before: Any) -> int:
    player = rules.current_player(before)
    assert player is not None, "a move was played after the game ended"
    return int(player)


# --- reading a document ------------------------------------------------------------------

_TABLE_KEYS: Final = frozenset(attrs.fields_dict(Table))
_ENTRY_KEYS: Final = frozenset(attrs.fields_dict(LogEntry))


def _whose(seat: int | None) -> str:
    return "a spectator's" if seat is None else f"seat {seat}'s"


def _bad(name: str, value: object, wanted: str) -> InvalidStateError:
    return InvalidStateError(f"a table's {name} is {wanted}, got {short_repr(value)}")


def _object(data: object, what: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidStateError(f"{what} is a JSON object, got {short_repr(data)}")
    if data.keys() != keys:
        missing, extra = sorted(keys - data.keys()), sorted(map(str, data.keys() - keys))
        said = [f"missing {', '.join(missing)}"] if missing else []
        said += [f"unknown {', '.join(extra)}"] if extra else []
        raise InvalidStateError(
            f"{what} has the fields {', '.join(sorted(keys))}: {'; '.join(said)}"
        )
    return data


def _int(fields: dict[str, Any], name: str, least: int) -> int:
    value = fields[name]
    if type(value) is not int or value < least:
        raise _bad(name, value, f"a whole number from {least}")
    return value


def _seat(value: object, players: int) -> int | None:
    if value is not None and (type(value) is not int or not 0 <= value < players):
        raise _bad("seat", value, f"a seat from 0 to {players - 1} or null")
    return value


def _text(fields: dict[str, Any], name: str) -> str:
    value = fields[name]
    if type(value) is not str:
        raise _bad(name, value, "text")
    return value


def _items(fields: dict[str, Any], name: str, kind: type[Any]) -> list[Any]:
    value = fields[name]
    if not isinstance(value, list) or not all(type(item) is kind for item in value):
        raise _bad(name, value, f"an array of {'texts' if kind is str else 'whole numbers'}")
    return value


def _texts(fields: dict[str, Any], name: str) -> tuple[str, ...]:
    return tuple(_items(fields, name, str))


def _entry(item: object, number: int, players: int) -> LogEntry:
    fields = _object(item, f"move {number} of a table's log", _ENTRY_KEYS)
    if type(fields["number"]) is not int or fields["number"] != number:
        raise _bad("log", item, f"move {number} next")
    seat = fields["seat"]
    if type(seat) is not int or not CHANCE <= seat < players:
        raise _bad("log", item, f"move {number} by a seat or {CHANCE} (chance)")
    return LogEntry(
        number=number, seat=seat, move=_text(fields, "move"), events=_texts(fields, "events")
    )


def _drawn(value: object) -> dict[str, Any] | None:
    """A drawing as plain JSON data: an object, or ``None`` for a game that draws none."""
    if value is not None and not isinstance(value, Mapping):
        raise InvalidStateError(f"drawn is an object or null, got {short_repr(value)}")
    return _plain(None if value is None else dict(value), "drawn")  # type: ignore[no-any-return]


def _plain(value: object, where: str) -> Any:
    """``value`` as plain JSON data (tuples as lists): objects with text keys, arrays,
    text, whole and finite numbers, booleans and null; ``InvalidStateError`` otherwise,
    naming the place of the fault below ``where``.
    """
    try:
        return _json_data(value)
    except _NotJsonError as fault:
        place = "".join(reversed(fault.path))
        raise InvalidStateError(f"{where}{place} {fault.problem}") from None


class _NotJsonError(Exception):
    """A value that is no JSON data; ``path`` grows, innermost first, as it rises."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path: list[str] = []


def _json_data(value: object) -> Any:
    """:func:`_plain`'s walk. The place of a fault is put together only as the fault
    rises, so the tables a server builds every move spend nothing on it.
    """
    if value is None or type(value) in (str, int, bool):
        return value
    if type(value) is float and math.isfinite(value):
        return value
    if isinstance(value, list | tuple):
        items = []
        for index, item in enumerate(value):
            try:
                items.append(_json_data(item))
            except _NotJsonError as fault:
                fault.path.append(f"[{index}]")
                raise
        return items
    if isinstance(value, dict):
        if not all(type(key) is str for key in value):
            raise _NotJsonError(f"has a key that is not text: {short_repr(value)}")
        data = {}
        for key, item in value.items():
            try:
                data[key] = _json_data(item)
            except _NotJsonError as fault:
                fault.path.append(f".{key}")
                raise
        return data
    raise _NotJsonError(f"is {short_repr(value)}, which is no JSON data")


def game_entry(rules: Ruleset[Any, Any, Any]) -> dict[str, Any]:
    """A game as a front end's start form offers it, as JSON data: its name and title, its
    bots (and the best), its seats under the default rules, and each house rule with its
    default as text, its description and how a form asks for it (``kind``: ``bool``,
    ``choice`` with its ``choices``, ``number`` or ``text``, JSON for the structured ones).

    >>> from tabletop_rules import palace
    >>> entry = game_entry(palace.RULES)
    >>> entry["players"], entry["best_bot"]
    (2, 'lowcard')
    >>> next(rule for rule in entry["rules"] if rule["name"] == "must_beat")["choices"]
    ['equal_or_higher', 'higher']
    """
    check_ruleset(rules)
    hints = get_type_hints(rules.config_type)
    return {
        "name": rules.name,
        "title": rules.title,
        "bots": list(rules.bots),
        "best_bot": own_bot_name(rules),
        "players": rules.players(rules.config_type()),
        "rules": [
            {
                "name": rule.name,
                "default": rule.default_text,
                "description": rule.description,
                **_input_kind(hints[rule.name]),
            }
            for rule in house_rules(rules.config_type)
        ],
    }


def _input_kind(hint: Any) -> dict[str, Any]:
    """How a form asks for a value of type ``hint``."""
    if hint is bool:
        return {"kind": "bool"}
    if get_origin(hint) is Literal:
        return {"kind": "choice", "choices": [str(choice) for choice in get_args(hint)]}
    if hint is int:
        return {"kind": "number"}
    return {"kind": "text"}


# --- the schema --------------------------------------------------------------------------

_SEAT: Final = {"type": "integer", "minimum": 0}
_COUNT: Final = {"type": "integer", "minimum": 0}
_TEXTS: Final = {"type": "array", "items": {"type": "string"}}

TABLE_SCHEMA: Final[Mapping[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tabletop_rules table",
    "description": "What one seat (or a spectator) of a match sees: Table.to_json().",
    "type": "object",
    "additionalProperties": False,
    "required": sorted(_TABLE_KEYS),
    "properties": {
        "game": {"type": "string", "description": "The game's registry name."},
        "title": {"type": "string", "description": "The game's name for people."},
        "seat": {
            "oneOf": [_SEAT, {"type": "null"}],
            "description": "Whose table this is; null: a spectator's.",
        },
        "players": {"type": "integer", "minimum": 1, "description": "The number of seats."},
        "version": {**_COUNT, "description": "Moves played so far; a move answers it."},
        "to_move": {
            "oneOf": [{"type": "integer", "minimum": CHANCE}, {"type": "null"}],
            "description": "The seat to move, -1 at a chance point, null once over.",
        },
        "view": {
            "type": "object",
            "description": "The seat's view as the library's serializer writes it.",
        },
        "display": {"type": "string", "description": "The view drawn as plain text."},
        "drawn": {
            "type": ["object", "null"],
            "description": "The view drawn as data by the game (its own layout), or null.",
        },
        "moves": {**_TEXTS, "description": "The seat's legal moves in notation."},
        "actions": {
            "type": "array",
            "items": _COUNT,
            "description": "The action number of each move, in the same order.",
        },
        "move_notes": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "A note for some moves, by notation.",
        },
        "hints": {**_TEXTS, "description": "What the seat's moves would do, in lines."},
        "log_from": {**_COUNT, "description": "The cursor the log starts after."},
        "log": {
            "type": "array",
            "items": {"$ref": "#/$defs/log_entry"},
            "description": "Moves log_from + 1 to version, as the seat reads them.",
        },
        "scores": {"type": "array", "items": {"type": "integer"}},
        "over": {"type": "boolean"},
        "winners": {"type": "array", "items": _SEAT, "uniqueItems": True},
    },
    "$defs": {
        "log_entry": {
            "type": "object",
            "additionalProperties": False,
            "required": sorted(_ENTRY_KEYS),
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "seat": {"type": "integer", "minimum": CHANCE},
                "move": {"type": "string"},
                "events": _TEXTS,
            },
        }
    },
}
"""The JSON Schema (draft 2020-12) of :meth:`Table.to_json`'s output, for clients in
other languages (published as ``table.schema.json`` in the documentation)."""
