"""The moves of the account game and their action numbers. A constructor checks only the
shape of its fields (``Advance(0, "up", 3)`` is an ``IllegalMoveError``); whether the rules
allow the move is :func:`~tabletop_rules.account.apply`'s business.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias, get_args

import attrs

from ..kit import IllegalMoveError, MoveTable, short_repr
from .config import MAX_COLUMNS, MAX_MARKERS

__all__ = [
    "ADVANCES",
    "BUYS",
    "CHANCE_OFFSET",
    "DICE",
    "DIRECTIONS",
    "MOVE_TABLE",
    "MOVE_TYPES",
    "NUM_ACTIONS",
    "PLACES",
    "ROLL",
    "SIDES",
    "Advance",
    "Buy",
    "Die",
    "Direction",
    "Move",
    "Place",
    "Roll",
]

Direction: TypeAlias = Literal["left", "right"]
"""Left is towards column 0, right towards the last column."""

DIRECTIONS: tuple[Direction, ...] = get_args(Direction)
"""Both directions, left first."""

SIDES = 6
"""The die's faces, 1 to 6."""


def _whole(what: str, low: int, high: int, note: str = "") -> Any:
    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        if type(value) is not int or not low <= value <= high:
            raise IllegalMoveError(f"{what} {low} to {high}{note}, not {short_repr(value)}")

    return check


def _check_direction(_instance: Any, _attribute: Any, value: Any) -> None:
    if type(value) is not str or value not in DIRECTIONS:
        raise IllegalMoveError(f"a direction is 'left' or 'right', not {short_repr(value)}")


@attrs.frozen
class Place:
    """In setup, place the next starting marker on the bottom-line card of ``column``."""

    column: int = attrs.field(validator=_whole("a column is", 0, MAX_COLUMNS - 1))


@attrs.frozen
class Buy:
    """Before the turn's first roll, buy a marker and place it on ``column``'s card."""

    column: int = attrs.field(validator=_whole("a column is", 0, MAX_COLUMNS - 1))


@attrs.frozen
class Roll:
    """Roll the die for the next marker to move."""


@attrs.frozen
class Advance:
    """Move the player's ``marker`` (not yet moved this turn) ``steps`` cards along the
    bottom line towards ``direction``; ``steps`` is 1 to the number rolled.
    """

    marker: int = attrs.field(validator=_whole("a marker is", 0, MAX_MARKERS - 1))
    direction: Direction = attrs.field(validator=_check_direction)
    steps: int = attrs.field(validator=_whole("a distance is", 1, SIDES, " (at most the roll)"))


@attrs.frozen
class Die:
    """The chance outcome of a roll (with ``auto_chance=False``): the die shows ``value``."""

    value: int = attrs.field(validator=_whole("a die shows", 1, SIDES))


Move: TypeAlias = Place | Buy | Roll | Advance | Die
"""Any move of the account game (a :class:`Die` only at a chance point)."""

MOVE_TYPES: tuple[type, ...] = (Place, Buy, Roll, Advance, Die)
"""The classes of account game moves, the chance outcome :class:`Die` included."""


PLACES: tuple[Place, ...] = tuple(Place(column) for column in range(MAX_COLUMNS))
"""``Place(column)`` for every column any config has, by column."""

BUYS: tuple[Buy, ...] = tuple(Buy(column) for column in range(MAX_COLUMNS))
"""``Buy(column)`` for every column any config has, by column."""

ROLL = Roll()
"""The one :class:`Roll` the package builds (every ``Roll()`` is equal to it)."""

_EVERY_ADVANCE = tuple(
    tuple(Advance(marker, way, steps) for way in DIRECTIONS for steps in range(1, SIDES + 1))
    for marker in range(MAX_MARKERS)
)
ADVANCES: tuple[tuple[tuple[Advance, ...], ...], ...] = tuple(
    tuple(tuple(move for move in every if move.steps <= roll) for roll in range(SIDES + 1))
    for every in _EVERY_ADVANCE
)
"""``ADVANCES[marker][roll]``: the moves of ``marker`` after ``roll``, left before right,
then by distance 1 to ``roll``."""

DICE: tuple[Die, ...] = tuple(Die(value) for value in range(1, SIDES + 1))
"""The die's outcomes, ``Die(1)`` to ``Die(6)``."""

MOVE_TABLE: MoveTable[Move] = MoveTable(
    "account",
    MOVE_TYPES,
    (*PLACES, *BUYS, ROLL, *(move for by_roll in ADVANCES for move in by_roll[SIDES]), *DICE),
)
"""Every move of every config, each built once, in action order, so every config has the
same action numbers (the codec's ``encode`` needs no state): (the table in the API reference)."""

NUM_ACTIONS = len(MOVE_TABLE.moves)
"""143 actions in every configuration, chance outcomes included."""

CHANCE_OFFSET = MOVE_TABLE.moves.index(DICE[0])
"""137: the chance outcomes (:class:`Die`) are numbered last, from here to the end."""
