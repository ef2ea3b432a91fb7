"""The end of the game: the score, the winner, shared wins."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp

from .helpers import (
    all_but,
    full_stage,
    manual,
    play_out,
    position,
    reference_score,
    sheet,
    start,
    write,
)
from .strategies import configs

B = dp.Box


def test_score_is_the_sum_of_all_boxes_plus_each_stages_premium_or_penalty() -> None:
    config = manual(players=2, stages=3)
    best = full_stage(mountain=1)  # four of each face: +1 * face, +21 in all
    best.update(
        {
            B.PAIR: 12,
            B.TWO_PAIRS: 22,
            B.THREE_KIND: 18,
            B.FOUR_KIND: 24,
            B.FULL_HOUSE: 28,
            B.SMALL_STRAIGHT: 15,
            B.LARGE_STRAIGHT: 20,
            B.POKER: 50,
            B.CHANCE: 30,
        }
    )
    level = full_stage(mountain=0)  # played to zero: no premium, no penalty
    poor = full_stage(mountain=-1)  # two of each face: -21 in all
    poor[B.CHANCE] = 7
    chances = {**full_stage(), B.CHANCE: 20}
    state = position(
        config,
        [sheet(config, best, level, poor), sheet(config, chances, chances, chances)],
    )
    assert dp.is_over(state)
    stage1 = 21 + 50 + (12 + 22 + 18 + 24 + 28 + 15 + 20 + 50 + 30)
    stage2 = 0
    stage3 = -21 - 20 + 7
    assert dp.score(state) == (stage1 + stage2 + stage3, 3 * 20)
    assert dp.winners(state) == frozenset({0})


def test_the_score_counts_the_boxes_written_so_far_at_any_time() -> None:
    state = write(start(players=2), B.CHANCE, (6, 6, 5, 5, 4))
    state = write(state, B.FOURS, (1, 1, 2, 2, 3))
    assert dp.score(state) == (26, -12)


def over(*stages_per_seat: dict[dp.Box, int]) -> dp.State:
    """A finished one-stage game, seat ``i`` having filled ``stages_per_seat[i]``."""
    config = manual(players=len(stages_per_seat), stages=1)
    return position(config, [sheet(config, filled) for filled in stages_per_seat])


def with_chance(points: int, mountain: int = 0) -> dict[dp.Box, int]:
    return {**full_stage(mountain=mountain), B.CHANCE: points}


def test_the_highest_score_wins() -> None:
    state = over(with_chance(10), with_chance(25), with_chance(24))
    assert dp.score(state) == (10, 25, 24)
    assert dp.winners(state) == frozenset({1})


def test_the_highest_of_negative_scores_wins() -> None:
    state = over(with_chance(5, mountain=-1), with_chance(30, mountain=-1))
    assert dp.score(state) == (5 - 21 - 20, 30 - 21 - 20)
    assert dp.winners(state) == frozenset({1})


def test_equal_top_scores_share_the_win() -> None:
    state = over(with_chance(22), with_chance(9), with_chance(22))
    assert dp.winners(state) == frozenset({0, 2})


def test_a_premium_can_decide_the_winner() -> None:
    # seat 0 has more in its boxes, seat 1 a mountain above zero and its premium
    state = over(with_chance(30), with_chance(10, mountain=1))
    assert dp.score(state) == (30, 10 + 21 + 50)
    assert dp.winners(state) == frozenset({1})


def test_every_seat_wins_when_all_scores_are_equal() -> None:
    state = over(with_chance(17), with_chance(17), with_chance(17), with_chance(17))
    assert dp.winners(state) == frozenset({0, 1, 2, 3})


def test_a_lone_player_wins_a_finished_game() -> None:
    assert dp.winners(over(with_chance(5, mountain=-1))) == frozenset({0})


def test_there_are_no_winners_until_the_game_is_over() -> None:
    config = manual(players=2, stages=1)
    state = position(
        config, [sheet(config, with_chance(30)), sheet(config, all_but(with_chance(0), B.CHANCE))]
    )
    assert dp.score(state) == (30, 0)
    assert not dp.is_over(state)
    assert dp.winners(state) == frozenset()
    assert dp.winners(start()) == frozenset()
    final = write(state, B.CHANCE, (6, 6, 6, 6, 6))
    assert dp.is_over(final)
    assert dp.winners(final) == frozenset({0, 1})


def test_the_last_turn_reports_the_final_scores_and_winners() -> None:
    config = manual(players=2, stages=1)
    state = position(
        config, [sheet(config, with_chance(30)), sheet(config, all_but(with_chance(0), B.CHANCE))]
    )
    thrown = dp.apply(dp.apply(state, dp.Roll()), dp.Dice((6, 6, 6, 6, 5)))
    final, events = dp.apply_with_events(thrown, dp.Write(B.CHANCE))
    assert dp.score(final) == (30, 29)
    assert dp.winners(final) == frozenset({0})
    assert events[-1] == dp.GameOver((30, 29), frozenset({0}))


def test_a_played_out_game_is_won_by_the_top_scores() -> None:
    start_state = dp.new_game(dp.Config(players=3, stages=1), seed=11)
    state = play_out(start_state, lambda s: dp.legal_moves(s)[len(dp.legal_moves(s)) // 2])
    scores = dp.score(state)
    assert dp.winners(state) == frozenset(s for s in range(3) if scores[s] == max(scores))
    assert dp.winners(state)


@settings(max_examples=15, deadline=None)
@given(config=configs(max_players=3, max_stages=2), rng=st.randoms(use_true_random=False))
def test_over_whole_games_the_score_is_the_boxes_plus_premiums_and_the_top_wins(
    config: dp.Config, rng: random.Random
) -> None:
    state = dp.new_game(config, seed=rng.randrange(2**32))
    while not dp.is_over(state):
        assert dp.winners(state) == frozenset()
        state = dp.apply(state, rng.choice(dp.legal_moves(state)))
        assert dp.score(state) == tuple(reference_score(config, cells) for cells in state.sheets)
    scores = dp.score(state)
    assert dp.winners(state) == {
        seat for seat, points in enumerate(scores) if points == max(scores)
    }
