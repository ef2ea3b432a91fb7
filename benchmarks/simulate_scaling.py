"""How simulate() scales: the same games in process, on process pools of 1 and 2 workers,
and on a Dask LocalCluster of 2 workers.

Every contender plays the same ``--games`` games (same seed, so the same results, which
the script checks) in interleaved rounds, the order rotated each round. A pool or cluster
is started, and its workers warmed up, before the clock runs: its start-up time is
reported apart. The figures are the median seconds per run and, per round, the ratios:
the speed-up of 2 pool workers over 1, and the time on Dask over the time on a plain
pool of as many workers (Dask's overhead). On a shared machine other work takes cores
from the workers, so each round also times plain CPU work (eight equal loops) on the
pools of 1 and 2: its speed-up is the most the machine gave at that time, the ceiling
for simulate's. The one-minute load average after each run is printed too.

Run::

    python benchmarks/simulate_scaling.py [--games 10000] [--rounds 2] [--bots random,random]
        [--chunk-size N] [--no-dask] [--json out.json]

Dask is optional (``pip install -e '.[dask]'``); without it the Dask row is left out.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from harness import machine, machine_line

from tabletop_rules import get_ruleset
from tabletop_rules.simulate import SimulationResult, TaskExecutor, default_chunk_size, simulate

try:
    import distributed
except ImportError:  # the optional `dask` extra
    distributed = None  # type: ignore[assignment]

INSTALL_HINT = "pip install -e '.[dask]'"


def _warm_up() -> int:
    """A task that makes a worker import the library before the clock runs."""
    from tabletop_rules import dice_poker

    return len(dice_poker.RULES.bots)


def _spin(count: int) -> int:
    """A fixed piece of pure-Python CPU work: the control for the pool speed-up."""
    total = 0
    for number in range(count):
        total += number * number
    return total


def control_seconds(executor: TaskExecutor, tasks: int = 8, count: int = 3_000_000) -> float:
    """Seconds that ``executor`` takes for ``tasks`` equal pieces of plain CPU work."""
    began = time.perf_counter()
    for future in [executor.submit(_spin, count) for _ in range(tasks)]:
        future.result()
    return time.perf_counter() - began


@contextmanager
def process_pool(workers: int) -> Iterator[TaskExecutor]:
    """A warmed-up process pool (forkserver: no fork of a process with threads)."""
    with ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("forkserver")
    ) as executor:
        for future in [executor.submit(_warm_up) for _ in range(workers * 4)]:
            future.result()
        yield executor


@contextmanager
def dask_cluster(workers: int) -> Iterator[TaskExecutor]:
    """The executor of a warmed-up Dask LocalCluster of single-threaded worker processes."""
    assert distributed is not None
    with (
        distributed.LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        client.run(_warm_up)
        yield client.get_executor()


def main() -> None:
    """Run every contender in interleaved rounds and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="dice-poker")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bots", default="random,random")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-size", type=int, default=None)
    parser.add_argument("--no-dask", action="store_true", help="leave Dask out")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args()

    rules = get_ruleset(args.game)
    bots = args.bots.split(",")
    info = machine(["tabletop-rules", "distributed", "dask"])
    print(machine_line(info), file=sys.stderr)
    use_dask = distributed is not None and not args.no_dask
    if distributed is None and not args.no_dask:
        print(f"Dask is not installed ({INSTALL_HINT}): its row is left out", file=sys.stderr)

    with ExitStack() as stack:
        startup: dict[str, float] = {}
        executors: dict[str, TaskExecutor | None] = {"in process": None}
        starters: dict[str, Callable[[], Any]] = {
            "pool of 1": lambda: process_pool(1),
            "pool of 2": lambda: process_pool(2),
        }
        if use_dask:
            starters["Dask LocalCluster of 2"] = lambda: dask_cluster(2)
        for key, start in starters.items():
            began = time.perf_counter()
            executors[key] = stack.enter_context(start())
            startup[key] = time.perf_counter() - began
            print(f"started {key} in {startup[key]:.1f} s", file=sys.stderr)

        keys = list(executors)
        seconds: dict[str, list[float]] = {key: [] for key in keys}
        loads: dict[str, list[float]] = {key: [] for key in keys}
        control: dict[str, list[float]] = {"pool of 1": [], "pool of 2": []}
        first: SimulationResult | None = None
        for number in range(args.rounds):
            shift = number % len(keys)
            for key in keys[shift:] + keys[:shift]:
                began = time.perf_counter()
                result = simulate(
                    rules,
                    bots,
                    args.games,
                    seed=args.seed,
                    executor=executors[key],
                    chunk_size=args.chunk_size,
                )
                seconds[key].append(time.perf_counter() - began)
                loads[key].append(os.getloadavg()[0])
                if first is None:
                    first = result
                elif result != first:
                    raise SystemExit(f"{key} gave another result than the first run")
                print(
                    f"round {number + 1}/{args.rounds} {key}: {seconds[key][-1]:.1f} s "
                    f"(load average {loads[key][-1]:.1f} on {os.cpu_count()} CPUs)",
                    file=sys.stderr,
                )
            for key, spent in control.items():
                executor = executors[key]
                assert executor is not None
                spent.append(control_seconds(executor))

    def ratios(samples: dict[str, list[float]], top: str, bottom: str) -> dict[str, float] | None:
        if top not in samples or bottom not in samples:
            return None
        each = [a / b for a, b in zip(samples[top], samples[bottom], strict=True)]
        return {"median": statistics.median(each), "min": min(each), "max": max(each)}

    speedup = ratios(seconds, "pool of 1", "pool of 2")
    ceiling = ratios(control, "pool of 1", "pool of 2")
    dask_overhead = ratios(seconds, "Dask LocalCluster of 2", "pool of 2")
    assert first is not None
    chunk_size = args.chunk_size or default_chunk_size(args.games)
    print(
        f"\n{args.games:,} {rules.name} games, bots {args.bots}, seed {args.seed}, "
        f"{chunk_size} games per task"
    )
    print("| executor | start-up s | run s (median) | games/s |")
    print("| --- | ---: | ---: | ---: |")
    for key in keys:
        median = statistics.median(seconds[key])
        print(
            f"| {key} | {startup.get(key, 0.0):.1f} | {median:.1f} | {args.games / median:,.0f} |"
        )
    if speedup is not None:
        print(
            f"speed-up of 2 pool workers over 1: {speedup['median']:.2f}x "
            f"({speedup['min']:.2f}-{speedup['max']:.2f})"
        )
    if ceiling is not None:
        print(
            f"control, plain CPU work on the same pools in the same rounds: "
            f"{ceiling['median']:.2f}x ({ceiling['min']:.2f}-{ceiling['max']:.2f})"
        )
    if dask_overhead is not None:
        print(
            f"Dask LocalCluster time over a pool of 2: {dask_overhead['median']:.2f}x "
            f"({dask_overhead['min']:.2f}-{dask_overhead['max']:.2f})"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": info,
                    "game": rules.name,
                    "games": args.games,
                    "bots": bots,
                    "seed": args.seed,
                    "chunk_size": args.chunk_size,
                    "startup_seconds": startup,
                    "seconds": seconds,
                    "load_average_after": loads,
                    "speedup_2_over_1": speedup,
                    "control_seconds": control,
                    "control_speedup_2_over_1": ceiling,
                    "dask_over_pool": dask_overhead,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
