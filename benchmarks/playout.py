"""Random-playout throughput: tabletop_rules dice poker side by side with OpenSpiel's yacht.

One process runs every contender in interleaved rounds (the order rotates each round), each
for about ``--seconds`` per round, and reports the median rate of each. The ratio against
OpenSpiel's C++ loop is the median of the per-round ratios, so a slow patch of a shared
machine hits both sides of a ratio alike. A *turn* is one box filled on a score sheet: the
two games differ in length (dice poker fills 45 boxes per player, yacht 12), so turns per
second is the comparable figure, not games per second.

Run::

    python benchmarks/playout.py [--seconds 1.0] [--rounds 5] [--json out.json]

OpenSpiel is optional (``pip install -e '.[bench]'``); without it only dice poker is measured.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.metadata
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.simulate import play_game

try:
    import pyspiel
except ImportError:  # the optional `bench` extra
    pyspiel = None

YACHT_FIRST_SCORE_ACTION = 32
"""OpenSpiel yacht: actions 0..31 keep/reroll dice, 32..43 score a category."""

INSTALL_HINT = "pip install -e '.[bench]'"

Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.thread_time}


@dataclass
class Sample:
    """What one contender did in one time slot."""

    games: int
    turns: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds

    @property
    def turns_per_second(self) -> float:
        """Boxes filled per second."""
        return self.turns / self.seconds


Runner = Callable[[float, int, Clock], Sample]
"""A playout loop: ``run(budget_seconds, seed, clock) -> Sample``."""


@dataclass(frozen=True)
class Contender:
    """A named playout loop: ``run(budget_seconds, seed, clock)`` plays whole games until
    the budget is spent on ``clock`` and returns what it did.
    """

    key: str
    label: str
    run: Runner


# --- tabletop_rules dice poker ------------------------------------------------------------


def dice_poker_loop(budget: float, seed: int, clock: Clock) -> Sample:
    """The plain loop: ``new_game`` → ``apply(state, choice(legal_moves(state)))`` until over."""
    new_game, is_over, legal_moves, apply = dp.new_game, dp.is_over, dp.legal_moves, dp.apply
    choice = random.Random(seed).choice
    config = dp.Config()
    games = turns = 0
    start = clock()
    stop = start + budget
    while True:
        state = new_game(config, seed=seed + games)
        while not is_over(state):
            state = apply(state, choice(legal_moves(state)))
        games += 1
        turns += state.turns_played
        now = clock()
        if now >= stop:
            return Sample(games, turns, now - start)


def dice_poker_play_game(budget: float, seed: int, clock: Clock) -> Sample:
    """The realistic API path: :func:`~tabletop_rules.simulate.play_game` with two
    :class:`~tabletop_rules.bots.RandomBot` (it also records every move in notation).
    """
    rules = dp.RULES
    config = dp.Config()
    games = turns = 0
    start = clock()
    stop = start + budget
    while True:
        game_seed = seed + games
        bots = [RandomBot(rules, seed=2 * game_seed), RandomBot(rules, seed=2 * game_seed + 1)]
        played = play_game(rules, bots, config, seed=game_seed)
        games += 1
        turns += played.final.turns_played
        now = clock()
        if now >= stop:
            return Sample(games, turns, now - start)


# --- OpenSpiel yacht -----------------------------------------------------------------------


def yacht_turns_per_game(game: Any) -> int:
    """Categories each game fills, all players together (12 each), checked against the
    game definition: the action strings of the scoring actions and one full playout.
    """
    players = game.num_players()
    categories = game.num_distinct_actions() - YACHT_FIRST_SCORE_ACTION
    state = game.new_initial_state()
    rng = random.Random(0)
    filled = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probabilities = {p for _, p in outcomes}
            if max(probabilities) - min(probabilities) > 1e-12:
                raise RuntimeError("yacht chance outcomes are not uniform: fix the sampler")
            state.apply_action(rng.choice(outcomes)[0])
            continue
        player = state.current_player()
        for action in state.legal_actions():
            text = state.action_to_string(player, action)
            if text.startswith("Score") != (action >= YACHT_FIRST_SCORE_ACTION):
                raise RuntimeError(f"unexpected yacht action {action}: {text!r}")
        action = rng.choice(state.legal_actions())
        filled += action >= YACHT_FIRST_SCORE_ACTION
        state.apply_action(action)
    if filled != players * categories:
        raise RuntimeError(f"a yacht game filled {filled} categories, not {players * categories}")
    return filled


def make_yacht_cpp_loop(game: Any, turns_per_game: int) -> Runner:
    """OpenSpiel's C++ loop: ``pyspiel.evaluate_bots`` with uniform random bots."""

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        players = game.num_players()
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
        evaluate_bots, new_initial_state = pyspiel.evaluate_bots, game.new_initial_state
        games = 0
        start = clock()
        stop = start + budget
        while True:
            evaluate_bots(new_initial_state(), bots, seed + games)
            games += 1
            now = clock()
            if now >= stop:
                return Sample(games, games * turns_per_game, now - start)

    return run


def make_yacht_python_loop(game: Any) -> Runner:
    """OpenSpiel through its Python API: ``legal_actions``/``chance_outcomes``/``apply_action``
    with the choice made in Python. Yacht's chance outcomes are equally likely (checked by
    :func:`yacht_turns_per_game`), so an outcome is drawn by index.
    """

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        rng = random.Random(seed)
        choice, rand = rng.choice, rng.random
        new_initial_state = game.new_initial_state
        games = turns = 0
        start = clock()
        stop = start + budget
        while True:
            state = new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = outcomes[int(rand() * len(outcomes))][0]
                else:
                    action = choice(state.legal_actions())
                    turns += action >= YACHT_FIRST_SCORE_ACTION
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= stop:
                return Sample(games, turns, now - start)

    return run


# --- the run -------------------------------------------------------------------------------


def contenders() -> list[Contender]:
    """Every loop available here; OpenSpiel's only when pyspiel imports."""
    found = [
        Contender("dice_poker_loop", "dice poker, plain loop", dice_poker_loop),
        Contender("dice_poker_play_game", "dice poker, play_game+RandomBot", dice_poker_play_game),
    ]
    if pyspiel is not None:
        game = pyspiel.load_game("yacht")
        turns = yacht_turns_per_game(game)
        found += [
            Contender(
                "yacht_cpp", "OpenSpiel yacht, C++ evaluate_bots", make_yacht_cpp_loop(game, turns)
            ),
            Contender("yacht_python", "OpenSpiel yacht, Python API", make_yacht_python_loop(game)),
        ]
    return found


def measure(
    entries: list[Contender], rounds: int, seconds: float, warmup: float, clock: Clock
) -> dict[str, list[Sample]]:
    """Each contender ``rounds`` times for ``seconds``, interleaved, the order rotated."""
    for entry in entries:
        entry.run(warmup, 0, clock)
    samples: dict[str, list[Sample]] = {entry.key: [] for entry in entries}
    for number in range(rounds):
        shift = number % len(entries)
        for entry in entries[shift:] + entries[:shift]:
            gc.collect()
            samples[entry.key].append(entry.run(seconds, 1_000_000 * (number + 1), clock))
        line = "  ".join(
            f"{entry.key}={samples[entry.key][-1].turns_per_second:,.0f}" for entry in entries
        )
        print(f"round {number + 1}/{rounds} turns/s: {line}", file=sys.stderr)
    return samples


def machine() -> dict[str, Any]:
    """The hardware and software the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for name in ("tabletop-rules", "attrs", "cattrs", "open-spiel"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    try:
        commit = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "versions": versions,
        "commit": commit,
    }


def summarize(entries: list[Contender], samples: dict[str, list[Sample]]) -> list[dict[str, Any]]:
    """Per contender: median rates, and the median per-round ratio to OpenSpiel's C++ loop."""
    anchor = samples.get("yacht_cpp")
    rows = []
    for entry in entries:
        mine = samples[entry.key]
        row: dict[str, Any] = {
            "key": entry.key,
            "contender": entry.label,
            "games": sum(s.games for s in mine),
            "games_per_second": statistics.median(s.games_per_second for s in mine),
            "turns_per_second": statistics.median(s.turns_per_second for s in mine),
            "turns_per_game": sum(s.turns for s in mine) / sum(s.games for s in mine),
            "ratio_vs_openspiel_cpp": None,
            "ratio_range": None,
            "rounds": [asdict(s) for s in mine],
        }
        if anchor is not None:
            ratios = [
                s.turns_per_second / a.turns_per_second for s, a in zip(mine, anchor, strict=True)
            ]
            row["ratio_vs_openspiel_cpp"] = statistics.median(ratios)
            row["ratio_range"] = [min(ratios), max(ratios)]
        rows.append(row)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The summary as a Markdown table."""
    lines = [
        "| contender | turns/game | games/s | turns/s | vs OpenSpiel C++ (min-max) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        ratio = row["ratio_vs_openspiel_cpp"]
        shown = "n/a"
        if ratio is not None:
            low, high = row["ratio_range"]
            shown = f"{ratio:.2f}x ({low:.2f}-{high:.2f})"
        lines.append(
            f"| {row['contender']} | {row['turns_per_game']:.0f} | "
            f"{row['games_per_second']:,.1f} | {row['turns_per_second']:,.0f} | {shown} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, optionally write JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per contender per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    parser.add_argument("--warmup", type=float, default=0.3, help="seconds each before round 1")
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall: perf_counter; cpu: this thread's CPU time (less hurt by other load)",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")

    if pyspiel is None:
        print(
            f"note: pyspiel (OpenSpiel) is not installed, so there is no yacht anchor and no "
            f"ratio; install it with `{INSTALL_HINT}` (or `pip install open-spiel`).",
            file=sys.stderr,
        )
    entries = contenders()
    info = machine()
    samples = measure(entries, args.rounds, args.seconds, args.warmup, CLOCKS[args.clock])
    rows = summarize(entries, samples)

    print(
        f"\n{info['date']}  {info['cpu']} ({info['cpus']} CPUs)  {info['python']}  "
        + "  ".join(f"{name} {version}" for name, version in info["versions"].items())
        + f"  commit {info['commit']}"
    )
    print(
        f"{args.rounds} rounds x {args.seconds:g} s ({args.clock} clock) per contender, medians; "
        "turn = box filled\n"
    )
    print(table(rows))
    if pyspiel is None:
        print(f"\nno OpenSpiel anchor (pyspiel missing): `{INSTALL_HINT}` adds the yacht rows")
    if args.json is not None:
        report = {
            "machine": info,
            "settings": {
                "rounds": args.rounds,
                "seconds": args.seconds,
                "warmup": args.warmup,
                "clock": args.clock,
            },
            "results": rows,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
