"""A game's moves, each built once, and the guard that keeps every other object out of
``apply``.

``apply`` must act only on moves the library built. A move whose fields were set around
its constructor's checks (``object.__setattr__``, which a careless client or a bad
deserializer can do) or an object that is no move at all must get an
:class:`~tabletop_rules.errors.IllegalMoveError`, and a move equal to a listed one
(``Roll(keep=(6.0, 6.0))``) must become the listed one, so that only the game's own
values reach a state or its events. A game builds one :class:`MoveTable` of the moves
its states can allow and passes every move ``apply`` receives through it; a move that
``legal_moves`` listed costs one set look-up (``id(move) in table.ids``).

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

import enum
from collections.abc import Iterable
from typing import Any, Generic, TypeVar, cast

import attrs

from ._messages import describe, short_repr, short_text
from .errors import IllegalMoveError

__all__ = ["MAX_ITEMS", "MoveTable", "check_action"]

MoveT = TypeVar("MoveT")
OneMove = TypeVar("OneMove")

MAX_ITEMS = 64
"""The most items a sequence in a tampered move's field may have for the move to be
rebuilt; a longer one is refused unread."""

_SCALARS = (type(None), bool, int, float, str)


def _plain(value: object, depth: int = 0) -> bool:
    """Whether ``value`` is made only of what a move's fields hold (``None``, numbers,
    strings, enum members, frozen ``attrs`` values and short tuples or lists of these),
    so that a move's constructor can read it without running foreign code.
    """
    if type(value) in _SCALARS or isinstance(value, enum.Enum):
        return True
    if depth > 3:
        return False
    if type(value) in (tuple, list):
        items = cast(tuple[object, ...], value)
        return len(items) <= MAX_ITEMS and all(_plain(item, depth + 1) for item in items)
    cls: Any = type(value)
    if attrs.has(cls):
        return all(
            _plain(getattr(value, field.name, None), depth + 1) for field in attrs.fields(cls)
        )
    return False


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
        """The table's own instance of ``move``, or a fresh, well-formed move that no state
        allows (for the rules to say why); :class:`~tabletop_rules.errors.IllegalMoveError`
        for an object of no move class, and for a move whose fields were set around its
        constructor's checks to values no move of its class has.
        """
        if id(move) in self.ids:
            return cast(MoveT, move)
        cls = type(move)
        if not any(cls is move_type for move_type in self.move_types):  # `is`: no subclass
            raise IllegalMoveError(f"{short_repr(move)} is not a {self.game} move")
        try:  # a field set around the checks may be unhashable, or its __eq__ may raise
            found = self._by_value.get(cast(MoveT, move))
        except Exception:
            found = None
        if found is not None:
            return found  # equal to a move, so it is that move: 6.0 reads as 6
        return self._rebuilt(move)

    def _rebuilt(self, move: Any) -> MoveT:
        """``move``, equal to no move of the table, built again through its constructor."""
        for field in attrs.fields(type(move)):
            value = getattr(move, field.name, None)
            if not _plain(value):
                raise IllegalMoveError(
                    f"{describe(move)} is not a {self.game} move: its {field.name} is "
                    f"{short_repr(value)}, not a value a move holds"
                )
        try:
            rebuilt = attrs.evolve(move)
        except Exception as error:
            raise IllegalMoveError(
                f"{describe(move)} is not a {self.game} move: {short_text(error)}"
            ) from error
        found = self._by_value.get(rebuilt)
        if found is not None:
            raise IllegalMoveError(
                f"{describe(move)} is not a {self.game} move: its fields are not as "
                f"{type(move).__name__} makes them; {found!r} is"
            )
        return cast(MoveT, rebuilt)


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
