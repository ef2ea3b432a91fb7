"""Round-robin tournaments between any number of bots, with Bradley-Terry ratings and
their bootstrap intervals, each seat's win rate and the games' lengths.

Every table of the game's player count is played, all ``C(bots, players)`` sets of
different bots, each ``games`` times with the bots rotated through the seats (or with
``duplicate``, as :func:`~tabletop_rules.simulate.simulate`'s), on ``simulate``'s executors.

>>> from tabletop_rules import dice_poker as dp
>>> bots = ["greedy", "random", "random"]
>>> result = tournament(dp.RULES, bots, 10, seed=1, config=dp.Config(stages=1))
>>> result.table_bots
((0, 1), (0, 2), (1, 2))
>>> print(result.table())
dice-poker: 30 games, 3 tables of 2, seed 1, bots rotated through the seats
bot        rating  95% interval  games  win rate  mean score
greedy       +353  +353 to +368     20    100.0%       172.6
random       -176   -280 to -88     20     25.0%       -62.1
random #2    -176   -280 to -88     20     25.0%       -61.6
seat  win rate   95% interval
P0       46.7%  30.2% - 63.9%
P1       53.3%  36.1% - 69.8%
game length in moves by players: mean 109.3, sd 10.1, min 86, median 111.5, max 120
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any, Final

import attrs

from .errors import BotSelectionError, ConfigError
from .executors import (
    Run,
    TaskExecutor,
    check_count,
    check_game_count,
    game_chunks,
    games_per_task,
    play_runs,
)
from .playing import BotChoice, ConfigT, bot_names, check_whole_deals
from .protocol import Ruleset, check_ruleset
from .results import (
    MAX_GAMES,
    Figures,
    GameResult,
    Json,
    SimulationResult,
    text_table,
    wilson_interval,
)
from .rng import Rng, derived_seed

__all__ = [
    "ELO_SCALE",
    "MAX_RESAMPLES",
    "MAX_TABLES",
    "MAX_TOURNAMENT_BOTS",
    "RATING_HEADINGS",
    "RESAMPLES",
    "SEAT_HEADINGS",
    "LengthSummary",
    "Rating",
    "SeatStats",
    "TournamentResult",
    "bootstrap_ratings",
    "bradley_terry",
    "pairwise_points",
    "seat_stats",
    "tables",
    "tournament",
]

ELO_SCALE: Final = 400 / math.log(10)
"""Rating points per unit of log-strength: as in Elo, a lead of 400 points is odds of
10 to 1, and 0 points is even."""

RESAMPLES: Final = 1000
"""The bootstrap resamples of a tournament's rating intervals, unless told."""

MAX_RESAMPLES: Final = 100_000
"""The most bootstrap resamples a tournament takes: each refits every rating, and the
percentiles stop moving, to the rating point shown, after some thousands."""

MAX_TOURNAMENT_BOTS: Final = 32
"""The most bots one tournament rates: a resample's fit costs the cube of the bots, so 32
keep a thousand resamples to seconds; rate more in groups that share a reference bot."""

MAX_TABLES: Final = 10_000
"""The most tables, ``C(bots, seats)``, one tournament plays, each a run with its result kept."""

_PRIOR: Final = 1.0
_TOLERANCE: Final = 1e-10
_MOST_ITERATIONS: Final = 100

RATING_HEADINGS: Final = ("bot", "rating", "95% interval", "games", "win rate", "mean score")
"""The columns of :meth:`TournamentResult.rating_rows`, less the last where scores only
say who won (:meth:`TournamentResult.rating_headings`)."""

SEAT_HEADINGS: Final = ("seat", "win rate", "95% interval")
"""The columns of :meth:`TournamentResult.seat_rows`."""


def tables(bots: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """The tables of a round robin of ``bots`` bots at a game of ``seats`` seats: every
    set of ``seats`` different bots, as their positions, in lexicographic order.

    >>> tables(3, 2)
    ((0, 1), (0, 2), (1, 2))
    """
    return tuple(combinations(range(bots), seats))


def pairwise_points(game: GameResult) -> tuple[tuple[int, int, float], ...]:
    """A game as pairwise results, ``(i, j, points of seat i)`` for every pair of seats
    ``i < j``: a winner beats a loser; otherwise the higher score wins the pair, and
    equal scores (two winners of a shared win too) draw, half a point each.

    >>> game = GameResult(0, 1, (0, 1, 2), (2, 0, 1), frozenset({0}), 30, 0)
    >>> pairwise_points(game)
    ((0, 1, 1.0), (0, 2, 1.0), (1, 2, 0.0))
    """
    if not isinstance(game, GameResult):
        raise TypeError(f"pairwise points are a GameResult's, got {type(game).__name__}")
    keys = [(seat in game.winners, score) for seat, score in enumerate(game.scores)]
    return tuple(
        (i, j, 1.0 if keys[i] > keys[j] else 0.0 if keys[i] < keys[j] else 0.5)
        for i, j in combinations(range(len(keys)), 2)
    )


def bradley_terry(points: Sequence[Sequence[float]], *, prior: float = _PRIOR) -> tuple[float, ...]:
    """The Bradley-Terry ratings of bots from their pairwise points, on the Elo scale
    (:data:`ELO_SCALE`), averaging 0: the strengths ``p`` that make the points most
    likely when bot ``i`` beats bot ``j`` with probability ``p_i / (p_i + p_j)``, by
    Newton's method on the (concave) log-likelihood. A draw counts half a win to each.
    ``prior`` adds that many drawn games between every pair, so that a bot that won (or
    lost) every game still has a finite rating.

    >>> [round(r) for r in bradley_terry([[0, 10], [10, 0]])]
    [0, 0]
    >>> [round(r) for r in bradley_terry([[0, 10], [1, 0]], prior=0)]
    [200, -200]
    """
    size = len(points)
    if size < 2 or any(len(row) != size for row in points):
        raise ValueError(
            f"ratings need a square table of points between 2 or more bots, got {size}"
        )
    if prior < 0 or any(value < 0 for row in points for value in row):
        raise ValueError("points and the prior are never negative")
    won = [[points[i][j] + prior / 2 if i != j else 0.0 for j in range(size)] for i in range(size)]
    games = [[won[i][j] + won[j][i] for j in range(size)] for i in range(size)]
    if any(sum(row) in (0, sum(games[i])) for i, row in enumerate(won)):
        raise ValueError(
            "a bot that took no points, or all, has no finite rating: give a prior above 0"
        )
    theta = [0.0] * size
    likelihood = _log_likelihood(theta, won)
    for _ in range(_MOST_ITERATIONS):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for i in range(size):
            for j in range(size):
                if i == j or not games[i][j]:
                    continue
                chance = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                gradient[i] += won[i][j] - games[i][j] * chance
                weight = games[i][j] * chance * (1.0 - chance)
                hessian[i][i] += weight
                hessian[i][j] -= weight
        # the last log-strength is held at 0: the others are measured from it
        step = [*_solved([row[:-1] for row in hessian[:-1]], gradient[:-1]), 0.0]
        scale = 1.0
        while True:
            tried = [value + scale * change for value, change in zip(theta, step, strict=True)]
            tried_likelihood = _log_likelihood(tried, won)
            if tried_likelihood >= likelihood - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, likelihood = tried, tried_likelihood
        if max(map(abs, step)) * scale < _TOLERANCE:
            break
    centre = statistics.fmean(theta)
    return tuple(ELO_SCALE * (value - centre) for value in theta)


def _log_likelihood(theta: Sequence[float], won: Sequence[Sequence[float]]) -> float:
    return -sum(
        got * math.log1p(math.exp(theta[j] - theta[i]))
        for i, row in enumerate(won)
        for j, got in enumerate(row)
        if i != j and got
    )


def _solved(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> list[float]:
    """``x`` with ``matrix · x = vector`` (positive definite), by Gaussian elimination."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        for row in range(column + 1, size):
            factor = rows[row][column] / head
            if factor:
                rows[row] = [a - factor * b for a, b in zip(rows[row], rows[column], strict=True)]
    solution = [0.0] * size
    for row in reversed(range(size)):
        known = sum(rows[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return solution


Unit = tuple[tuple[int, int, float], ...]
"""What one resampled unit (a game, or a deal) adds: ``(bot i, bot j, i's points)``."""


def bootstrap_ratings(
    strata: Sequence[Sequence[Unit]], bots: int, *, resamples: int, seed: int
) -> tuple[tuple[float, float], ...]:
    """Each bot's 95% bootstrap interval of its :func:`bradley_terry` rating: the 2.5th
    and 97.5th percentiles over ``resamples`` tournaments, each drawing as many of every
    stratum's units (a table's deals, or games) with replacement, from ``seed``.
    """
    check_count("resamples", resamples, MAX_RESAMPLES, "MAX_RESAMPLES")
    rng = Rng.from_seed(seed)
    drawn: list[list[float]] = [[] for _ in range(bots)]
    for _ in range(resamples):
        picked = []
        for units in strata:
            for _ in units:
                pick, rng = rng.below(len(units))
                picked.append(units[pick])
        for bot, rating in enumerate(bradley_terry(_points(picked, bots))):
            drawn[bot].append(rating)
    return tuple(_percentiles(sorted(ratings)) for ratings in drawn)


def _points(units: Iterable[Unit], bots: int) -> list[list[float]]:
    """The points each bot took from each other in ``units``, for :func:`bradley_terry`."""
    points = [[0.0] * bots for _ in range(bots)]
    for unit in units:
        for i, j, got in unit:
            points[i][j] += got
            points[j][i] += 1.0 - got
    return points


def _check_tournament_size(bots: int, seats: int, games: int) -> None:
    """Raise :class:`~tabletop_rules.errors.ConfigError` for a round robin beyond
    :data:`MAX_TOURNAMENT_BOTS` bots, :data:`MAX_TABLES` tables or
    :data:`~tabletop_rules.results.MAX_GAMES` games, counted before anything is built.
    """
    if bots > MAX_TOURNAMENT_BOTS:
        raise ConfigError(
            f"a tournament rates at most {MAX_TOURNAMENT_BOTS} bots (MAX_TOURNAMENT_BOTS), "
            f"got {bots}"
        )
    count = math.comb(bots, seats)
    if count > MAX_TABLES:
        raise ConfigError(
            f"{bots} bots at {seats} seats make {count:,} tables: at most {MAX_TABLES:,} "
            f"(MAX_TABLES)"
        )
    if count * games > MAX_GAMES:
        raise ConfigError(
            f"{count:,} tables of {games:,} games are {count * games:,} games: at most "
            f"{MAX_GAMES:,} (MAX_GAMES) over all the tables"
        )


def _percentiles(ordered: Sequence[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of sorted values, interpolated between ranks."""

    def at(share: float) -> float:
        position = share * (len(ordered) - 1)
        below = math.floor(position)
        above = min(below + 1, len(ordered) - 1)
        return ordered[below] + (ordered[above] - ordered[below]) * (position - below)

    return at(0.025), at(0.975)


@attrs.frozen
class Rating:
    """One bot's figures in a tournament, over all its tables and seats."""

    name: str
    """The bot's name (numbered when it is given more than once)."""
    rating: float
    """Its Bradley-Terry rating on the Elo scale, the ratings averaging 0."""
    low: float
    """The rating's 95% bootstrap interval, lower end."""
    high: float
    """The interval's upper end."""
    games: int
    """The games it played."""
    wins: float
    """Its wins (a win shared by ``k`` winners counts ``1/k``)."""
    score_mean: float
    """Its mean final score."""

    @property
    def win_rate(self) -> float:
        """``wins / games``."""
        return self.wins / self.games

    def to_data(self) -> dict[str, Json]:
        """The figures as JSON data."""
        return {
            "name": self.name,
            "rating": self.rating,
            "rating_low": self.low,
            "rating_high": self.high,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "score_mean": self.score_mean,
        }


@attrs.frozen
class SeatStats(Figures):
    """How often a seat won, whoever sat there: the game's edge (or handicap) of a seat."""

    seat: int
    """The seat, from 0 (the first to move)."""
    games: int
    """The games played."""
    wins: float
    """The seat's wins (a win shared by ``k`` winners counts ``1/k``)."""
    win_rate: float
    """``wins / games``."""
    win_interval: tuple[float, float]
    """The rate's 95% Wilson interval."""


def seat_stats(games: Sequence[GameResult]) -> tuple[SeatStats, ...]:
    """Each seat's wins over ``games`` (all of one player count), with Wilson intervals.

    >>> one = GameResult(0, 1, (0, 1), (5, 3), frozenset({0}), 9, 0)
    >>> [seat.win_rate for seat in seat_stats([one, one])]
    [1.0, 0.0]
    """
    if not all(isinstance(game, GameResult) for game in games):
        raise TypeError("seat figures are made of GameResults")
    if not games:
        raise ValueError("seat figures need at least one game")
    seats = len(games[0].scores)
    wins = [Fraction(0)] * seats
    for game in games:
        for seat in game.winners:
            wins[seat] += Fraction(1, len(game.winners))
    played = len(games)
    return tuple(
        SeatStats(
            seat, played, float(won), float(won / played), wilson_interval(float(won), played)
        )
        for seat, won in enumerate(wins)
    )


@attrs.frozen
class LengthSummary(Figures):
    """The distribution of game lengths, in moves made by the players."""

    mean: float
    """The mean length."""
    stdev: float
    """The sample standard deviation (0 for one game)."""
    min: int
    """The shortest game."""
    quartiles: tuple[float, float, float]
    """The 25th, 50th (the median) and 75th percentiles."""
    max: int
    """The longest game."""

    @classmethod
    def of(cls, lengths: Sequence[int]) -> LengthSummary:
        """The summary of ``lengths``, at least one.

        >>> LengthSummary.of([10, 20, 30, 40]).quartiles
        (17.5, 25.0, 32.5)
        """
        if not lengths:
            raise ValueError("a length summary needs at least one game")
        if len(lengths) == 1:
            one = float(lengths[0])
            return cls(one, 0.0, lengths[0], (one, one, one), lengths[0])
        low, middle, high = statistics.quantiles(lengths, n=4, method="inclusive")
        spread = statistics.stdev(lengths)
        return cls(
            statistics.fmean(lengths), spread, min(lengths), (low, middle, high), max(lengths)
        )


@attrs.frozen
class TournamentResult:
    """The outcome of :func:`tournament`: the bots' ratings, the seats' win rates, the
    games' lengths and every table's ``SimulationResult``; ``str()`` gives it as text.
    """

    game: str
    """The ruleset's name."""
    seed: int
    """The tournament's seed; table ``t`` is played with ``derived_seed(seed, t)``."""
    duplicate: bool
    """Whether each deal was played once per rotation of the seats."""
    names: tuple[str, ...]
    """The bots' names, in the order given."""
    table_bots: tuple[tuple[int, ...], ...]
    """Each table's bots, as positions in :attr:`names` (:func:`tables`)."""
    tables: tuple[SimulationResult, ...]
    """Each table's games and figures, as ``simulate`` gives them."""
    ratings: tuple[Rating, ...]
    """Each bot's rating and figures, in the order given."""
    seats: tuple[SeatStats, ...]
    """Each seat's win rate over every game."""
    length: LengthSummary
    """The lengths of every game."""
    resamples: int
    """The bootstrap resamples behind the rating intervals."""

    @property
    def games(self) -> tuple[tuple[tuple[int, ...], GameResult], ...]:
        """Every game with the positions (in :attr:`names`) of the bots at each seat."""
        return tuple(
            (tuple(bots[bot] for bot in game.seating), game)
            for bots, table in zip(self.table_bots, self.tables, strict=True)
            for game in table.games
        )

    @property
    def games_played(self) -> int:
        """How many games were played, over all tables."""
        return sum(table.games_played for table in self.tables)

    def to_data(self, *, per_game: bool = False) -> dict[str, Json]:
        """The result as JSON data; each table's games too with ``per_game``."""
        return {
            "game": self.game,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "games_played": self.games_played,
            "resamples": self.resamples,
            "ratings": [rating.to_data() for rating in self.ratings],
            "seats": [seat.to_data() for seat in self.seats],
            "length": self.length.to_data(),
            "tables": [
                {
                    "table_bots": [self.names[bot] for bot in bots],
                    **table.to_data(per_game=per_game),
                }
                for bots, table in zip(self.table_bots, self.tables, strict=True)
            ],
        }

    def table(self) -> str:
        """The ratings, the seats' win rates and the lengths as text (the module's example)."""
        how = "bots rotated through the seats"
        if self.duplicate:
            how = "each deal once per rotation of the seats"
        count = len(self.tables)
        seats = len(self.table_bots[0])
        lines = [
            f"{self.game}: {self.games_played} games, {count} table{'s' * (count != 1)} of "
            f"{seats}, seed {self.seed}, {how}"
        ]
        lines += text_table(self.rating_headings(), self.rating_rows())
        lines += text_table(SEAT_HEADINGS, self.seat_rows())
        length = self.length
        lines.append(
            f"game length in moves by players: mean {length.mean:.1f}, sd {length.stdev:.1f}, "
            f"min {length.min}, median {length.quartiles[1]:.1f}, max {length.max}"
        )
        return "\n".join(lines)

    def rating_headings(self) -> tuple[str, ...]:
        """The columns of :meth:`rating_rows`: :data:`RATING_HEADINGS`, less the mean score
        where every table's scores only say who won (``scores_say_only_who_won``).
        """
        if all(table.scores_say_only_who_won for table in self.tables):
            return RATING_HEADINGS[:-1]
        return RATING_HEADINGS

    def rating_rows(self) -> tuple[tuple[str, ...], ...]:
        """The ratings as rows of text under :meth:`rating_headings`, best first, as
        :meth:`table` and ``tabletop-rules tournament`` show them.
        """
        columns = len(self.rating_headings())
        return tuple(
            (
                rating.name,
                f"{rating.rating:+.0f}",
                f"{rating.low:+.0f} to {rating.high:+.0f}",
                str(rating.games),
                f"{rating.win_rate:.1%}",
                f"{rating.score_mean:.1f}",
            )[:columns]
            for rating in sorted(self.ratings, key=lambda rating: -rating.rating)
        )

    def seat_rows(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's wins as a row of text under :data:`SEAT_HEADINGS`."""
        return tuple(
            (
                f"P{seat.seat}",
                f"{seat.win_rate:.1%}",
                f"{seat.win_interval[0]:.1%} - {seat.win_interval[1]:.1%}",
            )
            for seat in self.seats
        )

    def __str__(self) -> str:
        return self.table()


def _units(table: SimulationResult, bots: tuple[int, ...]) -> list[Unit]:
    """A table's bootstrap units, its deals (duplicate) or games, as pairwise points."""
    per_unit = len(bots) if table.duplicate else 1
    units: dict[int, list[tuple[int, int, float]]] = {}
    for game in table.games:
        at = [bots[bot] for bot in game.seating]
        units.setdefault(game.index // per_unit, []).extend(
            (at[i], at[j], got) for i, j, got in pairwise_points(game)
        )
    return [tuple(unit) for unit in units.values()]


def tournament(
    rules: Ruleset[ConfigT, Any, Any],
    bots: Sequence[BotChoice],
    games: int,
    *,
    seed: int,
    config: ConfigT | None = None,
    duplicate: bool = False,
    executor: TaskExecutor | None = None,
    progress: Callable[[int, int], object] | None = None,
    chunk_size: int | None = None,
    resamples: int = RESAMPLES,
) -> TournamentResult:
    """A round robin of ``bots`` at ``rules``: every table of the game's player count
    (:func:`tables`) plays ``games`` games, and the results are rated.

    Args:
        rules: The game, of two or more players with ``config``.
        bots: At least as many bots as the game has seats: names of ``rules.bots`` or
            factories, as for :func:`~tabletop_rules.simulate.simulate`.
        games: The games of each table, at least 1; with ``duplicate`` a multiple of the
            seats. ``ConfigError``, before any table is made, beyond :data:`MAX_TABLES`
            tables, :data:`MAX_TOURNAMENT_BOTS` bots or
            :data:`~tabletop_rules.results.MAX_GAMES` games in all.
        seed: The tournament's seed; table ``t`` plays as ``simulate(…,
            seed=derived_seed(seed, t))`` and the bootstrap draws from
            ``derived_seed(seed, len(tables))``.
        config: The house rules (the game's default ``Config()`` when ``None``).
        duplicate: Play each deal once per rotation of the seats (see ``simulate``); the
            bootstrap then resamples deals, not games.
        executor: Where to play, as for ``simulate``; the tables' chunks share it.
        progress: Called as ``progress(done, total)`` over all the tables' games.
        chunk_size: Games per task, by default as for one table's ``simulate``.
        resamples: The bootstrap resamples of the rating intervals, from 1 to
            :data:`MAX_RESAMPLES`.

    Each game counts as a pairwise result between every two of its seats
    (:func:`pairwise_points`), rated by :func:`bradley_terry`; the intervals come from
    :func:`bootstrap_ratings`, resampling each table's games (or deals) apart.

    """
    check_ruleset(rules)
    check_game_count(games)
    check_count("resamples", resamples, MAX_RESAMPLES, "MAX_RESAMPLES")
    Rng.from_seed(seed)
    seats = rules.players(rules.config_type() if config is None else config)
    if seats < 2:
        raise ConfigError(f"a tournament rates bots against each other: {rules.name} seats {seats}")
    choices = tuple(bots)
    if len(choices) < seats:
        raise BotSelectionError(
            f"{rules.name} with these rules seats {seats} players: a tournament needs at "
            f"least {seats} bots, got {len(choices)}"
        )
    _check_tournament_size(len(choices), seats, games)
    names = bot_names(rules, choices)
    check_whole_deals(games, seats, duplicate)
    size = games_per_task(games, chunk_size, batched=False)
    seated = tables(len(choices), seats)
    seeds = [derived_seed(seed, number) for number in range(len(seated))]
    named = [tuple(names[bot] for bot in table) for table in seated]
    runs = (
        (
            Run(rules, config, tuple(choices[bot] for bot in table), at, True, None, duplicate),
            game_chunks(games, size),
        )
        for table, at in zip(seated, seeds, strict=True)
    )
    played = play_runs(runs, len(seated) * games, executor, progress)
    results = tuple(
        SimulationResult.of(rules.name, at, True, called, got, duplicate=duplicate)
        for called, at, got in zip(named, seeds, played, strict=True)
    )
    strata = [_units(table, at) for at, table in zip(seated, results, strict=True)]
    ratings = bradley_terry(_points((unit for units in strata for unit in units), len(names)))
    bootstrap_seed = derived_seed(seed, len(seated))
    intervals = bootstrap_ratings(strata, len(names), resamples=resamples, seed=bootstrap_seed)
    counts = [0] * len(names)
    wins = [0.0] * len(names)
    scores = [0.0] * len(names)
    for at, table in zip(seated, results, strict=True):
        for stats, bot in zip(table.bots, at, strict=True):
            counts[bot] += stats.games
            wins[bot] += stats.wins
            scores[bot] += stats.score_mean * stats.games
    rated = tuple(
        Rating(
            name, ratings[bot], *intervals[bot], counts[bot], wins[bot], scores[bot] / counts[bot]
        )
        for bot, name in enumerate(names)
    )
    every = [game for table in results for game in table.games]
    length = LengthSummary.of([game.moves for game in every])
    by_seat = seat_stats(every)
    return TournamentResult(
        rules.name, seed, duplicate, names, seated, results, rated, by_seat, length, resamples
    )
