"""Watch bots play a seeded game of dice poker, turn by turn, and print the score sheet.

    python examples/bot_game.py --seed 1
    python examples/bot_game.py --seed 7 --players 3 --bots greedy,random,random --quiet

The same seed (and bots) always gives the same game.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from tabletop_rules import TabletopError
from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import Bot
from tabletop_rules.simulate import PlayedGame, play_game

BOT_NAMES = ("greedy", "random")


def make_bot(name: str, seed: int) -> Bot[dp.View, dp.Move]:
    """A bot by name; a random bot draws from its own generator, seeded from the game's."""
    if name == "greedy":
        return dp.GreedyBot()
    return RandomBot(dp.RULES, seed=seed)


def describe(event: dp.Event) -> str | None:
    """A few words for an event; ``None`` for the end of the game, which the sheet shows."""
    match event:
        case dp.Rolled(kept=(), dice=dice):
            return "roll " + " ".join(map(str, dice))
        case dp.Rolled(kept=kept, dice=dice):
            return f"roll keep {' '.join(map(str, kept))} -> {' '.join(map(str, dice))}"
        case dp.Announced(box=box):
            return f"announce {box}"
        case dp.Wrote(box=box, points=points):
            return f"write {box} {points:+d}"
        case dp.Scratched(box=box):
            return f"scratch {box}"
        case dp.MountainScored(mountain_sum=total, bonus=bonus):
            return f"mountain {total:+d}, premium {bonus:+d}"
        case dp.FencesChanged(fences=fences, lost=lost):
            return f"fences {fences}" + (f" ({lost} lost)" if lost else "")
    return None


def describe_turns(game: PlayedGame) -> list[str]:
    """One line per turn, from the events of replaying the game's moves."""
    state = dp.new_game(game.config, seed=game.seed)
    lines: list[str] = []
    parts: list[str] = []
    for move in game.moves:
        seat, stage = state.seat, state.stage
        state, events = dp.apply_with_events(state, move)
        parts += [words for words in map(describe, events) if words]
        if isinstance(move, dp.Write | dp.Scratch):  # a filled box ends the turn
            lines.append(f"{len(lines) + 1:3d}. P{seat} s{stage + 1}: {' | '.join(parts)}")
            parts = []
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="game seed (default 1)")
    parser.add_argument("--players", type=int, default=2, help="seats, 1 to 8 (default 2)")
    parser.add_argument(
        "--bots",
        help="comma-separated bot per seat, greedy or random (default: greedy, random, ...)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the final sheet")
    args = parser.parse_args(argv)

    names = (
        args.bots.split(",") if args.bots else [BOT_NAMES[seat % 2] for seat in range(args.players)]
    )
    if len(names) != args.players or not set(names) <= set(BOT_NAMES):
        parser.error(f"--bots needs {args.players} names from {', '.join(BOT_NAMES)}")
    try:
        config = dp.Config(players=args.players)
        bots = [make_bot(name, (args.seed + seat) % 2**64) for seat, name in enumerate(names)]
        game = play_game(dp.RULES, bots, config, seed=args.seed)
    except TabletopError as error:  # a bad --players or --seed
        parser.error(str(error))

    seats = ", ".join(f"P{seat} {name}" for seat, name in enumerate(names))
    print(f"Dice poker, seed {args.seed}: {seats}")
    if not args.quiet:
        print("\n".join(describe_turns(game)))
    print(dp.display(game.final))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
