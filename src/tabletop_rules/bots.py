"""Bots that play any game: :class:`RandomBot`. Each game adds a stronger one of its own.

>>> from tabletop_rules import get_ruleset
>>> rules = get_ruleset("dice-poker")
>>> bot = RandomBot(rules, seed=1)
>>> state = rules.new_game(seed=1)
>>> bot.choose(state) in rules.legal_moves(state)
True
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from .errors import IllegalMoveError
from .protocol import CHANCE, Ruleset
from .rng import Rng

__all__ = ["RandomBot"]

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class RandomBot(Generic[StateT, MoveT]):
    """Plays a uniformly random legal move, from its own seeded generator.

    The bot is reproducible: the same seed and the same states give the same moves on
    every Python version. It keeps its generator between calls, so it is not a value.
    """

    def __init__(self, ruleset: Ruleset[Any, StateT, MoveT], seed: int = 0) -> None:
        self.ruleset = ruleset
        self._rng = Rng.from_seed(seed)

    def choose(self, state: StateT) -> MoveT:
        """A uniformly random legal move of the seat to move."""
        player = self.ruleset.current_player(state)
        if player is None or player == CHANCE:
            raise IllegalMoveError(
                "a bot moves for a seat: the game is over or waits for a chance outcome"
            )
        moves = self.ruleset.legal_moves(state)
        index, self._rng = self._rng.below(len(moves))
        return moves[index]

    def __repr__(self) -> str:
        return f"RandomBot({self.ruleset.name!r})"
