"""The config field checks every game shares: whole numbers, choices and flags."""

from __future__ import annotations

import enum
import typing
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules import account, dice_poker, palace
from tabletop_rules._validation import (
    check_choice,
    check_flag,
    check_whole,
    choice,
    flag,
    optional_whole,
    whole,
)
from tabletop_rules.errors import ConfigError
from tabletop_rules.protocol import registered

Order = Literal["free", "down", "up", "announce"]


@attrs.frozen
class Rules:
    players: int = attrs.field(default=2, validator=whole(1, 8))
    cap: int | None = attrs.field(default=None, validator=optional_whole(0, 100))
    order: Order = attrs.field(default="free", validator=choice(Order))
    fences: bool = attrs.field(default=True, validator=flag())


def test_a_whole_number_within_its_bounds_is_accepted_at_both_ends() -> None:
    assert Rules(players=1).players == 1
    assert Rules(players=8).players == 8


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "players must be 1 to 8, got 0"),
        (9, "players must be 1 to 8, got 9"),
        (True, "players must be a whole number, got True"),
        (2.0, "players must be a whole number, got 2.0"),
        ("2", "players must be a whole number, got '2'"),
        (None, "players must be a whole number, got None"),
        pytest.param(10**5000, "players must be 1 to 8, got <int of 16610 bits>", id="huge"),
    ],
)
def test_a_whole_number_field_names_itself_its_bounds_and_the_value(
    value: Any, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        Rules(players=value)
    assert str(caught.value) == message


@given(st.integers())
def test_check_whole_accepts_exactly_the_ints_within_the_bounds(value: int) -> None:
    if 1 <= value <= 10:
        check_whole("stages", value, 1, 10)
    else:
        with pytest.raises(ConfigError, match=r"^stages must be 1 to 10, got "):
            check_whole("stages", value, 1, 10)


def test_an_optional_whole_number_accepts_none_and_checks_the_rest() -> None:
    assert Rules(cap=None).cap is None
    assert Rules(cap=0).cap == 0
    with pytest.raises(ConfigError, match=r"^cap must be 0 to 100, got -1$"):
        Rules(cap=-1)
    with pytest.raises(ConfigError, match=r"^cap must be a whole number, got '1'$"):
        Rules(cap="1")  # type: ignore[arg-type]


def test_a_choice_accepts_each_value_of_its_literal() -> None:
    assert [Rules(order=order).order for order in ("free", "down", "up", "announce")] == [
        "free",
        "down",
        "up",
        "announce",
    ]


@pytest.mark.parametrize("value", ["sideways", "Down", "", None, 1, ("free",)])
def test_a_choice_lists_the_values_in_the_rules_page_order(value: Any) -> None:
    with pytest.raises(ConfigError) as caught:
        Rules(order=value)
    assert str(caught.value).startswith("order must be one of free, down, up, announce, got ")


def test_a_choice_refuses_a_str_subclass_that_equals_a_value() -> None:
    class Sly(str):
        pass

    with pytest.raises(ConfigError, match="must be one of"):
        check_choice("stage order", Sly("free"), ("free", "down"))


def test_check_choice_quotes_odd_input_briefly() -> None:
    with pytest.raises(ConfigError) as caught:
        check_choice("stage order", "x" * 1000, ("free", "down"))
    assert len(str(caught.value)) < 120


@pytest.mark.parametrize("not_a_literal", [("a", "b"), str, Literal[1, 2], list[str]])
def test_choice_needs_a_literal_of_strings(not_a_literal: object) -> None:
    with pytest.raises(TypeError, match="choice\\(\\) needs a Literal of strings"):
        choice(not_a_literal)


@pytest.mark.parametrize("value", [True, False])
def test_a_flag_accepts_true_and_false(value: bool) -> None:
    assert Rules(fences=value).fences is value


@pytest.mark.parametrize(("value", "shown"), [(1, "1"), (0, "0"), ("yes", "'yes'"), (None, "None")])
def test_a_flag_refuses_what_is_not_a_bool(value: Any, shown: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Rules(fences=value)
    assert str(caught.value) == f"fences must be True or False, got {shown}"


def test_check_flag_names_what_it_checks() -> None:
    with pytest.raises(ConfigError, match=r"^auto_chance must be True or False, got 'no'$"):
        check_flag("auto_chance", "no")


def test_the_validators_guard_evolve_as_well_as_construction() -> None:
    with pytest.raises(ConfigError, match="players must be 1 to 8"):
        attrs.evolve(Rules(), players=9)


# --- issue 16, point 9: bounds hold for exact ints ---------------------------------------


class Evil(int):
    """An int of 10**12 that claims, by every comparison, to be within any bounds."""

    def __lt__(self, other: object) -> bool:
        return False

    def __gt__(self, other: object) -> bool:
        return False

    def __le__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 2

    def __index__(self) -> int:
        return 2


class Two(enum.IntEnum):
    TWO = 2


def _int_fields(cls: type[Any]) -> list[tuple[type[Any], str]]:
    """Every ``int`` or ``int | None`` field of the attrs class ``cls`` and of the attrs
    classes its fields hold, as (the class that owns it, its name).
    """
    found = []
    hints = typing.get_type_hints(cls)
    for field in attrs.fields(cls):
        if not field.init:
            continue
        hint = hints[field.name]
        if hint is int or hint == int | None:
            found.append((cls, field.name))
        elif isinstance(hint, type) and attrs.has(hint):
            found += _int_fields(hint)
    return found


CONFIG_INT_FIELDS = [
    pytest.param(owner, name, id=f"{rules.name}-{owner.__name__}.{name}")
    for rules in registered()
    for owner, name in _int_fields(rules.config_type)
]


def _int_fields_all() -> list[tuple[type[Any], str]]:
    return [found for rules in registered() for found in _int_fields(rules.config_type)]


def test_every_numeric_house_rule_of_every_game_is_found() -> None:
    names = {(owner.__module__.split(".")[1], name) for owner, name in _int_fields_all()}
    assert ("dice_poker", "poker") in names  # a field of a nested BoxScores
    assert ("dice_poker", "max_fences") in names  # an int | None
    assert {("palace", "max_turns"), ("account", "marker_cost")} <= names
    assert len(names) == 10 + 4 + 7


NOT_PLAIN_INTS = [
    pytest.param(Evil(10**12), id="int-subclass-overriding-comparisons"),
    pytest.param(Two.TWO, id="IntEnum"),
    pytest.param(2.0, id="float"),
    pytest.param(Fraction(2), id="Fraction"),
    pytest.param(Decimal(2), id="Decimal"),
]


@pytest.mark.parametrize("value", NOT_PLAIN_INTS)
@pytest.mark.parametrize(("owner", "name"), CONFIG_INT_FIELDS)
def test_config_bounds_hold_for_exact_ints_not_int_subclasses_that_override_comparisons(
    owner: type[Any], name: str, value: Any
) -> None:
    """Every int field of every game's config refuses what is no plain int, however it
    compares; the plain int it stands for is accepted, so the field itself is reachable.
    """
    default = getattr(owner(), name)
    plain = 2 if default is None else default
    assert getattr(owner(**{name: plain}), name) == plain
    with pytest.raises(ConfigError, match=f"^{name} must be a "):
        owner(**{name: value})


def test_an_account_deck_count_is_a_plain_int_too() -> None:
    with pytest.raises(ConfigError, match=r"^deck count of \+1 must be a plain int"):
        account.Config(deck={"+1": Evil(10**12), "-1": 40})


def test_numpy_ints_are_refused_and_told_to_pass_an_int() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(
        ConfigError, match=r"^players must be a plain int, got int64 .*int\(value\)"
    ):
        palace.Config(players=np.int64(3))
    assert palace.Config(players=int(np.int64(3))).players == 3


def test_a_refused_int_subclass_names_its_type() -> None:
    with pytest.raises(ConfigError) as caught:
        dice_poker.Config(players=Evil(10**12))
    assert (
        str(caught.value) == "players must be a plain int, got Evil 1000000000000: pass int(value)"
    )
