"""apply is total: any object gets a valid state or an IllegalMoveError, never a crash."""

from __future__ import annotations

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError

from .helpers import assert_illegal, cards, hand, play, position


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


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cards", ()),
        ("cards", "7C"),
        ("cards", (1, 2)),
        ("cards", [p.Card(7, "C")] * 100),
        ("cards", None),
    ],
)
def test_a_tampered_play_is_refused(state: p.State, field: str, value: object) -> None:
    move = play("7C")
    object.__setattr__(move, field, value)
    assert_illegal(state, move, "is not a palace move")


def test_a_tampered_card_is_refused(state: p.State) -> None:
    card = p.Card(7, "C")
    object.__setattr__(card, "rank", 99)
    assert_illegal(state, p.Play.__new__(p.Play), "is not a palace move")
    move = play("7C")
    object.__setattr__(move, "cards", (card,))
    assert_illegal(state, move, "is not a card")


def test_a_tampered_card_equal_to_a_real_one_is_replaced_by_the_deck_card(state: p.State) -> None:
    card = p.Card(8, "C")
    object.__setattr__(card, "rank", 7)
    move = play("7C")
    object.__setattr__(move, "cards", [card])
    after = p.apply(state, move)
    assert after.pile[-1] is p.Card.parse("7C")
    assert after.hands[0] == hand("7H 9S")


def test_a_tampered_blind_slot_is_refused() -> None:
    state = position(hands=["", "AD"], down=["4C - -", "- - -"])
    move = p.PlayBlind(0)
    object.__setattr__(move, "slot", 5)
    assert_illegal(state, move, "slot")


def test_moves_after_the_game_is_over_are_refused() -> None:
    state = p.apply(position(hands=["9C", "AD"]), play("9C"))
    assert_illegal(state, p.TakePile(), "the game is over")


def test_a_state_that_is_no_state_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        p.legal_moves("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.apply("state", p.TakePile())  # type: ignore[arg-type]


def test_the_error_message_quotes_odd_input_briefly(state: p.State) -> None:
    with pytest.raises(IllegalMoveError) as error:
        p.apply(state, [0] * 100_000)  # type: ignore[arg-type]
    assert len(str(error.value)) < 200


def test_a_listed_move_tampered_with_is_refused(state: p.State) -> None:
    listed = p.legal_moves(state)[0]
    assert isinstance(listed, p.Play)
    original = listed.cards
    object.__setattr__(listed, "cards", (1, 2))
    try:
        assert_illegal(state, listed, "is not a palace move")
    finally:
        object.__setattr__(listed, "cards", original)
    assert p.apply(state, listed).pile[-1] == original[-1]


def test_a_listed_blind_play_tampered_with_is_refused() -> None:
    state = position(hands=["", "AD"], down=["4C - -", "- - -"])
    listed = p.legal_moves(state)[0]
    assert listed == p.PlayBlind(0)
    object.__setattr__(listed, "slot", 9)
    try:
        assert_illegal(state, listed, "slot")
    finally:
        object.__setattr__(listed, "slot", 0)
