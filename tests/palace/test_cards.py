"""Cards: 52 of a deck, text that round-trips, ordered by rank then suit."""

from __future__ import annotations

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError, NotationError
from tabletop_rules.palace.cards import BONUS_RANKS, DECK, NATURAL_RANKS


def test_a_card_is_rank_2_to_14_and_one_of_four_suits() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert {card.rank for card in DECK} == set(range(2, 15))
    assert {card.suit for card in DECK} == {"C", "D", "H", "S"}


@pytest.mark.parametrize("text", ["10H", "QS", "4C", "2D", "AS", "JC", "KH"])
def test_card_text_round_trips(text: str) -> None:
    assert str(p.Card.parse(text)) == text


def test_every_card_text_round_trips() -> None:
    for card in DECK:
        assert p.Card.parse(str(card)) == card
        assert p.Card.parse(str(card)) is p.Card.parse(str(card))


def test_rank_names() -> None:
    assert p.Card.parse("JD") == p.Card(11, "D")
    assert p.Card.parse("QD").rank == 12
    assert p.Card.parse("KD").rank == 13
    assert p.Card.parse("AD").rank == 14


def test_cards_are_ordered_by_rank_then_suit() -> None:
    assert p.Card.parse("4S") < p.Card.parse("5C")
    assert p.Card.parse("9C") < p.Card.parse("9D") < p.Card.parse("9H") < p.Card.parse("9S")
    assert sorted(DECK) == list(DECK)


@pytest.mark.parametrize("text", ["", "1H", "11H", "10", "H10", "QX", "Q S", "10HH", "ZZZ"])
def test_bad_card_text_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="is not a card"):
        p.Card.parse(text)


def test_card_parse_of_no_text_raises_notation_error() -> None:
    with pytest.raises(NotationError):
        p.Card.parse(10)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(1, "H"), (15, "H"), (True, "H"), (10.0, "H")])
def test_a_card_with_no_such_rank_is_refused(rank: object, suit: str) -> None:
    with pytest.raises(IllegalMoveError, match="rank"):
        p.Card(rank, suit)  # type: ignore[arg-type]


@pytest.mark.parametrize("suit", ["X", "h", "", None])
def test_a_card_with_no_such_suit_is_refused(suit: object) -> None:
    with pytest.raises(IllegalMoveError, match="suit"):
        p.Card(5, suit)  # type: ignore[arg-type]


def test_bonus_cards_are_2_3_and_10() -> None:
    assert {2, 3, 10} == BONUS_RANKS
    assert NATURAL_RANKS == (4, 5, 6, 7, 8, 9, 11, 12, 13, 14)
    assert p.Card.parse("10S").is_bonus
    assert not p.Card.parse("AS").is_bonus
