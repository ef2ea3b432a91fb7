"""The account game's RULES is built by :func:`tabletop_rules.kit.build` (issue 17): every
member is the shell's, or the kernel's rule behind its entry guard, but two measured overrides.
"""

from __future__ import annotations

import warnings
from types import MappingProxyType

import pytest

from tabletop_rules import account as a
from tabletop_rules import kit

DERIVED = (
    "apply", "apply_with_events", "canonical", "winners", "score", "current_player", "view",
    "determinize", "chance_probabilities", "redact", "parse_move", "format_move", "num_actions",
    "encode", "decode", "legal_mask", "chance_offset", "action_text", "observe",
    "observation_spec", "check_state", "check_view", "max_moves", "display",
)  # fmt: skip
OWN = ("legal_moves", "is_over")  # the measured overrides, each checking the state's type
KERNEL = (
    "new_game", "legal_moves", "transition", "score", "current_player", "view", "determinize",
    "format_move", "encode_view", "check_state", "max_moves", "check_view", "display",
    "json_hooks", "deck", "read_move",
)  # fmt: skip


def test_the_account_game_is_built_by_the_kit_with_only_its_measured_overrides() -> None:
    for name in DERIVED:
        member = getattr(a.RULES, name)
        assert name == "view" or getattr(a, name) is member, name
        assert member.__module__ == "tabletop_rules.kit" or hasattr(member, "__wrapped__"), name
    for name in OWN:
        member = getattr(a.RULES, name)
        assert getattr(a, name) is member, name
        assert member.__module__ == "tabletop_rules.account.rules", name
        with pytest.raises(TypeError, match="expected an account State"):
            member(a.view(a.new_game(seed=1), 0))
    for name in KERNEL:
        own = getattr(a.KERNEL, name)
        assert own.__module__.startswith("tabletop_rules.account."), name
    assert a.KERNEL.transition_checks, "apply hands the table's move to the checking transition"
    assert a.new_game.__module__ == "tabletop_rules.account.rules"
    assert a.RULES.new_game(seed=3) == a.new_game(a.Config(), seed=3)
    assert set(DERIVED) <= kit.derived()


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


def test_field_text_is_display_under_its_deprecated_name() -> None:
    state = a.new_game(seed=2)
    with pytest.warns(DeprecationWarning, match="use account.display"):
        old = a.field_text
    assert old(state) == a.display(state)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert a.display is a.RULES.display
    with pytest.raises(AttributeError):
        a.no_such_name  # noqa: B018


def test_every_event_class_is_exported_by_the_package() -> None:
    for kind in a.EVENT_TYPES:
        assert getattr(a, kind.__name__) is kind
        assert kind.__name__ in a.__all__
