"""A house variant of each game: house rules are validated configuration.

    python examples/house_rules.py [--seed 5]

Every house rule is a field of the game's ``Config``; a bad value is refused when the
config is built, with a message that says what was wrong. Each variant below is played
to the end by the game's own bot against ``RandomBot`` and drawn as text.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from tabletop_rules import Bot, ConfigError
from tabletop_rules import account as a
from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.bots import RandomBot
from tabletop_rules.simulate import play_game

SHORT_DICE_POKER = dp.Config(
    players=2, throws_per_turn=4, stages=1, stage_orders="down", premium=100, penalty=50
)
"""One stage, filled from ones down to chance, four throws a turn, a bigger mountain."""

THREE_PLAYER_PALACE = p.Config.pagat(players=3, decks=2, hand_size=4)
"""The rules as pagat.com gives them (burn on four alike, play from the table, pick up
the pile at will, play until one is left), for three players with two decks."""

CRUMBLING_ACCOUNT = a.Config(
    rows=3,
    columns=6,
    collapse=True,
    end="finish_round",
    floor_at_zero=True,
    marker_cost=500,
    deck={"+10": 6, "-10": 6, "+25": 4, "-25": 4, "P": 2, "T": 1, "B": 3, "Z": 1, "End": 1},
)
"""A small field whose cards leave when their last marker does, accounts that never go
below zero, cheap markers, and a round finished after End."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5, help="the games' seed (default 5)")
    seed = parser.parse_args(argv).seed

    try:
        dp.Config(throws_per_turn=0)
    except ConfigError as error:
        print(f"dp.Config(throws_per_turn=0) is refused: {error}")

    game = play_game(
        dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=seed)], SHORT_DICE_POKER, seed=seed
    )
    print("\nDice poker, one stage filled from ones down, four throws a turn, premium 100")
    print(dp.display(game.final))

    bots: list[Bot[p.View, p.Move]] = [
        p.LowCardBot(),
        RandomBot(p.RULES, seed=seed),
        RandomBot(p.RULES, seed=seed + 1),
    ]
    game = play_game(p.RULES, bots, THREE_PLAYER_PALACE, seed=seed)
    order = ", ".join(f"P{seat}" for seat in game.final.finished)
    print(f"\nPalace, pagat rules for three, two decks: finished in order {order}")
    print(f"scores {game.score}, winners {sorted(game.winners)}")

    game = play_game(
        a.RULES, [a.BestCardBot(), RandomBot(a.RULES, seed=seed)], CRUMBLING_ACCOUNT, seed=seed
    )
    print(f"\nThe account game on a crumbling 3 x 6 field\n{a.display(game.final)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
