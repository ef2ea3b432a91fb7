"""The search bot's bars, measured: palace against ``lowcard``, the account game against
``bestcard``, each over luck-controlled games.

Each deal (a game seed) is played twice, once in each seating, so that both bots meet the
same cards and dice from both seats; a *game* below is one of those plays, so ``--games
1000`` is 500 deals. Intervals are 95% normal intervals over the deals (each deal's two
games averaged: the pairing is what controls for luck). The search bot's time per move is
measured around its ``choose`` calls, in the worker that played them.

Run::

    python benchmarks/search_bars.py palace --games 1000 [--workers 2] [--seed 0]
        [--iterations N] [--json out.json]
    python benchmarks/search_bars.py account --games 1000 [--baseline planner]
    python benchmarks/search_bars.py palace --speed 25,50,100,200 [--positions 100]

``--baseline NAME`` also plays the bot of that name (say, the heuristic the search
starts from) in the search bot's seats on the same deals and reports the search's gain
over it, deal by deal: what the search adds. ``--iterations`` overrides the search
bot's budget (default: the game's ``RULES.bots["search"]``). ``--log FILE`` writes each
deal's results as it ends, and ``--from-log FILE`` reports the deals of such a file,
finished run or not. ``--speed`` times the search bot alone, at several budgets, on the
same positions.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tabletop_rules import get_ruleset
from tabletop_rules.simulate import derived_seed, play_game

OPPONENT = {"palace": "lowcard", "account": "bestcard"}


class Timed:
    """A bot that counts its moves and the CPU time its ``choose`` calls took (the
    process's own, so other programs on a shared machine do not inflate it) and their
    wall-clock time; apart, its *decisions*: the moves it searched (more than one legal
    move, past palace's swap phase, which the search bot leaves to LowCardBot's rule).
    """

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.moves = 0
        self.seconds = 0.0
        self.wall = 0.0
        self.decisions = 0
        self.decision_seconds = 0.0
        self.slowest = 0.0

    def choose(self, view: Any) -> Any:
        start, wall = time.process_time(), time.perf_counter()
        move = self.bot.choose(view)
        spent = time.process_time() - start
        self.seconds += spent
        self.wall += time.perf_counter() - wall
        self.moves += 1
        if len(view.legal_moves) > 1 and getattr(view, "phase", None) != "swap":
            self.decisions += 1
            self.decision_seconds += spent
            self.slowest = max(self.slowest, spent)
        return move


def make_search(game: str, seed: int, iterations: int | None) -> Any:
    rules = get_ruleset(game)
    factory = rules.bots["search"]
    return factory(seed) if iterations is None else factory(seed, iterations)


def seated(rules: Any, bot: Any, other: Any, seat: int, seed: int) -> tuple[float, float, float]:
    """One game of the deal ``seed``, ``bot`` in ``seat`` and ``other`` in the other:
    ``bot``'s win (a draw's share), its wins less its losses, and its score margin.
    """
    bots = [bot, other] if seat == 0 else [other, bot]
    final = play_game(rules, bots, seed=seed).final
    winners = rules.winners(final)
    score = rules.score(final)
    won = 1.0 / len(winners) if seat in winners else 0.0
    lost = 1.0 / len(winners) if (1 - seat) in winners else 0.0
    return won, won - lost, score[seat] - score[1 - seat]


def deal(
    game: str, seed: int, iterations: int | None, baseline: str | None = None
) -> dict[str, Any]:
    """Both seatings of the deal ``seed``: the search bot's results from each seat, and
    with ``baseline`` (a bot's name) that bot's from the same seats against the same
    opponent.
    """
    rules = get_ruleset(game)
    opponent = rules.bots[OPPONENT[game]]
    results = []
    moves = decisions = 0
    seconds = wall = decision_seconds = slowest = 0.0
    for seat in (0, 1):
        search = Timed(make_search(game, derived_seed(seed, 1 + seat), iterations))
        results.append(seated(rules, search, opponent(derived_seed(seed, 2 - seat)), seat, seed))
        moves += search.moves
        seconds += search.seconds
        wall += search.wall
        decisions += search.decisions
        decision_seconds += search.decision_seconds
        slowest = max(slowest, search.slowest)
    played: dict[str, Any] = {
        "results": results,
        "moves": moves,
        "seconds": seconds,
        "wall": wall,
        "decisions": decisions,
        "decision_seconds": decision_seconds,
        "slowest": slowest,
    }
    if baseline is not None:
        make = rules.bots[baseline]
        played["baseline"] = [
            seated(
                rules,
                make(derived_seed(seed, 1 + seat)),
                opponent(derived_seed(seed, 2 - seat)),
                seat,
                seed,
            )
            for seat in (0, 1)
        ]
    return played


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% normal interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def measure(
    game: str,
    games: int,
    seed: int,
    workers: int,
    iterations: int | None,
    log: Any = None,
    baseline: str | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (half as many deals, each in both seatings) on ``workers``
    processes, and ``baseline``'s on the same deals; each deal's results go to ``log``
    (a text file) as a JSON line when done.
    """
    deals = max(1, games // 2)
    seeds = [derived_seed(seed, index) for index in range(deals)]
    started = time.perf_counter()
    done = []
    with ProcessPoolExecutor(workers) as pool:
        arguments = [game] * deals, seeds, [iterations] * deals, [baseline] * deals
        for played in pool.map(deal, *arguments, chunksize=1):
            done.append(played)
            if log is not None:
                print(json.dumps(played), file=log, flush=True)
    wall = time.perf_counter() - started
    return summary(game, done, seed, iterations, wall)


def summary(
    game: str, done: Sequence[dict[str, Any]], seed: int, iterations: int | None, wall: float
) -> dict[str, Any]:
    """The report of the deals ``done``: rates, margins and intervals, time per move."""
    deals = len(done)
    per_deal = [[statistics.fmean(r[i] for r in d["results"]) for d in done] for i in range(3)]
    moves = sum(d["moves"] for d in done)
    seconds = sum(d["seconds"] for d in done)
    waited = sum(d["wall"] for d in done)
    decisions = sum(d.get("decisions", 0) for d in done)  # logs of older runs lack them
    decided = sum(d.get("decision_seconds", 0.0) for d in done)
    bot = make_search(game, 0, iterations)
    report = {
        "game": game,
        "search": repr(bot),
        "opponent": OPPONENT[game],
        "games": 2 * deals,
        "deals": deals,
        "seed": seed,
        "win_rate": interval(per_deal[0]),
        "win_margin": interval(per_deal[1]),
        "score_margin": interval(per_deal[2]),
        "ms_per_move": 1000 * seconds / moves,
        "moves_per_second": moves / seconds,
        "wall_ms_per_move": 1000 * waited / moves,
        "ms_per_decision": 1000 * decided / decisions if decisions else None,
        "decisions": decisions,
        "slowest_ms": 1000 * max(d.get("slowest", 0.0) for d in done),
        "search_moves": moves,
        "wall_seconds": wall,
    }
    if done and all("baseline" in d for d in done):
        kept = [statistics.fmean(r[1] for r in d["baseline"]) for d in done]
        report["baseline_win_margin"] = interval(kept)
        report["gain_over_baseline"] = interval(
            [search - base for search, base in zip(per_deal[1], kept, strict=True)]
        )
    return report


def speed(game: str, budgets: Sequence[int], positions: int, seed: int) -> list[str]:
    """The search bot's CPU time per move at each iteration budget, over the same
    ``positions`` positions (every choice the opponent's bot met in games between two of
    it, from deals of ``seed``, but palace's swaps), one line per budget.
    """
    rules = get_ruleset(game)
    opponent = rules.bots[OPPONENT[game]]
    views: list[Any] = []
    index = 0
    while len(views) < positions:
        state = rules.new_game(seed=derived_seed(seed, index))
        bots = [opponent(0), opponent(0)]
        while not rules.is_over(state) and len(views) < positions:
            seat = rules.current_player(state)
            seen = rules.view(state, seat)
            if len(seen.legal_moves) > 1 and getattr(seen, "phase", None) != "swap":
                views.append(seen)
            state = rules.apply(state, bots[seat].choose(seen))
        index += 1
    lines = []
    for budget in budgets:
        bot = make_search(game, seed, budget)
        start = time.process_time()
        for seen in views:
            bot.choose(seen)
        seconds = time.process_time() - start
        lines.append(
            f"{game} {budget:>5} iterations: {1000 * seconds / len(views):6.1f} ms CPU a move, "
            f"{len(views) / seconds:6.1f} moves/s ({len(views)} positions)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(OPPONENT))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--json", default=None)
    parser.add_argument("--log", default=None, help="write each deal's results here, a line each")
    parser.add_argument(
        "--from-log", default=None, help="report the deals of a --log file (even unfinished)"
    )
    parser.add_argument(
        "--speed",
        default=None,
        help="time a move at these iteration budgets instead, comma-separated: 25,50,100",
    )
    parser.add_argument("--positions", type=int, default=100, help="positions --speed times")
    parser.add_argument(
        "--baseline",
        default=None,
        help="also play this bot (by name) in the search bot's seats on the same deals, "
        "and report the search's gain over it deal by deal",
    )
    args = parser.parse_args(argv)
    if args.speed:
        budgets = [int(budget) for budget in args.speed.split(",")]
        print("\n".join(speed(args.game, budgets, args.positions, args.seed)))
        return
    if args.from_log:
        with open(args.from_log) as lines:
            done = [json.loads(line) for line in lines if line.strip()]
        report = summary(args.game, done, args.seed, args.iterations, 0.0)
    elif args.log:
        with open(args.log, "w") as log:
            report = measure(
                args.game, args.games, args.seed, args.workers, args.iterations, log, args.baseline
            )
    else:
        report = measure(
            args.game, args.games, args.seed, args.workers, args.iterations, None, args.baseline
        )
    for key in (
        "win_rate",
        "win_margin",
        "score_margin",
        "baseline_win_margin",
        "gain_over_baseline",
    ):
        if key not in report:
            continue
        mean, low, high = report[key]
        print(f"{key:>13}: {mean:+.4f}  95% [{low:+.4f}, {high:+.4f}]")
    print(
        f"{report['search']} vs {report['opponent']}: {report['games']} games "
        f"({report['deals']} deals x 2 seatings), seed {report['seed']}; "
        f"{report['ms_per_move']:.1f} ms CPU a search move ({report['moves_per_second']:.1f} "
        f"moves/s; {report['wall_ms_per_move']:.1f} ms wall-clock), {report['search_moves']} "
        f"search moves, {report['wall_seconds']:.0f} s in all"
    )
    if report["ms_per_decision"] is not None:
        print(
            f"{report['ms_per_decision']:.1f} ms CPU a decision (a move it searched: "
            f"{report['decisions']} of them), the slowest {report['slowest_ms']:.0f} ms"
        )
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)


if __name__ == "__main__":
    sys.exit(main())
