"""Measure a game's heuristic bot against RandomBot over many seeded two-player games.

    python examples/tournament.py --games 1000
    python examples/tournament.py --game account --games 1000

The heuristic bot is GreedyBot for dice poker (the default game) and BestCardBot for the
account game. Game ``i`` is played from seed ``first_seed + i`` with the heuristic bot
in seat ``i % 2`` (seats alternate, so moving first favours neither bot) and a RandomBot
seeded with the game's seed. The run is reproducible: the same arguments print the same
figures.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tabletop_rules import account
from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import Bot, Ruleset
from tabletop_rules.simulate import play_game

HEURISTIC_BOTS: dict[str, tuple[Ruleset[Any, Any, Any], Callable[[], Bot[Any, Any]]]] = {
    "dice-poker": (dp.RULES, dp.GreedyBot),
    "account": (account.RULES, account.BestCardBot),
}
"""Each game this script measures: its rules and its heuristic bot."""


@attrs.frozen
class Result:
    """The heuristic bot's results: wins, ties, losses, and each game's scores (the
    heuristic bot's first).
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
        """The heuristic bot's score minus RandomBot's, game by game."""
        return tuple(heuristic - random for heuristic, random in self.scores)


def run(games: int, first_seed: int = 0, game_name: str = "dice-poker") -> Result:
    """Play the games of ``game_name``."""
    rules, heuristic_bot = HEURISTIC_BOTS[game_name]
    wins = ties = losses = 0
    scores = []
    for number in range(games):
        seed = first_seed + number
        seat = number % 2
        heuristic, random = heuristic_bot(), RandomBot(rules, seed=seed)
        bots: list[Bot[Any, Any]] = [heuristic, random] if seat == 0 else [random, heuristic]
        game = play_game(rules, bots, seed=seed)
        scores.append((game.scores[seat], game.scores[1 - seat]))
        if game.winners == {seat}:
            wins += 1
        elif len(game.winners) > 1:
            ties += 1
        else:
            losses += 1
    return Result(wins, ties, losses, tuple(scores))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of game 0 (default 0)")
    parser.add_argument(
        "--game",
        choices=sorted(HEURISTIC_BOTS),
        default="dice-poker",
        help="the game to play (default dice-poker)",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    result = run(args.games, args.first_seed, args.game)
    name = type(HEURISTIC_BOTS[args.game][1]()).__name__
    last = args.first_seed + args.games - 1
    print(
        f"{name} vs RandomBot: {result.games} two-player games, "
        f"seeds {args.first_seed}..{last}, seats alternating"
    )
    print(f"{name} won {result.wins} ({100 * result.wins / result.games:.1f}%), ", end="")
    print(f"tied {result.ties}, lost {result.losses}")
    heuristic, random = (statistics.fmean(column) for column in zip(*result.scores, strict=True))
    print(f"mean score: {name} {heuristic:.1f}, RandomBot {random:.1f}")
    spread = statistics.pstdev(result.margins)
    print(
        f"margin ({name} - RandomBot): mean {statistics.fmean(result.margins):+.1f}, "
        f"sd {spread:.1f}, min {min(result.margins):+d}, max {max(result.margins):+d}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
