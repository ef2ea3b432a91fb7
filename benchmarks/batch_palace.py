"""Batched palace: random legal play of a whole batch at a time beside the reference
per-state loop and OpenSpiel's crazy_eights, in moves per second (a move is a player's
decision).

The batched contenders run palace's one kernel, compiled (``tabletop_rules.palace.batch``,
the ``batch`` extra), over ``--size`` games (default 4096) of the default config, and
draw every action with :func:`tabletop_rules.batch.random_actions`, which reads the
kernel's short ``legal_actions`` lists (the dense ``(size, 2762)`` mask is made only when
read). The headline row, *restarts every step*, passes ``reset=`` fresh seeds at every
step, as a reinforcement-learning loop does. *Whole batches* step until
every game is over, then reset the batch with fresh seeds (the tail of a batch, games over
and waiting for the last, is paid as often as it happens); *restarts* pass ``reset=``
fresh seeds every 64 steps, so a finished game waits at most 64 steps for its next one;
*whole batches, mask read* is whole batches reading
``games.legal_mask`` too at every step, so paying for the dense mask made from the lists,
as an agent that reads masks would. Resets are timed with the steps; a batch left
unfinished at the end of a slot goes on in the next. A batched move is a game not over
making its step's move. The reference is ``palace_playout.py``'s plain loop
(``legal_moves``/``apply`` with ``random.Random.choice``), and with OpenSpiel installed
crazy_eights' C++ loop (``pyspiel.evaluate_bots``), both counted as ``palace_playout.py``
counts them.

Run::

    PYTHONPATH=src python benchmarks/batch_palace.py [--size 4096] [--seconds 1] [--rounds 5]

After the table: bytes per game in a batch (the legal record as the kernel writes it, the
lists), the time of ``reset``, and one step's time split between drawing the actions and
the kernel's step; then the time to make the mask from the lists on first read (what
reading ``games.legal_mask`` adds to a step).
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

import attrs
import numpy as np
from batch_harness import bytes_per_game, size_argument
from harness import (
    Anchor,
    Clock,
    Contender,
    Runner,
    Sample,
    openspiel_cpp_loop,
    run_and_report,
    timing_arguments,
)
from palace_playout import PLAYERS, palace_loop

from tabletop_rules import batch, palace
from tabletop_rules.palace.moves import PLAY_BASE

try:
    import pyspiel
except ImportError:  # the optional `bench` extra
    pyspiel = None

ANCHORS = [
    Anchor("crazy_eights_cpp", "vs OpenSpiel crazy_eights C++"),
    Anchor("palace_loop", "vs per-state loop"),
]

PLAYS = slice(PLAY_BASE, None)
"""The plays' columns of the mask: written for every game at every step."""

RESTART_EVERY = 64
"""Steps between the restarts contender's ``reset=`` calls."""


def kernels(size: int) -> dict[str, batch.Engine]:
    """The kernel measured, by the name its rows carry: palace's one, compiled."""
    return {"compiled": batch.engine("palace", palace.Config(players=PLAYERS), size)}


def make_whole_batches(engine: batch.Engine, *, read_mask: bool = False) -> Runner:
    """Whole batches of the engine's default games, each played until its last game ends;
    with ``read_mask``, each step's ``games.legal_mask`` read as well (made, for a kernel
    that writes lists).
    """
    size = engine.size
    held: dict[str, Any] = {}

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        generator = np.random.default_rng(seed)
        games = held.get("games")
        finished = moves = 0
        start = clock()
        stop = start + budget
        while True:
            if games is None or games.over.all():
                games = engine.reset(generator.integers(0, 2**64, size=size, dtype=np.uint64))
            playing = size - int(games.over.sum())
            if read_mask:
                games.legal_mask  # noqa: B018 (read for its cost, as an agent reading masks)
            games = engine.step(games, batch.random_actions(games, generator))
            moves += playing
            finished += playing - (size - int(games.over.sum()))
            now = clock()
            if now >= stop:
                held["games"] = games
                return Sample(finished, moves, now - start)

    return run


def make_restarts(engine: batch.Engine, every: int = RESTART_EVERY) -> Runner:
    """The engine's default games, the finished ones restarted every ``every`` steps."""
    size = engine.size
    held: dict[str, Any] = {}

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        generator = np.random.default_rng(seed)
        games = held.get("games")
        if games is None:
            games = engine.reset(generator.integers(0, 2**64, size=size, dtype=np.uint64))
        finished = moves = 0
        step = 0
        start = clock()
        stop = start + budget
        while True:
            playing = size - int(games.over.sum())
            actions = batch.random_actions(games, generator)
            step += 1
            if step % every:
                games = engine.step(games, actions)
            else:
                seeds = games.data["seed"]
                fresh = generator.integers(0, 2**64, size=size, dtype=np.uint64)
                games = engine.step(games, actions, reset=fresh)
                finished += int((games.data["seed"] != seeds).sum())
            moves += playing
            now = clock()
            if now >= stop:
                held["games"] = games
                return Sample(finished, moves, now - start)

    return run


def profile(name: str, engine: batch.Engine, repeats: int = 30) -> None:
    """Bytes per game, the median time of ``reset`` and of a step's parts, 40 steps in
    (play, past the swaps); then the mask's floor (a kernel writing the mask) or the time
    to make the mask from the lists (a kernel writing lists).
    """
    size = engine.size
    generator = np.random.default_rng(0)
    seeds = np.arange(size, dtype=np.uint64)
    resets, drawn, stepped, extra = [], [], [], []
    for _ in range(repeats):
        start = time.perf_counter()
        games = engine.reset(seeds)
        resets.append(time.perf_counter() - start)
    for _ in range(40):
        games = engine.step(games, batch.random_actions(games, generator))
    listed = games.legal_actions is not None
    for _ in range(repeats):
        start = time.perf_counter()
        actions = batch.random_actions(games, generator)
        middle = time.perf_counter()
        games = engine.step(games, actions)
        after = time.perf_counter()
        if listed:  # the first read makes the mask
            games.legal_mask  # noqa: B018
        else:
            mask = np.zeros(games.legal_mask.shape, dtype=bool)
            mask[:, PLAYS] = games.legal_mask[:, PLAYS]  # touched
            batch.random_actions(attrs.evolve(games, legal_mask=mask), generator)
        extra.append(time.perf_counter() - after)
        drawn.append(middle - start)
        stepped.append(after - middle)
    data = sum(array.nbytes for array in games.data.values()) / size
    if games.legal_actions is not None:
        record = (
            f"{games.legal_actions.nbytes / size:.0f} the legal lists, "
            f"{games.legal_actions.shape[1]} wide this step"
        )
        last = f"the mask made from the lists on first read {1e3 * statistics.median(extra):.2f} ms"
    else:
        record = f"{games.legal_mask.nbytes / size:.0f} the legal mask"
        last = (
            "the mask's floor (a new mask with the plays written, and random_actions over it) "
            f"{1e3 * statistics.median(extra):.2f} ms"
        )
    print(
        f"\n{name}, size {size}: {bytes_per_game(games):.0f} bytes per game ({data:.0f} of "
        f"them the kernel's own arrays, {record}); reset "
        f"{1e3 * statistics.median(resets):.2f} ms; a step in play: random_actions "
        f"{1e3 * statistics.median(drawn):.2f} ms, engine.step "
        f"{1e3 * statistics.median(stepped):.2f} ms; {last} (medians of {repeats})"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table and the profile, optionally write JSON."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    size = size_argument(arguments)
    args = timing_arguments(__doc__.splitlines()[0], arguments)
    engines = kernels(size)
    entries = []
    for name, engine in engines.items():
        prefix = f"{name}_"
        entries += [
            Contender(
                f"{prefix}restarts_every_step",
                f"batched palace ({name}), {size} games, restarts every step",
                make_restarts(engine, every=1),
            ),
            Contender(
                f"{prefix}whole_batches",
                f"batched palace ({name}), whole batches of {size}",
                make_whole_batches(engine),
            ),
            Contender(
                f"{prefix}restarts",
                f"batched palace ({name}), {size} games, restarts every {RESTART_EVERY} steps",
                make_restarts(engine),
            ),
        ]
        if engine.reset(np.zeros(size, dtype=np.uint64)).legal_actions is not None:
            entries.append(
                Contender(
                    f"{prefix}whole_batches_mask_read",
                    f"batched palace ({name}), whole batches of {size}, mask read each step",
                    make_whole_batches(engine, read_mask=True),
                )
            )
    entries.append(Contender("palace_loop", "palace, per-state plain loop", palace_loop))
    if pyspiel is None:
        print(
            "note: pyspiel (OpenSpiel) is not installed, so there is no crazy_eights row; "
            "install it with `pip install -e '.[bench]'`.",
            file=sys.stderr,
        )
    else:
        game = pyspiel.load_game("crazy_eights", {"players": PLAYERS})
        entries.append(
            Contender(
                "crazy_eights_cpp",
                "OpenSpiel crazy_eights, C++ evaluate_bots",
                openspiel_cpp_loop(game),
            )
        )
    packages = ("tabletop-rules", "numpy", "numba", "open-spiel")
    what = f"move = a player's decision, {PLAYERS} players, batch size {size}"
    run_and_report(args, entries, packages, ANCHORS, "move", what, size=size, players=PLAYERS)
    for name, engine in engines.items():
        profile(name, engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
