"""Batched dice poker: random legal play of a whole batch at a time beside the reference
per-state loop and OpenSpiel's yacht, in turns per second (a turn is a box filled).

Each batched contender runs dice poker's one kernel, compiled
(:class:`~tabletop_rules.dice_poker.batch.DicePokerEngine`, the ``batch`` extra), over
``--size`` games (default 4096). The headline row, *restarts every step*, is described
below. The *batched* row steps them all with :func:`tabletop_rules.batch.random_actions`
(off the kernel's lists of legal actions; a second row also reads ``games.legal_mask``
every step, the dense mask made from the lists, as a learner that masks its policy would)
until every game is over, then resets the batch
with fresh seeds; the reset is timed with the steps, and a batch left unfinished at the
end of a slot goes on in the next, so the tail of a batch (games over, waiting for the
last) is paid as often as it happens. The *restarts every step* row instead passes
``reset=`` fresh seeds at every step, each game that ends dealt again in the same call, as
a reinforcement-learning loop does. Its turns are the boxes filled in the slot, its
games those that ended in it (so turns/game is near 90, not exactly). The reference is
``playout.py``'s plain loop (``legal_moves``/``apply`` with ``random.Random.choice``), and
with OpenSpiel installed yacht's C++ loop (``pyspiel.evaluate_bots``), both counted as
``playout.py`` counts them.

Run::

    PYTHONPATH=src python benchmarks/batch_dice_poker.py [--size 4096] [--seconds 1] [--rounds 5]

After the table: bytes per game in a batch, the time of ``reset``, and one step's time
split between drawing the actions and the kernel, and making the dense mask from the lists.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
from batch_harness import bytes_per_game, size_argument
from harness import Anchor, Clock, Contender, Runner, Sample, run_and_report, timing_arguments
from playout import dice_poker_loop, make_yacht_cpp_loop, yacht_turns_per_game

from tabletop_rules import batch
from tabletop_rules import dice_poker as dp

try:
    import pyspiel
except ImportError:  # the optional `bench` extra
    pyspiel = None

Drawer = Callable[[batch.Games, np.random.Generator], np.ndarray]
Kernel = Callable[[dp.Config, int], batch.Engine]

ANCHORS = [
    Anchor("yacht_cpp", "vs OpenSpiel yacht C++"),
    Anchor("dice_poker_loop", "vs per-state loop"),
]


def one_kernel(config: dp.Config, size: int) -> batch.Engine:
    """Dice poker's one batched kernel (compiled)."""
    return batch.engine("dice-poker", config, size)


def make_batched(size: int, draw: Drawer, kernel: Kernel = one_kernel) -> Runner:
    """Whole batches of ``size`` default games in ``kernel``, stepped with ``draw``'s actions."""
    engine = kernel(dp.Config(), size)
    held: dict[str, Any] = {}

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        generator = np.random.default_rng(seed)
        games = held.get("games")
        turns_before = 0 if games is None else int(games.data["turns"].sum(dtype=np.int64))
        over_before = 0 if games is None else int(games.over.sum())
        finished = turns = 0
        start = clock()
        stop = start + budget
        while True:
            if games is None or games.over.all():
                if games is not None:  # the batch's last games and turns since the slot began
                    finished += size - over_before
                    turns += int(games.data["turns"].sum(dtype=np.int64)) - turns_before
                    turns_before = over_before = 0
                seeds = generator.integers(0, 2**64, size=size, dtype=np.uint64)
                games = engine.reset(seeds)
            games = engine.step(games, draw(games, generator))
            now = clock()
            if now >= stop:
                held["games"] = games
                finished += int(games.over.sum()) - over_before
                turns += int(games.data["turns"].sum(dtype=np.int64)) - turns_before
                return Sample(finished, turns, now - start)

    return run


def make_restarting(size: int, kernel: Kernel = one_kernel) -> Runner:
    """``size`` default games in ``kernel`` stepped with ``random_actions`` and
    ``reset=`` fresh seeds at every step: a game that ends starts again in the same call.
    """
    engine = kernel(dp.Config(), size)
    per_game = engine.turns_per_game
    held: dict[str, Any] = {}

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        generator = np.random.default_rng(seed)
        games = held.get("games")
        if games is None:
            games = engine.reset(generator.integers(0, 2**64, size=size, dtype=np.uint64))
        finished = turns = 0
        start = clock()
        stop = start + budget
        while True:
            before, seeds = games.data["turns"], games.data["seed"]
            fresh = generator.integers(0, 2**64, size=size, dtype=np.uint64)
            games = engine.step(games, batch.random_actions(games, generator), reset=fresh)
            ended = games.data["seed"] != seeds  # dealt again: it filled its last box
            now_turns = np.where(ended, per_game, games.data["turns"])
            turns += int((now_turns - before).sum(dtype=np.int64))
            finished += int(ended.sum())
            now = clock()
            if now >= stop:
                held["games"] = games
                return Sample(finished, turns, now - start)

    return run


def with_mask(games: batch.Games, generator: np.random.Generator) -> np.ndarray:
    """:func:`tabletop_rules.batch.random_actions`, the dense mask read first (made from the
    lists of a kernel that gives them)."""
    games.legal_mask.any()
    return batch.random_actions(games, generator)


def profile(size: int, kernel: Kernel, repeats: int = 30) -> None:
    """Bytes per game, the median time of ``reset`` and of a step's two halves in ``kernel``
    (and of making the mask from the lists, where it gives them).
    """
    engine = kernel(dp.Config(), size)
    generator = np.random.default_rng(0)
    seeds = np.arange(size, dtype=np.uint64)
    resets, drawn, stepped, masked = [], [], [], []
    for _ in range(repeats):
        start = time.perf_counter()
        games = engine.reset(seeds)
        resets.append(time.perf_counter() - start)
    for _ in range(repeats):
        start = time.perf_counter()
        actions = batch.random_actions(games, generator)
        middle = time.perf_counter()
        games = engine.step(games, actions)
        stepped.append(time.perf_counter() - middle)
        drawn.append(middle - start)
        if games.legal_actions is not None:
            copy = attrs.evolve(games)  # a record whose mask is not made yet
            start = time.perf_counter()
            copy.legal_mask.any()
            masked.append(time.perf_counter() - start)
    data = sum(array.nbytes for array in games.data.values()) / size
    if games.legal_actions is None:
        legal = f"{games.legal_mask.nbytes / size:.0f} the legal mask"
        mask = ""
    else:
        legal = f"{games.legal_actions.nbytes / size:.0f} the legal actions' lists"
        mask = f", the mask from the lists {1e3 * statistics.median(masked):.2f} ms"
    print(
        f"\n{type(engine).__name__}, size {size}: {bytes_per_game(games):.0f} bytes per game "
        f"({data:.0f} of them the kernel's own arrays, {legal}); "
        f"reset {1e3 * statistics.median(resets):.2f} ms; a step: random_actions "
        f"{1e3 * statistics.median(drawn):.2f} ms, engine.step "
        f"{1e3 * statistics.median(stepped):.2f} ms{mask} (medians of {repeats})"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table and the profile, optionally write JSON."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    size = size_argument(arguments)
    args = timing_arguments(__doc__.splitlines()[0], arguments)
    entries = [
        Contender(
            "compiled_restarts_every_step",
            f"dice poker, batched compiled ({size}), restarts every step",
            make_restarting(size),
        ),
        Contender(
            "compiled",
            f"dice poker, batched compiled ({size}), random_actions",
            make_batched(size, batch.random_actions),
        ),
        Contender(
            "compiled_mask",
            f"dice poker, batched compiled ({size}), legal_mask + random_actions",
            make_batched(size, with_mask),
        ),
        Contender("dice_poker_loop", "dice poker, per-state loop", dice_poker_loop),
    ]
    if pyspiel is not None:
        game = pyspiel.load_game("yacht")
        cpp = make_yacht_cpp_loop(game, yacht_turns_per_game(game))
        entries.append(Contender("yacht_cpp", "OpenSpiel yacht, C++ evaluate_bots", cpp))
    else:
        print("note: pyspiel is missing, so there is no yacht row ('.[bench]')", file=sys.stderr)
    packages = ("tabletop-rules", "numpy", "numba", "open-spiel")
    run_and_report(args, entries, packages, ANCHORS, "turn", "turn = box filled", size=size)
    profile(size, one_kernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
