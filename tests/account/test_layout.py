"""The account package is laid out as every game is (issue 33): one file per subject, no
module reading another's private names, one legality path through ``transition``, and
kernel functions that refuse a wrong argument themselves.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

from tabletop_rules import account as a
from tabletop_rules.account import cards, invariants, notation, rules, table
from tabletop_rules.account.moves import MOVE_TABLE, ROLL
from tabletop_rules.account.view import view as kernel_view
from tabletop_rules.errors import ConfigError, IllegalMoveError, SeatError
from tabletop_rules.game import exported_functions, exported_names
from tabletop_rules.rng import Rng

PACKAGE = Path(a.__file__).parent


def test_each_subject_has_its_own_file_the_same_in_every_game() -> None:
    assert callable(invariants.check_invariants)
    assert callable(invariants.check_view)
    for name in ("format_move", "read_move", "json_hooks"):
        assert callable(getattr(notation, name)), name
    for name in ("display", "event_text", "rules_summary", "notation_summary", "hint"):
        assert callable(getattr(table, name)), name
    for gone in ("display", "describe", "guide", "hints"):
        assert importlib.util.find_spec(f"tabletop_rules.account.{gone}") is None, gone


def test_the_package_exports_the_shared_set_and_its_own_classes_only() -> None:
    own = {
        *(kind.__name__ for kind in (*a.RULES.move_types, *a.RULES.event_types)),
        *("Account", "Card", "Deal", "Die", "MAX_PLAYERS"),
        *("AccountSearchBot", "BestCardBot", "PlannerBot"),
    }
    assert len(a.__all__) == len(set(a.__all__)) <= 65
    assert set(a.__all__) == set(exported_names()) | own
    assert type(a.RULES) is a.Account
    for name in exported_functions():
        assert getattr(a, name) == getattr(a.RULES, name), name


@pytest.mark.parametrize(
    ("old", "submodule", "new"),
    [
        ("P", "cards", "PREMIUM_100"),
        ("B", "cards", "CHARGE"),
        ("KINDS", "cards", "KINDS"),
        ("MAX_ROUNDS", "config", "MAX_ROUNDS"),
        ("NUM_ACTIONS", "moves", "NUM_ACTIONS"),
        ("ROLL", "moves", "ROLL"),
        ("Column", "state", "Column"),
        ("line", "rules", "line"),
        ("landings", "table", "landings"),
        ("field_text", "table", "display"),
        ("plan_value", "bots", "plan_value"),
    ],
)
def test_the_moved_names_still_reach_users_from_the_package(
    old: str, submodule: str, new: str
) -> None:
    assert old not in a.__all__
    module = importlib.import_module(f"tabletop_rules.account.{submodule}")
    where = f"use tabletop_rules\\.account\\.{submodule}\\.{new}"
    with pytest.warns(DeprecationWarning, match=rf"tabletop_rules\.account\.{old} moved: {where}"):
        found = getattr(a, old)
    assert found is getattr(module, new)


def test_the_package_functions_are_the_games_members() -> None:
    state = a.new_game(seed=4)
    assert a.display(state) == table.display(state)
    assert a.format_move(a.Roll()) == notation.format_move(a.Roll()) == "roll"
    assert a.read_move("roll") is ROLL
    assert table.landings(a.view(state, 0)) == ()
    event = a.TurnPassed(1)
    assert a.describe(event, 1) == table.event_text(event, 1) == "Your turn"


def _private(name: str | None) -> bool:
    return name is not None and name.startswith("_") and not name.startswith("__")


def _private_imports(path: Path) -> list[str]:
    """Each ``from x import _y`` (or ``import y as _y``) of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}: from {node.module} import {alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if _private(alias.name) or _private(alias.asname)
    ]


def test_no_module_imports_another_modules_private_name() -> None:
    found = [line for path in sorted(PACKAGE.glob("*.py")) for line in _private_imports(path)]
    assert found == []


def test_the_kernel_functions_refuse_a_wrong_argument_themselves() -> None:
    state = a.new_game(seed=1)
    seen = a.view(state, 0)
    for function in (rules.legal_moves, rules.score, rules.current_player, rules.is_over):
        with pytest.raises(TypeError, match="expected an account State"):
            function(seen)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="expected an account State, got 7"):
            function(7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got a View"):
        kernel_view(seen, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat must be an int"):
        kernel_view(state, True)
    with pytest.raises(SeatError, match="seat must be 0 to 1 or None, got 2"):
        kernel_view(state, 2)
    with pytest.raises(ConfigError, match="expected an account Config, got 'big'"):
        rules.max_moves("big")  # type: ignore[arg-type]
    assert rules.max_moves(a.Config()) == a.max_moves(a.Config())


def _states() -> list[a.State]:
    """States of random playouts under house rules that open every branch of the rules."""
    found = []
    for config in (
        a.Config(players=1, rows=2, columns=4, marker_cost=0, collapse=True),
        a.Config(players=2, auto_chance=False, end="finish_round", marker_cost=10),
        a.Config(players=3, columns=3, rows=3, floor_at_zero=True, max_rounds=3),
    ):
        for seed in range(4):
            state, rng = a.new_game(config, seed=seed), Rng.from_seed(seed)
            found.append(state)
            while not a.is_over(state) and len(found) < 400 * (seed + 1):
                moves = a.legal_moves(state)
                index, rng = rng.below(len(moves))
                state = a.apply(state, moves[index])
                found.append(state)
    return found


def test_transition_alone_refuses_every_move_legal_moves_does_not_list() -> None:
    for state in _states()[::3]:
        legal = set(rules.legal_moves(state))
        for move in MOVE_TABLE.moves:
            if move in legal:
                rules.transition(state, move, None)
                continue
            with pytest.raises(IllegalMoveError, match=r"\w"):  # a message naming the rule
                rules.transition(state, move, None)


def test_card_kinds_are_named_for_what_they_do() -> None:
    assert cards.PREMIUM_100.points == 100
    assert cards.PREMIUM_1000.points == 1000
    assert str(cards.CHARGE) == "B"
    assert str(cards.ZERO) == "Z"
    assert str(cards.END) == "End"
    for short in ("P", "T", "B", "Z"):
        assert not hasattr(cards, short), short
