"""tabletop_rules._slots: the setters a hot path builds frozen values with."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules._slots import check_plain_constructor, maker, replacer, slot_setters


@attrs.frozen
class Plain:
    a: int
    b: str = "x"


@attrs.frozen
class Checked:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen
class Converted:
    a: int = attrs.field(converter=int)


@attrs.frozen
class Defaulted:
    a: list[int] = attrs.field(factory=list)


@attrs.frozen
class PostInit:
    a: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen(slots=False)
class Unslotted:
    a: int


def test_slot_setters_set_each_field_by_name_in_field_order() -> None:
    setters = slot_setters(Plain)
    assert list(setters) == ["a", "b"]
    built = object.__new__(Plain)
    setters["b"](built, "y")
    setters["a"](built, 3)
    assert built == Plain(3, "y")


@pytest.mark.parametrize("cls", [Unslotted, int, "Plain", None])
def test_slot_setters_need_a_slotted_attrs_class(cls: Any) -> None:
    with pytest.raises(TypeError, match="slot_setters needs a slotted attrs class"):
        slot_setters(cls)


def test_a_plain_constructor_passes() -> None:
    check_plain_constructor(Plain)


@pytest.mark.parametrize(
    ("cls", "what"),
    [
        (Checked, "validator"),
        (Converted, "converter"),
        (Defaulted, "default factory"),
        (PostInit, "__attrs_post_init__"),
    ],
)
def test_a_constructor_that_does_more_than_store_fails_the_check(cls: type[Any], what: str) -> None:
    with pytest.raises(AssertionError, match=what):
        check_plain_constructor(cls)


@attrs.frozen
class _Pair:
    left: int
    right: tuple[int, ...]


def test_replacer_changes_the_named_fields_and_keeps_the_others() -> None:
    replace = replacer(_Pair)
    before = _Pair(1, (2, 3))
    after = replace(before, right=(4,))
    assert after == _Pair(1, (4,))
    assert before == _Pair(1, (2, 3)), "the original is a value: unchanged"
    assert replace(before) == before
    assert replace(before) is not before


def test_replacer_refuses_a_field_it_does_not_have() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'middle'"):
        replacer(_Pair)(_Pair(1, ()), middle=5)


def test_maker_needs_every_field_by_keyword() -> None:
    make = maker(_Pair)
    assert make(left=1, right=()) == _Pair(1, ())
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'right'"):
        make(left=1)
    with pytest.raises(TypeError):
        make(1, ())


def test_builders_need_a_slotted_attrs_class() -> None:
    for build in (replacer, maker):
        with pytest.raises(TypeError, match="slotted attrs class"):
            build(int)


def test_replacer_refuses_a_field_given_by_position() -> None:
    replace = replacer(Plain)
    with pytest.raises(TypeError, match="by keyword"):
        replace(Plain(1, "y"), 5)
    with pytest.raises(TypeError):
        replace(Plain(1, "y"), nope=5)
