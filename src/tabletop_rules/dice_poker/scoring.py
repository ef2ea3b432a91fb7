"""The five dice: every throw, what can be kept of it, how likely each outcome is, and what it
scores in each box, in tables built once at import.
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from math import factorial, prod

from .._messages import short_repr
from .config import DEFAULT_BOX_SCORES, BoxScores
from .moves import DICE_COUNT, MOVE_TABLE, Box, Dice, Face, Move, sorted_faces

__all__ = ["mountain_points", "points", "stage_bonus"]

ALL_THROWS: tuple[tuple[Face, ...], ...] = tuple(
    combinations_with_replacement(range(1, 7), DICE_COUNT)
)
"""Every sorted throw of five dice: 252 of them."""


KEEPS = {
    dice: tuple(
        kept for size in range(DICE_COUNT) for kept in sorted(set(combinations(dice, size)))
    )
    for dice in ALL_THROWS
}
"""Sorted dice -> what a throw may keep of them, shortest first (keeping all five is no throw)."""


def throw_probability(values: tuple[Face, ...]) -> Fraction:
    """Chance that ``len(values)`` fair dice show ``values`` in some order.

    >>> throw_probability((6, 6)), throw_probability((1, 2))
    (Fraction(1, 36), Fraction(1, 18))
    """
    arrangements = factorial(len(values)) // prod(factorial(c) for c in Counter(values).values())
    return Fraction(arrangements, 6 ** len(values))


OUTCOMES: dict[int, tuple[Dice, ...]] = {
    count: tuple(
        move for move in MOVE_TABLE.moves if type(move) is Dice and len(move.values) == count
    )
    for count in range(1, DICE_COUNT + 1)
}
"""Number of dice thrown -> each distinct outcome, the game's own chance moves."""

PROBABILITIES: dict[int, Mapping[Move, Fraction]] = {
    count: types.MappingProxyType({dice: throw_probability(dice.values) for dice in outcomes})
    for count, outcomes in OUTCOMES.items()
}
"""Number of dice thrown -> each outcome's exact probability."""

THROW_TABLES = {
    count: (6**count, tuple(tuple(sorted(faces)) for faces in product(range(1, 7), repeat=count)))
    for count in range(1, DICE_COUNT + 1)
}
"""Number of dice -> ``(6 ** count, faces)``: one draw ``n`` below ``6 ** count`` throws
them all, ``faces[n]`` (the digits of ``n`` in base 6, plus one, sorted)."""

_OF_A_KIND = {Box.PAIR: 2, Box.THREE_KIND: 3, Box.FOUR_KIND: 4}


def _checked(box: object, dice: object) -> tuple[Face, ...]:
    """``dice`` sorted, once ``box`` is a :class:`Box` and ``dice`` a tuple or list of
    faces 1 to 6 (else ``TypeError``, or ``IllegalMoveError`` for a face no die shows).
    """
    if type(box) is not Box:
        raise TypeError(f"expected a dice poker Box, got {short_repr(box)}")
    if type(dice) is not tuple and type(dice) is not list:
        raise TypeError(f"dice are a tuple or list of faces, got {short_repr(dice)}")
    return sorted_faces(dice)


def mountain_points(box: Box, dice: Sequence[Face]) -> int:
    """``(count - 3) * face``: a mountain box targets three dice of its face."""
    return (_checked(box, dice).count(box.face) - 3) * box.face


def points(
    box: Box, dice: Sequence[Face], box_scores: BoxScores = DEFAULT_BOX_SCORES
) -> int | None:
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
def score_table(
    box_scores: BoxScores = DEFAULT_BOX_SCORES,
) -> dict[tuple[Face, ...], tuple[int, ...]]:
    """Sorted dice -> points in each box (0 where they do not fit), once per ``box_scores``."""
    return {dice: tuple(points(box, dice, box_scores) or 0 for box in Box) for dice in ALL_THROWS}


@cache
def possible_points(box_scores: BoxScores = DEFAULT_BOX_SCORES) -> tuple[frozenset[int], ...]:
    """For each box every value it can hold (what a throw scores there, 0 for a scratch), so
    that loaders refuse sheets no game can reach.
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
