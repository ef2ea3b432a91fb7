"""``simulate(..., batched=True)`` and ``tabletop-rules simulate --batched``: random play on
the batched engine, dealt as the unbatched run deals, the same result on any executor."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from tabletop_rules import batch, executors
from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import BotSelectionError, ConfigError
from tabletop_rules.simulate import derived_seed, seating, simulate

ONE_STAGE = dp.Config(stages=1)


def test_each_game_is_dealt_from_the_seed_the_unbatched_run_deals_it_from() -> None:
    result = simulate(dp.RULES, ["random", "random"], 50, seed=9, batched=True, chunk_size=20)
    assert [game.seed for game in result.games] == [derived_seed(9, i) for i in range(50)]
    assert [game.seating for game in result.games] == [seating(i, 2) for i in range(50)]


def test_the_scores_winners_and_lengths_are_those_of_the_rules_playing_the_batchs_moves() -> None:
    result = simulate(dp.RULES, ["random", "random"], 6, seed=4, config=ONE_STAGE, batched=True)
    # the run's one batch, played again beside the rules with its generator
    engine = batch.engine("dice-poker", ONE_STAGE, size=6)
    generator = np.random.default_rng([4, 0])
    states = [dp.new_game(ONE_STAGE, seed=derived_seed(4, i)) for i in range(6)]
    games = engine.reset(np.array([state.seed for state in states], dtype=np.uint64))
    moves = [0] * 6
    while not games.over.all():
        actions = batch.random_actions(games, generator)
        for i, state in enumerate(states):
            if not dp.is_over(state):
                states[i] = dp.apply(state, dp.decode(state, int(actions[i])))
                moves[i] += 1
        games = engine.step(games, actions)
    assert [game.scores for game in result.games] == [dp.score(state) for state in states]
    assert [game.winners for game in result.games] == [dp.winners(state) for state in states]
    assert [game.moves for game in result.games] == moves


def test_a_finished_games_row_takes_the_next_game_once_an_eighth_of_the_batch_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(executors, "BATCH_SIZE", 16)  # rows wait for 2 to finish
    result = simulate(dp.RULES, ["random", "random"], 40, seed=3, config=ONE_STAGE, batched=True)
    # the same run beside the rules: each row's game played by the rules, rows dealt again
    engine = batch.engine("dice-poker", ONE_STAGE, size=16)
    generator = np.random.default_rng([3, 0])
    seeds = [derived_seed(3, i) for i in range(40)]
    states: list[dp.State | None] = [dp.new_game(ONE_STAGE, seed=seed) for seed in seeds[:16]]
    game_of_row = list(range(16))
    finished: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}
    moves = [0] * 40
    games = engine.reset(np.array(seeds[:16], dtype=np.uint64))
    while len(finished) < 40:
        actions = batch.random_actions(games, generator)
        for row, state in enumerate(states):
            if state is not None:
                states[row] = state = dp.apply(state, dp.decode(state, int(actions[row])))
                moves[game_of_row[row]] += 1
                if dp.is_over(state):
                    finished[game_of_row[row]] = (dp.score(state), dp.winners(state))
                    states[row] = None
        games = engine.step(games, actions)
        waiting = [row for row, state in enumerate(states) if state is None]
        left = 40 - (max(game_of_row) + 1)
        if left and len(waiting) >= min(2, left):
            where = np.zeros(16, dtype=bool)
            fresh = np.zeros(16, dtype=np.uint64)
            for row in waiting[:left]:
                game_of_row[row] = max(game_of_row) + 1
                states[row] = dp.new_game(ONE_STAGE, seed=seeds[game_of_row[row]])
                where[row], fresh[row] = True, seeds[game_of_row[row]]
            games = engine.restart(games, fresh, where)
    assert [game.seed for game in result.games] == seeds
    assert [(game.scores, game.winners) for game in result.games] == [
        finished[i] for i in range(40)
    ]
    assert [game.moves for game in result.games] == moves


def test_a_process_pool_plays_the_batches_as_this_process_does() -> None:
    three = dp.Config(players=3, stages=1)
    here = simulate(
        dp.RULES, ["random"] * 3, 300, seed=2, config=three, batched=True, chunk_size=100
    )
    with ProcessPoolExecutor(2) as pool:
        there = simulate(
            dp.RULES,
            ["random"] * 3,
            300,
            seed=2,
            config=three,
            batched=True,
            chunk_size=100,
            executor=pool,
        )
    assert there == here


@pytest.mark.slow
def test_a_dask_cluster_plays_the_batches_as_this_process_does() -> None:
    distributed = pytest.importorskip("distributed", reason="Dask is an extra")
    here = simulate(dp.RULES, ["random", "random"], 400, seed=5, batched=True, chunk_size=100)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = simulate(
            dp.RULES,
            ["random", "random"],
            400,
            seed=5,
            batched=True,
            chunk_size=100,
            executor=client,
        )
    assert there == here


def test_the_batched_engine_plays_random_bots_only() -> None:
    with pytest.raises(BotSelectionError, match="the batched engine plays random bots only"):
        simulate(dp.RULES, ["greedy", "random"], 10, seed=1, batched=True)


def test_the_command_line_simulates_on_the_batched_engine() -> None:
    command = [sys.executable, "-m", "tabletop_rules", "simulate", "dice-poker", "--batched"]
    done = subprocess.run(
        [*command, "--games", "200", "--rule", "stages=1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    expected = simulate(dp.RULES, ["random", "random"], 200, seed=0, config=ONE_STAGE, batched=True)
    assert json.loads(done.stdout) == json.loads(json.dumps(expected.to_data()))


def test_a_game_that_stops_at_chance_points_is_refused() -> None:
    given_dice = dp.Config(stages=1, auto_chance=False)
    with pytest.raises(ConfigError, match="a game stopped at a chance point"):
        simulate(dp.RULES, ["random", "random"], 4, seed=1, config=given_dice, batched=True)
