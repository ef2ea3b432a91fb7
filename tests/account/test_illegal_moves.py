"""Bad input: every illegal move names its rule and leaves the state unchanged."""

from __future__ import annotations

import copy
import re

import attrs
import pytest

from tabletop_rules import account as r
from tabletop_rules.account import State, check_state, view
from tabletop_rules.account.config import Config
from tabletop_rules.account.moves import Advance, Buy, Die, Place, Roll
from tabletop_rules.errors import IllegalMoveError, InvalidStateError

from .helpers import game, placed, rolled


def test_the_rules_messages() -> None:
    state = rolled(placed(game(["T", "+1", "+10"], players=1, marker_cost=10), 0), 4)
    with pytest.raises(IllegalMoveError, match="distance 5 exceeds the roll of 4"):
        r.apply(state, Advance(0, "left", 5))
    with pytest.raises(IllegalMoveError, match="buying is only allowed before the first roll"):
        r.apply(state, Buy(1))
    full = placed(game(["T", "+1", "+10"], players=2, marker_cost=10, max_markers=3), 0, 0)
    full = r.apply(rolled(full, 1), Advance(0, "right", 1))
    full = r.apply(full, Buy(0))  # seat 1 now owns 2; T pays
    full = r.apply(full, Buy(0))
    with pytest.raises(IllegalMoveError, match="seat 1 owns 3 markers, the limit"):
        r.apply(full, Buy(0))


def refused(state: State, move: object, message: str) -> None:
    """``move`` is refused in ``state`` with exactly ``message``."""
    with pytest.raises(IllegalMoveError, match=f"^{re.escape(message)}$"):
        r.apply(state, move)  # type: ignore[arg-type]


def test_setup_takes_only_the_placing_of_starting_markers() -> None:
    refused(
        game(["+1", "+10"], players=1),
        Roll(),
        "in setup each player places its starting markers ('place' and a column), not 'roll'",
    )


def test_while_the_die_rolls_the_next_move_is_its_outcome() -> None:
    state = r.apply(placed(game(["+1", "+10"], players=1), 0), Roll())
    refused(
        state,
        Advance(0, "right", 1),
        "the die is rolling: the next move is its outcome ('die' and the face shown), "
        "not 'move 0 right 1'",
    )


def test_a_marker_moves_only_by_a_number_rolled() -> None:
    refused(
        placed(game(["+1", "+10"], players=1), 0),
        Advance(0, "left", 1),
        "roll first: 'move 0 left 1' moves a marker by up to the number rolled with 'roll'",
    )


def test_a_roll_waits_for_its_move_before_the_next_roll() -> None:
    refused(
        rolled(placed(game(["+1", "+10"], players=1), 0), 4),
        Roll(),
        "a roll of 4 waits for its move: move a marker ('move') before rolling again",
    )


def test_a_die_outcome_is_a_move_only_while_the_die_rolls() -> None:
    refused(
        placed(game(["+1", "+10"], players=1), 0),
        Die(3),
        "'die 3' is a chance outcome, legal only while the die rolls",
    )


def test_place_is_for_setup_and_in_play_a_marker_is_bought() -> None:
    refused(
        placed(game(["+1", "+10"], players=1), 0),
        Place(1),
        "'place 1' is for the starting markers in setup; in play a marker is bought ('buy 1')",
    )


@pytest.mark.parametrize(
    "move",
    [
        None,
        "roll",
        3,
        Roll,
        object(),
        (Advance, 0, "left", 1),
    ],
)
def test_objects_that_are_no_moves_are_refused(move: object) -> None:
    state = placed(game(["+1", "+10"], players=1), 0)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError):
        r.apply(state, move)  # type: ignore[arg-type]
    assert state == before


@pytest.mark.parametrize(
    "build",
    [
        lambda: Advance(0, "up", 1),  # type: ignore[arg-type]
        lambda: Advance(0, "left", 0),
        lambda: Advance(0, "left", 7),
        lambda: Advance(-1, "left", 1),
        lambda: Advance(True, "left", 1),
        lambda: Place(-1),
        lambda: Place(20),
        lambda: Buy("1"),  # type: ignore[arg-type]
        lambda: Die(0),
        lambda: Die(7),
    ],
)
def test_malformed_moves_are_refused_at_construction(build: object) -> None:
    with pytest.raises(IllegalMoveError):
        build()  # type: ignore[operator]


def test_a_subclass_of_a_move_is_refused() -> None:
    @attrs.frozen
    class Sneaky(Roll):
        pass

    state = placed(game(["+1", "+10"], players=1), 0)
    with pytest.raises(IllegalMoveError):
        r.apply(state, Sneaky())


def test_every_move_is_refused_once_the_game_is_over() -> None:
    state = placed(game(["End", "+1"], players=1), 0)
    assert r.is_over(state)
    for move, text in (
        (Roll(), "roll"),
        (Place(1), "place 1"),
        (Buy(1), "buy 1"),
        (Advance(0, "left", 1), "move 0 left 1"),
        (Die(1), "die 1"),
    ):
        refused(state, move, f"the game is over; '{text}' is not a move")


def test_rule_functions_refuse_what_is_no_state() -> None:
    with pytest.raises(TypeError):
        r.legal_moves("state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        r.score(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        r.is_over(3)  # type: ignore[arg-type]


def test_rule_functions_handed_a_view_say_to_pass_the_state() -> None:
    seen = view(r.new_game(seed=1), 0)
    for function in (r.legal_moves, r.is_over, r.current_player, r.winners, r.score):
        with pytest.raises(TypeError, match=r"got a View: .* pass the State, or determinize"):
            function(seen)  # type: ignore[arg-type]


def test_states_are_built_by_named_fields_only() -> None:
    with pytest.raises(TypeError):
        State(Config(), 0)  # type: ignore[call-arg]


def corrupt(state: State, **changes: object) -> State:
    return attrs.evolve(state, **changes)  # type: ignore[arg-type]


def test_check_state_refuses_inconsistent_states() -> None:
    state = placed(game(["+1", "+10", "-1"], above=[["B", "Z", "P"]], players=2), 0, 1)
    check_state(state)
    bad = [
        corrupt(state, markers=((0,), (5,))),  # a marker off the line
        corrupt(state, markers=((0, 0, 0, 0), (1,))),  # more markers than allowed
        corrupt(state, pack=(*state.pack, state.field[0][0])),  # cards not conserved
        corrupt(state, field=(state.field[0][:1], *state.field[1:])),  # a card lost
        corrupt(state, accounts=(1.5, 10)),  # an account that is no whole number
        corrupt(state, accounts=(True, 10)),
        corrupt(state, roll=7),
        corrupt(state, seat=5),
        corrupt(state, phase="later"),
        corrupt(state, moved=(0, 0)),
        corrupt(state, ending=True),  # ending only under finish_round
        corrupt(state, turns=10_000),
    ]
    for broken in bad:
        with pytest.raises(InvalidStateError):
            check_state(broken)
    floored = placed(game(["-1", "+1"], players=1, floor_at_zero=True), 1)
    with pytest.raises(InvalidStateError, match="below the floor"):
        check_state(corrupt(floored, accounts=(-3,)))


def test_legal_moves_are_the_move_tables_own_instances_and_apply_keeps_them() -> None:
    from tabletop_rules.account.moves import MOVE_TABLE

    assert len(MOVE_TABLE.moves) == 143
    state = rolled(placed(game(["+1", "+10"], players=1), 0), 3)
    for move in r.legal_moves(state):
        assert id(move) in MOVE_TABLE.ids
    equal = Advance(0, "left", 1)
    assert MOVE_TABLE.known(equal) is r.legal_moves(state)[0]
