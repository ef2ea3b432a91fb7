"""Account move notation: every form, every error, round trips over random games, and
``canonical``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import attrs
import pytest
from hypothesis import given

from tabletop_rules import account as a
from tabletop_rules.account.moves import MOVE_TABLE
from tabletop_rules.errors import IllegalMoveError, NotationError
from tabletop_rules.testing.checks import check_notation_round_trip

from .helpers import game, placed, rolled
from .test_properties import configs, playout, playout_settings, seeds

RULES: Any = SimpleNamespace(
    legal_moves=a.legal_moves, format_move=a.format_move, parse_move=a.parse_move
)


def after_roll(value: int) -> a.State:
    """Two players with one marker each on a five-card line; seat 0 has rolled ``value``."""
    return rolled(placed(game(["+10"] * 5), 0, 2), value)


# --- format_move and read_move ---------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (a.Place(3), "place 3"),
        (a.Place(19), "place 19"),
        (a.Buy(5), "buy 5"),
        (a.Roll(), "roll"),
        (a.Advance(0, "left", 3), "move 0 left 3"),
        (a.Advance(7, "right", 6), "move 7 right 6"),
        (a.Die(4), "die 4"),
    ],
)
def test_every_form_formats_and_reads_back(move: a.Move, text: str) -> None:
    assert a.format_move(move) == text
    assert a.read_move(text) == move


def test_every_move_of_every_config_reads_back_as_the_table_instance() -> None:
    for move in MOVE_TABLE.moves:
        assert a.read_move(a.format_move(move)) is move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("  PLACE   3 ", a.Place(3)),
        ("Buy 05", a.Buy(5)),
        ("place 000000000003", a.Place(3)),
        ("ROLL", a.Roll()),
        ("\tmove 0  LEFT\n3", a.Advance(0, "left", 3)),
        ("Move 2 Right 1", a.Advance(2, "right", 1)),
        ("die 4 ", a.Die(4)),
    ],
)
def test_case_and_spaces_are_forgiven(text: str, move: a.Move) -> None:
    assert a.read_move(text) == move


def test_a_str_subclass_is_read_as_its_plain_text() -> None:
    class Sneaky(str):
        def lower(self) -> str:
            raise AssertionError("must not be called")

    assert a.read_move(Sneaky("roll")) == a.Roll()


def test_format_move_refuses_what_is_no_move() -> None:
    with pytest.raises(TypeError, match="not an account move"):
        a.format_move("roll")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty move text"),
        ("   ", "empty move text"),
        ("jump 3", "unknown move 'jump 3': moves are 'place 3'"),
        ("roll 3", "'roll' needs nothing after it"),
        ("place", "'place' needs a column"),
        ("place 1 2", "'place' needs a column"),
        ("buy", "'buy' needs a column"),
        ("place x", "a column is a number, not 'x'"),
        ("place -1", "a column is a number, not '-1'"),
        ("place +1", "a column is a number, not '\\+1'"),
        ("place ٣", "a column is a number"),
        ("place 99999999", "a column is a number"),
        ("place 20", "a column is 0 to 19, not 20, in 'place 20'"),
        ("buy 20", "a column is 0 to 19, not 20"),
        ("die", "'die' needs the face shown"),
        ("die 0", "a die shows 1 to 6, not 0"),
        ("die 7", "a die shows 1 to 6, not 7"),
        ("die six", "a face is a number"),
        ("move 0 left", "'move' needs a marker, a direction and a distance"),
        ("move 0 left 3 4", "'move' needs a marker"),
        ("move 0 up 3", "a direction is 'left' or 'right', not 'up'"),
        ("move 0 3 left", "a direction is 'left' or 'right', not '3'"),
        ("move x left 3", "a marker is m0, m1, ..."),
        ("move 8 left 3", "a marker is m0 to m7, not .8."),
        ("move 0 left 0", "a distance is 1 to 6"),
        ("move 0 left 7", "a distance is 1 to 6"),
    ],
)
def test_text_naming_no_move_is_a_notation_error(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        a.read_move(text)
    with pytest.raises(NotationError, match=match):
        a.parse_move(after_roll(4), text)


@pytest.mark.parametrize("text", [None, 3, b"roll", ["roll"], a.Roll()])
def test_text_that_is_no_string_is_a_notation_error(text: object) -> None:
    with pytest.raises(NotationError, match="move text is a string"):
        a.read_move(text)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="move text is a string"):
        a.parse_move(after_roll(4), text)  # type: ignore[arg-type]


def test_long_input_is_quoted_short() -> None:
    with pytest.raises(NotationError) as caught:
        a.read_move("jump " + "x" * 10_000)
    assert len(str(caught.value)) < 300


# --- parse_move -------------------------------------------------------------------------


def test_parse_move_returns_the_listed_instance() -> None:
    state = after_roll(4)
    for text in ("move 0 left 4", "MOVE 0 RIGHT 1"):
        move = a.parse_move(state, text)
        assert any(move is listed for listed in a.legal_moves(state))
    setup = game(["+10"] * 5)
    assert a.parse_move(setup, "place 3") is a.legal_moves(setup)[3]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("move 0 left 5", "distance 5 exceeds the roll of 4"),
        ("roll", "a roll of 4 waits for its move"),
        ("die 3", "'die 3' is a chance outcome"),
        ("place 1", "'place 1' is for the starting markers in setup"),
        ("move 1 left 1", "there is no marker m1"),
    ],
)
def test_an_illegal_move_names_the_rule(text: str, match: str) -> None:
    state = after_roll(4)
    with pytest.raises(IllegalMoveError, match=match) as caught:
        a.parse_move(state, text)
    assert not isinstance(caught.value, NotationError)


def test_in_setup_only_places_on_the_line_are_legal() -> None:
    setup = game(["+10"] * 5)
    with pytest.raises(IllegalMoveError, match="in setup each player places"):
        a.parse_move(setup, "roll")
    with pytest.raises(IllegalMoveError, match="column"):
        a.parse_move(setup, "place 5")  # five columns: 0 to 4


def test_buying_after_the_roll_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="buying is only allowed before the first roll"):
        a.parse_move(after_roll(4), "buy 1")


def test_a_rolling_die_takes_only_its_outcome() -> None:
    state = a.apply(placed(game(["+10"] * 5), 0, 2), a.Roll())
    assert state.awaiting_die
    assert a.parse_move(state, "die 6") is a.legal_moves(state)[5]
    with pytest.raises(IllegalMoveError, match="the die is rolling"):
        a.parse_move(state, "move 0 left 1")


@playout_settings
@given(configs(), seeds)
def test_notation_round_trips_over_random_games(config: a.Config, seed: int) -> None:
    for state in playout(config, seed):
        check_notation_round_trip(RULES, state)
        for move in a.legal_moves(state):
            assert a.parse_move(state, a.format_move(move)) is move


# --- canonical --------------------------------------------------------------------------


@playout_settings
@given(configs(), seeds)
def test_every_legal_move_is_its_own_canonical_move(config: a.Config, seed: int) -> None:
    for state in playout(config, seed)[::5]:
        for move in a.legal_moves(state):
            assert a.canonical(state, move) is move
            assert a.canonical(state, attrs.evolve(move)) is move  # an equal copy


def test_canonical_of_an_illegal_move_names_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="distance 5 exceeds the roll of 4"):
        a.canonical(after_roll(4), a.Advance(0, "left", 5))
    with pytest.raises(IllegalMoveError, match="in setup each player places"):
        a.canonical(game(["+10"] * 5), a.Roll())


def test_canonical_of_what_is_no_move_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="'roll' is not an account move"):
        a.canonical(game(["+10"] * 5), "roll")  # type: ignore[arg-type]


# --- parse_move from a view -------------------------------------------------------------


def test_a_view_parses_its_own_seats_moves() -> None:
    state = after_roll(4)
    seen = a.view(state, seat=0)
    move = a.parse_move(seen, "move 0 right 4")
    assert any(move is listed for listed in a.legal_moves(state))
    with pytest.raises(IllegalMoveError, match="distance 5 exceeds the roll of 4"):
        a.parse_move(seen, "move 0 left 5")
    with pytest.raises(NotationError, match="unknown move"):
        a.parse_move(seen, "jump")


@pytest.mark.parametrize("seat", [1, None])
def test_a_view_of_a_seat_not_on_turn_has_no_move(seat: int | None) -> None:
    with pytest.raises(IllegalMoveError, match="has no move now"):
        a.parse_move(a.view(after_roll(4), seat=seat), "move 0 left 1")


@playout_settings
@given(configs(), seeds)
def test_notation_round_trips_through_the_mover_s_view(config: a.Config, seed: int) -> None:
    for state in playout(config, seed)[::3]:
        seat = a.current_player(state)
        if seat is None or seat < 0:
            continue
        seen = a.view(state, seat=seat)
        for move in a.legal_moves(state):
            assert a.parse_move(seen, a.format_move(move)) is move


# --- a marker as the field draws it (issue 19, point 7) ---------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("move m0 left 3", a.Advance(0, "left", 3)),
        ("MOVE M2 right 1", a.Advance(2, "right", 1)),
        ("move m07 left 6", a.Advance(7, "left", 6)),
    ],
)
def test_the_notation_takes_a_marker_as_the_field_draws_it(text: str, move: a.Move) -> None:
    assert a.read_move(text) == move


def test_the_marker_as_a_bare_number_is_still_read_and_still_written() -> None:
    assert a.read_move("move 1 right 2") == a.read_move("move m1 right 2")
    assert a.format_move(a.Advance(1, "right", 2)) == "move 1 right 2"


def test_parse_move_gives_the_listed_move_for_a_marker_as_drawn() -> None:
    state = after_roll(4)
    assert a.parse_move(state, "move m0 left 4") is a.parse_move(state, "move 0 left 4")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("move m8 left 3", "a marker is m0 to m7, not 'm8'"),
        ("move m left 3", "a marker is m0, m1, ... \\(or its number\\), not 'm'"),
        ("move mm0 left 3", "a marker is m0, m1, ..."),
        ("place m0", "a column is a number, not 'm0'"),
    ],
)
def test_a_marker_that_no_field_draws_is_a_notation_error(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        a.read_move(text)
