"""Variants of a game for tests of the code that serves every game: the same game under
another name, or with one member broken on purpose, to see that a check catches it.

>>> from tabletop_rules import dice_poker
>>> toy = variant(dice_poker.RULES, name="toy-dice", title="Toy dice")
>>> toy.name, toy.title, dice_poker.RULES.name
('toy-dice', 'Toy dice', 'dice-poker')
>>> toy.legal_moves(toy.new_game(seed=1))[0]
Roll()
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..game import Game

__all__ = ["variant"]

GameT = TypeVar("GameT", bound=Game[Any, Any, Any])


def variant(game: GameT, **members: Any) -> GameT:
    """A copy of ``game`` with each of ``members`` in place of the member of that name: a
    fact (``name="toy-dice"``) or a function called as the member is (``view=lambda
    state, seat: ...``, without ``self``). The copy is not registered; ``game`` is unchanged.
    """
    if not isinstance(game, Game):
        raise TypeError(f"variant() takes a Game, got {type(game).__name__}")
    unknown = sorted(name for name in members if not hasattr(game, name))
    if unknown:
        raise TypeError(f"{game.name} has no member named {', '.join(unknown)}")
    copy: GameT = object.__new__(type(game))
    copy.__dict__.update(vars(game))
    copy.__dict__.update(members)
    if "name" in members:
        copy.noun = copy.name.replace("-", " ")
        copy.a_noun = ("an " if copy.noun[:1] in "aeiou" else "a ") + copy.noun
    return copy
