"""Observations, chance offsets and action texts: every registered game, several configs.

The observation of a view is a fixed-size tuple of floats within the spec's bounds, read
from the view alone; chance outcomes are numbered from ``chance_offset`` up; every action
number has a text, and a legal move's text parses back to it.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules import account, dice_poker, palace
from tabletop_rules.account.moves import CHANCE_OFFSET as ACCOUNT_CHANCE_OFFSET
from tabletop_rules.account.observation import ACCOUNT_CLIP, LOG_CLIP
from tabletop_rules.dice_poker.moves import CHANCE_OFFSET as DICE_POKER_CHANCE_OFFSET
from tabletop_rules.errors import IllegalMoveError, TabletopError
from tabletop_rules.observation import Features, ObservationSpec, seats_from
from tabletop_rules.protocol import CHANCE, Ruleset, registered
from tabletop_rules.rng import Rng
from tabletop_rules.testing import (
    check_action_texts,
    check_chance_offset,
    check_observation,
    random_playout,
)

CONFIGS: dict[str, tuple[Any, ...]] = {
    "dice-poker": (
        dice_poker.Config(),
        dice_poker.Config(players=1, stages=1, throws_per_turn=1, auto_chance=False),
        dice_poker.Config(players=4, stages=2, max_fences=2, max_fences_per_turn=1),
        dice_poker.Config(players=3, fences=False, stage_orders="announce", auto_chance=False),
    ),
    "palace": (
        palace.Config(),
        palace.Config(players=3, decks=2, hand_size=1, quad="burn", max_turns=60),
        palace.Config(players=5, face_up_play="from_table", play_until="last", max_turns=80),
        palace.Config(players=2, decks=4, hand_size=9, must_beat="higher", max_turns=40),
    ),
    "account": (
        account.Config(),
        account.Config(players=1, rows=1, columns=2, max_rounds=5, auto_chance=False),
        account.Config(players=4, rows=3, columns=9, max_markers=5, collapse=True, max_rounds=8),
        account.Config(players=3, floor_at_zero=True, end="finish_round", auto_chance=False),
    ),
}
CASES = [
    pytest.param(rules, config, id=f"{rules.name}-{number}")
    for rules in registered()
    if rules.name in CONFIGS
    for number, config in enumerate(CONFIGS[rules.name])
]
SEEDS = (1, 2)


def _states(rules: Ruleset[Any, Any, Any], config: Any, seed: int) -> tuple[Any, ...]:
    states = random_playout(rules, config, seed, seed + 100).states
    step = max(1, len(states) // 25)
    return (*states[::step], states[-1])


def test_every_builtin_game_is_covered() -> None:
    assert {rules.name for rules in registered()} >= set(CONFIGS)


@pytest.mark.parametrize(("rules", "config"), CASES)
def test_observations_fit_the_spec_and_come_from_the_view_alone(
    rules: Ruleset[Any, Any, Any], config: Any
) -> None:
    for seed in SEEDS:
        for state in _states(rules, config, seed):
            for rng_seed in (3, 4):
                check_observation(rules, state, Rng.from_seed(rng_seed + seed))


@pytest.mark.parametrize(("rules", "config"), CASES)
def test_spec_is_fixed_for_a_config(rules: Ruleset[Any, Any, Any], config: Any) -> None:
    spec = rules.observation_spec(config)
    assert spec == rules.observation_spec(attrs.evolve(config))
    assert spec.shape == (spec.size,)
    assert len(spec.names) == len(set(spec.names)) == spec.size
    assert all(low <= high for low, high in zip(spec.low, spec.high, strict=True))


@pytest.mark.parametrize(("rules", "config"), CASES)
def test_seats_see_different_numbers_where_their_views_differ(
    rules: Ruleset[Any, Any, Any], config: Any
) -> None:
    differing = 0
    for state in _states(rules, config, 5):
        seats = (None, *range(rules.players(config)))
        views = [rules.view(state, seat) for seat in seats]
        numbers = [rules.observe(view) for view in views]
        for first in range(len(seats)):
            for second in range(first + 1, len(seats)):
                if views[first] != views[second]:
                    differing += numbers[first] != numbers[second]
                    assert numbers[first] != numbers[second], (
                        "the viewer is encoded, so two seats' numbers always differ"
                    )
    assert differing


@pytest.mark.parametrize(("rules", "config"), CASES)
def test_chance_outcomes_are_numbered_from_the_offset(
    rules: Ruleset[Any, Any, Any], config: Any
) -> None:
    chance_points = 0
    for seed in SEEDS:
        for state in random_playout(rules, config, seed, seed + 7).states:
            check_chance_offset(rules, state)
            chance_points += rules.current_player(state) == CHANCE
    if rules.name != "palace" and not getattr(config, "auto_chance", True):
        assert chance_points, "an auto_chance=False game stops at chance points"


@pytest.mark.parametrize(("rules", "config"), CASES)
def test_every_action_number_has_a_text(rules: Ruleset[Any, Any, Any], config: Any) -> None:
    check_action_texts(rules, config)


def test_chance_offsets_of_the_codecs() -> None:
    assert dice_poker.chance_offset(dice_poker.Config()) == 249 == DICE_POKER_CHANCE_OFFSET
    assert account.chance_offset(account.Config()) == 137 == ACCOUNT_CHANCE_OFFSET
    for config in CONFIGS["palace"]:
        assert palace.chance_offset(config) == palace.num_actions(config)
    texts = [dice_poker.action_text(dice_poker.Config(), n) for n in range(710)]
    assert all(text.startswith("dice ") for text in texts[249:])
    assert not any(text.startswith("dice ") for text in texts[:249])
    texts = [account.action_text(account.Config(), n) for n in range(143)]
    assert texts[137:] == [f"die {face}" for face in range(1, 7)]
    assert not any(text.startswith("die ") for text in texts[:137])


def test_palace_action_text_names_a_play_class_by_its_ranks() -> None:
    config = palace.Config(decks=2)
    assert palace.action_text(config, 0) == "ready"
    assert palace.action_text(config, 5) == "blind 2"
    assert palace.action_text(config, palace.encode(palace.read_move("swap 4H QS"))) == (
        "swap 4H QS"
    )
    assert palace.action_text(config, palace.encode(palace.read_move("play 10S 10C 10D"))) == (
        "play 10 10 10"
    )
    assert palace.action_text(config, palace.num_actions(config) - 1) == "play " + " ".join(
        ["A"] * 8
    )


@pytest.mark.parametrize("rules", [case.values[0] for case in CASES[::4]])
@pytest.mark.parametrize("bad", [-1, 10**6, 2.0, True, "3", None])
def test_a_bad_action_number_raises_naming_the_range(
    rules: Ruleset[Any, Any, Any], bad: object
) -> None:
    config = rules.config_type()
    with pytest.raises(IllegalMoveError) as raised:
        rules.action_text(config, bad)  # type: ignore[arg-type]
    assert isinstance(raised.value, TabletopError)
    if type(bad) is int:
        assert f"0..{rules.num_actions(config) - 1}" in str(raised.value)


def test_a_spectator_sees_no_hand() -> None:
    state = palace.new_game(seed=3)
    spec = palace.observation_spec(palace.Config())
    seen = dict(zip(spec.names, palace.observe(palace.view(state, None)), strict=True))
    assert seen["viewer[spectator]"] == 1.0
    assert not any(value for name, value in seen.items() if name.startswith("hand["))
    mine = dict(zip(spec.names, palace.observe(palace.view(state, 0)), strict=True))
    assert sum(value for name, value in mine.items() if name.startswith("hand[")) == 3
    assert mine["viewer[S0]"] == 1.0


def test_the_viewer_comes_first() -> None:
    state = dice_poker.apply(dice_poker.new_game(seed=42), dice_poker.Roll())
    state = dice_poker.apply(state, dice_poker.parse_move(state, "write fives"))
    spec = dice_poker.observation_spec(dice_poker.Config())
    for seat, sheet in ((0, "P0"), (1, "P1")):
        seen = dict(zip(spec.names, dice_poker.observe(dice_poker.view(state, seat)), strict=True))
        assert seen[f"filled[{sheet},s0,fives]"] == 1.0
        assert seen[f"sheet[{sheet},s0,fives]"] == -5.0
    assert seats_from(1, 2) == (1, 0)


def test_huge_accounts_are_clipped_and_logged() -> None:
    config = account.Config()
    seen = account.view(account.new_game(config, seed=2), 0)
    spec = account.observation_spec(config)
    for accounts in ((10**9, -(10**9)), (10**30, -(10**30)), (-3, 0)):
        numbers = account.observe(attrs.evolve(seen, accounts=accounts))
        assert spec.contains(numbers)
        named = dict(zip(spec.names, numbers, strict=True))
        assert named["account[P0]"] == max(-ACCOUNT_CLIP, min(accounts[0], 100_000))
        assert abs(named["account_log[P1]"]) <= LOG_CLIP
    assert named["account_log[P0]"] < 0


def test_an_observation_spec_checks_its_shape() -> None:
    with pytest.raises(ValueError, match="one low, high and name"):
        ObservationSpec(low=(0.0,), high=(1.0, 1.0), names=("a", "b"))
    with pytest.raises(ValueError, match="unique"):
        ObservationSpec(low=(0, 0), high=(1, 1), names=("a", "a"))
    with pytest.raises(ValueError, match="above high"):
        ObservationSpec(low=(2,), high=(1,), names=("a",))
    with pytest.raises(ValueError, match="no names"):
        Features().spec()
    spec = ObservationSpec(low=(0, 0), high=(1, 1), names=("a", "b"))
    assert spec.low == (0.0, 0.0)
    assert not spec.contains((0.5,))
