"""Dice poker as a reader finds it (issue 33): files by subject, no private name read across
modules, one legality path through the transition, and kernel functions that refuse a
wrong argument themselves.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker import rules
from tabletop_rules.dice_poker.view import view as kernel_view
from tabletop_rules.errors import ConfigError, IllegalMoveError, InvalidStateError, SeatError

from .strategies import configs

PACKAGE = Path(dp.__file__).parent


def test_the_game_keeps_its_things_in_files_by_subject() -> None:
    for gone in ("describe", "guide", "hints", "display"):
        assert importlib.util.find_spec(f"tabletop_rules.dice_poker.{gone}") is None, gone
    invariants, notation, table = (
        importlib.import_module(f"tabletop_rules.dice_poker.{name}")
        for name in ("invariants", "notation", "table")
    )
    state = dp.apply(dp.new_game(seed=42), dp.Roll())
    seen = dp.view(state, 0)
    config = state.config
    event = dp.Wrote(1, 0, dp.Box.FIVES, -5)
    assert dp.display(state) == table.display(state)
    assert dp.describe(event, 0) == table.event_text(event, 0) == "P1 wrote -5 in fives (stage 1)"
    assert dp.RULES.rules_summary(config) == table.rules_summary(config)
    assert dp.RULES.notation_summary(config) == table.notation_summary(config)
    assert dp.RULES.hint(seen) == table.hint(seen)
    assert dp.open_box_points is table.open_box_points  # the exported name keeps working
    assert dp.format_move(dp.Roll((5, 5))) == notation.format_move(dp.Roll((5, 5)))
    assert dp.read_move is notation.read_move
    assert callable(notation.json_hooks)
    broken = attrs.evolve(state, turns_played=999)
    found: list[str] = []
    invariants.check_invariants(broken, found.append)
    assert found
    with pytest.raises(InvalidStateError, match=re.escape(found[0])):
        dp.check_state(broken)
    found.clear()
    invariants.check_view(attrs.evolve(seen, stage=2), found.append)
    assert found


def _private_imports(path: Path) -> list[str]:
    """Each ``from x import _name`` in ``path`` (multi-line imports included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found += [
                f"{node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    offenders = {
        path.name: names for path in PACKAGE.glob("*.py") if (names := _private_imports(path))
    }
    assert offenders == {}


def _states(config: dp.Config, seed: int) -> list[dp.State]:
    """The states of one random game under ``config``, each move drawn from the legal ones."""
    pick = random.Random(seed)
    state = dp.new_game(config, seed=seed)
    states = [state]
    while not dp.is_over(state) and len(states) < 60:
        state = dp.apply(state, pick.choice(dp.legal_moves(state)))
        states.append(state)
    return states


UNLISTED: tuple[dp.Move, ...] = (
    dp.Roll((1, 2, 3, 4, 5)),
    dp.Roll((6, 6, 6, 6, 6, 6)),
    dp.Dice(()),
    dp.Dice((1, 1, 1, 1, 1, 1)),
)
"""Moves of dice poker's classes that no state allows (no action number)."""


def test_one_legality_path_the_transition_refuses_every_move_not_listed() -> None:
    assert not hasattr(rules, "why_illegal")
    assert not hasattr(rules, "apply")


@settings(max_examples=15, deadline=None)
@given(configs(max_players=2, max_stages=1), st.integers(0, 2**32))
def test_the_transition_accepts_exactly_the_listed_moves(config: dp.Config, seed: int) -> None:
    for state in _states(config, seed)[::7]:
        legal = set(dp.legal_moves(state))
        for move in (*dp.ACTIONS, *UNLISTED):
            if move in legal:
                rules.transition(state, move, None)
                continue
            with pytest.raises(IllegalMoveError) as refused:
                rules.transition(state, move, None)
            with pytest.raises(IllegalMoveError) as applied:
                dp.apply(state, move)
            assert str(refused.value) == str(applied.value)


KERNEL_FUNCTIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("legal_moves", rules.legal_moves),
    ("score", rules.score),
    ("current_player", rules.current_player),
    ("chance_probabilities", rules.chance_probabilities),
    ("is_over", rules.is_over),
    ("view", lambda state: kernel_view(state, None)),
]


@pytest.mark.parametrize(
    ("name", "function"), KERNEL_FUNCTIONS, ids=[n for n, _ in KERNEL_FUNCTIONS]
)
def test_kernel_functions_refuse_a_wrong_argument_type_themselves(
    name: str, function: Callable[[Any], Any]
) -> None:
    state = dp.new_game(seed=1)
    with pytest.raises(TypeError, match="expected a dice poker State, got a View"):
        function(dp.view(state, 0))
    with pytest.raises(TypeError, match="expected a dice poker State, got 7"):
        function(7)


def test_the_kernels_view_and_max_moves_refuse_a_wrong_seat_or_config_themselves() -> None:
    state = dp.new_game(seed=1)
    with pytest.raises(SeatError, match="seat must be 0 to 1 or None, got 2"):
        kernel_view(state, 2)
    with pytest.raises(TypeError, match="seat must be an int"):
        kernel_view(state, True)
    with pytest.raises(ConfigError, match="expected a dice poker Config, got 'x'"):
        rules.max_moves("x")  # type: ignore[arg-type]
    assert rules.max_moves(dp.Config()) == dp.max_moves(dp.Config())
