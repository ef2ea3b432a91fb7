"""What a run of games leaves and how it is summed up: each game's :class:`GameResult`,
each bot's figures with their 95% intervals, the luck-controlled differences of a
duplicate run, the plain-text tables printed, and the JSON data of a
:class:`SimulationResult` (written and read back, every field checked).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import Any, Final, TypeAlias

import attrs

from ._messages import short_repr
from ._validation import Fail, run_checks
from .errors import InvalidStateError
from .playing import PlayedGame, game_seed, seating
from .protocol import Seat

__all__ = [
    "MAX_GAMES",
    "VERSUS_HEADINGS",
    "BotStats",
    "Estimate",
    "FieldDifference",
    "Figures",
    "GameResult",
    "Json",
    "LengthStats",
    "SimulationResult",
    "figures_data",
    "mean_interval",
    "text_table",
    "wilson_interval",
]

Json: TypeAlias = bool | int | float | str | list["Json"] | dict[str, "Json"] | None
"""A value that :func:`json.dumps` writes as it is."""


_Z_95: Final = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval

MAX_GAMES: Final = 10**7
"""The most games one :func:`~tabletop_rules.simulate.simulate` plays, and one tournament
over all its tables: a result keeps each game's :class:`GameResult` (some 600 bytes), so
ten million hold about 6 GB. A study of more games pools the figures of several seeds."""


def figures_data(figures: Any, **intervals: str) -> dict[str, Json]:
    """An attrs value of figures as JSON data: its fields in order, tuples as lists, nested
    values as their data, and a float that is not finite (an interval over one sample) as
    ``None``. A ``(low, high)`` field named in ``intervals`` is written as two keys named
    from the value: ``win_interval="win_rate"`` writes ``win_rate_low`` and ``win_rate_high``.
    """
    data = attrs.asdict(figures, value_serializer=_json_value)
    written: dict[str, Json] = {}
    for key, value in data.items():
        if key in intervals:
            written[f"{intervals[key]}_low"], written[f"{intervals[key]}_high"] = value
        else:
            written[key] = value
    return written


def _json_value(_figures: Any, _field: Any, value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return None if isinstance(value, float) and not math.isfinite(value) else value


class Figures:
    """The base of a run's and a tournament's figures: their JSON data are their fields."""

    __slots__ = ()

    def to_data(self) -> dict[str, Json]:
        """The figures as JSON data, ``win_interval`` as ``win_rate_low`` and ``win_rate_high``."""
        return figures_data(self, win_interval="win_rate")


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
    """The Wilson score interval of a success rate (95% with the default ``z``): unlike the
    normal interval it stays in [0, 1], sound for few trials. ``successes`` may be fractional.

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
class Estimate(Figures):
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


def mean_interval(samples: Sequence[float]) -> Estimate:
    """The mean of ``samples`` (independent, as deals are) with its 95% Student t interval,
    ``mean ± t · sd / √n``; unbounded for one sample, which has no spread to measure.

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
class FieldDifference(Figures):
    """How one bot did against the field in a duplicate run, luck controlled: on each deal,
    its mean over the deal's games minus the other bots' mean, averaged over the deals
    with a 95% interval. With two bots the field is the other bot: head to head.
    """

    name: str
    """The bot's name in the run."""
    deals: int
    """The deals played, each once per seating."""
    score_difference: Estimate
    """Its mean final score minus the other bots', per deal."""
    win_difference: Estimate
    """Its share of the wins minus the other bots' mean share, per deal (from -1 to 1)."""


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
        stats = _bot_stats(names, tuple(played))
        scores, wins = sum(one.score_mean for one in stats), sum(one.win_rate for one in stats)
        for bot, one in enumerate(stats):
            score_gaps[bot].append(one.score_mean - (scores - one.score_mean) / (bots - 1))
            win_gaps[bot].append(one.win_rate - (wins - one.win_rate) / (bots - 1))
    return tuple(
        FieldDifference(
            name, len(deals), mean_interval(score_gaps[bot]), mean_interval(win_gaps[bot])
        )
        for bot, name in enumerate(names)
    )


@attrs.frozen
class BotStats(Figures):
    """How one bot of a run did over every game it played (all of them), at any seat."""

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


@attrs.frozen
class LengthStats(Figures):
    """Game lengths in moves made by the players (chance outcomes not counted)."""

    mean: float
    """The mean length."""
    min: int
    """The shortest game's length."""
    max: int
    """The longest game's length."""


def _bot_stats(names: tuple[str, ...], games: tuple[GameResult, ...]) -> tuple[BotStats, ...]:
    wins = [Fraction(0)] * len(names)
    scores: list[list[int]] = [[] for _ in names]
    for game in games:
        for seat, bot in enumerate(game.seating):
            scores[bot].append(game.scores[seat])
            if seat in game.winners:
                wins[bot] += Fraction(1, len(game.winners))
    return tuple(
        BotStats(
            name,
            len(scored),
            float(won),
            float(won / len(scored)),
            wilson_interval(float(won), len(scored)),
            statistics.fmean(scored),
            float(statistics.stdev(scored)) if len(scored) > 1 else 0.0,
        )
        for name, won, scored in zip(names, wins, scores, strict=True)
    )


def text_table(heading: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines of a plain-text table: the first column left-aligned, the others right.

    >>> text_table(("bot", "wins"), [("greedy", "20"), ("random", "0")])
    ['bot     wins', 'greedy    20', 'random     0']
    """
    for row in (heading, *rows):
        if isinstance(row, str) or not row or any(type(cell) is not str for cell in row):
            raise TypeError(f"a table's rows are sequences of str, got {short_repr(row)}")
        if len(row) != len(heading):
            raise TypeError(f"each row has the heading's {len(heading)} cells: {short_repr(row)}")
    widths = [max(len(row[column]) for row in (heading, *rows)) for column in range(len(heading))]
    lines = []
    for row in (heading, *rows):
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


VERSUS_HEADINGS: Final = ("bot", "score diff", "95% interval", "win diff", "95% interval")
"""The columns of :meth:`~tabletop_rules.simulate.SimulationResult.versus_rows`."""


def _versus_row(bot: FieldDifference) -> tuple[str, ...]:
    cells = [bot.name]
    for estimate, spec in ((bot.score_difference, "+.1f"), (bot.win_difference, "+.1%")):
        cells += [f"{estimate.mean:{spec}}", f"{estimate.low:{spec}} to {estimate.high:{spec}}"]
    return tuple(cells)


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
    kind: type[SimulationResult], data: Mapping[str, Any], fail: Fail
) -> SimulationResult:
    """The result ``data`` describes, each field checked, ``fail`` naming a wrong one."""
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
        _read_game(fail, one, index, seed, bots, rotate, duplicate)
        for index, one in enumerate(played)
    )
    result = kind.of(game, seed, rotate, names, games, duplicate=duplicate)
    for key in ("games_played", "moves", "chance_moves"):
        total = getattr(result, key)
        if key in data and (type(data[key]) is not int or data[key] != total):
            fail(f"{key} is {short_repr(data[key])}, but the games add up to {total}")
    return result


def _read_game(
    fail: Fail, one: object, index: int, run_seed: int, bots: int, rotate: bool, duplicate: bool
) -> GameResult:
    """Game ``index`` of a result's data, checked against the run of ``bots`` that played it."""
    where = f"games[{index}]"

    def number(key: str, high: int = _MOST_COUNT) -> int:
        return _whole(fail, f"{where}.{key}", _field(fail, where, one, key), 0, high)

    def numbers(key: str, low: int, high: int, each: str = "") -> tuple[int, ...]:
        items = _items(fail, f"{where}.{key}", _field(fail, where, one, key))
        if each and len(items) != bots:
            fail(f"{where}.{key} must {each}, got {len(items)}")
        return tuple(_whole(fail, f"{where}.{key}", item, low, high) for item in items)

    if number("index") != index:
        fail(f"{where}.index must be {index}: the games are in game order from 0")
    seed = number("seed", 2**64 - 1)
    if seed != game_seed(run_seed, index, bots, duplicate):
        fail(f"{where}.seed {seed} is not the seed the run's seed gives game {index}")
    seated = numbers("seating", 0, bots - 1, f"seat the {bots} bots that bots names")
    if seated != seating(index, bots, rotate=rotate):
        fail(
            f"{where}.seating must be {list(seating(index, bots, rotate=rotate))}, the bots' "
            f"seats in game {index}, got {list(seated)}"
        )
    scores = numbers("scores", -_MOST_COUNT, _MOST_COUNT, f"give a score for each of {bots} seats")
    winners = list(numbers("winners", 0, bots - 1))
    if winners != sorted(set(winners)):
        fail(f"{where}.winners must name seats once each, in increasing order, got {winners}")
    moves, chance = number("moves"), number("chance_moves")
    return GameResult(index, seed, seated, scores, frozenset(winners), moves, chance)


@attrs.frozen
class SimulationResult:
    """The outcome of :func:`~tabletop_rules.simulate.simulate`: per-bot wins and scores,
    game lengths, and each game's :class:`GameResult`, in game order, whatever executor
    played them. ``str()`` gives it as a plain-text table.
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
        """The result of the run that played ``games`` (in game order) with bots ``names``;
        ``duplicate`` for a run whose game ``i`` was of deal ``i // len(names)``.
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
        """The result that ``to_data(per_game=True)`` wrote, its figures computed again
        from the games, after the whole document is checked: JSON's types, each game's
        index, seed and seating as the run made them, one score per seat, counts in range,
        the totals beside the games. :class:`~tabletop_rules.errors.InvalidStateError`,
        naming what is wrong, for anything else, or no games; never another error.
        """
        if not isinstance(data, Mapping) or "games" not in data:
            raise InvalidStateError(
                "not the data of a simulation result with its games (to_data(per_game=True)): "
                f"got {short_repr(data)}"
            )
        return run_checks("simulation result data", partial(_read_result, cls, data))

    @property
    def games_played(self) -> int:
        """How many games were played."""
        return len(self.games)

    @property
    def scores_say_only_who_won(self) -> bool:
        """Whether the scores tell nothing the wins do not: every winner scores one value
        and every other seat one lower value, the same in every game (palace to the first
        out: 1 and 0), so the tables leave the mean score out. One game cannot tell.
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
        """The result as JSON data (for ``json.dumps``), each game's too with ``per_game``."""
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
        """The per-bot figures and game lengths as a plain-text table, the scores only where
        they count points (not :attr:`scores_say_only_who_won`).

        >>> from tabletop_rules import dice_poker as dp
        >>> from tabletop_rules.simulate import simulate
        >>> config = dp.Config(stages=1)
        >>> print(simulate(dp.RULES, ["greedy", "random"], 20, seed=1, config=config).table())
        dice-poker: 20 games, seed 1, bots rotated through the seats
        bot     wins  win rate  95% interval  mean score  score sd
        greedy  20.0    100.0%  83.9%-100.0%       180.8      28.0
        random   0.0      0.0%    0.0%-16.1%       -64.5      11.1
        game length in moves by players: mean 110.7, min 79, max 120
        """
        seats = "bots rotated through the seats" if self.rotate else "bots in fixed seats"
        columns = 4 if self.scores_say_only_who_won else 6
        heading = ("bot", "wins", "win rate", "95% interval", "mean score", "score sd")[:columns]
        rows = [
            (
                bot.name,
                f"{bot.wins:.1f}",
                f"{bot.win_rate:.1%}",
                f"{bot.win_interval[0]:.1%}-{bot.win_interval[1]:.1%}",
                f"{bot.score_mean:.1f}",
                f"{bot.score_stdev:.1f}",
            )[:columns]
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
            lines += text_table(VERSUS_HEADINGS, self.versus_rows())
        return "\n".join(lines)

    def versus_rows(self) -> tuple[tuple[str, ...], ...]:
        """Each bot against the field (:attr:`versus_field`) as a row of text under
        :data:`~tabletop_rules.results.VERSUS_HEADINGS`, as :meth:`table` and
        ``tabletop-rules simulate`` show it.
        """
        return tuple(map(_versus_row, self.versus_field))

    def __str__(self) -> str:
        return self.table()
