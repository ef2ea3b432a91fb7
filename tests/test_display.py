"""The plain-text score sheet: one row per box, one column per seat and stage."""

from __future__ import annotations

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.dice_poker.moves import MOUNTAIN
from tabletop_rules.dice_poker.notation import parse_box
from tabletop_rules.simulate import play_game

MANUAL = dp.Config(stages=1, auto_chance=False)


def play(state: dp.State, *texts: str) -> dp.State:
    """Play moves given in notation, chance outcomes included."""
    for text in texts:
        state = dp.apply(state, dp.parse_move(state, text))
    return state


def rows(table: str) -> dict[str, list[str]]:
    """The table's rows by their first cell, each cell stripped; rules and status left out."""
    result = {}
    for line in table.splitlines():
        if " | " in line or line.endswith(" |"):
            name, *cells = (cell.strip() for cell in line.split("|"))
            result[name] = cells
    return result


def tied_game() -> dp.State:
    """Two seats play the same moves throughout one stage, so they tie."""
    state = dp.new_game(MANUAL, seed=0)
    for box in dp.Box:
        for _seat in range(2):
            if box.is_mountain:
                state = play(state, "roll", "dice 1 2 3 4 5", f"write {box}")
            else:
                state = play(state, f"scratch {box}")
    return state


def test_every_box_is_a_row_named_as_in_the_notation() -> None:
    table = rows(dp.display(dp.new_game(seed=1)))
    box_rows = list(table)[1:16]
    assert box_rows == [str(box) for box in dp.Box]
    assert [parse_box(name) for name in box_rows] == list(dp.Box)


def test_each_stage_adds_mountain_premium_and_total_rows() -> None:
    table = rows(dp.display(dp.new_game(seed=1)))
    assert list(table)[16:19] == ["mountain", "premium", "total"]


def test_columns_are_seats_by_stages() -> None:
    state = dp.new_game(dp.Config(players=3, stages=2), seed=1)
    assert rows(dp.display(state))["box"] == [
        "P0 s1",
        "P0 s2",
        "P1 s1",
        "P1 s2",
        "P2 s1",
        "P2 s2",
    ]


def test_open_boxes_are_blank() -> None:
    table = rows(dp.display(dp.new_game(seed=1)))
    for box in dp.Box:
        assert table[str(box)] == [""] * 6


def test_a_written_box_shows_its_points_under_its_seat_and_stage() -> None:
    state = play(dp.new_game(MANUAL, seed=1), "roll", "dice 4 1 2 3 5", "write fours")
    state = play(state, "roll", "dice 6 6 6 6 2", "write four_kind")
    table = rows(dp.display(state))
    assert table["fours"] == ["-8", ""]
    assert table["four_kind"] == ["", "24"]


def test_a_scratched_box_shows_the_zero_it_scores() -> None:
    state = play(dp.new_game(MANUAL, seed=1), "scratch poker")
    assert rows(dp.display(state))["poker"] == ["0", ""]


def test_mountain_row_sums_the_boxes_written_so_far() -> None:
    state = dp.new_game(dp.Config(players=1, stages=1, auto_chance=False), seed=1)
    state = play(state, "roll", "dice 1 1 1 1 5", "write ones", "roll", "dice 2 3 4 5 6")
    state = play(state, "write twos")
    table = rows(dp.display(state))
    assert table["mountain"] == ["-3"], "four ones +1, one two -4"
    assert table["premium"] == [""], "no premium until the mountain is complete"


def test_a_complete_mountain_shows_its_premium_and_the_stage_total() -> None:
    config = dp.Config(players=1, stages=1, premium=7, penalty=3, auto_chance=False)
    state = dp.new_game(config, seed=1)
    for box in MOUNTAIN:
        state = play(state, "roll", "dice " + f"{box.face} " * 4 + "1", f"write {box}")
    table = rows(dp.display(state))
    mountain = 1 * 2 + 2 + 3 + 4 + 5 + 6  # four ONES count five
    assert table["mountain"] == [str(mountain)]
    assert table["premium"] == ["7"]
    assert table["total"] == [str(mountain + 7)]


def test_a_negative_mountain_shows_the_penalty() -> None:
    config = dp.Config(players=1, stages=1, premium=7, penalty=3, auto_chance=False)
    state = dp.new_game(config, seed=1)
    for box in MOUNTAIN:
        state = play(state, "roll", "dice 1 2 3 4 5", f"write {box}")
    assert rows(dp.display(state))["premium"] == ["-3"]


def test_totals_add_up_to_the_scores_of_a_whole_game() -> None:
    game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=3)], seed=3)
    table = rows(dp.display(game.final))
    totals = [int(cell) for cell in table["total"]]
    scores = [int(cell) for cell in table["score"] if cell]
    assert scores == list(game.score)
    assert [sum(totals[0:3]), sum(totals[3:6])] == scores


def test_fences_and_scores_appear_once_per_seat() -> None:
    state = play(dp.new_game(MANUAL, seed=1), "roll", "dice 1 2 3 4 5", "write chance")
    table = rows(dp.display(state))
    assert table["fences"] == ["2", "0"]
    assert table["score"] == ["15", "0"]
    config = dp.Config(players=2, stages=3)
    table = rows(dp.display(dp.new_game(config, seed=1)))
    assert table["fences"] == ["0", "", "", "0", "", ""]


def test_a_state_draws_as_its_spectator_and_player_views() -> None:
    state = play(dp.new_game(MANUAL, seed=1), "roll", "dice 2 2 5 5 6", "write two_pairs")
    drawn = dp.display(state)
    assert drawn == dp.display(dp.view(state, None))
    assert drawn == dp.display(dp.view(state, 0))
    assert drawn == dp.display(dp.view(state, 1))


def test_status_names_the_seat_to_move_and_the_turn_so_far() -> None:
    state = play(dp.new_game(MANUAL, seed=1), "roll", "dice 6 6 6 1 2")
    assert dp.display(state).splitlines()[-1] == (
        "to move: P0, stage 1, throw 1 of 3, dice 1 2 6 6 6"
    )


def test_status_shows_dice_in_the_air() -> None:
    state = play(dp.new_game(MANUAL, seed=1), "roll", "dice 6 6 6 1 2", "roll keep 6 6 6")
    assert dp.display(state).splitlines()[-1] == "dice in the air (kept: 6 6 6)"


def test_status_shows_the_announced_box() -> None:
    config = dp.Config(stages=1, stage_orders="announce", auto_chance=False)
    state = play(dp.new_game(config, seed=1), "roll", "dice 6 6 6 1 2", "announce sixes")
    assert dp.display(state).splitlines()[-1].endswith(", announced sixes")


def test_status_names_the_winner_at_the_end() -> None:
    game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=3)], seed=3)
    (winner,) = game.winners
    assert dp.display(game.final).splitlines()[-1] == f"game over: winner P{winner}"


def test_status_names_every_winner_of_a_tie() -> None:
    state = tied_game()
    assert dp.winners(state) == {0, 1}
    assert dp.display(state).splitlines()[-1] == "game over: winners P0, P1"


def test_lines_have_no_trailing_spaces_and_no_final_newline() -> None:
    table = dp.display(dp.new_game(dp.Config(players=8), seed=1))
    assert not table.endswith("\n")
    assert all(line == line.rstrip() for line in table.splitlines())
    assert len(rows(table)["box"]) == 24
