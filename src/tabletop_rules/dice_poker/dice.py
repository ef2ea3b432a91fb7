"""The five dice: every throw, what can be kept of it, and how likely each outcome is,
in tables built once at import for the rules to look up.

>>> len(ALL_THROWS), len(OUTCOMES[5]), sum(PROBABILITIES[2].values())
(252, 252, Fraction(1, 1))
>>> KEEPS[(2, 2, 5, 6, 6)][:4]
((), (2,), (5,), (6,))
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod

from .moves import DICE_COUNT, MOVE_TABLE, Dice, Face, Move

__all__ = ["ALL_THROWS", "KEEPS", "OUTCOMES", "PROBABILITIES", "THROW_TABLES", "throw_probability"]

ALL_THROWS: tuple[tuple[Face, ...], ...] = tuple(
    combinations_with_replacement(range(1, 7), DICE_COUNT)
)
"""Every sorted throw of five dice: 252 of them."""


def _keeps(dice: tuple[Face, ...]) -> tuple[tuple[Face, ...], ...]:
    """Every distinct sorted selection of fewer than five of ``dice``, shortest first."""
    selections: list[tuple[Face, ...]] = [()]
    for face, count in sorted(Counter(dice).items()):
        selections = [kept + (face,) * n for kept in selections for n in range(count + 1)]
    return tuple(sorted((k for k in selections if len(k) < DICE_COUNT), key=lambda k: (len(k), k)))


KEEPS = {dice: _keeps(dice) for dice in ALL_THROWS}
"""Sorted dice -> what a throw may keep of them (keeping all five is not a throw)."""


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
    count: (
        6**count,
        tuple(
            tuple(sorted(number // 6**die % 6 + 1 for die in range(count)))
            for number in range(6**count)
        ),
    )
    for count in range(1, DICE_COUNT + 1)
}
"""Number of dice -> ``(6 ** count, faces)``: one draw ``n`` below ``6 ** count`` throws
them all, ``faces[n]`` (its base-6 digits plus one, sorted)."""
