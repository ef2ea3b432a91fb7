"""The batched generator draws what :class:`tabletop_rules.rng.Rng` draws, game for game."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules.batch import rng as batch_rng
from tabletop_rules.rng import Rng

seeds = st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=64)


def _array(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.uint64)


@given(seeds, st.integers(1, batch_rng.MAX_BOUND))
def test_below_draws_what_rng_below_draws(values: list[int], bound: int) -> None:
    drawn, states = batch_rng.below(_array(values), bound)
    for seed, value, state in zip(values, drawn.tolist(), states.tolist(), strict=True):
        expected, after = Rng(seed).below(bound)
        assert (value, state) == (expected, after.state)


def _unshift(value: int, shift: int) -> int:
    """The inverse of ``x ^ (x >> shift)`` on 64 bits."""
    x = value
    for _ in range(64 // shift + 1):
        x = value ^ (x >> shift)
    return x


def _seed_drawing(z: int) -> int:
    """The seed whose first 64-bit draw is ``z``: SplitMix64's finalizer is a bijection."""
    mask = 2**64 - 1
    x = _unshift(z, 31) * pow(0x94D049BB133111EB, -1, 2**64) & mask
    x = _unshift(x, 27) * pow(0xBF58476D1CE4E5B9, -1, 2**64) & mask
    return (_unshift(x, 30) - 0x9E3779B97F4A7C15) & mask


@pytest.mark.parametrize("bound", [3, 6, 52, 3 * 2**30, 2**32 - 1, 2**31 + 1])
def test_below_redraws_a_rejected_draw_as_rng_below_does(bound: int) -> None:
    # a first draw z with z * bound mod 2**64 below 2**64 mod bound falls in the biased zone:
    # 0 does for every bound that is no power of two
    values = [_seed_drawing(z) for z in range(4)] + [_seed_drawing(2**64 - 1), 12345]
    drawn, states = batch_rng.below(_array(values), bound)
    draws = [
        Rng(state).draws_since(seed) for seed, state in zip(values, states.tolist(), strict=True)
    ]
    assert draws[0] == 2  # the first draw, 0, was rejected
    assert [Rng(seed).below(bound)[0] for seed in values] == drawn.tolist()
    assert [Rng(seed).below(bound)[1].state for seed in values] == states.tolist()


@given(seeds, st.integers(0, 8), st.integers(1, 20))
def test_dice_throw_what_rng_dice_throws(values: list[int], count: int, sides: int) -> None:
    faces, states = batch_rng.dice(_array(values), count, sides)
    for seed, row, state in zip(values, faces.tolist(), states.tolist(), strict=True):
        expected, after = Rng(seed).dice(count, sides)
        assert (tuple(row), state) == (expected, after.state)


@given(seeds, st.integers(1, 60))
def test_shuffled_orders_as_rng_shuffled_does(values: list[int], length: int) -> None:
    items = np.tile(np.arange(length), (len(values), 1))
    rows, states = batch_rng.shuffled(_array(values), items)
    for seed, row, state in zip(values, rows.tolist(), states.tolist(), strict=True):
        expected, after = Rng(seed).shuffled(range(length))
        assert (tuple(row), state) == (expected, after.state)


@given(seeds, st.data())
def test_an_inactive_game_keeps_its_state_and_draws_nothing(
    values: list[int], data: st.DataObject
) -> None:
    active = np.array(
        data.draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    )
    states = _array(values)
    drawn, after = batch_rng.below(states, 6, active)
    faces, after_dice = batch_rng.dice(states, 3, 6, active)
    rows, after_shuffle = batch_rng.shuffled(
        states, np.tile(np.arange(5), (len(values), 1)), active
    )
    for name, result in (("below", after), ("dice", after_dice), ("shuffled", after_shuffle)):
        assert (result[~active] == states[~active]).all(), name
    assert (drawn[~active] == 0).all()
    assert (faces[~active] == 0).all()
    assert (rows[~active] == np.arange(5)).all()


@pytest.mark.parametrize("length", [3, 27, 52, 208])
def test_a_shuffle_with_a_rejected_draw_orders_as_rng_shuffled_does(length: int) -> None:
    # the first draw of each of these seeds is rejected: the shuffle falls back draw by draw
    values = [_seed_drawing(0), 12345, _seed_drawing(0) ^ 1]
    rows, states = batch_rng.shuffled(_array(values), np.tile(np.arange(length), (3, 1)))
    for seed, row, state in zip(values, rows.tolist(), states.tolist(), strict=True):
        expected, after = Rng(seed).shuffled(range(length))
        assert (tuple(row), state) == (expected, after.state)
    assert Rng(states.tolist()[0]).draws_since(values[0]) == length  # one draw more
