"""What happens in a palace transition, as typed events for front ends to animate.

:func:`~tabletop_rules.palace.apply_with_events` returns them in the order they happen.
They hold every card that moved, so a front end can show a seat what it may see; hiding
what others may not (a drawn card, a face-down card's place) is the later views' work.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import attrs

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
    """``seat`` laid ``cards`` on the pile from ``source`` (``slot``: the face-down slot
    of a blind card, else ``None``).
    """

    seat: Seat
    cards: tuple[Card, ...]
    source: Source
    slot: Slot | None = None


@attrs.frozen
class TurnedBlind:
    """``seat`` turned ``card`` from face-down ``slot`` and could not play it: it goes into
    the hand with the pile (a :class:`TookPile` follows).
    """

    seat: Seat
    slot: Slot
    card: Card


@attrs.frozen
class Burned:
    """The pile, ``cards`` bottom first, left the game (a 10, or four of a kind)."""

    cards: tuple[Card, ...]


@attrs.frozen
class Drew:
    """``seat`` drew ``cards`` from the stock (top first) to refill its hand."""

    seat: Seat
    cards: tuple[Card, ...]


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
    """``seat`` holds no cards any more: it finished in ``place`` (0 first), with
    ``score`` players still holding cards.
    """

    seat: Seat
    place: int
    score: int


@attrs.frozen
class TurnPassed:
    """The turn passed to ``seat``; ``turns`` passings so far (the turn limit counts them).
    ``must_take``: a 3 is on top, so ``seat`` must take the pile.
    """

    seat: Seat
    turns: int
    must_take: bool = False


@attrs.frozen
class GameOver:
    """The game is over (``reason``): final ``scores`` and the ``winners`` (empty when
    the turn limit ends a game nobody finished).
    """

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

EVENT_TYPES: tuple[type[Event], ...] = (
    Swapped,
    Readied,
    Started,
    Played,
    TurnedBlind,
    Burned,
    Drew,
    TookFaceUp,
    TookPile,
    EndedTurn,
    Finished,
    TurnPassed,
    GameOver,
)
"""The classes of palace events."""
