"""Dice poker's compiled kernel plays the rules' games, state for state, its legal actions
as lists (ascending, then -1): every house rule, both ways of throwing, restarts every
step, bad actions refused.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tabletop_rules import batch
from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.batch import DicePokerEngine
from tabletop_rules.dice_poker.moves import MOUNTAIN
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.testing.batch import check_lockstep

from ..dice_poker.strategies import configs
from .test_dice_poker import _seeds


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


def _play_checked(config: dp.Config, size: int, seed: int, steps: int) -> None:
    """Random legal play from random seeds, the finished games restarted every step: the
    rules' games (the lock-step kit), the lists of legal actions well formed after every
    step, and the records given untouched.
    """
    engine = DicePokerEngine(config, size)
    generator = np.random.default_rng(seed)
    seeds = generator.integers(0, 2**64, size=size, dtype=np.uint64)
    check_lockstep(engine, seeds, action_seed=seed, max_steps=steps, reset_over=True)
    games = engine.reset(seeds)
    for step in range(steps):
        _assert_lists_of(games, games.legal_mask, f"step {step}")
        actions = batch.random_actions(games, generator)
        fresh = generator.integers(0, 2**64, size=size, dtype=np.uint64)
        before = {name: value.copy() for name, value in games.data.items()}
        after = engine.step(games, actions, reset=fresh if step % 2 else None)
        for name, value in before.items():
            assert np.array_equal(games.data[name], value), f"step {step} wrote into {name}"
        games = after


@pytest.mark.parametrize("order", ["free", "down", "up", "announce"])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_each_stage_order_both_ways_of_throwing(order: str, auto_chance: bool) -> None:
    config = dp.Config(players=2, stages=1, stage_orders=(order,), auto_chance=auto_chance)
    check_lockstep(DicePokerEngine(config, size=4), _seeds(100, 4))


def test_finished_games_restart_from_the_seeds_given() -> None:
    config = dp.Config(players=1, stages=1)  # 15 turns: several games per slot
    engine = DicePokerEngine(config, size=4)
    report = check_lockstep(engine, _seeds(50, 4), reset_over=True, max_steps=120)
    assert report.steps == 120


def test_an_illegal_action_names_its_game_and_changes_nothing() -> None:
    engine = DicePokerEngine(dp.Config(), size=3)
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
def test_any_config_restarting_every_step_plays_as_the_rules_play_it(
    config: dp.Config, seed: int
) -> None:
    _play_checked(config, size=8, seed=seed, steps=150)


@pytest.mark.parametrize("order", ["free", "announce"])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_the_lists_hold_the_masks_actions_ascending_then_minus_one(
    order: str, auto_chance: bool
) -> None:
    config = dp.Config(players=2, stages=1, stage_orders=(order,), auto_chance=auto_chance)
    engine = DicePokerEngine(config, size=32)
    width = engine.list_width  # the bound: 31 keeps + 8 writes + 9 scratches, or 252 outcomes
    assert width == (48 if auto_chance else 252)
    _play_checked(config, size=32, seed=11, steps=120)


def test_a_bank_of_more_than_127_throws_plays_as_the_rules_play_it() -> None:
    _play_checked(dp.Config(players=1, stages=3, throws_per_turn=10), size=16, seed=3, steps=400)


def test_a_mountain_above_below_and_at_zero_earns_premium_penalty_and_nothing() -> None:
    # the chance moves choose the dice (random play almost never climbs above zero): each
    # box's face five times, none, three times, and three times but four and two ones
    config = dp.Config(players=1, stages=1, auto_chance=False, premium=7, penalty=9)
    engine = DicePokerEngine(config, size=5)
    got = engine.reset(_seeds(1, 5))
    states = [dp.new_game(config, seed=int(seed)) for seed in _seeds(1, 5)]
    for box in MOUNTAIN:
        face, other = box.face, box.face % 6 + 1
        counts = [5, 0, 3, 4 if face == 1 else 3, 2 if face == 1 else 3]
        thrown = [tuple(sorted((face,) * count + (other,) * (5 - count))) for count in counts]
        rolls: list[dp.Move] = [dp.Roll()] * 5
        outcomes: list[dp.Move] = [dp.Dice(dice) for dice in thrown]
        writes: list[dp.Move] = [dp.Write(box)] * 5
        for moves in (rolls, outcomes, writes):
            actions = np.array([dp.encode(move) for move in moves])
            got = engine.step(got, actions)
            states = [dp.apply(state, move) for state, move in zip(states, moves, strict=True)]
            _assert_lists_of(got, got.legal_mask, box.name)
            assert [engine.state(got, i) for i in range(5)] == states
    assert got.scores[:, 0].tolist() == [2 * 21 + 7, -3 * 21 - 9, 0, 1 + 7, -1 - 9]


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(configs(), st.integers(0, 2**64 - 1))
def test_many_configs_many_games_restarting_play_as_the_rules_play_them(
    config: dp.Config, seed: int
) -> None:
    _play_checked(config, size=256, seed=seed, steps=300)
