"""Who sits where, whose turn it is, and who won: the seat logic every game shares.
Seats are 0-based ints (:data:`Seat`); ``None`` is a spectator where a view is asked for.

>>> top_seats((12, 30, 30))
frozenset({1, 2})
>>> check_on_turn(1, current_player=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tabletop_rules.errors.IllegalMoveError: seat 1 has no move now: ... another seat is to move (0)
"""

from __future__ import annotations

from collections.abc import Sequence

from ._messages import short_repr
from .errors import IllegalMoveError, SeatError

__all__ = ["Seat", "check_on_turn", "check_seat", "top_seats", "zero_sum_rewards"]

Seat = int
"""A player's seat, 0-based in seat order."""


def check_seat(seat: object, players: int) -> None:
    """What ``view(state, seat)`` accepts: ``TypeError`` unless ``seat`` is ``None`` or a
    plain ``int``, :class:`~tabletop_rules.errors.SeatError` unless it is 0 to ``players - 1``.

    >>> check_seat(2, players=2)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.SeatError: seat must be 0 to 1 or None, got 2
    """
    if seat is None:
        return
    if type(seat) is not int:
        raise TypeError(
            f"seat must be an int from 0 to {players - 1} or None, got {short_repr(seat)}"
        )
    if not 0 <= seat < players:
        raise SeatError(f"seat must be 0 to {players - 1} or None, got {short_repr(seat)}")


def check_on_turn(seat: Seat | None, current_player: Seat | None) -> None:
    """Raise :class:`~tabletop_rules.errors.IllegalMoveError` unless ``seat`` (``None``: a
    spectator, who never moves) is ``current_player``.
    """
    if seat is None or seat != current_player:
        whose = "a spectator" if seat is None else f"seat {seat}"
        raise IllegalMoveError(
            f"{whose} has no move now: the game is over, waits for a chance outcome, or "
            f"another seat is to move ({current_player})"
        )


def top_seats(scores: Sequence[int]) -> frozenset[Seat]:
    """The seats with the highest score (ties share it); empty for no scores. A game that
    can end with nobody winning says so itself, before asking.

    >>> top_seats((3, 7, 5)), top_seats(())
    (frozenset({1}), frozenset())
    """
    if not scores:
        return frozenset()
    top = max(scores)
    return frozenset(seat for seat, points in enumerate(scores) if points == top)


def zero_sum_rewards(winners: frozenset[Seat], seats: int) -> list[float]:
    """Each seat's reward for a finished game, summing to zero: the winners share +1 and
    the losers -1; all 0 when nobody wins or nobody loses.

    >>> zero_sum_rewards(frozenset({0}), 4)
    [1.0, -0.3333333333333333, -0.3333333333333333, -0.3333333333333333]
    """
    losers = seats - len(winners)
    if not winners or not losers:
        return [0.0] * seats
    win, lose = 1 / len(winners), -1 / losers
    return [win if seat in winners else lose for seat in range(seats)]
