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
from tabletop_rules.game import exported_names
from tabletop_rules.palace import invariants, notation, rules, table
from tabletop_rules.palace.events import EVENT_TYPES
from tabletop_rules.palace.moves import MOVE_TABLE, MOVE_TYPES
from tabletop_rules.palace.state import Pending
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


def test_the_package_exports_the_shared_set_and_its_own_types_and_bots_only() -> None:
    own = {kind.__name__ for kind in (*MOVE_TYPES, *EVENT_TYPES)}
    own |= {"Card", "Deal", "MAX_PLAYERS", "LowCardBot", "PalaceSearchBot", "Palace"}
    assert set(p.__all__) == set(exported_names()) | own
    assert len(p.__all__) == len(set(p.__all__)) <= 65
    for name in p.__all__:
        assert getattr(p, name) is not None, name


# Each name the package no longer exports, by the submodule that holds it now.
MOVED = {
    "cards": "BONUS_RANKS DECK NATURAL_RANKS RANKS Rank SUITS Suit is_card own_card",
    "config": "CARDS_PER_DECK FacePlay FirstPlayer MAX_DECKS MAX_HAND_SIZE MAX_TURNS MustBeat "
    "PlayUntil Quad ROW",
    "events": "EVENT_TYPES Source",
    "moves": "MAX_PLAY MOVE_TYPES PLAY_BASE SWAP_BASE Slot known_move",
    "state": "Hand MAX_SWAPS Pending Phase Row",
    "rules": "EXTRA_PLAY_MOST first_player",
    "invariants": "fitting_deal",
    "table": "PILE_SHOWN WIDTH playable_ranks",
    "bots": "cards_left_value lowcard_move",
}


@pytest.mark.parametrize(
    ("module", "name"),
    [(module, name) for module, names in MOVED.items() for name in names.split()],
)
def test_a_moved_name_is_in_its_submodule_and_for_one_release_in_the_package_with_a_warning(
    module: str, name: str
) -> None:
    home = importlib.import_module(f"tabletop_rules.palace.{module}")
    assert name not in p.__all__
    with pytest.warns(DeprecationWarning, match=rf"use tabletop_rules\.palace\.{module}\.{name}$"):
        found = getattr(p, name)
    assert found is getattr(home, name)


def test_the_deprecated_table_text_is_the_tables_display_with_a_warning() -> None:
    state = p.new_game(seed=4)
    with pytest.warns(DeprecationWarning, match=r"use tabletop_rules\.palace\.table\.display"):
        table_text = p.table_text
    assert table_text is table.display
    assert table_text(state) == p.display(state) == table.display(state)


def test_a_name_neither_exported_nor_moved_is_no_attribute_of_the_package() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Kernel'"):
        _ = p.Kernel


def test_the_package_functions_read_the_same_as_the_submodules() -> None:
    state = p.new_game(seed=4)
    assert p.display(state) == table.display(state)
    assert p.format_move(p.Ready()) == notation.format_move(p.Ready()) == "ready"
    assert p.read_move("take") is p.read_move("take") == p.TakePile()
    assert table.playable_ranks(p.view(state, 0)) == ()
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
def test_transition_itself_refuses_what_is_no_palace_move(pending: Pending, pile: str) -> None:
    config = p.Config(quad="extra_play")
    state = position(config, hands=["5H 6H", "7H"], pile=pile, pending=pending)
    for move in ("end", object(), _Play((p.Card.parse("5H"),))):
        with pytest.raises(IllegalMoveError, match="is not a palace move"):
            rules.transition(state, move, None)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match="is not a palace move"):
            p.apply(state, move)  # type: ignore[arg-type]
