"""Palace in a few lines for a player at the table (the terminal's ``help`` and ``hint``),
from the rules page ``rules/palace`` and the house rules in force; face-down slots
counted from 0, left to right, as the table draws the row (``face down ## ## ##``).

>>> from tabletop_rules.palace import RULES, Config
>>> RULES.rules_summary(Config(quad="burn"))[2]
'Four or more of a rank on top of the pile burn it, and whoever completed them plays again.'
"""

from __future__ import annotations

from .cards import RANK_TEXT
from .config import Config
from .hints import playable_ranks
from .moves import Play, PlayBlind, TakePile
from .state import View

__all__: list[str] = []  # reaches users as RULES.rules_summary, notation_summary and hint


def rules_summary(config: Config) -> tuple[str, ...]:
    """The rules that make palace palace, under ``config``."""
    beat = "higher than" if config.must_beat == "higher" else "equal or higher than"
    lines = [
        f"Play one or more cards of one rank on the pile: {beat} its top card (4 low ... A high).",
        "2, 3 and 10 go on anything, anything goes on a 2; a 3 left on top makes the next "
        "player take the pile; a 10 burns the pile and you play again.",
    ]
    if config.quad == "burn":
        lines.append(
            "Four or more of a rank on top of the pile burn it, and whoever completed them "
            "plays again."
        )
    else:
        lines.append(
            "Four or more of a rank in one play: lay another set on them, or end the turn."
        )
    take = "Cannot play? Take the pile (take)"
    if config.voluntary_pickup:
        take += "; you may also take it at the start of your turn when you could play"
    lines.append(f"{take}. While the stock lasts you draw up to {config.hand_size} in hand.")
    if config.face_up_play == "from_table":
        lines.append("Hand and stock gone: play your face-up cards from the table.")
    else:
        lines.append("Hand and stock gone: your face-up cards go into your hand.")
    lines.append(
        "Then play your face-down cards blind, one a turn; one that cannot go on the pile "
        "is taken with it."
    )
    lines.append("Before play, swap hand cards with your face-up cards as you like, then ready.")
    if config.play_until == "last":
        lines.append("The first out wins; play goes on, and the last holding cards loses.")
    else:
        lines.append("The first player with no cards left wins.")
    return tuple(lines)


def notation_summary(_config: Config) -> tuple[str, ...]:
    """The notation, a form and its example a line."""
    return (
        "play 7H 7S: lay those cards (rank 2-10, J, Q, K, A; suit C, D, H, S)",
        "play 7 7: lay two 7s of your own, whichever suits",
        "take: take the pile; end: end the turn after a four of a kind",
        "blind 0: turn face-down card 0 and play it (0, 1, 2 from the left, as drawn)",
        "swap 4H QS: your hand card 4H for your face-up QS (swap phase); ready: done swapping",
    )


def hint(seen: View) -> tuple[str, ...]:
    """The ranks that go on the pile now, and which of them the seat can lay."""
    if seen.phase == "swap":
        return ("Swap phase: swap hand and face-up cards, then ready; nothing is played yet.",)
    if seen.pending == "take" and seen.current_player is not None:
        return ("A 3 is on top: the seat on turn must take the pile.",)
    ranks = playable_ranks(seen)
    if not ranks:
        return ("The game is over.",) if seen.current_player is None else ()
    lines = [f"Ranks that go on the pile now: {' '.join(RANK_TEXT[rank] for rank in ranks)}."]
    if seen.seat is None or seen.seat != seen.current_player:
        return tuple(lines)
    yours = sorted({move.cards[0].rank for move in seen.legal_moves if isinstance(move, Play)})
    if yours:
        lines.append(f"Of them you can lay: {' '.join(RANK_TEXT[rank] for rank in yours)}.")
    elif any(isinstance(move, PlayBlind) for move in seen.legal_moves):
        lines.append("You play blind: turn a face-down card (blind 0, 1 or 2).")
    elif TakePile() in seen.legal_moves:
        lines.append("You hold none of them: take the pile (take).")
    return tuple(lines)
