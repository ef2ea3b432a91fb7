"""How palace builds states and views on the hot path: ``_Work.freeze`` and ``view`` make
a new instance with ``object.__new__`` and set every field through its slot, by name
(:mod:`tabletop_rules.slots`), instead of calling the constructor. These tests fail when a
field would be left unset, set from another field, or built otherwise than the
constructor builds it.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.palace import rules
from tabletop_rules.slots import check_plain_constructor

from .helpers import ready_all


class Marker:
    """A distinct value per field: a field that received another's value shows it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


PER_SEAT = ("hands", "known", "face_up", "face_down")  # lists in the scratch copy


def test_freeze_sets_every_field_of_the_state_from_the_scratch_copy() -> None:
    markers = {field.name: Marker(field.name) for field in attrs.fields(p.State)}
    fields: dict[str, Any] = {
        name: (marker,) if name in PER_SEAT else marker for name, marker in markers.items()
    }
    frozen = rules._Work(p.State(**fields), None).freeze()
    assert type(frozen) is p.State
    for name, marker in markers.items():
        value = getattr(frozen, name)
        assert (value[0] if name in PER_SEAT else value) is marker, name


@pytest.mark.parametrize("cls", [p.State, p.View])
def test_the_constructor_only_stores_its_fields(cls: type[Any]) -> None:
    # Bypassing the constructor is sound only while it does nothing but store each field.
    check_plain_constructor(cls)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_view_equals_the_one_the_constructor_builds(seat: int | None) -> None:
    state = ready_all(p.new_game(seed=5))
    seen = p.view(state, seat)
    rebuilt = p.View(**{field.name: getattr(seen, field.name) for field in attrs.fields(p.View)})
    assert seen == rebuilt
    assert hash(seen) == hash(rebuilt)
    assert repr(seen) == repr(rebuilt)


def test_a_frozen_state_equals_the_one_the_constructor_builds() -> None:
    state = ready_all(p.new_game(seed=5))
    state = p.apply(state, p.legal_moves(state)[0])
    rebuilt = p.State(**{field.name: getattr(state, field.name) for field in attrs.fields(p.State)})
    assert state == rebuilt
    assert hash(state) == hash(rebuilt)
    assert repr(state) == repr(rebuilt)
