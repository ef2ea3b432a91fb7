"""The action codec: every class of equivalent moves as a number, for reinforcement
learning and search.

Suits never change what palace allows, so a number stands for a class of moves (see
:func:`~tabletop_rules.palace.canonical`): a :class:`~tabletop_rules.palace.Play` is
numbered by its rank and count, whatever its suits. The numbers run in blocks:

============  =========================================  =====================================
numbers       moves                                      order
============  =========================================  =====================================
0             :class:`~tabletop_rules.palace.Ready`
1             :class:`~tabletop_rules.palace.TakePile`
2             :class:`~tabletop_rules.palace.EndTurn`
3 to 5        :class:`~tabletop_rules.palace.PlayBlind`  by slot
6 to 2709     :class:`~tabletop_rules.palace.Swap`       by hand card, then face-up card, each
                                                         by its place in
                                                         :data:`~tabletop_rules.palace.cards.DECK`
                                                         (52 x 52; a swap of equal cards is
                                                         never legal)
2710 onwards  :class:`~tabletop_rules.palace.Play`       by count, then rank: ``2710 + 13 x
                                                         (count - 1) + (rank - 2)``, counts 1
                                                         to 4 x ``decks``
============  =========================================  =====================================

So :func:`~tabletop_rules.palace.num_actions` is 2762 with one deck, 2814 with two and 2918
with four; the number of a move does not depend on the configuration, which is why
:func:`~tabletop_rules.palace.encode` takes no state.

>>> from tabletop_rules.palace import Card, Config, Play, Ready
>>> encode(Ready()), encode(Play((Card.parse("7S"), Card.parse("7H"))))
(0, 2728)
>>> num_actions(Config()), num_actions(Config(decks=2))
(2762, 2814)

Palace has no chance points, so :func:`~tabletop_rules.palace.chance_offset` is
:func:`~tabletop_rules.palace.num_actions`. :func:`~tabletop_rules.palace.action_text`
gives an action's text without a state: a play class as its ranks only, which
:func:`~tabletop_rules.palace.parse_move` reads as the player's own cards.

>>> action_text(Config(), 2728), action_text(Config(), 6), action_text(Config(), 1)
('play 7 7', 'swap 2C 2C', 'take')
"""

from __future__ import annotations

from ..errors import ConfigError, IllegalMoveError
from ..messages import short_repr
from ..movetable import check_action
from ..validation import check_type
from .cards import DECK, RANK_TEXT, Card, Rank
from .config import ROW, Config
from .moves import (
    BLIND,
    END_TURN,
    READY,
    TAKE_PILE,
    Move,
    Play,
    PlayBlind,
    Swap,
    format_move,
    known_move,
)
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
    """The number of ``move``'s class: the same for every play of one rank and count.
    Needs no state. Raises :class:`~tabletop_rules.errors.IllegalMoveError` (a
    ``ValueError``) for what is no palace move, and for a play of several ranks, which
    no state allows.
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
    class numbered ``action``. Raises :class:`~tabletop_rules.errors.IllegalMoveError`
    for an action that is not a whole number (``bool`` included) within
    :func:`num_actions`, or whose class has no legal move here.
    """
    if type(state) is not State:
        raise TypeError(f"expected a palace State, got {short_repr(state)}")
    size = num_actions(state.config)
    check_action(action, size)
    move = _listed(legal_moves(state), action)
    if move is None:
        raise IllegalMoveError(f"action {action} is not legal in this state")
    return move


def _listed(legal: tuple[Move, ...], action: int) -> Move | None:
    """The move of ``legal`` numbered ``action``, found without numbering every move."""
    if action < _BLIND_BASE:
        wanted: Move = (READY, TAKE_PILE, END_TURN)[action]
    elif action < SWAP_BASE:
        wanted = BLIND[action - _BLIND_BASE]
    elif action < PLAY_BASE:
        hand_index, up_index = divmod(action - SWAP_BASE, len(DECK))
        hand_card, up_card = DECK[hand_index], DECK[up_index]
        for move in legal:
            if type(move) is Swap and move.hand_card is hand_card and move.face_up_card is up_card:
                return move
        return None
    else:
        count, rank = divmod(action - PLAY_BASE, _RANKS)
        count, rank = count + 1, rank + 2
        for move in legal:
            if type(move) is Play and len(move.cards) == count and move.cards[0].rank == rank:
                return move
        return None
    return wanted if wanted in legal else None


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
    """The notation of the class numbered ``action`` under ``config``, without a state.

    A play class reads as its ranks only (``play 7 7``: two 7s of whatever suits), which
    :func:`~tabletop_rules.palace.parse_move` reads in a state as the listed play of the
    player's own cards; a swap as its two cards (``swap 4H QS``; the numbers of a swap of
    two equal cards, which no state allows, read the same way); the others as
    :func:`~tabletop_rules.palace.format_move` writes them. Raises
    :class:`~tabletop_rules.errors.IllegalMoveError` for an action that is not a whole
    number within :func:`num_actions`.
    """
    check_type(config, (Config,), ConfigError)
    size = num_actions(config)
    check_action(action, size)
    if action < _BLIND_BASE:
        return _WORDS[action]
    if action < SWAP_BASE:
        return f"blind {action - _BLIND_BASE}"
    if action < PLAY_BASE:
        hand_index, up_index = divmod(action - SWAP_BASE, len(DECK))
        return f"swap {DECK[hand_index]} {DECK[up_index]}"
    count, rank = divmod(action - PLAY_BASE, _RANKS)
    return "play " + " ".join([RANK_TEXT[rank + 2]] * (count + 1))
