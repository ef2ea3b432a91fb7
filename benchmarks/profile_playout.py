"""cProfile of a random-playout loop (dice poker, palace or the account game): where the time goes.

Run::

    python benchmarks/profile_playout.py [--game dice_poker|palace|account] [--games 200]
        [--sort tottime] [--top 25] [--api loop|play_game]

The loops are those of ``playout.py`` (dice poker), ``palace_playout.py`` (palace) and
``account_playout.py`` (the account game).

cProfile adds a fixed cost to every Python call, so it overstates code made of many small
calls; use it to rank, and ``benchmarks/playout.py`` to measure.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys

from tabletop_rules import account, palace
from tabletop_rules import dice_poker as dp
from tabletop_rules.account.moves import ROLL
from tabletop_rules.bots import RandomBot
from tabletop_rules.rng import Rng
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


def palace_plain_loop(games: int) -> int:
    """``games`` random palace playouts, moves drawn with the library's ``Rng``; the moves."""
    rng = Rng.from_seed(0)
    moves = 0
    for seed in range(games):
        state = palace.new_game(seed=seed)
        while not palace.is_over(state):
            legal = palace.legal_moves(state)
            index, rng = rng.below(len(legal))
            state = palace.apply(state, legal[index])
            moves += 1
    return moves


def palace_play_game_loop(games: int) -> int:
    """``games`` palace playouts through ``play_game`` with two ``RandomBot``; the moves."""
    moves = 0
    for seed in range(games):
        bots = [RandomBot(palace.RULES, seed=2 * seed), RandomBot(palace.RULES, seed=2 * seed + 1)]
        moves += len(play_game(palace.RULES, bots, seed=seed).moves)
    return moves


def account_plain_loop(games: int) -> int:
    """``games`` random account playouts, ``random.Random`` choosing; the moves but ``Roll()``."""
    choice = random.Random(0).choice
    moves = 0
    for seed in range(games):
        state = account.new_game(seed=seed)
        while not account.is_over(state):
            move = choice(account.legal_moves(state))
            state = account.apply(state, move)
            moves += move is not ROLL
    return moves


def account_play_game_loop(games: int) -> int:
    """``games`` account playouts through ``play_game`` with two ``RandomBot``; the moves
    but ``Roll()``.
    """
    moves = 0
    for seed in range(games):
        bots = [
            RandomBot(account.RULES, seed=2 * seed),
            RandomBot(account.RULES, seed=2 * seed + 1),
        ]
        played = play_game(account.RULES, bots, seed=seed).moves
        moves += len(played) - played.count(ROLL)
    return moves


RUNS = {
    ("dice_poker", "loop"): (plain_loop, "turns"),
    ("dice_poker", "play_game"): (play_game_loop, "turns"),
    ("palace", "loop"): (palace_plain_loop, "moves"),
    ("palace", "play_game"): (palace_play_game_loop, "moves"),
    ("account", "loop"): (account_plain_loop, "moves"),
    ("account", "play_game"): (account_play_game_loop, "moves"),
}


def main(argv: list[str] | None = None) -> int:
    """Profile, print the top functions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sort", default="tottime", choices=["tottime", "cumulative", "ncalls"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--api", default="loop", choices=["loop", "play_game"])
    parser.add_argument("--game", default="dice_poker", choices=["dice_poker", "palace", "account"])
    args = parser.parse_args(argv)
    run, unit = RUNS[args.game, args.api]
    run(5)  # warm caches (legal-move tables fill lazily)
    profiler = cProfile.Profile()
    profiler.enable()
    count = run(args.games)
    profiler.disable()
    print(f"{args.games} {args.game} games, {count} {unit} ({args.api})")
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats(args.sort).print_stats(
        args.top
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
