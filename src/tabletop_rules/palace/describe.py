"""Palace's events in words, one sentence each, as a seat reads them in a log: "You" for
the reader's own seat, ``P1`` for another; cards in the rules page's text (``7H``, ``10S``,
``QD``), ranks by their names (``J``, not 11). The shell hands each event as
:func:`~tabletop_rules.palace.redact` leaves it for the reader, so another seat's draw is
told by its count only.

>>> from tabletop_rules.palace import Card, Drew, describe
>>> drew = Drew(1, (Card.parse("7H"), Card.parse("QS")))
>>> describe(drew, 1), describe(drew, 0)
('You drew 7H QS', 'P1 drew 2 cards')
"""

from __future__ import annotations

from collections.abc import Sequence

from .._words import counted, game_over, ordinal, verb, who
from ..protocol import Seat
from .cards import RANK_TEXT, Card, Rank
from .events import (
    Burned,
    Drew,
    EndedTurn,
    Event,
    Finished,
    GameOver,
    Played,
    Readied,
    Started,
    Swapped,
    TookFaceUp,
    TookPile,
    TurnedBlind,
    TurnPassed,
)

__all__: list[str] = []  # the sentences reach users as the package's describe

_FACES = {11: "jacks", 12: "queens", 13: "kings", 14: "aces"}
_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as the rules page writes them, in the order given: ``7H 7S``."""
    return " ".join(map(str, cards))


def ranks_text(rank: Rank, count: int) -> str:
    """``Four 7s``, ``Five aces``: a run of one rank by its name."""
    number = _COUNTS[count] if count < len(_COUNTS) else str(count)
    return f"{number.capitalize()} {_FACES.get(rank, RANK_TEXT[rank] + 's')}"


def sentence(event: Event, seat: Seat | None) -> str:
    """``event`` in one sentence for ``seat`` (``None``: a spectator)."""
    if isinstance(event, Played):
        return _played(event, seat)
    if isinstance(event, Drew):
        return _drew(event, seat)
    if isinstance(event, TurnPassed):
        return _turn(event, seat)
    if isinstance(event, Burned):
        return _burned(event)
    if isinstance(event, Swapped):
        return (
            f"{who(event.seat, seat)} put {event.hand_card} face up and took "
            f"{event.face_up_card} in hand"
        )
    if isinstance(event, Readied):
        return f"{who(event.seat, seat)} {verb(event.seat, seat, 'are', 'is')} ready"
    if isinstance(event, Started):
        return f"{who(event.seat, seat)} {verb(event.seat, seat, 'play', 'plays')} first"
    if isinstance(event, TurnedBlind):
        return (
            f"{who(event.seat, seat)} turned {event.card} from face-down slot {event.slot} "
            f"and cannot play it"
        )
    if isinstance(event, TookFaceUp):
        cards = cards_text(sorted(event.cards))
        return f"{who(event.seat, seat)} took the face-up cards {cards} in hand"
    if isinstance(event, TookPile):
        return f"{who(event.seat, seat)} took the pile ({counted(len(event.cards), 'card')})"
    if isinstance(event, EndedTurn):
        return f"{who(event.seat, seat)} ended the turn after four of a kind"
    if isinstance(event, Finished):
        return f"{who(event.seat, seat)} went out {ordinal(event.place)}"
    assert isinstance(event, GameOver)
    text = game_over(event.winners, seat, event.scores)
    if event.reason == "max_turns":
        return text.replace("Game over:", "Game over at the turn limit:", 1)
    return text


def _played(event: Played, seat: Seat | None) -> str:
    played = f"{who(event.seat, seat)} played {cards_text(event.cards)}"
    if event.source == "face_up":
        return f"{played} from the face-up row"
    if event.source == "face_down":
        return f"{played} blind, from face-down slot {event.slot}"
    return played


def _drew(event: Drew, seat: Seat | None) -> str:
    if event.cards is None:
        return f"{who(event.seat, seat)} drew {counted(event.count, 'card')}"
    return f"{who(event.seat, seat)} drew {cards_text(event.cards)}"


def _burned(event: Burned) -> str:
    cards = event.cards
    pile = counted(len(cards), "card")
    top = cards[-1].rank
    if top == 10:
        return f"The 10 burned the pile ({pile})"
    run = 0
    for card in reversed(cards):
        if card.rank != top:
            break
        run += 1
    return f"{ranks_text(top, run)} burned the pile ({pile})"


def _turn(event: TurnPassed, seat: Seat | None) -> str:
    number = f"Turn {event.turns + 1}"
    if event.must_take:
        return f"{number}: {who(event.seat, seat, start=False)} must take the pile (a 3 is on top)"
    if event.seat == seat:
        return f"{number}: your move"
    return f"{number}: P{event.seat} to play"
