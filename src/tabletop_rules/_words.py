"""The words every game's sentences share: seats named as the table names them (``P1``),
the seat the sentence is for as "you", counts and lists.

>>> who(1, 0), who(0, 0), who(0, 0, start=False), whose(1, None), whose(0, 0)
('P1', 'You', 'you', "P1's", 'Your')
>>> seats((0, 2), 2), counted(1, "card"), counted(3, "card")
('P0 and you', '1 card', '3 cards')
"""

from __future__ import annotations

from collections.abc import Iterable

from .protocol import Seat

__all__ = ["counted", "game_over", "ordinal", "seats", "verb", "who", "whose"]


def who(seat: Seat, viewer: Seat | None, *, start: bool = True) -> str:
    """``seat`` as the reader knows it: "You" for their own seat, else ``P1`` (from 0)."""
    if seat == viewer:
        return "You" if start else "you"
    return f"P{seat}"


def whose(seat: Seat, viewer: Seat | None, *, start: bool = True) -> str:
    """The possessive of :func:`who`: "Your", or ``P1's``."""
    return who(seat, viewer, start=start) + ("r" if seat == viewer else "'s")


def verb(seat: Seat, viewer: Seat | None, you: str, other: str) -> str:
    """The verb's form for :func:`who`: ``you`` for the reader ("are"), ``other`` else ("is")."""
    return you if seat == viewer else other


def seats(group: Iterable[Seat], viewer: Seat | None) -> str:
    """Seats in order joined with "and": ``P0 and you``; "nobody" for none."""
    names = [who(seat, viewer, start=False) for seat in sorted(group)]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def counted(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(place: int) -> str:
    """A 0-based place in words: 0 is "first"; from the ninth on, ``9th``."""
    if place < len(_ORDINALS):
        return _ORDINALS[place]
    number = place + 1
    teens = 10 <= number % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def game_over(winners: Iterable[Seat], viewer: Seat | None, scores: Iterable[int] = ()) -> str:
    """``Game over: P0 won (P0 212, you 180)``: the winners, and each seat's score if given."""
    text = f"Game over: {seats(winners, viewer)} won"
    shown = [f"{who(seat, viewer, start=False)} {points}" for seat, points in enumerate(scores)]
    return f"{text} ({', '.join(shown)})" if shown else text
