"""Bots that play any game: :class:`RandomBot`, seeing views, never states. Each game
adds a stronger one and lists its bots by name in its ruleset's ``bots``.

>>> from tabletop_rules import get_ruleset
>>> rules = get_ruleset("dice-poker")
>>> bot = RandomBot(rules, seed=1)
>>> state = rules.new_game(seed=1)
>>> bot.choose(rules.view(state, 0)) in rules.legal_moves(state)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

import attrs

from .errors import IllegalMoveError
from .game import share_bot
from .protocol import Bot, Ruleset, check_ruleset
from .rng import Rng

__all__ = ["RandomBot", "Unseeded", "legal_moves_of", "own_bot_name"]

MoveT = TypeVar("MoveT")
BotT_co = TypeVar("BotT_co", bound="Bot[Any, Any]", covariant=True)


def legal_moves_of(view: Any) -> tuple[Any, ...]:
    """The legal moves of ``view``'s seat: ``TypeError`` for no view (a state, say),
    :class:`~tabletop_rules.errors.IllegalMoveError` where the seat has no move.
    """
    moves = getattr(view, "legal_moves", None)
    if type(moves) is not tuple:
        raise TypeError(
            f"a bot chooses from a view, view(state, seat), not a {type(view).__name__}"
        )
    if not moves:
        raise IllegalMoveError(
            "a bot moves for the seat on turn: in this view the game is over, waits for a "
            "chance outcome, or another seat is to move"
        )
    return moves


def own_bot_name(ruleset: Ruleset[Any, Any, Any]) -> str:
    """The game's own bot in ``ruleset.bots`` (``"random"`` where it has none): the
    opponent a person meets when they choose none.

    >>> from tabletop_rules import get_ruleset
    >>> own_bot_name(get_ruleset("palace"))
    'lowcard'
    """
    return next((name for name in check_ruleset(ruleset).bots if name != "random"), "random")


class RandomBot(Generic[MoveT]):
    """Plays a uniformly random legal move: the same seed and views give the same moves on
    every Python version; it keeps its generator between calls, so it is not a value.
    """

    def __init__(self, ruleset: Ruleset[Any, Any, MoveT], seed: int = 0) -> None:
        self.ruleset = ruleset
        self._rng = Rng.from_seed(seed)

    def choose(self, view: Any) -> MoveT:
        """A uniformly random move of ``view.legal_moves``, the moves of the view's seat."""
        moves = legal_moves_of(view)
        index, self._rng = self._rng.below(len(moves))
        return cast(MoveT, moves[index])

    def __repr__(self) -> str:
        return f"RandomBot({self.ruleset.name!r})"


@attrs.frozen
class Unseeded(Generic[BotT_co]):
    """The bot factory of a bot that draws no random numbers: each call makes a new
    ``make()`` (a class or module-level function, so that it pickles), the seed unused.

    >>> from tabletop_rules.dice_poker import GreedyBot
    >>> Unseeded(GreedyBot)(seed=7).fence_value
    1.5
    """

    make: Callable[[], BotT_co]

    def __call__(self, seed: int) -> BotT_co:
        """A new bot; ``seed`` is there to fit every bot factory and is not used."""
        return self.make()


share_bot("random", RandomBot)
