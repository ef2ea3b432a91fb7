"""The rules build each State and View through the generated builders of
``tabletop_rules.kit``, sound only while the constructors do nothing but store their
fields; what they build must be what the constructors build.
"""

from typing import Any

import attrs

from tabletop_rules import dice_poker as dp
from tabletop_rules._slots import check_plain_constructor


def test_the_state_constructor_only_stores_its_fields() -> None:
    check_plain_constructor(dp.State)


def test_the_view_constructor_only_stores_its_fields() -> None:
    check_plain_constructor(dp.View)


def rebuilt(value: Any) -> Any:
    """``value`` built again through its class's constructor."""
    cls: Any = type(value)
    return cls(**{field.name: getattr(value, field.name) for field in attrs.fields(cls)})


def test_a_built_state_equals_the_one_the_constructor_builds() -> None:
    state = dp.apply(dp.apply(dp.new_game(seed=3), dp.Roll()), dp.Write(dp.Box.CHANCE))
    again = rebuilt(state)
    assert state == again
    assert hash(state) == hash(again)
    assert repr(state) == repr(again)


def test_every_state_of_a_turn_and_its_views_equal_what_the_constructors_build() -> None:
    config = dp.Config(players=2, stages=1, auto_chance=False, stage_orders="announce")
    state = dp.new_game(config, seed=4)
    while not dp.is_over(state):
        for seat in (None, 0, 1):
            seen = dp.view(state, seat)
            assert seen == rebuilt(seen)
            assert repr(seen) == repr(rebuilt(seen))
        state = dp.apply(state, dp.legal_moves(state)[-1])
        assert state == rebuilt(state)
        assert repr(state) == repr(rebuilt(state))
        dp.check_state(state)
