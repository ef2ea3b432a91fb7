"""Dice poker's public functions are its game's members (the set every game exports, read
off :class:`~tabletop_rules.game.Game`), and read text as its notation does.
"""

from __future__ import annotations

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker import notation
from tabletop_rules.game import Game, exported_functions


def test_the_package_functions_are_the_games_members() -> None:
    assert isinstance(dp.RULES, Game)
    assert type(dp.RULES) is dp.DicePoker
    assert {"apply", "legal_moves", "display", "describe", "read_move"} <= set(exported_functions())
    for name in exported_functions():
        assert getattr(dp, name) == getattr(dp.RULES, name), name
    assert dp.RULES.new_game(seed=3) == dp.new_game(dp.Config(), seed=3)


def test_parse_move_reads_text_as_read_move_does() -> None:
    state = dp.new_game(seed=1)
    assert dp.read_move is notation.read_move
    assert dp.read_move("scratch Full-House") == dp.Scratch(dp.Box.FULL_HOUSE)
    assert dp.parse_move(state, "scratch Full-House") is dp.legal_moves(state)[5]
