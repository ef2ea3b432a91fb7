"""Palace's events in words: one sentence per event class, cards as the rules page writes
them, ranks by name, another seat's draw by its count."""

from __future__ import annotations

from tabletop_rules import palace as p
from tabletop_rules.palace import Card


def cards(text: str) -> tuple[Card, ...]:
    return tuple(map(Card.parse, text.split()))


def test_swapped_tells_both_cards_which_everyone_sees() -> None:
    event = p.Swapped(0, Card.parse("KS"), Card.parse("4D"))
    assert p.describe(event, 0) == "You put KS face up and took 4D in hand"
    assert p.describe(event, 1) == "P0 put KS face up and took 4D in hand"


def test_readied_agrees_with_its_subject() -> None:
    assert p.describe(p.Readied(1), 1) == "You are ready"
    assert p.describe(p.Readied(1), None) == "P1 is ready"


def test_started_names_who_plays_first() -> None:
    assert p.describe(p.Started(0), 0) == "You play first"
    assert p.describe(p.Started(0), 1) == "P0 plays first"


def test_played_from_the_hand_tells_the_cards() -> None:
    assert p.describe(p.Played(0, cards("7H 7S"), "hand"), 0) == "You played 7H 7S"
    assert p.describe(p.Played(2, cards("QD"), "hand"), 0) == "P2 played QD"


def test_played_from_the_table_says_where_from() -> None:
    up = p.Played(1, cards("9C 9H"), "face_up")
    assert p.describe(up, 0) == "P1 played 9C 9H from the face-up row"
    blind = p.Played(1, cards("JS"), "face_down", 2)
    assert p.describe(blind, 1) == "You played JS blind, from face-down slot 2"


def test_turned_blind_names_the_card_that_cannot_be_played() -> None:
    event = p.TurnedBlind(1, 0, Card.parse("5C"))
    assert p.describe(event, 0) == "P1 turned 5C from face-down slot 0 and cannot play it"


def test_burned_by_a_ten_counts_the_pile() -> None:
    assert p.describe(p.Burned(cards("4C 8D 10H")), 0) == "The 10 burned the pile (3 cards)"
    assert p.describe(p.Burned(cards("10S")), None) == "The 10 burned the pile (1 card)"


def test_burned_by_four_of_a_kind_names_the_rank() -> None:
    sevens = p.Burned(cards("5C 7C 7D 7H 7S"))
    assert p.describe(sevens, 0) == "Four 7s burned the pile (5 cards)"
    aces = p.Burned(cards("AC AD AH AS AC"))
    assert p.describe(aces, 1) == "Five aces burned the pile (5 cards)"


def test_drew_shows_the_cards_to_the_drawer_and_their_count_to_others() -> None:
    event = p.Drew(1, cards("7H QS"))
    assert p.describe(event, 1) == "You drew 7H QS"
    assert p.describe(event, 0) == "P1 drew 2 cards"
    assert p.describe(event, None) == "P1 drew 2 cards"
    assert p.describe(p.Drew(1, None, 1), 0) == "P1 drew 1 card"


def test_took_face_up_tells_the_cards_which_everyone_sees() -> None:
    event = p.TookFaceUp(0, cards("KH 4D 9S"))
    assert p.describe(event, 1) == "P0 took the face-up cards 4D 9S KH in hand"


def test_took_pile_counts_the_cards() -> None:
    assert p.describe(p.TookPile(1, cards("4C 5D 6H 8S 3C")), 0) == "P1 took the pile (5 cards)"
    assert p.describe(p.TookPile(0, cards("3C")), 0) == "You took the pile (1 card)"


def test_ended_turn_says_after_what() -> None:
    assert p.describe(p.EndedTurn(0), 0) == "You ended the turn after four of a kind"


def test_finished_tells_the_place_in_words() -> None:
    assert p.describe(p.Finished(1, 0, 2), 0) == "P1 went out first"
    assert p.describe(p.Finished(0, 1, 1), 0) == "You went out second"


def test_turn_passed_counts_turns_as_the_table_does_and_names_a_three_to_take() -> None:
    assert p.describe(p.TurnPassed(1, 5), 0) == "Turn 6: P1 to play"
    assert p.describe(p.TurnPassed(0, 5), 0) == "Turn 6: your move"
    taking = p.TurnPassed(0, 7, must_take=True)
    assert p.describe(taking, 0) == "Turn 8: you must take the pile (a 3 is on top)"
    assert p.describe(taking, 1) == "Turn 8: P0 must take the pile (a 3 is on top)"


def test_game_over_names_the_winner_or_the_turn_limit() -> None:
    won = p.GameOver("finished", (1, 0), frozenset({0}))
    assert p.describe(won, 1) == "Game over: P0 won (P0 1, you 0)"
    limit = p.GameOver("max_turns", (0, 0), frozenset())
    assert p.describe(limit, None) == "Game over at the turn limit: nobody won (P0 0, P1 0)"
