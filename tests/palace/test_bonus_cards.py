"""The bonus cards: 2 resets, 3 makes the next player take the pile, 10 burns."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import assert_illegal, cards, events_of, hand, play, plays, position


def test_the_next_player_may_play_anything_on_a_2() -> None:
    state = position(hands=["2C 9S", "4D 5D"], pile="KC")
    after = p.apply(state, play("2C"))
    assert plays(after) == ["4D", "5D"]


def test_a_3_on_top_when_the_turn_ends_makes_the_next_player_take_the_pile() -> None:
    state = position(hands=["3C 9S", "AD 2D 10D"], pile="KC")
    after, events = events_of(state, play("3C"))
    assert events == ["Played", "TurnPassed"]
    assert after.pending == "take"
    assert p.legal_moves(after) == (p.TakePile(),)  # the only legal move
    assert_illegal(after, play("2D"), "must take the pile")
    assert_illegal(after, play("10D"), "must take the pile")


def test_taking_the_pile_after_a_3_ends_the_turn_and_the_next_starts_a_fresh_pile() -> None:
    state = position(hands=["3C 9S", "AD 2D"], pile="KC")
    after = p.apply(p.apply(state, play("3C")), p.TakePile())
    assert after.hands[1] == hand("3C KC 2D AD")
    assert after.known[1] == hand("3C KC")
    assert after.seat == 0
    assert after.pile == ()
    assert after.pending == "none"
    assert after.turns == 2  # the turn lost to the 3 counts


def test_the_3_goes_to_the_next_player_still_holding_cards() -> None:
    config = p.Config(players=3, play_until="last")
    state = position(config, hands=["3C 9S", "", "AD 2D"], pile="KC", finished=(1,))
    after = p.apply(state, play("3C"))
    assert after.seat == 2
    assert after.pending == "take"


def test_a_10_burns_the_pile_and_the_same_player_plays_again() -> None:
    state = position(hands=["10C 9S", "AD"], pile="KC QD")
    after, events = events_of(state, play("10C"))
    assert events == ["Played", "Burned"]
    assert after.pile == ()
    assert after.burned[-3:] == cards("KC QD 10C")
    assert after.seat == 0
    assert after.pending == "replay"
    assert after.turns == 0
    assert plays(after) == ["9S"]
    assert p.TakePile() not in p.legal_moves(after)


def test_a_10_that_leaves_the_player_without_cards_finishes_them() -> None:
    state = position(hands=["10C", "AD"], pile="KC")
    after, events = events_of(state, play("10C"))
    assert events == ["Played", "Burned", "Finished", "GameOver"]
    assert p.winners(after) == {0}


def test_after_a_10_the_hand_refills_before_the_replay() -> None:
    state = position(hands=["10C 9S 9D", "AD"], pile="KC", stock="4H 5H")
    after = p.apply(state, play("10C"))
    assert after.hands[0] == hand("4H 9D 9S")
    assert after.pending == "replay"


def test_bonus_cards_may_be_played_on_a_3_laid_in_the_same_turn_and_so_may_anything() -> None:
    state = position(hands=["3C 3D 3H 3S 4C", "AD"], pile="KC")
    after = p.apply(state, play("3C 3D 3H 3S"))
    assert after.pending == "extra"
    assert plays(after) == ["4C"]
