"""The compiled generator draws what :class:`tabletop_rules.rng.Rng` draws, draw for draw."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules.rng import Rng

pytest.importorskip("numba")

from tabletop_rules.batch import rng as batch_rng
from tabletop_rules.batch.compiled import rng as compiled_rng

from .test_rng import _seed_drawing


@settings(deadline=None)  # the first example compiles
@given(st.integers(0, 2**64 - 1), st.integers(1, batch_rng.MAX_BOUND))
def test_below_draws_what_rng_below_draws(seed: int, bound: int) -> None:
    value, state = compiled_rng.below(np.uint64(seed), np.uint64(bound))
    expected, after = Rng(seed).below(bound)
    assert (int(value), int(state)) == (expected, after.state)


@pytest.mark.parametrize("bound", [3, 6, 52, 3 * 2**30, 2**32 - 1, 2**31 + 1])
def test_below_redraws_a_rejected_draw_as_rng_below_does(bound: int) -> None:
    seed = _seed_drawing(0)  # its first draw, 0, falls in the biased zone of every bound
    value, state = compiled_rng.below(np.uint64(seed), np.uint64(bound))
    expected, after = Rng(seed).below(bound)
    assert (int(value), int(state)) == (expected, after.state)
    assert after.draws_since(seed) == 2


@settings(deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 60))
def test_shuffle_orders_as_rng_shuffled_does(seed: int, length: int) -> None:
    items = np.arange(length, dtype=np.int16)
    state = compiled_rng.shuffle(np.uint64(seed), items)
    expected, after = Rng(seed).shuffled(range(length))
    assert (tuple(items.tolist()), int(state)) == (expected, after.state)
