"""How rules.py builds states on the hot path: ``_Work.freeze`` and ``_rolled`` make a new
State with ``object.__new__`` and set every field through its slot, by name, instead of
calling State(...). These tests fail when a field of State would be left unset or built otherwise
than its constructor builds it.
"""

from __future__ import annotations

from typing import Any

import attrs

from tabletop_rules import account as a
from tabletop_rules.account import rules
from tabletop_rules.slots import check_plain_constructor


class Marker:
    """A distinct value per field: a field that received another's value shows it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


def marked() -> tuple[a.State, dict[str, Any]]:
    fields: dict[str, Any] = {field.name: Marker(field.name) for field in attrs.fields(a.State)}
    return a.State(**fields), fields


def test_freeze_sets_every_field_of_the_state_from_the_scratch_copy() -> None:
    state, fields = marked()
    frozen = rules._Work(state, None).freeze()
    assert type(frozen) is a.State
    for field in attrs.fields(a.State):
        assert getattr(frozen, field.name) is fields[field.name], field.name


def test_rolled_sets_the_roll_and_the_generator_and_keeps_every_other_field() -> None:
    state, fields = marked()
    rng = Marker("new rng")
    fields.update(rng=rng, roll=4, awaiting_die=False)
    after = rules._rolled(state, rng, 4)  # type: ignore[arg-type]
    assert type(after) is a.State
    for field in attrs.fields(a.State):
        assert getattr(after, field.name) is fields[field.name], field.name


def test_the_state_constructor_only_stores_its_fields() -> None:
    # Bypassing State.__init__ is sound only while it does nothing but store each field.
    check_plain_constructor(a.State)


def test_a_frozen_state_equals_the_one_the_constructor_builds() -> None:
    state = a.apply(a.apply(a.apply(a.new_game(seed=5), a.Place(1)), a.Place(2)), a.Roll())
    rebuilt = a.State(**{field.name: getattr(state, field.name) for field in attrs.fields(a.State)})
    assert state == rebuilt
    assert hash(state) == hash(rebuilt)
    assert repr(state) == repr(rebuilt)
