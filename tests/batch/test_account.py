"""The account game's batched kernel plays, game for game and step for step, the games the
rules engine plays: the same deals, rolls, reshuffles, masks, scores, states and
observations, under every house rule.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import account, batch
from tabletop_rules.account.cards import KINDS
from tabletop_rules.account.config import DEFAULT_DECK, ENDS, MAX_MARKERS
from tabletop_rules.errors import ConfigError, IllegalMoveError
from tabletop_rules.testing.batch import check_lockstep

pytest.importorskip("numba")

from tabletop_rules.account.batch import AccountEngine

ROLL = 40


def _seeds(size: int, first: int = 0) -> np.ndarray[Any, np.dtype[np.uint64]]:
    return np.arange(first, first + size, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)


@st.composite
def configs(draw: st.DrawFn) -> account.Config:
    """Small fields and odd decks (few valued cards: B runs the pack out and reshuffles),
    every house rule drawn.
    """
    rows = draw(st.integers(1, 4))
    columns = draw(st.integers(1, 8))
    counts = draw(st.lists(st.integers(0, 6), min_size=len(KINDS), max_size=len(KINDS)))
    deck = dict(zip(KINDS, counts, strict=True))
    short = rows * columns - sum(counts)
    if short > 0:
        deck["B"] += short
    most = draw(st.integers(1, MAX_MARKERS))
    return account.Config(
        players=draw(st.integers(1, 4)),
        deck=deck,
        rows=rows,
        columns=columns,
        starting_markers=draw(st.integers(1, most)),
        max_markers=most,
        marker_cost=draw(st.sampled_from([0, 1, 10, 100, 2000])),
        placement_scores=draw(st.booleans()),
        floor_at_zero=draw(st.booleans()),
        collapse=draw(st.booleans()),
        end=draw(st.sampled_from(ENDS)),
        max_rounds=draw(st.integers(1, 8)),
        auto_chance=draw(st.booleans()),
    )


def test_the_default_game_plays_as_the_rules_to_the_end() -> None:
    engine = batch.engine("account", account.Config(), size=48)
    report = check_lockstep(engine, _seeds(48))
    assert report.states == 48 * (report.steps + 1)
    assert report.steps > 100  # whole games: 30 rounds of two players at most


B_HEAVY = account.Config(
    rows=2,
    columns=3,
    deck={"B": 4, "Z": 2, "+1": 1, "End": 1, "-10": 1},
    collapse=True,
    marker_cost=0,
    max_markers=8,
    end="finish_round",
)
"""A small field, a deck mostly B and Z: collapses and reshuffles come often."""


def test_collapse_with_b_heavy_decks_reshuffles_as_the_rules() -> None:
    check_lockstep(batch.engine("account", B_HEAVY, size=16), _seeds(16, 1000))


@settings(max_examples=25, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_every_house_rule_plays_as_the_rules(config: account.Config, first: int) -> None:
    check_lockstep(
        batch.engine("account", config, size=12),
        _seeds(12, first),
        action_seed=first,
    )


def test_reset_restarts_finished_games_from_the_seeds_given() -> None:
    config = account.Config(max_rounds=3, marker_cost=10)
    report = check_lockstep(
        batch.engine("account", config, size=24),
        _seeds(24, 7),
        reset_over=True,
        max_steps=150,
    )
    assert report.states == 24 * 151


def test_reset_deals_what_new_game_deals() -> None:
    engine = batch.engine("account", account.Config(players=3), size=5)
    seeds = _seeds(5, 3)
    games = engine.reset(seeds)
    for i, seed in enumerate(seeds.tolist()):
        assert engine.state(games, i) == account.new_game(engine.config, seed=seed)


def _snapshot(games: batch.Games) -> dict[str, np.ndarray[Any, Any]]:
    arrays = dict(games.data)
    arrays.update(mask=games.legal_mask, player=games.current_player, over=games.over)
    return {name: value.copy() for name, value in arrays.items()}


def _same(before: dict[str, np.ndarray[Any, Any]], games: batch.Games, rows: Any) -> bool:
    after = _snapshot(games)
    return all(np.array_equal(before[name][rows], after[name][rows]) for name in before)


def test_an_illegal_action_names_its_game_and_changes_nothing() -> None:
    engine = batch.engine("account", account.Config(), size=4)
    games = engine.reset(_seeds(4))
    before = _snapshot(games)
    actions = np.zeros(4, dtype=np.int64)
    actions[2] = ROLL  # in setup only Place is legal
    with pytest.raises(IllegalMoveError, match=r"game 2: action 40 \('roll'\)"):
        engine.step(games, actions)
    assert _same(before, games, slice(None))
    assert engine.step(games, np.zeros(4, dtype=np.int64)).current_player.tolist() == [1] * 4


def test_a_game_over_ignores_its_action_and_stays_as_it_was() -> None:
    engine = batch.engine("account", account.Config(max_rounds=1), size=16)
    games = engine.reset(_seeds(16))
    generator = np.random.default_rng(1)
    while not games.over.any():
        games = engine.step(games, batch.random_actions(games, generator))
    over = games.over.copy()
    before = _snapshot(games)
    games = engine.step(games, batch.random_actions(games, generator))
    assert _same(before, games, over)
    assert (games.current_player[over] == batch.NOBODY).all()


def test_roll_waits_for_a_die_outcome_without_auto_chance() -> None:
    config = account.Config(players=1, auto_chance=False)
    engine = batch.engine("account", config, size=1)
    games = engine.step(engine.reset(_seeds(1)), np.array([0]))  # place on column 0
    games = engine.step(games, np.array([ROLL]))
    assert games.current_player.tolist() == [account.CHANCE]
    assert np.flatnonzero(games.legal_mask[0]).tolist() == list(range(137, 143))
    games = engine.step(games, np.array([137 + 3]))  # the die shows 4
    assert engine.state(games, 0).roll == 4


OTHER_VALUES: dict[str, Any] = {
    "players": 5,
    "deck": {str(card): count for card, count in DEFAULT_DECK} | {"B": 9},
    "rows": 2,
    "columns": 3,
    "starting_markers": 2,
    "max_markers": 8,
    "marker_cost": 0,
    "placement_scores": False,
    "floor_at_zero": True,
    "collapse": True,
    "end": "finish_round",
    "max_rounds": 2,
    "auto_chance": False,
}
"""A value other than the default for each field of the config."""


@pytest.mark.parametrize("field", [field.name for field in attrs.fields(account.Config)])
def test_every_house_rule_is_taken(field: str) -> None:
    """No field is refused: the kernel builds under a non-default value of each."""
    config = attrs.evolve(account.Config(), **{field: OTHER_VALUES[field]})
    engine = batch.engine("account", config, size=3)
    assert isinstance(engine, AccountEngine)
    check_lockstep(engine, _seeds(3), max_steps=40)


def test_a_config_of_another_game_is_a_config_error() -> None:
    from tabletop_rules import dice_poker

    with pytest.raises(ConfigError, match="takes a Config"):
        batch.engine("account", dice_poker.Config(), size=2)


def test_observations_have_the_spec_size() -> None:
    config = account.Config(players=3, collapse=True)
    engine = batch.engine("account", config, size=2)
    observed = engine.observe(engine.reset(_seeds(2)))
    assert observed.shape == (2, account.observation_spec(config).size)
    assert observed.dtype == np.float32


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(config=configs(), first=st.integers(0, 2**32))
def test_random_house_rules_over_hundreds_of_games_play_as_the_rules(
    config: account.Config, first: int
) -> None:
    check_lockstep(batch.engine("account", config, size=48), _seeds(48, first))


@pytest.mark.slow
def test_over_a_hundred_default_games_play_as_the_rules() -> None:
    engine = batch.engine("account", account.Config(), size=192)
    report = check_lockstep(engine, _seeds(192, 5))
    assert report.games == 192
