"""The dice coach against the greedy bot, luck controlled: each seed is played twice, once
with :class:`~tabletop_rules.dice_poker.CoachBot` in each seat against
:class:`~tabletop_rules.dice_poker.GreedyBot`, under the standard rules, and the margin of a
seed is the coach's points less the greedy bot's, averaged over its two seatings. It prints
the mean margin a game with its 95% interval (normal, over the seeds) and the coach's time a
turn.

Run::

    python benchmarks/coach_margin.py [--games 1000] [--seed 0] [--workers 2]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from statistics import mean, stdev

from tabletop_rules import dice_poker as dp
from tabletop_rules.simulate import play_game


class _Timed:
    """A coach bot that adds up its time and its turns."""

    def __init__(self) -> None:
        self.bot = dp.CoachBot()
        self.seconds = 0.0
        self.moves = 0

    def choose(self, view: dp.View) -> dp.Move:
        start = time.perf_counter()
        move = self.bot.choose(view)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return move


def seed_margin(seed: int) -> tuple[float, float, int]:
    """The coach's margin over the greedy bot on ``seed``, averaged over both seatings, and
    its seconds and moves."""
    margins, seconds, moves = [], 0.0, 0
    for coach_seat in (0, 1):
        coach = _Timed()
        bots: list[object] = [dp.GreedyBot(), dp.GreedyBot()]
        bots[coach_seat] = coach
        score = play_game(dp.RULES, bots, seed=seed).score  # type: ignore[arg-type]
        margins.append(score[coach_seat] - score[1 - coach_seat])
        seconds, moves = seconds + coach.seconds, moves + coach.moves
    return mean(margins), seconds, moves


def margins(games: int, seed: int, workers: int) -> list[tuple[float, float, int]]:
    """:func:`seed_margin` of each of ``games`` seeds from ``seed`` on, with a line of the
    running figures every 100 seeds."""
    seeds = range(seed, seed + games)
    results: list[tuple[float, float, int]] = []
    with ProcessPoolExecutor(max(workers, 1)) as pool:
        for result in pool.map(seed_margin, seeds, chunksize=5):
            results.append(result)
            if len(results) % 100 == 0 and len(results) < games:
                report(results)
    return results


def report(results: list[tuple[float, float, int]]) -> None:
    """The mean margin with its interval, and the coach's speed."""
    per_seed = [margin for margin, _, _ in results]
    average = mean(per_seed)
    half = 1.96 * stdev(per_seed) / len(per_seed) ** 0.5
    seconds = sum(spent for _, spent, _ in results)
    moves = sum(count for _, _, count in results)
    turns = 2 * len(per_seed) * dp.Config().boxes_per_player
    print(
        f"{len(per_seed)} seeds x 2 seatings: coach - greedy = {average:.1f} points a game, "
        f"95% interval {average - half:.1f} to {average + half:.1f}; coach "
        f"{1000 * seconds / turns:.1f} ms a turn, {moves / seconds:.0f} moves/s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeds, each played twice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    report(margins(arguments.games, arguments.seed, arguments.workers))


if __name__ == "__main__":
    main()
