"""simulate(): many games with bots named by factory, the same result for a seed wherever
they are played, figures per bot, and failures that name the games they cost.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import pickle
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import account, palace
from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot, Unseeded
from tabletop_rules.errors import (
    BotSelectionError,
    ConfigError,
    InvalidStateError,
    SimulationError,
    TabletopError,
)
from tabletop_rules.protocol import Bot, get_ruleset
from tabletop_rules.results import VERSUS_HEADINGS
from tabletop_rules.simulate import (
    BATCHED_CHUNK_SIZE,
    MAX_GAMES,
    TASKS_IN_FLIGHT,
    GameResult,
    SimulationResult,
    default_chunk_size,
    derived_seed,
    mean_interval,
    play_game,
    seating,
    simulate,
    simulated_game,
    task_count,
    text_table,
    useful_workers,
    wilson_interval,
)
from tabletop_rules.testing.variants import variant

from .executors import Counting

T = TypeVar("T")

ONE_STAGE = dp.Config(stages=1)
"""Short dice poker games (one stage of fifteen boxes) keep these tests fast."""


def pool(workers: int = 2) -> ProcessPoolExecutor:
    """A process pool that does not fork a multi-threaded test process (forkserver)."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))


@pytest.fixture(scope="module")
def shared_pool() -> Iterator[ProcessPoolExecutor]:
    with pool() as executor:
        yield executor


def bot_seed(run_seed: int, index: int, seat: int) -> int:
    """The seed simulate gives the bot at ``seat`` in game ``index``."""
    return derived_seed(derived_seed(run_seed, index), 1 + seat)


@attrs.frozen
class FailsOnSeed:
    """A bot factory that raises for one seed: a bot that breaks in one game of a run."""

    seed: int

    def __call__(self, seed: int) -> Bot[dp.View, dp.Move]:
        if seed == self.seed:
            raise RuntimeError(f"no bot for seed {seed}")
        return RandomBot(dp.RULES, seed)


@attrs.frozen
class ExitsOnSeed:
    """A bot factory that ends its worker process abruptly for one seed (in the test
    process itself it only raises, so that a mistake cannot end the test run).
    """

    seed: int
    test_process: int

    def __call__(self, seed: int) -> Bot[dp.View, dp.Move]:
        if seed == self.seed:
            if os.getpid() == self.test_process:
                raise RuntimeError("ExitsOnSeed ran in the test process")
            os._exit(3)
        return RandomBot(dp.RULES, seed)


class ReversedExecutor:
    """Plays each task when it is submitted, but finishes their futures only once the
    last of ``tasks`` is submitted, the others last first, and then the last one: chunks
    that complete out of game order.
    """

    def __init__(self, tasks: int) -> None:
        self.tasks = tasks
        self.pending: list[tuple[Future[Any], Any]] = []

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        future: Future[T] = Future()
        self.pending.append((future, fn(*args)))
        if len(self.pending) == self.tasks:
            for waiting, value in reversed(self.pending):
                waiting.set_result(value)
        return future


# --- bots by name -------------------------------------------------------------------------------


def test_every_game_has_a_random_bot_and_dice_poker_and_palace_their_own() -> None:
    assert list(dp.RULES.bots) == ["random", "greedy", "coach"]
    assert list(palace.RULES.bots) == ["random", "lowcard", "search"]
    assert "random" in account.RULES.bots
    assert isinstance(dp.RULES.bots["greedy"](5), dp.GreedyBot)
    assert isinstance(palace.RULES.bots["lowcard"](5), palace.LowCardBot)
    assert isinstance(palace.RULES.bots["random"](5), RandomBot)


def test_a_random_bot_factory_seeds_the_bot() -> None:
    state = dp.apply(dp.new_game(seed=2), dp.Roll())
    made = dp.RULES.bots["random"](9)
    assert made.choose(dp.view(state, 0)) == RandomBot(dp.RULES, 9).choose(dp.view(state, 0))


def test_bot_factories_and_rulesets_pickle_so_they_reach_worker_processes() -> None:
    for rules in (dp.RULES, palace.RULES, account.RULES):
        assert pickle.loads(pickle.dumps(rules)) is rules
        for factory in rules.bots.values():
            assert type(pickle.loads(pickle.dumps(factory))(1)) is type(factory(1))


def test_an_unregistered_ruleset_refuses_to_pickle() -> None:
    unregistered = variant(dp.RULES, name="dice-poker-unregistered")
    with pytest.raises(pickle.PicklingError, match="register 'dice-poker-unregistered'"):
        pickle.dumps(unregistered)


def test_unseeded_makes_a_new_bot_each_call_and_ignores_the_seed() -> None:
    factory = Unseeded(dp.GreedyBot)
    assert factory(1) is not factory(1)
    assert factory(1).fence_value == dp.GreedyBot().fence_value


def test_an_unknown_bot_name_raises_naming_the_known_ones() -> None:
    with pytest.raises(BotSelectionError, match=r"no bot named 'smart'; its bots: random, greedy"):
        simulate(dp.RULES, ["random", "smart"], 4, seed=1)


def test_not_one_bot_per_seat_raises() -> None:
    with pytest.raises(BotSelectionError, match="seats 3 players: name 3 bots, got 2"):
        simulate(dp.RULES, ["random", "greedy"], 4, seed=1, config=dp.Config(players=3))


def test_a_bad_game_count_seed_or_chunk_size_raises_before_any_game() -> None:
    with pytest.raises(ValueError, match="games must be a positive integer"):
        simulate(dp.RULES, ["random", "random"], 0, seed=1)
    with pytest.raises(ValueError, match="seed must be an integer"):
        simulate(dp.RULES, ["random", "random"], 4, seed=-1)
    with pytest.raises(ValueError, match="chunk_size must be a positive integer"):
        simulate(dp.RULES, ["random", "random"], 4, seed=1, chunk_size=0)


def test_factories_can_be_given_instead_of_names() -> None:
    result = simulate(dp.RULES, [Unseeded(dp.GreedyBot), "random"], 6, seed=3, config=ONE_STAGE)
    named = simulate(dp.RULES, ["greedy", "random"], 6, seed=3, config=ONE_STAGE)
    assert result.games == named.games
    assert [bot.name for bot in result.bots] == ["GreedyBot", "random"]


def test_the_same_bot_twice_is_reported_twice_numbered() -> None:
    result = simulate(dp.RULES, ["random", "random"], 2, seed=3, config=ONE_STAGE)
    assert [bot.name for bot in result.bots] == ["random", "random #2"]


# --- seats and seeds ------------------------------------------------------------------------------


def test_each_bot_takes_each_seat_equally_often_when_rotated() -> None:
    config = dp.Config(players=3, stages=1)
    result = simulate(dp.RULES, ["greedy", "random", "random"], 6, seed=4, config=config)
    seats = Counter((bot, seat) for game in result.games for seat, bot in enumerate(game.seating))
    assert seats == Counter({(bot, seat): 2 for bot in range(3) for seat in range(3)})


def test_without_rotation_each_bot_keeps_its_seat() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=4, config=ONE_STAGE, rotate=False)
    assert {game.seating for game in result.games} == {(0, 1)}
    assert "bots in fixed seats" in result.table()


def test_game_seeds_derive_from_the_run_seed_and_the_index() -> None:
    result = simulate(dp.RULES, ["random", "random"], 5, seed=11, config=ONE_STAGE)
    assert [game.seed for game in result.games] == [derived_seed(11, i) for i in range(5)]
    assert [game.index for game in result.games] == list(range(5))


def test_simulated_game_replays_one_game_of_a_run_with_its_bots_seeded_from_the_game_seed() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=8, config=ONE_STAGE)
    game = simulated_game(dp.RULES, ["greedy", "random"], 3, seed=8, config=ONE_STAGE)
    by_hand = play_game(
        dp.RULES,
        [RandomBot(dp.RULES, bot_seed(8, 3, 0)), dp.GreedyBot()],  # game 3 seats bot 1 first
        ONE_STAGE,
        seed=derived_seed(8, 3),
    )
    assert seating(3, 2) == (1, 0)
    assert game == by_hand
    assert GameResult.of(game, 3, (1, 0)) == result.games[3]


def test_the_same_seed_gives_the_same_result_and_another_seed_another() -> None:
    first = simulate(dp.RULES, ["random", "random"], 8, seed=21, config=ONE_STAGE)
    assert simulate(dp.RULES, ["random", "random"], 8, seed=21, config=ONE_STAGE) == first
    assert simulate(dp.RULES, ["random", "random"], 8, seed=22, config=ONE_STAGE) != first


def test_the_chunk_size_does_not_change_the_result() -> None:
    one = simulate(dp.RULES, ["greedy", "random"], 7, seed=2, config=ONE_STAGE, chunk_size=1)
    three = simulate(dp.RULES, ["greedy", "random"], 7, seed=2, config=ONE_STAGE, chunk_size=3)
    assert one == three


def test_the_default_chunks_make_about_a_hundred_tasks_of_at_most_a_hundred_games() -> None:
    assert [default_chunk_size(games) for games in (1, 99, 101, 5_000, 10_000, 10**7)] == [
        1,
        1,
        2,
        50,
        100,
        100,
    ]


def test_chance_outcomes_without_auto_chance_come_from_the_games_chance_seed() -> None:
    config = dp.Config(stages=1, auto_chance=False)
    result = simulate(dp.RULES, ["greedy", "random"], 3, seed=6, config=config)
    assert all(game.chance_moves > 0 for game in result.games)
    assert result.chance_moves == sum(game.chance_moves for game in result.games)
    game = simulated_game(dp.RULES, ["greedy", "random"], 1, seed=6, config=config)
    by_hand = play_game(
        dp.RULES,
        [RandomBot(dp.RULES, bot_seed(6, 1, 0)), dp.GreedyBot()],
        config,
        seed=derived_seed(6, 1),
        chance_seed=derived_seed(derived_seed(6, 1), 0),
    )
    assert game == by_hand


# --- wherever the games are played ---------------------------------------------------------


def test_a_process_pool_of_two_gives_the_in_process_result(
    shared_pool: ProcessPoolExecutor,
) -> None:
    here = simulate(dp.RULES, ["greedy", "random"], 40, seed=5, config=ONE_STAGE)
    there = simulate(
        dp.RULES, ["greedy", "random"], 40, seed=5, config=ONE_STAGE, executor=shared_pool
    )
    assert there == here


def test_palace_plays_on_a_process_pool_as_in_process(shared_pool: ProcessPoolExecutor) -> None:
    here = simulate(palace.RULES, ["lowcard", "random"], 6, seed=5, chunk_size=2)
    there = simulate(
        palace.RULES, ["lowcard", "random"], 6, seed=5, chunk_size=2, executor=shared_pool
    )
    assert there == here


def test_the_account_game_plays_on_a_process_pool_as_in_process(
    shared_pool: ProcessPoolExecutor,
) -> None:
    # its config holds cards, which come back from a worker as the package's own instances
    bots = ["bestcard", "bestcard"]
    config = account.Config(max_rounds=2)
    here = simulate(account.RULES, bots, 20, seed=3, config=config, chunk_size=5)
    there = simulate(
        account.RULES, bots, 20, seed=3, config=config, chunk_size=5, executor=shared_pool
    )
    assert there == here
    assert len({game.moves for game in here.games}) > 1, "some game stops on End"


def test_a_dask_local_cluster_of_two_gives_the_in_process_result_duplicate_runs_too() -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask is an extra: pip install -e '.[dask]'"
    )
    here = simulate(dp.RULES, ["greedy", "random"], 40, seed=5, config=ONE_STAGE)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        on_executor = simulate(
            dp.RULES,
            ["greedy", "random"],
            40,
            seed=5,
            config=ONE_STAGE,
            executor=client.get_executor(),
        )
        on_client = simulate(
            dp.RULES, ["greedy", "random"], 40, seed=5, config=ONE_STAGE, executor=client
        )
        duplicate = simulate(
            palace.RULES,
            ["lowcard", "random"],
            8,
            seed=5,
            chunk_size=3,
            duplicate=True,
            executor=client,
        )
    assert on_executor == here
    assert on_client == here
    assert duplicate == simulate(
        palace.RULES, ["lowcard", "random"], 8, seed=5, chunk_size=3, duplicate=True
    )


def test_results_are_in_game_order_whatever_order_the_chunks_finish_in() -> None:
    here = simulate(dp.RULES, ["greedy", "random"], 7, seed=5, config=ONE_STAGE, chunk_size=2)
    done: list[int] = []
    backwards = simulate(
        dp.RULES,
        ["greedy", "random"],
        7,
        seed=5,
        config=ONE_STAGE,
        chunk_size=2,
        executor=ReversedExecutor(tasks=4),
        progress=lambda finished, _total: done.append(finished),
    )
    assert backwards == here
    assert done == [0, 2, 4, 6, 7]  # chunks of 2, 2, 2 and 1 games finished 2, 1, 0, 3


# --- the figures ------------------------------------------------------------------------------


def test_a_shared_win_counts_a_fraction_to_each_winner() -> None:
    games = [
        GameResult(0, 1, (0, 1, 2), (5, 5, 5), frozenset({0, 1, 2}), 10, 0),
        GameResult(1, 2, (1, 2, 0), (7, 7, 1), frozenset({0, 1}), 12, 0),
    ]
    result = SimulationResult.of("dice-poker", 1, True, ["a", "b", "c"], games)
    assert [bot.wins for bot in result.bots] == pytest.approx([1 / 3, 1 / 3 + 1 / 2, 1 / 3 + 1 / 2])
    assert sum(bot.wins for bot in result.bots) == pytest.approx(2)


def test_each_bot_has_its_mean_and_standard_deviation_of_score_over_its_seats() -> None:
    games = [
        GameResult(0, 1, (0, 1), (10, 4), frozenset({0}), 10, 0),
        GameResult(1, 2, (1, 0), (6, 20), frozenset({1}), 30, 0),
    ]
    a, b = SimulationResult.of("dice-poker", 1, True, ["a", "b"], games).bots
    assert (a.games, a.wins, a.win_rate, a.score_mean) == (2, 2.0, 1.0, 15.0)
    assert a.score_stdev == pytest.approx(7.0710678)
    assert (b.wins, b.score_mean) == (0.0, 5.0)
    assert b.score_stdev == pytest.approx(1.4142136)


def test_the_win_rate_has_a_95_percent_wilson_interval() -> None:
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    games = simulate(dp.RULES, ["greedy", "random"], 10, seed=1, config=ONE_STAGE)
    for bot in games.bots:
        assert bot.win_interval == wilson_interval(bot.wins, 10)
        assert bot.win_interval[0] <= bot.win_rate <= bot.win_interval[1]


def test_game_lengths_count_the_players_moves() -> None:
    config = dp.Config(stages=1, auto_chance=False)
    result = simulate(dp.RULES, ["random", "random"], 4, seed=3, config=config)
    lengths = [game.moves for game in result.games]
    assert result.length.min == min(lengths)
    assert result.length.max == max(lengths)
    assert result.length.mean == sum(lengths) / 4
    assert result.moves == sum(lengths)
    game = simulated_game(dp.RULES, ["random", "random"], 0, seed=3, config=config)
    assert result.games[0].moves == len(game.moves) - game.chance_moves


def test_progress_is_reported_from_zero_after_each_chunk_up_to_the_total(
    shared_pool: ProcessPoolExecutor,
) -> None:
    for executor in (None, shared_pool):
        calls: list[tuple[int, int]] = []
        simulate(
            dp.RULES,
            ["random", "random"],
            7,
            seed=1,
            config=ONE_STAGE,
            chunk_size=3,
            executor=executor,
            progress=lambda done, total: calls.append((done, total)),  # noqa: B023
        )
        assert calls[0] == (0, 7)
        assert calls[-1] == (7, 7)
        assert len(calls) == 4
        assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_the_result_is_json_data() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=ONE_STAGE)
    data = json.loads(json.dumps(result.to_data()))
    assert data["games_played"] == 4
    assert [bot["name"] for bot in data["bots"]] == ["greedy", "random"]
    assert set(data["bots"][0]) == {
        "name",
        "games",
        "wins",
        "win_rate",
        "win_rate_low",
        "win_rate_high",
        "score_mean",
        "score_stdev",
    }
    assert "games" not in data
    every = json.loads(json.dumps(result.to_data(per_game=True)))["games"]
    assert [game["seed"] for game in every] == [game.seed for game in result.games]


def test_str_is_a_plain_text_table() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=ONE_STAGE)
    lines = str(result).splitlines()
    assert lines[0] == "dice-poker: 4 games, seed 1, bots rotated through the seats"
    assert lines[1].split() == [
        "bot",
        "wins",
        "win",
        "rate",
        "95%",
        "interval",
        "mean",
        "score",
        "score",
        "sd",
    ]
    assert [line.split()[0] for line in lines[2:4]] == ["greedy", "random"]
    assert lines[4].startswith("game length in moves by players: mean ")


def test_every_game_plays_through_the_protocol_alone() -> None:
    for name in ("dice-poker", "palace", "account"):
        rules = get_ruleset(name)
        result = simulate(rules, ["random", "random"], 2, seed=1)
        assert result.games_played == 2


def test_simulate_does_not_import_rich() -> None:
    code = "import sys, tabletop_rules.simulate; print('rich' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"


# --- failures ---------------------------------------------------------------------------------


def test_a_game_that_fails_raises_naming_its_index_and_seed() -> None:
    factory = FailsOnSeed(bot_seed(9, 5, 1))  # game 5 seats bot 0 second
    with pytest.raises(SimulationError) as caught:
        simulate(dp.RULES, [factory, "random"], 8, seed=9, config=ONE_STAGE, chunk_size=3)
    assert caught.value.games == (5,)
    assert caught.value.seeds == (derived_seed(9, 5),)
    assert f"game 5 (seed {derived_seed(9, 5)}) failed: RuntimeError(" in str(caught.value)
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert isinstance(caught.value, TabletopError)


def test_a_game_that_fails_in_a_worker_raises_naming_its_index_and_seed(
    shared_pool: ProcessPoolExecutor,
) -> None:
    factory = FailsOnSeed(bot_seed(9, 5, 1))  # game 5 seats bot 0 second
    with pytest.raises(SimulationError, match=f"game 5 \\(seed {derived_seed(9, 5)}\\) failed"):
        simulate(
            dp.RULES,
            [factory, "random"],
            8,
            seed=9,
            config=ONE_STAGE,
            chunk_size=3,
            executor=shared_pool,
        )


def test_a_worker_that_dies_fails_the_run_with_the_seeds_of_its_games() -> None:
    factory = ExitsOnSeed(bot_seed(9, 4, 0), os.getpid())
    with pool() as dying, pytest.raises(SimulationError) as caught:
        simulate(
            dp.RULES,
            [factory, "random"],
            9,
            seed=9,
            config=ONE_STAGE,
            chunk_size=3,
            executor=dying,
        )
    error = caught.value
    assert 4 in error.games
    assert derived_seed(9, 4) in error.seeds
    assert f"game 4 (seed {derived_seed(9, 4)})" in str(error)
    assert "worker process died" in str(error)
    assert error.seeds == tuple(derived_seed(9, game) for game in error.games)


# --- duplicate play: every deal once per seating ------------------------------------------


def test_duplicate_play_gives_each_bot_each_seat_on_the_same_seeds() -> None:
    config = dp.Config(players=3, stages=1)
    bots = ["greedy", "random", "random"]
    result = simulate(dp.RULES, bots, 6, seed=4, config=config, duplicate=True)
    for deal in range(2):
        played = result.games[3 * deal : 3 * deal + 3]
        assert {game.seed for game in played} == {derived_seed(4, deal)}
        seats = {(bot, seat) for game in played for seat, bot in enumerate(game.seating)}
        assert seats == {(bot, seat) for bot in range(3) for seat in range(3)}
    assert result.games[0].seed != result.games[3].seed


def test_a_duplicate_game_is_played_again_alone_from_its_deal() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=8, config=ONE_STAGE, duplicate=True)
    game = simulated_game(
        dp.RULES, ["greedy", "random"], 3, seed=8, config=ONE_STAGE, duplicate=True
    )
    assert game.seed == derived_seed(8, 1)
    assert GameResult.of(game, 3, (1, 0)) == result.games[3]


def test_two_copies_of_one_bot_differ_by_nothing_on_every_deal() -> None:
    # a seat's bot is seeded from the deal and the seat: the two seatings are one game
    result = simulate(palace.RULES, ["random", "random"], 8, seed=2, duplicate=True)
    for first, second in zip(result.games[::2], result.games[1::2], strict=True):
        assert first.scores == second.scores
    for versus in result.versus_field:
        assert (versus.score_difference.mean, versus.score_difference.stdev) == (0.0, 0.0)
        assert versus.win_difference.mean == 0.0


def test_the_luck_controlled_difference_is_the_mean_over_deals_of_each_deals_difference() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 6, seed=3, config=ONE_STAGE, duplicate=True)
    greedy, random_bot = result.versus_field
    by_hand: list[float] = []
    wins: list[float] = []
    for deal in range(3):
        a, b = result.games[2 * deal], result.games[2 * deal + 1]  # seatings (0, 1), (1, 0)
        by_hand.append((a.scores[0] + b.scores[1]) / 2 - (a.scores[1] + b.scores[0]) / 2)
        won = [(0 in a.winners) + (1 in b.winners), (1 in a.winners) + (0 in b.winners)]
        wins.append((won[0] - won[1]) / 2)
    mean = sum(by_hand) / 3
    sd = (sum((x - mean) ** 2 for x in by_hand) / 2) ** 0.5
    assert greedy.deals == 3
    assert greedy.score_difference.mean == pytest.approx(mean)
    assert greedy.score_difference.stdev == pytest.approx(sd)
    half = 4.302652729749464 * sd / 3**0.5  # Student t, 2 degrees of freedom
    assert greedy.score_difference.low == pytest.approx(mean - half)
    assert greedy.score_difference.high == pytest.approx(mean + half)
    assert greedy.win_difference.mean == pytest.approx(sum(wins) / 3)
    assert random_bot.score_difference.mean == pytest.approx(-mean)


def test_the_interval_holds_the_mean_and_narrows_as_deals_are_added() -> None:
    # differences of +1 and -1 in turn: the mean is 0 and the interval ~ 2 sd / sqrt(deals)
    widths = []
    for deals in (4, 16, 64, 256):
        estimate = mean_interval([(-1.0) ** deal for deal in range(deals)])
        assert estimate.low < 0.0 < estimate.high
        widths.append(estimate.high - estimate.low)
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] == pytest.approx(2 * 1.9693 * (256 / 255) ** 0.5 / 16, rel=1e-3)


def test_one_deal_has_an_unbounded_interval_written_as_null() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 2, seed=1, config=ONE_STAGE, duplicate=True)
    difference = result.versus_field[0].score_difference
    assert (difference.low, difference.high) == (-math.inf, math.inf)
    data = json.loads(json.dumps(result.to_data(), allow_nan=False))
    assert data["versus_field"][0]["score_difference"]["low"] is None


def test_the_t_interval_covers_a_known_mean_about_95_times_in_100() -> None:
    from tabletop_rules.rng import Rng

    rng = Rng.from_seed(5)
    covered = 0
    for _ in range(400):
        samples = []
        for _ in range(8):
            draw, rng = rng.below(6)
            samples.append(float(draw))  # a die from 0 to 5: mean 2.5
        estimate = mean_interval(samples)
        covered += estimate.low <= 2.5 <= estimate.high
    assert 0.91 <= covered / 400 <= 0.98


def test_duplicate_play_needs_whole_deals_rotation_and_the_unbatched_engine() -> None:
    with pytest.raises(ValueError, match="games must be a multiple of 2, got 5"):
        simulate(dp.RULES, ["greedy", "random"], 5, seed=1, duplicate=True)
    with pytest.raises(ConfigError, match="needs rotate=True"):
        simulate(dp.RULES, ["greedy", "random"], 4, seed=1, duplicate=True, rotate=False)
    with pytest.raises(ConfigError, match="duplicate play, which compares bots"):
        simulate(dp.RULES, ["random", "random"], 4, seed=1, duplicate=True, batched=True)


def test_a_duplicate_run_on_a_process_pool_gives_the_in_process_result(
    shared_pool: ProcessPoolExecutor,
) -> None:
    args = (palace.RULES, ["lowcard", "random"], 8)
    here = simulate(*args, seed=5, chunk_size=3, duplicate=True)
    there = simulate(*args, seed=5, chunk_size=3, duplicate=True, executor=shared_pool)
    assert there == here
    assert simulate(*args, seed=5, duplicate=True) == here


def test_a_duplicate_run_round_trips_through_json() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 6, seed=3, config=ONE_STAGE, duplicate=True)
    data = json.loads(json.dumps(result.to_data(per_game=True)))
    assert data["duplicate"] is True
    assert data["versus_field"][0]["score_difference"]["mean"] == pytest.approx(
        result.versus_field[0].score_difference.mean
    )
    assert SimulationResult.from_data(data) == result
    plain = simulate(dp.RULES, ["greedy", "random"], 4, seed=3, config=ONE_STAGE)
    assert SimulationResult.from_data(json.loads(json.dumps(plain.to_data(per_game=True)))) == plain
    with pytest.raises(InvalidStateError, match="with its games"):
        SimulationResult.from_data(result.to_data())


def test_a_duplicate_table_gives_the_difference_from_the_field() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=3, config=ONE_STAGE, duplicate=True)
    lines = str(result).splitlines()
    assert "each deal played once per rotation of the seats" in lines[0]
    assert lines[5] == "luck controlled over 2 deals: each bot minus the field, per deal"
    assert lines[6].split()[:3] == ["bot", "score", "diff"]


def test_versus_rows_are_the_luck_controlled_rows_the_table_prints() -> None:
    result = simulate(dp.RULES, ["greedy", "random"], 4, seed=3, config=ONE_STAGE, duplicate=True)
    rows = result.versus_rows()
    assert text_table(VERSUS_HEADINGS, rows) == str(result).splitlines()[6:]
    greedy = result.versus_field[0]
    score, won = greedy.score_difference, greedy.win_difference
    assert rows[0] == (
        "greedy",
        f"{score.mean:+.1f}",
        f"{score.low:+.1f} to {score.high:+.1f}",
        f"{won.mean:+.1%}",
        f"{won.low:+.1%} to {won.high:+.1%}",
    )
    assert simulate(dp.RULES, ["greedy", "random"], 4, seed=3, config=ONE_STAGE).versus_rows() == ()


# --- bounded work: caps, lazy chunks ---------------------------------------------------------


def no_game(_done: int, _total: int) -> None:
    """A progress report that fails the test if the run ever starts."""
    raise AssertionError("the run started: it should have been refused first")


def test_unbounded_work_games_beyond_the_cap_are_refused_before_the_first_game() -> None:
    for games in (MAX_GAMES + 1, 10**12, 10**26):
        with pytest.raises(ConfigError, match=r"at most 10,000,000 \(MAX_GAMES\)"):
            simulate(dp.RULES, ["random", "random"], games, seed=1, progress=no_game)
        with pytest.raises(ConfigError, match="MAX_GAMES"):
            simulate(dp.RULES, ["random", "random"], games, seed=1, batched=True, progress=no_game)


def test_unbounded_work_chunks_are_made_as_they_are_sent_a_bounded_number_waiting() -> None:
    counting = Counting()
    ahead: list[int] = []
    result = simulate(
        dp.RULES, ["greedy", "random"], 200, seed=2, config=ONE_STAGE, chunk_size=1,
        executor=counting, progress=lambda done, _total: ahead.append(counting.submitted - done),
    )  # fmt: skip
    assert result == simulate(dp.RULES, ["greedy", "random"], 200, seed=2, config=ONE_STAGE)
    assert counting.submitted == 200
    assert max(ahead) <= TASKS_IN_FLIGHT < 200


def test_unbounded_work_workers_are_capped_by_the_cores_and_the_chunks() -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert useful_workers(40, 1) == 1
    assert useful_workers(40, 10**6) == min(40, cores or 1)
    assert useful_workers(1, 10**6) == 1
    assert task_count(1) == 1
    assert task_count(10**6) == 10_000
    assert task_count(10**6, batched=True) == -(-(10**6) // BATCHED_CHUNK_SIZE)


# --- SimulationResult.from_data: a whole check of the document ------------------------------

DOCUMENT_RUN = simulate(dp.RULES, ["greedy", "random"], 4, seed=3, config=ONE_STAGE, duplicate=True)
DOCUMENT = json.loads(json.dumps(DOCUMENT_RUN.to_data(per_game=True)))

Path_ = tuple[str | int, ...]


def document_paths(value: Any, path: Path_ = ()) -> list[Path_]:
    """Every place in a JSON document, the root excluded: each key and each list item."""
    places: list[Path_] = []
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, inner in items:
        places.append((*path, key))
        places += document_paths(inner, (*path, key))
    return places


def edited(document: Any, path: Path_, change: Callable[[Any, str | int], None]) -> Any:
    copy = json.loads(json.dumps(document))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    change(parent, path[-1])
    return copy


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("games", 0, "seating"), [-1, 0], "seating"),
        (("games", 1, "winners"), [2], "winners"),
        (("games", 1, "winners"), [0, 0], "winners"),
        (("games", 2, "scores"), [10**400, 0], "scores"),
        (("games", 2, "scores"), [1, 2, 3], "scores"),
        (("games", 0, "index"), 3, "index"),
        (("games", 0, "seed"), 5, "seed"),
        (("games", 0, "moves"), -1, "moves"),
        (("games", 0, "moves"), True, "moves"),
        (("games", 0, "moves"), "12", "moves"),
        (("games", 0, "chance_moves"), 2.0, "chance_moves"),
        (("seed",), 2**64, "seed"),
        (("seed",), 4, "seed"),
        (("rotate",), "yes", "rotate"),
        (("rotate",), False, "rotate"),
        (("games_played",), 5, "games_played"),
        (("moves",), 1, "moves"),
        (("bots",), [{"name": "greedy"}], "bots"),
        (("bots", 0, "name"), 7, "name"),
        (("game",), None, "game"),
        (("games",), [], "no games"),
    ],
)
def test_from_data_refuses_an_impossible_document_naming_what_is_wrong(
    path: Path_, value: Any, message: str
) -> None:
    def put(parent: Any, key: str | int) -> None:
        parent[key] = value

    with pytest.raises(InvalidStateError, match=message):
        SimulationResult.from_data(edited(DOCUMENT, path, put))


def test_from_data_refuses_a_game_dropped_from_a_duplicate_deal() -> None:
    def drop(parent: Any, key: str | int) -> None:
        del parent[key]

    first_deal_dropped = edited(edited(DOCUMENT, ("games", 0), drop), ("games", 0), drop)
    with pytest.raises(InvalidStateError, match="index"):
        SimulationResult.from_data(first_deal_dropped)
    with pytest.raises(InvalidStateError, match="whole deals"):
        SimulationResult.from_data(edited(DOCUMENT, ("games", 3), drop))


HOSTILE = st.one_of(
    st.integers(min_value=-3, max_value=5),
    st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**400, 10**25]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(min_value=-2, max_value=3), max_size=4),
    st.dictionaries(st.sampled_from(["name", "index"]), st.integers(0, 2), max_size=2),
)


@settings(deadline=None)
@given(data=st.data())
def test_from_data_of_a_mutated_document_is_the_documents_result_or_the_librarys_error(
    data: st.DataObject,
) -> None:
    """A mutated document gives the library's error, or a result of exactly the games it
    holds (which writes them back as they were), never another exception.
    """
    document = DOCUMENT
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        path = data.draw(st.sampled_from(document_paths(document)), label="path")
        how = data.draw(st.sampled_from(["set", "delete", "append"]), label="how")
        value = data.draw(HOSTILE, label="value")

        def change(parent: Any, key: str | int, how: str = how, value: Any = value) -> None:
            if how == "delete":
                del parent[key]
            elif how == "append" and isinstance(parent[key], list):
                parent[key].append(value)
            else:
                parent[key] = value

        document = edited(document, path, change)
    try:
        result = SimulationResult.from_data(document)
    except TabletopError:
        return
    written = result.to_data(per_game=True)
    for key in ("game", "seed", "rotate", "games"):
        assert written[key] == document[key]
    assert written["duplicate"] == document.get("duplicate", False)
    bots: Any = written["bots"]
    assert [bot["name"] for bot in bots] == [bot["name"] for bot in document["bots"]]
    assert SimulationResult.from_data(json.loads(json.dumps(written))) == result


# --- duplicate play with a count that is no whole number of deals ---------------------------


def test_duplicate_with_an_odd_games_is_the_librarys_error_saying_games_must_be_even() -> None:
    with pytest.raises(ConfigError, match="games must be a multiple of 2, got 5"):
        simulate(dp.RULES, ["greedy", "random"], 5, seed=1, duplicate=True, config=ONE_STAGE)


# --- a score that only says who won ------------------------------------------------------------


def test_palace_scores_say_only_who_won_so_the_table_has_no_mean_score() -> None:
    placed = simulate(palace.RULES, ["lowcard", "random"], 6, seed=1)
    assert placed.scores_say_only_who_won
    assert "mean score" not in placed.table()
    three = simulate(palace.RULES, ["lowcard"] * 3, 6, seed=1, config=palace.Config(players=3))
    assert three.scores_say_only_who_won
    last = palace.Config(players=3, play_until="last")
    assert not simulate(
        palace.RULES, ["lowcard"] * 3, 6, seed=1, config=last
    ).scores_say_only_who_won
    points = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=ONE_STAGE)
    assert not points.scores_say_only_who_won
    assert "mean score" in points.table()
    assert not simulate(account.RULES, ["bestcard", "random"], 4, seed=1).scores_say_only_who_won


def test_one_game_alone_keeps_its_scores_in_the_table() -> None:
    one = simulate(dp.RULES, ["greedy", "random"], 1, seed=1, config=ONE_STAGE)
    assert not one.scores_say_only_who_won
    assert "mean score" in one.table()
