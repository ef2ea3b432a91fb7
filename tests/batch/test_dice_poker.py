"""Dice poker's batched kernel plays the rules' games, state for state: every house rule,
chance thrown inside or given as moves, finished games restarted, bad actions refused.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import batch
from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.config import BoxScores
from tabletop_rules.dice_poker.moves import MOUNTAIN, POKER_BOXES
from tabletop_rules.errors import ConfigError, IllegalMoveError
from tabletop_rules.testing.batch import check_lockstep

pytest.importorskip("numba")

from tabletop_rules.dice_poker.batch import DicePokerEngine

from ..dice_poker.strategies import configs


def _seeds(first: int, count: int) -> np.ndarray:
    return (np.arange(count, dtype=np.uint64) + np.uint64(first)) % np.uint64(2**64 - 1)


def test_the_registry_finds_the_kernel_by_ruleset_name() -> None:
    assert type(batch.engine("dice-poker", dp.Config(), size=1)) is DicePokerEngine
    assert type(batch.engine("dice-poker", dp.Config(), size=1, backend="numba")) is DicePokerEngine


def test_default_games_play_to_the_end_as_the_rules_play_them() -> None:
    report = check_lockstep(batch.engine("dice-poker", dp.Config(), size=32), _seeds(0, 32))
    assert report.games == 32
    assert report.states == 32 * (report.steps + 1)


@pytest.mark.parametrize("order", ["down", "up", "announce"])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_each_stage_order_both_ways_of_throwing(order: str, auto_chance: bool) -> None:
    config = dp.Config(players=2, stages=1, stage_orders=(order,), auto_chance=auto_chance)
    check_lockstep(batch.engine("dice-poker", config, size=8), _seeds(100, 8))


@settings(max_examples=20, deadline=None)
@given(configs(max_players=3, max_stages=2), st.integers(0, 2**64 - 1))
def test_any_config_plays_as_the_rules_play_it(config: dp.Config, seed: int) -> None:
    check_lockstep(
        batch.engine("dice-poker", config, size=6),
        _seeds(seed, 6),
        action_seed=seed,
    )


def test_the_largest_table_keeps_in_step() -> None:
    config = dp.Config(players=8, stages=10, throws_per_turn=10, premium=1000, penalty=1000)
    check_lockstep(batch.engine("dice-poker", config, size=3), _seeds(7, 3), max_steps=150)


def test_a_bank_of_more_than_127_throws_is_spent_in_one_turn() -> None:
    # stage 0 scratched and written on one throw each banks 9 * 10 + 6 * 9 = 144 fences;
    # stage 1's first turn then throws 141 times
    config = dp.Config(players=1, stages=2, throws_per_turn=10)
    engine = batch.engine("dice-poker", config, size=1)
    state = dp.new_game(config, seed=5)
    games = engine.reset(np.array([5], dtype=np.uint64))
    script: list[dp.Move] = [dp.Scratch(box) for box in POKER_BOXES]
    script += [move for box in MOUNTAIN for move in (dp.Roll(), dp.Write(box))]
    script += [dp.Roll()] * 141
    for move in script:
        games = engine.step(games, np.array([dp.encode(move)]))
        state = dp.apply(state, dp.decode(state, dp.encode(move)))
    assert state.throws_used == 141
    assert engine.state(games, 0) == state
    assert games.legal_mask[0].tolist() == list(dp.legal_mask(state))


def test_finished_games_restart_from_the_seeds_given() -> None:
    config = dp.Config(players=1, stages=1)  # 15 turns: several games per slot
    engine = batch.engine("dice-poker", config, size=6)
    report = check_lockstep(engine, _seeds(50, 6), reset_over=True, max_steps=160)
    assert report.steps == 160


def test_a_game_over_ignores_its_action_and_stays_over() -> None:
    config = dp.Config(players=1, stages=1)
    engine = batch.engine("dice-poker", config, size=2)
    games = engine.reset(_seeds(3, 2))
    generator = np.random.default_rng(3)
    while not games.over[0]:
        games = engine.step(games, batch.random_actions(games, generator))
    over = engine.state(games, 0)
    for _ in range(5):
        games = engine.step(games, np.where(games.over, 0, batch.random_actions(games, generator)))
    assert engine.state(games, 0) == over
    assert games.current_player[0] == batch.NOBODY
    assert not games.legal_mask[0].any()


def test_an_illegal_action_names_its_game_and_changes_nothing() -> None:
    engine = batch.engine("dice-poker", dp.Config(), size=3)
    games = engine.reset(_seeds(9, 3))
    before = [engine.state(games, i) for i in range(3)]
    write_poker = dp.encode(dp.Write(dp.Box.POKER))  # no dice are thrown yet
    with pytest.raises(IllegalMoveError, match=r"game 1: action 223 \('write poker'\)"):
        engine.step(games, np.array([0, write_poker, 0]))
    assert [engine.state(games, i) for i in range(3)] == before
    after = engine.step(games, np.array([0, 0, 0]))
    assert all(engine.state(after, i).throws_used == 1 for i in range(3))


def test_a_chance_point_allows_only_the_outcomes_of_the_dice_in_the_air() -> None:
    engine = batch.engine("dice-poker", dp.Config(auto_chance=False), size=1)
    games = engine.step(engine.reset(_seeds(1, 1)), np.array([0]))
    assert games.current_player.tolist() == [dp.CHANCE]
    legal = np.flatnonzero(games.legal_mask[0])
    assert len(legal) == 252
    assert legal.min() >= dp.chance_offset(dp.Config())
    with pytest.raises(IllegalMoveError, match="game 0"):
        engine.step(games, np.array([0]))


def test_no_house_rule_is_refused_but_another_games_config_is() -> None:
    every_field = dp.Config(
        players=3,
        throws_per_turn=4,
        stages=2,
        stage_orders=("announce", "up"),
        max_fences=5,
        max_fences_per_turn=2,
        premium=7,
        penalty=9,
        box_scores=BoxScores(1, 2, 3),
        auto_chance=False,
    )
    check_lockstep(DicePokerEngine(every_field, size=2), _seeds(4, 2), max_steps=40)
    with pytest.raises(ConfigError, match="takes a Config"):
        DicePokerEngine(object(), size=1)


@pytest.mark.slow
def test_hundreds_of_default_games_play_as_the_rules_play_them() -> None:
    engine = batch.engine("dice-poker", dp.Config(), size=192)
    check_lockstep(engine, _seeds(2**40, 192), action_seed=1)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(configs(), st.integers(0, 2**64 - 1))
def test_many_configs_many_games(config: dp.Config, seed: int) -> None:
    check_lockstep(batch.engine("dice-poker", config, size=32), _seeds(seed, 32))
