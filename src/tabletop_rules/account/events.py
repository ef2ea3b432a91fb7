"""What happens in an account-game transition, in order, for front ends to animate.

Every event is public (``redact`` leaves it as it is): field cards lie face up, a card B
draws is shown to all, and :class:`Reshuffled` tells only how many cards the new pack holds.
"""

from __future__ import annotations

from typing import Literal, TypeAlias, get_args

import attrs

from ..protocol import Seat
from .cards import Card
from .moves import Direction

__all__ = [
    "EVENT_TYPES",
    "AccountChanged",
    "Bought",
    "Collapsed",
    "Drew",
    "EndHit",
    "Event",
    "GameOver",
    "Moved",
    "Placed",
    "Reshuffled",
    "Rolled",
    "TurnPassed",
]


@attrs.frozen
class Placed:
    """In setup ``seat`` placed its ``marker`` on ``column``, whose bottom card is ``card``."""

    seat: Seat
    marker: int
    column: int
    card: Card


@attrs.frozen
class Bought:
    """``seat`` paid ``cost`` for ``marker`` and placed it on ``column`` (on ``card``)."""

    seat: Seat
    marker: int
    column: int
    card: Card
    cost: int


@attrs.frozen
class Rolled:
    """``seat``'s die shows ``value``."""

    seat: Seat
    value: int


@attrs.frozen
class Moved:
    """``seat`` moved ``marker`` ``steps`` cards towards ``direction``, from ``start``
    over the columns ``passed`` (which do not score) to ``landed``, whose card is ``card``.
    """

    seat: Seat
    marker: int
    direction: Direction
    steps: int
    start: int
    passed: tuple[int, ...]
    landed: int
    card: Card


@attrs.frozen
class Collapsed:
    """The last marker left ``column``: its bottom ``card`` went to the discard pile."""

    column: int
    card: Card


@attrs.frozen
class Reshuffled:
    """The pack ran out: the discard pile's ``cards`` cards were shuffled into a new pack."""

    cards: int


@attrs.frozen
class Drew:
    """A B drew for ``seat`` until it drew ``card``, which it charged; ``discarded`` is what
    it put on the discard pile since any reshuffle, sorted by kind.
    """

    seat: Seat
    card: Card
    discarded: tuple[Card, ...]


@attrs.frozen
class AccountChanged:
    """``seat``'s account went from ``before`` to ``after``: ``card`` scored, or for
    ``reason`` ``"buy"`` (``card`` ``None``) a marker was paid.
    """

    seat: Seat
    card: Card | None
    before: int
    after: int
    reason: Literal["card", "buy"] = "card"


@attrs.frozen
class EndHit:
    """End scored for ``seat``: the game stops now, or when the round is complete."""

    seat: Seat
    immediate: bool


@attrs.frozen
class TurnPassed:
    """The turn passed to ``seat`` (play begins with seat 0 after setup)."""

    seat: Seat


@attrs.frozen
class GameOver:
    """The game is over: End scored, or ``max_rounds`` were played."""

    reason: Literal["end", "max_rounds"]
    winners: frozenset[Seat]


Event: TypeAlias = (
    Placed
    | Bought
    | Rolled
    | Moved
    | Collapsed
    | Reshuffled
    | Drew
    | AccountChanged
    | EndHit
    | TurnPassed
    | GameOver
)
"""Any event of the account game."""

EVENT_TYPES: tuple[type, ...] = get_args(Event)
"""The classes of :data:`Event`."""
