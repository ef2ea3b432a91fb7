"""The palace package is laid out as every game is (issue 33): one file per subject, no
module reading another's private names, one legality path through ``transition``, and
kernel functions that refuse a wrong argument themselves.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError, IllegalMoveError, SeatError
from tabletop_rules.palace import invariants, notation, rules, table
from tabletop_rules.palace.moves import MOVE_TABLE
from tabletop_rules.palace.view import view as view_of
from tabletop_rules.rng import Rng

from .helpers import position

PACKAGE = Path(p.__file__).parent


def test_each_subject_has_its_own_file_the_same_in_every_game() -> None:
    assert callable(invariants.check_invariants)
    assert callable(invariants.fitting_deal)
    for name in ("format_move", "read_move", "action_text", "json_hooks"):
        assert callable(getattr(notation, name)), name
    for name in ("display", "event_text", "rules_summary", "notation_summary", "hint"):
        assert callable(getattr(table, name)), name
    for gone in ("display", "describe", "guide", "hints"):
        assert importlib.util.find_spec(f"tabletop_rules.palace.{gone}") is None, gone


def test_the_moved_names_still_reach_users_from_the_package() -> None:
    state = p.new_game(seed=4)
    assert p.display(state) == table.display(state)
    assert (p.WIDTH, p.PILE_SHOWN) == (table.WIDTH, table.PILE_SHOWN)
    assert p.format_move(p.Ready()) == notation.format_move(p.Ready()) == "ready"
    assert p.read_move("take") is p.read_move("take") == p.TakePile()
    assert p.playable_ranks(p.view(state, 0)) == table.playable_ranks(p.view(state, 0)) == ()
    assert p.fitting_deal is invariants.fitting_deal
    event = p.Readied(1)
    assert p.describe(event, 1) == table.event_text(event, 1) == "You are ready"


def _private_imports(path: Path) -> list[str]:
    return [
        f"{path.name}: from {node.module} import {alias.name}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        for name in (alias.name, alias.asname or "")
        if name.startswith("_") and not name.startswith("__")
    ]


def test_no_module_imports_another_modules_private_name() -> None:
    found = [line for path in sorted(PACKAGE.glob("*.py")) for line in _private_imports(path)]
    assert found == []


def test_the_kernel_functions_refuse_a_wrong_argument_themselves() -> None:
    state = p.new_game(seed=1)
    seen = p.view(state, 0)
    for function in (rules.legal_moves, rules.score, rules.current_player, rules.winners):
        with pytest.raises(TypeError, match="expected a palace State"):
            function(seen)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="expected a palace State, got 7"):
            function(7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got a View"):
        view_of(seen, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat must be an int"):
        view_of(state, True)
    with pytest.raises(SeatError, match="seat must be 0 to 1 or None, got 2"):
        view_of(state, 2)
    with pytest.raises(ConfigError, match="expected a palace Config, got 'big'"):
        rules.max_moves("big")  # type: ignore[arg-type]
    assert rules.max_moves(p.Config()) == p.max_moves(p.Config())


def _states() -> list[p.State]:
    """States of random playouts under house rules that open every branch of the rules."""
    found = []
    for config in (
        p.Config(),
        p.Config(players=3, quad="extra_play", face_up_play="from_table", hand_size=1),
        p.Config(must_beat="higher", voluntary_pickup=True, play_until="last", decks=2),
    ):
        for seed in range(3):
            state, rng = p.new_game(config, seed=seed), Rng.from_seed(seed)
            found.append(state)
            while not p.is_over(state) and len(found) < 300 * (seed + 1):
                moves = p.legal_moves(state)
                index, rng = rng.below(len(moves))
                state = p.apply(state, moves[index])
                found.append(state)
    return found


def test_transition_alone_refuses_every_move_legal_moves_does_not_list() -> None:
    for state in _states()[::5]:
        legal = rules.legal_moves(state)
        for move in (*MOVE_TABLE.moves[:60], *MOVE_TABLE.moves[2700:], *legal):
            refusal = _refusal(state, move)
            if refusal is None:  # a play of held cards stands for the listed one of its kind
                assert rules.canonical(state, move) in legal, f"transition accepts {move}"
            else:
                assert move not in legal, (move, refusal)
                assert refusal, move


def _refusal(state: p.State, move: p.Move) -> str | None:
    """What ``transition`` says against ``move``, ``None`` if it plays it."""
    try:
        rules.transition(state, move, None)
    except IllegalMoveError as error:
        return str(error)
    return None


class _Play(p.Play):
    """A subclass is no palace move."""


@pytest.mark.parametrize(
    ("pending", "pile"), [("none", "9C"), ("extra", "9C 9D 9H 9S"), ("take", "3C")]
)
def test_transition_itself_refuses_what_is_no_palace_move(pending: p.Pending, pile: str) -> None:
    config = p.Config(quad="extra_play")
    state = position(config, hands=["5H 6H", "7H"], pile=pile, pending=pending)
    for move in ("end", object(), _Play((p.Card.parse("5H"),))):
        with pytest.raises(IllegalMoveError, match="is not a palace move"):
            rules.transition(state, move, None)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match="is not a palace move"):
            p.apply(state, move)  # type: ignore[arg-type]
