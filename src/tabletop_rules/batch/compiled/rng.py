"""The library's generator inside compiled code: draws what :class:`~tabletop_rules.rng.Rng`
draws. Every value is a ``uint64``: numba turns mixed signed and unsigned arithmetic into floats.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import jit

__all__ = ["below", "shuffle"]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_ZERO = np.uint64(0)


@jit
def _mix(state: Any) -> Any:
    z = (state ^ (state >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def below(state: Any, bound: Any) -> tuple[Any, Any]:
    """A uniform ``uint64`` in ``range(bound)`` (``bound`` below ``2 ** 32``), and the
    state after: :meth:`~tabletop_rules.rng.Rng.below`, draw for draw.
    """
    n = np.uint64(bound)
    state = state + _GAMMA
    z = _mix(state)
    low = z * n
    if low < n:  # only then can the draw fall in the biased zone
        threshold = (_ZERO - n) % n
        while low < threshold:
            state = state + _GAMMA
            z = _mix(state)
            low = z * n
    high = ((z >> _S32) * n + (((z & _LOW32) * n) >> _S32)) >> _S32
    return high, state


@jit
def shuffle(state: Any, items: Any) -> Any:
    """Shuffle the 1-d array ``items`` in place as :meth:`~tabletop_rules.rng.Rng.shuffled`
    orders it (Fisher-Yates from the end); the state after.
    """
    for i in range(items.shape[0] - 1, 0, -1):
        j, state = below(state, i + 1)
        picked = items[j]
        items[j] = items[i]
        items[i] = picked
    return state
