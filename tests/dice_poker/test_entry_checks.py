"""Issue 17, points 2 and 3 for dice poker: one state builder, shared by every game, and
checks at the entry, plainly: each entry point checks its argument's type first, the
rules run with no ``except`` around them, and ``apply`` recognises a move by equality.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import TabletopError
from tabletop_rules.testing.checks import check_entry_points_check_the_state_type_first

from .helpers import start, throw

PACKAGE = Path(dp.__file__).parent


def test_one_state_builder_dice_poker_builds_no_state_through_slots_of_its_own() -> None:
    # States and views are built by tabletop_rules._slots.replacer/maker, the builders
    # every game shares: no module of the game sets slots itself.
    for path in sorted(PACKAGE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "slot_setters" not in text, path.name
        assert "object.__new__" not in text, path.name


def test_checks_at_the_entry_recognise_moves_by_equality_not_identity() -> None:
    for name in ("rules.py", "view.py"):
        text = (PACKAGE / name).read_text(encoding="utf-8")
        assert not re.search(r"\bid\(", text), name
        assert "except Exception as" not in text, name


class NotState(dp.State):
    """Every field of a State, but not of the class State."""

    __slots__ = ()


def stand_in(state: dp.State) -> Any:
    """An object of another class that holds every field of ``state``."""
    other = object.__new__(NotState)
    for field in attrs.fields(dp.State):
        object.__setattr__(other, field.name, getattr(state, field.name))
    return other


@pytest.mark.parametrize("dice", [None, (2, 3, 6, 6, 6)], ids=["before-a-throw", "thrown"])
def test_checks_at_the_entry_refuse_what_has_every_state_field_but_is_no_state(
    dice: tuple[int, ...] | None,
) -> None:
    state = start() if dice is None else throw(start(), dice)
    other = stand_in(state)
    entry_points: dict[str, Any] = {
        "legal_moves": dp.legal_moves,
        "apply": lambda odd: dp.apply(odd, dp.Roll()),
        "apply_with_events": lambda odd: dp.apply_with_events(odd, dp.Roll()),
        "canonical": lambda odd: dp.canonical(odd, dp.Roll()),
        "chance_probabilities": dp.chance_probabilities,
        "score": dp.score,
        "current_player": dp.current_player,
        "is_over": dp.is_over,
        "winners": dp.winners,
        "view": lambda odd: dp.view(odd, 0),
    }
    for name, function in entry_points.items():
        with pytest.raises(TypeError) as caught:
            function(other)
        assert "expected a dice poker State, got" in str(caught.value), name
        function(state)  # the State itself is fine
    check_entry_points_check_the_state_type_first(dp.RULES, state)


def test_checks_at_the_entry_keep_the_message_for_a_view() -> None:
    seen: Any = dp.view(throw(start(), (2, 3, 6, 6, 6)), 0)
    for function in (dp.legal_moves, dp.is_over, dp.score, dp.chance_probabilities):
        with pytest.raises(TypeError, match="got a View: a view is what one seat may see"):
            function(seen)
    with pytest.raises(TypeError, match="got a View: a view is what one seat may see"):
        dp.apply(seen, dp.Roll())


def test_checks_at_the_entry_let_a_failure_inside_the_rules_surface_as_itself() -> None:
    # A State whose dice are no dice is outside the contract (run check_state on what was
    # built by hand): the rules are not wrapped in an except that would report what
    # fails inside them as something else.
    broken = attrs.evolve(throw(start(), (2, 3, 6, 6, 6)), dice=(9, 9, 9, 9, 9))
    for function in (dp.legal_moves, lambda state: dp.apply(state, dp.Write(dp.Box.CHANCE))):
        with pytest.raises(KeyError) as caught:
            function(broken)
        assert not isinstance(caught.value, TabletopError)


def test_checks_at_the_entry_apply_holds_the_listed_instance_of_an_equal_move() -> None:
    state = throw(start(), (2, 3, 6, 6, 6))
    listed = {move: move for move in dp.legal_moves(state)}
    for move in dp.legal_moves(state):
        for equal in (copy.copy(move), attrs.evolve(move)):
            assert equal is not move
            assert dp.apply(state, equal) == dp.apply(state, move)
            assert dp.canonical(state, equal) is listed[move]
