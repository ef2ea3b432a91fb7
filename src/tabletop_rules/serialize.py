"""Versioned JSON for every config, state, move, event and view of every game.

One converter (cattrs) serves all games: enums travel by lowercase name, moves and events
as objects tagged with their ``type``. Loading checks types strictly and validates what
can be validated: a state must be reachable (``check_state``), a view must be the view of
such a state (``check_view``), a move must be one some state allows; anything else raises
:class:`~tabletop_rules.errors.InvalidStateError`. Events are checked for shape only.

>>> from tabletop_rules import dice_poker as dp
>>> text = dumps(dp.Write(dp.Box.FULL_HOUSE))
>>> print(text)
{"game": "dice-poker", "version": 1, "kind": "move", "data": {"box": "full_house", "type": "write"}}
>>> loads(text)
Write(box=Box.FULL_HOUSE)
"""

from __future__ import annotations

import enum
import json
import re
from typing import Any, Final, TypeVar, Union, cast

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from .errors import InvalidStateError, TabletopError
from .protocol import Ruleset, get_ruleset, registered

__all__ = [
    "FORMAT_VERSION",
    "converter",
    "dumps",
    "from_data",
    "kind_of",
    "loads",
    "ruleset_of",
    "to_data",
]

T = TypeVar("T")

FORMAT_VERSION: Final = 1
"""The version of the JSON layout; loading refuses any other."""

converter = make_converter()
"""The cattrs converter behind every dump and load; games' unions are configured on it."""


def _strict(kind: type[Any]) -> Any:
    """A structure hook that takes only values of exactly ``kind``: ``5.7`` is no int."""

    def structure(value: Any, _type: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {value!r}")
        return value

    return structure


for _kind in (int, bool, str):
    converter.register_structure_hook(_kind, _strict(_kind))


def _tuple(value: Any, kind: Any) -> tuple[Any, ...]:
    """A JSON array as a tuple (``tuple[X, ...]`` or fixed length); a string or an object
    is no array.
    """
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected an array, got {value!r}")
    args: tuple[Any, ...] = getattr(kind, "__args__", ())
    if not args:
        return tuple(value)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(converter.structure(item, args[0]) for item in value)
    if len(args) != len(value):
        raise ValueError(f"expected {len(args)} items, got {len(value)}")
    return tuple(converter.structure(item, arg) for item, arg in zip(args, value, strict=True))


def _frozenset(value: Any, kind: Any) -> frozenset[Any]:
    """A JSON array as a frozenset."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected an array, got {value!r}")
    (item_type,) = getattr(kind, "__args__", (Any,))
    return frozenset(converter.structure(item, item_type) for item in value)


def _is_tuple(kind: Any) -> bool:
    return kind is tuple or getattr(kind, "__origin__", None) is tuple


def _is_frozenset(kind: Any) -> bool:
    return kind is frozenset or getattr(kind, "__origin__", None) is frozenset


converter.register_structure_hook_func(_is_tuple, _tuple)
converter.register_structure_hook_func(_is_frozenset, _frozenset)


_TAG = "type"


def _tag(cls: type[Any]) -> str:
    """``Roll`` -> ``"roll"``, ``TakePile`` -> ``"take_pile"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _attrs_structure_factory(cls: type[Any]) -> Any:
    """Structure attrs classes only from JSON objects, refusing unknown keys (but the
    ``type`` tag that names the class in a union of moves or events).
    """
    generated = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
    tag = _tag(cls)

    def structure(value: Any, kind: type[Any]) -> Any:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object for {cls.__name__}, got {value!r}")
        if value.get(_TAG) == tag:
            value = {key: item for key, item in value.items() if key != _TAG}
        return generated(value, kind)

    return structure


converter.register_structure_hook_factory(attrs.has, _attrs_structure_factory)


def _structure_enum(value: Any, kind: type[enum.Enum]) -> enum.Enum:
    if not isinstance(value, str) or value.upper() not in kind.__members__:
        raise ValueError(f"{value!r} is not a {kind.__name__}")
    return kind[value.upper()]


def _unstructure_enum(member: enum.Enum) -> str:
    return member.name.lower()


for _base in (enum.Enum, enum.IntEnum, enum.StrEnum):  # IntEnum before int in the MRO
    converter.register_unstructure_hook(_base, _unstructure_enum)
    converter.register_structure_hook(_base, _structure_enum)


_configured: set[str] = set()


def _configure(ruleset: Ruleset[Any, Any, Any]) -> Ruleset[Any, Any, Any]:
    """Teach the converter a game's unions of moves and events, once."""
    if ruleset.name in _configured:
        return ruleset
    _configured.add(ruleset.name)
    for kind in ("move", "event"):
        configure_tagged_union(_union(ruleset, kind), converter, tag_generator=_tag, tag_name=_TAG)
    return ruleset


def kind_of(ruleset: Ruleset[Any, Any, Any], cls: type[Any]) -> str | None:
    """``"config"``, ``"state"``, ``"move"``, ``"event"`` or ``"view"``: what ``cls`` is
    to ``ruleset``, or ``None``.
    """
    if cls is ruleset.config_type:
        return "config"
    if cls is ruleset.state_type:
        return "state"
    if cls is ruleset.view_type:
        return "view"
    if cls in ruleset.move_types:
        return "move"
    if cls in ruleset.event_types:
        return "event"
    return None


def ruleset_of(cls: type[Any]) -> Ruleset[Any, Any, Any]:
    """The registered game that ``cls`` belongs to; ``TypeError`` if none."""
    for ruleset in registered():
        if kind_of(ruleset, cls) is not None:
            return _configure(ruleset)
    raise TypeError(f"{cls.__name__} belongs to no registered game")


def to_data(obj: Any) -> Any:
    """``obj`` as plain JSON data (dicts, lists, strings, numbers)."""
    cls = type(obj)
    ruleset = ruleset_of(cls)
    kind = kind_of(ruleset, cls)
    if kind in ("move", "event"):
        return converter.unstructure(obj, unstructure_as=_union(ruleset, kind))
    return converter.unstructure(obj)


def _union(ruleset: Ruleset[Any, Any, Any], kind: str | None) -> Any:
    """The union of the game's move classes, or of its event classes."""
    classes = ruleset.move_types if kind == "move" else ruleset.event_types
    return Union[classes]  # noqa: UP007 - built at run time, X | Y cannot


def from_data(data: Any, cls: type[T]) -> T:
    """The object of ``cls`` (for a move or an event: of its game's union) that ``data``
    describes, validated.

    Raises :class:`~tabletop_rules.errors.InvalidStateError` when the data is malformed
    or breaks a rule of the game: states go through the game's ``check_state``, views
    through ``check_view``, and a move must have an action number.
    """
    ruleset = ruleset_of(cls)
    kind = kind_of(ruleset, cls)
    target: Any = cls
    expected: tuple[type[Any], ...] = (cls,)
    if kind in ("move", "event"):
        expected = ruleset.move_types if kind == "move" else ruleset.event_types
        target = _union(ruleset, kind)
    try:
        obj = converter.structure(data, target)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as error:
        raise InvalidStateError(f"malformed {ruleset.name} {kind}: {_reason(error)}") from error
    if not isinstance(obj, expected):
        raise InvalidStateError(f"expected a {ruleset.name} {kind}, got {type(obj).__name__}")
    if kind == "state":
        ruleset.check_state(obj)
    elif kind == "view":
        ruleset.check_view(obj)
    elif kind == "move":
        try:
            ruleset.encode(obj)
        except ValueError as error:
            raise InvalidStateError(f"malformed {ruleset.name} move: {error}") from error
    return cast(T, obj)


def _reason(error: BaseException) -> str:
    """The innermost message of a (possibly nested) cattrs error."""
    if isinstance(error, TabletopError):
        return str(error)
    if isinstance(error, KeyError):
        return f"missing field {error.args[0]!r}"
    if isinstance(error, cattrs.BaseValidationError) and error.exceptions:
        return _reason(error.exceptions[0])
    return str(error) or type(error).__name__


def dumps(obj: Any) -> str:
    """``obj`` (config, state, move, event or view of any game) as versioned JSON."""
    ruleset = ruleset_of(type(obj))
    envelope = {
        "game": ruleset.name,
        "version": FORMAT_VERSION,
        "kind": kind_of(ruleset, type(obj)),
        "data": to_data(obj),
    }
    return json.dumps(envelope)


def loads(text: str | bytes, cls: type[T] | None = None) -> T:
    """The object that :func:`dumps` wrote, validated; ``cls`` pins the class expected.

    Raises :class:`~tabletop_rules.errors.InvalidStateError` for text that is not such
    JSON, for another version or game, or for data that breaks an invariant.
    """
    try:
        envelope = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InvalidStateError(f"not JSON: {error}") from error
    if not isinstance(envelope, dict) or {"game", "version", "kind", "data"} - envelope.keys():
        raise InvalidStateError("expected an object with game, version, kind and data")
    if type(envelope["version"]) is not int or envelope["version"] != FORMAT_VERSION:
        raise InvalidStateError(
            f"JSON layout version {envelope['version']!r} is not {FORMAT_VERSION}, the one "
            "this library reads"
        )
    try:
        ruleset = _configure(get_ruleset(envelope["game"]))
    except (KeyError, TypeError) as error:
        raise InvalidStateError(f"unknown game {envelope['game']!r}") from error
    kind = envelope["kind"]
    target: type[Any]
    if kind in ("config", "state", "view"):
        target = getattr(ruleset, f"{kind}_type")
    elif kind in ("move", "event"):
        target = (ruleset.move_types if kind == "move" else ruleset.event_types)[0]
    else:
        raise InvalidStateError(f"unknown kind {kind!r}")
    obj = from_data(envelope["data"], target)
    if cls is not None and not isinstance(obj, cls):
        raise InvalidStateError(f"expected a {cls.__name__}, the JSON holds a {type(obj).__name__}")
    return cast(T, obj)
