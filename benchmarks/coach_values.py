"""What the dice coach counts each box worth, measured from its own play: solitaire games
of the standard rules played by :class:`~tabletop_rules.dice_poker.CoachBot`, a round at a
time, each round's bot valuing the boxes by what the round before measured (each poker box's
mean points, each mountain box's spread of counts). It prints the last round's
:class:`~tabletop_rules.dice_poker.coach.Values`, the table ``coach.py`` ships as its default.

Run::

    python benchmarks/coach_values.py [--games 300] [--rounds 3] [--seed 0]
"""

from __future__ import annotations

import argparse
from statistics import mean

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.coach import Values
from tabletop_rules.dice_poker.moves import BOXES_PER_STAGE, MOUNTAIN, POKER_BOXES
from tabletop_rules.simulate import play_game


def measure(values: Values, games: int, seed: int) -> tuple[Values, float]:
    """The values ``games`` solitaire games played by ``values`` measure, and their mean."""
    config = dp.Config(players=1)
    poker: list[list[int]] = [[] for _ in POKER_BOXES]
    counts = [[0] * 6 for _ in MOUNTAIN]
    totals = []
    for game_seed in range(seed, seed + games):
        final = play_game(dp.RULES, [dp.CoachBot(values)], config, seed=game_seed).final
        totals.append(dp.score(final)[0])
        sheet = final.sheets[0]
        for index, cell in enumerate(sheet):
            box = dp.Box(index % BOXES_PER_STAGE)
            assert cell is not None
            if box.is_poker:
                poker[box - dp.Box.PAIR].append(cell)
            else:
                counts[box][cell // box.face + 3] += 1
    measured = Values(
        poker_pars=tuple(round(mean(cells), 2) for cells in poker),
        mountain_counts=tuple(tuple(round(count / sum(row), 4) for count in row) for row in counts),
        fence=values.fence,
    )
    return measured, mean(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fence", type=float, default=Values().fence)
    arguments = parser.parse_args()
    values = Values(fence=arguments.fence)
    for round_number in range(arguments.rounds):
        values, average = measure(values, arguments.games, arguments.seed)
        print(f"round {round_number + 1}: the bot of the round before scored {average:.1f}")
    print(values)


if __name__ == "__main__":
    main()
