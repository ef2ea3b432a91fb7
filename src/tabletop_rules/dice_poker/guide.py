"""Dice poker in a few lines for a player at the table (the terminal's ``help`` and
``hint``), from the rules page ``rules/dice_poker`` and the house rules in force; stages
counted from 1, as the score sheet draws them (``P0 s1``).

>>> from tabletop_rules.dice_poker import RULES, Config
>>> RULES.rules_summary(Config(fences=False, stage_orders=("down",)))[-1][:42]
'Stage orders: stage 1 down, stage 2 down, '
"""

from __future__ import annotations

from .._words import counted
from .coach import advice_lines
from .config import Config
from .hints import open_box_points
from .moves import Scratch, Write
from .state import View

__all__: list[str] = []  # reaches users as RULES.rules_summary, notation_summary and hint


def rules_summary(config: Config) -> tuple[str, ...]:
    """The rules that make dice poker dice poker, under ``config``."""
    lines = [
        f"Each player fills {counted(config.stages, 'stage')} of 15 boxes, one box a turn; a "
        f"turn has {counted(config.throws_per_turn, 'throw')}, each re-rolling the dice you "
        "do not keep.",
        "The mountain (ones to sixes) scores (count - 3) x face: three fours 0, one four -8; "
        "it is never scratched.",
        f"A stage whose six mountain boxes sum above 0 earns +{config.premium}, below 0 "
        f"costs -{config.penalty}.",
        "A poker box (pair to chance) is written only when the dice fit it; else scratch it "
        "for 0, also before the first throw.",
    ]
    if config.fences:
        capped = [
            f"at most {limit} {what}"
            for limit, what in (
                (config.max_fences, "banked"),
                (config.max_fences_per_turn, "spent a turn"),
            )
            if limit is not None
        ]
        lines.append(
            "Fences: throws you do not use are banked and buy extra throws in later turns"
            + (f" ({', '.join(capped)})." if capped else ".")
        )
    orders = config.orders_by_stage
    if any(order != "free" for order in orders):
        named = ", ".join(f"stage {stage + 1} {order}" for stage, order in enumerate(orders))
        lines.append(
            f"Stage orders: {named} (down: the next box from ones; up: from chance; "
            "announce: name the box after the first throw)."
        )
    return tuple(lines)


def notation_summary(config: Config) -> tuple[str, ...]:
    """The notation, a form and its example a line."""
    lines = [
        "roll: throw all five dice; roll keep 6 6 (or roll keep 66): keep those, throw the rest",
        "write full_house: fill a box with the dice (write full house, Write Full-House too)",
        "scratch poker: fill a poker box with 0",
    ]
    if "announce" in config.orders_by_stage:
        lines.append("announce four_kind: name the box this turn ends in (announce order)")
    if not config.auto_chance:
        lines.append("dice 2 5 6: at outcome>, the faces the dice thrown show")
    return tuple(lines)


def hint(seen: View) -> tuple[str, ...]:
    """What each box the seat may fill now would score with the dice on the table, then the
    dice coach's advice for the turn (:func:`~tabletop_rules.dice_poker.coach`).
    """
    return _box_hint(seen) + _coach_hint(seen)


def _coach_hint(seen: View) -> tuple[str, ...]:
    """The coach's lines while a seat is to throw; none otherwise."""
    player = seen.current_player
    if player is None or player < 0 or seen.pending_keep is not None:
        return ()
    return advice_lines(seen)


def _box_hint(seen: View) -> tuple[str, ...]:
    points = open_box_points(seen)
    if not points:
        return ("Hints come after a throw: what each open box would score with the dice.",)
    legal = set(seen.legal_moves)
    mine = seen.seat == seen.current_player  # another seat's dice: every open box
    scores, scratched = [], []
    for box, value in points.items():
        if value is not None and (not mine or Write(box) in legal):
            scores.append(f"{box} {value}")
        elif not mine or Scratch(box) in legal:
            scratched.append(str(box))
    dice = " ".join(map(str, seen.dice))
    if not scores and not scratched:
        return (f"With {dice} no box may be filled now.",)
    lines = [f"With {dice} the boxes you may fill now would score:"]
    if scores:
        lines.append("  " + ", ".join(scores))
    if scratched:
        lines.append("  only scratched, for 0: " + ", ".join(scratched))
    return tuple(lines)
