"""Building frozen, slotted ``attrs`` values fast, for a game's hot path.

A move makes one new state, and a bot's every turn one new view. ``attrs``' generated
``__init__`` stores each field with ``object.__setattr__`` by name (the class is frozen:
its own ``__setattr__`` refuses), which looks every field up again; with sixteen fields
that is a sixth of a palace move. A game's hot path instead makes the instance with
``object.__new__`` and stores each field through the setter of its slot, taken once from
``slot_setters``. That is sound only while the constructor does nothing but store each
field: ``check_plain_constructor`` says so, for a game's tests.

>>> import attrs
>>> @attrs.frozen
... class Point:
...     x: int
...     y: int
>>> set_x, set_y = slot_setters(Point).values()
>>> point = object.__new__(Point)
>>> set_x(point, 1)
>>> set_y(point, 2)
>>> point == Point(1, 2)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from ._messages import short_repr

__all__ = ["check_plain_constructor", "maker", "replacer", "slot_setters"]

T = TypeVar("T")

_KEEP: Any = type("_Keep", (), {"__repr__": lambda self: "<keep>", "__slots__": ()})()
"""The default of every :func:`replacer` argument: the field keeps its value."""


def slot_setters(cls: type[Any]) -> dict[str, Callable[[Any, Any], None]]:
    """The setter of each field's slot of the frozen, slotted ``attrs`` class ``cls``, by
    field name in field order. ``TypeError`` for a class that is no slotted ``attrs`` class.
    """
    if not isinstance(cls, type) or not attrs.has(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"slot_setters needs a slotted attrs class, got {short_repr(cls)}")
    return {field.name: vars(cls)[field.name].__set__ for field in attrs.fields(cls)}


def check_plain_constructor(cls: type[Any]) -> None:
    """Raise ``AssertionError`` unless ``cls``'s constructor only stores its fields (no
    converter, validator, default factory or ``__attrs_post_init__``), so that an
    instance built through ``slot_setters`` is the one the constructor would build.
    """
    if not isinstance(cls, type) or not attrs.has(cls):
        raise TypeError(f"check_plain_constructor needs an attrs class, got {short_repr(cls)}")
    assert not hasattr(cls, "__attrs_post_init__"), f"{cls.__name__} has __attrs_post_init__"
    for field in attrs.fields(cls):
        assert field.converter is None, f"{cls.__name__}.{field.name} has a converter"
        assert field.validator is None, f"{cls.__name__}.{field.name} has a validator"
        assert not isinstance(field.default, attrs.Factory), (  # type: ignore[arg-type]
            f"{cls.__name__}.{field.name} has a default factory"
        )


def _generated(
    cls: type[T], name: str, params: str, value: Callable[[str], str], check: str = ""
) -> Any:
    """The function ``name(params)`` that makes a ``cls`` and stores each field's
    ``value(field)`` (an expression in the parameters) through its slot, after the
    statement ``check`` if one is given.
    """
    setters = slot_setters(cls)
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_KEEP": _KEEP}
    namespace.update({f"_set_{field}": setter for field, setter in setters.items()})
    lines = [f"def {name}({params}):", *([f"    {check}"] if check else []), "    new = _new(_cls)"]
    lines += [f"    _set_{field}(new, {value(field)})" for field in setters]
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # the source is made of the class's field names
    function = namespace[name]
    function.__qualname__ = f"{name}[{cls.__name__}]"
    return function


def replacer(cls: type[T]) -> Callable[..., T]:
    """A fast ``replace(value, **changes)`` for the frozen, slotted ``attrs`` class
    ``cls``, generated once as ``attrs`` generates ``__init__``: a copy of ``value`` with
    the named fields changed, built through the slots (no checks, no ``evolve`` lookups).
    Every argument after ``value`` is keyword-only and named after a field, so a misspelt
    field is a ``TypeError``. For a game's transition, which builds a state per move from
    values its rules made; like ``slot_setters``, sound only for a plain constructor
    (``check_plain_constructor``).

    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    ...     y: int
    >>> replace = replacer(Point)
    >>> replace(Point(1, 2), y=5)
    Point(x=1, y=5)
    """
    # Keyword-only parameters would take their defaults from a dict, call by call; these
    # take them from a tuple, and the positional-only guard refuses a field by position.
    fields = ", ".join(f"{field}=_KEEP" for field in slot_setters(cls))
    params = f"value, _by_position=_KEEP, /, {fields}"
    check = (
        "if _by_position is not _KEEP: "
        "raise TypeError('replace() takes the fields to change by keyword')"
    )
    keep_or_change = "value.{0} if {0} is _KEEP else {0}".format
    replace: Callable[..., T] = _generated(cls, "replace", params, keep_or_change, check)
    return replace


def maker(cls: type[T]) -> Callable[..., T]:
    """A fast constructor for the frozen, slotted ``attrs`` class ``cls``: every field by
    keyword, required, stored through its slot with no checks. For values a game builds
    whole on its hot path (a view per turn); sound only for a plain constructor.

    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    ...     y: int
    >>> make = maker(Point)
    >>> make(x=1, y=2) == Point(1, 2)
    True
    """
    fields = ", ".join(slot_setters(cls))
    make: Callable[..., T] = _generated(cls, "make", f"*, {fields}", str)
    return make
