"""House rules as text: listed from every game's Config, read back from key=value texts."""

from __future__ import annotations

import attrs
import pytest

from tabletop_rules import account as a
from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError
from tabletop_rules.house_rules import configured, house_rules, parse_value, value_text
from tabletop_rules.protocol import registered

CONFIGS = [rules.config_type for rules in registered()]


@pytest.mark.parametrize("config_type", CONFIGS, ids=lambda c: c.__module__)
def test_the_house_rules_are_the_configs_fields_with_defaults_and_descriptions(
    config_type: type,
) -> None:
    rules = house_rules(config_type)
    fields = [field.name for field in attrs.fields(config_type) if field.init]
    assert [rule.name for rule in rules] == fields
    default = config_type()
    for rule in rules:
        assert rule.default == getattr(default, rule.name)
        assert rule.description, f"{rule.name} has no description in the Attributes section"
        assert "``" not in rule.description
        assert ":data:" not in rule.description


@pytest.mark.parametrize("config_type", CONFIGS, ids=lambda c: c.__module__)
def test_every_default_read_back_from_its_text_is_the_default(config_type: type) -> None:
    texts = [f"{rule.name}={rule.default_text}" for rule in house_rules(config_type)]
    assert configured(config_type, texts) == config_type()


def test_values_are_json_or_bare_text() -> None:
    assert parse_value("3") == 3
    assert parse_value("null") is None
    assert parse_value('["down", "up"]') == ["down", "up"]
    assert parse_value("finish_round") == "finish_round"
    assert parse_value("") == ""


def test_configured_sets_each_rule_on_the_default_config() -> None:
    config = configured(a.Config, ["players=3", "collapse=true", "end=finish_round"])
    assert config == a.Config(players=3, collapse=True, end="finish_round")
    assert configured(dp.Config, ["stage_orders=down"]).stage_orders == ("down",)
    assert configured(dp.Config, ['stage_orders=["down", "up"]', "stages=2"]).stage_orders == (
        "down",
        "up",
    )


def test_a_nested_rule_takes_a_json_object_of_the_fields_it_changes() -> None:
    config = configured(dp.Config, ['box_scores={"poker": 60}'])
    assert config.box_scores == attrs.evolve(dp.Config().box_scores, poker=60)


def test_configured_starts_from_a_given_config() -> None:
    assert configured(p.Config, ["players=3"], p.Config.pagat()) == p.Config.pagat(players=3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players", "a house rule is written key=value, got 'players'"),
        ("=3", "a house rule is written key=value"),
        ("player=3", "unknown house rule 'player'; the house rules are players, decks, hand_size"),
        ("players=0", "players"),
        ("quad=twice", "quad must be one of"),
        ("max_turns=1.5", "max_turns"),
        ('hand_size={"a": 1}', "hand_size"),
    ],
)
def test_a_bad_house_rule_is_a_config_error_that_says_what_is_wrong(
    text: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        configured(p.Config, [text])


def test_a_nested_rule_of_the_wrong_shape_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="box_scores"):
        configured(dp.Config, ['box_scores={"jackpot": 5}'])
    with pytest.raises(ConfigError, match="box_scores"):
        configured(dp.Config, ["box_scores=[1, 2]"])


def test_value_text_is_what_configured_reads() -> None:
    config = a.Config(deck={"+1": 40, "End": 2}, rows=2, columns=3)
    assert configured(a.Config, [f"deck={value_text(config, 'deck')}"]).deck == config.deck
    assert value_text(p.Config(), "quad") == "extra_play"
    assert value_text(dp.Config(), "fences") == "true"
