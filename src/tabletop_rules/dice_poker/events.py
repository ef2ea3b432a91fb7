"""What happens in a transition, as typed events for front ends to animate; dice poker hides
nothing, so every event is public.
"""

from __future__ import annotations

from typing import TypeAlias, get_args

import attrs

from ..protocol import Seat
from .moves import Box, Face

__all__ = [
    "EVENT_TYPES",
    "Announced",
    "Event",
    "FencesChanged",
    "GameOver",
    "MountainScored",
    "Rolled",
    "Scratched",
    "Wrote",
]


@attrs.frozen
class Rolled:
    """``seat``'s throw number ``throw`` landed: ``thrown`` joined ``kept`` to make ``dice``."""

    seat: Seat
    throw: int
    kept: tuple[Face, ...]
    thrown: tuple[Face, ...]
    dice: tuple[Face, ...]


@attrs.frozen
class Announced:
    """``seat`` named ``box`` as the box this turn ends in."""

    seat: Seat
    box: Box


@attrs.frozen
class Wrote:
    """``seat`` wrote ``points`` in ``box`` of ``stage``."""

    seat: Seat
    stage: int
    box: Box
    points: int


@attrs.frozen
class Scratched:
    """``seat`` scratched ``box`` of ``stage``: it scores 0."""

    seat: Seat
    stage: int
    box: Box


@attrs.frozen
class MountainScored:
    """``seat`` completed the mountain of ``stage``: its sum won ``bonus`` (premium or penalty)."""

    seat: Seat
    stage: int
    mountain_sum: int
    bonus: int


@attrs.frozen
class FencesChanged:
    """A turn ended: ``seat``'s bank changed by ``change`` to ``fences``, ``lost`` over the cap."""

    seat: Seat
    change: int
    fences: int
    lost: int = 0


@attrs.frozen
class GameOver:
    """Every box is filled: final ``scores`` and the ``winners``."""

    scores: tuple[int, ...]
    winners: frozenset[Seat]


Event: TypeAlias = (
    Rolled | Announced | Wrote | Scratched | MountainScored | FencesChanged | GameOver
)
"""Any dice poker event."""

EVENT_TYPES: tuple[type[Event], ...] = get_args(Event)
"""The classes of dice poker events, in the order of :data:`Event`."""
