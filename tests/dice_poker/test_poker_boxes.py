"""The lower section, the poker boxes: what each needs, what it scores, scratching."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.config import BoxScores

from .helpers import (
    POKER,
    all_but,
    assert_illegal,
    full_stage,
    manual,
    position,
    reference_points,
    scratches,
    sheet,
    start,
    throw,
    throw_times,
    write,
    writes,
)

B = dp.Box

# (box, dice, points or None when the dice do not fit), worked out by hand from the table.
CASES: list[tuple[dp.Box, tuple[int, ...], int | None]] = [
    (B.PAIR, (1, 3, 3, 5, 5), 10),
    (B.PAIR, (2, 2, 4, 5, 6), 4),
    (B.PAIR, (1, 1, 1, 2, 3), 2),
    (B.PAIR, (6, 6, 6, 6, 6), 12),
    (B.PAIR, (1, 2, 3, 4, 6), None),
    (B.TWO_PAIRS, (1, 3, 3, 5, 5), 16),
    (B.TWO_PAIRS, (2, 2, 5, 5, 5), 14),
    (B.TWO_PAIRS, (2, 4, 4, 4, 4), None),
    (B.TWO_PAIRS, (6, 6, 6, 6, 6), None),
    (B.TWO_PAIRS, (1, 1, 2, 3, 4), None),
    (B.THREE_KIND, (2, 4, 4, 4, 6), 12),
    (B.THREE_KIND, (3, 3, 3, 3, 5), 9),
    (B.THREE_KIND, (3, 3, 3, 5, 5), 9),
    (B.THREE_KIND, (6, 6, 6, 6, 6), 18),
    (B.THREE_KIND, (1, 1, 2, 2, 3), None),
    (B.FOUR_KIND, (2, 5, 5, 5, 5), 20),
    (B.FOUR_KIND, (6, 6, 6, 6, 6), 24),
    (B.FOUR_KIND, (3, 3, 3, 4, 4), None),
    (B.FULL_HOUSE, (2, 2, 3, 3, 3), 13),
    (B.FULL_HOUSE, (5, 5, 6, 6, 6), 28),
    (B.FULL_HOUSE, (4, 4, 4, 4, 4), None),
    (B.FULL_HOUSE, (2, 2, 3, 3, 4), None),
    (B.FULL_HOUSE, (1, 1, 1, 1, 2), None),
    (B.SMALL_STRAIGHT, (1, 2, 3, 4, 5), 15),
    (B.SMALL_STRAIGHT, (2, 3, 4, 5, 6), None),
    (B.SMALL_STRAIGHT, (1, 2, 3, 4, 4), None),
    (B.SMALL_STRAIGHT, (1, 2, 3, 4, 6), None),
    (B.LARGE_STRAIGHT, (2, 3, 4, 5, 6), 20),
    (B.LARGE_STRAIGHT, (1, 2, 3, 4, 5), None),
    (B.LARGE_STRAIGHT, (2, 3, 4, 5, 5), None),
    (B.POKER, (3, 3, 3, 3, 3), 50),
    (B.POKER, (1, 1, 1, 1, 1), 50),
    (B.POKER, (3, 3, 3, 3, 4), None),
    (B.CHANCE, (1, 2, 3, 4, 6), 16),
    (B.CHANCE, (6, 6, 6, 6, 6), 30),
    (B.CHANCE, (1, 1, 1, 1, 1), 5),
]


@pytest.mark.parametrize(
    ("box", "dice", "expected"),
    CASES,
    ids=[f"{box.name}-{''.join(map(str, dice))}" for box, dice, _ in CASES],
)
def test_a_poker_box_scores_what_the_table_says(
    box: dp.Box, dice: tuple[int, ...], expected: int | None
) -> None:
    thrown = throw(start(), dice)
    assert (box in writes(thrown)) == (expected is not None)
    if expected is None:
        assert_illegal(thrown, dp.Write(box), f"{box.name} needs")
    else:
        assert dp.apply(thrown, dp.Write(box)).cell(0, 0, box) == expected


def test_a_pair_scores_the_sum_of_the_highest_pair() -> None:
    assert write(start(), B.PAIR, (5, 5, 3, 3, 1)).cell(0, 0, B.PAIR) == 10


def test_two_pairs_score_the_sum_of_those_four_dice() -> None:
    assert write(start(), B.TWO_PAIRS, (2, 2, 6, 6, 5)).cell(0, 0, B.TWO_PAIRS) == 16


def test_three_alike_score_the_sum_of_the_three() -> None:
    assert write(start(), B.THREE_KIND, (5, 5, 5, 6, 1)).cell(0, 0, B.THREE_KIND) == 15


def test_four_alike_score_the_sum_of_the_four() -> None:
    assert write(start(), B.FOUR_KIND, (2, 2, 2, 2, 6)).cell(0, 0, B.FOUR_KIND) == 8


def test_a_full_house_scores_the_sum_of_all_five() -> None:
    assert write(start(), B.FULL_HOUSE, (4, 4, 4, 1, 1)).cell(0, 0, B.FULL_HOUSE) == 14


def test_a_small_straight_is_one_to_five_and_scores_fifteen() -> None:
    assert write(start(), B.SMALL_STRAIGHT, (5, 3, 1, 4, 2)).cell(0, 0, B.SMALL_STRAIGHT) == 15


def test_a_large_straight_is_two_to_six_and_scores_twenty() -> None:
    assert write(start(), B.LARGE_STRAIGHT, (6, 4, 2, 5, 3)).cell(0, 0, B.LARGE_STRAIGHT) == 20


def test_poker_is_five_alike_and_scores_fifty() -> None:
    assert write(start(), B.POKER, (2, 2, 2, 2, 2)).cell(0, 0, B.POKER) == 50


def test_chance_takes_anything_and_scores_the_sum_of_all_five() -> None:
    assert write(start(), B.CHANCE, (1, 2, 4, 5, 6)).cell(0, 0, B.CHANCE) == 18


def test_five_alike_is_not_a_full_house() -> None:
    thrown = throw(start(), (5, 5, 5, 5, 5))
    assert B.FULL_HOUSE not in writes(thrown)
    assert_illegal(thrown, dp.Write(B.FULL_HOUSE), "FULL_HOUSE needs")


def test_five_alike_is_not_two_pairs() -> None:
    thrown = throw(start(), (5, 5, 5, 5, 5))
    assert B.TWO_PAIRS not in writes(thrown)
    assert_illegal(thrown, dp.Write(B.TWO_PAIRS), "TWO_PAIRS needs")


def test_five_alike_fit_pair_three_kind_four_kind_poker_and_chance() -> None:
    thrown = throw(start(), (5, 5, 5, 5, 5))
    poker_writes = {box for box in writes(thrown) if box.is_poker}
    assert poker_writes == {B.PAIR, B.THREE_KIND, B.FOUR_KIND, B.POKER, B.CHANCE}


def test_five_sixes_written_as_a_pair_score_twelve() -> None:
    assert write(start(), B.PAIR, (6, 6, 6, 6, 6)).cell(0, 0, B.PAIR) == 12


def test_dice_fitting_a_box_in_more_than_one_way_score_the_highest_way() -> None:
    # 4-4-4-6-6: as PAIR either 8 or 12; as TWO_PAIRS only 4-4 + 6-6.
    assert write(start(), B.PAIR, (4, 4, 4, 6, 6)).cell(0, 0, B.PAIR) == 12
    assert write(start(), B.TWO_PAIRS, (4, 4, 4, 6, 6)).cell(0, 0, B.TWO_PAIRS) == 20
    assert write(start(), B.THREE_KIND, (4, 4, 4, 6, 6)).cell(0, 0, B.THREE_KIND) == 12


def test_every_throw_scores_every_poker_box_as_the_table_says() -> None:
    started = start()
    for dice in combinations_with_replacement(range(1, 7), 5):
        thrown = throw(started, dice)
        fitting = writes(thrown)
        for box in POKER:
            expected = reference_points(box, dice)
            assert (box in fitting) == (expected is not None), (box, dice)
            if expected is not None:
                assert dp.apply(thrown, dp.Write(box)).cell(0, 0, box) == expected, (box, dice)


def test_box_scores_set_the_fixed_scores_of_the_straights_and_poker() -> None:
    config = manual(box_scores=BoxScores(small_straight=25, large_straight=30, poker=100))
    assert (
        write(start(config), B.SMALL_STRAIGHT, (1, 2, 3, 4, 5)).cell(0, 0, B.SMALL_STRAIGHT) == 25
    )
    assert (
        write(start(config), B.LARGE_STRAIGHT, (2, 3, 4, 5, 6)).cell(0, 0, B.LARGE_STRAIGHT) == 30
    )
    assert write(start(config), B.POKER, (4, 4, 4, 4, 4)).cell(0, 0, B.POKER) == 100


def test_box_scores_leave_the_other_boxes_scoring_the_dice() -> None:
    config = manual(box_scores=BoxScores(small_straight=25, large_straight=30, poker=100))
    assert write(start(config), B.CHANCE, (1, 2, 3, 4, 5)).cell(0, 0, B.CHANCE) == 15
    assert write(start(config), B.FOUR_KIND, (4, 4, 4, 4, 4)).cell(0, 0, B.FOUR_KIND) == 16
    assert write(start(config), B.FULL_HOUSE, (2, 2, 6, 6, 6)).cell(0, 0, B.FULL_HOUSE) == 22


def test_box_scores_do_not_change_what_fits() -> None:
    config = manual(box_scores=BoxScores(small_straight=25, large_straight=30, poker=100))
    thrown = throw(start(config), (1, 2, 3, 4, 6))
    assert not {B.SMALL_STRAIGHT, B.LARGE_STRAIGHT, B.POKER} & writes(thrown)


def test_a_poker_box_must_be_thrown_complete_to_be_written() -> None:
    thrown = throw(start(), (2, 2, 3, 3, 4))
    assert_illegal(
        thrown, dp.Write(B.FULL_HOUSE), "FULL_HOUSE needs three of one face and two of another"
    )
    # completed by a later throw, it may be written
    completed = throw(thrown, (2, 2, 3, 3, 3), keep=(2, 2, 3, 3))
    assert dp.apply(completed, dp.Write(B.FULL_HOUSE)).cell(0, 0, B.FULL_HOUSE) == 13


@pytest.mark.parametrize(
    ("box", "fragment"),
    [
        (B.PAIR, "PAIR needs two dice alike"),
        (B.TWO_PAIRS, "TWO_PAIRS needs two pairs of different faces"),
        (B.THREE_KIND, "THREE_KIND needs three dice alike"),
        (B.FOUR_KIND, "FOUR_KIND needs four dice alike"),
        (B.SMALL_STRAIGHT, "SMALL_STRAIGHT needs 1-2-3-4-5"),
        (B.LARGE_STRAIGHT, "LARGE_STRAIGHT needs 2-3-4-5-6"),
        (B.POKER, "POKER needs five dice alike"),
    ],
)
def test_writing_a_poker_box_the_dice_do_not_fit_names_what_it_needs(
    box: dp.Box, fragment: str
) -> None:
    thrown = throw(start(), (1, 2, 3, 4, 6))
    assert_illegal(thrown, dp.Write(box), fragment)


def test_a_poker_box_the_dice_do_not_fit_may_be_scratched() -> None:
    thrown = throw(start(), (1, 2, 3, 4, 6))
    assert B.FULL_HOUSE in scratches(thrown)
    after = dp.apply(thrown, dp.Scratch(B.FULL_HOUSE))
    assert after.cell(0, 0, B.FULL_HOUSE) == 0


def test_a_scratched_box_scores_zero_even_when_the_dice_fit() -> None:
    thrown = throw(start(), (6, 6, 6, 6, 6))
    after = dp.apply(thrown, dp.Scratch(B.POKER))
    assert after.cell(0, 0, B.POKER) == 0
    assert dp.score(after) == (0, 0)


@pytest.mark.parametrize("box", POKER)
def test_every_open_poker_box_may_be_scratched_after_a_throw(box: dp.Box) -> None:
    thrown = throw(start(), (1, 1, 2, 5, 6))
    assert box in scratches(thrown)
    assert dp.apply(thrown, dp.Scratch(box)).cell(0, 0, box) == 0


def only_open(*boxes: dp.Box) -> dp.State:
    config = manual(players=1, stages=1, fences=False)
    return position(config, [sheet(config, all_but(full_stage(), *boxes))])


def test_a_player_whose_dice_fit_nothing_open_must_scratch() -> None:
    state = throw_times(only_open(B.FULL_HOUSE, B.LARGE_STRAIGHT, B.POKER), 3, (1, 2, 3, 4, 6))
    assert state.throws_used == 3
    assert set(dp.legal_moves(state)) == {
        dp.Scratch(B.FULL_HOUSE),
        dp.Scratch(B.LARGE_STRAIGHT),
        dp.Scratch(B.POKER),
    }
    for box in (B.FULL_HOUSE, B.LARGE_STRAIGHT, B.POKER):
        assert_illegal(state, dp.Write(box), f"{box.name} needs")


def test_dice_that_fit_nothing_open_still_allow_the_remaining_throws() -> None:
    state = throw(only_open(B.FULL_HOUSE, B.POKER), (1, 2, 3, 4, 6))
    assert not writes(state)
    assert scratches(state) == {B.FULL_HOUSE, B.POKER}
    assert dp.Roll((1, 2, 3, 4)) in dp.legal_moves(state)


def test_a_filled_poker_box_cannot_be_written_or_scratched_again() -> None:
    state = write(start(players=1), B.CHANCE, (1, 2, 3, 4, 6))
    thrown = throw(state, (6, 6, 6, 5, 5))
    assert B.CHANCE not in writes(thrown)
    assert B.CHANCE not in scratches(thrown)
    assert_illegal(thrown, dp.Write(B.CHANCE), "CHANCE of stage 1 is filled already")
    assert_illegal(thrown, dp.Scratch(B.CHANCE), "CHANCE of stage 1 is filled already")
