"""Evaluate bots as docs/evaluating.rst does, and draw its figures.

    python examples/evaluate_bots.py                     # the docs' figures, about a minute
    python examples/evaluate_bots.py --games 60 --out /tmp/figures
    python examples/evaluate_bots.py --workers 2

Three steps, each printed as text:

1. A duplicate match: palace's ``lowcard`` against ``random``, each deal played from both
   seats, with the luck-controlled difference and its 95% interval over deals.
2. A duplicate round robin at dice poker between ``greedy``, a greedy bot that values
   fences at nothing (``fenceless``, defined here) and ``random``: Bradley-Terry ratings
   with bootstrap intervals, each seat's win rate and the games' lengths.
3. A balance report of palace's ``quad=burn`` against the defaults, ``lowcard`` at both
   seats, written as one HTML page.

The figures (PNG) go to ``--out`` (``docs/_static/evaluating`` by default, where the
docs page finds them) with the report as ``balance.html``. The same arguments give the
same numbers and figures, with or without ``--workers``. Needs the plot extra
(``pip install -e '.[plot]'``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from tabletop_rules import dice_poker as dp
from tabletop_rules import palace
from tabletop_rules.plots import (
    balance_report,
    length_figure,
    png,
    rating_figure,
    score_figure,
    seat_figure,
)
from tabletop_rules.simulate import simulate
from tabletop_rules.tournament import tournament

ROOT = Path(__file__).resolve().parent.parent


def fenceless(seed: int) -> dp.GreedyBot:
    """A greedy bot that sees no worth in a banked fence: it throws whenever a throw helps."""
    del seed  # it draws no random numbers
    return dp.GreedyBot(fence_value=0.0)


@contextmanager
def executor(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    if workers == 1:
        yield None
        return
    with ProcessPoolExecutor(workers) as pool:
        yield pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per match (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of every run (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "_static" / "evaluating", help="where to write"
    )
    args = parser.parse_args()
    games = args.games - args.games % 6  # whole deals at tables of 2 and of 3
    args.out.mkdir(parents=True, exist_ok=True)
    with executor(args.workers) as pool:
        match = simulate(
            palace.RULES, ["lowcard", "random"], games, seed=args.seed, duplicate=True,
            executor=pool,
        )  # fmt: skip
        print(match, end="\n\n")
        rated = tournament(
            dp.RULES, ["greedy", fenceless, "random"], games, seed=args.seed, duplicate=True,
            executor=pool,
        )  # fmt: skip
        print(rated, end="\n\n")
        report = balance_report(palace.RULES, ["quad=burn"], games, seed=args.seed, executor=pool)
    for row in report.summary():
        print(" | ".join(row))
    figures = {
        "ratings.png": rating_figure(rated),
        "seats.png": seat_figure(rated),
        "scores.png": score_figure(rated),
        "lengths.png": length_figure({"dice poker": rated}),
        **{
            f"balance-{name.lower().replace(' ', '-')}.png": f
            for name, f in report.figures().items()
        },
    }
    for name, figure in figures.items():
        (args.out / name).write_bytes(png(figure))
    written = report.write(args.out / "balance.html")
    print(f"\nwrote {', '.join(figures)} and {written.name} to {args.out}")


if __name__ == "__main__":
    main()
