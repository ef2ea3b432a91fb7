"""House rules: the seed's defaults, and every bad value refused when the config is built."""

from __future__ import annotations

import itertools
import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings

from tabletop_rules import dice_poker as dp
from tabletop_rules import serialize
from tabletop_rules.dice_poker.config import (
    MAX_FENCES,
    MAX_POINTS,
    MAX_STAGES,
    MAX_THROWS_PER_TURN,
    BoxScores,
)
from tabletop_rules.errors import ConfigError, TabletopError
from tabletop_rules.records import GameRecord
from tabletop_rules.testing import random_playout

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
    assert config.box_scores == BoxScores(small_straight=15, large_straight=20, poker=50)
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
        box_scores=BoxScores(0, 0, 0),
    )
    assert (config.max_fences, config.max_fences_per_turn, config.premium) == (0, 0, 0)


BAD: list[tuple[dict[str, Any], str]] = [
    ({"players": 0}, "players must be 1 to 8, got 0"),
    ({"players": 9}, "players must be 1 to 8, got 9"),
    ({"players": -1}, "players must be 1 to 8"),
    ({"players": 2.0}, "players must be a whole number"),
    ({"players": "2"}, "players must be a whole number"),
    ({"players": True}, "players must be a whole number"),
    ({"throws_per_turn": 0}, "throws_per_turn must be 1 to 10, got 0"),
    ({"throws_per_turn": -3}, "throws_per_turn must be 1 to 10"),
    ({"throws_per_turn": 2.5}, "throws_per_turn must be a whole number"),
    ({"stages": 0}, "stages must be 1 to 10, got 0"),
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
    ({"max_fences": -1}, "max_fences must be 0 to 100, got -1"),
    ({"max_fences": 2.0}, "max_fences must be a whole number"),
    ({"max_fences_per_turn": -1}, "max_fences_per_turn must be 0 to 100"),
    ({"max_fences_per_turn": "1"}, "max_fences_per_turn must be a whole number"),
    ({"premium": -50}, "premium must be 0 to 1000"),
    ({"premium": 50.5}, "premium must be a whole number"),
    ({"penalty": -20}, "penalty must be 0 to 1000"),
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
        BoxScores(**fields)


# --- the upper bounds ---------------------------------------------------------------
# Every numeric field has one, so no config can make a game too big to start, play or
# replay quickly. Each bound is checked by the constructor and by attrs.evolve (which
# re-runs __init__), with the huge values that used to overflow or exhaust memory.

HUGE = [10**6, 10**9, 10**30]


def build(how: str, **fields: Any) -> dp.Config:
    """A config with ``fields``, built by the constructor or evolved from the default."""
    return dp.Config(**fields) if how == "constructor" else attrs.evolve(dp.Config(), **fields)


HOW = ["constructor", "evolve"]


def test_the_bounds_are_the_documented_numbers() -> None:
    assert (dp.MAX_PLAYERS, MAX_THROWS_PER_TURN, MAX_STAGES) == (8, 10, 10)
    assert (MAX_FENCES, MAX_POINTS) == (100, 1000)


@pytest.mark.parametrize("how", HOW)
def test_every_field_accepts_its_upper_bound(how: str) -> None:
    config = build(
        how,
        players=dp.MAX_PLAYERS,
        throws_per_turn=MAX_THROWS_PER_TURN,
        stages=MAX_STAGES,
        max_fences=MAX_FENCES,
        max_fences_per_turn=MAX_FENCES,
        premium=MAX_POINTS,
        penalty=MAX_POINTS,
        box_scores=BoxScores(MAX_POINTS, MAX_POINTS, MAX_POINTS),
    )
    assert config.boxes_per_player == 150
    assert config.turns_per_game == 1200


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("players", [9, *HUGE])
def test_players_above_eight_is_a_config_error(how: str, players: int) -> None:
    with pytest.raises(ConfigError, match=f"^players must be 1 to 8, got {players}$"):
        build(how, players=players)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("throws", [11, *HUGE])
def test_throws_per_turn_above_ten_is_a_config_error(how: str, throws: int) -> None:
    with pytest.raises(ConfigError, match=f"^throws_per_turn must be 1 to 10, got {throws}$"):
        build(how, throws_per_turn=throws)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("stages", [11, *HUGE])
def test_stages_above_ten_is_a_config_error(how: str, stages: int) -> None:
    with pytest.raises(ConfigError, match=f"^stages must be 1 to 10, got {stages}$"):
        build(how, stages=stages)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("stages", [11, *HUGE])
def test_the_stages_bound_is_checked_before_stage_orders_are_counted(how: str, stages: int) -> None:
    # stage_orders is validated against self.stages, and spelt out stages times: the
    # stages bound must fire first, whatever stage_orders holds.
    for orders in [("free",) * 3, ("free",) * 11, ("sideways",)]:
        with pytest.raises(ConfigError, match=f"^stages must be 1 to 10, got {stages}$"):
            build(how, stages=stages, stage_orders=orders)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("field", ["max_fences", "max_fences_per_turn"])
@pytest.mark.parametrize("cap", [101, *HUGE])
def test_max_fences_above_a_hundred_is_a_config_error(how: str, field: str, cap: int) -> None:
    with pytest.raises(ConfigError, match=f"^{field} must be 0 to 100, got {cap}$"):
        build(how, **{field: cap})


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("points", [1001, *HUGE])
def test_premium_above_a_thousand_is_a_config_error(how: str, points: int) -> None:
    with pytest.raises(ConfigError, match=f"^premium must be 0 to 1000, got {points}$"):
        build(how, premium=points)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("points", [1001, *HUGE])
def test_penalty_above_a_thousand_is_a_config_error(how: str, points: int) -> None:
    with pytest.raises(ConfigError, match=f"^penalty must be 0 to 1000, got {points}$"):
        build(how, penalty=points)


def build_box_scores(how: str, **fields: Any) -> BoxScores:
    """Box scores with ``fields``, built by the constructor or evolved from the default."""
    if how == "constructor":
        return BoxScores(**fields)
    return attrs.evolve(BoxScores(), **fields)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("box", ["small_straight", "large_straight", "poker"])
@pytest.mark.parametrize("points", [1001, *HUGE])
def test_box_scores_above_a_thousand_are_a_config_error(how: str, box: str, points: int) -> None:
    with pytest.raises(ConfigError, match=f"^{box} must be 0 to 1000, got {points}$"):
        build_box_scores(how, **{box: points})


NUMBERS = [
    "players",
    "throws_per_turn",
    "stages",
    "max_fences",
    "max_fences_per_turn",
    "premium",
    "penalty",
]


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("field", NUMBERS)
@pytest.mark.parametrize("value", [True, False, 3.0, 10.0**30, "3", 1 + 0j])
def test_a_bounded_field_refuses_what_is_not_a_plain_int(how: str, field: str, value: Any) -> None:
    with pytest.raises(ConfigError, match=f"^{field} must be a whole number, got "):
        build(how, **{field: value})


@pytest.mark.parametrize("box", ["small_straight", "large_straight", "poker"])
@pytest.mark.parametrize("value", [True, 15.0, 10.0**30])
def test_a_box_score_refuses_what_is_not_a_plain_int(box: str, value: Any) -> None:
    with pytest.raises(ConfigError, match=f"^{box} must be a whole number, got "):
        BoxScores(**{box: value})


@pytest.mark.parametrize("sign", [1, -1])
def test_a_number_too_long_to_print_still_gives_the_config_error(sign: int) -> None:
    # str() of an int over 4300 digits raises ValueError; the error names its size.
    with pytest.raises(ConfigError, match=r"^stages must be 1 to 10, got <int of 16610 bits>"):
        dp.Config(stages=sign * 10**5000)


@pytest.mark.parametrize(
    ("field", "value", "bound"),
    [
        ("stages", 10**6, "1 to 10"),
        ("stages", 10**9, "1 to 10"),
        ("throws_per_turn", 11, "1 to 10"),
        ("throws_per_turn", 10**9, "1 to 10"),
        ("players", 9, "1 to 8"),
        ("max_fences", 101, "0 to 100"),
        ("max_fences_per_turn", 101, "0 to 100"),
        ("premium", 1001, "0 to 1000"),
        ("penalty", 1001, "0 to 1000"),
    ],
)
def test_loading_a_config_over_a_bound_is_refused(field: str, value: int, bound: str) -> None:
    # Numbers of many digits (10**30) may be refused by the loader before the config sees
    # them, so these stay short enough to reach the bound.
    data = json.loads(serialize.dumps(dp.Config()))
    data["data"][field] = value
    with pytest.raises(TabletopError, match=f"{field} must be {bound}, got {value}"):
        serialize.loads(json.dumps(data))


def test_loading_box_scores_over_the_bound_is_refused() -> None:
    data = json.loads(serialize.dumps(dp.Config()))
    data["data"]["box_scores"]["poker"] = 10**9
    with pytest.raises(TabletopError, match="poker must be 0 to 1000, got 1000000000"):
        serialize.loads(json.dumps(data))


def test_a_game_record_with_a_million_stages_is_refused_before_replay() -> None:
    record = json.loads(GameRecord("dice-poker", dp.Config(), 7, ()).to_json())
    record["config"]["stages"] = 10**6
    with pytest.raises(TabletopError, match="stages must be 1 to 10, got 1000000"):
        GameRecord.from_json(json.dumps(record))


LARGEST = dp.Config(
    players=dp.MAX_PLAYERS,
    throws_per_turn=MAX_THROWS_PER_TURN,
    stages=MAX_STAGES,
    fences=True,
    max_fences=None,
    max_fences_per_turn=None,
    premium=MAX_POINTS,
    penalty=MAX_POINTS,
    box_scores=BoxScores(MAX_POINTS, MAX_POINTS, MAX_POINTS),
    auto_chance=False,
)
"""The config with the most moves: every bound at its top, fences uncapped, each throw a
chance point."""


def test_the_largest_config_bounds_a_game_well_under_a_hundred_thousand_moves() -> None:
    assert dp.max_moves(LARGEST) < 100_000
    assert dp.max_moves(LARGEST) == max(
        dp.max_moves(attrs.evolve(LARGEST, auto_chance=auto, fences=fences))
        for auto in (True, False)
        for fences in (True, False)
    )


def test_the_largest_config_plays_out_a_whole_random_game() -> None:
    state = dp.new_game(LARGEST, seed=3)
    assert [len(cells) for cells in state.sheets] == [150] * 8
    playout = random_playout(dp.RULES, LARGEST, seed=3, chooser_seed=4)
    final = playout.states[-1]
    assert dp.is_over(final)
    assert final.turns_played == LARGEST.turns_per_game
    dp.check_state(final)


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
        dp.new_game(dp.Config(), seed=0, deal=[1, 2, 3])


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


class Hostile:
    """A value whose __eq__, __hash__ and __repr__ raise."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    "changes",
    [
        {"stage_orders": itertools.repeat("free")},
        {"stage_orders": (Hostile(),)},
        {"stage_orders": {"free"}},
        {"players": Hostile()},
        {"fences": Hostile()},
        {"box_scores": Hostile()},
        {"max_fences": Hostile()},
    ],
    ids=["endless-iterator", "hostile-order", "a-set", "players", "fences", "box-scores", "cap"],
)
def test_a_config_of_odd_objects_is_a_config_error_not_a_hang_or_a_crash(
    changes: dict[str, Any],
) -> None:
    with pytest.raises(ConfigError, match="must be"):
        dp.Config(**changes)
