"""Palace move notation: every form, every error, and round trips over random games."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError, NotationError
from tabletop_rules.testing.checks import check_notation_round_trip

from .helpers import play, position
from .test_properties import configs, playout, playout_settings, seeds

RULES: Any = SimpleNamespace(
    legal_moves=p.legal_moves, format_move=p.format_move, parse_move=p.parse_move
)


def sevens() -> p.State:
    """Seat 0 holds three 7s, a 10 and a queen; a 5 is on the pile."""
    return position(hands=["7C 7H 7S 10D QS", "4C"], pile="5D")


# --- format_move ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (play("7S 7H"), "play 7H 7S"),
        (play("10D"), "play 10D"),
        (p.TakePile(), "take"),
        (p.PlayBlind(2), "blind 2"),
        (p.Swap(p.Card.parse("4H"), p.Card.parse("QS")), "swap 4H QS"),
        (p.Ready(), "ready"),
        (p.EndTurn(), "end"),
    ],
)
def test_each_move_has_its_text_and_reads_back(move: p.Move, text: str) -> None:
    assert p.format_move(move) == text
    assert p.read_move(text) == move


def test_format_move_of_what_is_no_move_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not a palace move"):
        p.format_move("take")  # type: ignore[arg-type]


# --- read_move ----------------------------------------------------------------------------


def test_case_and_extra_spaces_are_forgiven() -> None:
    assert p.read_move("  PLAY   7h  7S ") == play("7H 7S")
    assert p.read_move("Swap 4h qs") == p.Swap(p.Card.parse("4H"), p.Card.parse("QS"))
    assert p.read_move(" Take ") == p.TakePile()
    assert p.read_move("BLIND 0") == p.PlayBlind(0)


def test_ranks_only_read_as_the_lowest_suits_without_a_state() -> None:
    assert p.read_move("play 7 7") == play("7C 7D")
    assert p.read_move("play q") == play("QC")
    assert p.read_move("play 10 10 10 10 10") == play("10C 10C 10D 10H 10S")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty move text"),
        ("   ", "empty move text"),
        ("jump", "unknown move 'jump'"),
        ("play", "'play' needs cards or ranks"),
        ("play 7 7H", "ranks only .* or its cards"),
        ("play 1H", "'1H' is not a card"),
        ("play 7X", "'7X' is not a card"),
        ("blind", "'blind' needs a face-down slot"),
        ("blind 3", "'blind' needs a face-down slot"),
        ("blind one", "'blind' needs a face-down slot"),
        ("swap 4H", "'swap' needs a hand card and a face-up card"),
        ("swap 4H QS 5C", "'swap' needs a hand card and a face-up card"),
        ("swap 4 Q", "'4' is not a card"),
        ("take 2", "'take' takes nothing after it"),
        ("ready now", "'ready' takes nothing after it"),
    ],
)
def test_text_that_names_no_move_is_a_notation_error(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        p.read_move(text)
    with pytest.raises(NotationError, match=match):
        p.parse_move(sevens(), text)


def test_a_play_of_two_ranks_is_illegal_naming_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="a play lays cards of one rank, not 7 8"):
        p.read_move("play 7 8")
    with pytest.raises(IllegalMoveError, match="one rank, not 7H 8S"):
        p.parse_move(sevens(), "play 7H 8S")


def test_a_play_of_more_cards_than_four_decks_hold_is_illegal() -> None:
    with pytest.raises(IllegalMoveError, match="a play lays 1 to 16 cards"):
        p.read_move("play" + " 7" * 17)


@pytest.mark.parametrize("text", [None, 7, b"take", ["take"]])
def test_text_that_is_not_a_string_is_a_notation_error(text: object) -> None:
    with pytest.raises(NotationError, match="move text is a string"):
        p.read_move(text)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="move text is a string"):
        p.parse_move(sevens(), text)  # type: ignore[arg-type]


def test_a_long_text_is_quoted_short() -> None:
    with pytest.raises(NotationError) as caught:
        p.read_move("jump " * 10_000)
    assert len(str(caught.value)) < 200


# --- parse_move -----------------------------------------------------------------------------


def test_ranks_only_name_the_players_own_cards_as_listed() -> None:
    state = sevens()
    two = p.parse_move(state, "play 7 7")
    assert two == play("7C 7H")
    assert any(two is move for move in p.legal_moves(state))
    assert p.parse_move(state, "play 7 7 7") == play("7C 7H 7S")
    assert p.parse_move(state, "play q") == play("QS")
    assert p.parse_move(state, "play 10") == play("10D")


def test_exact_cards_of_other_suits_name_the_listed_play() -> None:
    state = sevens()
    assert p.parse_move(state, "play 7S 7H") == play("7C 7H")
    assert p.parse_move(state, "play 7s") == play("7C")


def test_other_words_name_the_listed_move() -> None:
    state = position(p.Config(voluntary_pickup=True), hands=["7C 7H", "4C"], pile="5D")
    take = p.parse_move(state, "take")
    assert take == p.TakePile()
    assert any(take is move for move in p.legal_moves(state))
    swapping = p.new_game(seed=1)
    assert p.parse_move(swapping, "ready") == p.Ready()


def test_ranks_only_more_than_held_is_illegal_naming_the_count() -> None:
    with pytest.raises(IllegalMoveError, match="seat 0 holds only 3 7s in hand, not 4"):
        p.parse_move(sevens(), "play 7 7 7 7")
    with pytest.raises(IllegalMoveError, match="seat 0 holds no 9s in hand, not 1"):
        p.parse_move(sevens(), "play 9")


def test_ranks_only_a_rank_the_pile_forbids_names_that_rule_first() -> None:
    state = position(hands=["7C 7H 7S 10D QS", "4C"], pile="9D")
    with pytest.raises(IllegalMoveError, match="7C is lower than the 9D on the pile"):
        p.parse_move(state, "play 7 7")
    with pytest.raises(IllegalMoveError, match="7C is lower than the 9D on the pile"):
        p.parse_move(state, "play 7 7 7 7")


def test_cards_not_held_are_illegal_naming_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="seat 0 does not hold 9C in hand"):
        p.parse_move(sevens(), "play 9C")


def test_ranks_only_out_of_turn_rules_are_named() -> None:
    with pytest.raises(IllegalMoveError, match="in the swap phase"):
        p.parse_move(p.new_game(seed=1), "play 7")
    must_take = position(hands=["7C 7H", "4C"], pile="3D", pending="take")
    with pytest.raises(IllegalMoveError, match="a 3 is on top of the pile"):
        p.parse_move(must_take, "play 7")
    blind = position(hands=["", "4C"], down=["7C 8C 9C", "- - -"], pile="5D")
    with pytest.raises(IllegalMoveError, match="turn a face-down card"):
        p.parse_move(blind, "play 7")
    assert p.parse_move(blind, "blind 1") == p.PlayBlind(1)


def test_ranks_only_from_the_face_up_row() -> None:
    config = p.Config(face_up_play="from_table")
    state = position(
        config, hands=["", "4C"], up=["7S 7H 9C", "- - -"], down=["4D 5H 6S", "- - -"], pile="5D"
    )
    assert p.parse_move(state, "play 7 7") == play("7H 7S")
    with pytest.raises(IllegalMoveError, match="holds only 2 7s in the face-up row, not 3"):
        p.parse_move(state, "play 7 7 7")


def test_illegal_other_moves_name_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="'end' ends a turn only after four of a kind"):
        p.parse_move(sevens(), "end")
    with pytest.raises(IllegalMoveError, match="a player who can play does not take the pile"):
        p.parse_move(sevens(), "take")
    with pytest.raises(IllegalMoveError, match="the swap phase is over"):
        p.parse_move(sevens(), "swap 7C 4C")


def test_parse_move_needs_a_state() -> None:
    with pytest.raises(TypeError, match="parse_move needs a palace State"):
        p.parse_move("state", "take")  # type: ignore[arg-type]


# --- round trips over random games ----------------------------------------------------------


@playout_settings
@given(configs(), seeds, seeds)
def test_every_listed_move_round_trips_through_its_text(
    config: p.Config, seed: int, chooser: int
) -> None:
    for state, _move in playout(config, seed, chooser)[::2]:
        check_notation_round_trip(RULES, state)
        for move in p.legal_moves(state):
            text = p.format_move(move)
            assert p.read_move(text) == move
            assert p.read_move(text.upper().replace(" ", "  ")) == move
            if type(move) is p.Play:
                ranks = " ".join(text.split()[1:]).translate({ord(s): None for s in "CDHS"})
                assert p.parse_move(state, "play " + ranks) is move


@playout_settings
@given(configs(), seeds, seeds)
def test_the_played_move_of_a_random_game_parses_to_its_canonical_move(
    config: p.Config, seed: int, chooser: int
) -> None:
    for state, move in playout(config, seed, chooser)[:-1]:
        assert p.parse_move(state, p.format_move(move)) is p.canonical(state, move)
