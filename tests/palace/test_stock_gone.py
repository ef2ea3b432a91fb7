"""When the stock is gone: the hand alone, face-up cards, then blind face-down cards."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import assert_illegal, cards, events_of, hand, play, plays, position, row

DOWN = ["8C 8D 8H", "- - -"]


def test_face_up_cards_go_into_the_hand_when_hand_and_stock_are_empty() -> None:
    state = position(hands=["9C", "AD"], up=["4C 5C 6C", "- - -"], down=["8C 8D 8H", "- - -"])
    after, events = events_of(state, play("9C"))
    assert events == ["Played", "TookFaceUp", "TurnPassed"]
    assert after.hands[0] == hand("4C 5C 6C")
    assert after.known[0] == hand("4C 5C 6C")  # public knowledge
    assert after.face_up[0] == row("- - -")


def test_face_up_cards_stay_while_the_stock_lasts() -> None:
    state = position(
        hands=["9C", "AD"], up=["4C 5C 6C", "- - -"], down=["8C 8D 8H", "- - -"], stock="7D"
    )
    after = p.apply(state, play("9C"))
    assert after.hands[0] == hand("7D")
    assert after.face_up[0] == row("4C 5C 6C")


def test_from_table_face_up_cards_are_played_from_the_table_once_the_hand_is_empty() -> None:
    config = p.Config(face_up_play="from_table")
    state = position(config, hands=["9C", "AD KD"], up=["4C JC JD", "- - -"], down=DOWN)
    after = p.apply(state, play("9C"))
    assert after.hands[0] == ()
    assert after.face_up[0] == row("4C JC JD")
    state = position(config, hands=["", "AD KD"], up=["4C JC JD", "- - -"], down=DOWN, pile="9S")
    assert plays(state) == ["JC", "JC JD"]
    after = p.apply(state, play("JD"))
    assert after.face_up[0] == row("4C JC -")


def test_from_table_face_up_cards_are_never_mixed_with_hand_cards() -> None:
    config = p.Config(face_up_play="from_table")
    state = position(config, hands=["JS", "AD"], up=["4C JC JD", "- - -"], down=DOWN, pile="9S")
    assert plays(state) == ["JS"]
    assert_illegal(state, play("JC JS"), "does not hold")
    assert_illegal(state, play("JC"), "never mixed with hand cards")


def test_from_table_unplayable_face_up_cards_mean_taking_the_pile() -> None:
    config = p.Config(face_up_play="from_table")
    state = position(config, hands=["", "AD"], up=["4C 5C -", "- - -"], down=DOWN, pile="9S")
    assert p.legal_moves(state) == (p.TakePile(),)
    after = p.apply(state, p.TakePile())
    assert after.hands[0] == hand("9S")
    assert after.face_up[0] == row("4C 5C -")


def test_with_hand_and_face_up_gone_a_face_down_card_is_turned_and_played() -> None:
    state = position(hands=["", "AD"], down=["4C - JD", "- - -"], pile="9S")
    assert p.legal_moves(state) == (p.PlayBlind(0), p.PlayBlind(2))
    after, events = events_of(state, p.PlayBlind(2))
    assert events == ["Played", "TurnPassed"]
    assert after.pile == cards("9S JD")
    assert after.face_down[0] == row("4C - -")


def test_a_blind_card_plays_with_all_its_effects() -> None:
    state = position(hands=["", "AD"], down=["10C - 4D", "- - -"], pile="9S")
    after = p.apply(state, p.PlayBlind(0))
    assert after.pile == ()
    assert after.pending == "replay"
    assert after.seat == 0
    assert p.legal_moves(after) == (p.PlayBlind(2),)


def test_an_unplayable_blind_card_is_taken_with_the_pile_and_is_public() -> None:
    state = position(hands=["", "AD"], down=["4C - JD", "- - -"], pile="9S")
    after, events = events_of(state, p.PlayBlind(0))
    assert events == ["TurnedBlind", "TookPile", "TurnPassed"]
    assert after.hands[0] == hand("4C 9S") == after.known[0]
    assert after.seat == 1
    assert after.pile == ()


def test_they_must_play_out_of_the_hand_before_turning_another() -> None:
    state = position(hands=["", "AD KD"], down=["4C - JD", "- - -"], pile="9S")
    after = p.apply(p.apply(state, p.PlayBlind(0)), play("KD"))
    assert after.seat == 0
    assert p.PlayBlind(2) not in p.legal_moves(after)
    assert_illegal(after, p.PlayBlind(2), "still holds cards in hand")


def test_face_up_before_face_down() -> None:
    config = p.Config(face_up_play="from_table")
    state = position(config, hands=["", "AD"], up=["4C - -", "- - -"], down=["5D 5C 6C", "- - -"])
    assert_illegal(state, p.PlayBlind(1), "face-up cards are played before")


def test_an_empty_face_down_slot_cannot_be_turned() -> None:
    state = position(hands=["", "AD"], down=["4C - JD", "- - -"], pile="9S")
    assert_illegal(state, p.PlayBlind(1), "slot 1 is empty")


def test_voluntary_pickup_with_only_face_down_cards() -> None:
    state = position(
        p.Config(voluntary_pickup=True), hands=["", "AD"], down=["4C - -", "- - -"], pile="9S"
    )
    assert p.legal_moves(state) == (p.PlayBlind(0), p.TakePile())
    state = position(hands=["", "AD"], down=["4C - -", "- - -"], pile="9S")
    assert_illegal(state, p.TakePile(), r"turn a face-down card \('blind' and its slot\)")
