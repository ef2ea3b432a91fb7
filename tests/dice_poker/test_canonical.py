"""canonical: no two dice poker moves are equivalent, so every legal move is its own."""

from __future__ import annotations

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError


def test_every_legal_move_is_its_own_canonical_move_as_the_listed_instance() -> None:
    state = dp.apply(dp.new_game(seed=42), dp.Roll())
    for move in dp.legal_moves(state):
        assert dp.canonical(state, move) is move
    assert dp.canonical(state, dp.Roll(keep=(5, 5))) in dp.legal_moves(state)


def test_canonical_of_an_illegal_move_names_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="a box is written after a throw"):
        dp.canonical(dp.new_game(seed=1), dp.Write(dp.Box.CHANCE))


def test_canonical_of_what_is_no_move_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="is not a dice poker move"):
        dp.canonical(dp.new_game(seed=1), "roll")  # type: ignore[arg-type]
