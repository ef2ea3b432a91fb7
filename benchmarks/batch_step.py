"""What one batched step costs, and how much of it is the record's entry check: each game's
compiled ``engine.step`` (no reset) at a batch size, and the entry check alone
(``Engine._check_games``, where the checkout has one).

For an A/B of two checkouts, run this file from each in turn, interleaved, on the same
host; the other checkout's sources come first on the path::

    git worktree add /tmp/before <commit>
    for i in 1 2 3; do
        PYTHONPATH=/tmp/before/src python benchmarks/batch_step.py
        python benchmarks/batch_step.py
    done

Each figure is the fastest of ``--repeat`` runs of ``--number`` steps, in microseconds.
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import tabletop_rules
from tabletop_rules import account, batch, palace
from tabletop_rules import dice_poker as dp

GAMES: tuple[tuple[str, Any], ...] = (
    ("dice-poker", dp.Config()),
    ("palace", palace.Config()),
    ("account", account.Config()),
)


def fastest(call: Callable[[], object], number: int, repeat: int) -> float:
    """Microseconds a call, the fastest of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6


def timed(name: str, config: Any, args: argparse.Namespace) -> str:
    """One game's step and entry check, as text."""
    seeds = np.arange(args.size, dtype=np.uint64)
    engine = batch.engine(name, config, args.size, backend=args.backend)
    generator = np.random.default_rng(0)
    games = engine.reset(seeds)
    for _ in range(20):  # into the middle of the games, the finished dealt again
        games = engine.step(games, batch.random_actions(games, generator), reset=seeds)
    actions = batch.random_actions(games, generator)
    step = fastest(lambda: engine.step(games, actions), args.number, args.repeat)
    check = getattr(engine, "_check_games", None)
    if check is None:
        return f"{name}: step {step:.0f}"
    entry = fastest(lambda: check(games), args.number, args.repeat)
    return f"{name}: step {step:.0f}, entry check {entry:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096, help="games a batch (default 4096)")
    parser.add_argument("--number", type=int, default=200, help="steps a run (default 200)")
    parser.add_argument("--repeat", type=int, default=7, help="runs (default 7)")
    parser.add_argument(
        "--backend", default="numba", help="numba, the built-in games' one backend (default)"
    )
    args = parser.parse_args()
    figures = "; ".join(timed(name, config, args) for name, config in GAMES)
    print(f"{tabletop_rules.__file__}: {figures} (us, {args.size} games)")


if __name__ == "__main__":
    main()
