"""Dice poker as a reader finds it (issue 33): files by subject, a package exporting the
shared set and its own classes only (the names that moved found in their submodules), no
private name read across modules, one legality path through the transition, and kernel
functions that refuse a wrong argument themselves.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import itertools
import random
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker import rules
from tabletop_rules.dice_poker.moves import ACTIONS
from tabletop_rules.dice_poker.view import view as kernel_view
from tabletop_rules.errors import (
    ConfigError,
    IllegalMoveError,
    InvalidStateError,
    SeatError,
    TabletopError,
)
from tabletop_rules.game import exported_functions, exported_names

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
    assert table.open_box_points(seen)[dp.Box.FIVES] == -5
    assert dp.format_move(dp.Roll((5, 5))) == notation.format_move(dp.Roll((5, 5)))
    assert dp.read_move is notation.read_move
    assert callable(notation.json_hooks)
    broken = attrs.evolve(state, turns_played=999)
    found: list[str] = []
    invariants.check_invariants(broken, found.append)
    assert found
    with pytest.raises(InvalidStateError, match=re.escape(found[0])):
        dp.check_state(broken)
    with pytest.raises(InvalidStateError, match=r"field stage does not follow"):
        dp.check_view(attrs.evolve(seen, stage=2))


def test_the_package_exports_the_shared_set_and_its_own_classes_only() -> None:
    own = {
        *(kind.__name__ for kind in (*dp.RULES.move_types, *dp.RULES.event_types)),
        *("DicePoker", "Box", "Deal", "MAX_PLAYERS", "GreedyBot", "CoachBot"),
    }
    assert len(dp.__all__) == len(set(dp.__all__)) <= 65
    assert set(dp.__all__) == set(exported_names()) | own
    assert type(dp.RULES) is dp.DicePoker
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in dp.__all__:
            getattr(dp, name)  # an exported name is found without a warning
        for name in exported_functions():
            assert getattr(dp, name) == getattr(dp.RULES, name), name


MOVED: list[tuple[str, str, str]] = [
    *((name, "moves", name) for name in ("ACTIONS", "BOXES_PER_STAGE", "CHANCE_OFFSET")),
    *((name, "moves", name) for name in ("DICE_COUNT", "Face", "MOUNTAIN", "MOVE_TABLE")),
    *((name, "moves", name) for name in ("MOVE_TYPES", "NUM_ACTIONS", "POKER_BOXES")),
    ("known_move", "moves", "known_move"),
    ("EVENT_TYPES", "events", "EVENT_TYPES"),
    *((name, "config", name) for name in ("BoxScores", "MAX_FENCES", "MAX_POINTS")),
    *((name, "config", name) for name in ("MAX_STAGES", "MAX_THROWS_PER_TURN")),
    *((name, "config", name) for name in ("STAGE_ORDERS", "StageOrder")),
    *((name, "state", name) for name in ("Cell", "FORMAT_VERSION", "Sheet")),
    *((name, "bots", name) for name in ("PAR", "expected_points")),
    *((name, "coach", name) for name in ("Advice", "BoxChance", "DEFAULT_VALUES", "Fill")),
    *((name, "coach", name) for name in ("HORIZON", "KeepAdvice", "Values", "advice_lines")),
    *((name, "coach", name) for name in ("box_chances", "coach_lines")),
    *((name, "scoring", name) for name in ("mountain_points", "points", "stage_bonus")),
    ("parse_box", "notation", "parse_box"),
    ("open_box_points", "table", "open_box_points"),
    ("sheet_table", "table", "display"),
]
"""Each name the package exported before issue 33 and no longer does: the submodule and
name it is found under now."""


@pytest.mark.parametrize(("old", "submodule", "new"), MOVED, ids=[old for old, _, _ in MOVED])
def test_the_moved_names_still_reach_users_from_the_package(
    old: str, submodule: str, new: str
) -> None:
    assert old not in dp.__all__
    module = importlib.import_module(f"tabletop_rules.dice_poker.{submodule}")
    where = rf"use tabletop_rules\.dice_poker\.{submodule}\.{new}"
    with pytest.warns(
        DeprecationWarning, match=rf"tabletop_rules\.dice_poker\.{old} moved: {where}"
    ):
        found = getattr(dp, old)
    assert found is getattr(module, new)


def test_the_coach_function_is_still_the_packages_coach() -> None:
    """The submodule ``coach`` would take the package's name ``coach`` on import; the
    package sets the function there, as it was before the module shared its name.
    """
    from tabletop_rules.dice_poker.coach import coach

    assert dp.coach is coach


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
        for move in (*ACTIONS, *UNLISTED):
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


BOUND: dict[str, int] = {
    **dict.fromkeys(("legal_moves", "score", "current_player", "is_over"), 1),
    **dict.fromkeys(("chance_probabilities", "max_moves", "format_move", "read_move"), 1),
    "json_hooks": 1,
    **dict.fromkeys(("view", "redeal", "check_invariants", "encode_view", "event_text"), 2),
}
"""The game's own functions ``DicePoker`` binds directly, by their number of arguments."""


@pytest.mark.parametrize(("name", "arity"), BOUND.items(), ids=list(BOUND))
def test_the_functions_bound_in_dice_poker_refuse_odd_arguments(name: str, arity: int) -> None:
    """Called directly, not through the base's entry checks, each raises ``TypeError`` or
    the library's error for what it cannot take, never an ``AttributeError`` from inside."""
    state = dp.new_game(seed=1)
    odd: list[object] = [None, 7, "x", (), object(), dp.view(state, 0), state, dp.Config()]
    function = getattr(dp.RULES, name)
    assert function is getattr(dp.DicePoker, name)  # bound as the module's function itself
    for arguments in itertools.product(odd, repeat=arity):
        try:
            function(*arguments)
        except (TypeError, TabletopError):
            continue
        except Exception as error:  # pragma: no cover - what the test is for
            shown = ", ".join(type(argument).__name__ for argument in arguments)
            pytest.fail(f"{name}({shown}) raised {type(error).__name__}: {error}")


def test_the_kernels_view_and_max_moves_refuse_a_wrong_seat_or_config_themselves() -> None:
    state = dp.new_game(seed=1)
    with pytest.raises(SeatError, match="seat must be 0 to 1 or None, got 2"):
        kernel_view(state, 2)
    with pytest.raises(TypeError, match="seat must be an int"):
        kernel_view(state, True)
    with pytest.raises(ConfigError, match="expected a dice poker Config, got 'x'"):
        rules.max_moves("x")  # type: ignore[arg-type]
    assert rules.max_moves(dp.Config()) == dp.max_moves(dp.Config())
