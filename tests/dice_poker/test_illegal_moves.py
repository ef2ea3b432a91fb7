"""Illegal moves: an IllegalMoveError that names the rule, and the state left as it was."""

from __future__ import annotations

import copy
from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError

from ..ids import repr_id
from .helpers import (
    all_but,
    assert_illegal,
    full_stage,
    manual,
    position,
    sheet,
    start,
    throw,
    throw_times,
    write,
)
from .strategies import configs

B = dp.Box


def thrown(dice: tuple[int, ...] = (2, 2, 3, 3, 4), **rules: Any) -> dp.State:
    return throw(start(**rules), dice)


def announced(box: dp.Box) -> dp.State:
    return dp.apply(thrown(stage_orders="announce"), dp.Announce(box))


def in_air() -> dp.State:
    return dp.apply(thrown(), dp.Roll((2, 2)))


def finished() -> dp.State:
    config = manual(players=1, stages=1)
    return position(config, [sheet(config, full_stage())])


def chance_filled() -> dp.State:
    return throw(write(start(players=1), B.CHANCE), (1, 2, 3, 4, 6))


SCENARIOS: list[tuple[str, Callable[[], dp.State], dp.Move, str]] = [
    (
        "write-before-throwing",
        start,
        dp.Write(B.CHANCE),
        "a box is written after a throw; before the first one only 'roll' or scratching",
    ),
    (
        "scratch-a-mountain-box",
        thrown,
        dp.Scratch(B.THREES),
        "THREES is a mountain box: mountain boxes cannot be scratched",
    ),
    (
        "full-house-not-thrown",
        thrown,
        dp.Write(B.FULL_HOUSE),
        "FULL_HOUSE needs three of one face and two of another; the dice show [2, 2, 3, 3, 4]",
    ),
    ("poker-not-thrown", thrown, dp.Write(B.POKER), "POKER needs five dice alike"),
    (
        "keep-at-turn-start",
        start,
        dp.Roll((6, 6)),
        "the first throw of a turn rolls all five dice: it is 'roll', keeping nothing, "
        "not 'roll keep 6 6'",
    ),
    (
        "keep-all-five",
        thrown,
        dp.Roll((2, 2, 3, 3, 4)),
        "keeping all five dice is not a throw: re-roll at least one",
    ),
    (
        "keep-a-missing-face",
        thrown,
        dp.Roll((6,)),
        "cannot keep [6]: the dice show [2, 2, 3, 3, 4]",
    ),
    ("keep-too-many-of-a-face", thrown, dp.Roll((2, 2, 2)), "cannot keep [2, 2, 2]"),
    (
        "throw-after-the-last-throw",
        lambda: throw_times(start(fences=False), 3),
        dp.Roll(),
        "no throws left: this turn allows 3",
    ),
    (
        "write-a-filled-box",
        chance_filled,
        dp.Write(B.CHANCE),
        "CHANCE of stage 1 is filled already; each box is filled once",
    ),
    (
        "down-order-skips-ahead",
        lambda: thrown(stage_orders="down"),
        dp.Write(B.CHANCE),
        "stage 1 is played 'down': only its next box, ONES, may be filled, not CHANCE",
    ),
    (
        "up-order-skips-ahead",
        lambda: start(stage_orders="up"),
        dp.Scratch(B.PAIR),
        "stage 1 is played 'up': only its next box, CHANCE, may be filled, not PAIR",
    ),
    (
        "announce-order-write-before-announcing",
        lambda: thrown(stage_orders="announce"),
        dp.Write(B.PAIR),
        "in 'announce' order the first throw is followed by announcing a box "
        "('announce' and the box), before anything else",
    ),
    (
        "announce-order-throw-before-announcing",
        lambda: thrown(stage_orders="announce"),
        dp.Roll((2, 2)),
        "in 'announce' order the first throw is followed by announcing a box "
        "('announce' and the box), not another throw",
    ),
    (
        "announce-order-other-box",
        lambda: announced(B.PAIR),
        dp.Write(B.TWO_PAIRS),
        "this turn announced PAIR: it may only end in that box, not TWO_PAIRS",
    ),
    (
        "announce-twice",
        lambda: announced(B.PAIR),
        dp.Announce(B.CHANCE),
        "a box is announced once per turn, right after the first throw",
    ),
    (
        "announce-before-throwing",
        lambda: start(stage_orders="announce"),
        dp.Announce(B.CHANCE),
        "a box is announced once per turn, right after the first throw",
    ),
    (
        "announce-in-free-order",
        thrown,
        dp.Announce(B.CHANCE),
        "'announce chance' is played only in 'announce' order; stage 1 is played 'free'",
    ),
    (
        "outcome-without-a-throw",
        thrown,
        dp.Dice((1, 2, 3)),
        "'dice 1 2 3' is a chance outcome, legal only while dice are in the air",
    ),
    (
        "write-while-dice-are-in-the-air",
        in_air,
        dp.Write(B.CHANCE),
        "the dice are in the air: the next move is their outcome ('dice' and the faces "
        "thrown), not 'write chance'",
    ),
    (
        "outcome-of-the-wrong-size",
        in_air,
        dp.Dice((1, 2)),
        "3 dice are in the air: their outcome is 'dice' and that many faces 1 to 6, not 'dice 1 2'",
    ),
    (
        "move-after-the-end",
        finished,
        dp.Roll(),
        "the game is over: every box is filled; 'roll' is not a move",
    ),
]


@pytest.mark.parametrize(
    ("build", "move", "fragment"),
    [scenario[1:] for scenario in SCENARIOS],
    ids=[scenario[0] for scenario in SCENARIOS],
)
def test_an_illegal_move_names_the_rule_and_changes_nothing(
    build: Callable[[], dp.State], move: dp.Move, fragment: str
) -> None:
    assert_illegal(build(), move, fragment)


@pytest.mark.parametrize("move", ["write chance", None, 3, B.CHANCE])
def test_something_that_is_not_a_move_is_illegal(move: Any) -> None:
    state = thrown()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError, match="is not a dice poker move"):
        dp.apply(state, move)
    assert state == before


def test_a_legal_move_leaves_its_state_unchanged_too() -> None:
    state = thrown()
    before = copy.deepcopy(state)
    after = dp.apply(state, dp.Write(B.TWO_PAIRS))
    assert after != state
    assert state == before


def test_a_filled_box_cannot_be_filled_again() -> None:
    config = manual(players=1, stages=1)
    state = throw(position(config, [sheet(config, all_but(full_stage(), B.PAIR))]), (1, 1, 2, 3, 4))
    for box in dp.Box:
        if box is not B.PAIR:
            assert_illegal(state, dp.Write(box), f"{box.name} of stage 1 is filled already")


# Every move any state could see: throws by what they keep, every box verb, every outcome.
EVERY_MOVE: tuple[dp.Move, ...] = (
    *(
        dp.Roll(keep)
        for size in range(6)
        for keep in combinations_with_replacement(range(1, 7), size)
    ),
    *(verb(box) for verb in (dp.Write, dp.Scratch, dp.Announce) for box in dp.Box),
    *(
        dp.Dice(values)
        for size in range(1, 6)
        for values in combinations_with_replacement(range(1, 7), size)
    ),
)


@settings(max_examples=25, deadline=None)
@given(config=configs(max_players=2, max_stages=1), data=st.data())
def test_exactly_the_listed_moves_are_legal(config: dp.Config, data: st.DataObject) -> None:
    state = dp.new_game(config, seed=data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(0, 40))):
        if dp.is_over(state):
            break
        legal = dp.legal_moves(state)
        state = dp.apply(state, data.draw(st.sampled_from(legal)))
    allowed = set(dp.legal_moves(state))
    before = copy.deepcopy(state)
    for move in EVERY_MOVE:
        if move in allowed:
            dp.apply(state, move)
        else:
            with pytest.raises(IllegalMoveError):
                dp.apply(state, move)
    assert state == before


@pytest.mark.parametrize("faces", [(1, 2, 9), (0,), (7,), (3.0,), (True, 2), ("6",)], ids=repr_id)
def test_a_die_showing_anything_but_one_to_six_cannot_even_be_named(faces: tuple[Any, ...]) -> None:
    for kind in (dp.Dice, dp.Roll):
        with pytest.raises(IllegalMoveError, match="a die shows a whole number from 1 to 6"):
            kind(faces)
