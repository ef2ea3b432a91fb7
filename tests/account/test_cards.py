"""Cards: the thirteen kinds, their text, one instance per kind."""

from __future__ import annotations

import pytest

from tabletop_rules.account.cards import CARDS, KINDS, Card, own_card
from tabletop_rules.errors import NotationError


def test_thirteen_kinds_with_their_text() -> None:
    assert [str(card) for card in CARDS] == [
        "+1", "+10", "+15", "+25", "-1", "-10", "-15", "-25", "P", "T", "B", "Z", "End",
    ]  # fmt: skip


@pytest.mark.parametrize("text", KINDS)
def test_parse_and_str_round_trip_to_the_one_instance(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert card is Card.parse(str(card)) is own_card(Card(text)) is own_card(text)


def test_points_and_cost() -> None:
    points = {str(card): card.points for card in CARDS}
    assert points["+25"] == 25
    assert points["-10"] == -10
    assert points["P"] == 100
    assert points["T"] == 1000
    assert Card.parse("P").cost == 100
    assert Card.parse("T").cost == 1000
    assert Card.parse("-25").cost == 25
    assert not any(Card.parse(kind).valued for kind in ("B", "Z", "End"))


@pytest.mark.parametrize("text", ["+2", "end", "", "10", None, 10])
def test_bad_card_text_raises_notation_error(text: object) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)  # type: ignore[arg-type]
