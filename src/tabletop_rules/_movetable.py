"""A game's moves, each built once, and the guard that keeps every other object out of
``apply``: what is no move of the game's own classes gets an
:class:`~tabletop_rules.errors.IllegalMoveError`, and a move equal to a listed one becomes
that one (one set look-up for a listed move, one dict look-up for an equal one). A move
changed around its constructor's checks (``object.__setattr__``) is outside the contract.

>>> from tabletop_rules import dice_poker as dp
>>> table = dp.moves.MOVE_TABLE
>>> table.known(dp.Roll(keep=(6, 6))) is table.known(dp.Roll(keep=(6, 6)))
True
>>> table.known("roll")
Traceback (most recent call last):
...
tabletop_rules.errors.IllegalMoveError: 'roll' is not a dice poker move
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar, cast

from ._messages import short_repr
from .errors import IllegalMoveError

__all__ = ["MoveTable", "check_action"]

MoveT = TypeVar("MoveT")
OneMove = TypeVar("OneMove")


class MoveTable(Generic[MoveT]):
    """Every move that some state of a game allows, each built once.

    Args:
        game: The game's name for people, for messages (``"dice poker"``).
        move_types: The game's move classes, chance outcomes included.
        moves: The moves, in the game's action order.

    """

    __slots__ = ("_by_value", "game", "ids", "move_types", "moves")

    def __init__(
        self, game: str, move_types: tuple[type[Any], ...], moves: Iterable[MoveT]
    ) -> None:
        self.game = game
        self.move_types = move_types
        self.moves: tuple[MoveT, ...] = tuple(moves)
        """The moves, in the game's action order."""
        self._by_value: dict[MoveT, MoveT] = {move: move for move in self.moves}
        self.ids: frozenset[int] = frozenset(map(id, self._by_value.values()))
        """The identities of the table's own instances: they live as long as the table,
        so no other object has one of these ids."""

    def own(self, move: OneMove) -> OneMove:
        """The table's instance of ``move``, one of ``moves``; ``KeyError`` if none."""
        return cast(OneMove, self._by_value[cast(MoveT, move)])

    def known(self, move: object) -> MoveT:
        """The table's own instance of ``move``, else ``move`` itself (for the rules to say
        why no state allows it); ``IllegalMoveError`` for an object of no move class.
        """
        if id(move) in self.ids:
            return cast(MoveT, move)
        cls = type(move)
        if not any(cls is move_type for move_type in self.move_types):  # `is`: no subclass
            article = "an" if self.game[:1] in "aeiou" else "a"
            raise IllegalMoveError(f"{short_repr(move)} is not {article} {self.game} move")
        return self._by_value.get(cast(MoveT, move), cast(MoveT, move))


def check_action(action: object, size: int) -> int:
    """``action`` itself when it is a plain ``int`` in ``[0, size)``; else
    :class:`~tabletop_rules.errors.IllegalMoveError` saying which.

    >>> check_action(3, 10)
    3
    >>> check_action(10, 10)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.IllegalMoveError: action 10 is outside the action space 0..9
    """
    if type(action) is not int:
        raise IllegalMoveError(f"an action is a whole number, not {short_repr(action)}")
    if not 0 <= action < size:
        raise IllegalMoveError(
            f"action {short_repr(action)} is outside the action space 0..{size - 1}"
        )
    return action
