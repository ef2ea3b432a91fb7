"""Figures of simulations and tournaments, and a balance report of house rules as one
HTML page (the ``plot`` extra, matplotlib). Each figure is a
:class:`matplotlib.figure.Figure` drawn on the Agg canvas, never through ``pyplot`` (no
window opens, the program's backend is left as it was); :func:`png` gives its bytes.

>>> from tabletop_rules import dice_poker as dp
>>> from tabletop_rules.tournament import tournament
>>> result = tournament(dp.RULES, ["greedy", "random"], 4, seed=1, config=dp.Config(stages=1))
>>> png(rating_figure(result))[1:4]
b'PNG'
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import attrs

try:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ImportError as missing:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tabletop_rules.plots needs matplotlib: pip install 'tabletop-rules[plot]'"
    ) from missing

from ._messages import short_repr
from .bots import own_bot_name
from .errors import ConfigError
from .house_rules import configured, value_text
from .protocol import Ruleset, check_ruleset
from .simulate import (
    BotChoice,
    BotStats,
    Estimate,
    SimulationResult,
    TaskExecutor,
    mean_interval,
    simulate,
)
from .tournament import SeatStats, TournamentResult, seat_stats

__all__ = [
    "BalanceReport",
    "Results",
    "balance_report",
    "length_figure",
    "png",
    "rating_figure",
    "score_figure",
    "seat_figure",
]

Results: TypeAlias = (
    SimulationResult | TournamentResult | Mapping[str, SimulationResult | TournamentResult]
)
"""What a figure shows: one run, or named runs side by side (``{"defaults": a, ...}``)."""

_WIDTH, _HEIGHT = 6.4, 3.6
_DPI = 100


def _figure() -> tuple[Figure, Any]:
    figure = Figure(figsize=(_WIDTH, _HEIGHT), dpi=_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _plain(text: str) -> str:
    r"""``text`` drawn as written, each ``$`` escaped: a bot called ``$\frac$`` is never
    parsed as matplotlib math (which fails to draw, or draws something else).

    >>> print(_plain("$x$ wins"))
    \$x\$ wins
    """
    return text.replace("$", r"\$")


def png(figure: Figure) -> bytes:
    """The figure as PNG bytes, drawn on the Agg canvas."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _named(results: Results) -> dict[str, SimulationResult | TournamentResult]:
    if isinstance(results, SimulationResult | TournamentResult):
        return {"": results}
    if isinstance(results, Mapping) and all(
        isinstance(result, SimulationResult | TournamentResult) for result in results.values()
    ):
        return dict(results)
    raise TypeError(
        f"a figure shows a SimulationResult, a TournamentResult or a mapping of names to "
        f"them, got {short_repr(results)}"
    )


def rating_figure(result: TournamentResult) -> Figure:
    """Each bot's Bradley-Terry rating with its 95% bootstrap interval, best at the top."""
    if not isinstance(result, TournamentResult):
        raise TypeError(f"a rating figure shows a TournamentResult, got {short_repr(result)}")
    figure, axes = _figure()
    ratings = sorted(result.ratings, key=lambda rating: rating.rating)
    rows = range(len(ratings))
    values = [rating.rating for rating in ratings]
    errors = [
        [rating.rating - rating.low for rating in ratings],
        [rating.high - rating.rating for rating in ratings],
    ]
    axes.errorbar(values, rows, xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(list(rows), [_plain(rating.name) for rating in ratings])
    axes.axvline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("rating (Bradley-Terry, Elo scale: 400 points = 10:1 odds)")
    unit = "deals" if result.duplicate else "games"
    axes.set_title(_plain(f"{result.game}: ratings, 95% intervals from resampled {unit}"))
    return figure


def seat_figure(results: Results) -> Figure:
    """Each seat's win rate and 95% Wilson interval, the runs side by side, an even share
    (1 / seats) marked.
    """
    named = _named(results)
    figure, axes = _figure()
    width = 0.8 / len(named)
    seats = 0
    for number, (name, result) in enumerate(named.items()):
        stats = result.seats if isinstance(result, TournamentResult) else seat_stats(result.games)
        seats = max(seats, len(stats))
        places = [seat.seat + (number - (len(named) - 1) / 2) * width for seat in stats]
        rates = [seat.win_rate for seat in stats]
        errors = [
            [seat.win_rate - seat.win_interval[0] for seat in stats],
            [seat.win_interval[1] - seat.win_rate for seat in stats],
        ]
        axes.bar(places, rates, width, yerr=errors, capsize=3, label=_plain(name) or None)
    axes.axhline(1 / max(seats, 1), color="grey", linewidth=0.8, linestyle="--")
    axes.set_xticks(range(seats), [f"P{seat}" for seat in range(seats)])
    axes.set(ylabel="win rate", title="wins by seat, 95% intervals; dashed: an even share")
    if len(named) > 1:
        axes.legend()
    return figure


def score_figure(results: Results) -> Figure:
    """The final scores' distribution: of each bot for one run, of each run for several."""
    named = _named(results)
    figure, axes = _figure()
    groups: dict[str, list[int]] = {}
    if len(named) == 1:
        (result,) = named.values()
        for at, game in _seated(result):
            for seat, score in enumerate(game.scores):
                groups.setdefault(at[seat], []).append(score)
    else:
        for name, result in named.items():
            groups[name] = [score for _at, game in _seated(result) for score in game.scores]
    _histograms(axes, groups)
    axes.set(xlabel="final score", ylabel="share of scores", title="score distribution")
    return figure


def _seated(result: SimulationResult | TournamentResult) -> list[tuple[list[str], Any]]:
    """Every game with the names of the bots at its seats."""
    if isinstance(result, TournamentResult):
        return [([result.names[bot] for bot in bots], game) for bots, game in result.games]
    return [([result.bots[bot].name for bot in game.seating], game) for game in result.games]


def length_figure(results: Results) -> Figure:
    """The distribution of game lengths, in moves made by the players, of each run."""
    named = _named(results)
    figure, axes = _figure()
    _histograms(axes, {name: [game.moves for _at, game in _seated(r)] for name, r in named.items()})
    axes.set(xlabel="game length (moves by the players)", ylabel="share of games")
    axes.set_title("game lengths")
    return figure


def _histograms(axes: Any, groups: Mapping[str, Sequence[int]]) -> None:
    """Step histograms on shared bins, each normalised to its own count."""
    values = [value for group in groups.values() for value in group]
    low, high = min(values), max(values)
    bins = min(40, max(1, high - low + 1))
    style = {"bins": bins, "range": (low, high + 1), "histtype": "step", "linewidth": 1.5}
    for name, group in groups.items():
        weights = [1 / len(group)] * len(group)
        axes.hist(group, weights=weights, label=_plain(name) or None, **style)
    if any(groups):
        axes.legend()


@attrs.frozen
class BalanceReport:
    """House rules weighed against the defaults: the same bots play as many games from the
    same seeds under each (game ``i`` the same deal where the rules leave deals alone).
    """

    title: str
    """The game's title."""
    rules: tuple[str, ...]
    """The house rules weighed, as ``key=value`` texts in their canonical form."""
    defaults: SimulationResult
    """The games under the defaults."""
    changed: SimulationResult
    """The games under the house rules."""

    def summary(self) -> tuple[tuple[str, str, str], ...]:
        """``(what, defaults, house rules)``: win rates, lengths, and bots' figures."""
        pairs = zip(seat_stats(self.defaults.games), seat_stats(self.changed.games), strict=True)
        rows = [
            (f"P{seat} win rate (95% interval)", _rate(before), _rate(after))
            for seat, (before, after) in enumerate(pairs)
        ]
        change = self.length_change
        shift = f"{change.mean:+.1f} ({change.low:+.1f} to {change.high:+.1f})"
        rows.append(("game length, mean (min-max)", _length(self.defaults), _length(self.changed)))
        rows.append(("length change, same seeds (95% interval)", "", shift))
        kinds = {bot.name.split(" #")[0] for bot in self.defaults.bots}
        bots = zip(self.defaults.bots, self.changed.bots, strict=True) if len(kinds) > 1 else ()
        rows += [
            (f"{bot.name}: win rate, mean score", _bot(bot), _bot(changed)) for bot, changed in bots
        ]
        return tuple(rows)

    @property
    def length_change(self) -> Estimate:
        """The mean change of game ``i``'s length under the house rules, 95% interval."""
        pairs = zip(self.defaults.games, self.changed.games, strict=True)
        return mean_interval([after.moves - before.moves for before, after in pairs])

    def figures(self) -> dict[str, Figure]:
        """The report's figures by caption; the scores' only where, under either rules, they
        say more than who won (palace's do not).
        """
        both = {"defaults": self.defaults, " ".join(self.rules): self.changed}
        figures = {"Wins by seat": seat_figure(both), "Game lengths": length_figure(both)}
        games = (*self.defaults.games, *self.changed.games)
        if not attrs.evolve(self.defaults, games=games).scores_say_only_who_won:
            figures["Scores"] = score_figure(both)
        return figures

    def html(self) -> str:
        """The report as one HTML page, its figures embedded as PNG data URIs."""
        changed = html.escape(" ".join(self.rules))
        games = self.defaults.games_played
        bots = ", ".join(bot.name for bot in self.defaults.bots)
        rows = "".join(
            f"<tr><td>{html.escape(what)}</td><td>{html.escape(before)}</td>"
            f"<td>{html.escape(after)}</td></tr>"
            for what, before, after in self.summary()
        )
        pictures = "".join(
            f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,'
            f'{base64.b64encode(png(figure)).decode("ascii")}"><figcaption>'
            f"{html.escape(caption)}</figcaption></figure>"
            for caption, figure in self.figures().items()
        )
        return (
            "<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(self.title)}: '
            f"{changed} against the defaults</title>"
            "<style>body{font-family:sans-serif;max-width:52em;margin:2em auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em}"
            "img{max-width:100%}</style></head><body>"
            f"<h1>{html.escape(self.title)}: {changed} against the defaults</h1>"
            f"<p>{games} games under each, bots {html.escape(bots)} rotated through the "
            f"seats, seed {self.defaults.seed}.</p>"
            f"<table><tr><th></th><th>defaults</th><th>{changed}</th></tr>{rows}</table>"
            f"{pictures}</body></html>\n"
        )

    def write(self, path: str | Path) -> Path:
        """Write :meth:`html` to ``path``; the path written."""
        target = Path(path)
        target.write_text(self.html(), encoding="utf-8")
        return target


def _bot(bot: BotStats) -> str:
    return f"{bot.win_rate:.1%}, {bot.score_mean:.1f}"


def _rate(seat: SeatStats) -> str:
    low, high = seat.win_interval
    return f"{seat.win_rate:.1%} ({low:.1%}-{high:.1%})"


def _length(result: SimulationResult) -> str:
    length = result.length
    return f"{length.mean:.1f} ({length.min}-{length.max})"


def balance_report(
    rules: Ruleset[Any, Any, Any],
    house_rules: Sequence[str],
    games: int,
    *,
    seed: int,
    bots: Sequence[BotChoice] | None = None,
    executor: TaskExecutor | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> BalanceReport:
    """Weigh ``house_rules`` (``key=value`` texts) against the defaults: ``games`` games
    under each, from the same ``seed``, with ``bots`` (``None``: the game's own bot at
    every seat) rotated through the seats.

    :class:`~tabletop_rules.errors.ConfigError` for no house rules, one the game does not
    have or a value it refuses, and rules that change the player count.
    """
    check_ruleset(rules)
    if isinstance(house_rules, str) or not isinstance(house_rules, Sequence):
        raise TypeError(
            f"a balance report weighs a sequence of key=value house rules, got "
            f"{short_repr(house_rules)}"
        )
    if not house_rules:
        raise ConfigError("a balance report weighs house rules: name at least one")
    config = configured(rules.config_type, house_rules)
    players = rules.players(rules.config_type())
    if rules.players(config) != players:
        raise ConfigError(
            f"a balance report compares games of one player count: these house rules seat "
            f"{rules.players(config)}, the defaults {players}"
        )
    chosen = list(bots) if bots is not None else [own_bot_name(rules)] * players
    names = sorted({text.partition("=")[0].strip() for text in house_rules})
    texts = tuple(f"{name}={value_text(config, name)}" for name in names)
    before = simulate(rules, chosen, games, seed=seed, executor=executor, progress=progress)
    after = simulate(
        rules, chosen, games, seed=seed, config=config, executor=executor, progress=progress
    )
    return BalanceReport(rules.title, texts, before, after)
