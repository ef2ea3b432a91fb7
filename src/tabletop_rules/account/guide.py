"""The account game in a few lines for a player at the table (the terminal's ``help`` and
``hint``), from the rules page ``rules/account`` and the house rules in force; columns
and markers counted from 0, as the field draws them (``m0 on 3``).

>>> from tabletop_rules.account import RULES, Config
>>> RULES.rules_summary(Config(end="finish_round"))[2][-63:]
'Z: the account is 0; End stops the game once the round is over.'
"""

from __future__ import annotations

from itertools import groupby

from .._words import counted
from .config import Config
from .hints import Landing, landings
from .state import View

__all__: list[str] = []  # reaches users as RULES.rules_summary, notation_summary and hint


def rules_summary(config: Config) -> tuple[str, ...]:
    """The rules that make the account game what it is, under ``config``."""
    end = (
        "End stops the game once the round is over"
        if config.end == "finish_round"
        else "End stops the game"
    )
    lines = [
        "Only the bottom line is played, as a ring: past one end you go on from the other; "
        "left is towards column 0.",
        f"A turn: buy markers first if you like ({config.marker_cost} each, at most "
        f"{config.max_markers} in all), then roll once per marker and move each 1 to the "
        "number rolled, left or right.",
        "Cards: +N and -N add and subtract; P +100; T +1000; B draws the pack top and "
        f"subtracts it; Z: the account is 0; {end}.",
        "Only the card a marker stops on scores, not those passed over"
        + ("; accounts never fall below 0." if config.floor_at_zero else "."),
    ]
    if config.collapse:
        lines.append(
            "When the last marker leaves a card, it goes and the cards above it drop a row."
        )
    lines.append(
        f"The highest account wins when End scores or after {counted(config.max_rounds, 'round')}; "
        "markers are m0, m1, ... in the order you got them."
    )
    return tuple(lines)


def notation_summary(config: Config) -> tuple[str, ...]:
    """The notation, a form and its example a line."""
    lines = [
        "place 3: put a starting marker on column 3 (setup)",
        "buy 5: buy a marker, before the turn's first roll, and put it on column 5",
        "roll: roll the die for the next marker",
        "move m0 left 3: move marker m0 three cards left (move 0 left 3 is the same)",
    ]
    if not config.auto_chance:
        lines.append("die 4: at outcome>, the face the die shows")
    return tuple(lines)


def hint(seen: View) -> tuple[str, ...]:
    """Where each marker not yet moved would land for the number rolled, and what the
    card there would do to the account.
    """
    found = landings(seen)
    if not found:
        return ("Hints come after a roll: where each marker would land, and what it would do.",)
    before = found[0].before
    lines = [f"Rolled {seen.roll}, account {before}: distance: card landed on -> account after"]
    for (marker, direction), moves in groupby(found, lambda land: (land.marker, land.direction)):
        steps = ", ".join(_landing(landing) for landing in moves)
        lines.append(f"  m{marker} {direction.ljust(5)}  {steps}")
    return tuple(lines)


def _landing(landing: Landing) -> str:
    """``2: -15 -> -14``; a B's charge is its draw, an End ends the game."""
    if landing.ends:
        effect = "game over"
    elif landing.after is None:
        effect = "draws"
    else:
        effect = str(landing.after)
    return f"{landing.steps}: {landing.card} -> {effect}"
