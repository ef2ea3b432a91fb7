"""Odd input to the public entry points: moves built around their constructors' checks
(``object.__setattr__``), objects that are no move at all, odd text, odd action numbers
and odd states. ``apply`` is total over moves: it returns a valid state or raises
IllegalMoveError with the state unchanged, and only the game's own move instances reach a
state or its events.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError, InvalidStateError, NotationError
from tabletop_rules.serialize import to_data

from ..ids import short_repr_id
from .helpers import start, throw
from .strategies import configs

B = dp.Box


def tampered(move: dp.Move, **fields: object) -> Any:
    """``move`` with ``fields`` set around the constructor's converters and validators."""
    move = copy.copy(move)
    for name, value in fields.items():
        object.__setattr__(move, name, value)
    return move


def thrown(dice: tuple[int, ...] = (2, 3, 6, 6, 6), **rules: Any) -> dp.State:
    """Seat 0 has thrown ``dice`` once (dice fed by hand)."""
    return throw(start(**rules), dice)


def in_air(keep: tuple[int, ...] = (6, 6)) -> dp.State:
    """A chance point: seat 0 re-threw all but ``keep`` of 2 3 6 6 6."""
    return dp.apply(thrown(), dp.Roll(keep))


def assert_plain(obj: Any) -> None:
    """Every value in a state or event is an exact int, bool, str, Box or None, in tuples
    and frozensets: no float, list or foreign object from a caller got in.
    """
    if attrs.has(type(obj)):
        for field in attrs.fields(type(obj)):
            assert_plain(getattr(obj, field.name))
    elif type(obj) in (tuple, frozenset):
        for item in obj:
            assert_plain(item)
    else:
        assert type(obj) in (int, bool, str, type(None), B), f"{type(obj).__name__}: {obj!r}"


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


def assert_applies(state: dp.State, move: Any) -> dp.State:
    """``apply`` accepts ``move`` as the listed move it equals, and nothing of the
    caller's object reaches the state or the events.
    """
    before = json.dumps(to_data(state))
    after, events = dp.apply_with_events(state, move)
    assert json.dumps(to_data(state)) == before
    dp.check_state(after)
    assert_plain(after)
    assert_plain(events)
    dp.legal_moves(after)
    dp.score(after)
    return after


# --- Write with a box that is no box --------------------------------------------------------


def test_write_with_box_99_is_refused() -> None:
    message = assert_refused(thrown(), tampered(dp.Write(B.CHANCE), box=99))
    assert message == "Write(box=99) is not a dice poker move: 99 is not a valid Box"


def test_write_with_box_minus_1_is_refused() -> None:
    assert_refused(
        thrown(), tampered(dp.Write(B.CHANCE), box=-1), "Write(box=-1) is not a dice poker move"
    )


def test_write_with_box_2_5_is_refused() -> None:
    assert_refused(
        thrown(), tampered(dp.Write(B.CHANCE), box=2.5), "Write(box=2.5) is not a dice poker move"
    )


def test_write_with_box_none_is_refused() -> None:
    assert_refused(
        thrown(), tampered(dp.Write(B.CHANCE), box=None), "Write(box=None) is not a dice poker move"
    )


def test_scratch_and_announce_with_box_99_are_refused() -> None:
    assert_refused(thrown(), tampered(dp.Scratch(B.PAIR), box=99), "Scratch(box=99)")
    state = thrown(stage_orders="announce")
    assert_refused(state, tampered(dp.Announce(B.PAIR), box=99), "Announce(box=99)")


def test_write_with_box_5_as_a_plain_int_writes_sixes() -> None:
    after = assert_applies(thrown(), tampered(dp.Write(B.CHANCE), box=5))
    assert after.sheets[0][B.SIXES] == 0  # three sixes
    _, events = dp.apply_with_events(thrown(), tampered(dp.Write(B.CHANCE), box=5))
    assert type(events[0].box) is B  # type: ignore[union-attr]


def test_write_with_an_unset_box_is_refused() -> None:
    move = object.__new__(dp.Write)
    assert_refused(thrown(), move, "Write(box=<unset>) is not a dice poker move")


# --- Roll with a keep that is no tuple of faces ---------------------------------------------


def test_roll_with_keep_a_list_is_refused() -> None:
    message = assert_refused(thrown(), tampered(dp.Roll(), keep=[6, 6]))
    assert message == (
        "Roll(keep=[6, 6]) is not a dice poker move: its fields are not as Roll makes them; "
        "Roll(keep=(6, 6)) is"
    )


def test_roll_with_keep_none_is_refused() -> None:
    assert_refused(thrown(), tampered(dp.Roll(), keep=None), "Roll(keep=None) is not a dice poker")


def test_roll_with_keep_unsorted_is_refused() -> None:
    assert_refused(thrown(), tampered(dp.Roll(), keep=(6, 2)), "Roll(keep=(2, 6)) is")


def test_roll_keeping_6_0_and_6_0_is_the_roll_keeping_6_and_6() -> None:
    # Roll(keep=(6.0, 6.0)) == Roll(keep=(6, 6)), so it is that move, as `in legal_moves`
    # says too; the state and its events hold the listed move's ints.
    state = thrown()
    move = tampered(dp.Roll(), keep=(6.0, 6.0))
    assert move in dp.legal_moves(state)
    after = assert_applies(state, move)
    assert after.pending_keep == (6, 6)
    assert all(type(face) is int for face in after.pending_keep)


def test_roll_keeping_6_0_and_6_0_with_dice_from_the_generator_holds_ints() -> None:
    state = dp.apply(dp.new_game(seed=3), dp.Roll())
    keep = tuple(float(face) for face in state.dice[:2])
    after = assert_applies(state, tampered(dp.Roll(), keep=keep))
    assert after.throws_used == 2


def test_roll_with_keep_an_endless_iterator_is_refused() -> None:
    move = tampered(dp.Roll(), keep=itertools.repeat(6))
    assert_refused(thrown(), move, "its keep is repeat(6), not a value a move holds")


def test_roll_keeping_five_faces_in_a_list_keeps_the_rule_message() -> None:
    move = tampered(dp.Roll(), keep=[2, 3, 6, 6, 6])
    assert_refused(thrown(), move, "keeping all five dice is not a throw")


def test_roll_keeping_a_million_sixes_gives_a_short_message() -> None:
    move = tampered(dp.Roll(), keep=[6] * 1_000_000)
    # Over MAX_ITEMS items, the list is refused unread, with a message of bounded length.
    for state in (thrown(), finished()):
        message = assert_refused(state, move, "its keep is [6, 6, 6, 6, 6, 6, 6, 6, ...]")
        assert len(message) < 200


def test_roll_with_a_huge_face_gives_a_short_message() -> None:
    assert_refused(thrown(), tampered(dp.Roll(), keep=(10**5000,)), "<int of 16610 bits>")


# --- Dice with faces that are no faces ------------------------------------------------------


def test_dice_with_a_face_of_2_5_is_refused_at_a_chance_point() -> None:
    state = in_air()
    message = assert_refused(state, tampered(dp.Dice((1, 2, 3)), values=(2.5, 3, 4)))
    assert message == (
        "Dice(values=(2.5, 3, 4)) is not a dice poker move: "
        "a die shows a whole number from 1 to 6, not 2.5"
    )
    assert dp.legal_moves(state) == dp.legal_moves(in_air())


def test_dice_with_faces_as_floats_are_the_dice_of_those_ints() -> None:
    after = assert_applies(in_air(), tampered(dp.Dice((1, 2, 3)), values=(1.0, 2.0, 3.0)))
    assert after.dice == (1, 2, 3, 6, 6)


def test_dice_of_the_wrong_size_in_a_list_keep_the_rule_message() -> None:
    move = tampered(dp.Dice((1, 2, 3)), values=[1, 2, 3, 4, 5, 6])
    assert_refused(
        in_air(),
        move,
        "3 dice are in the air: their outcome is 'dice' and that many faces 1 to 6, "
        "not 'dice 1 2 3 4 5 6'",
    )


# --- fields whose own methods raise ---------------------------------------------------------


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


def test_a_field_whose_hash_eq_and_repr_raise_is_refused() -> None:
    for move in (
        tampered(dp.Write(B.CHANCE), box=Hostile()),
        tampered(dp.Roll(), keep=Hostile()),
        tampered(dp.Roll(), keep=(6, Hostile())),
        tampered(in_air_outcome(), values=(Hostile(), 1, 2)),
    ):
        assert_refused(thrown(), move, "is not a dice poker move")
        assert_refused(in_air(), move, "is not a dice poker move")


def in_air_outcome() -> dp.Dice:
    return dp.Dice((1, 2, 3))


def test_a_field_equal_to_everything_is_the_move_it_hashes_as() -> None:
    after = assert_applies(thrown(), tampered(dp.Write(B.PAIR), box=EqualToEverything()))
    assert after.sheets[0][B.CHANCE] == 23


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


def test_encode_of_a_tampered_move_raises_what_apply_raises() -> None:
    moves: tuple[Any, ...] = (
        tampered(dp.Write(B.CHANCE), box=99),
        tampered(dp.Roll(), keep=[6, 6]),
        tampered(dp.Roll(), keep=Hostile()),
        tampered(dp.Dice((1, 2)), values=(2.5, 1)),
        None,
        LooksLikeWrite(),
    )
    for move in moves:
        with pytest.raises(IllegalMoveError) as applied:
            dp.apply(thrown(), move)
        with pytest.raises(IllegalMoveError) as encoded:
            dp.encode(move)
        assert str(encoded.value) == str(applied.value)


def test_encode_of_a_tampered_move_equal_to_a_move_numbers_that_move() -> None:
    assert dp.encode(tampered(dp.Write(B.CHANCE), box=5)) == dp.encode(dp.Write(B.SIXES))
    assert dp.encode(tampered(dp.Roll(), keep=(6.0, 6.0))) == dp.encode(dp.Roll((6, 6)))


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
        dp.parse_box(text)


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


def attempt(state: dp.State, move: Any) -> tuple[dp.State, tuple[dp.Event, ...]] | str:
    """``apply_with_events(state, move)``, or the message of its IllegalMoveError."""
    try:
        return dp.apply_with_events(state, move)
    except IllegalMoveError as error:
        return str(error)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(max_players=2, max_stages=1), data=st.data())
def test_apply_is_total_over_tampered_moves(config: dp.Config, data: st.DataObject) -> None:
    state = dp.new_game(config, seed=data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(0, 30))):
        if dp.is_over(state):
            break
        state = dp.apply(state, data.draw(st.sampled_from(dp.legal_moves(state))))
    legal = dp.legal_moves(state)
    base = data.draw(st.sampled_from(legal)) if legal else dp.Roll()
    field = attrs.fields(type(base))[0].name
    move = tampered(base, **{field: data.draw(odd_values)})
    before = json.dumps(to_data(state))
    outcome = attempt(state, move)
    if isinstance(outcome, str):
        assert 0 < len(outcome) < 500, outcome
    else:
        after, events = outcome
        dp.check_state(after)
        assert_plain(after)
        assert_plain(events)
        dp.legal_moves(after)
        dp.chance_probabilities(after)
        dp.score(after)
    assert json.dumps(to_data(state)) == before


@settings(max_examples=100, deadline=None)
@given(obj=odd_values.filter(lambda value: type(value) not in dp.RULES.move_types))
def test_apply_refuses_every_odd_object_as_a_move(obj: Any) -> None:
    # Real moves (the pool holds a Roll(), legal after a throw) are another test's subject.
    state = thrown()
    before = json.dumps(to_data(state))
    with pytest.raises(IllegalMoveError, match="is not a dice poker move"):
        dp.apply(state, obj)
    assert json.dumps(to_data(state)) == before
