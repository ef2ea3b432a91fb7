"""apply is total: any object gets a valid state or an IllegalMoveError, never a crash."""

from __future__ import annotations

import re

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError

from .helpers import assert_illegal, cards, play, position


@pytest.fixture
def state() -> p.State:
    return position(hands=["7C 7H 9S", "AD"], pile="5C")


class MyPlay(p.Play):
    pass


@pytest.mark.parametrize(
    "move", ["play 7C", None, 7, cards("7C")[0], (p.Play, cards("7C")), p.Config()]
)
def test_objects_that_are_no_move_are_refused(state: p.State, move: object) -> None:
    assert_illegal(state, move, "is not a palace move")


def test_a_subclass_of_a_move_is_refused(state: p.State) -> None:
    assert_illegal(state, MyPlay(cards("7C")), "is not a palace move")


def test_a_card_cannot_be_changed_even_around_its_checks() -> None:
    card = p.Card(7, "C")
    with pytest.raises(AttributeError):
        object.__setattr__(card, "rank", 99)
    assert card.rank == 7


def test_moves_after_the_game_is_over_are_refused() -> None:
    state = p.apply(position(hands=["9C", "AD"]), play("9C"))
    refused(state, p.TakePile(), "the game is over; 'take' is not a move")


# --- each rule's message names the moves in notation ------------------------------------


def refused(state: p.State, move: object, message: str) -> None:
    """``move`` is refused in ``state`` with exactly ``message``, the state unchanged."""
    assert_illegal(state, move, f"^{re.escape(message)}$")


def test_in_the_swap_phase_plays_and_takes_wait_until_play_starts() -> None:
    state = p.new_game(seed=1)
    rule = (
        "in the swap phase each player swaps a hand card for a face-up card ('swap') and "
        "then declares 'ready'; "
    )
    refused(state, play("4D"), rule + "'play 4D' waits until play starts")
    refused(state, p.TakePile(), rule + "'take' waits until play starts")


def test_once_play_starts_ready_is_no_move() -> None:
    state = p.apply(p.apply(p.new_game(seed=1), p.Ready()), p.Ready())
    refused(
        state,
        p.Ready(),
        "the swap phase is over: swaps happen once, before the first play; "
        "'ready' is not a move now",
    )


def test_after_six_swaps_the_player_declares_ready() -> None:
    state = p.new_game(seed=1)
    hand_card, up_card = cards("4D AH")
    for _ in range(3):
        state = p.apply(state, p.Swap(hand_card, up_card))
        state = p.apply(state, p.Swap(up_card, hand_card))
    refused(
        state,
        p.Swap(hand_card, up_card),
        "each player makes at most 6 swaps (enough for any arrangement); seat 0 has made "
        "them: declare 'ready'",
    )


def test_a_3_on_top_must_be_taken() -> None:
    state = p.apply(position(hands=["3C 9S", "AD 2D 10D"], pile="KC"), play("3C"))
    refused(
        state,
        play("2D"),
        "a 3 is on top of the pile: seat 1 must take the pile ('take'), not 'play 2D'",
    )


def test_with_hand_and_face_up_cards_gone_a_face_down_card_is_turned() -> None:
    state = position(hands=["", "AD"], down=["4C - -", "- - -"], pile="9S")
    refused(
        state,
        play("4C"),
        "seat 0's hand and face-up cards are gone: turn a face-down card ('blind' and its "
        "slot, e.g. 'blind 0'), not 'play 4C'",
    )


def test_after_four_of_a_kind_the_pile_is_not_taken() -> None:
    state = p.apply(position(hands=["7C 7D 7H 7S 9C", "AD"], pile="6C"), play("7C 7D 7H 7S"))
    refused(
        state,
        p.TakePile(),
        "after four of a kind lay another set on them or end the turn ('end'); "
        "the pile is not taken",
    )


def test_a_blind_card_is_no_extra_play() -> None:
    state = position(hands=["7C 7D 7H 7S", "AD"], down=["9C - -", "- - -"], pile="6C")
    state = p.apply(state, play("7C 7D 7H 7S"))
    refused(
        state,
        p.PlayBlind(0),
        "a blind card is never part of an extra play: lay another set or end the turn ('end')",
    )


def test_end_ends_a_turn_only_after_four_of_a_kind() -> None:
    refused(
        position(hands=["7C 9C", "AD"], pile="6C"),
        p.EndTurn(),
        "'end' ends a turn only after four of a kind (quad='extra_play'); otherwise a turn "
        "ends by playing or taking the pile",
    )


def test_a_state_that_is_no_state_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        p.legal_moves("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.apply("state", p.TakePile())  # type: ignore[arg-type]


def test_the_error_message_quotes_odd_input_briefly(state: p.State) -> None:
    with pytest.raises(IllegalMoveError) as error:
        p.apply(state, [0] * 100_000)  # type: ignore[arg-type]
    assert len(str(error.value)) < 200
