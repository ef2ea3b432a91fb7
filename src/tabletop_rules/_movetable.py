"""A game's moves, each built once, and the guard that keeps every other object out of
``apply``.

``apply`` acts only on moves of the game's own classes: an object that is no move at all
(nor a subclass's instance) gets an :class:`~tabletop_rules.errors.IllegalMoveError`, and
a move equal to a listed one becomes the listed one, so that a state and its events hold
the game's own instances. A game builds one :class:`MoveTable` of the moves its states can
allow and passes every move ``apply`` receives through it; a move that ``legal_moves``
listed costs one set look-up (``id(move) in table.ids``), an equal one a dict look-up. A
move's constructor checks its fields; a move changed around them (``object.__setattr__``)
is outside the contract, as every frozen value is.

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
        """The table's own instance of ``move``, else ``move`` itself, a move no state allows
        (for the rules to say why); :class:`~tabletop_rules.errors.IllegalMoveError` for an
        object of no move class.
        """
        if id(move) in self.ids:
            return cast(MoveT, move)
        cls = type(move)
        if not any(cls is move_type for move_type in self.move_types):  # `is`: no subclass
            article = "an" if self.game[:1] in "aeiou" else "a"
            raise IllegalMoveError(f"{short_repr(move)} is not {article} {self.game} move")
        return self._by_value.get(cast(MoveT, move), cast(MoveT, move))


def check_action(action: object, size: int) -> int:
    """``action`` itself when it is a number of an action space of ``size`` actions: a
    plain ``int`` (``bool`` and subclasses refused) in ``[0, size)``; else
    :class:`~tabletop_rules.errors.IllegalMoveError` saying which. Every game's codec
    checks the numbers it is given with it.

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
