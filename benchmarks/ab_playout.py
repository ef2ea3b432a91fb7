"""A/B: this tree's plain ``legal_moves``/``apply`` loop against another commit's.

Each round runs the same seeded random games once with this checkout's ``src`` and once
with ``src`` of ``--base`` (extracted with ``git archive``), each in a fresh process, the
order alternating round by round; a process times only its loop (CPU clock, imports
excluded) and reports its moves. The table gives the median moves/s of each side and the
per-round ratio this/base (median, min-max). Both sides must play the same number of
moves while the rules are unchanged, so a refactor that changes a game shows at once.

    python benchmarks/ab_playout.py --base e6923f7 [--games palace] [--rounds 7] [--count 60]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, random, sys, time
from tabletop_rules import get_ruleset
rules = get_ruleset(sys.argv[1])
count = int(sys.argv[2])
games = [rules.new_game(rules.config_type(), seed=seed) for seed in range(count)]
legal_moves, apply, is_over = rules.legal_moves, rules.apply, rules.is_over
choose = random.Random(1).choice
moves = 0
start = time.process_time()
for state in games:
    while not is_over(state):
        state = apply(state, choose(legal_moves(state)))
        moves += 1
print(json.dumps({"moves": moves, "seconds": time.process_time() - start}))
"""


def _run(src: Path, game: str, count: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, game, str(count)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--games", default="dice-poker,palace,account")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--count", type=int, default=60, help="games per process")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.base, "src"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", temp], input=archive, check=True)
        sides = {"this": ROOT / "src", "base": Path(temp) / "src"}
        print(f"base {args.base}; {args.rounds} rounds of {args.count} games; CPU clock")
        print(f"{'game':<12}{'this moves/s':>14}{'base moves/s':>14}{'ratio':>8}  (min-max)")
        for game in args.games.split(","):
            rates: dict[str, list[float]] = {"this": [], "base": []}
            ratios = []
            for round_ in range(args.rounds):
                order = ["this", "base"] if round_ % 2 == 0 else ["base", "this"]
                result = {side: _run(sides[side], game, args.count) for side in order}
                if result["this"]["moves"] != result["base"]["moves"]:
                    print(f"  {game}: the two sides played different games", file=sys.stderr)
                for side in order:
                    rates[side].append(result[side]["moves"] / result[side]["seconds"])
                ratios.append(rates["this"][-1] / rates["base"][-1])
            print(
                f"{game:<12}{statistics.median(rates['this']):>14,.0f}"
                f"{statistics.median(rates['base']):>14,.0f}"
                f"{statistics.median(ratios):>8.3f}  ({min(ratios):.3f}-{max(ratios):.3f})"
            )


if __name__ == "__main__":
    main()
