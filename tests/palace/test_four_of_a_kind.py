"""Four of a kind: an extra play in the same turn (seed), or a burn (pagat)."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import assert_illegal, cards, events_of, hand, play, plays, position


def test_four_of_a_kind_allows_another_set_legal_on_top_or_ending_the_turn() -> None:
    state = position(hands=["7C 7D 7H 7S 5D 9C 9D", "AD"], pile="6C")
    after = p.apply(state, play("7C 7D 7H 7S"))
    assert after.seat == 0
    assert after.pending == "extra"
    assert p.legal_moves(after) == (play("9C"), play("9C 9D"), p.EndTurn())
    assert_illegal(after, play("5D"), "5D is lower than the 7S on the pile")
    assert_illegal(after, p.TakePile(), "four of a kind")
    again = p.apply(after, play("9C 9D"))
    assert again.seat == 1
    assert again.turns == 1


def test_ending_the_turn_after_four_of_a_kind() -> None:
    state = position(hands=["7C 7D 7H 7S 9C", "AD"], pile="6C")
    after, events = events_of(p.apply(state, play("7C 7D 7H 7S")), p.EndTurn())
    assert events == ["EndedTurn", "TurnPassed"]
    assert after.seat == 1
    assert after.pile == cards("6C 7C 7D 7H 7S")


def test_end_turn_is_only_after_four_of_a_kind() -> None:
    state = position(hands=["7C 9C", "AD"], pile="6C")
    assert_illegal(state, p.EndTurn(), "only after four of a kind")


def test_another_four_repeats_the_right() -> None:
    state = position(p.Config(decks=2), hands=["7C 7D 7H 7S 9C 9D 9H 9S 4D", "AD"], pile="6C")
    after = p.apply(p.apply(state, play("7C 7D 7H 7S")), play("9C 9D 9H 9S"))
    assert after.pending == "extra"
    assert after.seat == 0


def test_four_10s_burn_as_10s_do() -> None:
    state = position(hands=["10C 10D 10H 10S 5D", "AD"], pile="6C")
    after = p.apply(state, play("10C 10D 10H 10S"))
    assert after.pile == ()
    assert after.pending == "replay"


def test_an_extra_play_lays_1_to_4_cards() -> None:
    config = p.Config(decks=2)
    state = position(config, hands=["7C 7D 7H 7S 9C 9C 9D 9H 9S", "AD"], pile="6C")
    after = p.apply(state, play("7C 7D 7H 7S"))
    assert "9C 9C 9D 9H 9S" not in plays(after)
    assert_illegal(after, play("9C 9C 9D 9H 9S"), "1 to 4 cards")


def test_more_than_four_of_a_rank_in_one_play_count_as_four_of_a_kind() -> None:
    config = p.Config(decks=2)
    state = position(config, hands=["7C 7C 7D 7H 7S 9C", "AD"], pile="6C")
    assert p.apply(state, play("7C 7C 7D 7H 7S")).pending == "extra"


def test_a_blind_card_is_never_part_of_an_extra_play() -> None:
    state = position(hands=["7C 7D 7H 7S", "AD"], down=["9C - -", "- - -"], pile="6C")
    after = p.apply(state, play("7C 7D 7H 7S"))
    assert p.legal_moves(after) == (p.EndTurn(),)
    assert_illegal(after, p.PlayBlind(0), "never part of an extra play")
    assert_illegal(after, play("9C"), r"a blind card is never part of one: end the turn \('end'\)")


def test_four_3s_then_the_turn_ends_with_a_3_on_top() -> None:
    state = position(hands=["3C 3D 3H 3S 9D", "AD"], pile="6C")
    after = p.apply(p.apply(state, play("3C 3D 3H 3S")), p.EndTurn())
    assert after.pending == "take"
    assert after.seat == 1


def test_burn_house_rule_four_of_a_rank_on_top_laid_by_anyone_burn() -> None:
    config = p.Config(quad="burn")
    state = position(config, hands=["7C 7D 9S", "7H AD"], pile="7S", seat=1)
    after = p.apply(state, play("7H"))
    assert after.seat == 0
    after, events = events_of(after, play("7C 7D"))
    assert events == ["Played", "Burned"]
    assert after.pile == ()
    assert after.seat == 0
    assert after.pending == "replay"
    assert hand("9S") == after.hands[0]


def test_burn_house_rule_has_no_extra_play() -> None:
    config = p.Config(quad="burn")
    state = position(config, hands=["7C 7D 7H 7S 9S", "AD"], pile="6C")
    after = p.apply(state, play("7C 7D 7H 7S"))
    assert after.pending == "replay"
    assert after.pile == ()
    assert p.EndTurn() not in p.legal_moves(after)
