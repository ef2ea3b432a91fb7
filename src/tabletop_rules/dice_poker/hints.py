"""What a move would do, read off a view for hints and previews: the points each open box
of the stage would score with the dice on the table.
"""

from __future__ import annotations

from .._validation import check_type
from .moves import BOXES_PER_STAGE, Box
from .scoring import points
from .state import View

__all__ = ["open_box_points"]


def open_box_points(seen: View) -> dict[Box, int | None]:
    """For each open box of the stage the seat on turn is filling, in sheet order, the
    points writing it would score now with the dice on the table; ``None`` for a poker box
    the dice do not fit (it can only be scratched, for 0). Empty while no dice lie on the
    table: before the turn's first throw, while dice are in the air, once the game is over.
    Which boxes the stage order allows now is in ``seen.legal_moves``.

    >>> from tabletop_rules.dice_poker import Box, Roll, apply, new_game, view
    >>> state = apply(new_game(seed=42), Roll())
    >>> state.dice
    (1, 2, 3, 5, 5)
    >>> hints = open_box_points(view(state, 1))
    >>> hints[Box.FIVES], hints[Box.PAIR], hints[Box.FULL_HOUSE], hints[Box.CHANCE]
    (-5, 10, None, 16)
    """
    check_type(seen, (View,))
    seat = seen.current_player
    if seat is None or seat < 0 or seen.pending_keep is not None or not seen.dice:
        return {}
    base = BOXES_PER_STAGE * seen.stage
    sheet = seen.sheets[seat]
    scores = seen.config.box_scores
    return {box: points(box, seen.dice, scores) for box in Box if sheet[base + box] is None}
