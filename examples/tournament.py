"""Measure GreedyBot against RandomBot over many seeded two-player games of dice poker.

    python examples/tournament.py --games 1000

Game ``i`` is played from seed ``first_seed + i`` with GreedyBot in seat ``i % 2`` (seats
alternate, so moving first favours neither bot) and a RandomBot seeded with the game's
seed. The run is reproducible: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence

import attrs

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import Bot
from tabletop_rules.simulate import play_game


@attrs.frozen
class Result:
    """GreedyBot's results: wins, ties, losses, and each game's scores (GreedyBot's first)."""

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
        """GreedyBot's score minus RandomBot's, game by game."""
        return tuple(greedy - random for greedy, random in self.scores)


def run(games: int, first_seed: int = 0) -> Result:
    """Play the games."""
    wins = ties = losses = 0
    scores = []
    for number in range(games):
        seed = first_seed + number
        greedy_seat = number % 2
        greedy, random = dp.GreedyBot(), RandomBot(dp.RULES, seed=seed)
        bots: list[Bot[dp.View, dp.Move]] = (
            [greedy, random] if greedy_seat == 0 else [random, greedy]
        )
        game = play_game(dp.RULES, bots, seed=seed)
        scores.append((game.scores[greedy_seat], game.scores[1 - greedy_seat]))
        if game.winners == {greedy_seat}:
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
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    result = run(args.games, args.first_seed)
    last = args.first_seed + args.games - 1
    print(
        f"GreedyBot vs RandomBot: {result.games} two-player games, "
        f"seeds {args.first_seed}..{last}, seats alternating"
    )
    print(f"GreedyBot won {result.wins} ({100 * result.wins / result.games:.1f}%), ", end="")
    print(f"tied {result.ties}, lost {result.losses}")
    greedy, random = (statistics.fmean(column) for column in zip(*result.scores, strict=True))
    print(f"mean score: GreedyBot {greedy:.1f}, RandomBot {random:.1f}")
    spread = statistics.pstdev(result.margins)
    print(
        f"margin (GreedyBot - RandomBot): mean {statistics.fmean(result.margins):+.1f}, "
        f"sd {spread:.1f}, min {min(result.margins):+d}, max {max(result.margins):+d}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
