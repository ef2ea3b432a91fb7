"""The account game's events in words, one sentence each, as a seat reads them in a log:
"You" for the reader's own seat, ``P1`` for another; cards in the rules page's text
(``+10``, ``-25``, ``B``, ``End``); columns and markers counted from 0 as the field is
drawn (``m0``). Every event is public, so every seat reads the same facts.

>>> from tabletop_rules.account import AccountChanged, Card, describe
>>> describe(AccountChanged(0, Card.parse("-15"), 101, 86), 1)
"P0's account: 101 -> 86 (-15)"
"""

from __future__ import annotations

from .._words import game_over, who, whose
from ..protocol import Seat
from .events import (
    AccountChanged,
    Bought,
    Collapsed,
    Drew,
    EndHit,
    Event,
    GameOver,
    Moved,
    Placed,
    Reshuffled,
    Rolled,
    TurnPassed,
)

__all__: list[str] = []  # the sentences reach users as the package's describe


def sentence(event: Event, seat: Seat | None) -> str:
    """``event`` in one sentence for ``seat`` (``None``: a spectator)."""
    if isinstance(event, Moved):
        return (
            f"{whose(event.seat, seat)} marker m{event.marker} moved {event.steps} "
            f"{event.direction} to {event.card} (column {event.landed})"
        )
    if isinstance(event, AccountChanged):
        why = "bought a marker" if event.reason == "buy" else str(event.card)
        return f"{whose(event.seat, seat)} account: {event.before} -> {event.after} ({why})"
    if isinstance(event, Rolled):
        return f"{who(event.seat, seat)} rolled a {event.value}"
    if isinstance(event, TurnPassed):
        return "Your turn" if event.seat == seat else f"P{event.seat}'s turn"
    if isinstance(event, Placed):
        return (
            f"{who(event.seat, seat)} placed marker m{event.marker} on column {event.column} "
            f"({event.card})"
        )
    if isinstance(event, Bought):
        return (
            f"{who(event.seat, seat)} bought marker m{event.marker} for {event.cost} and "
            f"placed it on column {event.column} ({event.card})"
        )
    if isinstance(event, Drew):
        return _drew(event, seat)
    if isinstance(event, Collapsed):
        return f"Column {event.column} collapsed: its {event.card} went to the discard pile"
    if isinstance(event, Reshuffled):
        return f"The discard pile was shuffled into a new pack of {event.cards} cards"
    if isinstance(event, EndHit):
        stops = "the game stops" if event.immediate else "the game stops once the round is over"
        return f"End scored for {who(event.seat, seat, start=False)}: {stops}"
    assert isinstance(event, GameOver)
    text = game_over(event.winners, seat)  # an End that stopped it was told as it scored
    if event.reason == "max_rounds":
        return text.replace("Game over:", "Game over after the last round:", 1)
    return text


def _drew(event: Drew, seat: Seat | None) -> str:
    text = f"The B drew {event.card} for {who(event.seat, seat, start=False)}"
    passed = list(event.discarded)
    if event.card in passed:  # the charged card is discarded too
        passed.remove(event.card)
    return f"{text}, after {' '.join(map(str, passed))}" if passed else text
