"""What a move would do, read off a view for hints and previews: for the number rolled,
where each marker not yet moved would land, in each direction and at each distance, and
what the card there would do to the account.
"""

from __future__ import annotations

import attrs

from ..kit import check_type
from .cards import END, B, Card, Z
from .moves import DIRECTIONS, Direction
from .state import View

__all__ = ["Landing", "landings"]


@attrs.frozen
class Landing:
    """``Advance(marker, direction, steps)`` would stop on ``column``, whose bottom card is
    ``card``, and take the account from ``before`` to ``after``: ``None`` for a B, whose
    charge is the card it will draw. ``ends``: the card is End and stops the game (at
    once, or under ``end="finish_round"`` once the round is over).
    """

    marker: int
    direction: Direction
    steps: int
    column: int
    card: Card
    before: int
    after: int | None
    ends: bool = False


def landings(seen: View) -> tuple[Landing, ...]:
    """Every move the number rolled allows the seat on turn, each a :class:`Landing`, in
    the order ``legal_moves`` lists the moves (by marker, left before right, then by
    distance); empty while no roll waits for its move. Moves are counted on the bottom
    line as it is now: a column with no cards left is skipped.

    >>> from tabletop_rules.account import Config, apply, new_game, parse_move, view
    >>> state = new_game(Config(players=1), seed=6)
    >>> for text in ("place 0", "roll"):
    ...     state = apply(state, parse_move(state, text))
    >>> state.roll, [str(cards[0]) for cards in state.field]
    (2, ['+1', '+15', '+10', '+15', '+25', '-15', 'P'])
    >>> for landing in landings(view(state, 0)):
    ...     print(landing.direction, landing.steps, landing.card, landing.before, landing.after)
    left 1 P 1 101
    left 2 -15 1 -14
    right 1 +15 1 16
    right 2 +10 1 11
    """
    roll, seat = check_type(seen, (View,)).roll, seen.current_player
    if roll is None or seat is None or seat < 0:
        return ()
    ring = tuple(column for column, cards in enumerate(seen.field) if cards)
    before = seen.accounts[seat]
    floor = seen.config.floor_at_zero
    found = []
    for marker, start in enumerate(seen.markers[seat]):
        if marker in seen.moved:
            continue
        at = ring.index(start)
        for direction in DIRECTIONS:
            sign = -1 if direction == "left" else 1
            for steps in range(1, roll + 1):
                column = ring[(at + sign * steps) % len(ring)]
                card = seen.field[column][0]
                after = _after(card, before, floor)
                ends = card is END and not seen.ending
                found.append(Landing(marker, direction, steps, column, card, before, after, ends))
    return tuple(found)


def _after(card: Card, before: int, floor: bool) -> int | None:
    """The account after ``card`` scores, ``None`` for B (the draw decides)."""
    if card is B:
        return None
    if card is END:
        return before
    after = 0 if card is Z else before + card.points
    return max(after, 0) if floor else after
