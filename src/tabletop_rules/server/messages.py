"""Every message a client sends the server, read and checked before anything acts on it:
the WebSocket messages (:func:`read_message`) and the lobby's request bodies
(:func:`read_create`, :func:`read_join`). What is not exactly a known message of the right
shape is refused with a :class:`RefusedError` saying what was wrong; nothing else reaches
a room.

>>> read_message('{"type": "move", "move": "roll", "version": 3}')
Move(version=3, move='roll', action=None)
>>> read_message('{"type": "move", "move": "roll", "version": "3"}')
Traceback (most recent call last):
  ...
tabletop_rules.server.messages.RefusedError: version must be a whole number from 0, got '3'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, TypeAlias, get_args

import attrs

from .._messages import short_repr
from ..errors import ConfigError, TabletopError
from ..serialize import parse_json

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_NAME_CHARS",
    "MESSAGE_SCHEMA",
    "SPECTATORS",
    "TABLE_ID",
    "TAKEBACK_ANSWERS",
    "TIMEOUTS",
    "Claim",
    "ClockRule",
    "CreateRequest",
    "Hello",
    "JoinRequest",
    "Message",
    "Move",
    "RefusedError",
    "Resign",
    "Spectators",
    "Sync",
    "TakeBack",
    "TimeoutRule",
    "read_create",
    "read_join",
    "read_json",
    "read_message",
    "server_message_schema",
]

MAX_MESSAGE_BYTES: Final = 4096
"""The largest WebSocket message or lobby request body, in bytes, by default."""

MAX_NAME_CHARS: Final = 40
"""The longest name a person may give at a seat."""

MAX_MOVE_CHARS: Final = 200
"""The longest move text: no game's notation comes near it."""

MAX_TOKEN_CHARS: Final = 100
"""The longest token read: the server's are 43 characters."""

MAX_CURSOR: Final = 2**31
"""A bound on cursors and versions, far above any game's length."""

MAX_CLOCK_SECONDS: Final = 7 * 24 * 3600.0
"""The longest move limit or bank a match may set: a week."""

Spectators: TypeAlias = Literal["none", "public", "delayed"]
"""Who may watch a match: nobody, anyone (the spectator's view), or anyone a few moves late."""

SPECTATORS: Final[tuple[Spectators, ...]] = get_args(Spectators)
"""Every :data:`Spectators` rule, in its order."""

TimeoutRule: TypeAlias = Literal["bot", "forfeit"]
"""What a seat's running out of time does: its bot plays the move, or the seat loses."""

TIMEOUTS: Final[tuple[TimeoutRule, ...]] = get_args(TimeoutRule)
"""Every :data:`TimeoutRule`, in its order."""

TAKEBACK_ANSWERS: Final = ("propose", "accept", "decline")
"""The words of a take-back message."""


class RefusedError(TabletopError):
    """A request or message the server does not act on; ``status`` is the HTTP status the
    lobby answers with (400 when nothing more precise fits).
    """

    def __init__(
        self, message: str, status: int = 400, fields: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.fields = fields or {}
        """For a refused form (house rules), each refused field's reason by its name."""


@attrs.frozen(kw_only=True)
class Hello:
    """The first message on a socket: the seat's ``token`` (``None``: a spectator) and the
    ``cursor``, how many moves of the log the client has seen already.
    """

    token: str | None
    cursor: int


@attrs.frozen(kw_only=True)
class Move:
    """A move, as notation text or as an action number (exactly one), answering the table
    of state ``version``.
    """

    version: int
    move: str | None
    action: int | None


@attrs.frozen
class Resign:
    """The seat gives the match up."""


@attrs.frozen(kw_only=True)
class TakeBack:
    """A take-back: the seat proposes one, or accepts or declines the one proposed."""

    answer: Literal["propose", "accept", "decline"]


@attrs.frozen
class Claim:
    """The seat claims the match from a seat on turn that has been away past the grace."""


@attrs.frozen
class Sync:
    """The client asks for its table again (after a refusal it did not see, say)."""


Message: TypeAlias = Hello | Move | Resign | TakeBack | Claim | Sync


def _clock_seconds(name: str, value: Any) -> float:
    """A clock's ``name``: a number of seconds from 0 to a week."""
    if type(value) not in (int, float) or not 0 <= value <= MAX_CLOCK_SECONDS:
        error = ConfigError if type(value) in (int, float) else TypeError
        raise error(
            f"{name} is a number of seconds from 0 to {MAX_CLOCK_SECONDS:g}, "
            f"got {short_repr(value)}"
        )
    return float(value)


def _move_seconds(value: Any) -> float:
    return _clock_seconds("move_seconds", value)


def _bank_seconds(value: Any) -> float:
    return _clock_seconds("bank_seconds", value)


@attrs.frozen(kw_only=True)
class ClockRule:
    """A match's clock, Board Game Arena's: each move may take ``move_seconds``, and
    past that a seat draws on its bank of ``bank_seconds`` for the whole match. Each is
    from 0 to a week (604,800 s), and one of them above 0 (``TypeError`` or
    :class:`~tabletop_rules.errors.ConfigError` otherwise).
    """

    move_seconds: float = attrs.field(converter=_move_seconds)
    bank_seconds: float = attrs.field(converter=_bank_seconds)

    def __attrs_post_init__(self) -> None:
        if self.move_seconds + self.bank_seconds <= 0:
            raise ConfigError("a clock gives each move some time: move_seconds or bank_seconds")


@attrs.frozen(kw_only=True)
class CreateRequest:
    """What ``POST /api/matches`` asks for: the game, its house rules as ``{name: text}``,
    each seat (``"person"`` or a bot's name), the spectator policy (``delay`` moves late
    when ``"delayed"``), the clock and what a timeout does.
    """

    game: str
    rules: dict[str, str]
    seats: tuple[str, ...] | None
    spectators: Spectators
    delay: int
    clock: ClockRule | None
    timeout: TimeoutRule


@attrs.frozen(kw_only=True)
class JoinRequest:
    """What ``POST /api/matches/{id}/join`` asks for: a seat (``None``: the first free
    one) and the name to show there.
    """

    seat: int | None
    name: str


def _schema_of(kind: str, fields: dict[str, Any], required: tuple[str, ...]) -> dict[str, Any]:
    """The JSON Schema of one message type: an object of exactly ``type`` and ``fields``."""
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **fields},
        "required": ["type", *required],
        "additionalProperties": False,
    }


_COUNT: Final = {"type": "integer", "minimum": 0, "maximum": MAX_CURSOR - 1}

MESSAGE_SCHEMA: Final[dict[str, Any]] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A message a client sends the tabletop_rules server",
    "oneOf": [
        _schema_of(
            "hello",
            {
                "token": {"type": ["string", "null"], "maxLength": MAX_TOKEN_CHARS},
                "cursor": _COUNT,
            },
            ("token",),
        ),
        {
            **_schema_of(
                "move",
                {
                    "version": _COUNT,
                    "move": {"type": "string", "maxLength": MAX_MOVE_CHARS},
                    "action": _COUNT,
                },
                ("version",),
            ),
            "oneOf": [{"required": ["move"]}, {"required": ["action"]}],
        },
        _schema_of("resign", {}, ()),
        _schema_of("takeback", {"answer": {"enum": list(TAKEBACK_ANSWERS)}}, ("answer",)),
        _schema_of("claim", {}, ()),
        _schema_of("sync", {}, ()),
    ],
}
"""The JSON Schema (draft 2020-12) of the messages :func:`read_message` reads, for clients
in other languages (the size limit, :data:`MAX_MESSAGE_BYTES`, is the server's to check).
"""


TABLE_ID: Final = "urn:tabletop-rules:table"
"""The id under which :func:`server_message_schema` embeds the table's schema."""


def server_message_schema(table_schema: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the messages the server sends: ``table``,
    ``refused`` (with ``"retry": true`` when the database did not answer and the message
    may be sent again) and ``error``, the table as ``table_schema``
    (:data:`~tabletop_rules.table.TABLE_SCHEMA`) describes it.
    """
    if not isinstance(table_schema, Mapping):
        raise TypeError(f"a table's schema is a mapping, got {type(table_schema).__name__}")
    text = {"type": "string"}
    match = {
        "type": "object",
        "required": ["id", "game", "status", "seats", "settings", "result"],
        "properties": {
            "id": text,
            "game": text,
            "status": {"enum": ["open", "playing", "over"]},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seat", "kind", "bot", "name", "taken", "connected"],
                    "additionalProperties": False,
                    "properties": {
                        "seat": _COUNT,
                        "kind": {"enum": ["person", "bot"]},
                        "bot": {"type": ["string", "null"]},
                        "name": text,
                        "taken": {"type": "boolean"},
                        "connected": {"type": "boolean"},
                    },
                },
            },
            "settings": {"type": "object"},
            "result": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "required": ["reason", "seat", "winners"],
                        "additionalProperties": False,
                        "properties": {
                            "reason": {"enum": ["played", "resigned", "timeout", "claimed"]},
                            "seat": {"type": ["integer", "null"]},
                            "winners": {"type": "array", "items": _COUNT},
                        },
                    },
                ]
            },
            "clock": {"type": ["object", "null"]},
            "takeback": {"type": ["object", "null"]},
            "claimable": {"type": "array", "items": _COUNT},
        },
        "additionalProperties": False,
    }
    table = {"$ref": TABLE_ID}
    embedded = {key: value for key, value in table_schema.items() if key != "$schema"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A message the tabletop_rules server sends a client",
        "$defs": {"table": {**embedded, "$id": TABLE_ID}},  # its own refs resolve inside
        "oneOf": [
            _schema_of("table", {"table": table, "match": match}, ("table", "match")),
            _schema_of(
                "refused",
                {"reason": text, "retry": {"type": "boolean"}, "table": table, "match": match},
                ("reason", "table", "match"),
            ),
            _schema_of("error", {"reason": text}, ("reason",)),
        ],
    }


def read_json(text: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> dict[str, Any]:
    """The JSON object ``text`` holds, refused when it is over ``limit`` bytes, not JSON
    (by the library's guarded parser), or not an object.
    """
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > limit:
        raise RefusedError(f"the message is {size} bytes, over the limit of {limit}", 413)
    try:
        data = parse_json(text)
    except TabletopError as error:
        reason = str(error).removeprefix("not JSON: ")
        raise RefusedError(f"the message is not JSON: {reason}") from None
    if type(data) is not dict:
        raise RefusedError(f"a message is a JSON object, got {type(data).__name__}")
    return data


_FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    "hello": (frozenset({"token"}), frozenset({"cursor"})),
    "move": (frozenset({"version"}), frozenset({"move", "action"})),
    "resign": (frozenset(), frozenset()),
    "takeback": (frozenset({"answer"}), frozenset()),
    "claim": (frozenset(), frozenset()),
    "sync": (frozenset(), frozenset()),
}
"""Each message type's required and optional fields besides ``type``."""


def read_message(text: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> Message:
    """The message ``text`` holds; :class:`RefusedError` for one over ``limit`` bytes, not
    a JSON object, of an unknown type, with a field missing or unknown, or a field of the
    wrong type or out of range.
    """
    data = read_json(text, limit)
    kind = data.pop("type", None)
    if type(kind) is not str or kind not in _FIELDS:
        raise RefusedError(
            f"unknown message type {short_repr(kind)}; the types are {', '.join(_FIELDS)}"
        )
    required, optional = _FIELDS[kind]
    if missing := required - data.keys():
        raise RefusedError(f"a {kind} message needs {', '.join(sorted(missing))}")
    if unknown := data.keys() - required - optional:
        raise RefusedError(f"a {kind} message has no field {', '.join(sorted(unknown))}")
    if kind == "hello":
        token = data["token"]
        if token is not None:
            _text(token, "token", MAX_TOKEN_CHARS)
        return Hello(token=token, cursor=_count(data.get("cursor", 0), "cursor"))
    if kind == "move":
        move, action = data.get("move"), data.get("action")
        if (move is None) == (action is None):
            raise RefusedError("a move message has a move (its text) or an action, not both")
        if move is not None:
            _text(move, "move", MAX_MOVE_CHARS)
        if action is not None:
            _count(action, "action")
        return Move(version=_count(data["version"], "version"), move=move, action=action)
    if kind == "takeback":
        answer = data["answer"]
        if answer not in TAKEBACK_ANSWERS:
            raise RefusedError(
                f"a take-back's answer is {', '.join(TAKEBACK_ANSWERS)}, got {short_repr(answer)}"
            )
        return TakeBack(answer=answer)
    plain: dict[str, type[Resign | Claim | Sync]] = {"resign": Resign, "claim": Claim, "sync": Sync}
    return plain[kind]()


def read_create(data: dict[str, Any]) -> CreateRequest:
    """The create request ``data`` holds (the game, its house rules and seats are checked
    against the game by the server); :class:`RefusedError` for a malformed one.
    """
    if type(data) is not dict:
        raise RefusedError("a create request is a JSON object")
    known = {"game", "rules", "seats", "spectators", "delay", "clock", "timeout"}
    if unknown := data.keys() - known:
        raise RefusedError(f"a match has no setting {', '.join(sorted(unknown))}")
    game = _text(data.get("game"), "game", MAX_NAME_CHARS)
    rules = data.get("rules", {})
    if type(rules) is not dict or not all(type(value) is str for value in rules.values()):
        raise RefusedError("rules are a JSON object of house rules, each value as text")
    seats = data.get("seats")
    if seats is not None and (
        type(seats) is not list or not all(type(seat) is str for seat in seats)
    ):
        raise RefusedError('seats are a list: "person" or a bot\'s name for each seat')
    spectators = data.get("spectators", "public")
    if spectators not in SPECTATORS:
        raise RefusedError(
            f"spectators is one of {', '.join(SPECTATORS)}, got {short_repr(spectators)}"
        )
    delay = _count(data.get("delay", 0 if spectators != "delayed" else 1), "delay")
    if spectators == "delayed" and delay < 1:
        raise RefusedError("a delayed spectator sees the table at least 1 move late")
    timeout = data.get("timeout", "bot")
    if timeout not in TIMEOUTS:
        raise RefusedError(f"timeout is one of {', '.join(TIMEOUTS)}, got {short_repr(timeout)}")
    return CreateRequest(
        game=game,
        rules=rules,
        seats=None if seats is None else tuple(seats),
        spectators=spectators,
        delay=delay,
        clock=_clock(data.get("clock")),
        timeout=timeout,
    )


def read_join(data: dict[str, Any]) -> JoinRequest:
    """The join request ``data`` holds; :class:`RefusedError` for a malformed one."""
    if type(data) is not dict:
        raise RefusedError("a join request is a JSON object")
    if unknown := data.keys() - {"seat", "name"}:
        raise RefusedError(f"a join request has no field {', '.join(sorted(unknown))}")
    seat = data.get("seat")
    name = _text(data.get("name", ""), "name", MAX_NAME_CHARS).strip()
    return JoinRequest(seat=None if seat is None else _count(seat, "seat"), name=name)


def _clock(value: object) -> ClockRule | None:
    """The clock a request sets: ``None``, or move and bank seconds within a week."""
    if value is None:
        return None
    if type(value) is not dict or value.keys() != {"move_seconds", "bank_seconds"}:
        raise RefusedError("a clock is null or {move_seconds, bank_seconds}")
    try:
        return ClockRule(move_seconds=value["move_seconds"], bank_seconds=value["bank_seconds"])
    except (TypeError, ConfigError) as error:
        raise RefusedError(str(error)) from None


def _text(value: object, name: str, most: int) -> str:
    """``value`` if it is text of at most ``most`` characters."""
    if type(value) is not str:
        raise RefusedError(f"{name} must be text, got {short_repr(value)}")
    if len(value) > most:
        raise RefusedError(f"{name} is {len(value)} characters, over the limit of {most}")
    return value


def _count(value: object, name: str) -> int:
    """``value`` if it is a whole number from 0 (no ``bool``) below :data:`MAX_CURSOR`."""
    if type(value) is not int or not 0 <= value < MAX_CURSOR:
        raise RefusedError(f"{name} must be a whole number from 0, got {short_repr(value)}")
    return value
