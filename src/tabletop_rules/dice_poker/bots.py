"""A dice poker bot that plays greedily on the expected value of each box. It won all of 1,000
seeded two-player games against :class:`~tabletop_rules.bots.RandomBot`, by 722 points on
average (``examples/tournament.py --games 1000``).
"""

from __future__ import annotations

from functools import cache

from ..bots import legal_moves_of
from .config import DEFAULT_BOX_SCORES, BoxScores
from .moves import DICE_COUNT, Announce, Box, Face, Move, Roll, Scratch, Write
from .rules import ROLL_ALL
from .scoring import KEEPS, OUTCOMES, PROBABILITIES, score_table
from .state import View

__all__ = ["PAR", "GreedyBot", "expected_points"]

PAR: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 8, 14, 11, 9, 16, 6, 6, 10, 22)
"""Each box's par, in box order: points a poker box typically brings (a mountain box: 0,
three of its face). Writing more than par gains, less costs; scratching costs the par."""


@cache
def expected_points(
    keep: tuple[Face, ...], box_scores: BoxScores = DEFAULT_BOX_SCORES
) -> tuple[float, ...]:
    """Expected points in each box (0 where the dice do not fit) after keeping ``keep``
    and throwing the other dice once.
    """
    table = score_table(box_scores)
    count = DICE_COUNT - len(keep)
    totals = [0.0] * len(Box)
    for outcome in OUTCOMES[count]:
        chance = float(PROBABILITIES[count][outcome])
        for box, scored in enumerate(table[tuple(sorted(keep + outcome.values))]):
            totals[box] += chance * scored
    return tuple(totals)


class GreedyBot:
    """Writes the box worth most against its par, unless one more throw promises more.

    Args:
        fence_value: What one fence is worth in points: with fences on, each throw
            spends one and each throw left unused banks one.

    """

    def __init__(self, fence_value: float = 1.5) -> None:
        self.fence_value = fence_value

    def choose(self, view: View) -> Move:
        """The greedy move for the view's seat, which must be on turn."""
        moves: tuple[Move, ...] = legal_moves_of(view)  # the seat must be on turn
        if not view.dice:
            return ROLL_ALL
        announceable = [move.box for move in moves if isinstance(move, Announce)]
        if announceable:
            return Announce(max(announceable, key=lambda box: self._promise(view, box)))
        boxes = [move.box for move in moves if isinstance(move, Write | Scratch)]
        return max(moves, key=lambda move: self._worth(view, move, boxes))

    def _throw_cost(self, view: View) -> float:
        return self.fence_value if view.config.fences else 0.0

    def _worth(self, view: View, move: Move, boxes: list[Box]) -> float:
        if isinstance(move, Write):
            return self._now(view, move.box)
        if isinstance(move, Scratch):
            return -PAR[move.box]
        assert isinstance(move, Roll)
        expected = expected_points(move.keep, view.config.box_scores)
        return max(expected[box] - PAR[box] for box in boxes) - self._throw_cost(view)

    def _now(self, view: View, box: Box) -> float:
        return score_table(view.config.box_scores)[view.dice][box] - PAR[box]

    def _promise(self, view: View, box: Box) -> float:
        """What announcing ``box`` is expected to bring: now, or after one more throw."""
        box_scores = view.config.box_scores
        best_throw = max(expected_points(keep, box_scores)[box] for keep in KEEPS[view.dice])
        return max(self._now(view, box), best_throw - PAR[box] - self._throw_cost(view))
