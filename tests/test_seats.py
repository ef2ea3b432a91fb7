"""The seat logic every game shares: seat checks, whose turn it is, top-score winners."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules._seats import check_on_turn, check_seat, top_seats
from tabletop_rules.errors import IllegalMoveError, SeatError
from tabletop_rules.protocol import CHANCE


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_a_seat_at_the_table_or_a_spectator_is_accepted(seat: int | None) -> None:
    check_seat(seat, players=3)


@pytest.mark.parametrize(
    ("seat", "shown"),
    [(3, "3"), (-1, "-1"), pytest.param(10**5000, None, id="huge")],
)
def test_a_seat_not_at_the_table_is_the_librarys_seat_error(seat: Any, shown: str | None) -> None:
    """Point 8 of issue 32: ``view(state, 5)`` raised a plain ``ValueError``."""
    with pytest.raises(SeatError, match=r"^seat must be 0 to 2 or None, got ") as caught:
        check_seat(seat, players=3)
    if shown is not None:
        assert str(caught.value).endswith(f"got {shown}")
    assert len(str(caught.value)) < 120


@pytest.mark.parametrize(("seat", "shown"), [(True, "True"), (1.0, "1.0"), ("0", "'0'")])
def test_a_seat_that_is_no_int_is_a_type_error(seat: Any, shown: str) -> None:
    with pytest.raises(
        TypeError, match=r"^seat must be an int from 0 to 2 or None, got "
    ) as caught:
        check_seat(seat, players=3)
    assert str(caught.value).endswith(f"got {shown}")


def test_the_seat_on_turn_may_move() -> None:
    check_on_turn(1, current_player=1)


@pytest.mark.parametrize(
    ("seat", "current", "message"),
    [
        (
            1,
            0,
            "seat 1 has no move now: the game is over, waits for a chance outcome, or "
            "another seat is to move (0)",
        ),
        (0, None, "seat 0 has no move now: the game is over, waits for a chance outcome, or "
         "another seat is to move (None)"),
        (0, CHANCE, "seat 0 has no move now: the game is over, waits for a chance outcome, "
         "or another seat is to move (-1)"),
        (None, 0, "a spectator has no move now: the game is over, waits for a chance "
         "outcome, or another seat is to move (0)"),
    ],
)  # fmt: skip
def test_a_seat_not_on_turn_gets_an_illegal_move_error(
    seat: int | None, current: int | None, message: str
) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        check_on_turn(seat, current)
    assert str(caught.value) == message


def test_a_spectator_never_moves_even_when_nobody_is_on_turn() -> None:
    with pytest.raises(IllegalMoveError, match="a spectator has no move now"):
        check_on_turn(None, None)


def test_the_top_score_wins() -> None:
    assert top_seats((10, 30, 20)) == frozenset({1})


def test_equal_top_scores_share_the_win() -> None:
    assert top_seats((30, 10, 30)) == frozenset({0, 2})


def test_no_scores_means_no_winner() -> None:
    assert top_seats(()) == frozenset()


def test_negative_scores_still_have_a_top() -> None:
    assert top_seats((-5, -2, -9)) == frozenset({1})


@given(st.lists(st.integers(-1000, 1000), max_size=8))
def test_the_top_seats_are_exactly_those_no_other_seat_beats(scores: list[int]) -> None:
    winners = top_seats(scores)
    assert winners == {
        seat for seat, points in enumerate(scores) if all(points >= other for other in scores)
    }


class _AlwaysInRange(int):
    """An int whose comparisons always say yes: it must not pass for a seat."""

    def __lt__(self, other: object) -> bool:
        return True

    def __le__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return True


def test_a_seat_must_be_an_exact_int_not_a_subclass_whose_comparisons_lie() -> None:
    with pytest.raises(TypeError, match=r"^seat must be an int from 0 to 2 or None"):
        check_seat(_AlwaysInRange(5), players=3)
