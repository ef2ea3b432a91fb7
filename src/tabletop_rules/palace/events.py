"""What happens in a palace transition, in order, as events for front ends to animate. Only
a drawn card is private (:func:`~tabletop_rules.palace.redact`).
"""

from __future__ import annotations

from typing import Literal, TypeAlias, get_args

import attrs

from .._messages import short_repr
from ..protocol import Seat
from .cards import Card
from .moves import Slot

__all__ = [
    "EVENT_TYPES",
    "Burned",
    "Drew",
    "EndedTurn",
    "Event",
    "Finished",
    "GameOver",
    "Played",
    "Readied",
    "Source",
    "Started",
    "Swapped",
    "TookFaceUp",
    "TookPile",
    "TurnPassed",
    "TurnedBlind",
]

Source: TypeAlias = Literal["hand", "face_up", "face_down"]
"""Where played cards came from."""


@attrs.frozen
class Swapped:
    """``seat`` put ``hand_card`` face up and took ``face_up_card`` into the hand."""

    seat: Seat
    hand_card: Card
    face_up_card: Card


@attrs.frozen
class Readied:
    """``seat`` declared itself ready: its swaps are over."""

    seat: Seat


@attrs.frozen
class Started:
    """Every seat is ready: ``seat`` plays first."""

    seat: Seat


@attrs.frozen
class Played:
    """``seat`` laid ``cards`` from ``source`` (``slot``: a blind card's, else ``None``)."""

    seat: Seat
    cards: tuple[Card, ...]
    source: Source
    slot: Slot | None = None


@attrs.frozen
class TurnedBlind:
    """``seat`` turned ``card`` from ``slot`` and cannot play it (:class:`TookPile` follows)."""

    seat: Seat
    slot: Slot
    card: Card


@attrs.frozen
class Burned:
    """The pile, ``cards`` bottom first, left the game (a 10, or four of a kind)."""

    cards: tuple[Card, ...]


def _check_count(drew: Drew, _attribute: object, count: int) -> None:
    if drew.cards is not None and count != len(drew.cards):
        raise ValueError(f"Drew of {len(drew.cards)} cards cannot say it drew {count}")


@attrs.frozen
class Drew:
    """``seat`` drew ``count`` cards: ``cards``, or ``None`` as another seat sees it."""

    seat: Seat
    cards: tuple[Card, ...] | None
    count: int = attrs.field(
        default=attrs.Factory(lambda drew: len(drew.cards or ()), takes_self=True),
        validator=_check_count,
    )


@attrs.frozen
class TookFaceUp:
    """``seat``'s hand and the stock are empty: it took its face-up ``cards`` into the hand."""

    seat: Seat
    cards: tuple[Card, ...]


@attrs.frozen
class TookPile:
    """``seat`` took the pile, ``cards`` bottom first, into its hand."""

    seat: Seat
    cards: tuple[Card, ...]


@attrs.frozen
class EndedTurn:
    """``seat`` ended its turn after four of a kind rather than lay another set."""

    seat: Seat


@attrs.frozen
class Finished:
    """``seat`` finished in ``place`` (0 first), with ``score`` players still holding cards."""

    seat: Seat
    place: int
    score: int


@attrs.frozen
class TurnPassed:
    """The turn passed to ``seat``, the ``turns``-th passing; ``must_take``: a 3 is on top."""

    seat: Seat
    turns: int
    must_take: bool = False


@attrs.frozen
class GameOver:
    """The game is over (``reason``), with the final ``scores`` and ``winners``."""

    reason: Literal["finished", "max_turns"]
    scores: tuple[int, ...]
    winners: frozenset[Seat]


Event: TypeAlias = (
    Swapped
    | Readied
    | Started
    | Played
    | TurnedBlind
    | Burned
    | Drew
    | TookFaceUp
    | TookPile
    | EndedTurn
    | Finished
    | TurnPassed
    | GameOver
)
"""Any palace event."""

EVENT_TYPES: tuple[type[Event], ...] = get_args(Event)
"""The classes of palace events."""


def redact(event: Event, seat: Seat | None) -> Event:
    """``event`` as ``seat`` (``None``: a spectator) may see it: another seat's
    :class:`Drew` without its cards; every other event unchanged.

    >>> drew = Drew(1, (Card.parse("7H"), Card.parse("QS")))
    >>> redact(drew, 1) == drew
    True
    >>> redact(drew, 0)
    Drew(seat=1, cards=None, count=2)
    """
    check_event(event, seat)
    if type(event) is Drew and event.seat != seat and event.cards is not None:
        return Drew(event.seat, None, len(event.cards))
    return event


def check_event(event: object, seat: object) -> None:
    """``TypeError`` unless ``event`` is a palace event and ``seat`` ``None`` or a seat."""
    if not any(type(event) is kind for kind in EVENT_TYPES):
        raise TypeError(f"expected a palace event, got {short_repr(event)}")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise TypeError(f"a seat is a whole number from 0 or None, got {short_repr(seat)}")
