"""The compiled account kernel plays the games the rules engine plays, games restarted
every step as they end, under every house rule, and leaves the records given untouched.
"""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tabletop_rules import account, batch
from tabletop_rules.account.batch import AccountEngine
from tabletop_rules.account.moves import CHANCE_OFFSET
from tabletop_rules.testing.batch import check_lockstep

from .test_account import OTHER_VALUES, ROLL, _same, _seeds, _snapshot, configs


def _play_checked(config: account.Config, size: int, first: int, steps: int) -> int:
    """Random legal play from the seeds, games restarted every step as they end: the rules'
    games (the lock-step kit), and the input record of each step left as it was; the steps
    played.
    """
    engine = AccountEngine(config, size)
    seeds = _seeds(size, first)
    check_lockstep(engine, seeds, action_seed=first, max_steps=steps, reset_over=True)
    games = engine.reset(seeds)
    generator = np.random.default_rng(first)
    for step in range(1, steps + 1):
        actions = batch.random_actions(games, generator)
        fresh = generator.integers(0, 2**64, size=size, dtype=np.uint64)
        before = _snapshot(games)
        games, previous = engine.step(games, actions, reset=fresh), games
        assert _same(before, previous, slice(None)), f"step {step} wrote into its input"
    return steps


def test_a_b_with_no_number_p_or_t_left_anywhere_charges_nothing_as_the_rules() -> None:
    config = account.Config(
        rows=2, columns=3, deck={"B": 6, "Z": 2, "End": 1}, collapse=True, marker_cost=0
    )
    check_lockstep(AccountEngine(config, 8), _seeds(8, 3), reset_over=True, max_steps=80)
    _play_checked(config, 8, 3, 80)


@settings(max_examples=15, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_every_house_rule_plays_as_the_rules(config: account.Config, first: int) -> None:
    check_lockstep(AccountEngine(config, 8), _seeds(8, first), action_seed=first)


def test_without_auto_chance_a_roll_waits_for_its_die_as_the_rules() -> None:
    config = account.Config(players=3, auto_chance=False, max_rounds=4, marker_cost=10)
    check_lockstep(AccountEngine(config, 12), _seeds(12, 50))
    engine = AccountEngine(account.Config(players=1, auto_chance=False), 1)
    games = engine.step(engine.step(engine.reset(_seeds(1)), np.array([0])), np.array([ROLL]))
    assert games.current_player.tolist() == [account.CHANCE]
    assert np.flatnonzero(games.legal_mask[0]).tolist() == list(
        range(CHANCE_OFFSET, CHANCE_OFFSET + 6)
    )
    games = engine.step(games, np.array([CHANCE_OFFSET + 3]))  # the die shows 4
    assert engine.state(games, 0).roll == 4


def test_reset_restarts_finished_games_from_the_seeds_given() -> None:
    config = account.Config(max_rounds=2, marker_cost=10)
    engine = AccountEngine(config, 16)
    report = check_lockstep(engine, _seeds(16, 7), reset_over=True, max_steps=120)
    assert report.states == 16 * 121


@pytest.mark.parametrize("field", sorted(OTHER_VALUES))
def test_every_house_rule_is_taken_restarting_every_step(field: str) -> None:
    config = attrs.evolve(account.Config(), **{field: OTHER_VALUES[field]})
    _play_checked(config, 8, 0, 60)


def test_the_default_game_restarting_every_step_plays_as_the_rules() -> None:
    _play_checked(account.Config(), 32, 0, 300)


@settings(max_examples=20, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_every_house_rule_restarting_every_step_plays_as_the_rules(
    config: account.Config, first: int
) -> None:
    _play_checked(config, 16, first, 80)


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_random_house_rules_over_many_games_restarting_play_as_the_rules(
    config: account.Config, first: int
) -> None:
    _play_checked(config, 128, first, 300)
