"""House rules: the seed's defaults, and every bad value refused when the config is built."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import ConfigError, TabletopError

from .strategies import configs


def test_the_default_config_is_the_seeds_game() -> None:
    config = dp.Config()
    assert config.players == 2
    assert config.throws_per_turn == 3
    assert config.stages == 3
    assert config.stage_orders == ("free",)
    assert config.fences is True
    assert config.max_fences is None
    assert config.max_fences_per_turn is None
    assert config.premium == 50
    assert config.penalty == 20
    assert config.box_scores == dp.BoxScores(small_straight=15, large_straight=20, poker=50)
    assert config.auto_chance is True


@pytest.mark.parametrize("players", range(1, 9))
def test_one_to_eight_players_may_play(players: int) -> None:
    state = dp.new_game(dp.Config(players=players), seed=0)
    assert len(state.sheets) == players


@pytest.mark.parametrize("stages", [1, 2, 5])
def test_a_game_has_fifteen_boxes_per_stage(stages: int) -> None:
    state = dp.new_game(dp.Config(stages=stages), seed=0)
    assert [len(cells) for cells in state.sheets] == [15 * stages] * 2


def test_stage_orders_may_name_one_order_per_stage() -> None:
    config = dp.Config(stages=4, stage_orders=["announce", "up", "down", "free"])
    assert config.stage_orders == ("announce", "up", "down", "free")
    assert [config.stage_order(stage) for stage in range(4)] == ["announce", "up", "down", "free"]


def test_one_stage_order_as_a_string_is_the_order_of_every_stage() -> None:
    config = dp.Config(stage_orders="down")
    assert config.stage_orders == ("down",)
    assert {config.stage_order(stage) for stage in range(3)} == {"down"}


def test_the_caps_and_scores_accept_their_boundary_values() -> None:
    config = dp.Config(
        throws_per_turn=1,
        max_fences=0,
        max_fences_per_turn=0,
        premium=0,
        penalty=0,
        box_scores=dp.BoxScores(0, 0, 0),
    )
    assert (config.max_fences, config.max_fences_per_turn, config.premium) == (0, 0, 0)


BAD: list[tuple[dict[str, Any], str]] = [
    ({"players": 0}, "players must be 1 to 8, got 0"),
    ({"players": 9}, "players must be 1 to 8, got 9"),
    ({"players": -1}, "players must be 1 to 8"),
    ({"players": 2.0}, "players must be a whole number"),
    ({"players": "2"}, "players must be a whole number"),
    ({"players": True}, "players must be a whole number"),
    ({"throws_per_turn": 0}, "throws_per_turn must be at least 1, got 0"),
    ({"throws_per_turn": -3}, "throws_per_turn must be at least 1"),
    ({"throws_per_turn": 2.5}, "throws_per_turn must be a whole number"),
    ({"stages": 0}, "stages must be at least 1, got 0"),
    ({"stages": None}, "stages must be a whole number"),
    ({"stage_orders": ("free", "down")}, "stage_orders needs one order for all stages or one"),
    ({"stage_orders": ("free",) * 4}, "one per stage (3), got 4"),
    ({"stage_orders": ()}, "stage_orders needs one order"),
    ({"stages": 2, "stage_orders": ("up", "up", "up")}, "one per stage (2), got 3"),
    ({"stage_orders": ("sideways",)}, "stage order must be one of free, down, up, announce"),
    ({"stage_orders": "sideways"}, "got 'sideways'"),
    ({"stage_orders": ("free", "Down", "up")}, "got 'Down'"),
    ({"stage_orders": 3}, "stage_orders must be a sequence of orders"),
    ({"stage_orders": None}, "stage_orders must be a sequence of orders"),
    ({"fences": 1}, "fences must be True or False, got 1"),
    ({"fences": "yes"}, "fences must be True or False"),
    ({"fences": None}, "fences must be True or False"),
    ({"max_fences": -1}, "max_fences must be at least 0, got -1"),
    ({"max_fences": 2.0}, "max_fences must be a whole number"),
    ({"max_fences_per_turn": -1}, "max_fences_per_turn must be at least 0"),
    ({"max_fences_per_turn": "1"}, "max_fences_per_turn must be a whole number"),
    ({"premium": -50}, "premium must be at least 0"),
    ({"premium": 50.5}, "premium must be a whole number"),
    ({"penalty": -20}, "penalty must be at least 0"),
    ({"box_scores": (15, 20, 50)}, "box_scores must be a BoxScores"),
    ({"box_scores": {"poker": 50}}, "box_scores must be a BoxScores"),
    ({"box_scores": None}, "box_scores must be a BoxScores"),
    ({"auto_chance": 0}, "auto_chance must be True or False"),
    ({"auto_chance": "no"}, "auto_chance must be True or False"),
]


@pytest.mark.parametrize(("fields", "fragment"), BAD, ids=[repr(fields) for fields, _ in BAD])
def test_a_bad_house_rule_raises_config_error_at_construction(
    fields: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        dp.Config(**fields)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(("fields", "fragment"), BAD, ids=[repr(fields) for fields, _ in BAD])
def test_a_bad_house_rule_is_refused_by_evolve_too(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ConfigError) as caught:
        attrs.evolve(dp.Config(), **fields)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    "fields",
    [
        {"small_straight": -1},
        {"large_straight": -20},
        {"poker": -50},
        {"poker": 50.0},
        {"small_straight": "15"},
        {"large_straight": True},
    ],
)
def test_bad_box_scores_raise_config_error(fields: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        dp.BoxScores(**fields)


def test_config_errors_are_value_errors_of_the_library() -> None:
    with pytest.raises(ValueError, match="players"):
        dp.Config(players=0)
    assert issubclass(ConfigError, TabletopError)
    assert issubclass(ConfigError, ValueError)


def test_a_config_is_frozen() -> None:
    config = dp.Config()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        config.players = 3  # type: ignore[misc]
    assert config.players == 2


def test_new_game_refuses_a_config_of_another_kind() -> None:
    with pytest.raises(ConfigError, match=r"dice_poker\.Config"):
        dp.new_game(object(), seed=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "7"])
def test_new_game_refuses_a_bad_seed(seed: Any) -> None:
    with pytest.raises(ConfigError, match="seed must be an integer"):
        dp.new_game(dp.Config(), seed=seed)


def test_new_game_refuses_a_deal() -> None:
    with pytest.raises(ConfigError, match="no deck"):
        dp.new_game(dp.Config(), seed=0, deal=[1, 2, 3])  # type: ignore[arg-type]


def test_without_a_seed_new_game_draws_one_and_keeps_it() -> None:
    state = dp.new_game(dp.Config())
    assert 0 <= state.seed < 2**64
    assert dp.new_game(dp.Config(), seed=state.seed) == state


@settings(max_examples=60, deadline=None)
@given(configs())
def test_every_valid_config_starts_a_game_seat_zero_on_turn(config: dp.Config) -> None:
    state = dp.new_game(config, seed=1)
    dp.check_state(state)
    assert dp.current_player(state) == 0
    assert len(state.sheets) == config.players
    assert all(len(cells) == 15 * config.stages for cells in state.sheets)
    assert state.fences == (0,) * config.players
    assert dp.Roll() in dp.legal_moves(state)
