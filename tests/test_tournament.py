"""tournament(): every table of the game's player count, Bradley-Terry ratings that recover
known strengths, bootstrap intervals reproducible for a seed, wins by seat and lengths.
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules import palace
from tabletop_rules.errors import BotSelectionError, ConfigError
from tabletop_rules.executors import check_count
from tabletop_rules.results import Figures, figures_data, mean_interval
from tabletop_rules.rng import Rng
from tabletop_rules.simulate import (
    MAX_GAMES,
    TASKS_IN_FLIGHT,
    GameResult,
    derived_seed,
    simulate,
)
from tabletop_rules.tournament import (
    ELO_SCALE,
    MAX_RESAMPLES,
    LengthSummary,
    bootstrap_ratings,
    bradley_terry,
    pairwise_points,
    seat_stats,
    tables,
    tournament,
)

from .executors import Counting

ONE_STAGE = dp.Config(stages=1)


def expected_points(ratings: list[float], games: float) -> list[list[float]]:
    """The points each bot takes from each other in ``games`` games between every pair
    when the Bradley-Terry model with these ratings holds exactly.
    """
    return [
        [
            0.0 if i == j else games / (1 + math.exp((ratings[j] - ratings[i]) / ELO_SCALE))
            for j in range(len(ratings))
        ]
        for i in range(len(ratings))
    ]


# --- tables ---------------------------------------------------------------------------------


def test_a_two_player_round_robin_plays_every_pair() -> None:
    assert tables(4, 2) == ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def test_a_three_player_round_robin_plays_every_table_of_three() -> None:
    seated = tables(4, 3)
    assert len(seated) == 4
    assert Counter(bot for table in seated for bot in table) == {0: 3, 1: 3, 2: 3, 3: 3}


def test_each_table_plays_as_simulate_with_the_tables_seed() -> None:
    bots = ["greedy", "random", "random"]
    result = tournament(dp.RULES, bots, 4, seed=3, config=ONE_STAGE, resamples=20)
    assert result.table_bots == ((0, 1), (0, 2), (1, 2))
    second = simulate(dp.RULES, ["greedy", "random"], 4, seed=derived_seed(3, 1), config=ONE_STAGE)
    assert result.tables[1].games == second.games
    assert [bot.name for bot in result.tables[2].bots] == ["random", "random #2"]
    assert result.games_played == 12
    assert [rating.games for rating in result.ratings] == [8, 8, 8]


def test_duplicate_tables_play_each_deal_in_every_seating() -> None:
    config = palace.Config(players=3)
    bots = ["lowcard", "random", "random", "lowcard"]
    result = tournament(palace.RULES, bots, 3, seed=2, config=config, duplicate=True, resamples=20)
    assert len(result.tables) == 4
    for table in result.tables:
        assert table.duplicate
        assert len({game.seed for game in table.games}) == 1
        assert {game.seating for game in table.games} == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}


# --- pairwise results and ratings -------------------------------------------------------------


def test_a_winner_beats_each_loser_and_losers_are_ordered_by_score() -> None:
    game = GameResult(0, 1, (0, 1, 2), (0, 2, 1), frozenset({0}), 10, 0)
    assert pairwise_points(game) == ((0, 1, 1.0), (0, 2, 1.0), (1, 2, 1.0))
    shared = GameResult(0, 1, (0, 1), (5, 5), frozenset({0, 1}), 10, 0)
    assert pairwise_points(shared) == ((0, 1, 0.5),)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-500, 500), min_size=2, max_size=5))
def test_bradley_terry_recovers_the_ratings_that_made_the_results(ratings: list[float]) -> None:
    fitted = bradley_terry(expected_points(ratings, 100.0), prior=0)
    centre = sum(ratings) / len(ratings)
    assert fitted == pytest.approx([rating - centre for rating in ratings], abs=1e-4)


def test_bradley_terry_recovers_known_strengths_from_sampled_games() -> None:
    truth = [200.0, 0.0, -200.0]
    chances = expected_points(truth, 1.0)
    rng = Rng.from_seed(7)
    points = [[0.0] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(i + 1, 3):
            for _ in range(2000):
                draw, rng = rng.below(1 << 20)
                won = draw < chances[i][j] * (1 << 20)
                points[i][j] += won
                points[j][i] += not won
    assert bradley_terry(points) == pytest.approx(truth, abs=25)


def test_a_draw_counts_half_a_win_to_each() -> None:
    # 6 wins, 2 losses and 4 draws rate as 8 wins and 4 losses
    assert bradley_terry([[0, 6 + 2], [2 + 2, 0]], prior=0) == pytest.approx(
        bradley_terry([[0, 8], [4, 0]], prior=0)
    )
    assert bradley_terry([[0, 8], [4, 0]], prior=0)[0] == pytest.approx(ELO_SCALE * math.log(2) / 2)


def test_the_prior_keeps_a_bot_that_won_everything_finite() -> None:
    with pytest.raises(ValueError, match="no finite rating"):
        bradley_terry([[0, 10], [0, 0]], prior=0)
    best, worst = bradley_terry([[0, 10], [0, 0]])
    assert best == pytest.approx(ELO_SCALE * math.log(21) / 2)  # 10.5 points to 0.5
    assert worst == -best


# --- intervals ----------------------------------------------------------------------------------


def units_of(
    pairs: list[tuple[int, int, float]], repeats: int
) -> list[tuple[tuple[int, int, float]]]:
    return [(pair,) for pair in pairs for _ in range(repeats)]


def test_the_bootstrap_is_the_same_for_a_seed_and_another_for_another_seed() -> None:
    strata = [units_of([(0, 1, 1.0), (0, 1, 0.0), (0, 1, 1.0)], 5)]
    first = bootstrap_ratings(strata, 2, resamples=200, seed=4)
    assert bootstrap_ratings(strata, 2, resamples=200, seed=4) == first
    assert bootstrap_ratings(strata, 2, resamples=200, seed=5) != first


def test_the_bootstrap_interval_holds_the_rating_and_narrows_with_more_games() -> None:
    widths = []
    for repeats in (4, 16, 64):
        strata = [units_of([(0, 1, 1.0), (0, 1, 1.0), (0, 1, 0.0)], repeats)]
        rating = bradley_terry([[0, 2.0 * repeats], [1.0 * repeats, 0]])[0]
        (low, high), _ = bootstrap_ratings(strata, 2, resamples=300, seed=1)
        assert low <= rating <= high
        widths.append(high - low)
    assert widths[0] > widths[1] > widths[2]


def test_a_tournaments_intervals_are_reproducible_and_rate_the_stronger_bot_higher() -> None:
    bots = ["greedy", "random", "random"]
    first = tournament(dp.RULES, bots, 6, seed=9, config=ONE_STAGE, resamples=100)
    again = tournament(dp.RULES, bots, 6, seed=9, config=ONE_STAGE, resamples=100)
    assert first == again
    greedy, *randoms = first.ratings
    assert all(greedy.low > other.high for other in randoms)
    assert all(rating.low <= rating.rating <= rating.high for rating in first.ratings)
    assert sum(rating.rating for rating in first.ratings) == pytest.approx(0, abs=1e-9)


# --- seats and lengths ------------------------------------------------------------------------


def test_the_seats_win_rates_count_each_seats_wins() -> None:
    games = [
        GameResult(0, 1, (0, 1), (5, 3), frozenset({0}), 9, 0),
        GameResult(1, 2, (1, 0), (5, 3), frozenset({0}), 9, 0),
        GameResult(2, 3, (0, 1), (4, 4), frozenset({0, 1}), 9, 0),
        GameResult(3, 4, (1, 0), (1, 3), frozenset({1}), 9, 0),
    ]
    first, second = seat_stats(games)
    assert (first.wins, first.win_rate) == (2.5, 0.625)
    assert (second.wins, second.games) == (1.5, 4)


def test_the_length_summary_gives_mean_spread_and_quartiles() -> None:
    summary = LengthSummary.of([10, 20, 30, 40, 50])
    assert (summary.mean, summary.min, summary.max) == (30.0, 10, 50)
    assert summary.quartiles == (20.0, 30.0, 40.0)
    assert summary.stdev == pytest.approx(15.8113883)


def test_the_result_is_json_data_and_text() -> None:
    bots = ["greedy", "random"]
    result = tournament(dp.RULES, bots, 4, seed=1, config=ONE_STAGE, duplicate=True, resamples=20)
    data = json.loads(json.dumps(result.to_data()))
    assert [rating["name"] for rating in data["ratings"]] == bots
    assert data["duplicate"] is True
    assert [seat["seat"] for seat in data["seats"]] == [0, 1]
    assert data["tables"][0]["table_bots"] == bots
    assert data["tables"][0]["versus_field"][0]["deals"] == 2
    lines = str(result).splitlines()
    assert lines[0].startswith("dice-poker: 4 games, 1 table of 2, seed 1, each deal once per")
    assert lines[1].split()[:2] == ["bot", "rating"]


# --- refusals ---------------------------------------------------------------------------------


def test_a_tournament_needs_a_bot_per_seat_two_seats_and_whole_deals() -> None:
    with pytest.raises(BotSelectionError, match="needs at least 3 bots, got 2"):
        tournament(palace.RULES, ["lowcard", "random"], 3, seed=1, config=palace.Config(players=3))
    with pytest.raises(ConfigError, match="seats 1"):
        tournament(dp.RULES, ["greedy", "random"], 2, seed=1, config=dp.Config(players=1))
    with pytest.raises(ValueError, match="multiple of 2, got 3"):
        tournament(dp.RULES, ["greedy", "random"], 3, seed=1, duplicate=True)
    with pytest.raises(BotSelectionError, match="no bot named 'genius'"):
        tournament(dp.RULES, ["greedy", "genius"], 2, seed=1)


# --- wherever the games are played -----------------------------------------------------------


def test_a_process_pool_gives_the_in_process_tournament() -> None:
    bots = ["lowcard", "random", "random"]
    here = tournament(palace.RULES, bots, 4, seed=5, chunk_size=3, duplicate=True, resamples=50)
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        there = tournament(
            palace.RULES, bots, 4, seed=5, chunk_size=3, duplicate=True, resamples=50, executor=pool
        )
    assert there == here


@pytest.mark.slow
def test_a_dask_local_cluster_gives_the_in_process_tournament() -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask is an extra: pip install -e '.[dask]'"
    )
    bots = ["greedy", "random", "random"]
    here = tournament(dp.RULES, bots, 4, seed=5, config=ONE_STAGE, duplicate=True, chunk_size=2)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = tournament(
            dp.RULES, bots, 4, seed=5, config=ONE_STAGE, duplicate=True, chunk_size=2,
            executor=client,
        )  # fmt: skip
    assert there == here


# --- bounded work: caps before the first game, tables made as they are played --------------


def no_game(_done: int, _total: int) -> None:
    raise AssertionError("the tournament started: it should have been refused first")


def test_unbounded_work_resamples_beyond_the_cap_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"at most 100,000 \(MAX_RESAMPLES\)"):
        tournament(
            dp.RULES, ["greedy", "random"], 2, seed=1, resamples=MAX_RESAMPLES + 1, progress=no_game
        )


def test_unbounded_work_too_many_bots_or_tables_are_refused_before_any_table_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_tables(_bots: int, _seats: int) -> None:
        raise AssertionError("every table was made up front")

    eight = dp.Config(players=8)
    monkeypatch.setattr("tabletop_rules.tournament.tables", no_tables)
    with pytest.raises(ConfigError, match=r"5,852,925 tables.*MAX_TABLES"):
        tournament(dp.RULES, ["random"] * 30, 1, seed=1, config=eight, progress=no_game)
    with pytest.raises(ConfigError, match=r"at most 32 bots \(MAX_TOURNAMENT_BOTS\)"):
        tournament(dp.RULES, ["random"] * 33, 1, seed=1, progress=no_game)
    with pytest.raises(ConfigError, match="MAX_GAMES"):
        tournament(dp.RULES, ["random"] * 3, MAX_GAMES, seed=1, progress=no_game)


def test_unbounded_work_a_tournament_sends_its_tables_games_as_they_are_played() -> None:
    counting = Counting()
    ahead: list[int] = []
    bots = ["greedy"] + ["random"] * 9
    result = tournament(
        dp.RULES, bots, 4, seed=1, config=ONE_STAGE, chunk_size=1, resamples=20,
        executor=counting, progress=lambda done, _total: ahead.append(counting.submitted - done),
    )  # fmt: skip
    assert counting.submitted == 45 * 4
    assert max(ahead) <= TASKS_IN_FLIGHT < 45 * 4
    assert result == tournament(dp.RULES, bots, 4, seed=1, config=ONE_STAGE, resamples=20)


def test_a_palace_tournament_has_no_mean_score_where_scores_only_say_who_won() -> None:
    result = tournament(palace.RULES, ["lowcard", "random", "random"], 4, seed=1)
    assert "mean score" not in result.rating_headings()
    assert all(len(row) == len(result.rating_headings()) for row in result.rating_rows())
    assert "mean score" not in result.table()


# --- one check of a run's counts, one writer of the figures' data --------------------------


def test_a_runs_counts_are_checked_by_one_function_with_the_same_words() -> None:
    """simulate and tournament refuse a count (games, chunk size, resamples) with the
    words of executors.check_count, which gives a count it takes back.
    """
    assert check_count("resamples", 5, MAX_RESAMPLES, "MAX_RESAMPLES") == 5
    odd: tuple[Any, ...] = (0, True, 2.0, "3")
    for refused in odd:
        with pytest.raises(ConfigError) as counted:
            check_count("chunk_size", refused)
        for run in (simulate, tournament):
            with pytest.raises(ConfigError) as told:
                run(dp.RULES, ["greedy", "random"], 2, seed=1, chunk_size=refused)
            assert str(told.value) == str(counted.value)
    with pytest.raises(ConfigError) as counted:
        check_count("resamples", MAX_RESAMPLES + 1, MAX_RESAMPLES, "MAX_RESAMPLES")
    with pytest.raises(ConfigError) as told:
        tournament(dp.RULES, ["greedy", "random"], 2, seed=1, resamples=MAX_RESAMPLES + 1)
    assert str(told.value) == str(counted.value)


def test_the_figures_data_are_their_fields_an_interval_as_two_keys() -> None:
    """figures_data writes a figures value's fields in order, an unbounded end as None and
    an interval named to it as two keys in its place; the figures' to_data is that.
    """
    one = mean_interval([2.0])
    assert isinstance(one, Figures)
    assert one.to_data() == figures_data(one)
    assert list(one.to_data().items()) == [
        ("mean", 2.0), ("low", None), ("high", None), ("stdev", 0.0), ("samples", 1)
    ]  # fmt: skip
    result = tournament(dp.RULES, ["greedy", "random"], 4, seed=1, config=dp.Config(stages=1))
    seat = result.seats[0]
    assert list(seat.to_data()) == [
        "seat", "games", "wins", "win_rate", "win_rate_low", "win_rate_high"
    ]  # fmt: skip
    assert (seat.to_data()["win_rate_low"], seat.to_data()["win_rate_high"]) == seat.win_interval
    assert result.length.to_data()["quartiles"] == list(result.length.quartiles)
    bot = result.tables[0].bots[0].to_data()
    assert list(bot)[4:6] == ["win_rate_low", "win_rate_high"]
