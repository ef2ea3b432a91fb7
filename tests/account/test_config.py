"""Config: every house rule validated, the deck composition."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop_rules.account.cards import Card
from tabletop_rules.account.config import DEFAULT_DECK, Config
from tabletop_rules.errors import ConfigError


def test_default_deck_is_the_rules_pages_seventy_cards() -> None:
    counts = {str(card): count for card, count in Config().deck}
    assert counts == {
        "+1": 8, "-1": 8, "+10": 8, "-10": 8, "+15": 7, "-15": 7, "+25": 6, "-25": 6,
        "B": 4, "Z": 2, "P": 3, "T": 1, "End": 2,
    }  # fmt: skip
    assert Config().deck_size == 70
    assert sum(count for card, count in DEFAULT_DECK if card.is_number) == 58


def test_defaults() -> None:
    config = Config()
    assert (config.players, config.rows, config.columns) == (2, 5, 7)
    assert (config.starting_markers, config.max_markers, config.marker_cost) == (1, 3, 2000)
    assert config.placement_scores
    assert not config.floor_at_zero
    assert not config.collapse
    assert (config.end, config.max_rounds, config.auto_chance) == ("immediate", 30, True)


def test_deck_is_an_immutable_hashable_mapping_of_every_kind() -> None:
    config = Config(deck={"+1": 40, Card.parse("End"): 1})
    assert isinstance(config.deck, tuple)
    assert hash(config) == hash(Config(deck={Card.parse("+1"): 40, "End": 1, "B": 0}))
    assert config.deck_counts()[Card.parse("T")] == 0
    assert config.deck_size == 41


def test_a_negative_count_raises() -> None:
    with pytest.raises(ConfigError, match="deck count of B"):
        Config(deck={"+1": 70, "B": -1})


def test_a_deck_too_small_for_the_field_raises() -> None:
    with pytest.raises(ConfigError, match="needs a deck of at least 35"):
        Config(deck={"+1": 34})
    assert Config(deck={"+1": 35}).deck_size == 35


def test_an_unknown_card_in_the_deck_raises() -> None:
    with pytest.raises(ConfigError):
        Config(deck={"+2": 70})


@pytest.mark.parametrize(
    "house",
    [
        {"players": 0},
        {"players": 9},
        {"players": True},
        {"rows": 0},
        {"rows": 11},
        {"columns": 21},
        {"starting_markers": 0},
        {"max_markers": 9},
        {"starting_markers": 2, "max_markers": 1},
        {"marker_cost": -1},
        {"marker_cost": 1_000_001},
        {"placement_scores": 1},
        {"floor_at_zero": "yes"},
        {"collapse": None},
        {"end": "later"},
        {"max_rounds": 0},
        {"max_rounds": 1001},
        {"auto_chance": 0},
        {"deck": 70},
        {"deck": {"+1": 101}},
    ],
)
def test_bad_house_rules_raise(house: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        Config(**house)


def test_one_to_eight_players() -> None:
    assert Config(players=1).players == 1
    assert Config(players=8).players == 8
