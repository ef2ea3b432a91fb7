"""Fences (ограды): unused throws banked per player, spent on extra throws, house-rule caps."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp

from .helpers import (
    MOUNTAIN,
    POKER,
    assert_illegal,
    manual,
    position,
    reference_throws_allowed,
    rolls,
    scratch_at_once,
    sheet,
    start,
    throw,
    throw_times,
    write,
)
from .strategies import configs


def banked(config: dp.Config, *banks: int) -> dp.State:
    """Seat 0 to throw, the seats holding ``banks`` fences: each seat has scratched
    enough poker boxes before throwing (+throws_per_turn each) to have earned them."""
    turns = -(-max(banks) // config.throws_per_turn)
    earned = sheet(config, dict.fromkeys(POKER[:turns], 0))
    return position(config, [earned] * config.players, fences=banks)


def test_write_after_throw_one_banks_two_fences() -> None:
    after = dp.apply(throw_times(start(), 1), dp.Write(dp.Box.CHANCE))
    assert after.fences == (2, 0)


def test_write_after_throw_two_banks_one_fence() -> None:
    after = dp.apply(throw_times(start(), 2), dp.Write(dp.Box.CHANCE))
    assert after.fences == (1, 0)


def test_write_after_throw_three_banks_nothing() -> None:
    after = dp.apply(throw_times(start(), 3), dp.Write(dp.Box.CHANCE))
    assert after.fences == (0, 0)


def test_scratch_before_throwing_banks_three_fences() -> None:
    assert scratch_at_once(start(), dp.Box.POKER).fences == (3, 0)


def test_scratch_after_throw_one_banks_two_fences() -> None:
    assert dp.apply(throw_times(start(), 1), dp.Scratch(dp.Box.POKER)).fences == (2, 0)


def test_a_turn_that_spent_two_fences_on_throws_four_and_five_costs_two() -> None:
    state = throw_times(banked(manual(), 3, 0), 5)
    assert state.throws_used == 5
    assert dp.apply(state, dp.Write(dp.Box.CHANCE)).fences == (1, 0)


def test_the_bank_changes_only_when_the_turn_ends() -> None:
    state = banked(manual(), 3, 1)
    seen = [state.fences]
    state = throw(state, (1, 2, 3, 4, 6))
    seen.append(state.fences)
    for _ in range(4):
        state = dp.apply(state, dp.Roll((2, 3, 4, 6)))
        seen.append(state.fences)
        state = dp.apply(state, dp.Dice((1,)))
        seen.append(state.fences)
    assert seen == [(3, 1)] * len(seen)
    assert dp.apply(state, dp.Write(dp.Box.ONES)).fences == (1, 1)


def test_a_turn_allows_throws_per_turn_plus_the_bank() -> None:
    # with 4 fences and 3 throws a turn, up to 7
    state = banked(manual(), 4, 0)
    assert state.throws_allowed == 7
    assert rolls(throw_times(state, 6))
    seventh = throw_times(state, 7)
    assert not rolls(seventh)
    assert_illegal(seventh, dp.Roll((2, 3, 4, 6)), "no throws left")
    assert dp.apply(seventh, dp.Write(dp.Box.CHANCE)).fences == (0, 0)


@pytest.mark.parametrize("bank", [0, 1, 2, 5])
def test_a_turn_allows_throws_per_turn_plus_the_bank_with_other_throw_counts(bank: int) -> None:
    state = banked(manual(throws_per_turn=2), bank, 0)
    last = throw_times(state, 2 + bank)
    assert not rolls(last)
    assert dp.apply(last, dp.Write(dp.Box.CHANCE)).fences == (0, 0)


def test_fences_off_bank_nothing() -> None:
    state = scratch_at_once(start(fences=False), dp.Box.POKER)
    state = scratch_at_once(state, dp.Box.POKER)
    assert state.fences == (0, 0)


def test_fences_off_spend_nothing() -> None:
    config = manual(players=1, fences=False)
    state = start(config)
    for box in POKER[:5]:
        state = scratch_at_once(state, box)  # five turns without a throw
    assert state.fences == (0,)
    assert state.throws_allowed == 3
    assert not rolls(throw_times(state, 3))


def test_max_fences_caps_the_bank() -> None:
    state = scratch_at_once(start(max_fences=2), dp.Box.POKER)
    assert state.fences == (2, 0)


def test_excess_over_max_fences_is_lost_when_the_turn_ends() -> None:
    config = manual(max_fences=4)
    state = banked(config, 4, 0)
    full = write(state, dp.Box.CHANCE)  # +2 over a full bank: both lost
    assert full.fences == (4, 0)
    # later, a turn that spends two fences leaves two: the lost ones do not come back
    state = scratch_at_once(full, dp.Box.CHANCE)  # seat 1
    state = dp.apply(throw_times(state, 5), dp.Write(dp.Box.ONES))
    assert state.fences == (2, 3)


def test_a_full_bank_may_still_be_spent() -> None:
    state = banked(manual(max_fences=3), 3, 0)
    assert state.throws_allowed == 6
    assert rolls(throw_times(state, 5))


@pytest.mark.parametrize(("bank", "cap", "allowed"), [(4, 1, 4), (4, 0, 3), (2, 5, 5), (0, 2, 3)])
def test_max_fences_per_turn_caps_the_fences_one_turn_may_spend(
    bank: int, cap: int, allowed: int
) -> None:
    state = banked(manual(max_fences_per_turn=cap), bank, 0)
    last = throw_times(state, allowed)
    assert not rolls(last)
    assert_illegal(last, dp.Roll((2, 3, 4, 6)), f"this turn allows {allowed}")
    assert dp.apply(last, dp.Write(dp.Box.CHANCE)).fences == (bank + 3 - allowed, 0)


def test_fences_left_at_the_end_score_nothing() -> None:
    state = start(players=1, stages=1)
    for box in POKER:
        state = scratch_at_once(state, box)
    for face, box in enumerate(MOUNTAIN, start=1):
        other = 1 if face != 1 else 2
        state = write(state, box, (face, face, face, other, other))  # 0 points each
    assert dp.is_over(state)
    assert state.fences == (9 * 3 + 6 * 2,)
    assert dp.score(state) == (0,)


def test_the_bank_is_per_player() -> None:
    state = scratch_at_once(start(players=3), dp.Box.POKER)  # seat 0: +3
    state = write(state, dp.Box.CHANCE)  # seat 1: +2
    assert state.fences == (3, 2, 0)
    state = dp.apply(throw_times(state, 3), dp.Write(dp.Box.ONES))  # seat 2: +0
    assert state.fences == (3, 2, 0)
    # seat 0 may throw 6 times, seat 1 (after seat 0's turn) 5 times
    assert state.throws_allowed == 6
    state = scratch_at_once(state, dp.Box.PAIR)
    assert state.throws_allowed == 5


def test_the_bank_is_kept_across_stages() -> None:
    state = start(players=1, stages=2)
    for box in POKER:
        state = scratch_at_once(state, box)
    for box in MOUNTAIN:
        state = write(state, box)
    assert state.stage == 1
    assert state.fences == (39,)
    assert state.throws_allowed == 3 + 39
    assert rolls(throw_times(state, 10))


@settings(max_examples=20, deadline=None)
@given(config=configs(max_players=3, max_stages=2), rng=st.randoms(use_true_random=False))
def test_over_whole_games_only_a_turns_end_changes_the_bank_by_its_unused_throws(
    config: dp.Config, rng: random.Random
) -> None:
    state = dp.new_game(config, seed=rng.randrange(2**32))
    while not dp.is_over(state):
        seat = state.turns_played % config.players
        assert state.throws_allowed == reference_throws_allowed(config, state.fences[seat])
        after = dp.apply(state, rng.choice(dp.legal_moves(state)))
        expected = list(state.fences)
        if after.turns_played != state.turns_played and config.fences:
            bank = state.fences[seat] + config.throws_per_turn - state.throws_used
            cap = config.max_fences
            expected[seat] = bank if cap is None else min(bank, cap)
        assert after.fences == tuple(expected)
        state = after
