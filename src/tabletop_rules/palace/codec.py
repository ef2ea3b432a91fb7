"""The action codec: each class of equivalent moves as a number (a play by rank and count,
whatever its suits), for reinforcement learning and search; the numbering is on the API
page.
"""

from __future__ import annotations

from .._messages import short_repr
from .._movetable import check_action
from .._validation import check_type
from ..errors import ConfigError, IllegalMoveError
from .cards import DECK, RANK_TEXT, Card, Rank
from .config import ROW, Config
from .moves import END_TURN, READY, TAKE_PILE, Move, Play, PlayBlind, Swap, format_move, known_move
from .rules import legal_moves
from .state import State

__all__ = [
    "PLAY_BASE",
    "SWAP_BASE",
    "action_text",
    "chance_offset",
    "decode",
    "encode",
    "legal_mask",
    "num_actions",
]

_INDEX: dict[Card, int] = {card: index for index, card in enumerate(DECK)}
_RANKS = 13
_SUITS_PER_DECK = 4
_FIELDLESS = {type(READY): 0, type(TAKE_PILE): 1, type(END_TURN): 2}
_BLIND_BASE = 3
SWAP_BASE = _BLIND_BASE + ROW
"""The number of the first swap (6)."""
PLAY_BASE = SWAP_BASE + len(DECK) * len(DECK)
"""The number of the first play (2710): one 2."""


def num_actions(config: Config) -> int:
    """The size of the action space: 2710 plus 52 plays per deck (one per rank and count)."""
    check_type(config, (Config,), ConfigError)
    return PLAY_BASE + _RANKS * _SUITS_PER_DECK * config.decks


def _play_number(rank: Rank, count: int) -> int:
    return PLAY_BASE + _RANKS * (count - 1) + (rank - 2)


def encode(move: Move) -> int:
    """The number of ``move``'s class, the same for every play of one rank and count (no
    state needed); ``IllegalMoveError`` for what is no palace move or a play of two ranks.
    """
    move = known_move(move)
    number = _FIELDLESS.get(type(move))
    if number is not None:
        return number
    if isinstance(move, PlayBlind):
        return _BLIND_BASE + move.slot
    if isinstance(move, Swap):
        return SWAP_BASE + len(DECK) * _INDEX[move.hand_card] + _INDEX[move.face_up_card]
    assert isinstance(move, Play)
    cards = move.cards
    rank = cards[0].rank
    if any(card.rank != rank for card in cards):
        raise IllegalMoveError(
            f"'{format_move(move)}' has no action number: a play lays cards of one rank"
        )
    return _play_number(rank, len(cards))


def _numbered(state: State) -> dict[int, Move]:
    if type(state) is not State:
        raise TypeError(f"expected a palace State, got {short_repr(state)}")
    return {encode(move): move for move in legal_moves(state)}


def decode(state: State, action: int) -> Move:
    """The move :func:`~tabletop_rules.palace.legal_moves` lists in ``state`` for the
    class numbered ``action``; :class:`~tabletop_rules.errors.IllegalMoveError` for an
    action that is not a whole number within :func:`num_actions`, or not legal here.
    """
    legal = _numbered(state)
    move = legal.get(check_action(action, num_actions(state.config)))
    if move is None:
        raise IllegalMoveError(f"action {action} is not legal in this state")
    return move


def legal_mask(state: State) -> tuple[bool, ...]:
    """For each action number, whether its class has a legal move in ``state``."""
    legal = _numbered(state)
    mask = [False] * num_actions(state.config)
    for number in legal:
        mask[number] = True
    return tuple(mask)


def chance_offset(config: Config) -> int:
    """Where chance outcomes would start: :func:`num_actions`, as palace has none (the
    deal is the only random event, and it is not a chance point).
    """
    return num_actions(config)


_WORDS = ("ready", "take", "end")


def action_text(config: Config, action: int) -> str:
    """The notation of the class numbered ``action``, without a state: a play class as its
    ranks only (``play 7 7``, which :func:`~tabletop_rules.palace.parse_move` reads as the
    player's own cards), a swap as its two cards, the others as ``format_move`` writes them.
    """
    check_action(action, num_actions(config))
    if action < _BLIND_BASE:
        return _WORDS[action]
    if action < SWAP_BASE:
        return f"blind {action - _BLIND_BASE}"
    if action < PLAY_BASE:
        hand_index, up_index = divmod(action - SWAP_BASE, len(DECK))
        return f"swap {DECK[hand_index]} {DECK[up_index]}"
    count, rank = divmod(action - PLAY_BASE, _RANKS)
    return "play " + " ".join([RANK_TEXT[rank + 2]] * (count + 1))
