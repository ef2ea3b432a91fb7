"""Palace's batched kernel plays, game for game and step for step, the games the rules
engine plays: the same deal from the same seed, the same masks, seats, scores, states and
observations after the same moves, under every house rule.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import batch, palace
from tabletop_rules.palace.config import MAX_DECKS, MAX_HAND_SIZE
from tabletop_rules.testing.batch import check_lockstep

pytest.importorskip("numba")


@st.composite
def configs(draw: st.DrawFn, most_players: int = 5) -> palace.Config:
    """Any palace config, players bounded to keep the reference quick."""
    decks = draw(st.integers(1, MAX_DECKS))
    hand_size = draw(st.integers(1, MAX_HAND_SIZE))
    players = draw(st.integers(2, min(most_players, 52 * decks // (6 + hand_size))))
    return palace.Config(
        players=players,
        decks=decks,
        hand_size=hand_size,
        must_beat=draw(st.sampled_from(["equal_or_higher", "higher"])),
        quad=draw(st.sampled_from(["extra_play", "burn"])),
        face_up_play=draw(st.sampled_from(["take_into_hand", "from_table"])),
        voluntary_pickup=draw(st.booleans()),
        first_player=draw(st.sampled_from(["lowest_card", "seat0"])),
        play_until=draw(st.sampled_from(["first_out", "last"])),
        max_turns=draw(st.integers(1, 1000)),
    )


def seeds(size: int, first: int = 0) -> np.ndarray:
    return np.arange(first, first + size, dtype=np.uint64)


WIDEST_TABLES = [
    palace.Config(players=palace.MAX_PLAYERS, decks=4, hand_size=1, play_until="last"),
    palace.Config.pagat(players=13, decks=4, hand_size=2, must_beat="higher"),
    palace.Config(decks=4, hand_size=9, quad="burn", first_player="seat0"),
]
"""The widest tables the rules allow, each at an edge: most seats, pagat's, the largest hand."""


def test_the_default_game_is_the_rules_game_to_the_end() -> None:
    engine = batch.engine("palace", palace.Config(), size=24)
    report = check_lockstep(engine, seeds(24))
    assert report.steps > 500  # whole games: the swaps, then play to the end


def test_pagats_rules_are_the_rules_games_to_the_end() -> None:
    engine = batch.engine("palace", palace.Config.pagat(players=3), size=12)
    check_lockstep(engine, seeds(12, first=2**63), action_seed=1)


@settings(max_examples=5, deadline=None)
@given(configs(), st.integers(0, 2**64 - 16), st.integers(0, 2**32))
def test_every_house_rule_plays_the_rules_games(
    config: palace.Config, first: int, action_seed: int
) -> None:
    engine = batch.engine("palace", config, size=8)
    check_lockstep(engine, seeds(8, first), action_seed=action_seed)


def test_every_house_rule_and_size_of_table_is_taken() -> None:
    widest = palace.Config(players=palace.MAX_PLAYERS, decks=MAX_DECKS, hand_size=1)
    for config in (widest, palace.Config(decks=4, hand_size=9), palace.Config.pagat()):
        engine = batch.engine("palace", config, size=2)
        games = engine.reset(seeds(2))
        assert engine.state(games, 1) == palace.new_game(config, seed=1)
        assert engine.observe(games).shape == (2, palace.observation_spec(config).size)


def test_a_game_over_ignores_its_action_and_stays_as_it_was() -> None:
    engine = batch.engine("palace", palace.Config(max_turns=1), size=2)
    games = engine.reset(seeds(2))
    generator = np.random.default_rng(0)
    while not games.over.all():
        games = engine.step(games, batch.random_actions(games, generator))
    ended = [engine.state(games, i) for i in range(2)]
    again = engine.step(games, np.zeros(2, dtype=np.int64))
    assert [engine.state(again, i) for i in range(2)] == ended
    assert again.current_player.tolist() == [batch.NOBODY] * 2
    assert not again.legal_mask.any()


@pytest.mark.slow
def test_dozens_of_default_games_are_the_rules_games() -> None:
    engine = batch.engine("palace", palace.Config(), size=64)
    check_lockstep(engine, seeds(64, first=10_000), action_seed=7)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(configs(most_players=8), st.integers(0, 2**64 - 64), st.integers(0, 2**32))
def test_random_house_rules_over_many_games_are_the_rules_games(
    config: palace.Config, first: int, action_seed: int
) -> None:
    engine = batch.engine("palace", config, size=16)
    check_lockstep(engine, seeds(16, first), action_seed=action_seed)


@pytest.mark.slow
@pytest.mark.parametrize("config", WIDEST_TABLES)
def test_the_widest_tables_are_the_rules_games(config: palace.Config) -> None:
    engine = batch.engine("palace", config, size=8)
    check_lockstep(engine, seeds(8, first=99), action_seed=3)
