"""Pig, the fourth game, has a batched kernel of its own (``examples/pig``): the frame and the
lock-step kit serve a game from another package as they serve the library's three."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import batch
from tabletop_rules.errors import ConfigError, IllegalMoveError
from tabletop_rules.testing.batch import check_lockstep, check_records

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "pig" / "src"))

import tabletop_pig as pig
import tabletop_pig.batched  # registers the kernel

configs = st.builds(
    pig.Config, players=st.integers(2, 5), target=st.integers(10, 60), max_rounds=st.integers(1, 15)
)
seeds = st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=24).map(
    lambda values: np.array(values, dtype=np.uint64)
)


def test_the_default_game_plays_in_lockstep_with_the_rules_to_the_end() -> None:
    engine = batch.engine("pig", pig.Config(), size=32)
    report = check_lockstep(engine, np.arange(32, dtype=np.uint64) * 7919)
    assert report.games == 32
    assert report.steps > 50


@settings(max_examples=20, deadline=None)
@given(configs, seeds, st.integers(0, 2**32))
def test_every_house_rule_plays_in_lockstep_with_the_rules(
    config: pig.Config, values: np.ndarray, action_seed: int
) -> None:
    check_lockstep(batch.engine("pig", config, size=len(values)), values, action_seed=action_seed)


def test_a_finished_game_restarts_from_the_seed_given_for_it() -> None:
    engine = batch.engine("pig", pig.Config(target=20), size=8)
    check_lockstep(engine, np.arange(8, dtype=np.uint64), reset_over=True, max_steps=120)


def test_an_illegal_action_names_its_game_and_plays_nothing() -> None:
    engine = batch.engine("pig", pig.Config(), size=3)
    games = engine.reset(np.array([1, 2, 3], dtype=np.uint64))
    with pytest.raises(IllegalMoveError, match=r"game 1: action 1 \('hold'\) is not legal"):
        engine.step(games, np.array([0, 1, 0]))  # nobody has a turn total to hold yet
    assert engine.state(games, 1) == pig.RULES.new_game(seed=2)


def test_the_kernel_refuses_the_house_rule_it_does_not_take() -> None:
    with pytest.raises(ConfigError, match="auto_chance=False"):
        batch.engine("pig", pig.Config(auto_chance=False), size=4)


def test_the_kernel_keeps_the_record_contract_of_the_kit() -> None:
    engine = batch.engine("pig", pig.Config(target=20), size=6)
    others = [batch.engine("pig", pig.Config(target=30), size=6)]
    check_records(engine, np.arange(6, dtype=np.uint64), others=others)
