"""House rules as text: listed from every game's Config, read back from key=value texts."""

from __future__ import annotations

import io

import attrs
import pytest

from tabletop_rules import account as a
from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError, HouseRulesError
from tabletop_rules.house_rules import (
    configured,
    configured_form,
    house_rules,
    parse_value,
    value_text,
)
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


# --- issue 16, point 5: a deeply nested value is refused, on every route ----------------

DEEP_VALUES = [
    pytest.param("[" * 100_000, id="open-arrays"),
    pytest.param("[" * 100_000 + "]" * 100_000, id="closed-arrays"),
    pytest.param('{"a": ' * 50_000, id="open-objects"),
    pytest.param('{"a": ' * 50_000 + "1" + "}" * 50_000, id="closed-objects"),
]
RULE_NAMES = [
    pytest.param(config_type, rule.name, id=f"{config_type.__module__}.{rule.name}")
    for config_type in CONFIGS
    for rule in house_rules(config_type)
]


@pytest.mark.parametrize("deep", DEEP_VALUES)
@pytest.mark.parametrize(("config_type", "name"), RULE_NAMES)
def test_a_deeply_nested_house_rule_value_is_a_config_error_not_a_recursion_error(
    config_type: type, name: str, deep: str
) -> None:
    with pytest.raises(ConfigError, match=rf"^house rule {name}: .*MAX_DEPTH"):
        configured(config_type, [f"{name}={deep}"])


def test_a_house_rule_value_nested_within_the_loaders_limit_is_read() -> None:
    with pytest.raises(ConfigError, match=r"^players must be a whole number"):
        configured(p.Config, ["players=" + "[" * 32 + "]" * 32])


def test_a_value_that_opens_as_json_must_be_json() -> None:
    with pytest.raises(ConfigError, match=r"^house rule stage_orders: .* must be JSON: "):
        configured(dp.Config, ['stage_orders=["down", "up"'])
    with pytest.raises(ConfigError, match=r"^house rule deck: .*duplicate key '\+1'"):
        configured(a.Config, ['deck={"+1": 30, "+1": 40}'])
    with pytest.raises(ConfigError, match=r"^house rule quad: "):
        configured(p.Config, ['quad="burn'])
    assert configured(p.Config, ['quad="burn"']).quad == "burn"


def test_house_rules_are_texts() -> None:
    with pytest.raises(TypeError, match="key=value texts"):
        configured(p.Config, "players=3")
    with pytest.raises(TypeError, match="key=value text, got 3"):
        configured(p.Config, [3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="expected a palace Config"):
        configured(p.Config, ["players=3"], dp.Config())
    with pytest.raises(TypeError, match="a house rule's value is a str"):
        parse_value(b"3")  # type: ignore[arg-type]


def _nested(depth: int) -> list[object]:
    top: list[object] = []
    inner = top
    for _ in range(depth):
        deeper: list[object] = []
        inner.append(deeper)
        inner = deeper
    return top


def _in_itself() -> list[object]:
    loop: list[object] = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize("value", [_nested(100_000), _in_itself()], ids=["deep", "in-itself"])
@pytest.mark.parametrize(("config_type", "name"), RULE_NAMES)
def test_a_deeply_nested_python_value_given_to_a_config_is_a_config_error(
    config_type: type, name: str, value: object
) -> None:
    with pytest.raises(ConfigError, match=f"^{name.split('_')[0]}"):  # names the field
        config_type(**{name: value})


def test_a_deeply_nested_deck_count_or_card_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"deck count of \+1 must be a whole number"):
        a.Config(deck={"+1": _nested(100_000)})
    with pytest.raises(ConfigError, match="deck"):
        a.Config(deck=[(_nested(100_000), 1)])
    with pytest.raises(ConfigError, match="box_scores"):
        configured(dp.Config, ['box_scores={"poker": ' + "[" * 30 + "]" * 30 + "}"])


def test_the_cli_refuses_a_deeply_nested_rule_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = pytest.importorskip("tabletop_rules.cli")
    pytest.importorskip("rich")
    status = cli.main(["play", "palace", "--rule", "players=" + "[" * 100_000], stdin=io.StringIO())
    captured = capsys.readouterr()
    assert status == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("tabletop-rules: error: house rule players: ")
    assert "MAX_DEPTH" in lines[0]
    assert "Traceback" not in captured.err


def test_the_openspiel_parameters_refuse_a_deeply_nested_value() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tabletop_rules.adapters import openspiel

    with pytest.raises(ConfigError, match=r"^house rule stage_orders: .*MAX_DEPTH"):
        pyspiel.load_game("python_tabletop_dice_poker", {"stage_orders": "[" * 100_000})
    with pytest.raises(ConfigError, match=r"^house rule deck: .*MAX_DEPTH"):
        pyspiel.load_game("python_tabletop_account", {"deck": "{" * 100_000})
    with pytest.raises(ConfigError, match=r"^house rule players: .*MAX_DEPTH"):
        openspiel.config_of_parameters(p.RULES, {"players": "[" * 100_000})


def test_a_form_judges_each_value_alone_then_beside_those_that_passed() -> None:
    config = configured_form(p.Config, {"players": "9", "decks": "2", "quad": "burn"})
    assert (config.players, config.decks, config.quad) == (9, 2, "burn")


def test_a_form_reports_each_refused_rule_beside_its_name_and_nothing_else() -> None:
    with pytest.raises(HouseRulesError) as refused:
        configured_form(p.Config, {"players": "9", "quad": "explode", "decks": "1"})
    assert set(refused.value.fields) == {"players", "quad"}
    assert "quad" in refused.value.fields["quad"]
    with pytest.raises(TypeError):
        refused.value.fields["decks"] = "changed"  # type: ignore[index]


def test_a_form_whose_passing_rules_conflict_says_they_do_not_go_together() -> None:
    with pytest.raises(ConfigError, match="do not go together") as refused:
        configured_form(p.Config, {"players": "5", "hand_size": "9"})
    assert not isinstance(refused.value, HouseRulesError)
