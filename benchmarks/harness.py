"""The timing harness the playout benchmarks share: interleaved rounds, medians, ratios.

A *contender* is a playout loop ``run(budget_seconds, seed, clock) -> Sample`` that plays
whole games until the budget is spent on ``clock``. :func:`measure` runs every contender
``rounds`` times, interleaved, the order rotated each round and a ``gc.collect()`` before
each slot; :func:`summarize` reports the median rates and, against each *anchor*
contender, the median of the per-round ratios (with min-max), so a slow patch of a shared
machine hits both sides of a ratio alike. What a benchmark counts (a turn, a move) is its
*unit*. Speed is only ever reported as a ratio measured in one run, never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.metadata
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import pyspiel
except ImportError:  # the optional `bench` extra; only openspiel_cpp_loop needs it
    pyspiel = None

Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.thread_time}
CLOCK_HELP = "wall: perf_counter; cpu: this thread's CPU time (less hurt by other load)"


@dataclass
class Sample:
    """What one contender did in one time slot: games finished, units (turns, moves)
    played in them, and the seconds they took on the clock.
    """

    games: int
    units: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds

    @property
    def units_per_second(self) -> float:
        """Units (turns, moves) per second."""
        return self.units / self.seconds


Runner = Callable[[float, int, Clock], Sample]
"""A playout loop: ``run(budget_seconds, seed, clock) -> Sample``."""


@dataclass(frozen=True)
class Contender:
    """A named playout loop."""

    key: str
    label: str
    run: Runner


@dataclass(frozen=True)
class Anchor:
    """A contender the others are divided by, and the table heading of that ratio."""

    key: str
    heading: str


def openspiel_cpp_loop(game: Any) -> Runner:
    """OpenSpiel's C++ loop for ``game``: ``pyspiel.evaluate_bots`` with uniform random
    bots, the whole game (chance included) in C++; counts the players' decisions.

    The C++ loop cannot be watched move by move, so after the timed slot the same games
    are played again, untimed, by the same bots (same seeds) wrapped in a Python bot that
    counts the decisions it is asked for; the replay must give the same returns, game by
    game, or the run stops.
    """

    class CountingBot(pyspiel.Bot):  # type: ignore[misc]
        def __init__(self, inner: Any, counter: list[int]) -> None:
            pyspiel.Bot.__init__(self)
            self.inner = inner
            self.counter = counter

        def step(self, state: Any) -> int:
            self.counter[0] += 1
            return int(self.inner.step(state))

        def restart_at(self, state: Any) -> None:
            self.inner.restart_at(state)

        def inform_action(self, state: Any, player: int, action: int) -> None:
            self.inner.inform_action(state, player, action)

    players = game.num_players()

    def play(
        games: int | None, budget: float, seed: int, clock: Clock, counter: list[int] | None
    ) -> tuple[list[tuple[float, ...]], float]:
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
        if counter is not None:
            bots = [CountingBot(bot, counter) for bot in bots]
        evaluate_bots, new_initial_state = pyspiel.evaluate_bots, game.new_initial_state
        returns: list[tuple[float, ...]] = []
        add = returns.append
        start = clock()
        stop = start + budget
        while True:
            add(tuple(evaluate_bots(new_initial_state(), bots, seed + len(returns))))
            if games is None:
                now = clock()
                if now >= stop:
                    return returns, now - start
            elif len(returns) == games:
                return returns, 0.0

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        returns, seconds = play(None, budget, seed, clock, None)
        counter = [0]
        replayed, _ = play(len(returns), 0.0, seed, clock, counter)
        if replayed != returns:
            raise RuntimeError(f"the counting replay of {game} played other games")
        return Sample(len(returns), counter[0], seconds)

    return run


def measure(
    entries: Sequence[Contender],
    rounds: int,
    seconds: float,
    warmup: float,
    clock: Clock,
    unit: str,
) -> dict[str, list[Sample]]:
    """Each contender ``rounds`` times for ``seconds``, interleaved, the order rotated."""
    entries = list(entries)
    for entry in entries:
        entry.run(warmup, 0, clock)
    samples: dict[str, list[Sample]] = {entry.key: [] for entry in entries}
    for number in range(rounds):
        shift = number % len(entries)
        for entry in entries[shift:] + entries[:shift]:
            gc.collect()
            samples[entry.key].append(entry.run(seconds, 1_000_000 * (number + 1), clock))
        line = "  ".join(
            f"{entry.key}={samples[entry.key][-1].units_per_second:,.0f}" for entry in entries
        )
        print(f"round {number + 1}/{rounds} {unit}s/s: {line}", file=sys.stderr)
    return samples


def machine(packages: Sequence[str]) -> dict[str, Any]:
    """The hardware and software the figures were measured on; ``packages`` are the
    distributions whose versions to report (``None`` when not installed).
    """
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for name in packages:
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


def machine_line(info: dict[str, Any]) -> str:
    """:func:`machine` as one line."""
    return (
        f"{info['date']}  {info['cpu']} ({info['cpus']} CPUs)  {info['python']}  "
        + "  ".join(f"{name} {version}" for name, version in info["versions"].items())
        + f"  commit {info['commit']}"
    )


def summarize(
    entries: Sequence[Contender],
    samples: dict[str, list[Sample]],
    anchors: Sequence[Anchor],
    unit: str,
) -> list[dict[str, Any]]:
    """Per contender: median rates, and against each anchor that ran, the median of the
    per-round ratios of units per second with their min and max (``None`` without it).
    """
    rows = []
    for entry in entries:
        mine = samples[entry.key]
        ratios: dict[str, dict[str, float] | None] = {}
        for anchor in anchors:
            theirs = samples.get(anchor.key)
            if theirs is None:
                ratios[anchor.key] = None
                continue
            each = [
                s.units_per_second / a.units_per_second for s, a in zip(mine, theirs, strict=True)
            ]
            ratios[anchor.key] = {
                "median": statistics.median(each),
                "min": min(each),
                "max": max(each),
            }
        rows.append(
            {
                "key": entry.key,
                "contender": entry.label,
                "games": sum(s.games for s in mine),
                "games_per_second": statistics.median(s.games_per_second for s in mine),
                f"{unit}s_per_second": statistics.median(s.units_per_second for s in mine),
                # nan when no game ended in the slots (a long game, a short --seconds)
                f"{unit}s_per_game": sum(s.units for s in mine)
                / (sum(s.games for s in mine) or math.nan),
                "ratios": ratios,
                "rounds": [
                    {"games": s.games, f"{unit}s": s.units, "seconds": s.seconds} for s in mine
                ],
            }
        )
    return rows


def table(rows: Sequence[dict[str, Any]], anchors: Sequence[Anchor], unit: str) -> str:
    """The summary as a Markdown table."""
    lines = [
        f"| contender | {unit}s/game | games/s | {unit}s/s | "
        + " | ".join(f"{anchor.heading} (min-max)" for anchor in anchors)
        + " |",
        "| --- | ---: | ---: | ---: |" + " ---: |" * len(anchors),
    ]
    for row in rows:
        shown = []
        for anchor in anchors:
            ratio = row["ratios"][anchor.key]
            if ratio is None:
                shown.append("n/a")
            else:
                shown.append(f"{ratio['median']:.2f}x ({ratio['min']:.2f}-{ratio['max']:.2f})")
        lines.append(
            f"| {row['contender']} | {row[f'{unit}s_per_game']:.0f} | "
            f"{row['games_per_second']:,.1f} | {row[f'{unit}s_per_second']:,.0f} | "
            + " | ".join(shown)
            + " |"
        )
    return "\n".join(lines)


def timing_arguments(description: str, argv: list[str] | None) -> argparse.Namespace:
    """The command-line options every playout benchmark takes, parsed and checked."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=1.0, help="per contender per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    parser.add_argument("--warmup", type=float, default=0.3, help="seconds each before round 1")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall", help=CLOCK_HELP)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")
    return args


def run_and_report(
    args: argparse.Namespace,
    entries: Sequence[Contender],
    packages: Sequence[str],
    anchors: Sequence[Anchor],
    unit: str,
    what: str,
    **settings: Any,
) -> None:
    """Measure ``entries`` as ``args`` say, print the machine, the settings (``what`` a
    unit is) and the table, and write the JSON report when ``--json`` asks for it.
    """
    info = machine(packages)
    samples = measure(entries, args.rounds, args.seconds, args.warmup, CLOCKS[args.clock], unit)
    rows = summarize(entries, samples, anchors, unit)
    print(f"\n{machine_line(info)}")
    print(
        f"{args.rounds} rounds x {args.seconds:g} s ({args.clock} clock) per contender, medians; "
        f"{what}\n"
    )
    print(table(rows, anchors, unit))
    write_report(args.json, info, settings_of(args, **settings), rows)


def write_report(
    path: Path | None, info: dict[str, Any], settings: dict[str, Any], rows: Any
) -> None:
    """Write the run as JSON to ``path`` (``--json``): the machine, the settings, the rows."""
    if path is not None:
        report = {"machine": info, "settings": settings, "results": rows}
        path.write_text(json.dumps(report, indent=2) + "\n")


def settings_of(args: Any, **more: Any) -> dict[str, Any]:
    """The timing settings of a run from its command-line arguments, and ``more``."""
    return {
        "rounds": args.rounds,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "clock": args.clock,
        **more,
    }
