"""The action codec: every account move as a number, for reinforcement learning and
search.

The numbers are the places of the moves in :data:`~tabletop_rules.account.moves.MOVE_TABLE`,
which holds every move of every config, so the layout is the same for every config
(143 actions) and :func:`~tabletop_rules.account.encode` needs no state:

==========  ========================================  ========================================
numbers     moves                                     order
==========  ========================================  ========================================
0 to 19     :class:`~tabletop_rules.account.Place`    by column: ``column``
20 to 39    :class:`~tabletop_rules.account.Buy`      by column: ``20 + column``
40          :class:`~tabletop_rules.account.Roll`
41 to 136   :class:`~tabletop_rules.account.Advance`  by marker, then left before right, then
                                                      distance: ``41 + 12 x marker + 6 x
                                                      (direction is right) + steps - 1``
137 to 142  :class:`~tabletop_rules.account.Die`      by face: ``136 + value``
==========  ========================================  ========================================

A config with fewer columns or markers simply never allows the numbers beyond them.

>>> from tabletop_rules.account import Advance, Config, Die, Place, Roll
>>> encode(Place(0)), encode(Roll()), encode(Advance(1, "right", 2)), encode(Die(6))
(0, 40, 60, 142)
>>> num_actions(Config())
143
>>> chance_offset(Config()), action_text(Config(), 60), action_text(Config(), 142)
(137, 'move 1 right 2', 'die 6')
"""

from __future__ import annotations

from ..movetable import ActionCodec
from ..validation import check_type
from .config import Config
from .moves import MOVE_TABLE, Die, Move, format_move
from .rules import legal_moves
from .state import State

__all__ = [
    "CHANCE_OFFSET",
    "NUM_ACTIONS",
    "action_text",
    "chance_offset",
    "decode",
    "encode",
    "legal_mask",
    "num_actions",
]

_CODEC = ActionCodec(MOVE_TABLE, Die, format_move)

NUM_ACTIONS = _CODEC.size
"""143 actions in every configuration, chance outcomes included."""


CHANCE_OFFSET = _CODEC.chance_offset
"""137: the chance outcomes (:class:`~tabletop_rules.account.Die`) are numbered last, from
here to the end of the action space."""


def num_actions(config: Config) -> int:
    """The size of the action space: 143, the same for every config."""
    return NUM_ACTIONS


def encode(move: Move) -> int:
    """The move's action number; needs no state. Raises
    :class:`~tabletop_rules.errors.IllegalMoveError` (a ``TabletopError``) for what is
    no account move.
    """
    return _CODEC.encode(move)


def decode(state: State, action: int) -> Move:
    """The legal move numbered ``action`` in ``state``, as
    :func:`~tabletop_rules.account.legal_moves` lists it. Raises
    :class:`~tabletop_rules.errors.IllegalMoveError` for an action that is not a whole
    number (``bool`` included) within :func:`num_actions`, or not legal here.
    """
    check_type(state, (State,))
    return _CODEC.decode(state, action, legal_moves)


def legal_mask(state: State) -> tuple[bool, ...]:
    """For each action number, whether its move is legal in ``state``."""
    check_type(state, (State,))
    return _CODEC.mask(legal_moves(state))


def chance_offset(config: Config) -> int:
    """The number of the first chance outcome, 137 in every config: the six
    :class:`~tabletop_rules.account.Die` outcomes are numbered from there to
    :func:`num_actions`, every player move below it.
    """
    return CHANCE_OFFSET


def action_text(config: Config, action: int) -> str:
    """The notation of the move numbered ``action``, without a state (the same in every
    config): :func:`~tabletop_rules.account.parse_move` reads it back in any state where
    the move is legal. Raises :class:`~tabletop_rules.errors.IllegalMoveError` for an
    action that is not a whole number within :func:`num_actions`.
    """
    return _CODEC.text(action)
