"""One random game of the account game under its worst allowed config, and its record.

Plays one game under :func:`worst_config.account_worst` (seed 1, choices from
``random.Random(1)``), writes its record to a file, then times reading the record back
(``GameRecord.from_json``) and replaying it (``replay``), checking the replay ends where
the game did. Issue 16 measured 30-93 s for such a game and 30 s to load and replay its
1.6 MB record.

Run::

    python benchmarks/account_worst_game.py [--rounds 1000] [--record /tmp/worst.json]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import attrs
from worst_config import account_worst

from tabletop_rules import account
from tabletop_rules.records import GameRecord, replay


def main(argv: list[str] | None = None) -> int:
    """Play, write, load and replay; print the times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="max_rounds of the game")
    parser.add_argument("--record", type=Path, default=Path("/tmp/account_worst_record.json"))
    args = parser.parse_args(argv)
    worst = account_worst()
    config = attrs.evolve(worst.config, max_rounds=args.rounds)
    choice = random.Random(1).choice
    start = time.perf_counter()
    state = account.new_game(config, seed=1, deal=worst.deal)
    moves = []
    while not account.is_over(state):
        move = choice(account.legal_moves(state))
        moves.append(account.format_move(move))
        state = account.apply(state, move)
    played = time.perf_counter() - start
    record = GameRecord("account", config, 1, tuple(moves), worst.deal)
    args.record.write_text(record.to_json())
    start = time.perf_counter()
    again = replay(GameRecord.from_json(args.record.read_text()))
    replayed = time.perf_counter() - start
    assert again == state, "the replay ends elsewhere"
    size = args.record.stat().st_size
    each = played / len(moves) * 1e6
    print(f"{len(moves):,} moves: played in {played:.2f} s ({each:.0f} µs a move)")
    print(f"record of {size:,} bytes ({args.record}): loaded and replayed in {replayed:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
