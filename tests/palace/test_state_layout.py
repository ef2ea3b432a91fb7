"""How palace builds states and views on the hot path: through the builders
``tabletop_rules.kit`` generates for :class:`~tabletop_rules.palace.State` and
:class:`~tabletop_rules.palace.View`, which store each field through its slot instead of
calling the constructor. These tests hold that together through the public API only:
every state a game reaches and every view of it is the value the constructor builds from
the same fields, and a move changes no field a move never changes.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules._slots import check_plain_constructor

from .helpers import ready_all

CONFIGS = [
    p.Config(),
    p.Config(players=3, quad="burn", face_up_play="from_table", must_beat="higher"),
    p.Config(players=4, decks=2, voluntary_pickup=True, play_until="last"),
]


def rebuilt(value: Any) -> Any:
    """``value`` built again by its class's constructor, from its fields by name."""
    cls = type(value)
    return cls(**{field.name: getattr(value, field.name) for field in attrs.fields(cls)})


def assert_as_constructed(value: Any) -> None:
    again = rebuilt(value)
    assert value == again
    assert hash(value) == hash(again)
    assert repr(value) == repr(again)


@pytest.mark.parametrize("cls", [p.State, p.View])
def test_the_constructor_only_stores_its_fields(cls: type[Any]) -> None:
    # Bypassing the constructor is sound only while it does nothing but store each field.
    check_plain_constructor(cls)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_view_equals_the_one_the_constructor_builds(seat: int | None) -> None:
    state = ready_all(p.new_game(seed=5))
    assert_as_constructed(p.view(state, seat))


def test_a_frozen_state_equals_the_one_the_constructor_builds() -> None:
    state = ready_all(p.new_game(seed=5))
    state = p.apply(state, p.legal_moves(state)[0])
    assert_as_constructed(state)


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "three", "four"])
def test_one_state_builder_every_state_and_view_of_a_game_is_the_constructed_one(
    config: p.Config,
) -> None:
    choose = random.Random(17).choice
    for seed in range(3):
        state = p.new_game(config, seed=seed)
        while not p.is_over(state):
            after = p.apply(state, choose(p.legal_moves(state)))
            assert type(after) is p.State
            assert_as_constructed(after)
            p.check_state(after)
            # a move never changes these: each is the very value of the state moved from
            assert after.config is state.config
            assert after.seed == state.seed
            assert after.deal is state.deal
            for seat in (None, *range(config.players)):
                seen = p.view(after, seat)
                assert type(seen) is p.View
                assert_as_constructed(seen)
            state = after
