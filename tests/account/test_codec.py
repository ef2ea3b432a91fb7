"""The account action codec: the layout, round trips, the mask, and odd actions refused."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given

from tabletop_rules import account as a
from tabletop_rules.account.moves import MOVE_TABLE, NUM_ACTIONS
from tabletop_rules.errors import IllegalMoveError, TabletopError
from tabletop_rules.testing.checks import check_codec

from .helpers import game, placed, rolled
from .test_properties import configs, playout, playout_settings, seeds

RULES: Any = SimpleNamespace(
    num_actions=a.num_actions,
    config_of=lambda state: state.config,
    legal_mask=a.legal_mask,
    legal_moves=a.legal_moves,
    encode=a.encode,
    decode=a.decode,
)


def after_roll(value: int) -> a.State:
    """Two players with one marker each on a five-card line; seat 0 has rolled ``value``."""
    return rolled(placed(game(["+10"] * 5), 0, 2), value)


def test_num_actions_is_the_same_for_every_config() -> None:
    assert NUM_ACTIONS == 143
    assert a.num_actions(a.Config()) == 143
    assert a.num_actions(a.Config(rows=1, columns=20, max_markers=8, auto_chance=False)) == 143


def test_the_layout_is_pinned() -> None:
    assert [a.encode(a.Place(column)) for column in range(20)] == list(range(20))
    assert [a.encode(a.Buy(column)) for column in range(20)] == list(range(20, 40))
    assert a.encode(a.Roll()) == 40
    assert a.encode(a.Advance(0, "left", 1)) == 41
    assert a.encode(a.Advance(0, "left", 6)) == 46
    assert a.encode(a.Advance(0, "right", 1)) == 47
    assert a.encode(a.Advance(1, "right", 2)) == 41 + 12 + 6 + 1
    assert a.encode(a.Advance(7, "right", 6)) == 136
    assert [a.encode(a.Die(value)) for value in range(1, 7)] == list(range(137, 143))


def test_every_move_has_its_own_number_in_table_order() -> None:
    assert [a.encode(move) for move in MOVE_TABLE.moves] == list(range(143))
    assert {a.encode(a.read_move(a.format_move(m))) for m in MOVE_TABLE.moves} == set(range(143))


@pytest.mark.parametrize("move", ["roll", 40, None, object(), a.Config()])
def test_encode_refuses_what_is_no_move(move: object) -> None:
    with pytest.raises(TabletopError, match="is not an account move"):
        a.encode(move)  # type: ignore[arg-type]


def test_decode_gives_the_listed_instance_and_the_mask_marks_the_legal_moves() -> None:
    state = after_roll(3)
    legal = a.legal_moves(state)
    for move in legal:
        assert a.decode(state, a.encode(move)) is move
    mask = a.legal_mask(state)
    assert len(mask) == 143
    assert [n for n, on in enumerate(mask) if on] == [41, 42, 43, 47, 48, 49]
    check_codec(RULES, state)


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (True, "an action is a whole number"),
        (False, "an action is a whole number"),
        (41.0, "an action is a whole number"),
        ("41", "an action is a whole number"),
        (None, "an action is a whole number"),
        (-1, r"outside the action space 0\.\.142"),
        (143, r"outside the action space 0\.\.142"),
        (2**200, "outside the action space"),
        (40, r"action 40 \('roll'\) is not legal in this state"),
        (44, "action 44 .* is not legal"),  # distance 4 after a roll of 3
        (53, "action 53 .* is not legal"),  # marker 1: seat 0 owns one
        (137, "action 137 .* is not legal"),
    ],
)
def test_odd_actions_are_refused(action: object, match: str) -> None:
    with pytest.raises(IllegalMoveError, match=match):
        a.decode(after_roll(3), action)  # type: ignore[arg-type]


def test_an_int_subclass_is_refused() -> None:
    class Number(int):
        pass

    with pytest.raises(IllegalMoveError, match="an action is a whole number"):
        a.decode(after_roll(3), Number(41))


def test_a_state_that_is_no_state_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expected an account State"):
        a.decode("state", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected an account State"):
        a.legal_mask("state")  # type: ignore[arg-type]


def test_a_finished_game_has_an_empty_mask() -> None:
    state = playout(a.Config(max_rounds=2), 5)[-1]
    assert a.is_over(state)
    assert not any(a.legal_mask(state))
    with pytest.raises(IllegalMoveError, match="not legal"):
        a.decode(state, 40)


def test_a_rolling_die_masks_its_six_outcomes() -> None:
    state = a.apply(placed(game(["+10"] * 5), 0, 2), a.Roll())
    assert [n for n, on in enumerate(a.legal_mask(state)) if on] == list(range(137, 143))


@playout_settings
@given(configs(), seeds)
def test_codec_round_trips_and_masks_over_random_games(config: a.Config, seed: int) -> None:
    states = playout(config, seed)
    for state in states[::4]:  # check_codec lists the legal moves per decode
        check_codec(RULES, state)
    for state in states:
        mask = a.legal_mask(state)
        legal = a.legal_moves(state)
        assert sum(mask) == len(legal)
        for move in legal:
            number = a.encode(move)
            assert mask[number]
            assert a.decode(state, number) is move
