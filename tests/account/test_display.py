"""The field as text: column numbers, the rows above top first, the bottom line with its
markers, every account, the pack and the discard pile by size, and a status line."""

from __future__ import annotations

import pytest
from hypothesis import given

from tabletop_rules import account as a
from tabletop_rules import account as r
from tabletop_rules.account.cards import END
from tabletop_rules.account.moves import Advance, Buy, Roll
from tabletop_rules.protocol import CHANCE
from tabletop_rules.rng import Rng

from .helpers import game, placed, play, rolled
from .test_properties import configs, playout, playout_settings, seeds

BOTTOM = ["+1", "B", "+10", "-25"]
ABOVE = [["P", "Z", "T", "-1"], ["+15", "-15", "+25", "-10"]]
PACK = ["-1", "+25", "End", "+1"]


def a_field(**house: object) -> a.State:
    """Three rows of four columns and a pack of four; nothing placed yet."""
    return game(BOTTOM, ABOVE, PACK, **house)


def lines(game_or_view: a.State | a.View) -> list[str]:
    drawn: str = a.display(game_or_view)
    return drawn.splitlines()


def cells(line: str) -> list[str]:
    return line.split()


def status(state: a.State) -> str:
    return lines(state)[-1]


def test_columns_are_numbered_from_0_as_in_the_notation() -> None:
    assert cells(lines(a_field())[0]) == ["0", "1", "2", "3"]


def test_the_rows_above_come_top_row_first_then_a_rule_then_the_bottom_line() -> None:
    drawn = lines(a_field())
    assert cells(drawn[1]) == ABOVE[1], "the top row"
    assert cells(drawn[2]) == ABOVE[0], "the row just above the bottom line"
    assert set(drawn[3]) == {"-"}
    assert cells(drawn[4]) == BOTTOM


def test_every_card_stands_in_its_column() -> None:
    drawn = lines(a_field())
    for line in (drawn[1], drawn[2], drawn[4]):
        for column in range(4):
            assert line[4 * column : 4 * column + 3].strip() == cells(line)[column]
    assert len(drawn[3]) == len(drawn[0]) == 4 * 4 - 1


def test_each_marker_is_drawn_under_the_card_it_stands_on() -> None:
    state = placed(a_field(players=2), 2, 0)
    under = lines(state)[5]
    assert under[0:3].strip() == "P1"
    assert under[8:11].strip() == "P0"
    assert cells(under) == ["P1", "P0"]


def test_markers_sharing_a_card_stack_under_it_in_seat_order() -> None:
    state = placed(a_field(players=3, starting_markers=2, max_markers=2), 3, 3, 0, 3, 3, 2)
    drawn = lines(state)
    assert cells(drawn[5]) == ["P1", "P2", "P0"]
    assert drawn[5][12:15] == " P0"
    assert drawn[6][12:15] == " P0"
    assert drawn[7][12:15] == " P1"
    assert drawn[8][12:15] == " P2"
    assert drawn[9].startswith("P0:"), "four markers on column 3: four lines under it"


def test_each_seat_says_where_each_of_its_markers_stands() -> None:
    state = placed(a_field(players=2, starting_markers=2, max_markers=2), 3, 0, 2, 2)
    drawn = lines(state)
    assert "P0: account -24, 2 markers (m0 on 3, m1 on 0)" in drawn
    assert "P1: account  20, 2 markers (m0 on 2, m1 on 2)" in drawn


def test_a_seat_without_markers_shows_none() -> None:
    state = placed(a_field(players=2), 2)
    assert "P1: account  0, 0 markers" in lines(state)


def test_accounts_show_negative_values_aligned() -> None:
    state = placed(a_field(players=3), 3, 0, 2)
    accounts = [line for line in lines(state) if line.startswith("P") and ":" in line]
    assert accounts == [
        "P0: account -25, 1 marker (m0 on 3)",
        "P1: account   1, 1 marker (m0 on 0)",
        "P2: account  10, 1 marker (m0 on 2)",
    ]


def test_the_pack_and_the_discard_pile_show_by_size() -> None:
    state = placed(a_field(players=2), 0, 2)
    assert lines(state)[-2] == "pack 4, discard pile 0"
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert state.discard == (a.Card.parse("-1"),)
    assert lines(state)[-2] == "pack 3, discard pile 1"


def test_status_in_setup_names_the_seat_and_the_marker_it_places() -> None:
    state = a_field(players=2, starting_markers=2, max_markers=2)
    assert status(state) == "to move: P0, setup, place m0"
    assert status(placed(state, 1, 1)) == "to move: P1, setup, place m0"
    assert status(placed(state, 1, 1, 2)) == "to move: P1, setup, place m1"


def test_status_offers_buying_only_while_the_seat_may_buy() -> None:
    state = placed(a_field(players=2), 0, 2)
    assert status(state) == "to move: P0, round 1 of 30, roll"
    cheap = placed(a_field(players=2, marker_cost=1), 0, 2)
    assert status(cheap) == "to move: P0, round 1 of 30, buy or roll"
    bought = r.apply(cheap, Buy(2))
    assert status(bought) == "to move: P0, round 1 of 30, buy or roll"
    full = placed(a_field(players=2, marker_cost=1, max_markers=1), 0, 2)
    assert status(full) == "to move: P0, round 1 of 30, roll"


def test_status_shows_the_roll_and_the_markers_it_may_move() -> None:
    state = placed(a_field(players=2, marker_cost=0), 0, 2)
    state = rolled(play(state, Buy(1), Buy(3)), 4)
    assert status(state) == "to move: P0, round 1 of 30, rolled 4, move m0, m1 or m2"
    state = r.apply(state, Advance(1, "left", 1))
    assert status(state) == "to move: P0, round 1 of 30, roll (moved: m1)"
    state = rolled(state, 2)
    assert status(state) == "to move: P0, round 1 of 30, rolled 2, move m0 or m2"


def test_status_shows_a_die_in_the_air() -> None:
    state = r.apply(placed(a_field(players=2), 0, 2), Roll())
    assert r.current_player(state) == CHANCE
    assert status(state) == "die in the air: P0, round 1 of 30"


def test_status_counts_rounds_from_1() -> None:
    state = placed(a_field(players=2, floor_at_zero=True), 0, 0)
    for _turn in range(2):
        state = r.apply(rolled(state, 4), Advance(0, "right", 4))
    assert state.turns == 2
    assert status(state) == "to move: P0, round 2 of 30, roll"


def test_status_says_when_end_has_scored_and_the_round_is_the_last() -> None:
    state = placed(game(["+1", "End", "-1"], players=2, end="finish_round"), 0, 2)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert state.ending
    assert status(state) == "to move: P1, round 1 of 30, roll, End has scored: last round"


def test_status_names_the_winner_at_the_end() -> None:
    state = placed(game(["+10", "End"], players=2), 0, 1)
    assert r.is_over(state)
    assert status(state) == "game over: winner P0"


def test_status_names_every_winner_of_a_tie() -> None:
    state = placed(game(["End", "+1"], players=2), 0)
    assert r.winners(state) == {0, 1}
    assert status(state) == "game over: winners P0, P1"


def test_a_collapsed_card_leaves_its_place_empty_and_the_cards_above_drop() -> None:
    state = placed(a_field(players=2, collapse=True), 0, 2)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    drawn = lines(state)
    assert cells(drawn[1]) == [".", "-15", "+25", "-10"]
    assert cells(drawn[2]) == ["+15", "Z", "T", "-1"]
    assert cells(drawn[4]) == ["P", "B", "+10", "-25"]


def test_an_empty_column_draws_a_dot_on_the_bottom_line_and_no_marker() -> None:
    state = placed(game(["+1", "+10", "-1"], players=1, collapse=True), 0)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    drawn = lines(state)
    assert cells(drawn[2]) == [".", "+10", "-1"]
    assert drawn[3] == "     P0"


def test_eight_players_on_twenty_columns_fit_an_80_column_terminal() -> None:
    config = a.Config(players=8, rows=3, columns=20, starting_markers=3, max_markers=3)
    state = a.new_game(config, seed=5)
    safe = [column for column in range(20) if state.field[column][0] is not END]
    for placement in range(8 * 3):
        state = r.apply(state, a.Place(safe[(7 * placement) % len(safe)]))
    drawn = lines(state)
    assert max(map(len, drawn)) <= 80
    assert cells(drawn[0]) == [str(column) for column in range(20)]
    assert len(drawn[3]) == len(drawn[4]) == 79
    under = drawn[5 : drawn.index(next(line for line in drawn if line.startswith("P0:")))]
    assert sum(len(cells(line)) for line in under) == 8 * 3
    for seat in range(8):
        assert f"P{seat}: account" in a.display(state)


def test_a_state_draws_as_its_spectator_and_every_seat_sees_it() -> None:
    state = r.apply(rolled(placed(a_field(players=3), 0, 2, 3), 2), Advance(0, "right", 2))
    drawn = a.display(state)
    assert drawn == a.display(a.view(state, None))
    for seat in range(3):
        assert drawn == a.display(a.view(state, seat))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nothing_hidden_is_drawn_neither_pack_order_nor_seed(seed: int) -> None:
    state = a.new_game(a.Config(players=2), seed=987_654_321)
    state = r.apply(rolled(placed(state, 1, 4), 3), Advance(0, "left", 3))
    resampled = a.determinize(a.view(state, None), Rng.from_seed(seed))
    assert resampled.pack != state.pack
    assert resampled.seed != state.seed
    assert a.display(resampled) == a.display(state)
    assert "987654321" not in a.display(state)


def test_lines_have_no_trailing_spaces_and_no_final_newline() -> None:
    state = placed(a_field(players=2, collapse=True), 0, 2)
    text = a.display(r.apply(rolled(state, 1), Advance(0, "right", 1)))
    assert not text.endswith("\n")
    assert all(line == line.rstrip() for line in text.splitlines())


@playout_settings
@given(configs(), seeds)
def test_every_reachable_state_draws_its_whole_field_and_every_marker(
    config: a.Config, seed: int
) -> None:
    for state in playout(config, seed):
        drawn = lines(state)
        grid = drawn[1 : config.rows + 2]
        rows = [cells(line) for line in grid[:-2]] + [cells(grid[-1])]
        assert [len(row) for row in rows] == [config.columns] * config.rows
        for row, top in zip(rows, range(config.rows - 1, -1, -1), strict=True):
            for column, text in zip(state.field, row, strict=True):
                assert text == (str(column[top]) if top < len(column) else ".")
        under = drawn[config.rows + 2 : drawn.index(next(x for x in drawn if x.startswith("P0:")))]
        assert sum(len(cells(line)) for line in under) == sum(map(len, state.markers))
        hidden = a.determinize(a.view(state, None), Rng.from_seed(seed))
        assert a.display(hidden) == "\n".join(drawn)
