"""Store a game as a JSON record and replay it, or replay a record file you have.

    python examples/replay.py                      # play a bot game, replay its record
    python examples/replay.py --write game.json    # ... and keep the record in game.json
    python examples/replay.py game.json            # replay a record file

A record is ``{game, version, config, seed, moves}``, the moves in text notation: the
seed and the moves reproduce every throw of the dice.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tabletop_rules import TabletopError
from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.records import GameRecord, replay_states
from tabletop_rules.simulate import play_game


def record_bot_game(seed: int) -> tuple[GameRecord, dp.State]:
    """A GreedyBot-vs-RandomBot game's record, and the state the game ended in."""
    game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=seed)], seed=seed)
    return game.record, game.final


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", nargs="?", type=Path, help="a game record (JSON) to replay")
    parser.add_argument(
        "--write", action="store_true", help="play a bot game and write its record to RECORD"
    )
    parser.add_argument("--seed", type=int, default=3, help="seed of the bot game (default 3)")
    args = parser.parse_args(argv)
    if args.write and args.record is None:
        parser.error("--write needs the RECORD path to write")

    played = None
    if args.record is None or args.write:
        record, played = record_bot_game(args.seed)
        text = record.to_json()
        if args.write:
            args.record.write_text(text + "\n", encoding="utf-8")
            print(f"wrote {len(record.moves)} moves to {args.record}")
    else:
        try:
            text = args.record.read_text(encoding="utf-8")
        except OSError as error:
            print(f"cannot read {args.record}: {error.strerror}", file=sys.stderr)
            return 1

    try:
        record = GameRecord.from_json(text)
        states = list(replay_states(record))
    except TabletopError as error:  # a malformed record, or a move that cannot be played
        print(f"cannot replay {args.record or 'the record'}: {error}", file=sys.stderr)
        return 1
    final = states[-1]
    rules = record.ruleset
    print(f"replayed {len(record.moves)} moves of {rules.title} (seed {record.seed})")
    if played is not None:
        print("the replay reaches the same final state:", final == played)
    print("scores:", rules.score(final), "winners:", sorted(rules.winners(final)))
    if isinstance(final, dp.State):
        print(dp.display(final))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
