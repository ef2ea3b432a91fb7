"""The die: the only chance point."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from typing import Any

import pytest

from tabletop_rules import account as r
from tabletop_rules.account.events import Rolled
from tabletop_rules.account.moves import Advance, Die, Roll
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.protocol import CHANCE

from .helpers import game, placed


def test_with_auto_chance_off_a_roll_is_a_chance_point_of_six_faces_each_one_sixth() -> None:
    state = r.apply(placed(game(["+1", "+10"], players=1), 0), Roll())
    assert r.current_player(state) == CHANCE
    assert r.legal_moves(state) == tuple(Die(value) for value in range(1, 7))
    probabilities = r.chance_probabilities(state)
    assert dict(probabilities) == {Die(value): Fraction(1, 6) for value in range(1, 7)}
    with pytest.raises(IllegalMoveError, match="the die is rolling"):
        r.apply(state, Advance(0, "right", 1))
    after, events = r.apply_with_events(state, Die(4))
    assert after.roll == 4
    assert events == (Rolled(0, 4),)
    assert r.current_player(after) == 0


def test_die_is_refused_outside_a_chance_point() -> None:
    state = placed(game(["+1", "+10"], players=1), 0)
    assert r.chance_probabilities(state) == {}
    with pytest.raises(IllegalMoveError, match="chance outcome"):
        r.apply(state, Die(3))


def test_with_auto_chance_the_roll_throws_the_die_with_the_states_rng() -> None:
    state = placed(game(["+1", "+10"], players=1, auto_chance=True), 0)
    after = r.apply(state, Roll())
    face, rng = state.rng.below(6)
    assert after.roll == face + 1
    assert after.rng == rng
    assert r.current_player(after) == 0
    assert r.chance_probabilities(after) == {}


def test_drawing_from_the_pack_is_not_a_chance_point() -> None:
    state = placed(game(["+1", "B"], pack=["-10"], players=1), 0)
    state = r.apply(r.apply(state, Roll()), Die(1))
    assert r.current_player(state) == 0
    after = r.apply(state, Advance(0, "right", 1))
    assert after.accounts == (1 - 10,)


def test_clearing_chance_probabilities_cannot_empty_a_later_games_outcomes() -> None:
    rolled = r.apply(placed(game(["+1", "+10"], players=1), 0), Roll())
    given: Any = r.chance_probabilities(rolled)
    with contextlib.suppress(TypeError, AttributeError):  # read-only, or a copy: either way
        given.clear()
    later = r.apply(placed(game(["+10", "+1"], players=1), 0), Roll())
    sixths = {Die(value): Fraction(1, 6) for value in range(1, 7)}
    assert dict(r.chance_probabilities(later)) == sixths
    nothing: Any = r.chance_probabilities(placed(game(["+1", "+10"], players=1), 0))
    with contextlib.suppress(TypeError):
        nothing[Die(1)] = Fraction(1)
    assert dict(r.chance_probabilities(placed(game(["+10", "+1"], players=1), 0))) == {}
