"""Building frozen, slotted ``attrs`` values fast, for a game's hot path.

A move makes one new state, and a bot's every turn one new view. ``attrs``' generated
``__init__`` stores each field with ``object.__setattr__`` by name (the class is frozen:
its own ``__setattr__`` refuses), which looks every field up again; with sixteen fields
that is a sixth of a palace move. A game's hot path instead makes the instance with
``object.__new__`` and stores each field through the setter of its slot, taken once from
:func:`slot_setters`. That is sound only while the constructor does nothing but store each
field: :func:`check_plain_constructor` says so, for a game's tests.

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
from typing import Any

import attrs

from .messages import short_repr

__all__ = ["check_plain_constructor", "slot_setters"]


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
    instance built through :func:`slot_setters` is the one the constructor would build.
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
