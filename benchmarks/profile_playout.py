"""cProfile of the dice poker random-playout loop: where the time of a playout goes.

Run::

    python benchmarks/profile_playout.py [--games 200] [--sort tottime] [--top 25]
        [--api loop|play_game]

cProfile adds a fixed cost to every Python call, so it overstates code made of many small
calls; use it to rank, and ``benchmarks/playout.py`` to measure.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.simulate import play_game


def plain_loop(games: int) -> int:
    """``games`` random playouts through ``legal_moves``/``apply``; the turns played."""
    choice = random.Random(0).choice
    turns = 0
    for seed in range(games):
        state = dp.new_game(seed=seed)
        while not dp.is_over(state):
            state = dp.apply(state, choice(dp.legal_moves(state)))
        turns += state.turns_played
    return turns


def play_game_loop(games: int) -> int:
    """``games`` playouts through ``play_game`` with two ``RandomBot``; the turns played."""
    turns = 0
    for seed in range(games):
        bots = [RandomBot(dp.RULES, seed=2 * seed), RandomBot(dp.RULES, seed=2 * seed + 1)]
        turns += play_game(dp.RULES, bots, seed=seed).final.turns_played
    return turns


def main(argv: list[str] | None = None) -> int:
    """Profile, print the top functions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sort", default="tottime", choices=["tottime", "cumulative", "ncalls"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--api", default="loop", choices=["loop", "play_game"])
    args = parser.parse_args(argv)
    run = plain_loop if args.api == "loop" else play_game_loop
    run(5)  # warm caches (legal-move tables fill lazily)
    profiler = cProfile.Profile()
    profiler.enable()
    turns = run(args.games)
    profiler.disable()
    print(f"{args.games} games, {turns} turns ({args.api})")
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats(args.sort).print_stats(
        args.top
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
