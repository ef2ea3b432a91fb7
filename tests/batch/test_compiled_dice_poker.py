"""Dice poker's compiled kernel plays the rules' games, state for state, and gives the NumPy
kernel's arrays, array for array (its legal actions as lists, ascending, the NumPy kernel's
mask's): every house rule, both ways of throwing, restarts, bad actions refused.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tabletop_rules import batch
from tabletop_rules import dice_poker as dp
from tabletop_rules.batch.compiled.dice_poker import CompiledDicePokerEngine
from tabletop_rules.batch.dice_poker import DicePokerEngine
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.testing.batch import check_lockstep

from ..dice_poker.strategies import configs
from .test_dice_poker import _seeds


def _assert_same_games(got: batch.Games, expected: batch.Games, where: str) -> None:
    """Every field and every ``data`` array equal, with the same dtype and shape (the mask
    the one made from ``got``'s lists), and ``got``'s lists those of ``expected``'s mask.
    """
    _assert_lists_of(got, expected.legal_mask, where)
    pairs = [(field, getattr(got, field), getattr(expected, field)) for field in _FIELDS]
    assert list(got.data) == list(expected.data), f"{where}: data keys differ"
    pairs += [(f"data[{name!r}]", got.data[name], value) for name, value in expected.data.items()]
    for name, mine, theirs in pairs:
        assert (mine.dtype, mine.shape) == (theirs.dtype, theirs.shape), f"{where}: {name}"
        assert np.array_equal(mine, theirs), f"{where}: {name} differs"


_FIELDS = ("current_player", "legal_mask", "scores", "over")


def _assert_lists_of(got: batch.Games, mask: np.ndarray, where: str) -> None:
    """``got`` gives each game's legal actions as a list, no mask: the actions ``mask``
    holds, ascending, then -1 to the kernel's width.
    """
    listed = got.legal_actions
    assert listed is not None, f"{where}: no legal_actions"
    assert got.num_actions == mask.shape[1], f"{where}: num_actions"
    assert (listed.dtype, listed.shape[0]) == (np.dtype(np.int16), got.size), where
    counts = (listed >= 0).sum(axis=1)
    at_head = np.arange(listed.shape[1]) < counts[:, None]
    assert np.array_equal(listed >= 0, at_head), f"{where}: an action after the padding"
    assert (listed[~at_head] == -1).all(), f"{where}: padding not -1"
    assert ((np.diff(listed, axis=1) > 0) | ~at_head[:, 1:]).all(), f"{where}: not ascending"
    assert np.array_equal(counts, mask.sum(axis=1)), f"{where}: not the mask's count"
    games, places = np.nonzero(at_head)
    assert mask[games, listed[games, places]].all(), f"{where}: an action the mask has not"


def _play_both(config: dp.Config, size: int, seed: int, steps: int) -> None:
    """Random legal play of both kernels from the same seeds, restarting finished games from
    the same fresh seeds; the same games after every step, and the games given untouched.
    """
    numpy_kernel, compiled = DicePokerEngine(config, size), CompiledDicePokerEngine(config, size)
    generator = np.random.default_rng(seed)
    seeds = generator.integers(0, 2**64, size=size, dtype=np.uint64)
    expected, got = numpy_kernel.reset(seeds), compiled.reset(seeds)
    _assert_same_games(got, expected, "after reset")
    for step in range(steps):
        actions = batch.random_actions(expected, generator)
        fresh = generator.integers(0, 2**64, size=size, dtype=np.uint64)
        reset = fresh if step % 2 else None  # every other step restarts the finished games
        before = {name: value.copy() for name, value in got.data.items()}
        expected = numpy_kernel.step(expected, actions, reset=reset)
        after = compiled.step(got, actions, reset=reset)
        for name, value in before.items():
            assert np.array_equal(got.data[name], value), f"step {step} wrote into {name}"
        got = after
        _assert_same_games(got, expected, f"step {step}")


def test_default_games_play_to_the_end_as_the_rules_play_them() -> None:
    report = check_lockstep(CompiledDicePokerEngine(dp.Config(), size=16), _seeds(0, 16))
    assert report.games == 16
    assert report.states == 16 * (report.steps + 1)


@pytest.mark.parametrize("order", ["free", "down", "up", "announce"])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_each_stage_order_both_ways_of_throwing(order: str, auto_chance: bool) -> None:
    config = dp.Config(players=2, stages=1, stage_orders=(order,), auto_chance=auto_chance)
    check_lockstep(CompiledDicePokerEngine(config, size=4), _seeds(100, 4))


@settings(max_examples=10, deadline=None)
@given(configs(max_players=3, max_stages=2), st.integers(0, 2**64 - 1))
def test_any_config_plays_as_the_rules_play_it(config: dp.Config, seed: int) -> None:
    engine = CompiledDicePokerEngine(config, size=4)
    check_lockstep(engine, _seeds(seed, 4), action_seed=seed)


def test_the_largest_table_keeps_in_step() -> None:
    config = dp.Config(players=8, stages=10, throws_per_turn=10, premium=1000, penalty=1000)
    check_lockstep(CompiledDicePokerEngine(config, size=2), _seeds(7, 2), max_steps=100)


def test_finished_games_restart_from_the_seeds_given() -> None:
    config = dp.Config(players=1, stages=1)  # 15 turns: several games per slot
    engine = CompiledDicePokerEngine(config, size=4)
    report = check_lockstep(engine, _seeds(50, 4), reset_over=True, max_steps=120)
    assert report.steps == 120


def test_an_illegal_action_names_its_game_and_changes_nothing() -> None:
    engine = CompiledDicePokerEngine(dp.Config(), size=3)
    games = engine.reset(_seeds(9, 3))
    before = [engine.state(games, i) for i in range(3)]
    write_poker = dp.encode(dp.Write(dp.Box.POKER))  # no dice are thrown yet
    with pytest.raises(IllegalMoveError, match=r"game 1: action 223 \('write poker'\)"):
        engine.step(games, np.array([0, write_poker, 0]))
    assert [engine.state(games, i) for i in range(3)] == before
    after = engine.step(games, np.array([0, 0, 0]))
    assert all(engine.state(after, i).throws_used == 1 for i in range(3))


@settings(max_examples=15, deadline=None)
@given(configs(max_players=3, max_stages=2), st.integers(0, 2**64 - 1))
def test_the_compiled_kernel_gives_the_numpy_kernels_arrays_step_for_step(
    config: dp.Config, seed: int
) -> None:
    _play_both(config, size=8, seed=seed, steps=150)


@pytest.mark.parametrize("order", ["free", "announce"])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_the_lists_hold_the_masks_actions_ascending_then_minus_one(
    order: str, auto_chance: bool
) -> None:
    config = dp.Config(players=2, stages=1, stage_orders=(order,), auto_chance=auto_chance)
    engine = CompiledDicePokerEngine(config, size=32)
    width = engine.list_width  # the bound: 31 keeps + 8 writes + 9 scratches, or 252 outcomes
    assert width == (48 if auto_chance else 252)
    _play_both(config, size=32, seed=11, steps=120)


def test_a_record_without_lists_restarts_into_lists() -> None:
    config = dp.Config(players=1, stages=1)
    numpy_kernel, compiled = DicePokerEngine(config, 6), CompiledDicePokerEngine(config, 6)
    games = numpy_kernel.step(numpy_kernel.reset(_seeds(5, 6)), np.zeros(6, dtype=np.int64))
    where = np.array([True, False] * 3)
    expected = numpy_kernel.restart(games, _seeds(70, 6), where)
    _assert_same_games(compiled.restart(games, _seeds(70, 6), where), expected, "restart")


def test_a_bank_of_more_than_127_throws_gives_the_numpy_kernels_arrays() -> None:
    _play_both(dp.Config(players=1, stages=3, throws_per_turn=10), size=16, seed=3, steps=400)


def test_a_mountain_above_below_and_at_zero_earns_premium_penalty_and_nothing() -> None:
    # the chance moves choose the dice (random play almost never climbs above zero): each
    # box's face five times, none, three times, and three times but four and two ones
    config = dp.Config(players=1, stages=1, auto_chance=False, premium=7, penalty=9)
    engines = DicePokerEngine(config, size=5), CompiledDicePokerEngine(config, size=5)
    expected, got = (engine.reset(_seeds(1, 5)) for engine in engines)
    states = [dp.new_game(config, seed=int(seed)) for seed in _seeds(1, 5)]
    for box in dp.MOUNTAIN:
        face, other = box.face, box.face % 6 + 1
        counts = [5, 0, 3, 4 if face == 1 else 3, 2 if face == 1 else 3]
        thrown = [tuple(sorted((face,) * count + (other,) * (5 - count))) for count in counts]
        rolls: list[dp.Move] = [dp.Roll()] * 5
        outcomes: list[dp.Move] = [dp.Dice(dice) for dice in thrown]
        writes: list[dp.Move] = [dp.Write(box)] * 5
        for moves in (rolls, outcomes, writes):
            actions = np.array([dp.encode(move) for move in moves])
            expected, got = engines[0].step(expected, actions), engines[1].step(got, actions)
            states = [dp.apply(state, move) for state, move in zip(states, moves, strict=True)]
            _assert_same_games(got, expected, box.name)
            assert [engines[1].state(got, i) for i in range(5)] == states
    assert got.scores[:, 0].tolist() == [2 * 21 + 7, -3 * 21 - 9, 0, 1 + 7, -1 - 9]


@pytest.mark.slow
def test_over_a_hundred_default_games_play_as_the_rules_play_them() -> None:
    check_lockstep(CompiledDicePokerEngine(dp.Config(), size=128), _seeds(2**40, 128))


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(configs(), st.integers(0, 2**64 - 1))
def test_many_configs_many_games_give_the_numpy_kernels_arrays(
    config: dp.Config, seed: int
) -> None:
    _play_both(config, size=256, seed=seed, steps=300)
