"""Batched random play of the account game beside the per-state loop and OpenSpiel's
backgammon in C++.

One process runs every contender in interleaved rounds (the order rotates each round) and
reports medians, and the median of the per-round ratios against OpenSpiel's backgammon
C++ loop (the goal of issue 18: at least 20x, per move) and against the rules engine's own
per-state loop (``benchmarks/account_playout.py``'s ``account_loop``).

A *move* is a player's decision, counted as the reference benchmarks count: ``Place``,
``Buy`` and ``Advance``; ``Roll()`` is the account game's chance event (its die is rolled
inside), played and timed but not counted, as backgammon's chance nodes are not.

- **compiled batch + random_actions, restarts every step** (the headline row):
  ``engine.step(games, batch.random_actions(games, g), reset=seeds)`` at ``--size`` games
  with the account game's one kernel (``tabletop_rules.account.batch``, the ``batch``
  extra: its step and restart each one compiled loop over the games, compiled before the
  timed rounds), every game that ends dealt again from a new seed in the same call (a new
  game is timed, as ``new_game`` is in the loops).
- **compiled batch, step alone**: the same play, timing ``engine.step`` alone: what the
  kernel costs without the mask sampler.
- **pgx backgammon** (with ``pgx`` installed, the ``bench`` extra): pgx's backgammon on
  this CPU at the same batch size, jitted and vmapped, uniform legal actions drawn with
  ``jax.random``, finished games reset by ``pgx.experimental.auto_reset``; a step is a
  move, as the issue counts pgx's (about 16,000 steps/s at 1024 on this machine). It is
  timed on the wall clock even under ``--clock cpu``: XLA computes in its own threads.

Run::

    PYTHONPATH=src python benchmarks/batch_account.py [--size 4096] [--seconds 1.0]
        [--rounds 5] [--clock cpu] [--json out.json]

It also prints the bytes a game holds in a batch and the time of ``reset``.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from account_playout import PLAYERS, account_loop
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

from tabletop_rules import account, batch

try:
    import pyspiel
except ImportError:  # the optional `bench` extra
    pyspiel = None

try:
    import jax
    import pgx
    import pgx.experimental
except ImportError:  # the optional `bench` extra
    pgx = None

ANCHORS = [
    Anchor("backgammon_cpp", "vs backgammon C++"),
    Anchor("account_loop", "vs per-state loop"),
]

ROLL = account.encode(account.Roll())


def batched(size: int, step_alone: bool) -> Runner:
    """Random legal play of ``size`` games at once, each game dealt again when it ends;
    counts the moves (not ``Roll()``) of the games playing, and the games that ended. The
    kernel is compiled here (or loaded from numba's cache).
    """
    engine = batch.engine("account", account.Config(players=PLAYERS), size)
    games = engine.reset(np.arange(size, dtype=np.uint64))
    engine.step(games, np.zeros(size, dtype=np.int64), reset=games.data["seed"])
    step, random_actions = engine.step, batch.random_actions

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        generator = np.random.default_rng(seed)
        next_seed = np.uint64(seed) << np.uint64(32)
        counter = np.arange(size, dtype=np.uint64)
        start = clock()
        games = engine.reset(counter + next_seed)
        moves = ended = 0
        stepping = 0.0
        while True:
            next_seed += np.uint64(size)
            fresh = counter + next_seed  # never drawn before: a changed seed is a new game
            actions = random_actions(games, generator)
            moves += int(np.count_nonzero((actions != ROLL) & ~games.over))
            before = clock()
            games = step(games, actions, reset=fresh)
            now = clock()
            stepping += now - before
            ended += int(np.count_nonzero(games.data["seed"] == fresh))
            if now - start >= budget:
                return Sample(ended, moves, stepping if step_alone else now - start)

    return run


def pgx_backgammon(size: int) -> Runner:
    """pgx's backgammon, ``size`` games a step on the CPU, random legal actions, each game
    reset when it ends, the batch going on from slot to slot; counts every step as a move.
    Compiled here, once.
    """
    env = pgx.make("backgammon")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(pgx.experimental.auto_reset(env.step, env.init)))

    @jax.jit
    def act(key: jax.Array, mask: jax.Array) -> jax.Array:
        logits = jax.numpy.where(mask, 0.0, -jax.numpy.inf)
        return jax.random.categorical(key, logits, axis=-1)

    held = {"state": init(jax.random.split(jax.random.PRNGKey(0), size))}

    def run(budget: float, seed: int, _clock: Clock) -> Sample:
        # the wall clock whatever --clock says: XLA computes in threads of its own, which a
        # CPU clock of this thread does not see (it made pgx look 150 times faster)
        clock = time.perf_counter
        key, state = jax.random.PRNGKey(seed), held["state"]  # a batch goes on slot to slot
        moves = ended = 0
        start = clock()
        while True:
            key, pick, roll = jax.random.split(key, 3)
            state = step(state, act(pick, state.legal_action_mask), jax.random.split(roll, size))
            moves += size
            ended += int(state.terminated.sum())  # auto_reset keeps a restarted game's flag
            if clock() - start >= budget:
                held["state"] = state
                return Sample(ended, moves, clock() - start)

    run(0.0, 0, time.perf_counter)  # compile outside the timed rounds
    return run


def reset_seconds(size: int, repeats: int = 7) -> tuple[float, int]:
    """The median time of ``reset`` at ``size`` games, and the bytes per game."""
    engine = batch.engine("account", account.Config(players=PLAYERS), size)
    seeds = np.arange(size, dtype=np.uint64)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        games = engine.reset(seeds)
        times.append(time.perf_counter() - start)
    return statistics.median(times), round(bytes_per_game(games))


def contenders(size: int) -> list[Contender]:
    """The compiled batch restarting every step, its step alone, the per-state loop, and
    backgammon's C++ loop (and pgx's, where installed).
    """
    label = f"compiled batch of {size} + random_actions, restarts every step"
    entries = [
        Contender("jit", label, batched(size, False)),
        Contender("jit_step", f"compiled batch of {size}, step alone", batched(size, True)),
    ]
    entries.append(Contender("account_loop", "account, per-state loop", account_loop))
    if pyspiel is not None:
        game = pyspiel.load_game("backgammon")
        entries.append(
            Contender("backgammon_cpp", "OpenSpiel backgammon, C++", openspiel_cpp_loop(game))
        )
    if pgx is not None:
        entries.append(Contender("pgx", f"pgx backgammon, batch of {size}", pgx_backgammon(size)))
    return entries


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, the bytes per game and the reset time."""
    argv = list(sys.argv[1:] if argv is None else argv)
    size = size_argument(argv)
    args = timing_arguments(__doc__.splitlines()[0], argv)
    if pyspiel is None:
        print("note: pyspiel is not installed, so there is no backgammon row", file=sys.stderr)
    seconds, held = reset_seconds(size)
    packages = ("tabletop-rules", "numpy", "numba", "open-spiel")
    what = (
        f"move = a player's decision (Roll() and backgammon's chance not counted), "
        f"{PLAYERS} players; a batch's moves/game counts the moves of games still playing"
    )
    run_and_report(args, contenders(size), packages, ANCHORS, "move", what, size=size)
    print(f"\nbytes per game in a batch: {held}; reset of {size} games: {seconds * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
