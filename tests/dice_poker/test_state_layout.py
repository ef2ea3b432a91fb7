"""How rules.py builds states on the hot path: two helpers take by name the fields a
transition sets and set every field of a new State through its slot
(:mod:`tabletop_rules.slots`); each value must land in its own field, and the constructor
must do nothing the helpers skip.
"""

from typing import Any

import attrs

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker import rules
from tabletop_rules.slots import check_plain_constructor


def test_the_state_constructor_only_stores_its_fields() -> None:
    check_plain_constructor(dp.State)


class Marker:
    """A distinct value per field: a field that received another's argument shows it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


def marked_state() -> dp.State:
    fields: dict[str, Any] = {field.name: Marker(field.name) for field in attrs.fields(dp.State)}
    return dp.State(**fields)


def test_mid_turn_sets_each_turn_field_it_names_and_keeps_the_rest() -> None:
    state = marked_state()
    given: dict[str, Any] = {
        name: Marker(f"new {name}")
        for name in ("rng", "dice", "throws_used", "announced", "pending_keep")
    }
    after = rules._mid_turn(state, **given)
    for field in attrs.fields(dp.State):
        expected = given.get(field.name, getattr(state, field.name))
        assert getattr(after, field.name) is expected, field.name


def test_next_turn_sets_the_table_counts_the_turn_and_clears_the_turn_fields() -> None:
    state = dp.apply(dp.apply(dp.new_game(seed=3), dp.Roll()), dp.Roll())
    given: dict[str, Any] = {
        name: Marker(f"new {name}") for name in ("sheets", "open_masks", "totals", "fences")
    }
    after = rules._next_turn(state, **given)
    assert (after.config, after.seed, after.rng) == (state.config, state.seed, state.rng)
    assert (after.sheets, after.open_masks, after.totals, after.fences) == (
        given["sheets"],
        given["open_masks"],
        given["totals"],
        given["fences"],
    )
    assert after.turns_played == state.turns_played + 1
    assert (after.dice, after.throws_used, after.announced, after.pending_keep) == (
        (),
        0,
        None,
        None,
    )


def test_a_built_state_equals_the_one_the_constructor_builds() -> None:
    state = dp.apply(dp.apply(dp.new_game(seed=3), dp.Roll()), dp.Write(dp.Box.CHANCE))
    rebuilt = dp.State(
        **{field.name: getattr(state, field.name) for field in attrs.fields(dp.State)}
    )
    assert state == rebuilt
    assert hash(state) == hash(rebuilt)
    assert repr(state) == repr(rebuilt)
