"""A turn: cards of one rank, equal or higher, bonus cards, taking the pile, refilling."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import assert_illegal, cards, events_of, hand, play, plays, position


def test_play_one_or_more_cards_of_one_rank_from_the_hand() -> None:
    state = position(hands=["7H 7S 7D KC", "AS"], pile="5C")
    after = p.apply(state, play("7H 7S"))
    assert after.pile == cards("5C 7H 7S")
    assert after.hands[0] == hand("7D KC")
    assert after.seat == 1


def test_cards_of_two_ranks_are_not_one_play() -> None:
    state = position(hands=["7H 8S", "AS"], pile="5C")
    assert_illegal(state, play("7H 8S"), "one rank")


def test_a_natural_card_must_be_equal_or_higher_than_the_top_card() -> None:
    state = position(hands=["7H 9C JD", "AS"], pile="9S")
    assert_illegal(state, play("7H"), "7H is lower than the 9S on the pile")
    assert plays(state) == ["9C", "JD"]
    assert p.apply(state, play("9C")).pile == cards("9S 9C")


def test_must_beat_higher_house_rule() -> None:
    state = position(p.Config(must_beat="higher"), hands=["9C JD", "AS"], pile="9S")
    assert plays(state) == ["JD"]
    assert_illegal(state, play("9C"), "not higher than the 9S")


def test_on_an_empty_pile_anything_goes() -> None:
    state = position(hands=["4H 7S AC", "AS"])
    assert plays(state) == ["4H", "7S", "AC"]


def test_any_card_may_be_played_on_a_2() -> None:
    state = position(hands=["4H 7S", "AS"], pile="KC 2D")
    assert plays(state) == ["4H", "7S"]


def test_bonus_cards_go_on_anything() -> None:
    state = position(hands=["2H 3S 10C 4D", "AS"], pile="AD")
    assert plays(state) == ["2H", "3S", "10C"]


def test_one_play_is_listed_per_rank_and_count_with_the_lowest_suits() -> None:
    state = position(hands=["7S 7C 7H 9D", "AS"], pile="5C")
    assert plays(state) == ["7C", "7C 7H", "7C 7H 7S", "9D"]


def test_an_equivalent_play_of_other_suits_is_accepted_and_recorded_exactly() -> None:
    state = position(hands=["7S 7C 7H 9D", "AS"], pile="5C")
    after = p.apply(state, play("7S 7H"))
    assert after.pile == cards("5C 7H 7S")
    assert after.hands[0] == hand("7C 9D")


def test_cards_not_held_cannot_be_played() -> None:
    state = position(hands=["7S 9D", "7H AS"], pile="5C")
    assert_illegal(state, play("7H"), "does not hold 7H")


def test_a_player_who_cannot_play_must_take_the_pile() -> None:
    state = position(hands=["4H 5S", "AS"], pile="6C 9D")
    assert p.legal_moves(state) == (p.TakePile(),)
    after, events = events_of(state, p.TakePile())
    assert after.hands[0] == hand("4H 5S 6C 9D")
    assert after.known[0] == hand("6C 9D")  # taken in view of all
    assert after.pile == ()
    assert after.seat == 1
    assert after.turns == 1
    assert events == ["TookPile", "TurnPassed"]


def test_a_player_who_can_play_may_not_take_the_pile() -> None:
    state = position(hands=["4H AS", "AD"], pile="6C 9D")
    assert p.TakePile() not in p.legal_moves(state)
    assert_illegal(state, p.TakePile(), "who can play does not take the pile")


def test_an_empty_pile_cannot_be_taken() -> None:
    state = position(p.Config(voluntary_pickup=True), hands=["4H", "AD"])
    assert_illegal(state, p.TakePile(), "empty")


def test_voluntary_pickup_allows_taking_at_the_start_of_the_turn() -> None:
    state = position(p.Config(voluntary_pickup=True), hands=["4H AS", "AD"], pile="6C 9D")
    assert p.legal_moves(state)[-1] == p.TakePile()
    assert p.apply(state, p.TakePile()).hands[0] == hand("4H 6C 9D AS")


def test_refill_after_every_play_while_the_stock_lasts() -> None:
    state = position(hands=["4H 5S 6D", "AD"], stock="8C 9C JC QC", pile="")
    after, events = events_of(state, play("4H"))
    assert after.hands[0] == hand("5S 6D 8C")
    assert after.stock == cards("9C JC QC")
    assert after.known[0] == ()  # a drawn card is not public
    assert events == ["Played", "Drew", "TurnPassed"]


def test_refill_draws_nothing_when_holding_hand_size_or_more() -> None:
    state = position(hands=["4H 4S 6D 7D 8D", "AD"], stock="8C 9C")
    after = p.apply(state, play("4H"))
    assert after.hands[0] == hand("4S 6D 7D 8D")
    assert after.stock == cards("8C 9C")


def test_refill_stops_when_the_stock_runs_out() -> None:
    state = position(hands=["4H 4S 6D", "AD"], stock="8C")
    after = p.apply(state, play("4H 4S"))
    assert after.hands[0] == hand("6D 8C")
    assert after.stock == ()


def test_the_turn_passes_to_the_next_seat_and_counts() -> None:
    state = position(p.Config(players=3), hands=["4H", "5D 8D", "6D"], seat=1, turns=4)
    after = p.apply(state, play("5D"))
    assert after.seat == 2
    assert after.turns == 5
    after = p.apply(after, play("6D"))  # seat 2 is out: first_out ends the game
    assert p.is_over(after)
    assert p.winners(after) == {2}
