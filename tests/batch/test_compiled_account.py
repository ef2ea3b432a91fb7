"""The compiled account kernel plays the games the rules engine plays, and its ``Games``
are the NumPy kernel's, array for array, step for step, under every house rule.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tabletop_rules import account, batch
from tabletop_rules.batch.account import AccountEngine
from tabletop_rules.batch.compiled.account import CompiledAccountEngine
from tabletop_rules.testing.batch import check_lockstep

from .test_account import B_HEAVY, OTHER_VALUES, ROLL, _same, _seeds, _snapshot, configs


def _arrays(games: batch.Games) -> dict[str, np.ndarray[Any, Any]]:
    arrays = dict(games.data)
    arrays.update(
        current_player=games.current_player,
        legal_mask=games.legal_mask,
        scores=games.scores,
        over=games.over,
    )
    return arrays


def _assert_identical(compiled: batch.Games, numpy: batch.Games, step: int) -> None:
    ours, theirs = _arrays(compiled), _arrays(numpy)
    assert ours.keys() == theirs.keys()
    for name, expected in theirs.items():
        got = ours[name]
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape), f"{name}, step {step}"
        assert np.array_equal(got, expected), f"{name} differs at step {step}"


def _play_both(config: account.Config, size: int, first: int, steps: int) -> int:
    """Both kernels from the same seeds and actions, games restarted as they end; the
    steps played. The input Games of each step is left as it was.
    """
    compiled, numpy = CompiledAccountEngine(config, size), AccountEngine(config, size)
    seeds = _seeds(size, first)
    ours, theirs = compiled.reset(seeds), numpy.reset(seeds)
    _assert_identical(ours, theirs, 0)
    generator = np.random.default_rng(first)
    for step in range(1, steps + 1):
        actions = batch.random_actions(theirs, generator)
        fresh = generator.integers(0, 2**64, size=size, dtype=np.uint64)
        before = _snapshot(ours)
        ours, previous = compiled.step(ours, actions, reset=fresh), ours
        theirs = numpy.step(theirs, actions, reset=fresh)
        assert _same(before, previous, slice(None)), f"step {step} wrote into its input"
        _assert_identical(ours, theirs, step)
    return steps


def test_the_default_game_plays_as_the_rules_to_the_end() -> None:
    report = check_lockstep(CompiledAccountEngine(account.Config(), 16), _seeds(16))
    assert report.states == 16 * (report.steps + 1)
    assert report.steps > 100


def test_collapse_with_b_heavy_decks_reshuffles_as_the_rules() -> None:
    check_lockstep(CompiledAccountEngine(B_HEAVY, 12), _seeds(12, 1000))


def test_a_b_with_no_number_p_or_t_left_anywhere_charges_nothing_as_the_rules() -> None:
    config = account.Config(
        rows=2, columns=3, deck={"B": 6, "Z": 2, "End": 1}, collapse=True, marker_cost=0
    )
    check_lockstep(CompiledAccountEngine(config, 8), _seeds(8, 3), reset_over=True, max_steps=80)
    _play_both(config, 8, 3, 80)


@settings(max_examples=15, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_every_house_rule_plays_as_the_rules(config: account.Config, first: int) -> None:
    check_lockstep(CompiledAccountEngine(config, 8), _seeds(8, first), action_seed=first)


def test_without_auto_chance_a_roll_waits_for_its_die_as_the_rules() -> None:
    config = account.Config(players=3, auto_chance=False, max_rounds=4, marker_cost=10)
    check_lockstep(CompiledAccountEngine(config, 12), _seeds(12, 50))
    engine = CompiledAccountEngine(account.Config(players=1, auto_chance=False), 1)
    games = engine.step(engine.step(engine.reset(_seeds(1)), np.array([0])), np.array([ROLL]))
    assert games.current_player.tolist() == [account.CHANCE]
    assert np.flatnonzero(games.legal_mask[0]).tolist() == list(
        range(account.CHANCE_OFFSET, account.CHANCE_OFFSET + 6)
    )
    games = engine.step(games, np.array([account.CHANCE_OFFSET + 3]))  # the die shows 4
    assert engine.state(games, 0).roll == 4


def test_reset_restarts_finished_games_from_the_seeds_given() -> None:
    config = account.Config(max_rounds=2, marker_cost=10)
    engine = CompiledAccountEngine(config, 16)
    report = check_lockstep(engine, _seeds(16, 7), reset_over=True, max_steps=120)
    assert report.states == 16 * 121


@pytest.mark.parametrize("field", sorted(OTHER_VALUES))
def test_every_house_rule_is_taken_as_the_numpy_kernel_takes_it(field: str) -> None:
    config = attrs.evolve(account.Config(), **{field: OTHER_VALUES[field]})
    _play_both(config, 8, 0, 60)


def test_the_default_game_gives_the_numpy_kernels_arrays_step_for_step() -> None:
    _play_both(account.Config(), 64, 0, 300)


@settings(max_examples=20, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_every_house_rule_gives_the_numpy_kernels_arrays_step_for_step(
    config: account.Config, first: int
) -> None:
    _play_both(config, 16, first, 80)


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_random_house_rules_over_many_games_give_the_numpy_kernels_arrays(
    config: account.Config, first: int
) -> None:
    _play_both(config, 512, first, 400)


@pytest.mark.slow
def test_over_a_hundred_default_games_play_as_the_rules() -> None:
    # fewer than the NumPy kernel's: the arrays above tie the two kernels
    report = check_lockstep(CompiledAccountEngine(account.Config(), 128), _seeds(128, 5))
    assert report.games == 128
