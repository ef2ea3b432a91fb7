"""Short, typable text for account moves."""

from __future__ import annotations

from .._messages import short_repr
from ..errors import IllegalMoveError, NotationError
from .moves import DIRECTIONS, MOVE_TABLE, ROLL, Advance, Buy, Die, Move, Place

__all__ = ["read_move"]

_FORMS = "'place 3', 'buy 5', 'roll', 'move 0 left 3' or 'die 4'"


def _text(text: object) -> str:
    """``text`` as a plain ``str``; ``NotationError`` for anything that is not a string."""
    if not isinstance(text, str):
        raise NotationError(f"move text is a string, not {short_repr(text)}")
    return str.__str__(text)  # a plain str, whatever a subclass overrides


def _number(word: str, what: str, text: str) -> int:
    """``word`` as a whole number: ASCII digits only (no sign, no other scripts' digits)."""
    if not (word.isascii() and word.isdigit()) or len(word.lstrip("0")) > 4:
        raise NotationError(f"{what} is a number, not {short_repr(word)}, in {short_repr(text)}")
    return int(word)


def _shape(verb: str, rest: list[str], count: int, example: str, text: str) -> None:
    if len(rest) != count:
        raise NotationError(f"{verb!r} needs {example}; got {short_repr(text)}")


def read_move(text: str) -> Move:
    """The move ``text`` names, without checking it against a state. Raises
    :class:`~tabletop_rules.errors.NotationError` for text that names no move (a column,
    marker, distance or face that no game has included).

    >>> read_move("die 4")
    Die(value=4)
    """
    text = _text(text)
    words = text.strip().lower().split()
    if not words:
        raise NotationError(f"empty move text: moves are {_FORMS}")
    verb, rest = words[0], words[1:]
    try:
        if verb == "roll":
            _shape(verb, rest, 0, "nothing after it", text)
            return ROLL
        if verb in ("place", "buy"):
            _shape(verb, rest, 1, f"a column, e.g. '{verb} 3'", text)
            column = _number(rest[0], "a column", text)
            return MOVE_TABLE.own(Place(column) if verb == "place" else Buy(column))
        if verb == "die":
            _shape(verb, rest, 1, "the face shown, e.g. 'die 4'", text)
            return MOVE_TABLE.own(Die(_number(rest[0], "a face", text)))
        if verb == "move":
            _shape(
                verb, rest, 3, "a marker, a direction and a distance, e.g. 'move 0 left 3'", text
            )
            marker = _number(rest[0], "a marker", text)
            direction = rest[1]
            if direction not in DIRECTIONS:
                raise NotationError(
                    f"a direction is 'left' or 'right', not {short_repr(direction)}, "
                    f"in {short_repr(text)}"
                )
            steps = _number(rest[2], "a distance", text)
            return MOVE_TABLE.own(
                Advance(marker, "left" if direction == "left" else "right", steps)
            )
    except IllegalMoveError as error:  # a constructor's range check: no game has the move
        raise NotationError(f"{error}, in {short_repr(text)}") from None
    raise NotationError(f"unknown move {short_repr(text)}: moves are {_FORMS}")
