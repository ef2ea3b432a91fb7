"""The rules build states and views through the shared builders of
``tabletop_rules.kit`` (``replacer(State)``, ``maker(View)``), which bypass the
constructors: sound only while each constructor does nothing but store its fields. These
tests hold that with public checks only, and compare what the rules build with what the
constructors build.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from tabletop_rules import account as a
from tabletop_rules._slots import check_plain_constructor


def test_the_state_constructor_only_stores_its_fields() -> None:
    # Bypassing State.__init__ is sound only while it does nothing but store each field.
    check_plain_constructor(a.State)


def test_the_view_constructor_only_stores_its_fields() -> None:
    check_plain_constructor(a.View)


def _rebuilt(value: object) -> object:
    cls: Any = type(value)
    return cls(**{field.name: getattr(value, field.name) for field in attrs.fields(cls)})


def test_a_frozen_state_equals_the_one_the_constructor_builds() -> None:
    state = a.apply(a.apply(a.apply(a.new_game(seed=5), a.Place(1)), a.Place(2)), a.Roll())
    rebuilt = _rebuilt(state)
    assert state == rebuilt
    assert hash(state) == hash(rebuilt)
    assert repr(state) == repr(rebuilt)


def test_every_state_and_view_of_a_game_equals_the_one_its_constructor_builds() -> None:
    choose = random.Random(4).choice
    for config in (a.Config(), a.Config(auto_chance=False, collapse=False, players=3)):
        state = a.new_game(config, seed=11)
        while True:
            rebuilt = _rebuilt(state)
            assert (state, hash(state), repr(state)) == (rebuilt, hash(rebuilt), repr(rebuilt))
            for seat in (None, *range(config.players)):
                seen = a.view(state, seat)
                again = _rebuilt(seen)
                assert (seen, hash(seen), repr(seen)) == (again, hash(again), repr(again))
            if a.is_over(state):
                break
            state = a.apply(state, choose(a.legal_moves(state)))
