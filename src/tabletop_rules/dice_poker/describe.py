"""Dice poker's events in words, one sentence each, as a seat reads them in a log: "You"
for the reader's own seat, ``P1`` for another; dice by their values, boxes by their names,
stages counted from 1 as the score sheet counts them. Every event is public, so every
seat reads the same facts.

>>> from tabletop_rules.dice_poker import Rolled, describe
>>> describe(Rolled(2, 2, (3, 3), (2, 5, 6), (2, 3, 3, 5, 6)), 0)
'P2 kept 3 3 and threw 2 5 6: 2 3 3 5 6 (throw 2)'
"""

from __future__ import annotations

from collections.abc import Sequence

from .._words import counted, game_over, who, whose
from ..protocol import Seat
from .events import (
    Announced,
    Event,
    FencesChanged,
    GameOver,
    MountainScored,
    Rolled,
    Scratched,
    Wrote,
)
from .moves import Box, Face

__all__: list[str] = []  # the sentences reach users as the package's describe


def box_name(box: Box) -> str:
    """A box as the rules page names it in prose: ``full house``, ``threes``."""
    return _NAMES.get(box) or box.name.lower().replace("_", " ")


_NAMES = {Box.THREE_KIND: "three of a kind", Box.FOUR_KIND: "four of a kind"}


def _dice(values: Sequence[Face]) -> str:
    return " ".join(map(str, values))


def sentence(event: Event, seat: Seat | None) -> str:
    """``event`` in one sentence for ``seat`` (``None``: a spectator)."""
    if isinstance(event, Rolled):
        return _rolled(event, seat)
    if isinstance(event, Announced):
        return f"{who(event.seat, seat)} announced {box_name(event.box)}"
    if isinstance(event, Wrote):
        box, stage = box_name(event.box), event.stage + 1
        return f"{who(event.seat, seat)} wrote {event.points} in {box} (stage {stage})"
    if isinstance(event, Scratched):
        return f"{who(event.seat, seat)} scratched {box_name(event.box)} (stage {event.stage + 1})"
    if isinstance(event, MountainScored):
        return _mountain(event, seat)
    if isinstance(event, FencesChanged):
        return _fences(event, seat)
    assert isinstance(event, GameOver)
    return game_over(event.winners, seat, event.scores)


def _rolled(event: Rolled, seat: Seat | None) -> str:
    thrown = f"{_dice(event.thrown)} (throw {event.throw})"
    if event.throw == 1:
        return f"{who(event.seat, seat)} threw {thrown}"
    if not event.kept:
        return f"{who(event.seat, seat)} kept nothing and threw {thrown}"
    dice = f"{_dice(event.thrown)}: {_dice(event.dice)} (throw {event.throw})"
    return f"{who(event.seat, seat)} kept {_dice(event.kept)} and threw {dice}"


def _mountain(event: MountainScored, seat: Seat | None) -> str:
    stage, total = event.stage + 1, event.mountain_sum
    sums = f"{whose(event.seat, seat)} mountain of stage {stage} sums to {total}"
    if event.bonus > 0:
        return f"{sums}: premium +{event.bonus}"
    if event.bonus < 0:
        return f"{sums}: penalty {event.bonus}"
    return f"{sums}: no premium, no penalty"


def _fences(event: FencesChanged, seat: Seat | None) -> str:
    change, now = event.change, event.fences
    if change > 0:
        text = f"{who(event.seat, seat)} banked {counted(change, 'fence')}, {now} now"
    elif change < 0:
        text = f"{who(event.seat, seat)} spent {counted(-change, 'fence')}, {now} left"
    else:
        text = f"{whose(event.seat, seat)} fences stay at {now}"
    if event.lost:
        text += f" ({event.lost} lost over the cap)"
    return text
