"""The account package's public members beyond the rules: its chances, its event classes
and the deprecated name of its display, each read through the package as a user does.
"""

from __future__ import annotations

import warnings
from types import MappingProxyType

import pytest

from tabletop_rules import account as a


def test_chance_probabilities_are_read_only_and_fresh_for_every_state() -> None:
    state = a.apply(
        a.apply(a.new_game(a.Config(auto_chance=False), seed=1), a.Place(0)), a.Place(1)
    )
    rolling = a.apply(state, a.Roll())
    chances = a.chance_probabilities(rolling)
    assert type(chances) is MappingProxyType
    assert set(chances) == set(a.legal_moves(rolling))
    assert sum(chances.values()) == 1
    with pytest.raises((AttributeError, TypeError)):
        chances.clear()  # type: ignore[attr-defined]
    assert a.chance_probabilities(state) == {}
    assert a.chance_probabilities(rolling) == chances
    assert a.RULES.chance_probabilities(rolling) == chances
    assert a.chance_probabilities(a.apply(state, a.Roll())) is not chances, "fresh each time"


def test_field_text_is_display_under_its_deprecated_name() -> None:
    state = a.new_game(seed=2)
    with pytest.warns(DeprecationWarning, match=r"use tabletop_rules\.account\.table\.display"):
        old = a.field_text
    assert old(state) == a.display(state) == a.RULES.display(state)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert a.display == a.RULES.display
    with pytest.raises(AttributeError):
        a.no_such_name  # noqa: B018


def test_the_old_name_field_text_refuses_what_is_neither_a_state_nor_a_view() -> None:
    with pytest.warns(DeprecationWarning, match="field_text moved"):
        old = a.field_text
    with pytest.raises(TypeError, match="expected an account State or View, got 7"):
        old(7)
    with pytest.raises(TypeError, match="got Config"):
        old(a.Config())


def test_every_event_class_is_exported_by_the_package() -> None:
    assert a.RULES.event_types
    for kind in a.RULES.event_types:
        assert getattr(a, kind.__name__) is kind
        assert kind.__name__ in a.__all__
