"""The shared guard of ``apply``: a game's own move instances, and nothing else."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules._messages import short_repr, short_text
from tabletop_rules._movetable import MoveTable
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


def test_the_tables_own_instances_pass_by_identity() -> None:
    own = TABLE.moves[1]
    assert id(own) in TABLE.ids
    assert TABLE.known(own) is own


def test_an_equal_move_becomes_the_tables_instance() -> None:
    assert TABLE.known(Step(2)) is TABLE.moves[1]
    assert TABLE.own(Step(3)) is TABLE.moves[2]
    assert TABLE.known(Path((2, 1))) is TABLE.moves[3]


def test_own_of_a_move_not_in_the_table_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        TABLE.own(Step(9))


@pytest.mark.parametrize("obj", [None, 2, "step", Step, StepSubclass(2), object()], ids=repr_id)
def test_an_object_of_no_move_class_is_refused(obj: object) -> None:
    with pytest.raises(IllegalMoveError, match="is not a toy move"):
        TABLE.known(obj)


def test_a_move_outside_the_table_is_returned_as_it_is_for_the_rules() -> None:
    move = Step(9)
    assert TABLE.known(move) is move
    assert id(move) not in TABLE.ids


class Hostile:
    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


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
