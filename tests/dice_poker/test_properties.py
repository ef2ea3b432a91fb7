"""Properties of every reachable dice poker state, checked over random playouts.

Each expectation is computed here from the rules page, not with the library's own scoring
helpers, so a wrong table or formula in the library cannot agree with itself.
"""

from __future__ import annotations

from itertools import permutations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.moves import POKER_BOXES
from tabletop_rules.dice_poker.state import Sheet
from tabletop_rules.testing import Playout, random_playout

from .helpers import reference_points, reference_score
from .strategies import configs

Box = dp.Box
MOUNTAIN = range(6)  # ONES..SIXES, in sheet order
PER_STAGE = 15

playout_settings = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
seeds = st.integers(0, 2**64 - 1)


@st.composite
def playouts(draw: st.DrawFn) -> Playout:
    config = draw(configs())
    return random_playout(dp.RULES, config, draw(seeds), draw(seeds))


def stage_cells(sheet: Sheet, stage: int) -> Sheet:
    return sheet[PER_STAGE * stage : PER_STAGE * (stage + 1)]


def poker_scores(config: dp.Config, box: Box) -> set[int]:
    """Every score a poker box can hold once written (scratching adds 0)."""
    faces = range(1, 7)
    pairs = list(permutations(faces, 2))
    scores = {
        Box.PAIR: {2 * f for f in faces},
        Box.TWO_PAIRS: {2 * (a + b) for a, b in pairs},
        Box.THREE_KIND: {3 * f for f in faces},
        Box.FOUR_KIND: {4 * f for f in faces},
        Box.FULL_HOUSE: {3 * a + 2 * b for a, b in pairs},
        Box.SMALL_STRAIGHT: {config.box_scores.small_straight},
        Box.LARGE_STRAIGHT: {config.box_scores.large_straight},
        Box.POKER: {config.box_scores.poker},
        Box.CHANCE: set(range(5, 31)),
    }
    return scores[box]


@playout_settings
@given(playouts())
def test_the_score_is_the_sheet_summed_with_premiums_and_penalties(playout: Playout) -> None:
    for state in playout.states:
        expected = tuple(reference_score(state.config, sheet) for sheet in state.sheets)
        assert dp.score(state) == expected


@playout_settings
@given(playouts())
def test_the_winners_have_the_top_final_score(playout: Playout) -> None:
    final = playout.final
    scores = [reference_score(final.config, sheet) for sheet in final.sheets]
    top = max(scores)
    assert dp.winners(final) == {seat for seat, score in enumerate(scores) if score == top}


@playout_settings
@given(playouts())
def test_fences_are_never_negative_nor_over_the_cap(playout: Playout) -> None:
    config = playout.final.config
    for state in playout.states:
        for bank in state.fences:
            assert bank >= 0
            if config.max_fences is not None:
                assert bank <= config.max_fences
            if not config.fences:
                assert bank == 0


@playout_settings
@given(playouts())
def test_a_turn_throws_at_most_its_throws_plus_the_fences_it_may_spend(playout: Playout) -> None:
    config = playout.final.config
    for state in playout.states:
        bank = state.fences[state.seat]
        spendable = 0
        if config.fences:
            spendable = bank
            if config.max_fences_per_turn is not None:
                spendable = min(bank, config.max_fences_per_turn)
        assert 0 <= state.throws_used <= config.throws_per_turn + spendable


@playout_settings
@given(playouts())
def test_the_bank_changes_only_at_turn_end_by_the_throws_left(playout: Playout) -> None:
    config = playout.final.config
    for before, after in zip(playout.states, playout.states[1:], strict=False):
        seat = before.seat
        if after.turns_played == before.turns_played:
            assert after.fences == before.fences
            continue
        expected = before.fences[seat]
        if config.fences:
            expected += config.throws_per_turn - before.throws_used
            if config.max_fences is not None:
                expected = min(expected, config.max_fences)
        assert after.fences[seat] == expected
        others = [bank for other, bank in enumerate(after.fences) if other != seat]
        assert others == [bank for other, bank in enumerate(before.fences) if other != seat]


@playout_settings
@given(playouts())
def test_every_mountain_cell_is_count_minus_three_times_face(playout: Playout) -> None:
    final = playout.final
    for sheet in final.sheets:
        for stage in range(final.config.stages):
            cells = stage_cells(sheet, stage)
            for box in MOUNTAIN:
                face = box + 1
                assert cells[box] in {(count - 3) * face for count in range(6)}


@playout_settings
@given(playouts())
def test_every_poker_cell_is_zero_or_a_score_the_box_can_take(playout: Playout) -> None:
    final = playout.final
    for sheet in final.sheets:
        for stage in range(final.config.stages):
            cells = stage_cells(sheet, stage)
            for box in POKER_BOXES:
                assert cells[box] in {0} | poker_scores(final.config, box), box


@playout_settings
@given(playouts())
def test_a_written_box_holds_what_the_dice_score_and_a_scratched_one_zero(
    playout: Playout,
) -> None:
    for before, move, after in zip(playout.states, playout.moves, playout.states[1:], strict=False):
        if isinstance(move, dp.Write | dp.Scratch):
            cell = after.cell(before.seat, before.stage, move.box)
            if isinstance(move, dp.Scratch):
                assert cell == 0
            else:
                assert cell == reference_points(move.box, before.dice, before.config.box_scores)
                assert cell is not None, f"{move.box.name} written with {before.dice}"


@playout_settings
@given(playouts())
def test_every_box_the_dice_fit_can_be_written_in_free_order(playout: Playout) -> None:
    for state in playout.states:
        order = state.config.stage_order(state.stage)
        if not state.dice or state.pending_keep is not None or order != "free":
            continue
        writable = {move.box for move in dp.legal_moves(state) if isinstance(move, dp.Write)}
        fitting = {
            box
            for box in state.open_boxes(state.seat, state.stage)
            if reference_points(box, state.dice, state.config.box_scores) is not None
        }
        assert writable == fitting


@playout_settings
@given(playouts())
def test_one_box_is_filled_per_turn(playout: Playout) -> None:
    for state in playout.states:
        filled = [sum(cell is not None for cell in sheet) for sheet in state.sheets]
        assert sum(filled) == state.turns_played
        rounds, seat = divmod(state.turns_played, state.config.players)
        assert filled == [rounds + (player < seat) for player in range(state.config.players)]
    final = playout.final
    assert all(None not in sheet for sheet in final.sheets)


@playout_settings
@given(playouts())
def test_the_sheet_changes_by_one_cell_of_the_seat_on_turn_at_turn_end(playout: Playout) -> None:
    for before, after in zip(playout.states, playout.states[1:], strict=False):
        if after.turns_played == before.turns_played:
            assert after.sheets == before.sheets
            continue
        assert after.turns_played == before.turns_played + 1
        changed = [
            (seat, index)
            for seat, (old, new) in enumerate(zip(before.sheets, after.sheets, strict=True))
            for index, (a, b) in enumerate(zip(old, new, strict=True))
            if a != b
        ]
        assert len(changed) == 1
        seat, index = changed[0]
        assert seat == before.seat
        assert index // PER_STAGE == before.stage
        assert before.sheets[seat][index] is None
        assert after.sheets[seat][index] is not None


@playout_settings
@given(playouts())
def test_down_and_up_orders_fill_the_next_box(playout: Playout) -> None:
    for before, after in zip(playout.states, playout.states[1:], strict=False):
        if after.turns_played == before.turns_played:
            continue
        order = before.config.stage_order(before.stage)
        open_boxes = before.open_boxes(before.seat, before.stage)
        filled = [
            box for box in open_boxes if after.cell(before.seat, before.stage, box) is not None
        ]
        if order == "down":
            assert filled == [open_boxes[0]]
        elif order == "up":
            assert filled == [open_boxes[-1]]


@playout_settings
@given(playouts())
def test_check_state_accepts_every_reachable_state(playout: Playout) -> None:
    for state in playout.states:
        dp.check_state(state)
