"""The library's generator over arrays: one SplitMix64 state per game, drawn as
:class:`~tabletop_rules.rng.Rng` draws, so that a batch deals and rolls what the rules do.

Each function takes the ``(size,)`` ``uint64`` states and an ``active`` mask of the games
that draw; the others keep their state. The bound of :func:`below` is below ``2 ** 32``
(dice, decks), which keeps Lemire's 128-bit product in two 64-bit halves.

>>> import numpy as np
>>> from tabletop_rules.rng import Rng
>>> faces, states = dice(np.array([7, 8], dtype=np.uint64), 5)
>>> faces[0].tolist() == list(Rng.from_seed(7).dice(5)[0])
True
>>> int(states[1]) == Rng.from_seed(8).dice(5)[1].state
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["MAX_BOUND", "below", "dice", "shuffled"]

U64 = NDArray[np.uint64]

MAX_BOUND = (1 << 32) - 1
"""The largest bound :func:`below` takes."""

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


def _mix(state: U64) -> U64:
    z = (state ^ (state >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


def _scaled(z: U64, n: U64) -> tuple[U64, U64]:
    """The high and low 64 bits of ``z * n`` for ``n < 2 ** 32``."""
    above = (z >> np.uint64(32)) * n
    below_ = (z & _LOW32) * n
    return (above + (below_ >> np.uint64(32))) >> np.uint64(32), z * n


def below(states: U64, bound: Any, active: NDArray[np.bool_] | None = None) -> tuple[U64, U64]:
    """For each active game a uniform integer in ``range(bound)`` (a number or one per
    game), as :meth:`~tabletop_rules.rng.Rng.below` draws it, and the states after.
    """
    n = np.broadcast_to(np.asarray(bound, dtype=np.uint64), states.shape)
    drawing = np.ones(states.shape, dtype=bool) if active is None else active
    states = np.where(drawing, states + _GAMMA, states)
    high, low = _scaled(_mix(states), n)
    redraw = drawing & (low < n)
    if redraw.any():  # only then can a draw fall in the biased zone
        threshold = (np.uint64(0) - n) % n  # 2**64 mod n
        redraw &= low < threshold
        while redraw.any():
            states = np.where(redraw, states + _GAMMA, states)
            again_high, again_low = _scaled(_mix(states), n)
            high = np.where(redraw, again_high, high)
            low = np.where(redraw, again_low, low)
            redraw &= low < threshold
    return np.where(drawing, high, np.uint64(0)), states


def dice(
    states: U64, count: int, sides: int = 6, active: NDArray[np.bool_] | None = None
) -> tuple[NDArray[np.int64], U64]:
    """``count`` dice per active game, faces ``1..sides`` in throw order (``(size,
    count)``; 0 for an inactive game), and the states after.
    """
    faces = np.zeros((states.shape[0], count), dtype=np.int64)
    for die in range(count):
        face, states = below(states, sides, active)
        faces[:, die] = face.astype(np.int64) + 1
    if active is not None:
        faces[~active] = 0
    return faces, states


def shuffled(
    states: U64, items: NDArray[Any], active: NDArray[np.bool_] | None = None
) -> tuple[NDArray[Any], U64]:
    """Each active game's row of ``items`` (``(size, k)``) as
    :meth:`~tabletop_rules.rng.Rng.shuffled` orders it, and the states after.
    """
    if active is None and items.shape[1] > 1:
        return _shuffled_at_once(states, items)
    result = items.copy()
    rows = np.arange(items.shape[0])
    for i in range(items.shape[1] - 1, 0, -1):
        j, states = below(states, i + 1, active)
        j = np.where(active, j, i) if active is not None else j
        picked = result[rows, j.astype(np.intp)]
        result[rows, j.astype(np.intp)] = result[:, i]
        result[:, i] = picked
    return result, states


_DRAWS_AT_ONCE = 1 << 15


def _shuffled_at_once(states: U64, items: NDArray[Any]) -> tuple[NDArray[Any], U64]:
    """:func:`shuffled` of every row, each game's draws at once (SplitMix64 is a counter);
    a game with a rejected draw (one in ``2 ** 57``) is shuffled draw by draw instead.
    """
    size, length = items.shape
    cards = np.ascontiguousarray(items).copy()
    bounds = np.arange(length, 1, -1, dtype=np.uint64)  # below(i + 1), i from the end
    picks = np.empty((length - 1, size), dtype=np.intp)  # a draw's picks contiguous
    rejected = np.zeros(size, dtype=bool)
    block = max(1, _DRAWS_AT_ONCE // max(size, 1))  # draws a block: its arrays stay in cache
    for first in range(0, length - 1, block):
        n = bounds[first : first + block]
        count = np.arange(first + 1, first + 1 + n.size, dtype=np.uint64)
        high, low = _scaled(_mix(states + (count * _GAMMA)[:, None]), n[:, None])
        picks[first : first + n.size] = high
        rejected |= (low < ((np.uint64(0) - n) % n)[:, None]).any(axis=0)
    flat = cards.reshape(-1)  # the swaps by flat index: one take and two puts a draw
    starts = np.arange(size) * length
    picks += starts
    for draw, i in enumerate(range(length - 1, 0, -1)):
        j, at = picks[draw], starts + i
        picked = flat.take(j)
        flat.put(j, flat.take(at))
        flat.put(at, picked)
    after = states + np.uint64((length - 1) * int(_GAMMA) % 2**64)
    if rejected.any():
        again = np.flatnonzero(rejected)
        cards[again], after[again] = shuffled(
            states[again], items[again], np.ones(again.size, dtype=bool)
        )
    return cards, after
