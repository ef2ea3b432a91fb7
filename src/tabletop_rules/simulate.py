"""Playing whole games with bots, reproducibly: :func:`play_game` plays one to the end,
:func:`simulate` plays many, in this process or on any executor, and sums them up.

>>> from tabletop_rules import dice_poker as dp
>>> from tabletop_rules.bots import RandomBot
>>> game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=1)], seed=7)
>>> dp.is_over(game.final), len(game.record.moves) > 90
(True, True)

A simulation names its bots, so that they can be made again in a worker process, and
gives the same result for the same seed wherever its games are played:

>>> result = simulate(dp.RULES, ["greedy", "random"], 20, seed=1, config=dp.Config(stages=1))
>>> [(bot.name, bot.wins) for bot in result.bots]
[('greedy', 20.0), ('random', 0.0)]
"""

from __future__ import annotations

import math
import os
import queue
import statistics
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor
from fractions import Fraction
from functools import partial
from typing import Any, Final, Protocol, TypeAlias, TypeVar

import attrs

from ._messages import short_repr
from ._validation import Fail, run_checks
from .errors import BotSelectionError, ConfigError, InvalidStateError, SimulationError
from .protocol import CHANCE, Bot, BotFactory, Ruleset, Seat, check_ruleset
from .records import GameRecord
from .rng import Rng, derived_seed, sample_outcome

__all__ = [
    "BATCHED_CHUNK_SIZE",
    "BATCH_SIZE",
    "MAX_GAMES",
    "TASKS_IN_FLIGHT",
    "BotChoice",
    "BotStats",
    "Estimate",
    "FieldDifference",
    "GameResult",
    "Json",
    "LengthStats",
    "PlayedGame",
    "SimulationResult",
    "TaskExecutor",
    "TaskFuture",
    "default_chunk_size",
    "derived_seed",
    "game_seed",
    "mean_interval",
    "play_game",
    "sample_outcome",
    "seat_bot",
    "seating",
    "simulate",
    "simulated_game",
    "task_count",
    "useful_workers",
    "wilson_interval",
]

T = TypeVar("T")
ConfigT = TypeVar("ConfigT")
T_co = TypeVar("T_co", covariant=True)

BotChoice: TypeAlias = str | BotFactory
"""A bot for :func:`simulate`: a name of the ruleset's ``bots`` (``"random"``,
``"greedy"``…) or a :data:`~tabletop_rules.protocol.BotFactory` of your own."""

Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None
"""A value that :func:`json.dumps` writes as it is."""

_Z_95: Final = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval

_SHOWN_LOST_GAMES: Final = 20


@attrs.frozen
class PlayedGame:
    """A finished game: how it started, every move (chance outcomes included) and where
    it ended. :attr:`record` writes it down as a replayable
    :class:`~tabletop_rules.records.GameRecord`.
    """

    ruleset: Ruleset[Any, Any, Any]
    config: Any
    seed: int
    moves: tuple[Any, ...]
    final: Any
    deal: tuple[Any, ...] | None = None
    chance_moves: int = 0
    """How many of ``moves`` are chance outcomes (drawn with ``auto_chance`` off)."""

    @property
    def record(self) -> GameRecord:
        """The game as a record, its moves in notation (formatted on each access)."""
        moves = tuple(map(self.ruleset.format_move, self.moves))
        return GameRecord(self.ruleset.name, self.config, self.seed, moves, self.deal)

    @property
    def score(self) -> tuple[int, ...]:
        """Each seat's final score: the game's ``score(final)``, named as
        :attr:`Match.score <tabletop_rules.match.Match.score>` is.
        """
        return tuple(self.ruleset.score(self.final))

    @property
    def scores(self) -> tuple[int, ...]:
        """Deprecated name of :attr:`score`, kept for one release; warns
        :class:`DeprecationWarning`.
        """
        warnings.warn(
            "PlayedGame.scores is deprecated: use PlayedGame.score, as Match.score",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.score

    @property
    def winners(self) -> frozenset[Seat]:
        """The winning seats."""
        return frozenset(self.ruleset.winners(self.final))


def play_game(
    ruleset: Ruleset[Any, Any, Any],
    bots: Sequence[Bot[Any, Any]],
    config: Any = None,
    *,
    seed: int | None = None,
    deal: Any = None,
    chance_seed: int = 0,
) -> PlayedGame:
    """Play one game to the end, seat ``i`` moved by ``bots[i]``, which sees only its
    view of the game, ``view(state, i)``.

    ``deal`` (for a game with a deck) fixes the deck order, as in ``new_game``. With
    ``auto_chance=False`` the chance outcomes are drawn from a generator seeded with
    ``chance_seed``, so the game is still reproducible.
    """
    check_ruleset(ruleset)
    start = state = ruleset.new_game(config, seed=seed, deal=deal)
    players = ruleset.players(ruleset.config_of(state))
    if len(bots) != players:
        raise ValueError(f"{players} seats need {players} bots")
    chance = Rng.from_seed(chance_seed)
    moves: list[Any] = []
    chance_moves = 0
    apply, current_player, is_over = ruleset.apply, ruleset.current_player, ruleset.is_over
    view = ruleset.view
    while not is_over(state):
        player = current_player(state)
        assert player is not None, "only a finished game has no player to move"
        if player == CHANCE:
            move, chance = sample_outcome(ruleset.chance_probabilities(state), chance)
            chance_moves += 1
        else:
            move = bots[player].choose(view(state, player))
        state = apply(state, move)
        moves.append(move)
    config, seed = ruleset.config_of(start), ruleset.seed_of(start)
    deal = ruleset.deal_of(start)
    return PlayedGame(ruleset, config, seed, tuple(moves), state, deal, chance_moves)


# --- many games: seeds and seats --------------------------------------------------------------


def seat_bot(factory: BotFactory, game_seed: int, seat: Seat) -> Bot[Any, Any]:
    """The bot ``factory`` makes for ``seat`` of the game with seed ``game_seed``, seeded
    with ``derived_seed(game_seed, 1 + seat)``: as a simulation, the command line and the
    web page seat their bots, so the same game and seat give the same bot everywhere.
    """
    return factory(derived_seed(game_seed, 1 + seat))


def seating(index: int, bots: int, *, rotate: bool = True) -> tuple[int, ...]:
    """Which bot (its position in the bots of :func:`simulate`) sits at each seat in game
    ``index``: rotated by ``index``, so that over ``bots`` games each bot takes each
    seat once; in the given order every game when ``rotate`` is false.

    >>> seating(0, 3), seating(1, 3), seating(1, 3, rotate=False)
    ((0, 1, 2), (1, 2, 0), (0, 1, 2))
    """
    shift = index % bots if rotate else 0
    return tuple((seat + shift) % bots for seat in range(bots))


def _factory(rules: Ruleset[Any, Any, Any], choice: BotChoice) -> BotFactory:
    if not isinstance(choice, str):
        return choice
    try:
        return rules.bots[choice]
    except KeyError:
        known = ", ".join(rules.bots)
        raise BotSelectionError(
            f"{rules.name} has no bot named {choice!r}; its bots: {known}"
        ) from None


def simulated_game(
    rules: Ruleset[ConfigT, Any, Any],
    bots: Sequence[BotChoice],
    index: int,
    *,
    seed: int,
    config: ConfigT | None = None,
    rotate: bool = True,
    duplicate: bool = False,
) -> PlayedGame:
    """Game ``index`` of ``simulate(rules, bots, …, seed=seed, config=config,
    rotate=rotate, duplicate=duplicate)`` played again alone, with every move: to look
    closely at one game of a run, such as one that a
    :class:`~tabletop_rules.errors.SimulationError` names.

    The game's seed is ``g = game_seed(seed, index, len(bots), duplicate)``; with
    ``auto_chance`` off its chance outcomes come from ``derived_seed(g, 0)``; the bot at
    seat ``s`` is made with the seed ``derived_seed(g, 1 + s)``; the bots sit as
    :func:`seating` says.

    >>> from tabletop_rules import dice_poker as dp
    >>> one = dp.Config(stages=1)
    >>> game = simulated_game(dp.RULES, ["greedy", "random"], 3, seed=1, config=one)
    >>> result = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=one)
    >>> game.score == result.games[3].scores, game.seed == result.games[3].seed
    (True, True)
    """
    factories = tuple(_factory(rules, choice) for choice in bots)
    played_seed = game_seed(seed, index, len(factories), duplicate)
    seats = seating(index, len(factories), rotate=rotate or duplicate)
    players = [seat_bot(factories[bot], played_seed, seat) for seat, bot in enumerate(seats)]
    chance_seed = derived_seed(played_seed, 0)
    return play_game(rules, players, config, seed=played_seed, chance_seed=chance_seed)


def game_seed(seed: int, index: int, bots: int, duplicate: bool = False) -> int:
    """The seed of game ``index`` of a run with seed ``seed`` and ``bots`` bots:
    ``derived_seed(seed, index)``, or with ``duplicate`` the seed of its deal,
    ``derived_seed(seed, index // bots)``, so that the ``bots`` games of a deal (one per
    rotation of the seats, :func:`seating`) are dealt the same cards and dice.

    >>> [game_seed(1, index, 2, duplicate=True) == derived_seed(1, 0) for index in range(3)]
    [True, True, False]
    """
    return derived_seed(seed, index // bots if duplicate else index)


# --- results ------------------------------------------------------------------------------------


@attrs.frozen
class GameResult:
    """What a simulation keeps of one game: small enough to travel between processes."""

    index: int
    """The game's place in the run, from 0."""
    seed: int
    """The game's seed, ``derived_seed(run_seed, index)``."""
    seating: tuple[int, ...]
    """The bot at each seat, as its position in the run's bots."""
    scores: tuple[int, ...]
    """Each seat's final score."""
    winners: frozenset[Seat]
    """The winning seats."""
    moves: int
    """The moves the players made (the game's length)."""
    chance_moves: int
    """The chance outcomes drawn (none with ``auto_chance`` on: the rules roll the dice)."""

    @classmethod
    def of(cls, game: PlayedGame, index: int, seating: tuple[int, ...]) -> GameResult:
        """The result of ``game``, game ``index`` of a run, its bots seated as ``seating``."""
        moves = len(game.moves) - game.chance_moves
        return cls(index, game.seed, seating, game.score, game.winners, moves, game.chance_moves)

    def to_data(self) -> dict[str, Json]:
        """The result as JSON data."""
        return {
            "index": self.index,
            "seed": self.seed,
            "seating": list(self.seating),
            "scores": list(self.scores),
            "winners": [*sorted(self.winners)],
            "moves": self.moves,
            "chance_moves": self.chance_moves,
        }


def wilson_interval(successes: float, trials: int, z: float = _Z_95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% with the default ``z``): unlike
    the plain normal interval it stays inside [0, 1] and is sound near 0 and 1 and for
    few trials. ``successes`` may be fractional (shared wins).

    >>> low, high = wilson_interval(20, 20)
    >>> round(low, 3), high
    (0.839, 1.0)
    """
    if trials <= 0:
        raise ValueError(f"a rate needs at least one trial, got {trials}")
    rate = successes / trials
    spread = z * z / trials
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / trials + spread / (4 * trials)) / (1 + spread)
    return min(rate, max(0.0, centre - half)), max(rate, min(1.0, centre + half))


_T_975: Final = (
    12.706204736174707,
    4.302652729749464,
    3.182446305284263,
    2.776445105197799,
    2.570581835636314,
    2.446911848791681,
    2.364624251592785,
    2.306004135204166,
    2.262157162798205,
    2.228138851986274,
)
"""The 97.5% quantiles of Student's t with 1 to 10 degrees of freedom."""


def _t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom: from the table
    to 10, then the Cornish-Fisher series of Abramowitz & Stegun 26.7.5 (within 1e-5).
    """
    if df <= len(_T_975):
        return _T_975[df - 1]
    z = _Z_95
    z3, z5, z7, z9 = z**3, z**5, z**7, z**9
    return (
        z
        + (z3 + z) / (4 * df)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * df**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df**3)
        + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df**4)
    )


@attrs.frozen
class Estimate:
    """A mean over independent samples (deals) with its 95% confidence interval."""

    mean: float
    """The mean of the samples."""
    low: float
    """The interval's lower end (``-inf`` for one sample; ``None`` in JSON data)."""
    high: float
    """The interval's upper end (``inf`` for one sample; ``None`` in JSON data)."""
    stdev: float
    """The samples' standard deviation (0 for one sample)."""
    samples: int
    """How many samples: the deals of a duplicate run."""

    def to_data(self) -> dict[str, Json]:
        """The figures as JSON data."""
        return {
            "mean": self.mean,
            "low": self.low if math.isfinite(self.low) else None,
            "high": self.high if math.isfinite(self.high) else None,
            "stdev": self.stdev,
            "samples": self.samples,
        }


def mean_interval(samples: Sequence[float]) -> Estimate:
    """The mean of ``samples`` with its 95% Student t interval, ``mean ± t · sd / √n``:
    for differences measured once per deal, which are independent from deal to deal. One
    sample has no spread to measure: its interval is unbounded.

    >>> estimate = mean_interval([1.0, 2.0, 3.0])
    >>> estimate.mean, round(estimate.low, 3), round(estimate.high, 3)
    (2.0, -0.484, 4.484)
    """
    values = [float(value) for value in samples]
    if not values:
        raise ValueError("an estimate needs at least one sample")
    mean = statistics.fmean(values)
    if len(values) == 1:
        return Estimate(mean, -math.inf, math.inf, 0.0, 1)
    stdev = statistics.stdev(values)
    half = _t_quantile_975(len(values) - 1) * stdev / math.sqrt(len(values))
    return Estimate(mean, mean - half, mean + half, stdev, len(values))


@attrs.frozen
class FieldDifference:
    """How one bot did against the field in a duplicate run (``simulate(…,
    duplicate=True)``), luck controlled: on each deal, its mean over the deal's games
    minus the other bots' mean, then averaged over the deals with a 95% interval over
    deals. With two bots the field is the other bot: the head-to-head difference.
    """

    name: str
    """The bot's name in the run."""
    deals: int
    """The deals played, each once per seating."""
    score_difference: Estimate
    """Its mean final score minus the other bots', per deal."""
    win_difference: Estimate
    """Its share of the wins minus the other bots' mean share, per deal (from -1 to 1)."""

    def to_data(self) -> dict[str, Json]:
        """The figures as JSON data."""
        return {
            "name": self.name,
            "deals": self.deals,
            "score_difference": self.score_difference.to_data(),
            "win_difference": self.win_difference.to_data(),
        }


def _versus_field(
    names: tuple[str, ...], games: tuple[GameResult, ...]
) -> tuple[FieldDifference, ...]:
    """Each bot against the field, deal by deal (game ``i`` is of deal ``i // bots``)."""
    bots = len(names)
    deals: dict[int, list[GameResult]] = {}
    for game in games:
        deals.setdefault(game.index // bots, []).append(game)
    score_gaps: list[list[float]] = [[] for _ in names]
    win_gaps: list[list[float]] = [[] for _ in names]
    for played in deals.values():
        scores = [0.0] * bots
        wins = [0.0] * bots
        for game in played:
            for seat, bot in enumerate(game.seating):
                scores[bot] += game.scores[seat] / len(played)
                if seat in game.winners:
                    wins[bot] += 1 / (len(game.winners) * len(played))
        for bot in range(bots):
            others = bots - 1
            score_gaps[bot].append(scores[bot] - (sum(scores) - scores[bot]) / others)
            win_gaps[bot].append(wins[bot] - (sum(wins) - wins[bot]) / others)
    return tuple(
        FieldDifference(
            name, len(deals), mean_interval(score_gaps[bot]), mean_interval(win_gaps[bot])
        )
        for bot, name in enumerate(names)
    )


@attrs.frozen
class BotStats:
    """How one bot of a run did, over every game it played (all of them), whatever seat
    it sat at.
    """

    name: str
    """The bot's name in the run (a name of the ruleset's ``bots``, or its factory's)."""
    games: int
    """The games it played."""
    wins: float
    """Its wins; a win shared by ``k`` winners counts ``1/k`` to each."""
    win_rate: float
    """``wins / games``."""
    win_interval: tuple[float, float]
    """The 95% Wilson interval of the win rate (:func:`wilson_interval`)."""
    score_mean: float
    """Its mean final score."""
    score_stdev: float
    """The sample standard deviation of its final scores (0 for one game)."""

    def to_data(self) -> dict[str, Json]:
        """The figures as JSON data."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_low": self.win_interval[0],
            "win_rate_high": self.win_interval[1],
            "score_mean": self.score_mean,
            "score_stdev": self.score_stdev,
        }


@attrs.frozen
class LengthStats:
    """Game lengths in moves made by the players (chance outcomes not counted)."""

    mean: float
    """The mean length."""
    min: int
    """The shortest game's length."""
    max: int
    """The longest game's length."""

    def to_data(self) -> dict[str, Json]:
        """The figures as JSON data."""
        return {"mean": self.mean, "min": self.min, "max": self.max}


def _bot_stats(names: tuple[str, ...], games: tuple[GameResult, ...]) -> tuple[BotStats, ...]:
    wins = [Fraction(0)] * len(names)
    scores: list[list[int]] = [[] for _ in names]
    for game in games:
        for seat, bot in enumerate(game.seating):
            scores[bot].append(game.scores[seat])
            if seat in game.winners:
                wins[bot] += Fraction(1, len(game.winners))
    stats = []
    for name, won, scored in zip(names, wins, scores, strict=True):
        played = len(scored)
        stdev = statistics.stdev(scored) if played > 1 else 0.0
        stats.append(
            BotStats(
                name,
                played,
                float(won),
                float(won / played),
                wilson_interval(float(won), played),
                statistics.fmean(scored),
                float(stdev),
            )
        )
    return tuple(stats)


def text_table(heading: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a plain-text table: the first column left-aligned, the others right.

    >>> text_table(("bot", "wins"), [("greedy", "20"), ("random", "0")])
    ['bot     wins', 'greedy    20', 'random     0']
    """
    widths = [max(len(row[column]) for row in (heading, *rows)) for column in range(len(heading))]
    lines = []
    for row in (heading, *rows):
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def _interval_text(estimate: Estimate, spec: str) -> str:
    return f"{estimate.low:{spec}} to {estimate.high:{spec}}"


_MOST_COUNT: Final = 2**63 - 1
"""The largest score, length or count a result's data may hold: an int64, as the batched
engine's arrays hold them, so sums and means stay exact and finite."""


def _whole(fail: Fail, where: str, value: object, low: int, high: int) -> int:
    """``value`` when it is a plain ``int`` from ``low`` to ``high``; else ``fail``."""
    if type(value) is not int:
        fail(f"{where} must be a whole number, got {short_repr(value)}")
    if not low <= value <= high:
        fail(f"{where} must be {low} to {high}, got {short_repr(value)}")
    return value


def _items(fail: Fail, where: str, value: object) -> list[Any]:
    """``value`` when it is a list (as JSON gives arrays); else ``fail``."""
    if type(value) is not list:
        fail(f"{where} must be a list, got {short_repr(value)}")
    return value


def _field(fail: Fail, where: str, data: object, key: str) -> Any:
    """``data[key]`` of a JSON object; ``fail`` when it is no object or has no ``key``."""
    if not isinstance(data, Mapping):
        fail(f"{where} must be an object, got {short_repr(data)}")
    if key not in data:
        fail(f"{where} has no {key!r}")
    return data[key]


def _read_result(
    data: Mapping[str, Any], fail: Fail
) -> tuple[str, int, bool, tuple[str, ...], tuple[GameResult, ...], bool]:
    """The run a result's data describes, every field checked (``fail`` names the first
    that is wrong): :meth:`SimulationResult.from_data`'s check.
    """
    game = _field(fail, "the result", data, "game")
    if type(game) is not str or not game:
        fail(f"game must be a game's name, got {short_repr(game)}")
    seed = _whole(fail, "seed", _field(fail, "the result", data, "seed"), 0, 2**64 - 1)
    rotate, duplicate = _field(fail, "the result", data, "rotate"), data.get("duplicate", False)
    for name, flag in (("rotate", rotate), ("duplicate", duplicate)):
        if type(flag) is not bool:
            fail(f"{name} must be true or false, got {short_repr(flag)}")
    if duplicate and not rotate:
        fail("a duplicate run seats each bot at every seat: rotate must be true")
    names = []
    for number, bot in enumerate(_items(fail, "bots", _field(fail, "the result", data, "bots"))):
        name = _field(fail, f"bots[{number}]", bot, "name")
        if type(name) is not str:
            fail(f"bots[{number}]'s name must be a string, got {short_repr(name)}")
        names.append(name)
    bots = len(names)
    if not bots:
        fail("bots names no bot")
    played = _items(fail, "games", data["games"])
    if not played:
        fail("a simulation result's data holds no games")
    if len(played) > MAX_GAMES:
        fail(f"games holds {len(played)} games, more than {MAX_GAMES:,} (MAX_GAMES)")
    if duplicate and len(played) % bots:
        fail(
            f"a duplicate run plays whole deals, {bots} games each: "
            f"{len(played)} games are not whole deals"
        )
    games = tuple(
        _read_game(fail, one, index, seed, names, rotate, duplicate)
        for index, one in enumerate(played)
    )
    totals = {
        "games_played": len(games),
        "moves": sum(one.moves for one in games),
        "chance_moves": sum(one.chance_moves for one in games),
    }
    for key, total in totals.items():
        if key in data and (type(data[key]) is not int or data[key] != total):
            fail(f"{key} is {short_repr(data[key])}, but the games add up to {total}")
    return game, seed, rotate, tuple(names), games, duplicate


def _read_game(
    fail: Fail,
    one: object,
    index: int,
    run_seed: int,
    names: Sequence[str],
    rotate: bool,
    duplicate: bool,
) -> GameResult:
    """Game ``index`` of a result's data, checked against the run that played it."""
    where = f"games[{index}]"

    def field(key: str) -> Any:
        return _field(fail, where, one, key)

    if _whole(fail, f"{where}.index", field("index"), 0, _MOST_COUNT) != index:
        fail(f"{where}.index must be {index}: the games are in game order from 0")
    bots = len(names)
    seed = _whole(fail, f"{where}.seed", field("seed"), 0, 2**64 - 1)
    if seed != game_seed(run_seed, index, bots, duplicate):
        fail(f"{where}.seed {seed} is not the seed the run's seed gives game {index}")
    seating_items = _items(fail, f"{where}.seating", field("seating"))
    if len(seating_items) != bots:
        fail(f"{where}.seating must seat the {bots} bots that bots names, got {len(seating_items)}")
    seated = tuple(_whole(fail, f"{where}.seating", bot, 0, bots - 1) for bot in seating_items)
    if seated != seating(index, bots, rotate=rotate):
        fail(
            f"{where}.seating must be {list(seating(index, bots, rotate=rotate))}, the bots' "
            f"seats in game {index}, got {list(seated)}"
        )
    scores = tuple(
        _whole(fail, f"{where}.scores", score, -_MOST_COUNT, _MOST_COUNT)
        for score in _items(fail, f"{where}.scores", field("scores"))
    )
    if len(scores) != bots:
        fail(f"{where}.scores must give one score for each of the {bots} seats")
    winners = [
        _whole(fail, f"{where}.winners", seat, 0, bots - 1)
        for seat in _items(fail, f"{where}.winners", field("winners"))
    ]
    if winners != sorted(set(winners)):
        fail(f"{where}.winners must name seats once each, in increasing order, got {winners}")
    moves = _whole(fail, f"{where}.moves", field("moves"), 0, _MOST_COUNT)
    chance = _whole(fail, f"{where}.chance_moves", field("chance_moves"), 0, _MOST_COUNT)
    return GameResult(index, seed, seated, scores, frozenset(winners), moves, chance)


@attrs.frozen
class SimulationResult:
    """The outcome of :func:`simulate`: per-bot wins and scores, game lengths, and each
    game's :class:`GameResult`, in game order. Equal for equal arguments, whatever
    executor played the games. ``str()`` gives it as a plain-text table.
    """

    game: str
    """The ruleset's name."""
    seed: int
    """The run's seed."""
    rotate: bool
    """Whether the bots changed seats from game to game (:func:`seating`)."""
    games: tuple[GameResult, ...]
    """Every game's result, in game order."""
    bots: tuple[BotStats, ...]
    """Each bot's figures, in the order the bots were given."""
    length: LengthStats
    """Game lengths in players' moves."""
    duplicate: bool = False
    """Whether each deal was played once per seating (``simulate(…, duplicate=True)``)."""
    versus_field: tuple[FieldDifference, ...] = ()
    """Of a duplicate run with more than one bot: each bot against the field, luck
    controlled, in the order the bots were given; empty otherwise."""

    @classmethod
    def of(
        cls,
        game: str,
        seed: int,
        rotate: bool,
        names: Sequence[str],
        games: Sequence[GameResult],
        *,
        duplicate: bool = False,
    ) -> SimulationResult:
        """The result of the run that played ``games`` (in game order) with bots called
        ``names``; ``duplicate`` for a run whose game ``i`` was of deal ``i // len(names)``.
        """
        games = tuple(games)
        names = tuple(names)
        if not games:
            raise ValueError("a simulation result needs at least one game")
        lengths = [result.moves for result in games]
        length = LengthStats(statistics.fmean(lengths), min(lengths), max(lengths))
        versus = _versus_field(names, games) if duplicate and len(names) > 1 else ()
        bots = _bot_stats(names, games)
        return cls(game, seed, rotate, games, bots, length, duplicate, versus)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SimulationResult:
        """The result that ``to_data(per_game=True)`` wrote (after a JSON round trip too):
        its figures computed again from the games. The whole document is checked first:
        the types (plain ``int``, ``str``, ``bool`` and lists, as JSON gives them), each
        game's index, seed and seating as the run made them, its scores and winners one per
        seat, its counts in range, and the totals written beside the games. Raises
        :class:`~tabletop_rules.errors.InvalidStateError` naming what is wrong for data
        that is not such a result, or that has no games; never another error.
        """
        if not isinstance(data, Mapping) or "games" not in data:
            raise InvalidStateError(
                "not the data of a simulation result with its games (to_data(per_game=True)): "
                f"got {short_repr(data)}"
            )
        game, seed, rotate, names, games, duplicate = run_checks(
            "simulation result data", partial(_read_result, data)
        )
        return cls.of(game, seed, rotate, names, games, duplicate=duplicate)

    @property
    def games_played(self) -> int:
        """How many games were played."""
        return len(self.games)

    @property
    def scores_say_only_who_won(self) -> bool:
        """Whether the scores tell nothing the wins do not: in every game each winner has
        one score and every other seat one lower score, the same two in every game (palace
        played to the first out: 1 and 0). Then a mean score only restates the win rate, and
        the tables leave it out; any game whose scores count points shows them. One game
        alone cannot tell, and keeps its scores.
        """
        if len(self.games) < 2:
            return False
        won = {s for one in self.games for seat, s in enumerate(one.scores) if seat in one.winners}
        lost = {
            s for one in self.games for seat, s in enumerate(one.scores) if seat not in one.winners
        }
        return len(won) <= 1 and len(lost) <= 1 and (not won or not lost or min(won) > max(lost))

    @property
    def moves(self) -> int:
        """The moves the players made, over all games."""
        return sum(result.moves for result in self.games)

    @property
    def chance_moves(self) -> int:
        """The chance outcomes drawn, over all games (0 with ``auto_chance`` on)."""
        return sum(result.chance_moves for result in self.games)

    def to_data(self, *, per_game: bool = False) -> dict[str, Json]:
        """The result as JSON data (for ``json.dumps``); each game's result only with
        ``per_game``.
        """
        data: dict[str, Json] = {
            "game": self.game,
            "seed": self.seed,
            "rotate": self.rotate,
            "games_played": self.games_played,
            "moves": self.moves,
            "chance_moves": self.chance_moves,
            "length": self.length.to_data(),
            "bots": [bot.to_data() for bot in self.bots],
            "duplicate": self.duplicate,
        }
        if self.versus_field:
            data["versus_field"] = [bot.to_data() for bot in self.versus_field]
        if per_game:
            data["games"] = [result.to_data() for result in self.games]
        return data

    def table(self) -> str:
        """The per-bot figures and game lengths as a plain-text table; the mean score and
        its spread only where the scores count points (not :attr:`scores_say_only_who_won`).

        >>> from tabletop_rules import dice_poker as dp
        >>> config = dp.Config(stages=1)
        >>> print(simulate(dp.RULES, ["greedy", "random"], 20, seed=1, config=config).table())
        dice-poker: 20 games, seed 1, bots rotated through the seats
        bot     wins  win rate  95% interval  mean score  score sd
        greedy  20.0    100.0%  83.9%-100.0%       180.8      28.0
        random   0.0      0.0%    0.0%-16.1%       -64.5      11.1
        game length in moves by players: mean 110.7, min 79, max 120
        """
        seats = "bots rotated through the seats" if self.rotate else "bots in fixed seats"
        points = not self.scores_say_only_who_won
        heading: tuple[str, ...] = ("bot", "wins", "win rate", "95% interval")
        if points:
            heading += ("mean score", "score sd")
        rows = [
            (
                bot.name,
                f"{bot.wins:.1f}",
                f"{bot.win_rate:.1%}",
                f"{bot.win_interval[0]:.1%}-{bot.win_interval[1]:.1%}",
                f"{bot.score_mean:.1f}",
                f"{bot.score_stdev:.1f}",
            )[: None if points else 4]
            for bot in self.bots
        ]
        if self.duplicate:
            seats = "each deal played once per rotation of the seats"
        lines = [f"{self.game}: {self.games_played} games, seed {self.seed}, {seats}"]
        lines += text_table(heading, rows)
        length = self.length
        lines.append(
            f"game length in moves by players: mean {length.mean:.1f}, "
            f"min {length.min}, max {length.max}"
        )
        if self.versus_field:
            deals = self.versus_field[0].deals
            lines.append(f"luck controlled over {deals} deals: each bot minus the field, per deal")
            lines += text_table(
                ("bot", "score diff", "95% interval", "win diff", "95% interval"),
                [
                    (
                        bot.name,
                        f"{bot.score_difference.mean:+.1f}",
                        _interval_text(bot.score_difference, "+.1f"),
                        f"{bot.win_difference.mean:+.1%}",
                        _interval_text(bot.win_difference, "+.1%"),
                    )
                    for bot in self.versus_field
                ],
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


# --- running games, here or on workers ------------------------------------------------------------


class TaskFuture(Protocol[T_co]):
    """What :func:`simulate` needs of the future ``submit`` returns: a
    :class:`concurrent.futures.Future` or a Dask ``distributed.Future``.
    """

    def result(self) -> T_co:
        """The task's value, or its exception raised."""
        ...

    def add_done_callback(self, fn: Callable[[Any], object], /) -> None:
        """Call ``fn`` (with the future) once the task is finished."""
        ...

    def cancel(self) -> bool:
        """Drop the task if it has not started."""
        ...


class TaskExecutor(Protocol):
    """What :func:`simulate` needs of an executor: ``submit(fn, *args)``, as every
    :class:`concurrent.futures.Executor` has (a process pool, Dask's
    ``client.get_executor()``), and a Dask ``distributed.Client`` too.
    """

    def submit(self, fn: Callable[..., T], /, *args: Any) -> TaskFuture[T]:
        """Run ``fn(*args)`` as a task and return its future."""
        ...


@attrs.frozen
class _Run:
    """What every chunk of a run needs to play its games: sent with each task."""

    rules: Ruleset[Any, Any, Any]
    config: Any
    bots: tuple[BotChoice, ...]
    seed: int
    rotate: bool
    kernel: Callable[..., Any] | None = None
    """The batched kernel (a class, which pickles by name) of a batched run."""
    duplicate: bool = False
    """Whether game ``i`` is of deal ``i // len(bots)``."""

    def game_seed(self, index: int) -> int:
        """The seed of the run's game ``index``."""
        return game_seed(self.seed, index, len(self.bots), self.duplicate)


def _play_chunk(run: _Run, start: int, stop: int) -> tuple[GameResult, ...]:
    """Games ``start`` to ``stop - 1`` of ``run``; the first to fail stops the chunk with
    a :class:`SimulationError` naming it.
    """
    if run.kernel is not None:
        return _play_batch(run, run.kernel, start, stop)
    results = []
    for index in range(start, stop):
        try:
            game = simulated_game(
                run.rules,
                run.bots,
                index,
                seed=run.seed,
                config=run.config,
                rotate=run.rotate,
                duplicate=run.duplicate,
            )
        except Exception as error:
            seed = run.game_seed(index)
            raise SimulationError(
                f"game {index} (seed {seed}) failed: {error!r}", (index,), (seed,)
            ) from error
        results.append(GameResult.of(game, index, seating(index, len(run.bots), rotate=run.rotate)))
    return tuple(results)


def _play_batch(
    run: _Run, kernel: Callable[..., Any], start: int, stop: int
) -> tuple[GameResult, ...]:
    """Games ``start`` to ``stop - 1`` of ``run`` on the batched engine, at most
    :data:`BATCH_SIZE` at a time, each dealt from its seed as :func:`simulated_game` deals
    it and random legal moves drawn from a generator seeded with the run's seed and
    ``start``. A finished game's row waits for the next game until an eighth of the batch
    waits (or every game left can start), so the batch stays full at a deal's cost a few.
    """
    import numpy as np  # the batch extra: only a batched run needs it

    from .batch import random_actions

    config = run.rules.config_type() if run.config is None else run.config
    count = stop - start
    engine = kernel(config, min(count, BATCH_SIZE))
    seeds = np.array([derived_seed(run.seed, index) for index in range(start, stop)], np.uint64)
    scores = np.zeros((count, engine.players), dtype=np.int64)
    won = np.zeros((count, engine.players), dtype=bool)
    moves = np.zeros(count, dtype=np.int64)
    game = np.arange(engine.size)  # the game (of the chunk) each row plays; -1: none
    dealt = engine.size
    generator = np.random.default_rng([run.seed, start])
    games = engine.reset(seeds[:dealt])
    while dealt < count or (game >= 0).any():
        if (games.current_player == CHANCE).any():  # its outcomes are not equally likely
            raise ConfigError(
                "the batched simulate plays games whose rules draw their own chance "
                "(auto_chance=True); a game stopped at a chance point"
            )
        moves[game[~games.over]] += 1
        games = engine.step(games, random_actions(games, generator))
        ended = np.flatnonzero(games.over & (game >= 0))
        if ended.size:
            scores[game[ended]] = games.scores[ended]
            won[game[ended]] = engine.winners(games)[ended]
            game[ended] = -1
        waiting = np.flatnonzero(game < 0)
        if dealt < count and waiting.size >= min(engine.size // 8, count - dealt):
            rows = waiting[: count - dealt]
            next_seeds = np.zeros(engine.size, dtype=np.uint64)
            next_seeds[rows] = seeds[dealt : dealt + rows.size]
            games = engine.restart(games, next_seeds, np.isin(np.arange(engine.size), rows))
            game[rows] = np.arange(dealt, dealt + rows.size)
            dealt += rows.size
    bots = len(run.bots)
    return tuple(
        GameResult(
            index,
            int(seeds[j]),
            seating(index, bots, rotate=run.rotate),
            tuple(scores[j].tolist()),
            frozenset(np.flatnonzero(won[j]).tolist()),
            int(moves[j]),
            0,
        )
        for j, index in enumerate(range(start, stop))
    )


def _lost(run: _Run, chunks: Sequence[range], error: BaseException) -> SimulationError:
    """The error for games that got no result because their task failed outside a game."""
    games = tuple(index for chunk in chunks for index in chunk)
    seeds = tuple(run.game_seed(index) for index in games)
    named = ", ".join(
        f"game {index} (seed {seed})"
        for index, seed in zip(games[:_SHOWN_LOST_GAMES], seeds, strict=False)
    )
    if len(games) > _SHOWN_LOST_GAMES:
        named += f" and {len(games) - _SHOWN_LOST_GAMES} more (see .games and .seeds)"
    if isinstance(error, BrokenExecutor):
        why = "the worker pool broke: a worker process died while playing one of"
    else:
        why = "their task failed:"
    return SimulationError(
        f"no result for {len(games)} games; {why} {named} ({error!r})", games, seeds
    )


BATCH_SIZE: Final = 4096
"""The most games a batched :func:`simulate` plays at a time in one task."""

BATCHED_CHUNK_SIZE: Final = 8 * BATCH_SIZE
"""The games of one task in a batched :func:`simulate`, unless ``chunk_size`` says: a
batch plays them by turns, a finished game's row taking the next."""


def default_chunk_size(games: int) -> int:
    """The games per task when :func:`simulate` is not told: about 100 tasks, at most 100
    games each, so that a few dozen workers share the work evenly and the progress moves,
    while each task (a fraction of a second and more) dwarfs what sending it costs.

    >>> default_chunk_size(40), default_chunk_size(10_000), default_chunk_size(10**6)
    (1, 100, 100)
    """
    return max(1, min(100, -(-games // 100)))


MAX_GAMES: Final = 10**7
"""The most games one :func:`simulate` plays, and one tournament over all its tables. A
result keeps every game's :class:`GameResult`, some 600 bytes each: ten million games
hold about 6 GB, and take a batched run (the fastest) a quarter of an hour on two cores.
A study of more games runs several seeds and pools their figures."""


def _check_games(games: object, most: int = MAX_GAMES) -> None:
    """Raise :class:`~tabletop_rules.errors.ConfigError` unless ``games`` is a whole
    number from 1 to ``most`` (:data:`MAX_GAMES`): checked before any work, so that a
    huge count is refused at once, not after the memory runs out.
    """
    if type(games) is not int or games < 1:
        raise ConfigError(f"games must be a positive integer, got {short_repr(games)}")
    if games > most:
        raise ConfigError(
            f"games must be at most {most:,} (MAX_GAMES), as a result keeps every game; "
            f"got {short_repr(games)}"
        )


def _check_whole_deals(games: int, players: int, duplicate: bool) -> None:
    """Raise :class:`~tabletop_rules.errors.ConfigError` when a ``duplicate`` run of
    ``games`` is no whole number of deals, each played once per rotation of the seats.
    """
    if duplicate and games % players:
        raise ConfigError(
            f"duplicate play plays each deal once per rotation of the {players} seats: "
            f"games must be a multiple of {players}, got {games}"
        )


def _chunk_size(games: int, chunk_size: object, batched: bool) -> int:
    """The games per task: ``chunk_size`` checked, or the default of a run of ``games``."""
    if chunk_size is None:
        return min(games, BATCHED_CHUNK_SIZE) if batched else default_chunk_size(games)
    if type(chunk_size) is not int or chunk_size < 1:
        raise ConfigError(f"chunk_size must be a positive integer, got {short_repr(chunk_size)}")
    return chunk_size


def _chunks(games: int, size: int) -> Iterator[range]:
    """The chunks of a run of ``games``, ``size`` games each (the last one fewer), made as
    they are read.
    """
    return (range(start, min(start + size, games)) for start in range(0, games, size))


def task_count(games: int, *, batched: bool = False, chunk_size: int | None = None) -> int:
    """How many tasks :func:`simulate` splits ``games`` into: more workers than this have
    nothing to do.

    >>> task_count(1), task_count(250), task_count(10**6), task_count(10**6, batched=True)
    (1, 84, 10000, 31)
    """
    _check_games(games)
    return -(-games // _chunk_size(games, chunk_size, batched))


def _cores() -> int:
    """The cores this process may run on."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if callable(counted):
        return int(counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def useful_workers(workers: int, tasks: int) -> int:
    """The worker processes worth starting for ``tasks`` tasks when ``workers`` are asked
    for: no more than the cores this process may use, nor than the tasks (one game needs
    one process, not forty).

    >>> useful_workers(40, 1)
    1
    """
    return max(1, min(workers, tasks, _cores()))


def simulate(
    rules: Ruleset[ConfigT, Any, Any],
    bots: Sequence[BotChoice],
    games: int,
    *,
    seed: int,
    config: ConfigT | None = None,
    executor: TaskExecutor | None = None,
    progress: Callable[[int, int], object] | None = None,
    rotate: bool = True,
    chunk_size: int | None = None,
    batched: bool = False,
    duplicate: bool = False,
) -> SimulationResult:
    """Play ``games`` games of ``rules`` with ``bots``, one bot per seat, and sum them up.

    Args:
        rules: The game.
        bots: One bot per seat: names of ``rules.bots`` (``"random"``, ``"greedy"``…) or
            bot factories (:data:`~tabletop_rules.protocol.BotFactory`) that pickle.
        games: How many games to play, from 1 to :data:`MAX_GAMES`; the chunks are made
            as they are sent, so the work grows with the games played.
        seed: The run's seed, in ``range(2 ** 64)``; game ``i`` is played with the seed
            ``derived_seed(seed, i)``, its bots and chance outcomes seeded from that
            (:func:`simulated_game` plays one game again alone).
        config: The house rules (the game's default ``Config()`` when ``None``).
        executor: Where to play: ``None`` plays here, one game after another; a
            :class:`concurrent.futures.ProcessPoolExecutor`, Dask's
            ``client.get_executor()`` or a Dask ``Client`` play chunks of games in
            parallel (see :doc:`/simulation`).
        progress: Called as ``progress(done, games)`` before the first game and after
            each chunk, in this thread.
        rotate: Seat the bots rotated by the game's index (:func:`seating`), so that each
            takes each seat equally often and the first player's edge evens out; false
            keeps ``bots[i]`` at seat ``i``.
        chunk_size: Games per task; :func:`default_chunk_size` when ``None``, and
            :data:`~tabletop_rules.simulate.BATCHED_CHUNK_SIZE` for a batched run.
        batched: Play on the batched engine (:mod:`tabletop_rules.batch`, the ``batch``
            extra), one batch per task: every bot must be ``"random"``, its moves drawn
            from the legal mask with NumPy, so the games are other games than an unbatched
            run's (the deals are the same), and as reproducible. A game that stops at
            chance points (``auto_chance=False``) raises ``ConfigError``: a uniform draw
            from the mask is not the outcomes' odds.
        duplicate: Play each deal once per rotation of the seats: games ``k·n`` to
            ``k·n + n - 1`` of ``n`` bots are all dealt from the seed
            ``derived_seed(seed, k)`` (:func:`game_seed`), each bot at each seat once, so
            every bot meets the same cards and dice from every seat; ``games`` must be a
            multiple of ``n`` (``ConfigError`` otherwise). The result adds each bot's
            luck-controlled difference from the field
            (:attr:`SimulationResult.versus_field`). A seat's bot is seeded from the deal
            and the seat, as in any run (:func:`seat_bot`). Needs
            ``rotate``; the batched engine refuses it (``ConfigError``).

    The result is the same for the same arguments whatever the executor: each game
    depends only on its index, and the results are put in game order. Raises
    :class:`~tabletop_rules.errors.BotSelectionError` for a bot name the game does not
    have or not one bot per seat, :class:`~tabletop_rules.errors.ConfigError` for a count
    out of range (``games``, ``chunk_size``) before any work, and
    :class:`~tabletop_rules.errors.SimulationError`
    naming the game and its seed when a game fails, or the games left without a result
    when a worker dies; never a result with fewer games.

    """
    _check_games(games)
    Rng.from_seed(seed)
    size = _chunk_size(games, chunk_size, batched)
    choices = tuple(bots)
    names = _bot_names(rules, choices)
    players = rules.players(rules.config_type() if config is None else config)
    if len(choices) != players:
        raise BotSelectionError(
            f"{rules.name} with these rules seats {players} players: "
            f"name {players} bots, got {len(choices)}"
        )
    if batched and any(choice != "random" for choice in choices):
        raise BotSelectionError(
            f"the batched engine plays random bots only: name 'random' for every seat, got "
            f"{', '.join(map(str, names))}"
        )
    _check_whole_deals(games, players, duplicate)
    if duplicate and not rotate:
        raise ConfigError("duplicate play seats each bot at every seat: it needs rotate=True")
    if duplicate and batched:
        raise ConfigError(
            "the batched engine plays random bots only, whose moves come from one generator "
            "per batch: duplicate play, which compares bots on the same deals, is not batched"
        )
    kernel = None
    if batched:
        from .batch import kernel as batch_kernel  # the batch extra

        kernel = batch_kernel(rules.name)
    run = _Run(rules, config, choices, seed, rotate, kernel, duplicate)
    (results,) = _play_runs([(run, _chunks(games, size))], games, executor, progress)
    return SimulationResult.of(rules.name, seed, rotate, names, results, duplicate=duplicate)


def _factory_name(factory: BotFactory) -> str:
    """The name of a factory's function or class, or of the one it wraps
    (:class:`~tabletop_rules.bots.Unseeded`, :func:`functools.partial`).
    """
    for named in (factory, getattr(factory, "make", None), getattr(factory, "func", None)):
        name = getattr(named, "__name__", None)
        if isinstance(name, str):
            return name
    return repr(factory)


def _bot_names(rules: Ruleset[Any, Any, Any], choices: tuple[BotChoice, ...]) -> tuple[str, ...]:
    """Each bot's name in the results: its name, or its factory's; repeats numbered.
    :class:`~tabletop_rules.errors.BotSelectionError` for a name the game has no bot for.
    """
    names: list[str] = []
    for choice in choices:
        factory = _factory(rules, choice)
        name = choice if isinstance(choice, str) else _factory_name(factory)
        repeats = sum(1 for earlier in names if earlier.split(" #")[0] == name)
        names.append(f"{name} #{repeats + 1}" if repeats else name)
    return tuple(names)


def _put_number(finished: queue.SimpleQueue[int], number: int, _future: object) -> None:
    finished.put(number)


TASKS_IN_FLIGHT: Final = 64
"""The most chunks sent to an executor and not yet collected, or twice its workers where
it says how many it has (a process pool, a Dask client): chunks are made as they are sent,
so a long run holds only these and the results in hand, never every chunk at once."""


def _in_flight(executor: TaskExecutor) -> int:
    """How many chunks to keep sent to ``executor``: two per worker where it says how many
    (a :mod:`concurrent.futures` pool's ``_max_workers``, a Dask client's ``nthreads()``),
    at least :data:`TASKS_IN_FLIGHT`.
    """
    workers = getattr(executor, "_max_workers", None)
    if type(workers) is not int:
        workers = 0
        nthreads = getattr(getattr(executor, "_client", executor), "nthreads", None)
        if callable(nthreads):
            try:
                counts = nthreads()
                workers = sum(counts.values()) if isinstance(counts, Mapping) else 0
            except Exception:  # an executor that only looks like a Dask client
                workers = 0
    return max(TASKS_IN_FLIGHT, 2 * workers) if type(workers) is int else TASKS_IN_FLIGHT


def _play_runs(
    runs: Iterable[tuple[_Run, Iterable[range]]],
    games: int,
    executor: TaskExecutor | None,
    progress: Callable[[int, int], object] | None,
) -> list[list[GameResult]]:
    """Every run's results, each in game order, its chunks (``games`` games in all) played
    here or on ``executor``. The runs and their chunks are read as they are sent, at most
    :func:`_in_flight` waiting at a time, so the work before the first game and the memory
    held grow with the games played, not the games asked for; the runs share the workers
    (the tables of a tournament keep them busy together).
    """
    tasks = ((number, run, chunk) for number, (run, chunks) in enumerate(runs) for chunk in chunks)
    results: list[tuple[int, tuple[GameResult, ...]]] = []
    done = 0
    if progress is not None:
        progress(0, games)
    if executor is None:
        for number, run, chunk in tasks:
            results.append((number, _play_chunk(run, chunk.start, chunk.stop)))
            done += len(chunk)
            if progress is not None:
                progress(done, games)
    else:
        _play_sent(tasks, games, executor, progress, results)
    played: list[list[GameResult]] = []
    for number, chunk_results in results:
        while len(played) <= number:
            played.append([])
        played[number].extend(chunk_results)
    return played


def _play_sent(
    tasks: Iterator[tuple[int, _Run, range]],
    games: int,
    executor: TaskExecutor,
    progress: Callable[[int, int], object] | None,
    results: list[tuple[int, tuple[GameResult, ...]]],
) -> None:
    """:func:`_play_runs` on ``executor``: ``results`` filled in task order, the chunks
    sent as earlier ones are collected.
    """
    finished: queue.SimpleQueue[int] = queue.SimpleQueue()
    pending: dict[int, tuple[TaskFuture[tuple[GameResult, ...]], int, _Run, range]] = {}
    collected: dict[int, tuple[int, tuple[GameResult, ...]]] = {}
    limit = _in_flight(executor)
    sent = done = 0
    try:
        while True:
            while len(pending) < limit and (task_item := next(tasks, None)) is not None:
                number, run, chunk = task_item
                future = executor.submit(_play_chunk, run, chunk.start, chunk.stop)
                future.add_done_callback(partial(_put_number, finished, sent))
                pending[sent] = (future, number, run, chunk)
                sent += 1
            if not pending:
                return
            task = finished.get()
            future, number, run, chunk = pending.pop(task)
            try:
                collected[task] = (number, future.result())
            except SimulationError:
                raise
            except Exception as error:
                lost = [chunk]
                if isinstance(error, BrokenExecutor):  # every game of the run left unplayed
                    lost += [other for _f, _n, of, other in pending.values() if of is run]
                    lost += [other for _n, of, other in tasks if of is run]
                    lost.sort(key=lambda each: each.start)
                raise _lost(run, lost, error) from error
            while len(results) in collected:
                results.append(collected.pop(len(results)))
            done += len(chunk)
            if progress is not None:
                progress(done, games)
    except BaseException:
        for future, _number, _run, _chunk in pending.values():
            future.cancel()
        raise
