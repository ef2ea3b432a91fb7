"""Versioned JSON for every config, state, move, event and view of every game.

One converter (cattrs) serves all games: enums travel by lowercase name, moves and events
as objects tagged with their ``type``. Loading reads only what :func:`dumps` could have
written, within the limits below, and validates it (a state by ``check_state``, a view by
``check_view``, a move by its action number, an event for shape only); anything else
raises :class:`~tabletop_rules.errors.InvalidStateError`.

>>> from tabletop_rules import dice_poker as dp
>>> text = dumps(dp.Write(dp.Box.FULL_HOUSE))
>>> print(text)
{"game": "dice-poker", "version": 2, "kind": "move", "data": {"box": "full_house", "type": "write"}}
>>> loads(text)
Write(box=Box.FULL_HOUSE)
"""

from __future__ import annotations

import enum
import functools
import json
import math
import re
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import accumulate, cycle
from typing import Any, Final, TypeVar, Union, cast, get_args, get_origin, overload

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from ._messages import short_repr
from .errors import ConfigError, InvalidConfigError, InvalidStateError, TabletopError
from .protocol import Ruleset, check_ruleset, get_ruleset, registered

__all__ = [
    "MAX_DEPTH",
    "MAX_DOCUMENT_CHARS",
    "MAX_INT_DIGITS",
    "converter",
    "dumps",
    "from_data",
    "kind_of",
    "loads",
    "parse_json",
    "ruleset_of",
    "to_data",
]

T = TypeVar("T")

MAX_DOCUMENT_CHARS: Final = 1 << 24
"""The longest JSON text a loader reads: 16 MiB (characters, or bytes for ``bytes``). A
maximal document costs up to about 900 MB and seconds in Python's ``json``: a service
reading strangers' documents should cap their size at what its own games need."""

MAX_DEPTH: Final = 32
"""The deepest nesting of arrays and objects a loader reads; the library writes at most 5."""

MAX_INT_DIGITS: Final = 20
"""The most digits a JSON integer may have: enough for every 64-bit seed."""

converter = make_converter()
"""The cattrs converter behind every dump and load; games' unions are configured on it."""


_WINDOW = 1 << 12
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_SQUARE = bytes.maketrans(b"{}", b"[]")
_RUNS = re.compile(rb"\[+|\]+")


def _brackets(data: bytes) -> Iterator[bytes]:
    """The brackets of ``data`` outside its strings, as ``[`` and ``]``, window by window,
    in linear time (single passes of ``bytes`` methods); a quote after an odd run of
    backslashes is escaped, as JSON reads every valid prefix.
    """
    data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    start = 0
    while start < len(data):
        end = min(start + _WINDOW, len(data))
        if data.count(b'"', start, end) % 2:  # end is inside a string: take it whole
            close = data.find(b'"', end)
            end = len(data) if close < 0 else close + 1
        outside = b"".join(data[start:end].split(b'"')[::2])
        yield outside.translate(_SQUARE, _NOT_BRACKETS)
        start = end


def _highest(brackets: bytes) -> int:
    """How high the running depth of ``brackets`` (``[`` up, ``]`` down, from 0) rises,
    summed run by run: the runs of ``[`` and of ``]`` alternate.
    """
    runs = map(len, _RUNS.findall(brackets))
    signs = cycle((1, -1) if brackets.startswith(b"[") else (-1, 1))
    return max(accumulate(map(int.__mul__, runs, signs), initial=0))


def _bound(brackets: bytes) -> int:
    """At least :func:`_highest` of ``brackets``, exactly that if the depth never falls
    below 0. With closing brackets appended, each ``replace`` of every ``[]`` lowers the
    highest point by one (at the speed of C) while it takes an eighth; the rest is summed.
    """
    brackets += b"]" * (max(2 * brackets.count(b"[") - len(brackets), 0) + 1)
    peeled = 0
    while True:
        shorter = brackets.replace(b"[]", b"")
        removed = len(brackets) - len(shorter)
        if not removed:
            break
        peeled, brackets = peeled + 1, shorter
        if 8 * removed < len(brackets):
            break
    return peeled + _highest(brackets)


def _over_depth(data: bytes) -> int | None:
    """How deep ``data`` nests where that is over :data:`MAX_DEPTH`, else ``None``: each
    window bounded by :func:`_bound`, a document that may be too deep counted exactly.
    """
    depth = 0
    for brackets in _brackets(data):
        opened, base = brackets.count(b"["), max(depth, 0)
        if base + opened > MAX_DEPTH and _bound(b"[" * base + brackets) > MAX_DEPTH:
            return _deepest(data)
        depth += 2 * opened - len(brackets)
    return None


def _deepest(data: bytes) -> int | None:
    """How deep ``data`` nests, counted run by run, where that is over :data:`MAX_DEPTH`."""
    depth = deepest = 0
    for brackets in _brackets(data):
        deepest = max(deepest, depth + _highest(brackets))
        depth += 2 * brackets.count(b"[") - len(brackets)
    return deepest if deepest > MAX_DEPTH else None


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise InvalidStateError(
            f"a number of {len(digits.lstrip('-'))} digits is over the limit of "
            f"{MAX_INT_DIGITS} (MAX_INT_DIGITS)"
        )
    return int(digits)


def _constant(name: str) -> Any:
    raise InvalidStateError(f"not JSON: {name} is no JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidStateError(f"not JSON: {short_repr(text)} is too large for a number")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        counts = Counter(key for key, _ in pairs)
        duplicate = next(key for key, count in counts.items() if count > 1)
        raise InvalidStateError(f"duplicate key {short_repr(duplicate)}: each key appears once")
    return result


def parse_json(text: object) -> Any:
    """``text`` (``str``, ``bytes`` or ``bytearray``) parsed as strict JSON within the
    limits (size and depth checked first, in linear time), with no duplicate keys, ``NaN``
    or ``Infinity``; :class:`~tabletop_rules.errors.InvalidStateError` for anything else.
    Every loader of the library reads its text through it.

    >>> parse_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.InvalidStateError: duplicate key 'a': each key appears once
    """
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidStateError(f"expected JSON text (str or bytes), got {type(text).__name__}")
    if len(text) > MAX_DOCUMENT_CHARS:
        raise InvalidStateError(
            f"the document is {len(text)} long, over the limit of {MAX_DOCUMENT_CHARS} "
            "(MAX_DOCUMENT_CHARS)"
        )
    if isinstance(text, str):
        data = text.encode("utf-8", "surrogatepass")
    else:
        data = bytes(text)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidStateError(f"not JSON: {error}") from error
    depth = _over_depth(data)
    del data
    if depth is not None:
        raise InvalidStateError(
            f"the document nests {depth} deep, over the limit of {MAX_DEPTH} (MAX_DEPTH)"
        )
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        raise InvalidStateError(f"not JSON: {error}") from error


def _strict(kind: type[Any]) -> Any:
    """A structure hook that takes only values of exactly ``kind``: ``5.7`` is no int."""

    def structure(value: Any, _type: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {short_repr(value)}")
        return value

    return structure


_INT_LIMIT = 10**MAX_INT_DIGITS


def _strict_int(value: Any, _type: Any) -> int:
    """An int of at most :data:`MAX_INT_DIGITS` digits, as in JSON text."""
    if type(value) is not int:
        raise TypeError(f"expected int, got {short_repr(value)}")
    if not -_INT_LIMIT < value < _INT_LIMIT:
        raise ValueError(f"{short_repr(value)} has more than {MAX_INT_DIGITS} digits")
    return value


converter.register_structure_hook(int, _strict_int)
for _kind in (bool, str):
    converter.register_structure_hook(_kind, _strict(_kind))


def _tuple(value: Any, kind: Any) -> tuple[Any, ...]:
    """A JSON array as a tuple (``tuple[X, ...]`` or fixed length)."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"expected an array, got {short_repr(value)}")
    args: tuple[Any, ...] = getattr(kind, "__args__", ())
    if not args:
        return tuple(value)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(converter.structure(item, args[0]) for item in value)
    if len(args) != len(value):
        raise ValueError(f"expected {len(args)} items, got {len(value)}")
    return tuple(converter.structure(item, arg) for arg, item in zip(args, value, strict=True))


def _frozenset(value: Any, kind: Any) -> frozenset[Any]:
    """A JSON array as a frozenset."""
    (item_type,) = getattr(kind, "__args__", (Any,))
    return frozenset(_tuple(value, tuple[item_type, ...]))  # type: ignore[valid-type]


def _of(*kinds: type[Any]) -> Callable[[Any], bool]:
    """Whether a type is one of ``kinds`` or a generic of one (``tuple[int, ...]``)."""
    return lambda kind: kind in kinds or getattr(kind, "__origin__", None) in kinds


converter.register_structure_hook_func(_of(tuple), _tuple)
converter.register_structure_hook_func(_of(frozenset), _frozenset)


def _sorted_set(value: frozenset[Any] | set[Any]) -> list[Any]:
    """A set as a sorted array, so that JSON never depends on the hash seed."""
    return [converter.unstructure(item) for item in sorted(value)]


converter.register_unstructure_hook_func(_of(set, frozenset), _sorted_set)


_TAG = "type"
_KINDS = ("config", "state", "view", "move", "event")


def _tag(cls: type[Any]) -> str:
    """``Roll`` -> ``"roll"``, ``TakePile`` -> ``"take_pile"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _attrs_structure_factory(cls: type[Any]) -> Any:
    """Structure attrs classes from objects with every field and no other key but a ``type`` tag."""
    generated = make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
    tag = _tag(cls)
    fields = frozenset(field.name for field in attrs.fields(cls) if field.init)

    def structure(value: Any, kind: type[Any]) -> Any:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object for {cls.__name__}, got {short_repr(value)}")
        if value.get(_TAG) == tag:
            value = {key: item for key, item in value.items() if key != _TAG}
        missing = fields - value.keys()
        if missing:
            raise ValueError(f"{cls.__name__} is missing {', '.join(sorted(missing))}")
        return generated(value, kind)

    return structure


converter.register_structure_hook_factory(attrs.has, _attrs_structure_factory)


@functools.cache
def _members_by_name(kind: type[enum.Enum]) -> dict[str, enum.Enum]:
    return {member.name.lower(): member for member in kind}


def _structure_enum(value: Any, kind: type[enum.Enum]) -> enum.Enum:
    """The member whose lowercase name is exactly ``value`` (``"FIVES"`` is not one)."""
    member = _members_by_name(kind).get(value) if type(value) is str else None
    if member is None:
        raise ValueError(f"{short_repr(value)} is not a {kind.__name__}")
    return member


for _base in (enum.Enum, enum.IntEnum, enum.StrEnum):  # IntEnum before int in the MRO
    converter.register_unstructure_hook(_base, lambda member: member.name.lower())
    converter.register_structure_hook(_base, _structure_enum)


_configured: set[str] = set()
_configuring = threading.Lock()


def _configure(ruleset: Ruleset[Any, Any, Any]) -> Ruleset[Any, Any, Any]:
    """Teach the converter a game's own hooks and its unions of moves and events, once
    (threads that load at once wait for the first).
    """
    if ruleset.name in _configured:
        return ruleset
    with _configuring:
        if ruleset.name not in _configured:
            ruleset.json_hooks(converter)
            for kind in ("move", "event"):
                configure_tagged_union(
                    _union(ruleset, kind), converter, tag_generator=_tag, tag_name=_TAG
                )
            _configured.add(ruleset.name)
    return ruleset


def kind_of(ruleset: Ruleset[Any, Any, Any], cls: Any) -> str | None:
    """``"config"``, ``"state"``, ``"move"``, ``"event"`` or ``"view"``: what ``cls`` (a
    class, or a union of the game's move or event classes, such as ``dice_poker.Move``)
    is to ``ruleset``, or ``None``.
    """
    check_ruleset(ruleset)
    members = _members(cls)
    if len(members) > 1:
        kinds = {kind_of(ruleset, member) for member in members}
        kind = kinds.pop()
        return kind if not kinds and kind in ("move", "event") else None
    return next((kind for kind in _KINDS if cls in _classes(ruleset, kind)), None)


def _members(cls: Any) -> tuple[Any, ...]:
    """The classes of a union (``Roll | Write``), or ``cls`` alone."""
    if isinstance(cls, types.UnionType) or get_origin(cls) is Union:
        return get_args(cls)
    return (cls,)


def ruleset_of(cls: Any) -> Ruleset[Any, Any, Any]:
    """The registered game that ``cls`` belongs to; ``TypeError`` if none."""
    for ruleset in registered():
        if kind_of(ruleset, cls) is not None:
            return _configure(ruleset)
    raise TypeError(f"{getattr(cls, '__name__', cls)} belongs to no registered game")


def to_data(obj: Any) -> Any:
    """``obj`` as plain JSON data (dicts, lists, strings, numbers)."""
    cls = type(obj)
    ruleset = ruleset_of(cls)
    return converter.unstructure(obj, unstructure_as=_union(ruleset, kind_of(ruleset, cls)))


def _classes(ruleset: Ruleset[Any, Any, Any], kind: str | None) -> tuple[type[Any], ...]:
    """The game's move classes, its event classes, or its one class of ``kind``."""
    if kind in ("move", "event"):
        return getattr(ruleset, f"{kind}_types")  # type: ignore[no-any-return]
    return (getattr(ruleset, f"{kind}_type"),)


def _union(ruleset: Ruleset[Any, Any, Any], kind: str | None) -> Any:
    """The union of the game's classes of ``kind``: its config, state or view class itself."""
    return Union[_classes(ruleset, kind)]  # noqa: UP007 - built at run time, X | Y cannot


def from_data(data: Any, cls: type[T]) -> T:
    """The object of ``cls`` (a game's class, or a union such as ``dice_poker.Move``) that
    ``data`` describes, validated as :func:`loads` validates;
    :class:`~tabletop_rules.errors.InvalidStateError` when it is malformed, of another
    class, or breaks a rule of the game.
    """
    ruleset = ruleset_of(cls)
    kind = kind_of(ruleset, cls)
    try:  # a move's or an event's tag says which class; then it is checked to be wanted
        obj = converter.structure(data, _union(ruleset, kind))
    except Exception as error:  # data handed in directly may hold objects whose methods raise
        cause = _innermost(error)
        refusal = InvalidConfigError if isinstance(cause, ConfigError) else InvalidStateError
        raise refusal(f"malformed {ruleset.name} {kind}: {_reason(cause)}") from error
    wanted = _members(cls)
    if type(obj) not in wanted:
        names = " or ".join(member.__name__ for member in wanted)
        raise InvalidStateError(
            f"expected a {ruleset.name} {names}, the data holds a {type(obj).__name__}"
        )
    if kind == "state":
        ruleset.check_state(obj)
    elif kind == "view":
        ruleset.check_view(obj)
    elif kind == "move":
        try:
            ruleset.encode(obj)
        except ValueError as error:
            raise InvalidStateError(f"malformed {ruleset.name} move: {error}") from error
    difference = _difference(data, to_data(obj))
    if difference is not None:
        raise InvalidStateError(
            f"malformed {ruleset.name} {kind}: {difference}; loading takes only what dumps writes"
        )
    return cast(T, obj)


def _difference(data: Any, written: Any, where: str = "") -> str | None:
    """Where ``data`` differs from ``written``, the :func:`to_data` of the object read from
    it, or ``None``; arrays may be tuples, scalars must have the same type.
    """
    if isinstance(written, dict):
        if isinstance(data, dict) and data.keys() == written.keys():
            for key, item in written.items():
                found = _difference(data[key], item, f"{where}.{key}" if where else key)
                if found is not None:
                    return found
            return None
    elif isinstance(written, list | tuple):  # an array, however the converter wrote it
        if isinstance(data, list | tuple) and len(data) == len(written):
            for index, (got, item) in enumerate(zip(data, written, strict=True)):
                found = _difference(got, item, f"{where}[{index}]")
                if found is not None:
                    return (
                        found
                        if isinstance(item, dict | list | tuple)
                        else _differs(where, data, written)
                    )
            return None
    elif type(data) is type(written) and data == written:
        return None
    return _differs(where, data, written)


def _differs(where: str, data: Any, written: Any) -> str:
    shown, canonical = short_repr(data), short_repr(written)
    return f"{where or 'the data'} is {shown}, which dumps writes as {canonical}"


def _innermost(error: BaseException) -> BaseException:
    """The error at the bottom of a (possibly nested) cattrs error."""
    while isinstance(error, cattrs.BaseValidationError) and error.exceptions:
        error = error.exceptions[0]
    return error


def _reason(error: BaseException) -> str:
    """What a structuring error says, for a message."""
    if isinstance(error, TabletopError):
        return str(error)
    if isinstance(error, KeyError):
        return f"missing field {short_repr(error.args[0])}"
    return str(error) or type(error).__name__


@attrs.frozen
class DocumentKind:
    """A kind of document beside a game's classes (a game record): its game, its data both ways."""

    cls: type[Any]
    ruleset: Callable[[Any], Ruleset[Any, Any, Any]]
    to_data: Callable[[Any], Any]
    from_data: Callable[[Ruleset[Any, Any, Any], Any], Any]


_DOCUMENTS: dict[str, DocumentKind] = {}


def add_document_kind(kind: str, document: DocumentKind) -> None:
    """Let :func:`dumps` and :func:`loads` carry ``document`` as ``kind``: how
    :mod:`tabletop_rules.records`, which builds on this module, adds ``"record"``.
    """
    _DOCUMENTS[kind] = document


def document_game(name: object, version: object = None, layout: str = "") -> Ruleset[Any, Any, Any]:
    """The registered game a document names, ready to load; ``InvalidStateError`` if none,
    or if a ``layout`` is named and ``version`` is not the game's ``format_version``.
    """
    try:
        ruleset = _configure(get_ruleset(name))  # type: ignore[arg-type]
    except (KeyError, TypeError) as error:
        raise InvalidStateError(f"unknown game {short_repr(name)}") from error
    if layout and (type(version) is not int or version != ruleset.format_version):
        raise InvalidStateError(
            f"{ruleset.name} {layout} version {short_repr(version)} is not "
            f"{ruleset.format_version}, the one this library reads"
        )
    return ruleset


def dumps(obj: Any) -> str:
    """``obj`` (config, state, move, event or view of any game, or a
    :class:`~tabletop_rules.records.GameRecord`) as versioned JSON.
    """
    kind = next((kind for kind, doc in _DOCUMENTS.items() if isinstance(obj, doc.cls)), None)
    if kind is not None:
        document = _DOCUMENTS[kind]
        ruleset, data = _configure(document.ruleset(obj)), document.to_data(obj)
    else:
        ruleset = ruleset_of(type(obj))
        kind, data = kind_of(ruleset, type(obj)), to_data(obj)
    envelope = {"game": ruleset.name, "version": ruleset.format_version, "kind": kind}
    return json.dumps({**envelope, "data": data})


_ENVELOPE = frozenset({"game", "version", "kind", "data"})


@overload
def loads(text: str | bytes, cls: type[T]) -> T: ...


@overload
def loads(text: str | bytes, cls: Any = None) -> Any: ...


def loads(text: str | bytes, cls: Any = None) -> Any:
    """The object that :func:`dumps` wrote, validated; ``cls`` pins the class expected
    (a class, or a union such as ``dice_poker.Move``). Raises only
    :class:`~tabletop_rules.errors.InvalidStateError` (``InvalidConfigError``, a
    ``ConfigError`` too, for a config out of a house rule's bounds), for text that is not
    such JSON, another version or game, or data that breaks an invariant.
    """
    envelope = parse_json(text)
    if not isinstance(envelope, dict) or envelope.keys() != _ENVELOPE:
        raise InvalidStateError("expected an object with game, version, kind and data, no more")
    ruleset = document_game(envelope["game"], envelope["version"], "JSON layout")
    kind = envelope["kind"]
    if type(kind) is not str or (kind not in _KINDS and kind not in _DOCUMENTS):
        raise InvalidStateError(f"unknown kind {short_repr(kind)}")
    obj: Any
    if kind in _DOCUMENTS:
        obj = _DOCUMENTS[kind].from_data(ruleset, envelope["data"])
    else:
        obj = from_data(envelope["data"], _union(ruleset, kind))
    if cls is not None and not isinstance(obj, cls):
        wanted = " or ".join(member.__name__ for member in _members(cls))
        raise InvalidStateError(f"expected a {wanted}, the JSON holds a {type(obj).__name__}")
    return obj
