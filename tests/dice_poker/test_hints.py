"""What a move would do in dice poker: the points each open box would score now."""

from __future__ import annotations

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker import Box
from tabletop_rules.dice_poker.config import BoxScores
from tabletop_rules.dice_poker.table import open_box_points


def rolled(dice: tuple[int, ...], config: dp.Config | None = None) -> dp.State:
    state = dp.new_game(config or dp.Config(auto_chance=False), seed=1)
    return dp.apply(dp.apply(state, dp.Roll()), dp.Dice(dice))


def test_each_open_box_scores_what_writing_it_would_score_now() -> None:
    hints = open_box_points(dp.view(rolled((1, 1, 1, 1, 1)), 0))
    assert list(hints) == list(Box)
    assert hints[Box.ONES] == 2
    assert hints[Box.SIXES] == -18
    assert hints[Box.POKER] == 50
    assert hints[Box.CHANCE] == 5


def test_a_poker_box_the_dice_do_not_fit_scores_none() -> None:
    hints = open_box_points(dp.view(rolled((1, 2, 3, 4, 6)), 1))
    assert hints[Box.FULL_HOUSE] is None
    assert hints[Box.SMALL_STRAIGHT] is None
    assert hints[Box.PAIR] is None


def test_every_box_with_points_is_one_the_seat_may_write() -> None:
    seen = dp.view(rolled((2, 2, 3, 3, 3)), 0)
    writes = {move.box for move in seen.legal_moves if type(move) is dp.Write}
    assert {box for box, points in open_box_points(seen).items() if points is not None} == writes


def test_the_house_rules_fixed_scores_are_used() -> None:
    config = dp.Config(auto_chance=False, box_scores=BoxScores(small_straight=25))
    hints = open_box_points(dp.view(rolled((1, 2, 3, 4, 5), config), 0))
    assert hints[Box.SMALL_STRAIGHT] == 25


def test_filled_boxes_are_left_out() -> None:
    state = dp.apply(rolled((5, 5, 5, 2, 1)), dp.Write(Box.FIVES))
    state = dp.apply(dp.apply(state, dp.Roll()), dp.Dice((6, 6, 6, 6, 1)))
    assert Box.FIVES in open_box_points(dp.view(state, None))  # seat 1's own sheet
    state = dp.apply(state, dp.Write(Box.SIXES))
    state = dp.apply(dp.apply(state, dp.Roll()), dp.Dice((4, 4, 4, 4, 4)))
    hints = open_box_points(dp.view(state, 0))
    assert Box.FIVES not in hints
    assert hints[Box.FOURS] == 8


def test_no_dice_on_the_table_gives_no_hints() -> None:
    fresh = dp.new_game(dp.Config(auto_chance=False), seed=1)
    assert open_box_points(dp.view(fresh, 0)) == {}
    in_the_air = dp.apply(fresh, dp.Roll())
    assert open_box_points(dp.view(in_the_air, 0)) == {}
