"""Checks at the entry, plainly: every rule function checks that it was handed a
:class:`~tabletop_rules.palace.State` before it reads anything, and runs the rules with
nothing around them, so a bug in a rule surfaces as the bug it is; ``apply`` recognises
the moves it listed by equality, not by identity.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.palace import rules
from tabletop_rules.palace.events import Played

from .helpers import cards, play, position
from .test_view_input import IDS, STATE_ONLY, STATES


def lookalike(state: p.State) -> SimpleNamespace:
    """An object with every field of ``state``, of another type."""
    return SimpleNamespace(
        **{field.name: getattr(state, field.name) for field in attrs.fields(p.State)}
    )


@pytest.mark.parametrize("where", list(STATES))
@pytest.mark.parametrize(
    ("name", "function"), [*STATE_ONLY, ("view", lambda s: p.view(s, 0))], ids=[*IDS, "view"]
)
def test_checks_at_the_entry_a_lookalike_of_a_state_is_refused_before_anything_is_read(
    name: str, function: Callable[[Any], object], where: str
) -> None:
    # With the type checked only where a read failed, a look-alike holding every field of
    # a state was played on as one.
    with pytest.raises(TypeError, match="expected a palace State, got namespace"):
        function(lookalike(STATES[where]()))


def test_checks_at_the_entry_a_bug_in_a_rule_surfaces_as_the_bug_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = position(hands=["7C 9S", "AD"], pile="5C")

    def broken_rule(*_args: object) -> Any:
        raise IndexError("a bug in a rule")

    def no_state_check(_state: object) -> None:
        raise AssertionError("a rule's bug made the rules check the state")

    monkeypatch.setattr(rules, "refuse_non_state", no_state_check)
    monkeypatch.setattr(p.RULES, "refuse", no_state_check)
    monkeypatch.setattr(rules, "_allowed", broken_rule)
    for entry in (p.legal_moves, lambda s: p.apply(s, play("7C"))):
        with pytest.raises(IndexError, match="a bug in a rule") as error:
            entry(state)
        assert error.value.__cause__ is None
        assert error.value.__context__ is None


def test_checks_at_the_entry_a_move_equal_to_a_listed_one_becomes_the_listed_instance() -> None:
    state = position(hands=["7C 7H 9S", "AD"], pile="5C")
    listed = {repr(move): move for move in p.legal_moves(state) if isinstance(move, p.Play)}
    for move in (play("7C 7H"), p.Play([*cards("7H 7C")]), play("9S")):
        own = listed[repr(move)]
        after, events = p.apply_with_events(state, move)
        laid = [event for event in events if isinstance(event, Played)]
        assert p.canonical(state, move) is own
        assert after.pile[-len(move.cards) :] == own.cards
        assert all(card is p.Card.parse(str(card)) for card in after.pile)
        assert laid[0].cards is own.cards


def test_checks_at_the_entry_a_play_of_other_suits_is_rebuilt_from_the_deck() -> None:
    state = position(hands=["7C 7H 9S", "AD"], pile="5C")
    odd = p.Play(cards("7H"))  # held, equivalent to the listed "play 7C", not equal to it
    assert odd not in p.legal_moves(state)
    after = p.apply(state, odd)
    assert after.pile[-1] is p.Card.parse("7H")
