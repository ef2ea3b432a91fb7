"""Players, stages and the length of the game: 15 boxes a stage, one box a turn."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tabletop_rules import dice_poker as dp

from .helpers import (
    SHEET_ORDER,
    all_but,
    assert_illegal,
    full_stage,
    manual,
    position,
    rolls,
    scratches,
    sheet,
    start,
    throw,
    write,
    writes,
)


def quick(state: dp.State) -> dp.Move:
    """Fill a box as fast as the rules allow: scratch at once, else throw and write."""
    for move in dp.legal_moves(state):
        if isinstance(move, dp.Scratch | dp.Write | dp.Dice):
            return move
    return dp.Roll()


def play_counting_turns(config: dp.Config) -> tuple[dp.State, list[int]]:
    """Play a whole game quickly; the seat of every turn, in order."""
    state = dp.new_game(config, seed=3)
    seats = []
    while not dp.is_over(state):
        seat = dp.current_player(state)
        move = quick(state)
        if isinstance(move, dp.Write | dp.Scratch):
            assert seat is not None
            seats.append(seat)
        state = dp.apply(state, move)
    return state, seats


def test_each_player_has_three_stages_of_fifteen_boxes() -> None:
    state = dp.new_game(dp.Config(), seed=1)
    assert [len(cells) for cells in state.sheets] == [45, 45]
    assert all(cell is None for cells in state.sheets for cell in cells)


@pytest.mark.parametrize(("players", "stages"), [(1, 3), (2, 3), (3, 1), (1, 5)])
def test_the_game_lasts_fifteen_turns_per_stage_per_player(players: int, stages: int) -> None:
    end, seats = play_counting_turns(dp.Config(players=players, stages=stages))
    assert len(seats) == 15 * stages * players
    assert all(seats.count(seat) == 15 * stages for seat in range(players))
    assert all(cell is not None for cells in end.sheets for cell in cells)
    assert all(len(cells) == 15 * stages for cells in end.sheets)


def test_one_box_is_filled_per_turn() -> None:
    state = start(players=2)
    turns: list[Callable[[dp.State], dp.State]] = [
        lambda s: write(s, dp.Box.CHANCE),
        lambda s: write(s, dp.Box.ONES),
        lambda s: dp.apply(s, dp.Scratch(dp.Box.POKER)),
        lambda s: write(s, dp.Box.SIXES, (6, 6, 6, 6, 6)),
    ]
    for turn, play in enumerate(turns, start=1):
        state = play(state)
        assert sum(cell is not None for cells in state.sheets for cell in cells) == turn
        assert dp.current_player(state) == turn % 2


def test_seat_zero_moves_first_then_in_seat_order() -> None:
    _, seats = play_counting_turns(dp.Config(players=4, stages=1))
    assert seats[:9] == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert seats == [turn % 4 for turn in range(60)]


@pytest.mark.parametrize("players", range(1, 9))
def test_one_to_eight_players_take_turns_in_seat_order(players: int) -> None:
    state = start(players=players)
    assert dp.current_player(state) == 0
    assert len(state.sheets) == len(state.fences) == players
    for seat in range(players):
        assert dp.current_player(state) == seat
        state = dp.apply(state, dp.Scratch(dp.Box.POKER))
        assert state.cell(seat, 0, dp.Box.POKER) == 0
    assert dp.current_player(state) == 0


def test_stage_two_opens_only_when_stage_one_is_full() -> None:
    config = manual(players=1, stages=2)
    state = position(config, [sheet(config, all_but(full_stage(), dp.Box.FULL_HOUSE))])
    assert state.stage == 0
    assert scratches(state) == {dp.Box.FULL_HOUSE}
    thrown = throw(state, (2, 2, 2, 5, 5))
    # only the last box of stage 1 may be filled, though all of stage 2 is empty
    assert writes(thrown) == {dp.Box.FULL_HOUSE}
    assert_illegal(thrown, dp.Write(dp.Box.CHANCE), "CHANCE of stage 1 is filled already")
    after = dp.apply(thrown, dp.Write(dp.Box.FULL_HOUSE))
    assert after.cell(0, 0, dp.Box.FULL_HOUSE) == 16
    assert after.stage == 1
    assert scratches(after) == {box for box in SHEET_ORDER if box.is_poker}
    second = dp.apply(throw(after, (2, 2, 2, 5, 5)), dp.Write(dp.Box.CHANCE))
    assert second.cell(0, 1, dp.Box.CHANCE) == 16
    assert second.sheets[0][15:].count(None) == 14


def test_stage_one_boxes_are_filled_before_any_of_stage_two() -> None:
    config = manual(players=1, stages=2)
    state = start(config)
    for box in SHEET_ORDER:
        assert state.stage == 0
        thrown = throw(state, (2, 3, 4, 5, 6))
        move = dp.Write(box) if box in writes(thrown) else dp.Scratch(box)
        state = dp.apply(thrown, move)
        assert state.cell(0, 0, box) is not None
        assert state.sheets[0][15:] == (None,) * 15
    assert state.stage == 1


def test_each_player_moves_to_the_next_stage_with_their_own_sheet() -> None:
    config = manual(players=2, stages=2)
    seat0 = sheet(config, full_stage())
    seat1 = sheet(config, all_but(full_stage(), dp.Box.CHANCE))
    state = position(config, [seat0, seat1])
    assert dp.current_player(state) == 1
    assert scratches(state) == {dp.Box.CHANCE}
    state = dp.apply(state, dp.Scratch(dp.Box.CHANCE))
    assert dp.current_player(state) == 0
    assert state.stage == 1
    assert scratches(state) == {box for box in SHEET_ORDER if box.is_poker}


def test_the_game_ends_when_every_player_has_filled_every_box() -> None:
    config = manual(players=2, stages=1)
    state = position(
        config, [sheet(config, full_stage()), sheet(config, all_but(full_stage(), dp.Box.PAIR))]
    )
    # seat 0 is done, seat 1 is not: the game goes on
    assert not dp.is_over(state)
    assert dp.current_player(state) == 1
    after = dp.apply(state, dp.Scratch(dp.Box.PAIR))
    assert dp.is_over(after)
    assert dp.current_player(after) is None
    assert dp.legal_moves(after) == ()


@pytest.mark.parametrize(
    "move", [dp.Roll(), dp.Scratch(dp.Box.PAIR), dp.Write(dp.Box.ONES), dp.Dice((1, 2, 3, 4, 5))]
)
def test_no_move_is_legal_once_the_game_is_over(move: dp.Move) -> None:
    config = manual(players=1, stages=1)
    over = position(config, [sheet(config, full_stage())])
    assert dp.is_over(over)
    assert not rolls(over)
    assert_illegal(over, move, "the game is over")
