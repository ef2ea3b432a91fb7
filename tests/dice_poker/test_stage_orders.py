"""The order boxes of a stage are filled in: free, down, up, announce; one per stage or all."""

from __future__ import annotations

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError

from .helpers import (
    MOUNTAIN,
    POKER,
    SHEET_ORDER,
    all_but,
    announces,
    assert_illegal,
    full_stage,
    manual,
    position,
    rolls,
    scratches,
    sheet,
    start,
    throw,
    throw_times,
    writes,
)

B = dp.Box


def fill(state: dp.State, box: dp.Box, dice: tuple[int, ...] = (2, 3, 4, 5, 6)) -> dp.State:
    """One turn ending in ``box``: written when the dice fit, else scratched."""
    thrown = throw(state, dice)
    if thrown.config.stage_order(thrown.stage) == "announce":
        thrown = dp.apply(thrown, dp.Announce(box))
    return dp.apply(thrown, dp.Write(box) if box in writes(thrown) else dp.Scratch(box))


def fillable(state: dp.State) -> set[dp.Box]:
    """The boxes that may end the turn after a throw showing a large straight."""
    thrown = throw(state, (2, 3, 4, 5, 6))
    return writes(thrown) | scratches(thrown)


def stage_with(order: str, *open_boxes: dp.Box) -> dp.State:
    """A lone player's one stage in ``order`` with only ``open_boxes`` still open."""
    config = manual(players=1, stages=1, stage_orders=order)
    return position(config, [sheet(config, all_but(full_stage(), *open_boxes))])


# --- free -----------------------------------------------------------------------------


def test_the_default_order_is_free() -> None:
    assert dp.Config().stage_orders == ("free",)
    assert dp.Config().stage_order(2) == "free"


def test_in_free_order_any_open_box_may_be_filled() -> None:
    thrown = throw(start(), (2, 3, 4, 5, 6))
    assert writes(thrown) == set(MOUNTAIN) | {B.LARGE_STRAIGHT, B.CHANCE}
    assert scratches(thrown) == set(POKER)


def test_in_free_order_boxes_may_be_filled_in_any_sequence() -> None:
    state = start(players=1, stages=1)
    for box in (B.CHANCE, B.ONES, B.POKER, B.SIXES, B.PAIR, B.THREES):
        state = fill(state, box)
        assert state.cell(0, 0, box) is not None
    assert fillable(state) == set(SHEET_ORDER) - {
        B.CHANCE,
        B.ONES,
        B.POKER,
        B.SIXES,
        B.PAIR,
        B.THREES,
    }


# --- down -----------------------------------------------------------------------------


def test_in_down_order_only_the_next_box_may_be_filled_ones_first() -> None:
    state = start(stage_orders="down")
    assert dp.legal_moves(state) == (dp.Roll(),)
    thrown = throw(state, (2, 3, 4, 5, 6))
    assert writes(thrown) == {B.ONES}
    assert not scratches(thrown)
    assert_illegal(thrown, dp.Write(B.TWOS), "played 'down': only its next box, ONES")
    assert_illegal(thrown, dp.Write(B.CHANCE), "only its next box, ONES, may be filled")


def test_in_down_order_the_stage_is_filled_top_to_bottom_chance_last() -> None:
    state = start(players=1, stages=1, stage_orders="down")
    for box in SHEET_ORDER:
        assert fillable(state) == {box}
        state = fill(state, box)
    assert dp.is_over(state)


def test_in_down_order_the_next_box_may_be_written_or_scratched() -> None:
    state = stage_with("down", *POKER)  # the mountain is full: PAIR is next
    thrown = throw(state, (1, 1, 4, 5, 6))
    assert writes(thrown) == {B.PAIR}
    assert scratches(thrown) == {B.PAIR}
    assert dp.apply(thrown, dp.Write(B.PAIR)).cell(0, 0, B.PAIR) == 2
    assert dp.apply(thrown, dp.Scratch(B.PAIR)).cell(0, 0, B.PAIR) == 0


def test_in_down_order_a_next_box_the_dice_do_not_fit_must_be_scratched() -> None:
    state = throw_times(stage_with("down", *POKER[4:]), 3, (1, 2, 3, 4, 6))  # FULL_HOUSE next
    assert dp.legal_moves(state) == (dp.Scratch(B.FULL_HOUSE),)


def test_in_down_order_a_poker_box_is_scratched_before_throwing_only_when_it_is_next() -> None:
    state = start(stage_orders="down")
    assert not scratches(state)
    assert_illegal(state, dp.Scratch(B.PAIR), "only its next box, ONES")
    next_pair = stage_with("down", *POKER)
    assert scratches(next_pair) == {B.PAIR}
    assert_illegal(next_pair, dp.Scratch(B.TWO_PAIRS), "only its next box, PAIR")


# --- up -------------------------------------------------------------------------------


def test_in_up_order_only_the_next_box_may_be_filled_chance_first() -> None:
    state = start(stage_orders="up")
    assert set(dp.legal_moves(state)) == {dp.Roll(), dp.Scratch(B.CHANCE)}
    thrown = throw(state, (2, 3, 4, 5, 6))
    assert writes(thrown) == {B.CHANCE}
    assert scratches(thrown) == {B.CHANCE}
    assert_illegal(thrown, dp.Write(B.LARGE_STRAIGHT), "played 'up': only its next box, CHANCE")
    assert_illegal(thrown, dp.Write(B.ONES), "only its next box, CHANCE")


def test_in_up_order_the_stage_is_filled_bottom_to_top_ones_last() -> None:
    state = start(players=1, stages=1, stage_orders="up")
    for box in reversed(SHEET_ORDER):
        assert fillable(state) == {box}
        state = fill(state, box)
    assert dp.is_over(state)


def test_in_up_order_nothing_may_be_scratched_before_throwing_once_sixes_is_next() -> None:
    state = stage_with("up", *MOUNTAIN)
    assert dp.legal_moves(state) == (dp.Roll(),)
    assert fillable(state) == {B.SIXES}


# --- announce -------------------------------------------------------------------------


def test_in_announce_order_the_first_throw_is_followed_only_by_announce() -> None:
    thrown = throw(start(stage_orders="announce"), (2, 2, 3, 3, 4))
    assert dp.legal_moves(thrown) == tuple(dp.Announce(box) for box in SHEET_ORDER)
    fragment = "the first throw is followed by announcing a box ('announce' and the box)"
    assert_illegal(thrown, dp.Write(B.CHANCE), fragment)
    assert_illegal(thrown, dp.Write(B.ONES), fragment)
    assert_illegal(thrown, dp.Scratch(B.POKER), fragment)
    assert_illegal(thrown, dp.Roll((2, 2)), fragment)


def test_in_announce_order_only_an_open_box_may_be_announced() -> None:
    state = stage_with("announce", B.ONES, B.PAIR, B.CHANCE)
    thrown = throw(state, (1, 1, 3, 3, 4))
    assert announces(thrown) == {B.ONES, B.PAIR, B.CHANCE}
    assert_illegal(thrown, dp.Announce(B.SIXES), "SIXES of stage 1 is filled already")


def test_after_announcing_the_turn_may_only_end_in_that_box() -> None:
    thrown = throw(start(stage_orders="announce"), (2, 2, 3, 3, 4))
    announced = dp.apply(thrown, dp.Announce(B.FULL_HOUSE))
    assert announced.announced is B.FULL_HOUSE
    assert not writes(announced)
    assert scratches(announced) == {B.FULL_HOUSE}
    assert rolls(announced)
    assert not announces(announced)
    fragment = "this turn announced FULL_HOUSE: it may only end in that box"
    assert_illegal(announced, dp.Write(B.CHANCE), fragment)
    assert_illegal(announced, dp.Write(B.TWO_PAIRS), fragment)
    assert_illegal(announced, dp.Scratch(B.TWO_PAIRS), fragment)


def test_the_announced_box_may_be_written_at_once() -> None:
    thrown = throw(start(stage_orders="announce"), (2, 2, 3, 3, 4))
    announced = dp.apply(thrown, dp.Announce(B.TWO_PAIRS))
    assert writes(announced) == {B.TWO_PAIRS}
    assert dp.apply(announced, dp.Write(B.TWO_PAIRS)).cell(0, 0, B.TWO_PAIRS) == 10


def test_the_announced_box_may_be_written_after_more_throws() -> None:
    thrown = throw(start(stage_orders="announce"), (2, 2, 3, 3, 4))
    announced = dp.apply(thrown, dp.Announce(B.FULL_HOUSE))
    state = throw(announced, (2, 2, 3, 3, 6), keep=(2, 2, 3, 3))
    assert announces(state) == set()
    state = throw(state, (2, 2, 3, 3, 3), keep=(2, 2, 3, 3))
    assert not rolls(state)
    assert dp.legal_moves(state) == (dp.Write(B.FULL_HOUSE), dp.Scratch(B.FULL_HOUSE))
    assert dp.apply(state, dp.Write(B.FULL_HOUSE)).cell(0, 0, B.FULL_HOUSE) == 13


def test_an_announced_poker_box_the_dice_do_not_fit_is_scratched() -> None:
    thrown = throw(start(stage_orders="announce"), (1, 2, 3, 4, 6))
    state = dp.apply(thrown, dp.Announce(B.POKER))
    state = throw_times(state, 2, (1, 2, 3, 4, 6))
    assert state.throws_used == 3
    assert dp.legal_moves(state) == (dp.Scratch(B.POKER),)
    assert dp.apply(state, dp.Scratch(B.POKER)).cell(0, 0, B.POKER) == 0


def test_an_announced_mountain_box_is_written_and_cannot_be_scratched() -> None:
    thrown = throw(start(stage_orders="announce"), (1, 2, 3, 4, 6))
    state = dp.apply(thrown, dp.Announce(B.FIVES))
    state = throw_times(state, 2, (1, 2, 3, 4, 6))
    assert dp.legal_moves(state) == (dp.Write(B.FIVES),)
    assert_illegal(state, dp.Scratch(B.FIVES), "mountain boxes cannot be scratched")
    assert dp.apply(state, dp.Write(B.FIVES)).cell(0, 0, B.FIVES) == -15


def test_a_box_is_announced_once_per_turn_right_after_the_first_throw() -> None:
    state = start(stage_orders="announce")
    assert_illegal(state, dp.Announce(B.CHANCE), "announced once per turn")
    announced = dp.apply(throw(state, (1, 2, 3, 4, 6)), dp.Announce(B.CHANCE))
    assert_illegal(announced, dp.Announce(B.PAIR), "announced once per turn")
    assert_illegal(announced, dp.Announce(B.CHANCE), "announced once per turn")
    later = throw(announced, (1, 2, 3, 4, 6), keep=(2, 3, 4, 6))
    assert_illegal(later, dp.Announce(B.PAIR), "announced once per turn")


def test_announcing_is_not_a_throw_and_changes_no_fences() -> None:
    config = manual(stage_orders="announce")
    earned = sheet(config, {B.POKER: 0})  # one turn played: up to 3 fences banked
    state = position(config, [earned] * 2, fences=(2, 0))
    thrown = throw(state, (1, 2, 3, 4, 6))
    announced = dp.apply(thrown, dp.Announce(B.CHANCE))
    assert announced.throws_used == 1
    assert announced.fences == (2, 0)
    assert announced.dice == thrown.dice
    # 3 + 2 fences: 5 throws, the announcement not among them
    assert rolls(throw_times(announced, 3, (1, 2, 3, 4, 6)))
    assert not rolls(throw_times(announced, 4, (1, 2, 3, 4, 6)))
    assert dp.apply(announced, dp.Write(B.CHANCE)).fences == (4, 0)


@pytest.mark.parametrize("order", ["free", "down", "up"])
def test_announce_is_only_played_in_announce_order(order: str) -> None:
    state = stage_with(order, *SHEET_ORDER) if order != "free" else start()
    box = B.ONES if order != "up" else B.CHANCE
    assert_illegal(
        throw(state, (1, 2, 3, 4, 6)),
        dp.Announce(box),
        f"'announce {box}' is played only in 'announce' order; stage 1 is played {order!r}",
    )


def test_the_announcement_ends_with_the_turn() -> None:
    thrown = throw(start(stage_orders="announce"), (1, 2, 3, 4, 6))
    after = dp.apply(dp.apply(thrown, dp.Announce(B.CHANCE)), dp.Write(B.CHANCE))
    assert after.announced is None
    # seat 1 throws and announces afresh
    assert announces(throw(after, (1, 1, 3, 4, 6))) == set(SHEET_ORDER)


# --- scratching before the first throw, in every order --------------------------------


@pytest.mark.parametrize(
    ("order", "open_boxes", "scratchable"),
    [
        ("free", SHEET_ORDER, set(POKER)),
        ("free", (B.ONES, B.PAIR, B.POKER), {B.PAIR, B.POKER}),
        ("down", SHEET_ORDER, set()),
        ("down", SHEET_ORDER[5:], set()),  # SIXES next: a mountain box is never scratched
        ("down", POKER, {B.PAIR}),
        ("down", (B.CHANCE,), {B.CHANCE}),
        ("up", SHEET_ORDER, {B.CHANCE}),
        ("up", SHEET_ORDER[:-1], {B.POKER}),
        ("up", MOUNTAIN, set()),  # SIXES next
        ("announce", SHEET_ORDER, set(POKER)),
        ("announce", (B.ONES, B.PAIR, B.POKER), {B.PAIR, B.POKER}),
    ],
)
def test_a_poker_box_may_be_scratched_before_the_first_throw_when_the_order_allows_it_now(
    order: str, open_boxes: tuple[dp.Box, ...], scratchable: set[dp.Box]
) -> None:
    state = stage_with(order, *open_boxes)
    assert set(dp.legal_moves(state)) == {dp.Roll()} | {dp.Scratch(box) for box in scratchable}
    for box in scratchable:
        assert dp.apply(state, dp.Scratch(box)).cell(0, 0, box) == 0
    for box in set(open_boxes) - scratchable:
        with pytest.raises(IllegalMoveError):
            dp.apply(state, dp.Scratch(box))


# --- one order per stage, or one for all -----------------------------------------------


def test_each_stage_follows_its_own_order() -> None:
    config = manual(players=1, stages=3, stage_orders=("down", "up", "announce"))
    assert config.stage_orders == ("down", "up", "announce")
    first = start(config)
    assert fillable(first) == {B.ONES}
    second = position(config, [sheet(config, full_stage())])
    assert fillable(second) == {B.CHANCE}
    assert scratches(second) == {B.CHANCE}
    third = position(config, [sheet(config, full_stage(), full_stage())])
    assert announces(throw(third, (1, 2, 3, 4, 6))) == set(SHEET_ORDER)


@pytest.mark.parametrize("orders", ["up", ("up",)])
def test_a_single_order_applies_to_every_stage(orders: str | tuple[str, ...]) -> None:
    config = manual(players=1, stages=3, stage_orders=orders)
    assert config.stage_orders == ("up",)
    for filled in range(3):
        state = position(config, [sheet(config, *[full_stage()] * filled)])
        assert state.stage == filled
        assert fillable(state) == {B.CHANCE}


def test_a_stage_order_counts_from_the_stage_not_the_turn() -> None:
    # stage 2 in down order starts again at ONES, whatever stage 1 ended on
    config = manual(players=1, stages=2, stage_orders="down")
    state = position(config, [sheet(config, all_but(full_stage(), B.CHANCE))])
    assert fillable(state) == {B.CHANCE}
    state = fill(state, B.CHANCE)
    assert state.stage == 1
    assert fillable(state) == {B.ONES}
