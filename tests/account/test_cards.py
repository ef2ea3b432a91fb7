"""Cards: the thirteen kinds, their text, one instance per kind."""

from __future__ import annotations

import pytest

from tabletop_rules.account import new_game
from tabletop_rules.account.cards import CARDS, KINDS, Card, own_card
from tabletop_rules.account.config import Config
from tabletop_rules.errors import ConfigError, NotationError


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


def _around_its_checks() -> list[Card]:
    """Cards that no constructor made: no kind at all, kinds that are no card's."""
    bare = object.__new__(Card)
    renamed, listed, foreign = Card("+1"), Card("+1"), Card("+1")
    hash(renamed)  # cached while valid, so the card can still key a dict
    object.__setattr__(renamed, "kind", "+2")
    object.__setattr__(listed, "kind", ["+1"])
    object.__setattr__(foreign, "kind", type("Kind", (str,), {})("+1"))
    return [bare, renamed, listed, foreign]


@pytest.mark.parametrize(
    "card", _around_its_checks(), ids=["bare", "renamed", "list", "str-subclass"]
)
def test_a_card_built_around_its_checks_is_refused_by_config_and_new_game(card: Card) -> None:
    with pytest.raises(ConfigError, match="kind"):
        Config(deck=[(card, 70)])
    if getattr(card, "kind", None) == "+2":  # hashed while valid: it can key a mapping
        with pytest.raises(ConfigError, match="kind"):
            Config(deck={card: 70})
    config = Config(deck={"+1": 35})
    with pytest.raises(ConfigError, match="kind"):
        new_game(config, seed=1, deal=[card] + [Card.parse("+1")] * 34)
    with pytest.raises(NotationError):
        own_card(card)
