"""Palace's compiled kernel: its lists of legal actions, its restarts and its entry, and
games restarted every step under every house rule played as the rules play them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import batch, palace
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.testing.batch import check_lockstep

pytest.importorskip("numba")

from tabletop_rules.palace.batch import PalaceEngine
from tabletop_rules.palace.config import MAX_DECKS

from .test_palace import configs, seeds

WIDEST = palace.Config(players=palace.MAX_PLAYERS, decks=MAX_DECKS, hand_size=1)


def assert_lists_are_the_masks(games: batch.Games) -> None:
    """Each game's ``legal_actions``: its mask's actions exactly, ascending, then -1 (at
    least one column; none wider than the longest list needs).
    """
    listed = games.legal_actions
    assert listed is not None
    assert listed.dtype == np.int16
    assert listed.ndim == 2
    counts = (listed >= 0).sum(axis=1)
    assert listed.shape == (games.size, max(int(counts.max()), 1))
    for i, row in enumerate(listed.tolist()):
        actions, padding = row[: counts[i]], row[counts[i] :]
        assert padding == [-1] * len(padding), f"game {i}: {row}"
        assert actions == sorted(set(actions)), f"game {i}: {row}"
        assert actions == np.flatnonzero(games.legal_mask[i]).tolist(), f"game {i}"


def test_finished_games_start_again_from_the_seeds_given_and_only_they_are_dealt() -> None:
    config = palace.Config(max_turns=15)
    engine = PalaceEngine(config, size=16)
    check_lockstep(engine, seeds(16), reset_over=True, max_steps=150)
    games, generator, restarted = engine.reset(seeds(16)), np.random.default_rng(0), 0
    for _ in range(150):
        fresh = generator.integers(0, 2**64, size=16, dtype=np.uint64)
        after = engine.step(games, batch.random_actions(games, generator), reset=fresh)
        again = np.flatnonzero(after.data["turns"] < games.data["turns"]).tolist()
        for i in again:
            assert engine.state(after, i) == palace.new_game(config, seed=int(fresh[i]))
        kept = np.setdiff1d(np.arange(16), again)
        assert np.array_equal(after.data["seed"][kept], games.data["seed"][kept])
        assert not after.over.any()
        restarted += len(again)
        games = after
    assert restarted >= 16  # each game of fifteen turns ends within 150 moves


def test_the_widest_table_is_the_rules_game_to_the_end() -> None:
    engine = PalaceEngine(WIDEST, size=2)
    check_lockstep(engine, seeds(2, first=5), action_seed=2)


@settings(max_examples=10, deadline=None)
@given(configs(most_players=8), st.integers(0, 2**64 - 16), st.integers(0, 2**32))
def test_the_legal_lists_are_ascending_padded_and_the_masks_actions(
    config: palace.Config, first: int, action_seed: int
) -> None:
    engine = PalaceEngine(config, size=16)
    games, generator = engine.reset(seeds(16, first)), np.random.default_rng(action_seed)
    assert games.legal_mask.shape == (16, engine.num_actions)
    for step in range(200):
        assert_lists_are_the_masks(games)
        fresh = generator.integers(0, 2**64, size=16, dtype=np.uint64)
        reset = fresh if step % 5 == 0 else None
        games = engine.step(games, batch.random_actions(games, generator), reset=reset)
    assert_lists_are_the_masks(engine.restart(games, seeds(16), np.arange(16) % 2 == 0))


def test_a_batch_all_over_lists_no_action_and_draws_zero() -> None:
    engine = PalaceEngine(palace.Config(max_turns=1), size=4)
    games, generator = engine.reset(seeds(4)), np.random.default_rng(0)
    while not games.over.all():
        games = engine.step(games, batch.random_actions(games, generator))
    assert games.legal_actions is not None
    assert games.legal_actions.tolist() == [[-1]] * 4
    assert not games.legal_mask.any()
    assert batch.random_actions(games, generator).tolist() == [0] * 4


def test_an_illegal_action_names_its_game_and_plays_nothing() -> None:
    engine = PalaceEngine(palace.Config(), size=3)
    games = engine.reset(seeds(3))
    before = [engine.state(games, i) for i in range(3)]
    take = palace.encode(palace.TakePile())  # nothing to take in the swap phase
    assert games.legal_actions is not None  # step's check reads the lists
    with pytest.raises(IllegalMoveError, match=r"game 1: action 1 \('take'\) is not legal"):
        engine.step(games, np.array([0, take, 0]))
    assert [engine.state(games, i) for i in range(3)] == before
    after = engine.step(games, np.array([0, 0, 0]))  # the same batch still plays on
    assert after.current_player.tolist() == [1, 1, 1]


def test_a_step_leaves_the_games_it_was_given_as_they_were() -> None:
    engine = PalaceEngine(palace.Config(max_turns=5), size=4)
    games, generator = engine.reset(seeds(4)), np.random.default_rng(3)
    for _ in range(40):
        copies = {name: value.copy() for name, value in games.data.items()}
        mask = games.legal_mask.copy()
        fresh = generator.integers(0, 2**64, size=4, dtype=np.uint64)
        after = engine.step(games, batch.random_actions(games, generator), reset=fresh)
        assert np.array_equal(games.legal_mask, mask)
        assert all(np.array_equal(games.data[name], copies[name]) for name in copies)
        games = after


@settings(max_examples=5, deadline=None)
@given(configs(most_players=8), st.integers(0, 2**64 - 16), st.integers(0, 2**32))
def test_every_house_rule_restarting_every_step_plays_the_rules_games(
    config: palace.Config, first: int, action_seed: int
) -> None:
    engine = PalaceEngine(config, size=16)
    check_lockstep(
        engine, seeds(16, first), action_seed=action_seed, max_steps=300, reset_over=True
    )
