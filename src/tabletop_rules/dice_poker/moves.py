"""The boxes of the score sheet, the moves of dice poker and their action numbers."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement
from typing import TypeAlias, get_args

import attrs

from .._messages import short_repr
from .._movetable import MoveTable
from ..errors import IllegalMoveError

__all__ = [
    "ACTIONS",
    "BOXES_PER_STAGE",
    "CHANCE_OFFSET",
    "DICE_COUNT",
    "MOUNTAIN",
    "MOVE_TABLE",
    "MOVE_TYPES",
    "NUM_ACTIONS",
    "POKER_BOXES",
    "Announce",
    "Box",
    "Dice",
    "Face",
    "Move",
    "Roll",
    "Scratch",
    "Write",
    "known_move",
]

Face: TypeAlias = int
"""The value a die shows, 1 to 6."""

DICE_COUNT = 5
"""Five six-sided dice."""


class Box(enum.IntEnum):
    """The fifteen boxes of one stage, in sheet order: the mountain, then the poker boxes."""

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    PAIR = 6
    TWO_PAIRS = 7
    THREE_KIND = 8
    FOUR_KIND = 9
    FULL_HOUSE = 10
    SMALL_STRAIGHT = 11
    LARGE_STRAIGHT = 12
    POKER = 13
    CHANCE = 14

    @property
    def is_mountain(self) -> bool:
        """Whether the box is in the upper section, the mountain (ONES to SIXES)."""
        return self <= Box.SIXES

    @property
    def is_poker(self) -> bool:
        """Whether the box is a poker box (PAIR to CHANCE): it may be scratched."""
        return self > Box.SIXES

    @property
    def face(self) -> Face:
        """The face a mountain box counts; ``ValueError`` for a poker box."""
        if self > Box.SIXES:
            raise ValueError(f"{self.name} is not a mountain box")
        return int(self) + 1

    def __repr__(self) -> str:
        return f"Box.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


BOXES_PER_STAGE = len(Box)
"""15 boxes to a stage."""

MOUNTAIN = tuple(box for box in Box if box.is_mountain)
"""The six mountain boxes, ONES to SIXES."""

POKER_BOXES = tuple(box for box in Box if box.is_poker)
"""The nine poker boxes, PAIR to CHANCE."""


def sorted_faces(values: Iterable[int]) -> tuple[int, ...]:
    """Faces as a sorted tuple, as a roll and a throw's outcome keep them;
    ``IllegalMoveError`` for a face no die shows (a die shows a whole number from 1 to 6).
    """
    faces = tuple(values)
    for face in faces:
        if type(face) is not int or not 1 <= face <= 6:
            raise IllegalMoveError(
                f"a die shows a whole number from 1 to 6, not {short_repr(face)}"
            )
    return tuple(sorted(faces))


@attrs.frozen(repr=False)
class Roll:
    """Throw the dice not kept. ``keep`` is the sorted values kept; ``Roll()`` throws all five."""

    keep: tuple[Face, ...] = attrs.field(default=(), converter=sorted_faces)

    def __repr__(self) -> str:
        return f"Roll(keep={self.keep!r})" if self.keep else "Roll()"


@attrs.frozen
class Write:
    """Fill ``box`` of the current stage with the points the dice score in it."""

    box: Box = attrs.field(converter=Box)


@attrs.frozen
class Scratch:
    """Fill poker box ``box`` with 0 points, fitting dice or not."""

    box: Box = attrs.field(converter=Box)


@attrs.frozen
class Announce:
    """In ``announce`` order, name after the first throw the box the turn will end in."""

    box: Box = attrs.field(converter=Box)


@attrs.frozen
class Dice:
    """A chance outcome: the values of the dice just thrown, sorted."""

    values: tuple[Face, ...] = attrs.field(converter=sorted_faces)


Move: TypeAlias = Roll | Write | Scratch | Announce | Dice
"""Any dice poker move, the chance outcome :class:`Dice` included."""

MOVE_TYPES: tuple[type[Move], ...] = get_args(Move)
"""The classes of dice poker moves, the chance outcome :class:`Dice` included."""


def multisets(sizes: range) -> Iterator[tuple[Face, ...]]:
    """Every sorted tuple of faces of each size, shortest first."""
    return (faces for size in sizes for faces in combinations_with_replacement(range(1, 7), size))


ACTIONS: tuple[Move, ...] = (
    *map(Roll, multisets(range(DICE_COUNT))),
    *(Write(box) for box in Box),
    *(Scratch(box) for box in POKER_BOXES),
    *(Announce(box) for box in Box),
    *map(Dice, multisets(range(1, DICE_COUNT + 1))),
)
"""The 710 moves some state allows, in action-number order: 210 rolls by what they keep
(nothing, one die, … four), 15 writes, 9 scratches, 15 announcements and 461 chance
outcomes (one die thrown, … five). Only these instances reach a state or its events."""

NUM_ACTIONS = len(ACTIONS)
"""710 actions in every configuration."""

CHANCE_OFFSET = next(number for number, move in enumerate(ACTIONS) if type(move) is Dice)
"""249: the chance outcomes (:class:`Dice`) are numbered last, from here on."""

MOVE_TABLE: MoveTable[Move] = MoveTable("dice poker", MOVE_TYPES, ACTIONS)
"""The table of :data:`ACTIONS` through which every move given to the rules passes."""


def known_move(move: object) -> Move:
    """The game's own instance of ``move`` (one of :data:`ACTIONS`), else ``move`` itself, a
    move no state allows (a roll keeping five dice), for the rules to say why;
    ``IllegalMoveError`` for what is no dice poker move.

    >>> known_move(Roll(keep=(6, 6))) is known_move(Roll(keep=(6, 6)))
    True
    """
    return MOVE_TABLE.known(move)
