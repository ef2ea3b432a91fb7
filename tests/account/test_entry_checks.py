"""Issue 17, points 2 and 3 for the account game: one state builder, and checks at the
entry, plainly: each entry point checks its argument's type first, a bug in a rule
surfaces as the bug it is, and ``apply`` finds the listed move by equality.
"""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from tabletop_rules import account as a
from tabletop_rules import account as r
from tabletop_rules.account import view
from tabletop_rules.errors import InvalidStateError

from .helpers import game, placed, rolled

PACKAGE = Path(a.__file__).parent


def test_one_state_builder_the_account_rules_build_no_state_of_their_own() -> None:
    # States and views are built by the constructors or by slots.replacer / slots.maker;
    # no module of the game sets slots itself.
    for path in sorted(PACKAGE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for builder in ("slot_setters(", "object.__new__(", ".__set__("):
            assert builder not in text, f"{path.name} builds values with {builder}"


def test_checks_at_the_entry_let_a_bug_in_a_rule_surface_as_the_bug_it_is() -> None:
    # States built by hand around the invariants (outside the contract): the rules run on
    # them unwrapped, so what fails inside surfaces as itself, not as "not a state".
    state = a.new_game(seed=1)
    no_seats = attrs.evolve(state, phase="play", markers=())  # legal_moves reads its markers
    no_field = attrs.evolve(state, field=())  # Place reads the card of its column
    for entry, broken in ((r.legal_moves, no_seats), (lambda s: r.apply(s, a.Place(0)), no_field)):
        with pytest.raises(InvalidStateError):
            a.check_state(broken)  # what an entry consulting check_state would raise instead
        with pytest.raises(IndexError, match="tuple index out of range") as raised:
            entry(broken)
        assert raised.value.__cause__ is None
        assert raised.value.__context__ is None


ENTRIES: dict[str, Any] = {
    "legal_moves": r.legal_moves,
    "apply": lambda state: r.apply(state, a.Place(0)),
    "apply_with_events": lambda state: r.apply_with_events(state, a.Place(0)),
    "canonical": lambda state: r.canonical(state, a.Place(0)),
    "chance_probabilities": r.chance_probabilities,
    "score": r.score,
    "current_player": r.current_player,
    "is_over": r.is_over,
    "winners": r.winners,
    "view": lambda state: view(state, 0),
}


@pytest.mark.parametrize("name", ENTRIES)
def test_checks_at_the_entry_refuse_a_view_before_reading_it(name: str) -> None:
    seen = view(a.new_game(seed=1), 0)
    with pytest.raises(TypeError, match=r"got a View: .* pass the State, or determinize"):
        ENTRIES[name](seen)


class LooksLikeAState:
    """Every field a state has, none of its type: refused before a field is read."""

    def __init__(self, state: a.State) -> None:
        self.__dict__.update(
            {field.name: getattr(state, field.name) for field in attrs.fields(a.State)}
        )


@pytest.mark.parametrize("name", ENTRIES)
def test_checks_at_the_entry_refuse_a_look_alike_state(name: str) -> None:
    impostor = LooksLikeAState(a.new_game(seed=1))
    with pytest.raises(TypeError, match=re.escape("expected an account State, got")):
        ENTRIES[name](impostor)


def test_checks_at_the_entry_apply_finds_a_move_equal_to_a_listed_one_by_equality() -> None:
    state = rolled(placed(game(["+1", "+10"], players=1), 0), 3)
    listed = r.legal_moves(state)
    for move in listed:
        for twin in (
            copy.copy(move),
            pickle.loads(pickle.dumps(move)),
            attrs.evolve(move),
        ):
            assert twin is not move
            after, events = r.apply_with_events(state, twin)
            assert (after, events) == r.apply_with_events(state, move)
            assert r.canonical(state, twin) is move
