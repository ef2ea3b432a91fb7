"""The account game's events in words: one sentence per event class, card text as the
rules page writes it, columns and markers counted from 0 as the field is drawn."""

from __future__ import annotations

from tabletop_rules import account as a
from tabletop_rules.account import Card

C = Card.parse


def test_placed_names_the_marker_column_and_card() -> None:
    assert a.describe(a.Placed(0, 0, 3, C("+10")), 0) == "You placed marker m0 on column 3 (+10)"
    assert a.describe(a.Placed(1, 0, 6, C("End")), 0) == "P1 placed marker m0 on column 6 (End)"


def test_bought_tells_the_cost_and_where_the_marker_stands() -> None:
    event = a.Bought(1, 1, 2, C("-10"), 2000)
    told = "P1 bought marker m1 for 2000 and placed it on column 2 (-10)"
    assert a.describe(event, None) == told


def test_rolled_tells_the_number() -> None:
    assert a.describe(a.Rolled(0, 4), 0) == "You rolled a 4"
    assert a.describe(a.Rolled(2, 6), 0) == "P2 rolled a 6"


def test_moved_tells_distance_direction_and_the_landing_card() -> None:
    event = a.Moved(0, 0, "left", 3, 5, (4, 3), 2, C("-15"))
    assert a.describe(event, 1) == "P0's marker m0 moved 3 left to -15 (column 2)"
    assert a.describe(event, 0) == "Your marker m0 moved 3 left to -15 (column 2)"


def test_collapsed_names_the_column_and_the_card_gone() -> None:
    told = "Column 4 collapsed: its -10 went to the discard pile"
    assert a.describe(a.Collapsed(4, C("-10")), 0) == told


def test_reshuffled_counts_the_new_pack() -> None:
    told = "The discard pile was shuffled into a new pack of 12 cards"
    assert a.describe(a.Reshuffled(12), None) == told


def test_drew_names_the_charged_card_and_the_cards_put_aside_first() -> None:
    plain = a.Drew(0, C("-25"), (C("-25"),))
    assert a.describe(plain, 1) == "The B drew -25 for P0"
    after = a.Drew(1, C("+10"), (C("+10"), C("B"), C("Z")))
    assert a.describe(after, 1) == "The B drew +10 for you, after B Z"


def test_account_changed_tells_before_after_and_why() -> None:
    scored = a.AccountChanged(0, C("-15"), 101, 86)
    assert a.describe(scored, 1) == "P0's account: 101 -> 86 (-15)"
    paid = a.AccountChanged(1, None, 2500, 500, "buy")
    assert a.describe(paid, 1) == "Your account: 2500 -> 500 (bought a marker)"


def test_end_hit_says_when_the_game_stops() -> None:
    assert a.describe(a.EndHit(0, True), 1) == "End scored for P0: the game stops"
    told = "End scored for you: the game stops once the round is over"
    assert a.describe(a.EndHit(1, False), 1) == told


def test_turn_passed_names_whose_turn() -> None:
    assert a.describe(a.TurnPassed(1), 1) == "Your turn"
    assert a.describe(a.TurnPassed(1), 0) == "P1's turn"


def test_game_over_names_the_winners_and_the_round_limit() -> None:
    # The End that stopped the game was told as it scored; by the time a finished round
    # ends the game, its card may be back in the pack, hidden.
    ended = a.GameOver("end", frozenset({1}))
    assert a.describe(ended, 1) == "Game over: you won"
    rounds = a.GameOver("max_rounds", frozenset({0, 2}))
    assert a.describe(rounds, None) == "Game over after the last round: P0 and P2 won"
