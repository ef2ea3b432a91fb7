"""What the dice score in each box, the mountain's premium and penalty, and the tables over
all 252 sorted throws that the rules look scores up in.

>>> mountain_points(Box.FOURS, (4, 1, 2, 3, 5))
-8
>>> points(Box.PAIR, (1, 3, 3, 5, 5)), points(Box.FULL_HOUSE, (2, 2, 3, 3, 4))
(10, None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from ..messages import short_repr
from .config import BoxScores
from .dice import ALL_THROWS
from .moves import Box, Face, _sorted_faces

__all__ = [
    "FITS",
    "NEEDS",
    "SCORES",
    "mountain_points",
    "points",
    "possible_points",
    "score_table",
    "stage_bonus",
]

_YATZY = BoxScores()
_OF_A_KIND = {Box.PAIR: 2, Box.THREE_KIND: 3, Box.FOUR_KIND: 4}


def _checked(box: object, dice: object) -> tuple[Face, ...]:
    """``dice`` sorted, once ``box`` is a :class:`Box` and ``dice`` a tuple or list of
    faces 1 to 6 (else ``TypeError``, or ``IllegalMoveError`` for a face no die shows).
    """
    if type(box) is not Box:
        raise TypeError(f"expected a dice poker Box, got {short_repr(box)}")
    if type(dice) is not tuple and type(dice) is not list:
        raise TypeError(f"dice are a tuple or list of faces, got {short_repr(dice)}")
    return _sorted_faces(dice)


def mountain_points(box: Box, dice: Sequence[Face]) -> int:
    """``(count - 3) * face``: a mountain box targets three dice of its face."""
    return (_checked(box, dice).count(box.face) - 3) * box.face


def points(box: Box, dice: Sequence[Face], box_scores: BoxScores = _YATZY) -> int | None:
    """Points ``dice`` score in ``box``, or ``None`` when they do not fit a poker box.

    A poker box scores the best way the dice fit it; five alike fit PAIR, THREE_KIND and
    FOUR_KIND but neither TWO_PAIRS nor FULL_HOUSE.
    """
    ordered = _checked(box, dice)
    if box.is_mountain:
        return mountain_points(box, ordered)
    counts = sorted(Counter(ordered).items(), reverse=True)  # (face, count), highest first
    if box in _OF_A_KIND:
        times = _OF_A_KIND[box]
        return next((face * times for face, count in counts if count >= times), None)
    if box is Box.TWO_PAIRS:
        pairs = [face for face, count in counts if count >= 2]
        return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else None
    if box is Box.FULL_HOUSE:
        return sum(ordered) if sorted(count for _, count in counts) == [2, 3] else None
    if box is Box.SMALL_STRAIGHT:
        return box_scores.small_straight if ordered == (1, 2, 3, 4, 5) else None
    if box is Box.LARGE_STRAIGHT:
        return box_scores.large_straight if ordered == (2, 3, 4, 5, 6) else None
    if box is Box.POKER:
        return box_scores.poker if len(counts) == 1 else None
    return sum(ordered)  # CHANCE takes anything


@cache
def score_table(box_scores: BoxScores = _YATZY) -> dict[tuple[Face, ...], tuple[int, ...]]:
    """Sorted dice -> points in each box (0 where they do not fit), built once per
    ``box_scores``.
    """
    return {dice: tuple(points(box, dice, box_scores) or 0 for box in Box) for dice in ALL_THROWS}


@cache
def possible_points(box_scores: BoxScores = _YATZY) -> tuple[frozenset[int], ...]:
    """For each box, every value it can hold: what some throw scores there, and 0 for a
    scratched poker box. Loaders use it to refuse sheets no game can reach.
    """
    return tuple(
        frozenset(
            scored for dice in ALL_THROWS if (scored := points(box, dice, box_scores)) is not None
        )
        | ({0} if box.is_poker else set())
        for box in Box
    )


def stage_bonus(mountain_sum: int, premium: int, penalty: int) -> int:
    """A complete mountain above zero earns the premium, below zero costs the penalty."""
    return premium if mountain_sum > 0 else -penalty if mountain_sum < 0 else 0


SCORES = score_table()
"""Sorted dice -> points in each box with Yatzy's fixed scores (0 where they do not fit)."""

FITS: dict[tuple[Face, ...], int] = {
    dice: sum(1 << box for box in Box if points(box, dice) is not None) for dice in ALL_THROWS
}
"""Sorted dice -> bit mask of the boxes they fit (bit ``box``)."""

NEEDS: dict[Box, str] = {
    Box.PAIR: "two dice alike",
    Box.TWO_PAIRS: "two pairs of different faces",
    Box.THREE_KIND: "three dice alike",
    Box.FOUR_KIND: "four dice alike",
    Box.FULL_HOUSE: "three of one face and two of another",
    Box.SMALL_STRAIGHT: "1-2-3-4-5",
    Box.LARGE_STRAIGHT: "2-3-4-5-6",
    Box.POKER: "five dice alike",
}
"""What each poker box needs thrown complete, for error messages."""
