"""A turn: the throws it allows, what each throw re-rolls, and when a box must be filled."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp

from .helpers import (
    POKER,
    assert_illegal,
    minus,
    reference_legal_moves,
    rolls,
    scratches,
    start,
    throw,
    throw_times,
    writes,
)
from .strategies import configs


def test_a_turn_allows_three_throws() -> None:
    state = throw_times(start(), 2)
    assert rolls(state)
    state = throw_times(start(), 3)
    assert state.throws_used == 3
    assert not rolls(state)
    assert_illegal(state, dp.Roll((2, 3, 4, 6)), "no throws left")


@pytest.mark.parametrize("throws", [1, 2, 4, 6])
def test_throws_per_turn_sets_the_throws_a_turn_allows(throws: int) -> None:
    state = start(throws_per_turn=throws)
    state = throw_times(state, throws)
    assert not rolls(state)
    assert_illegal(state, dp.Roll((2, 3, 4, 6)), f"this turn allows {throws}")
    if throws > 1:
        assert rolls(throw_times(start(throws_per_turn=throws), throws - 1))


def test_the_first_throw_rolls_all_five_dice() -> None:
    state = start()
    assert rolls(state) == {dp.Roll()}
    in_air = dp.apply(state, dp.Roll())
    assert dp.legal_moves(in_air) == tuple(
        dp.Dice(values) for values in combinations_with_replacement(range(1, 7), 5)
    )


@pytest.mark.parametrize("keep", [(6,), (1, 1), (1, 2, 3, 4)])
def test_a_roll_keeping_dice_at_turn_start_is_illegal(keep: tuple[int, ...]) -> None:
    assert_illegal(start(), dp.Roll(keep), "the first throw of a turn rolls all five dice")


def test_a_later_throw_may_re_roll_any_subset_of_the_dice() -> None:
    dice = (1, 1, 2, 2, 3)
    by_hand = {tuple(sorted(kept)) for size in range(5) for kept in combinations(dice, size)}
    # 3 ways for the ones, 3 for the twos, 2 for the three, less keeping all five
    assert len(by_hand) == 3 * 3 * 2 - 1
    assert rolls(throw(start(), dice)) == {dp.Roll(kept) for kept in by_hand}


def test_a_later_throw_may_re_roll_every_die() -> None:
    state = throw(start(), (2, 3, 4, 5, 6))
    assert dp.Roll() in rolls(state)
    in_air = dp.apply(state, dp.Roll())
    assert in_air.pending_keep == ()
    assert len(dp.legal_moves(in_air)) == 252


def test_a_die_kept_before_may_be_re_rolled() -> None:
    state = throw(start(), (1, 2, 3, 4, 6))
    state = throw(state, (2, 3, 6, 6, 6), keep=(6,))  # the six kept, four dice re-rolled
    # now keep the two and the three, re-rolling the six kept by the previous throw
    in_air = dp.apply(state, dp.Roll((2, 3)))
    assert in_air.pending_keep == (2, 3)
    assert dp.apply(in_air, dp.Dice((1, 1, 1))).dice == (1, 1, 1, 2, 3)


@pytest.mark.parametrize("throws", [1, 2, 3])
def test_after_any_throw_the_player_may_write_a_box(throws: int) -> None:
    state = throw_times(start(), throws)
    assert writes(state) >= {dp.Box.ONES, dp.Box.CHANCE}
    after = dp.apply(state, dp.Write(dp.Box.CHANCE))
    assert after.cell(0, 0, dp.Box.CHANCE) == 1 + 2 + 3 + 4 + 6


def test_after_the_last_allowed_throw_the_player_must_write_or_scratch() -> None:
    state = throw_times(start(), 3)
    moves = dp.legal_moves(state)
    assert moves
    assert all(isinstance(move, dp.Write | dp.Scratch) for move in moves)


def test_before_the_first_throw_the_player_may_scratch_a_poker_box_at_once() -> None:
    state = start()
    assert scratches(state) == set(POKER)
    after = dp.apply(state, dp.Scratch(dp.Box.POKER))
    assert after.cell(0, 0, dp.Box.POKER) == 0
    assert dp.current_player(after) == 1


def test_before_the_first_throw_nothing_is_legal_but_the_throw_and_scratches() -> None:
    assert set(dp.legal_moves(start())) == {dp.Roll()} | {dp.Scratch(box) for box in POKER}


@pytest.mark.parametrize("box", [dp.Box.CHANCE, dp.Box.ONES, dp.Box.PAIR])
def test_before_the_first_throw_no_box_may_be_written(box: dp.Box) -> None:
    assert_illegal(start(), dp.Write(box), "a box is written after a throw")


def test_keeping_all_five_dice_is_not_a_throw() -> None:
    state = throw(start(), (2, 2, 4, 4, 6))
    assert dp.Roll((2, 2, 4, 4, 6)) not in rolls(state)
    assert_illegal(state, dp.Roll((2, 2, 4, 4, 6)), "keeping all five dice is not a throw")


@pytest.mark.parametrize("keep", [(5,), (2, 2, 2), (6, 6, 6), (1, 2, 4, 5)])
def test_a_throw_keeps_only_dice_on_the_table(keep: tuple[int, ...]) -> None:
    state = throw(start(), (2, 2, 4, 6, 6))
    assert_illegal(state, dp.Roll(keep), "cannot keep")


def test_keep_is_the_sorted_values_kept() -> None:
    assert dp.Roll((6, 2, 6)) == dp.Roll((2, 6, 6))
    assert dp.Roll((6, 2, 6)).keep == (2, 6, 6)
    state = throw(start(), (2, 3, 6, 6, 1))
    assert dp.apply(state, dp.Roll((6, 2, 6))).pending_keep == (2, 6, 6)


def test_the_game_is_played_with_five_six_sided_dice() -> None:
    seen: set[int] = set()
    for seed in range(40):
        state = dp.apply(dp.new_game(dp.Config(players=1), seed=seed), dp.Roll())
        assert len(state.dice) == 5
        assert all(1 <= face <= 6 for face in state.dice)
        seen.update(state.dice)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_a_throw_counts_when_its_roll_is_applied() -> None:
    in_air = dp.apply(start(), dp.Roll())
    assert in_air.throws_used == 1
    assert in_air.dice == ()
    state = throw(start(), (1, 2, 3, 4, 6))
    in_air = dp.apply(state, dp.Roll((6,)))
    assert in_air.throws_used == 2
    assert dp.apply(in_air, dp.Dice((1, 1, 1, 1))).throws_used == 2


def test_while_dice_are_in_the_air_the_chance_player_moves() -> None:
    in_air = dp.apply(start(), dp.Roll())
    assert dp.current_player(in_air) == dp.CHANCE
    assert dp.current_player(dp.apply(in_air, dp.Dice((1, 2, 3, 4, 6)))) == 0


def test_the_chance_outcome_is_the_re_thrown_dice_only_sorted() -> None:
    state = throw(start(), (1, 2, 3, 5, 5))
    in_air = dp.apply(state, dp.Roll((5, 5)))
    outcomes = dp.legal_moves(in_air)
    # three dice re-thrown: multisets of size 3 from 6 faces
    assert len(outcomes) == comb(3 + 6 - 1, 3) == 56
    assert all(isinstance(o, dp.Dice) and len(o.values) == 3 for o in outcomes)
    assert all(list(o.values) == sorted(o.values) for o in outcomes if isinstance(o, dp.Dice))
    assert dp.Dice((6, 1, 4)) == dp.Dice((1, 4, 6))
    assert dp.apply(in_air, dp.Dice((6, 1, 4))).dice == (1, 4, 5, 5, 6)


@pytest.mark.parametrize("thrown", [(1, 2), (1, 2, 3, 4), (1, 2, 3, 4, 5), (), (1, 2, 3, 4, 5, 6)])
def test_an_outcome_must_be_as_many_faces_as_dice_in_the_air(thrown: tuple[int, ...]) -> None:
    in_air = dp.apply(throw(start(), (1, 2, 3, 5, 5)), dp.Roll((5, 5)))
    assert_illegal(in_air, dp.Dice(thrown), "3 dice are in the air")


@pytest.mark.parametrize(
    "move", [dp.Write(dp.Box.CHANCE), dp.Scratch(dp.Box.POKER), dp.Roll(), dp.Roll((5,))]
)
def test_while_dice_are_in_the_air_only_their_outcome_is_legal(move: dp.Move) -> None:
    in_air = dp.apply(throw(start(), (1, 2, 3, 5, 5)), dp.Roll((5,)))
    assert_illegal(in_air, move, "the dice are in the air")


def test_an_outcome_without_dice_in_the_air_is_illegal() -> None:
    assert_illegal(start(), dp.Dice((1, 2, 3, 4, 5)), "'dice 1 2 3 4 5' is a chance outcome")
    thrown = throw(start(), (1, 2, 3, 5, 5))
    assert_illegal(thrown, dp.Dice((1, 2, 3)), "'dice 1 2 3' is a chance outcome")


def test_five_dice_have_252_outcomes_with_exact_probabilities() -> None:
    in_air = dp.apply(start(), dp.Roll())
    chances = dp.chance_probabilities(in_air)
    assert len(chances) == 252
    assert set(chances) == set(dp.legal_moves(in_air))
    assert all(isinstance(p, Fraction) for p in chances.values())
    assert sum(chances.values()) == 1
    assert chances[dp.Dice((6, 6, 6, 6, 6))] == Fraction(1, 6**5)
    assert chances[dp.Dice((1, 2, 3, 4, 5))] == Fraction(120, 6**5)  # 5! orders
    assert chances[dp.Dice((1, 1, 2, 2, 3))] == Fraction(30, 6**5)  # 5!/(2!2!)


def test_one_die_has_six_outcomes_of_one_sixth() -> None:
    state = throw(start(), (1, 2, 3, 5, 5))
    in_air = dp.apply(state, dp.Roll((1, 2, 3, 5)))
    chances = dp.chance_probabilities(in_air)
    assert dict(chances) == {dp.Dice((face,)): Fraction(1, 6) for face in range(1, 7)}
    assert set(dp.legal_moves(in_air)) == set(chances)


@pytest.mark.parametrize("rethrown", [1, 2, 3, 4, 5])
def test_outcome_probabilities_sum_to_one(rethrown: int) -> None:
    state = throw(start(), (1, 2, 3, 4, 6))
    keep = (1, 2, 3, 4, 6)[rethrown:]
    chances = dp.chance_probabilities(dp.apply(state, dp.Roll(keep)))
    assert len(chances) == comb(rethrown + 5, 5)
    assert sum(chances.values()) == 1


def test_there_are_no_chance_probabilities_when_no_dice_are_in_the_air() -> None:
    assert not dp.chance_probabilities(start())
    assert not dp.chance_probabilities(throw(start(), (1, 2, 3, 4, 6)))


def test_with_auto_chance_the_dice_land_when_the_roll_is_applied() -> None:
    state = dp.new_game(dp.Config(), seed=7)
    thrown = dp.apply(state, dp.Roll())
    assert len(thrown.dice) == 5
    assert thrown.throws_used == 1
    assert dp.current_player(thrown) == 0
    kept = thrown.dice[:2]
    again = dp.apply(thrown, dp.Roll(kept))
    assert again.throws_used == 2
    assert len(again.dice) == 5
    assert list(again.dice) == sorted(again.dice)
    assert minus(again.dice, kept)  # the kept dice are still on the table (else it raises)


def test_filling_a_box_ends_the_turn() -> None:
    state = throw_times(start(), 2)
    after = dp.apply(state, dp.Write(dp.Box.ONES))
    assert dp.current_player(after) == 1
    assert after.dice == ()
    assert after.throws_used == 0
    assert rolls(after) == {dp.Roll()}


@settings(max_examples=40, deadline=None)
@given(config=configs(max_players=3, max_stages=2), rng=st.randoms(use_true_random=False))
def test_legal_moves_are_exactly_what_the_rules_page_lists(
    config: dp.Config, rng: random.Random
) -> None:
    state = dp.new_game(config, seed=rng.randrange(2**32))
    while not dp.is_over(state):
        legal = dp.legal_moves(state)
        assert len(set(legal)) == len(legal)
        assert set(legal) == reference_legal_moves(state)
        state = dp.apply(state, rng.choice(legal))
    assert dp.legal_moves(state) == ()
