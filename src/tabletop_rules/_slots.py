"""Building frozen, slotted ``attrs`` values fast, for a game's hot path: ``attrs``'
``__init__`` stores each field with ``object.__setattr__`` by name (a sixth of a palace
move), so the hot path makes the instance with ``object.__new__`` and stores each field
through its slot's setter. Sound only while the constructor just stores each field, as
``check_plain_constructor`` checks for a game's tests.

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
    """The setter of each field's slot of the slotted ``attrs`` class ``cls``, by name."""
    if not isinstance(cls, type) or not attrs.has(cls) or "__slots__" not in vars(cls):
        raise TypeError(f"slot_setters needs a slotted attrs class, got {short_repr(cls)}")
    return {field.name: vars(cls)[field.name].__set__ for field in attrs.fields(cls)}


def check_plain_constructor(cls: type[Any]) -> None:
    """Raise ``AssertionError`` unless ``cls``'s constructor only stores its fields (no
    converter, validator, default factory or ``__attrs_post_init__``).
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
    """The function ``name(params)`` that runs ``check``, makes a ``cls`` and stores each
    field's ``value(field)`` through its slot.
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
    ``cls``: a copy of ``value`` with the named fields changed (a misspelt one a
    ``TypeError``), built through the slots with no checks; for a game's transition.

    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    ...     y: int
    >>> replace = replacer(Point)
    >>> replace(Point(1, 2), y=5)
    Point(x=1, y=5)
    """
    # Defaults from a tuple, not keyword-only's dict; the guard refuses a field by position.
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
    keyword, stored through its slot with no checks (a view per turn).

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
