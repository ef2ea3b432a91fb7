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

from math import exp

import attrs

from .._messages import short_repr
from ..bots import legal_moves_of
from ..errors import IllegalMoveError
from ..protocol import get_ruleset
from ..rng import Rng
from ..search import SearchBot
from .cards import BONUS_RANKS, Card
from .moves import END_TURN, TAKE_PILE, Move, Play, PlayBlind, Ready, Swap
from .state import Phase, State, View

__all__ = ["LowCardBot", "PalaceSearchBot", "cards_left_value", "lowcard_move"]

_SEARCH_ITERATIONS = 100
_SEARCH_ROLLOUT = 10
_SEARCH_GUESSES: int | None = 16
_CARD_SCALE = 3.0
_BONUS_LOAD = 0.5

_BONUS_VALUE = {3: 15, 2: 16, 10: 17}


def keep_value(card: Card) -> int:
    """How much a card is worth keeping: its rank, a bonus card above them (3, 2, then 10)."""
    return _BONUS_VALUE.get(card.rank, card.rank)


@attrs.define(eq=False)
class LowCardBot:
    """Plays its lowest natural cards first and keeps its bonus cards for need, from its view.

    - Swap phase: swap the best hand card for the worst face-up card while the hand card
      is worth more to keep (:func:`~tabletop_rules.palace.bots.keep_value`); then ready.
    - The lowest natural rank it may play, every card of it the play allows; after four
      of a kind another natural set, else end the turn.
    - Only bonus cards: a 10 on a pile of ``burn_at`` cards or more; else a 3 on a pile of
      ``three_at`` or more (the next player must take it); else a 2, a 3, a 10, in that
      order (all of that rank once the stock is gone, else one).
    - Nothing to play: take the pile. Only face-down cards: the lowest slot.
    """

    burn_at: int = 10
    three_at: int = 6

    def choose(self, view: View) -> Move:
        """The move for the view's seat, which must be on turn."""
        moves, pile = legal_moves_of(view), len(view.pile)
        return lowcard_move(moves, view.phase, pile, view.stock_size, self.burn_at, self.three_at)


def lowcard_move(
    moves: tuple[Move, ...],
    phase: Phase,
    pile: int,
    stock: int,
    burn_at: int = 10,
    three_at: int = 6,
) -> Move:
    """:class:`LowCardBot`'s move among ``moves``, from the little it reads: the phase,
    the pile's and the stock's sizes (the search's rollouts call it on guessed states).
    """
    if phase == "swap":
        return _swap(moves)
    naturals: list[Play] = []
    bonus: list[Play] = []
    blind: PlayBlind | None = None
    for move in moves:  # one pass: rollouts of the search bot call this every move
        if type(move) is Play:
            (bonus if move.rank in BONUS_RANKS else naturals).append(move)
        elif type(move) is PlayBlind and (blind is None or move.slot < blind.slot):
            blind = move
    if blind is not None:
        return blind
    if naturals:  # the most cards of the lowest natural rank
        return min(naturals, key=lambda play: (play.rank, -len(play.cards)))
    if END_TURN in moves:
        return END_TURN
    if bonus:
        return _bonus(bonus, pile, stock, burn_at, three_at)
    if TAKE_PILE not in moves:
        raise IllegalMoveError(f"no palace move to choose from: {short_repr(moves)}")
    return TAKE_PILE


def _swap(moves: tuple[Move, ...]) -> Move:
    gains = [
        move
        for move in moves
        if isinstance(move, Swap) and keep_value(move.hand_card) > keep_value(move.face_up_card)
    ]
    if not gains:
        return next(move for move in moves if isinstance(move, Ready))
    return max(gains, key=lambda move: (keep_value(move.hand_card), -keep_value(move.face_up_card)))


def _bonus(plays: list[Play], pile: int, stock: int, burn_at: int, three_at: int) -> Move:
    ranks = {move.rank for move in plays}
    if pile >= burn_at and 10 in ranks:
        rank = 10
    elif pile >= three_at and 3 in ranks:
        rank = 3
    else:
        rank = next(rank for rank in (2, 3, 10) if rank in ranks)
    options = [move for move in plays if move.rank == rank]
    return (max if stock == 0 else min)(options, key=lambda move: len(move.cards))


def _rollout(state: State, moves: tuple[Move, ...], rng: Rng) -> tuple[Move, Rng]:
    """:func:`lowcard_move` on a guessed state. It draws nothing, so the moves the search
    tries differ in reward by what they change, not by luck.
    """
    if len(moves) == 1:
        return moves[0], rng
    return lowcard_move(moves, state.phase, len(state.pile), len(state.stock)), rng


def cards_left_value(state: State) -> tuple[float, ...]:
    """Each seat's chance to finish first, guessed from the cards it still holds: a
    softmax of minus its load over ``_CARD_SCALE``, each hand, face-up and face-down card
    counting one and a bonus card in hand (2, 3, 10) ``_BONUS_LOAD``.
    """
    if type(state) is not State:
        raise TypeError(f"cards_left_value reads a palace State, got {short_repr(state)}")
    weights = []
    for hand, up, down in zip(state.hands, state.face_up, state.face_down, strict=True):
        held = len(hand) + sum(c is not None for c in up) + sum(c is not None for c in down)
        load = held - (1 - _BONUS_LOAD) * sum(card.rank in BONUS_RANKS for card in hand)
        weights.append(exp(-load / _CARD_SCALE))
    total = sum(weights)
    return tuple(weight / total for weight in weights)


class PalaceSearchBot(SearchBot[Move]):
    """``RULES.bots["search"]``: :class:`LowCardBot`'s swaps, then a
    :class:`~tabletop_rules.search.SearchBot` over 16 guesses of the hidden cards, with
    :class:`LowCardBot`'s rule for the other seats and in rollouts ``_SEARCH_ROLLOUT`` moves
    deep, and :func:`~tabletop_rules.palace.bots.cards_left_value` where they stop.
    """

    def __init__(self, seed: int = 0, iterations: int = _SEARCH_ITERATIONS) -> None:
        super().__init__(
            get_ruleset("palace"),
            seed,
            iterations=iterations,
            rollout=_rollout,
            others=_rollout,
            value=cards_left_value,
            rollout_moves=_SEARCH_ROLLOUT,
            guesses=_SEARCH_GUESSES,
            name="PalaceSearchBot",
        )

    def choose(self, view: View) -> Move:
        """The move for the view's seat, which must be on turn."""
        moves = legal_moves_of(view)
        if view.phase == "swap":
            return _swap(moves)
        return super().choose(view)
