"""The shared guard of ``apply``: a game's own move instances, and nothing else."""

from __future__ import annotations

import itertools
from typing import Any

import attrs
import pytest

from tabletop_rules._messages import describe, short_repr, short_text
from tabletop_rules._movetable import MAX_ITEMS, MoveTable
from tabletop_rules.errors import IllegalMoveError

from .ids import repr_id


def _positive(_instance: Any, _attribute: Any, value: Any) -> None:
    if type(value) is not int or value < 1:
        raise IllegalMoveError(f"a step is a whole number of at least 1, not {value!r}")


@attrs.frozen
class Step:
    """A toy move: walk ``size`` squares (1 to 3 are ever legal)."""

    size: int = attrs.field(validator=_positive)


def sorted_squares(items: Any) -> tuple[int, ...]:
    return tuple(sorted(items))


@attrs.frozen
class Path:
    """A toy move with a sequence field, sorted by its constructor."""

    squares: tuple[int, ...] = attrs.field(converter=sorted_squares)


class StepSubclass(Step):
    pass


TABLE: MoveTable[Step | Path] = MoveTable(
    "toy", (Step, Path), [Step(1), Step(2), Step(3), Path((1, 2))]
)


def tampered(move: Any, **fields: Any) -> Any:
    clone = object.__new__(type(move))
    for field in attrs.fields(type(move)):
        object.__setattr__(clone, field.name, fields.get(field.name, getattr(move, field.name)))
    return clone


def test_the_tables_own_instances_pass_by_identity() -> None:
    own = TABLE.moves[1]
    assert id(own) in TABLE.ids
    assert TABLE.known(own) is own


def test_an_equal_move_becomes_the_tables_instance() -> None:
    assert TABLE.known(Step(2)) is TABLE.moves[1]
    assert TABLE.own(Step(3)) is TABLE.moves[2]
    assert TABLE.known(tampered(Step(1), size=2.0)) is TABLE.moves[1]


def test_own_of_a_move_not_in_the_table_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        TABLE.own(Step(9))


@pytest.mark.parametrize("obj", [None, 2, "step", Step, StepSubclass(2), object()], ids=repr_id)
def test_an_object_of_no_move_class_is_refused(obj: object) -> None:
    with pytest.raises(IllegalMoveError, match="is not a toy move"):
        TABLE.known(obj)


def test_a_well_formed_move_outside_the_table_is_returned_rebuilt_for_the_rules() -> None:
    move = TABLE.known(Step(9))
    assert move == Step(9)
    assert id(move) not in TABLE.ids


@pytest.mark.parametrize("size", [0, -1, 2.5, None, "2", [2]], ids=repr_id)
def test_a_field_set_around_the_validator_is_refused(size: object) -> None:
    with pytest.raises(IllegalMoveError, match=r"Step\(size=.*\) is not a toy move"):
        TABLE.known(tampered(Step(1), size=size))


def test_a_field_that_would_run_foreign_code_is_refused_unread() -> None:
    with pytest.raises(IllegalMoveError, match="its squares is repeat"):
        TABLE.known(tampered(Path((1, 2)), squares=itertools.repeat(1)))


def test_a_sequence_over_max_items_is_refused_unread() -> None:
    squares = [1] * (MAX_ITEMS + 1)
    with pytest.raises(IllegalMoveError, match="not a value a move holds"):
        TABLE.known(tampered(Path((1, 2)), squares=squares))


def test_a_move_that_its_constructor_would_change_is_refused_naming_the_right_form() -> None:
    with pytest.raises(IllegalMoveError, match=r"not as Path makes them; Path\(squares=\(1, 2\)\)"):
        TABLE.known(tampered(Path((1, 2)), squares=(2, 1)))


class Hostile:
    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_a_field_whose_hash_eq_and_repr_raise_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match=r"Step\(size=<Hostile instance at 0x[0-9a-f]+>\)"):
        TABLE.known(tampered(Step(1), size=Hostile()))


def test_short_repr_is_short_and_never_raises() -> None:
    assert short_repr(Hostile()).startswith("<Hostile instance at 0x")
    assert short_repr(10**5000) == "<int of 16610 bits>"
    assert len(short_repr("x" * 10_000)) <= 120
    assert len(short_repr([[["x" * 100] * 100] * 100] * 100)) <= 120


def test_short_text_is_short_and_never_raises() -> None:
    class NoText:
        def __str__(self) -> str:
            raise RuntimeError("no str")

    assert short_text(NoText()) == "<NoText whose text cannot be read>"
    assert len(short_text("y" * 1000)) == 200


def test_describe_shows_unset_fields() -> None:
    assert describe(object.__new__(Step)) == "Step(size=<unset>)"
