"""The boxes of the score sheet and the moves of dice poker.

>>> Roll(keep=(6, 2, 6))
Roll(keep=(2, 6, 6))
>>> Write(Box.FULL_HOUSE)
Write(box=Box.FULL_HOUSE)
>>> Box.FULL_HOUSE.is_poker, Box.SIXES.face
(True, 6)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from itertools import combinations_with_replacement
from typing import TypeAlias

import attrs

from ..errors import IllegalMoveError
from ..messages import short_repr
from ..movetable import MoveTable

__all__ = [
    "ACTIONS",
    "BOXES_PER_STAGE",
    "DICE_COUNT",
    "MOUNTAIN",
    "MOVE_TYPES",
    "POKER_BOXES",
    "Announce",
    "Box",
    "Dice",
    "Face",
    "Move",
    "Roll",
    "Scratch",
    "Write",
    "format_move",
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


def _sorted_faces(values: Iterable[int]) -> tuple[int, ...]:
    """Faces as a sorted tuple; a die shows a whole number from 1 to 6 and nothing else."""
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

    keep: tuple[Face, ...] = attrs.field(default=(), converter=_sorted_faces)

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

    values: tuple[Face, ...] = attrs.field(converter=_sorted_faces)


Move: TypeAlias = Roll | Write | Scratch | Announce | Dice
"""Any dice poker move, the chance outcome :class:`Dice` included."""

MOVE_TYPES: tuple[type[Move], ...] = (Roll, Write, Scratch, Announce, Dice)
"""The classes of dice poker moves, the chance outcome :class:`Dice` included."""

# --- the moves a state can allow, each built once -------------------------------------

ACTIONS: tuple[Move, ...] = (
    *(
        Roll(keep)
        for size in range(DICE_COUNT)
        for keep in combinations_with_replacement(range(1, 7), size)
    ),
    *(Write(box) for box in Box),
    *(Scratch(box) for box in POKER_BOXES),
    *(Announce(box) for box in Box),
    *(
        Dice(values)
        for size in range(1, DICE_COUNT + 1)
        for values in combinations_with_replacement(range(1, 7), size)
    ),
)
"""The 710 distinct moves that some state allows, in action-number order (see
:mod:`~tabletop_rules.dice_poker.codec`): 210 rolls by what they keep, 15 writes,
9 scratches, 15 announcements and 461 chance outcomes. These instances are the only
moves that reach a state or its events: :func:`known_move` maps every move to one of
them (or refuses it)."""

MOVE_TABLE: MoveTable[Move] = MoveTable("dice poker", MOVE_TYPES, ACTIONS)
"""The table of :data:`ACTIONS`, through which ``apply``, ``encode`` and ``parse_move``
pass every move they are given (see :mod:`tabletop_rules.movetable`)."""


def known_move(move: object) -> Move:
    """The game's own instance of ``move`` (from :data:`ACTIONS`), or a fresh, well-formed
    move that no state allows (a roll keeping five or more dice, an outcome of no dice or
    of more than five); the rules say why that one is illegal.

    Raises :class:`~tabletop_rules.errors.IllegalMoveError` for anything else: an object
    that is no dice poker move, or a move whose fields were set around its constructor's
    checks (with ``object.__setattr__``) to values that are not those of any move.

    >>> known_move(Roll(keep=(6, 6))) is known_move(Roll(keep=(6, 6)))
    True
    >>> tampered = Write(Box.CHANCE)
    >>> object.__setattr__(tampered, "box", 99)
    >>> try:
    ...     known_move(tampered)
    ... except IllegalMoveError as error:
    ...     print(error)
    Write(box=99) is not a dice poker move: 99 is not a valid Box
    """
    return MOVE_TABLE.known(move)


def format_move(move: Move) -> str:
    """The move's notation (see :mod:`~tabletop_rules.dice_poker.notation`);
    :func:`~tabletop_rules.dice_poker.parse_move` reads it back. The rules name moves
    this way in their messages.

    Raises ``TypeError`` for what is no dice poker move (a subclass is not one), and
    :class:`~tabletop_rules.errors.IllegalMoveError` for a move whose fields were set
    around its checks (:func:`~tabletop_rules.dice_poker.moves.known_move`): the text always
    names the very move it reads back to, never what stray fields happen to print.

    >>> format_move(Roll(keep=(6, 6)))
    'roll keep 6 6'
    """
    if not any(type(move) is kind for kind in MOVE_TYPES):
        raise TypeError(f"not a dice poker move: {short_repr(move)}")
    move = known_move(move)
    if isinstance(move, Roll):
        return "roll keep " + " ".join(map(str, move.keep)) if move.keep else "roll"
    if isinstance(move, Write | Scratch | Announce):
        return f"{type(move).__name__.lower()} {move.box}"
    if isinstance(move, Dice):
        return " ".join(("dice", *map(str, move.values)))
    raise TypeError(f"not a dice poker move: {short_repr(move)}")
