"""Checks shared so every game words them alike: a bad house rule raises
:class:`~tabletop_rules.errors.ConfigError` naming the field, the values it allows and what
it got (short, however large the value). ``check_*`` take a name and a value (an item of a
tuple); :func:`whole`, :func:`optional_whole`, :func:`choice` and :func:`flag` make
``attrs`` validators. :func:`run_checks` is the frame a game's state checks run in.

>>> import attrs
>>> from typing import Literal
>>> @attrs.frozen
... class Rules:
...     players: int = attrs.field(default=2, validator=whole(2, 5))
...     must_beat: Literal["equal_or_higher", "higher"] = attrs.field(
...         default="equal_or_higher", validator=choice(Literal["equal_or_higher", "higher"])
...     )
...     voluntary_pickup: bool = attrs.field(default=False, validator=flag())
>>> Rules(players=6)
Traceback (most recent call last):
...
tabletop_rules.errors.ConfigError: players must be 2 to 5, got 6
>>> Rules(must_beat="lower")
Traceback (most recent call last):
...
tabletop_rules.errors.ConfigError: must_beat must be one of equal_or_higher, higher, got 'lower'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NoReturn, TypeAlias, TypeVar, get_args

import attrs

from ._messages import short_repr, short_text
from .errors import ConfigError, InvalidStateError, NotationError

__all__ = [
    "Fail",
    "Validator",
    "check_choice",
    "check_dealt_view",
    "check_flag",
    "check_own",
    "check_seconds",
    "check_type",
    "check_whole",
    "choice",
    "flag",
    "move_text",
    "move_words",
    "optional_whole",
    "per_seat",
    "refuse_state",
    "run_checks",
    "seconds",
    "type_noun",
    "whole",
    "whole_in",
]

Validator: TypeAlias = Callable[[Any, "attrs.Attribute[Any]", Any], None]
"""An ``attrs`` field validator: called with the instance, the field and its value."""


def check_whole(name: str, value: object, low: int, high: int) -> None:
    """Raise ``ConfigError`` unless ``value`` is a plain ``int`` from ``low`` to ``high``:
    ``bool``, ``int`` subclasses (which can override the comparisons) and other integer
    types (NumPy's ``int64``) are refused, not converted.

    >>> check_whole("stages", 11, 1, 10)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: stages must be 1 to 10, got 11
    >>> class Count(int):
    ...     pass
    >>> check_whole("stages", Count(3), 1, 10)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: stages must be a plain int, got Count 3: pass int(value)
    """
    if type(value) is not int:
        raise ConfigError(_not_whole(name, value))
    if not low <= value <= high:
        raise ConfigError(f"{name} must be {low} to {high}, got {short_repr(value)}")


def _not_whole(name: str, value: object) -> str:
    """Why ``value`` is no whole number; an integer type is told to pass ``int(value)``."""
    kind = type(value)
    if kind is bool or not hasattr(kind, "__index__"):
        return f"{name} must be a whole number, got {short_repr(value)}"
    try:
        kind_name = str(kind.__name__)
    except Exception:  # pragma: no cover - a metaclass whose __name__ raises
        kind_name = "a subclass"
    return f"{name} must be a plain int, got {kind_name} {short_repr(value)}: pass int(value)"


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    """Raise ``ConfigError`` unless ``value`` is a plain ``str`` among ``choices``.

    >>> check_choice("stage order", "x", ("free", "down", "up", "announce"))
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: stage order must be one of free, down, up, announce, got 'x'
    """
    if type(value) is not str or value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, got {short_repr(value)}")


def check_flag(name: str, value: object) -> None:
    """Raise ``ConfigError`` unless ``value`` is ``True`` or ``False`` (not ``1``, not ``"yes"``).

    >>> check_flag("fences", 1)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: fences must be True or False, got 1
    """
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False, got {short_repr(value)}")


def whole(low: int, high: int) -> Validator:
    """A validator for an ``int`` field from ``low`` to ``high`` (:func:`check_whole`)."""

    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_whole(attribute.name, value, low, high)

    return check


def optional_whole(low: int, high: int) -> Validator:
    """A validator for an ``int | None`` field: ``None``, or as :func:`whole`."""
    return attrs.validators.optional(whole(low, high))


def choice(literal: object) -> Validator:
    """A validator for a field typed by ``literal``, a ``Literal`` of strings, so the type
    and the check share one list; ``TypeError`` at once for what is no such ``Literal``.
    """
    choices = get_args(literal)
    if not choices or not all(type(value) is str for value in choices):
        raise TypeError(f"choice() needs a Literal of strings, got {short_repr(literal)}")

    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_choice(attribute.name, value, choices)

    return check


def flag() -> Validator:
    """A validator for a ``bool`` field (:func:`check_flag`)."""

    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_flag(attribute.name, value)

    return check


def check_seconds(name: str, value: object, *, zero: bool = False) -> float:
    """``value`` as a float if it is a finite number of seconds above 0 (from 0 with
    ``zero``): ``TypeError`` for what is no ``int`` or ``float`` (a ``bool`` is none),
    ``ConfigError`` for one out of range.

    >>> check_seconds("timeout", 0)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: timeout must be a finite number of seconds above 0, got 0
    """
    if not isinstance(value, int | float) or type(value) is bool:
        raise TypeError(f"{name} is a number of seconds, got {short_repr(value)}")
    if not (math.isfinite(value) and (value >= 0 if zero else value > 0)):
        least = "from 0" if zero else "above 0"
        raise ConfigError(f"{name} must be a finite number of seconds {least}, got {value}")
    return float(value)


def seconds(*, zero: bool = False) -> Validator:
    """A validator for a field of seconds (:func:`check_seconds`)."""

    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_seconds(attribute.name, value, zero=zero)

    return check


Fail: TypeAlias = Callable[[str], NoReturn]
"""Raises :class:`~tabletop_rules.errors.InvalidStateError` saying why: what a game's
state checks call for a broken invariant."""

T = TypeVar("T")


def run_checks(what: str, check: Callable[[Fail], T]) -> T:
    """``check(fail)``, where ``fail(why)`` raises ``InvalidStateError("invalid {what}:
    {why}")``; a field so malformed that the check fails on it (``TypeError``,
    ``AttributeError``, ``IndexError``, ``ValueError``, ``KeyError``) is reported so too.

    >>> run_checks("toy state", lambda fail: fail("no cards"))
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.InvalidStateError: invalid toy state: no cards
    >>> run_checks("toy", lambda fail: [][1])
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.InvalidStateError: invalid toy: malformed field: list index out of range
    """

    def fail(why: str) -> NoReturn:
        raise InvalidStateError(f"invalid {what}: {why}")

    try:
        return check(fail)
    except InvalidStateError:
        raise
    except (TypeError, AttributeError, IndexError, ValueError, KeyError) as error:
        fail(f"malformed field: {short_text(error)}")


def move_text(text: object) -> str:
    """``text`` as a plain ``str``, whatever a subclass overrides; ``NotationError`` for
    anything that is not a string (a game's move text comes from people and the wire).
    """
    if not isinstance(text, str):
        raise NotationError(f"move text is a string, not {short_repr(text)}")
    return str.__str__(text)


def move_words(
    text: object, forms: str = "", case: Callable[[str], str] = str.lower
) -> tuple[str, list[str]]:
    """:func:`move_text` and its words in ``case``, the opening of every game's move reader;
    ``NotationError`` for text without a word, naming the game's ``forms`` if given.
    """
    text = move_text(text)
    words = case(text).split()
    if not words:
        raise NotationError(f"empty move text: moves are {forms}" if forms else "empty move text")
    return text, words


def type_noun(kind: type[Any]) -> str:
    """How messages name a game's class (a class from outside the library by its module).

    >>> from tabletop_rules.palace import Config, State
    >>> type_noun(Config), type_noun(State)
    ('a palace Config', 'a palace State')
    """
    if not isinstance(kind, type):
        raise TypeError(f"type_noun names a class, got {short_repr(kind)}")
    module = kind.__module__
    parts = module.split(".")
    game = parts[1].replace("_", " ") if parts[0] == "tabletop_rules" and len(parts) > 1 else module
    article = "an" if game[:1].lower() in "aeiou" else "a"
    return f"{article} {game} {kind.__name__}"


def check_type(
    value: object,
    kinds: tuple[type[Any], ...],
    error: type[Exception] = TypeError,
    game: str | None = None,
) -> Any:
    """``value`` when its type is exactly one of ``kinds``; else ``error`` (``TypeError``,
    ``ConfigError`` for a config) naming what was expected. ``game`` names the game
    (``"a pig"``) where the class's module does not.

    >>> from tabletop_rules.palace import State, View
    >>> check_type(7, (State, View))
    Traceback (most recent call last):
    ...
    TypeError: expected a palace State or View, got 7
    """
    if type(kinds) is not tuple or not kinds or not all(isinstance(kind, type) for kind in kinds):
        raise TypeError(f"check_type needs a tuple of classes, got {short_repr(kinds)}")
    if not any(type(value) is kind for kind in kinds):
        also = "".join(f" or {kind.__name__}" for kind in kinds[1:])
        first = type_noun(kinds[0]) if game is None else f"{game} {kinds[0].__name__}"
        raise error(f"expected {first}{also}, got {short_repr(value)}")
    return value


def refuse_state(
    state: object, *, game: str, state_type: type[Any], view_type: type[Any]
) -> NoReturn:
    """Raise the ``TypeError`` for ``state``, no ``state_type`` (a view is told what to pass)."""
    if type(state) is view_type:
        raise TypeError(
            f"expected {game} State, got a View: a view is what one seat may see; "
            "pass the State, or determinize(view, rng) for a state consistent with it"
        )
    raise TypeError(f"expected {game} State, got {short_repr(state)}")


def check_dealt_view(
    game: str,
    seen: Any,
    state: Any,
    view: Callable[[Any, Any], Any],
    check_state: Callable[[Any], None],
) -> None:
    """``InvalidStateError("invalid {game} view: ...")`` unless ``state``, dealt from the
    view ``seen``, passes ``check_state`` and gives ``seen`` again (naming the fields that
    do not follow from the rest).
    """
    try:
        check_state(state)
        again = view(state, seen.seat)
    except (InvalidStateError, TypeError, ValueError, IndexError, AttributeError) as error:
        why = short_text(error).removeprefix(f"invalid {game} state: ")
        raise InvalidStateError(f"invalid {game} view: {why}") from error
    if again != seen:
        wrong = [
            field.name
            for field in attrs.fields(type(seen))
            if getattr(again, field.name) != getattr(seen, field.name)
        ]
        fields = f"field {wrong[0]} does" if len(wrong) == 1 else f"fields {', '.join(wrong)} do"
        raise InvalidStateError(f"invalid {game} view: {fields} not follow from the rest of it")


def check_own(
    name: str, value: object, is_own: Callable[[object], bool], what: str, fail: Fail
) -> Any:
    """``value`` if it is a tuple of the game's own cards (``is_own`` of each is true), else
    ``fail`` naming the item that is not one of ``what``.
    """
    if type(value) is not tuple:
        fail(f"{name} must be a tuple of cards, got {short_repr(value)}")
    for item in value:
        if not is_own(item):
            fail(f"{name} holds {short_repr(item)}, which is not one of {what}")
    return value


def per_seat(name: str, value: object, players: int, fail: Fail) -> None:
    """``fail`` unless ``value`` is a tuple of one entry per seat."""
    if type(value) is not tuple or len(value) != players:
        fail(f"{name} must hold one entry for each of the {players} seats")


def whole_in(name: str, value: object, low: int, high: int, fail: Fail) -> int:
    """``value`` if it is an ``int`` from ``low`` to ``high``, else ``fail`` says so: a
    state's counter, as a game's state checks read it.
    """
    if type(value) is not int or not low <= value <= high:
        fail(f"{name} must be a whole number {low} to {high}, got {short_repr(value)}")
    return value
