"""A turn: buying, one roll per marker, choosing the marker, direction and distance, the ring."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop_rules import account as r
from tabletop_rules.account.moves import Advance, Buy, Roll
from tabletop_rules.account.state import State
from tabletop_rules.errors import IllegalMoveError

from .helpers import game, placed, play, rolled

LINE = ["+1", "+10", "+15", "+25", "-1", "-10", "-15"]


def rich(**house: Any) -> State:
    """One player on column 0 of a line whose column 0 is T (1000 points)."""
    return placed(game(["T", *LINE[1:]], players=1, marker_cost=500, **house), 0)


def test_a_player_may_buy_a_marker_for_the_cost_and_its_card_scores_at_once() -> None:
    state = rich()
    assert Buy(3) in r.legal_moves(state)
    state = r.apply(state, Buy(3))
    assert state.markers == ((0, 3),)
    assert state.accounts == (1000 - 500 + 25,)


def test_the_default_marker_cost_is_2000() -> None:
    state = placed(game(["T", "+1"], players=1), 0)
    assert state.config.marker_cost == 2000
    assert [m for m in r.legal_moves(state) if isinstance(m, Buy)] == []
    with pytest.raises(
        IllegalMoveError, match="account of 1000 does not cover the marker cost of 2000"
    ):
        r.apply(state, Buy(1))


def test_several_markers_may_be_bought_in_a_row_up_to_max_markers() -> None:
    state = play(rich(max_markers=3), Buy(1), Buy(2))
    assert state.markers == ((0, 1, 2),)
    assert [m for m in r.legal_moves(state) if isinstance(m, Buy)] == []
    with pytest.raises(IllegalMoveError, match="seat 0 owns 3 markers, the limit"):
        r.apply(state, Buy(1))


def test_buying_is_only_allowed_before_the_first_roll() -> None:
    state = rolled(rich(), 2)
    with pytest.raises(IllegalMoveError, match="buying is only allowed before the first roll"):
        r.apply(state, Buy(1))
    state2 = placed(game(["T", "T", "+1"], players=1, marker_cost=500), 0)
    state2 = r.apply(state2, Buy(1))
    state2 = rolled(state2, 1)
    state2 = r.apply(state2, Advance(0, "right", 1))
    with pytest.raises(IllegalMoveError, match="buying is only allowed before the first roll"):
        r.apply(state2, Buy(2))
    assert Buy(2) not in r.legal_moves(state2)


def test_one_roll_per_marker_including_markers_bought_this_turn() -> None:
    state = r.apply(rich(), Buy(1))
    state = rolled(state, 1)
    state = r.apply(state, Advance(0, "right", 1))
    assert state.seat == 0
    assert state.moved == (0,)
    assert r.legal_moves(state) == (Roll(),)
    state = rolled(state, 1)
    state = r.apply(state, Advance(1, "right", 1))
    assert state.turns == 1
    assert state.moved == ()


def test_a_roll_must_be_followed_by_exactly_one_advance() -> None:
    state = rolled(rich(), 3)
    with pytest.raises(IllegalMoveError, match="waits for its move"):
        r.apply(state, Roll())
    with pytest.raises(IllegalMoveError, match="roll first"):
        r.apply(rich(), Advance(0, "right", 1))


def test_the_player_picks_any_marker_not_yet_moved() -> None:
    state = r.apply(rich(), Buy(4))
    state = rolled(state, 2)
    assert {m.marker for m in r.legal_moves(state) if isinstance(m, Advance)} == {0, 1}
    state = r.apply(state, Advance(1, "left", 2))
    state = rolled(state, 2)
    assert {m.marker for m in r.legal_moves(state) if isinstance(m, Advance)} == {0}
    with pytest.raises(IllegalMoveError, match="marker m1 has moved this turn already"):
        r.apply(state, Advance(1, "left", 1))
    with pytest.raises(IllegalMoveError, match="there is no marker m2"):
        r.apply(state, Advance(2, "left", 1))


def test_direction_left_or_right_and_distance_from_1_to_the_roll() -> None:
    state = rolled(rich(), 4)
    moves = r.legal_moves(state)
    assert moves == tuple(
        Advance(0, direction, steps) for direction in ("left", "right") for steps in range(1, 5)
    )
    with pytest.raises(IllegalMoveError, match="distance 5 exceeds the roll of 4"):
        r.apply(state, Advance(0, "right", 5))


def test_right_is_towards_the_last_column_and_only_the_landing_card_scores() -> None:
    state = r.apply(rolled(rich(), 3), Advance(0, "right", 3))
    assert state.markers == ((3,),)
    assert state.accounts == (1000 + 25,)


def test_the_line_is_a_ring_moving_past_an_end_continues_from_the_other() -> None:
    state = r.apply(rolled(rich(), 2), Advance(0, "left", 2))
    assert state.markers == ((5,),)
    assert state.accounts == (1000 - 10,)


def test_a_distance_of_a_full_lap_or_more_is_allowed() -> None:
    state = placed(game(["+1", "+10", "+15"], players=1), 1)
    lap = r.apply(rolled(state, 3), Advance(0, "right", 3))
    assert lap.markers == ((1,),)
    assert lap.accounts == (20,)
    more = r.apply(rolled(state, 5), Advance(0, "right", 5))
    assert more.markers == ((0,),)
    assert more.accounts == (11,)


def test_moves_landing_on_the_same_card_by_different_paths_are_different_moves() -> None:
    state = rolled(placed(game(["+1", "+10", "+15"], players=1), 0), 2)
    assert Advance(0, "left", 1) in r.legal_moves(state)
    assert Advance(0, "right", 2) in r.legal_moves(state)
    left = r.apply(state, Advance(0, "left", 1))
    right = r.apply(state, Advance(0, "right", 2))
    assert left == right  # same card, same result; both are listed moves


def test_the_turn_passes_to_the_next_seat() -> None:
    state = placed(game(LINE, players=3), 0, 1, 2)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert r.current_player(state) == 1
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert r.current_player(state) == 0
    assert state.rounds == 1


def test_there_is_no_passing() -> None:
    state = placed(game(LINE, players=1), 0)
    assert r.legal_moves(state) == (Roll(),)
    assert all(isinstance(m, Advance) for m in r.legal_moves(rolled(state, 1)))


def test_a_move_event_names_the_cells_passed_and_the_cell_landed_on() -> None:
    from tabletop_rules.account.events import Moved

    state = rolled(placed(game(LINE, players=1), 1), 4)
    _after, events = r.apply_with_events(state, Advance(0, "left", 4))
    moved = next(e for e in events if isinstance(e, Moved))
    assert (moved.start, moved.passed, moved.landed) == (1, (0, 6, 5), 4)
    assert str(moved.card) == "-1"


def test_max_moves_bounds_every_game() -> None:
    from tabletop_rules.account.config import Config

    assert r.max_moves(Config()) == 2 * 3 * (1 + 30 * 2)
    assert r.max_moves(Config(auto_chance=False)) == 2 * 3 * (1 + 30 * 3)
