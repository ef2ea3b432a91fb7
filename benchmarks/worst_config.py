"""The cost of a move under each game's worst allowed config, against its default config.

Every house rule has an upper bound so that no config makes a move cost much more than a
default move does (constant factors aside). This script checks that: for each game it
plays random games under ``Config()`` and under the worst config the bounds allow (the one
found slowest per move, see ``--all``), interleaved in one process, and reports the ratio
of the time per move, worst over default, per round (median, min-max).

A *move* is one ``apply``, chance events included (a ``Roll()`` of the account game rolls
its die inside ``apply``): what a move costs, whatever it is. A slot stops at its budget
even in the middle of a game (a game under the account game's worst config is 128,064
moves), and counts the moves it played.

Run::

    python benchmarks/worst_config.py [--seconds 1.0] [--rounds 5] [--clock cpu]
        [--all] [--json out.json]

``--all`` times every candidate config listed below, not only each game's worst.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from harness import (
    CLOCKS,
    Clock,
    Contender,
    Sample,
    machine,
    machine_line,
    measure,
    settings_of,
    timing_arguments,
    write_report,
)

from tabletop_rules import account, dice_poker, palace
from tabletop_rules.account.cards import CHARGE, KINDS
from tabletop_rules.palace.config import MAX_TURNS


@dataclass(frozen=True)
class Game:
    """A game under one config: the game's package, the config, and a deal (or None)."""

    package: Any
    config: Any
    deal: tuple[Any, ...] | None = None


def account_worst() -> Game:
    """The account game's worst: the issue's config (8 players with 8 markers each, one
    line of 20 cards, 1000 rounds, a deck of 100 each of B, Z and End and a single +1)
    dealt with B along the whole line. Every landing is on B, and with one card in 301
    that B charges, every landing draws through the rest of the pack and reshuffles the
    discard pile (about 281 draws from the generator), as the rules say it must.
    """
    config = account.Config(
        players=8,
        rows=1,
        columns=20,
        max_markers=8,
        starting_markers=8,
        marker_cost=0,
        max_rounds=1000,
        deck={"B": 100, "Z": 100, "End": 100, "+1": 1},
    )
    rest = list(config.deck_cards())
    for _ in range(config.columns):
        rest.remove(CHARGE)
    return Game(account, config, (CHARGE,) * config.columns + tuple(rest))


CANDIDATES: dict[str, dict[str, Callable[[], Game]]] = {
    "dice_poker": {
        "default": lambda: Game(dice_poker, dice_poker.Config()),
        "8 players, 10 stages, 10 throws, no fences": lambda: Game(
            dice_poker,
            dice_poker.Config(players=8, stages=10, throws_per_turn=10, fences=False),
        ),
        "8 players, 10 stages, 10 throws, fences": lambda: Game(
            dice_poker, dice_poker.Config(players=8, stages=10, throws_per_turn=10)
        ),
        "8 players, 10 stages, 10 throws, announce": lambda: Game(
            dice_poker,
            dice_poker.Config(players=8, stages=10, throws_per_turn=10, stage_orders="announce"),
        ),
    },
    "palace": {
        "default": lambda: Game(palace, palace.Config()),
        "4 decks, hands of 9, 13 players, to the last": lambda: Game(
            palace,
            palace.Config(players=13, decks=4, hand_size=9, play_until="last", max_turns=MAX_TURNS),
        ),
        "4 decks, hands of 9, 2 players, pick up at will, to the last": lambda: Game(
            palace,
            palace.Config(
                players=2,
                decks=4,
                hand_size=9,
                voluntary_pickup=True,
                play_until="last",
                max_turns=MAX_TURNS,
            ),
        ),
        "4 decks, hands of 9, 2 players": lambda: Game(
            palace, palace.Config(players=2, decks=4, hand_size=9, max_turns=MAX_TURNS)
        ),
        "4 decks, hands of 1, 29 players": lambda: Game(
            palace, palace.Config(players=29, decks=4, hand_size=1, max_turns=MAX_TURNS)
        ),
    },
    "account": {
        "default": lambda: Game(account, account.Config()),
        "the issue's: 8x8 markers, 1000 rounds, B along the line, one +1": account_worst,
        "8x8 markers, 1000 rounds, 10x20 field, 100 of each card": lambda: Game(
            account,
            account.Config(
                players=8,
                rows=10,
                columns=20,
                max_markers=8,
                starting_markers=8,
                marker_cost=0,
                max_rounds=1000,
                collapse=True,
                deck=dict.fromkeys(KINDS, 100),
            ),
        ),
    },
}
"""Per game, the configs timed by ``--all``: its default first, then its worst (the one
found slowest per move), then the other candidates."""


def playout(game: Game) -> Callable[[float, int, Clock], Sample]:
    """Random moves (``random.Random(seed).choice`` over ``legal_moves``) under ``game``'s
    config, new games from consecutive seeds, until the budget is spent, mid-game if need be.
    """
    package, config, deal = game.package, game.config, game.deal
    new_game, is_over, legal_moves, apply = (
        package.new_game,
        package.is_over,
        package.legal_moves,
        package.apply,
    )

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        choice = random.Random(seed).choice
        games = moves = 0
        start = clock()
        stop = start + budget
        while True:
            state = new_game(config, seed=seed + games, deal=deal)
            while not is_over(state):
                state = apply(state, choice(legal_moves(state)))
                moves += 1
                if not moves % 64 and clock() >= stop:
                    return Sample(games, moves, clock() - start)
            games += 1
            if clock() >= stop:
                return Sample(games, moves, clock() - start)

    return run


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, optionally write JSON."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    every = "--all" in args_in
    if every:
        args_in.remove("--all")
    args = timing_arguments(__doc__.splitlines()[0], args_in)
    entries = []
    for name, configs in CANDIDATES.items():
        chosen = list(configs.items()) if every else list(configs.items())[:2]
        for label, make in chosen:
            entries.append(Contender(f"{name}: {label}", f"{name}: {label}", playout(make())))
    samples = measure(entries, args.rounds, args.seconds, args.warmup, CLOCKS[args.clock], "move")
    info = machine(("tabletop-rules", "attrs"))
    rows = []
    for name, configs in CANDIDATES.items():
        default = samples[f"{name}: default"]
        for label in configs:
            key = f"{name}: {label}"
            if key not in samples:
                continue
            mine = samples[key]
            each = [
                d.units_per_second / s.units_per_second for s, d in zip(mine, default, strict=True)
            ]
            rows.append(
                {
                    "contender": key,
                    "us_per_move": 1e6 / statistics.median(s.units_per_second for s in mine),
                    "ratio": statistics.median(each),
                    "min": min(each),
                    "max": max(each),
                }
            )
    print(f"\n{machine_line(info)}")
    print(
        f"{args.rounds} rounds x {args.seconds:g} s ({args.clock} clock) per config, medians; "
        "move = one apply, chance included\n"
    )
    print("| game: config | µs/move | time per move vs default (min-max) |")
    print("| --- | ---: | ---: |")
    for row in rows:
        print(
            f"| {row['contender']} | {row['us_per_move']:.1f} | "
            f"{row['ratio']:.2f}x ({row['min']:.2f}-{row['max']:.2f}) |"
        )
    write_report(args.json, info, settings_of(args, all=every), rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
