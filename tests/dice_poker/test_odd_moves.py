"""Odd input to the public entry points: objects that are no move at all, moves no state
allows, odd text, odd action numbers and odd states. ``apply`` is total over moves: it
returns a valid state or raises IllegalMoveError with the state unchanged. A move changed
around its constructor's checks (``object.__setattr__``) is outside the contract.
"""

from __future__ import annotations

import json
import math
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.notation import parse_box
from tabletop_rules.errors import IllegalMoveError, InvalidStateError, NotationError
from tabletop_rules.serialize import dumps, loads, to_data

from ..ids import short_repr_id
from .helpers import start, throw

B = dp.Box


def thrown(dice: tuple[int, ...] = (2, 3, 6, 6, 6), **rules: Any) -> dp.State:
    """Seat 0 has thrown ``dice`` once (dice fed by hand)."""
    return throw(start(**rules), dice)


def in_air(keep: tuple[int, ...] = (6, 6)) -> dp.State:
    """A chance point: seat 0 re-threw all but ``keep`` of 2 3 6 6 6."""
    return dp.apply(thrown(), dp.Roll(keep))


def assert_refused(state: dp.State, move: Any, fragment: str = "") -> str:
    """``apply`` and ``apply_with_events`` raise IllegalMoveError (naming ``fragment``),
    ``encode`` the same error, and ``state`` is as it was. Returns the message.
    """
    before = json.dumps(to_data(state))
    with pytest.raises(IllegalMoveError) as caught:
        dp.apply(state, move)
    message = str(caught.value)
    assert fragment in message, message
    assert len(message) < 500, message
    with pytest.raises(IllegalMoveError) as again:
        dp.apply_with_events(state, move)
    assert str(again.value) == message
    assert json.dumps(to_data(state)) == before
    return message


# --- moves no state allows -------------------------------------------------------------------


def test_a_move_naming_a_hundred_thousand_faces_gets_a_short_message() -> None:
    # Each reader of moves from outside (text, JSON) and apply quote such a move briefly.
    faces = " 1" * 100_000
    document = json.loads(dumps(dp.Dice((1, 2))))
    document["data"]["values"] = [1] * 100_000
    for state in (thrown(), in_air(), finished()):
        for text in ("dice" + faces, "roll keep" + faces.replace("1", "6")):
            with pytest.raises(IllegalMoveError) as parsed:
                dp.parse_move(state, text)
            assert len(str(parsed.value)) < 400, str(parsed.value)[:400]
            assert_refused(state, dp.read_move(text))
    with pytest.raises(InvalidStateError) as loaded:
        loads(json.dumps(document))
    assert len(str(loaded.value)) < 400, str(loaded.value)[:400]
    with pytest.raises(IllegalMoveError) as encoded:
        dp.encode(dp.Dice((1,) * 100_000))
    assert len(str(encoded.value)) < 400, str(encoded.value)[:400]


# --- objects whose own methods raise ----------------------------------------------------------


class Hostile:
    """A value whose __hash__, __eq__, __repr__ and __iter__ all raise."""

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __iter__(self) -> Any:
        raise RuntimeError("no iter")

    def __index__(self) -> int:
        raise RuntimeError("no index")


class EqualToEverything:
    """A value equal to anything, hashing like ``Box.CHANCE``."""

    def __hash__(self) -> int:
        return hash(B.CHANCE)

    def __eq__(self, other: object) -> bool:
        return True


# --- objects that are no move ---------------------------------------------------------------


class LooksLikeWrite:
    """Not a move, though it compares equal to Write(CHANCE) and hashes like it."""

    def __hash__(self) -> int:
        return hash(dp.Write(B.CHANCE))

    def __eq__(self, other: object) -> bool:
        return True


class RollSubclass(dp.Roll):
    """A subclass is not one of the game's move classes."""


@pytest.mark.parametrize(
    "obj",
    [None, 5, "roll", dp.Roll, object(), B.CHANCE, (6, 6), LooksLikeWrite(), Hostile()],
    ids=["None", "5", "roll", "a-class", "object", "a-box", "a-tuple", "looks-like", "hostile"],
)
def test_an_object_that_is_no_move_is_refused(obj: object) -> None:
    assert_refused(thrown(), obj, "is not a dice poker move")
    assert_refused(in_air(), obj, "is not a dice poker move")


def test_a_subclass_of_roll_is_refused() -> None:
    assert_refused(thrown(), RollSubclass(), "is not a dice poker move")


# --- the other entry points -----------------------------------------------------------------


def finished() -> dp.State:
    state = dp.new_game(dp.Config(players=1, stages=1), seed=2)
    while not dp.is_over(state):
        state = dp.apply(state, dp.legal_moves(state)[-1])
    return state


def test_encode_of_an_object_that_is_no_move_raises_what_apply_raises() -> None:
    moves: tuple[Any, ...] = (None, LooksLikeWrite(), Hostile(), RollSubclass())
    for move in moves:
        with pytest.raises(IllegalMoveError) as applied:
            dp.apply(thrown(), move)
        with pytest.raises(IllegalMoveError) as encoded:
            dp.encode(move)
        assert str(encoded.value) == str(applied.value)


@pytest.mark.parametrize(
    "action",
    [None, 1.0, "3", True, False, -1, 710, 2**64, 10**5000, -(10**5000), Hostile()],
    ids=short_repr_id,
)
def test_decode_of_an_odd_action_raises_illegal_move_error(action: Any) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        dp.decode(dp.new_game(seed=1), action)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("text", [None, 5, b"roll", ["roll"], Hostile()], ids=short_repr_id)
def test_parse_move_of_something_that_is_no_text_raises_notation_error(text: Any) -> None:
    with pytest.raises(NotationError, match="move text is a string"):
        dp.parse_move(dp.new_game(seed=1), text)
    with pytest.raises(NotationError, match="move text is a string"):
        dp.read_move(text)
    with pytest.raises(NotationError, match="move text is a string"):
        parse_box(text)


def test_parse_move_of_a_str_subclass_reads_its_text() -> None:
    class Text(str):
        def strip(self, chars: str | None = None) -> str:
            raise RuntimeError("no strip")

    assert dp.parse_move(dp.new_game(seed=1), Text("roll")) == dp.Roll()


def test_parse_move_of_huge_text_gives_a_short_message() -> None:
    with pytest.raises(NotationError) as caught:
        dp.parse_move(dp.new_game(seed=1), "roll keep " + "7" * 100_000)
    assert len(str(caught.value)) < 200


def test_parse_move_returns_the_listed_instance() -> None:
    state = thrown()
    move = dp.parse_move(state, "roll keep 6 6")
    assert any(move is listed for listed in dp.legal_moves(state))


@pytest.mark.parametrize("obj", [None, 5, "state", dp.Config()], ids=short_repr_id)
def test_rule_functions_on_something_that_is_no_state_raise_type_error(obj: Any) -> None:
    with pytest.raises(TypeError, match="expected a dice poker State"):
        dp.legal_moves(obj)
    with pytest.raises(TypeError, match="expected a dice poker State"):
        dp.chance_probabilities(obj)
    with pytest.raises(TypeError, match="expected a dice poker State"):
        dp.apply(obj, dp.Roll())


def test_a_state_built_around_its_checks_is_refused_by_check_state() -> None:
    # Outside the contract of the rule functions (see apply): a state built by hand with
    # values the rules never make is vetted with check_state, as every loader does.
    dice: Any = (2.5, 3, 6, 6, 6)
    state = attrs.evolve(thrown(), dice=dice)
    with pytest.raises(InvalidStateError, match="dice must show 1 to 6"):
        dp.check_state(state)
    air = attrs.evolve(in_air(), pending_keep=(1, 1, 1, 1, 1, 1))
    with pytest.raises(InvalidStateError, match="pending_keep"):
        dp.check_state(air)


# --- the property ---------------------------------------------------------------------------

odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**70), 2**70),
    st.sampled_from([-1, 0, 7, 15, 99, math.nan, math.inf, 6.0, 1.0]),
    st.integers(4301, 6000).map(lambda digits: 10**digits),  # too long for repr()
    st.text(max_size=20),
    st.binary(max_size=5),
    st.builds(Hostile),
    st.builds(EqualToEverything),
    st.builds(object),
    st.sampled_from([dp.Roll, B.CHANCE, B.SIXES, dp.Roll(), Ellipsis]),
)
odd_values = st.recursive(
    odd_scalars | st.integers(1, 6),
    lambda inner: st.one_of(
        st.lists(inner, max_size=7),
        st.lists(inner, max_size=7).map(tuple),
        st.dictionaries(st.integers(0, 6) | st.text(max_size=3), inner, max_size=3),
        st.frozensets(st.integers(0, 15), max_size=5),
    ),
    max_leaves=12,
)


@settings(max_examples=100, deadline=None)
@given(obj=odd_values.filter(lambda value: type(value) not in dp.RULES.move_types))
def test_apply_refuses_every_odd_object_as_a_move(obj: Any) -> None:
    # Real moves (the pool holds a Roll(), legal after a throw) are another test's subject.
    state = thrown()
    before = json.dumps(to_data(state))
    with pytest.raises(IllegalMoveError, match="is not a dice poker move"):
        dp.apply(state, obj)
    assert json.dumps(to_data(state)) == before
