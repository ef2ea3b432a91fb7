"""The action codec: every move as a number, for reinforcement learning and search.

Numbers run in blocks, in the order :func:`~tabletop_rules.dice_poker.legal_moves` lists
moves: 210 rolls (by what they keep: nothing, then one die, … four dice), 15 writes,
9 scratches, 15 announcements, then 461 chance outcomes (1 die thrown, … 5 dice).

>>> encode(Roll()), encode(Write(Box.ONES)), encode(Dice((1, 1, 1, 1, 1)))
(0, 210, 458)
>>> num_actions(Config())
710
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from ..errors import IllegalMoveError
from .config import Config
from .moves import DICE_COUNT, POKER_BOXES, Announce, Box, Dice, Move, Roll, Scratch, Write
from .rules import legal_moves
from .state import State

__all__ = ["NUM_ACTIONS", "decode", "encode", "legal_mask", "num_actions"]

_ACTIONS: tuple[Move, ...] = (
    *(
        Roll(keep)
        for size in range(DICE_COUNT)
        for keep in combinations_with_replacement(range(1, 7), size)
    ),
    *(Write(box) for box in Box),
    *(Scratch(box) for box in POKER_BOXES),
    *(Announce(box) for box in Box),
    *(
        Dice(values)
        for size in range(1, DICE_COUNT + 1)
        for values in combinations_with_replacement(range(1, 7), size)
    ),
)
_NUMBERS: dict[Move, int] = {move: number for number, move in enumerate(_ACTIONS)}

NUM_ACTIONS = len(_ACTIONS)
"""710 actions in every configuration."""


def num_actions(config: Config) -> int:
    """The size of the action space, chance outcomes included (the same for every config)."""
    return NUM_ACTIONS


def encode(move: Move) -> int:
    """The move's action number; ``ValueError`` for something no legal move can be."""
    try:
        return _NUMBERS[move]
    except (KeyError, TypeError):
        raise ValueError(f"{move!r} has no action number: no state allows it") from None


def decode(state: State, action: int) -> Move:
    """The legal move numbered ``action`` in ``state``; ``IllegalMoveError`` otherwise."""
    if type(action) is not int:
        raise IllegalMoveError(f"an action is a whole number, not {action!r}")
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalMoveError(f"action {action} is outside the action space 0..{NUM_ACTIONS - 1}")
    move = _ACTIONS[action]
    if move not in legal_moves(state):
        raise IllegalMoveError(f"action {action} ({move!r}) is not legal in this state")
    return move


def legal_mask(state: State) -> tuple[bool, ...]:
    """For each action number, whether its move is legal in ``state``."""
    mask = [False] * NUM_ACTIONS
    for move in legal_moves(state):
        mask[_NUMBERS[move]] = True
    return tuple(mask)
