"""The action codec: every move as a number, for reinforcement learning and search.

Numbers run in blocks, in the order :func:`~tabletop_rules.dice_poker.legal_moves` lists
moves: 210 rolls (by what they keep: nothing, then one die, … four dice), 15 writes,
9 scratches, 15 announcements, then 461 chance outcomes (1 die thrown, … 5 dice).

>>> from tabletop_rules.dice_poker import Box, Dice, Roll, Write
>>> encode(Roll()), encode(Write(Box.ONES)), encode(Dice((1, 1, 1, 1, 1)))
(0, 210, 458)
>>> num_actions(Config())
710
>>> chance_offset(Config()), action_text(Config(), 249), action_text(Config(), 210)
(249, 'dice 1', 'write ones')
"""

from __future__ import annotations

from ..movetable import ActionCodec
from .config import Config
from .moves import MOVE_TABLE, Dice, Move, format_move
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

_CODEC = ActionCodec(MOVE_TABLE, Dice, format_move)

NUM_ACTIONS = _CODEC.size
"""710 actions in every configuration."""


CHANCE_OFFSET = _CODEC.chance_offset
"""249: the chance outcomes (:class:`~tabletop_rules.dice_poker.Dice`) are numbered last,
from here to the end of the action space."""


def num_actions(config: Config) -> int:
    """The size of the action space, chance outcomes included (the same for every config)."""
    return NUM_ACTIONS


def encode(move: Move) -> int:
    """The move's action number. Raises
    :class:`~tabletop_rules.errors.IllegalMoveError` (a ``ValueError``) for a move no
    state allows, and for anything :func:`~tabletop_rules.dice_poker.apply` refuses as no
    move at all.
    """
    return _CODEC.encode(move)


def decode(state: State, action: int) -> Move:
    """The legal move numbered ``action`` in ``state``; ``IllegalMoveError`` otherwise."""
    return _CODEC.decode(state, action, legal_moves)


def legal_mask(state: State) -> tuple[bool, ...]:
    """For each action number, whether its move is legal in ``state``."""
    return _CODEC.mask(legal_moves(state))


def chance_offset(config: Config) -> int:
    """The number of the first chance outcome, 249 in every config: outcomes are
    numbered from there to :func:`num_actions`, every player move below it.
    """
    return CHANCE_OFFSET


def action_text(config: Config, action: int) -> str:
    """The notation of the move numbered ``action``, without a state (the same in every
    config): :func:`~tabletop_rules.dice_poker.parse_move` reads it back in any state
    where the move is legal. Raises :class:`~tabletop_rules.errors.IllegalMoveError` for
    an action that is not a whole number within :func:`num_actions`.
    """
    return _CODEC.text(action)
