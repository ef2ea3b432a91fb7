"""A round robin of every bot of every game: a table of win rates per game.

    python examples/tournament.py
    python examples/tournament.py --game palace --games 1000 --workers 2
    python examples/tournament.py --versus-random --games 1000

Each game's bots are the ones its ruleset names (``rules.bots``: ``random`` for every
game, and the game's own), but for the bots that think for tens of milliseconds a move,
dice poker's ``coach`` and the search bots (``search``): ``--search`` adds them
(docs/bots.rst measures them with ``benchmarks/coach_margin.py`` and
``benchmarks/search_bars.py``). Every pair of two different bots plays ``--games``
two-player games of the game's standard rules with
:func:`tabletop_rules.simulate.simulate`: seats rotate from game to game, and every
pairing of a game plays the same game seeds, derived from ``--seed``. A bot is not paired
with itself: with seats rotating, its two copies win half the games between them by
construction. The table shows each bot against each other bot: its wins (a shared win
counts half), win rate with a 95% Wilson interval, and the mean and spread of its final
scores. The same arguments print the same tables, with or without ``--workers``.

``--versus-random`` prints instead the measurement that docs/bots.rst quotes: each of
the game's own bots against RandomBot, game ``i`` played from seed ``--seed + i`` with
the bot in seat ``i % 2`` and a RandomBot seeded with the game's seed, with the margins
of the bot's score over RandomBot's.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import statistics
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

from tabletop_rules import get_ruleset, rulesets
from tabletop_rules.protocol import Bot, Ruleset
from tabletop_rules.simulate import SimulationResult, TaskExecutor, play_game, simulate

DEFAULT_GAMES = 100
"""Games per pairing unless ``--games`` says otherwise: every game in a few seconds."""


def two_player_config(rules: Ruleset[Any, Any, Any]) -> Any:
    """The game's standard rules for two players: its default ``Config()``, with
    ``players=2`` where the default seats another number.
    """
    config = rules.config_type()
    if rules.players(config) == 2:
        return config
    return attrs.evolve(config, players=2)


@attrs.frozen
class Pairing:
    """Two different bots of a game and the games they played against each other."""

    bots: tuple[str, str]
    result: SimulationResult


THINKING_BOTS = frozenset({"coach", "search"})
"""The bots that think for tens of milliseconds a move, left out unless ``--search`` is
given: the coach reads its exact tables each throw, the search bots play out guesses."""


def bot_names(rules: Ruleset[Any, Any, Any], *, search: bool = False) -> tuple[str, ...]:
    """The names of ``rules.bots`` that play, in the order they are listed: all of them
    with ``search``, else all but :data:`THINKING_BOTS`.
    """
    return tuple(name for name in rules.bots if search or name not in THINKING_BOTS)


def round_robin(
    rules: Ruleset[Any, Any, Any],
    games: int,
    *,
    seed: int,
    executor: TaskExecutor | None = None,
    search: bool = False,
) -> tuple[Pairing, ...]:
    """Every pair of two different bots of :func:`bot_names`, in the order they are
    listed, each playing ``games`` two-player games from the run seed ``seed``.
    """
    config = two_player_config(rules)
    return tuple(
        Pairing(
            (first, second),
            simulate(rules, [first, second], games, seed=seed, config=config, executor=executor),
        )
        for first, second in itertools.combinations(bot_names(rules, search=search), 2)
    )


def table(rules: Ruleset[Any, Any, Any], pairings: Sequence[Pairing], seed: int) -> str:
    """The round robin of one game as plain text: one row per bot and opponent."""
    games = pairings[0].result.games_played if pairings else 0
    heading = (
        "bot",
        "against",
        "games",
        "wins",
        "win rate",
        "95% interval",
        "mean score",
        "score sd",
    )
    rows = []
    for pairing in pairings:
        stats = pairing.result.bots
        for bot, opponent in ((stats[0], stats[1]), (stats[1], stats[0])):
            low, high = bot.win_interval
            rows.append(
                (
                    bot.name,
                    opponent.name,
                    str(bot.games),
                    f"{bot.wins:.1f}",
                    f"{bot.win_rate:.1%}",
                    f"{low:.1%}-{high:.1%}",
                    f"{bot.score_mean:.1f}",
                    f"{bot.score_stdev:.1f}",
                )
            )
    widths = [max(len(row[column]) for row in (heading, *rows)) for column in range(8)]
    lines = [
        f"{rules.title} ({rules.name}): {games} two-player games a pairing, "
        f"seed {seed}, seats rotating"
    ]
    for row in (heading, *rows):
        cells = [cell.ljust(width) for cell, width in zip(row[:2], widths[:2], strict=True)]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


# --- each game's own bots against RandomBot, as docs/bots.rst measures them ------------------


@attrs.frozen
class Margins:
    """A bot's results against RandomBot: wins, ties, losses, and each game's scores
    (the bot's first).
    """

    wins: int
    ties: int
    losses: int
    scores: tuple[tuple[int, int], ...]

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.scores)

    @property
    def margins(self) -> tuple[int, ...]:
        """The bot's score minus RandomBot's, game by game."""
        return tuple(bot - random for bot, random in self.scores)


def versus_random(
    rules: Ruleset[Any, Any, Any], bot_name: str, games: int, first_seed: int = 0
) -> Margins:
    """Play the bot named ``bot_name`` against RandomBot: game ``i`` from seed
    ``first_seed + i``, the bot in seat ``i % 2``, the RandomBot seeded with the game's
    seed.
    """
    config = two_player_config(rules)
    wins = ties = losses = 0
    scores = []
    for number in range(games):
        seed = first_seed + number
        seat = number % 2
        bot, random = rules.bots[bot_name](seed), rules.bots["random"](seed)
        bots: list[Bot[Any, Any]] = [bot, random] if seat == 0 else [random, bot]
        game = play_game(rules, bots, config, seed=seed)
        scores.append((game.score[seat], game.score[1 - seat]))
        if game.winners == {seat}:
            wins += 1
        elif len(game.winners) > 1:
            ties += 1
        else:
            losses += 1
    return Margins(wins, ties, losses, tuple(scores))


def margins_report(
    rules: Ruleset[Any, Any, Any], bot_name: str, games: int, first_seed: int
) -> str:
    """What :func:`versus_random` found, as docs/bots.rst quotes it."""
    result = versus_random(rules, bot_name, games, first_seed)
    name = type(rules.bots[bot_name](first_seed)).__name__
    last = first_seed + games - 1
    heuristic, random = (statistics.fmean(column) for column in zip(*result.scores, strict=True))
    margins = result.margins
    return "\n".join(
        [
            f"{name} vs RandomBot: {result.games} two-player games, "
            f"seeds {first_seed}..{last}, seats alternating",
            f"{name} won {result.wins} ({100 * result.wins / result.games:.1f}%), "
            f"tied {result.ties}, lost {result.losses}",
            f"mean score: {name} {heuristic:.1f}, RandomBot {random:.1f}",
            f"margin ({name} - RandomBot): mean {statistics.fmean(margins):+.1f}, "
            f"sd {statistics.pstdev(margins):.1f}, "
            f"min {min(margins):+d}, max {max(margins):+d}",
        ]
    )


@contextlib.contextmanager
def pool_of(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    """A process pool of ``workers`` workers; none for 1 (games play in this process)."""
    if workers == 1:
        yield None
        return
    with ProcessPoolExecutor(workers) as pool:
        yield pool


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"games per pairing (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the run's seed; with --versus-random, the seed of game 0 (default 0)",
    )
    parser.add_argument(
        "--game", choices=rulesets(), help="play only this game (default: every game)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes; 1 plays in this process (default 1)",
    )
    parser.add_argument(
        "--versus-random",
        action="store_true",
        help="measure each game's own bots against RandomBot, as docs/bots.rst does",
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="let the coach and the search bots play too (tens of ms a move)",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if not 0 <= args.seed < 2**64:
        parser.error("--seed must be in range(2**64)")
    games = [get_ruleset(name) for name in ([args.game] if args.game else rulesets())]

    reports = []
    if args.versus_random:
        for rules in games:
            reports += [
                margins_report(rules, name, args.games, args.seed)
                for name in bot_names(rules, search=args.search)
                if name != "random"
            ]
    else:
        with pool_of(args.workers) as pool:
            for rules in games:
                pairings = round_robin(
                    rules, args.games, seed=args.seed, executor=pool, search=args.search
                )
                reports.append(table(rules, pairings, args.seed))
    print("\n\n".join(reports))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
