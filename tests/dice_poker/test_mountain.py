"""The upper section, the mountain: (count - 3) * face, no scratching, the stage premium."""

from __future__ import annotations

import pytest

from tabletop_rules import dice_poker as dp

from .helpers import (
    MOUNTAIN,
    assert_illegal,
    full_stage,
    manual,
    position,
    scratches,
    sheet,
    start,
    throw,
    throw_times,
    write,
    writes,
)

FACES = range(1, 7)


def dice_with(face: int, count: int) -> tuple[int, ...]:
    """Five dice of which exactly ``count`` show ``face``."""
    filler = 2 if face == 1 else 1
    return (face,) * count + (filler,) * (5 - count)


def written(state: dp.State, box: dp.Box, seat: int = 0, stage: int = 0) -> int | None:
    return state.cell(seat, stage, box)


@pytest.mark.parametrize("count", range(6))
@pytest.mark.parametrize("face", FACES)
def test_a_mountain_box_scores_count_minus_three_times_its_face(face: int, count: int) -> None:
    box = MOUNTAIN[face - 1]
    after = write(start(players=1), box, dice_with(face, count))
    assert written(after, box) == (count - 3) * face
    assert dp.score(after) == ((count - 3) * face,)


def test_one_four_on_the_mountain_costs_eight() -> None:
    assert written(write(start(), dp.Box.FOURS, (1, 2, 3, 4, 6)), dp.Box.FOURS) == -8


def test_two_fours_on_the_mountain_cost_four() -> None:
    assert written(write(start(), dp.Box.FOURS, (1, 2, 4, 4, 6)), dp.Box.FOURS) == -4


def test_three_fours_on_the_mountain_score_zero() -> None:
    assert written(write(start(), dp.Box.FOURS, (1, 4, 4, 4, 6)), dp.Box.FOURS) == 0


def test_four_fours_on_the_mountain_earn_four() -> None:
    assert written(write(start(), dp.Box.FOURS, (4, 4, 4, 4, 6)), dp.Box.FOURS) == 4


def test_five_fours_on_the_mountain_earn_eight() -> None:
    assert written(write(start(), dp.Box.FOURS, (4, 4, 4, 4, 4)), dp.Box.FOURS) == 8


@pytest.mark.parametrize("face", FACES)
def test_a_count_of_zero_is_allowed_and_scores_minus_three_times_face(face: int) -> None:
    dice = dice_with(face, 0)
    box = MOUNTAIN[face - 1]
    thrown = throw(start(), dice)
    assert box in writes(thrown)
    assert written(dp.apply(thrown, dp.Write(box)), box) == -3 * face


def test_no_sixes_cost_eighteen() -> None:
    assert written(write(start(), dp.Box.SIXES, (1, 2, 3, 4, 5)), dp.Box.SIXES) == -18


@pytest.mark.parametrize("dice", [(1, 1, 1, 1, 1), (2, 3, 4, 5, 6), (1, 2, 2, 5, 6)])
def test_every_open_mountain_box_may_be_written_after_any_throw(dice: tuple[int, ...]) -> None:
    assert set(MOUNTAIN) <= writes(throw(start(), dice))


@pytest.mark.parametrize("box", MOUNTAIN)
def test_mountain_boxes_cannot_be_scratched_before_the_first_throw(box: dp.Box) -> None:
    state = start()
    assert box not in scratches(state)
    assert_illegal(state, dp.Scratch(box), "mountain boxes cannot be scratched")


@pytest.mark.parametrize("box", MOUNTAIN)
def test_mountain_boxes_cannot_be_scratched_after_a_throw(box: dp.Box) -> None:
    state = throw(start(), (1, 2, 3, 4, 6))
    assert box not in scratches(state)
    assert_illegal(state, dp.Scratch(box), "mountain boxes cannot be scratched")


def test_a_last_open_mountain_box_must_be_written_even_when_negative() -> None:
    config = manual(players=1, stages=1, fences=False)
    only_sixes_open = sheet(config, {box: 0 for box in dp.Box if box is not dp.Box.SIXES})
    state = throw_times(position(config, [only_sixes_open]), 3, (1, 1, 2, 2, 3))
    assert dp.legal_moves(state) == (dp.Write(dp.Box.SIXES),)
    # the mountain is now full at -18: the box and the penalty.
    assert dp.score(dp.apply(state, dp.Write(dp.Box.SIXES))) == (-18 - 20,)


def play_mountain(config: dp.Config, counts: list[int]) -> list[int]:
    """Scores after writing ONES..SIXES, box i with ``counts[i]`` dice of its face."""
    state = start(config)
    seen = []
    for face, count in enumerate(counts, start=1):
        state = write(state, MOUNTAIN[face - 1], dice_with(face, count))
        seen.append(dp.score(state)[0])
    return seen


def test_a_mountain_summing_above_zero_earns_the_fifty_point_premium() -> None:
    # four ones (+1), then three of every other face (0 each): the mountain sums to +1.
    seen = play_mountain(manual(players=1), [4, 3, 3, 3, 3, 3])
    assert seen == [1, 1, 1, 1, 1, 1 + 50]


def test_a_mountain_summing_below_zero_costs_the_twenty_point_penalty() -> None:
    # two ones (-1), then three of every other face: the mountain sums to -1.
    seen = play_mountain(manual(players=1), [2, 3, 3, 3, 3, 3])
    assert seen == [-1, -1, -1, -1, -1, -1 - 20]


def test_a_mountain_played_to_zero_earns_nothing() -> None:
    # three of every face: 63 pips exactly, "played to zero".
    assert play_mountain(manual(players=1), [3] * 6) == [0] * 6


def test_a_mountain_summing_to_zero_from_mixed_boxes_earns_nothing() -> None:
    # five ones (+2), two twos (-2), three of every other face.
    seen = play_mountain(manual(players=1), [5, 2, 3, 3, 3, 3])
    assert seen == [2, 0, 0, 0, 0, 0]


def test_the_premium_appears_only_once_the_six_mountain_boxes_are_filled() -> None:
    # five sixes in SIXES (+12) before the rest: no premium while ONES..FIVES are open.
    state = write(start(players=1), dp.Box.SIXES, (6, 6, 6, 6, 6))
    for box in (dp.Box.PAIR, dp.Box.CHANCE, dp.Box.ONES, dp.Box.TWOS):
        state = write(state, box, (3, 3, 4, 4, 5) if box.is_poker else (1, 1, 1, 2, 2))
    # PAIR 8, CHANCE 19, ONES 0, TWOS -2: no premium with three mountain boxes open.
    assert dp.score(state) == (12 + 8 + 19 + 0 - 2,)
    state = write(state, dp.Box.THREES, (3, 3, 3, 1, 1))
    state = write(state, dp.Box.FOURS, (4, 4, 4, 1, 1))
    assert dp.score(state) == (12 + 8 + 19 + 0 - 2,)
    state = write(state, dp.Box.FIVES, (5, 5, 5, 1, 1))
    assert dp.score(state) == (12 + 8 + 19 + 0 - 2 + 50,)


def test_a_mountain_with_one_box_open_earns_no_premium_whatever_its_sum() -> None:
    config = manual(players=1, stages=1)
    stage = full_stage(mountain=2, poker=0)  # five of each face: +2 * face per box
    stage[dp.Box.CHANCE] = 30
    del stage[dp.Box.ONES]
    state = position(config, [sheet(config, stage)])
    assert dp.score(state) == (2 * (2 + 3 + 4 + 5 + 6) + 30,)


@pytest.mark.parametrize(
    ("mountain", "bonus"), [(1, 50), (0, 0), (-1, -20)], ids=["premium", "zero", "penalty"]
)
def test_each_full_stage_earns_its_own_premium_or_penalty(mountain: int, bonus: int) -> None:
    config = manual(players=1, stages=3)
    # mountain = +1: four of each face, so each box scores its face; -1: two of each.
    stage = full_stage(mountain=mountain)
    state = position(config, [sheet(config, stage, stage, {})])
    box_sum = 2 * mountain * (1 + 2 + 3 + 4 + 5 + 6)
    assert dp.score(state) == (box_sum + 2 * bonus,)


def test_stages_score_their_premium_and_penalty_separately() -> None:
    config = manual(players=1, stages=3)
    up = full_stage(mountain=1)  # +21
    down = full_stage(mountain=-1)  # -21
    state = position(config, [sheet(config, up, down, full_stage(0))])
    assert dp.score(state) == (21 + 50 - 21 - 20 + 0,)


@pytest.mark.parametrize(
    ("counts", "expected_bonus"),
    [([4, 3, 3, 3, 3, 3], 35), ([2, 3, 3, 3, 3, 3], -7), ([3] * 6, 0)],
    ids=["premium", "penalty", "zero"],
)
def test_premium_and_penalty_are_house_rules(counts: list[int], expected_bonus: int) -> None:
    seen = play_mountain(manual(players=1, premium=35, penalty=7), counts)
    box_sum = (counts[0] - 3) * 1
    assert seen[-1] == box_sum + expected_bonus
    assert seen[-2] == box_sum


def test_a_zero_premium_and_penalty_leave_only_the_boxes() -> None:
    assert play_mountain(manual(players=1, premium=0, penalty=0), [5, 3, 3, 3, 3, 3])[-1] == 2
    assert play_mountain(manual(players=1, premium=0, penalty=0), [0, 3, 3, 3, 3, 3])[-1] == -3
