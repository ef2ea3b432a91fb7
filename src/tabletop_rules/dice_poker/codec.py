"""The action codec: every move as a number, for reinforcement learning and search.

Numbers run in blocks, in the order :func:`~tabletop_rules.dice_poker.legal_moves` lists
moves: 210 rolls (by what they keep: nothing, then one die, … four dice), 15 writes,
9 scratches, 15 announcements, then 461 chance outcomes (1 die thrown, … 5 dice).

>>> from tabletop_rules.dice_poker import Box, Config, Dice, Roll, Write
>>> from tabletop_rules.dice_poker import action_text, chance_offset, encode, num_actions
>>> encode(Roll()), encode(Write(Box.ONES)), encode(Dice((1, 1, 1, 1, 1)))
(0, 210, 458)
>>> num_actions(Config())
710
>>> chance_offset(Config()), action_text(Config(), 249), action_text(Config(), 210)
(249, 'dice 1', 'write ones')
"""

from __future__ import annotations

from ..movetable import ActionCodec
from .moves import MOVE_TABLE, Dice, format_move

__all__ = ["CHANCE_OFFSET", "NUM_ACTIONS"]

_CODEC = ActionCodec(MOVE_TABLE, Dice, format_move)

NUM_ACTIONS = _CODEC.size
"""710 actions in every configuration."""


CHANCE_OFFSET = _CODEC.chance_offset
"""249: the chance outcomes (:class:`~tabletop_rules.dice_poker.Dice`) are numbered last,
from here to the end of the action space."""
