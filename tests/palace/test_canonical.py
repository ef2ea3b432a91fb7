"""canonical: a play of other suits of a listed rank and count maps to the listed play."""

from __future__ import annotations

import pytest
from hypothesis import given

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.palace import encode

from .helpers import play, position
from .test_properties import (
    configs,
    equivalent_to_listed,
    playout,
    playout_settings,
    seeds,
    unlisted_moves,
)


def two_sevens() -> p.State:
    return position(hands=["7H 7S 9C", "4C"], pile="5D")


def test_a_play_of_other_suits_maps_to_the_listed_play() -> None:
    state = position(hands=["7C 7H 7S 9C", "4C"], pile="5D")
    listed = p.canonical(state, play("7H 7S"))
    assert listed == play("7C 7H")
    assert any(listed is move for move in p.legal_moves(state))


def test_every_listed_move_is_its_own_canonical_move_as_the_listed_instance() -> None:
    state = two_sevens()
    for move in p.legal_moves(state):
        assert p.canonical(state, move) is move
    swapping = p.new_game(seed=3)
    for move in p.legal_moves(swapping):
        assert p.canonical(swapping, move) is move


def test_an_equal_move_built_by_the_caller_maps_to_the_listed_instance() -> None:
    state = two_sevens()
    listed = p.canonical(state, play("7H"))
    assert listed == play("7H")
    assert any(listed is move for move in p.legal_moves(state))


def test_cards_not_held_are_refused_naming_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="seat 0 does not hold 7C in hand"):
        p.canonical(two_sevens(), play("7C"))


def test_a_rank_the_pile_forbids_is_refused_naming_the_rule() -> None:
    with pytest.raises(IllegalMoveError, match="lower than the 9S on the pile"):
        p.canonical(position(hands=["7H 7S 9C", "4C"], pile="9S"), play("7S"))


def test_other_illegal_moves_are_refused_as_apply_refuses_them() -> None:
    state = two_sevens()
    with pytest.raises(IllegalMoveError, match="'end' ends a turn only after four of a kind"):
        p.canonical(state, p.EndTurn())
    with pytest.raises(IllegalMoveError, match="swap phase is over"):
        p.canonical(state, p.Ready())


def test_what_is_no_move_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="is not a palace move"):
        p.canonical(two_sevens(), "take")  # type: ignore[arg-type]


def test_a_state_that_is_no_state_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expected a palace State"):
        p.canonical("state", p.TakePile())  # type: ignore[arg-type]


@playout_settings
@given(configs(), seeds, seeds)
def test_canonical_maps_exactly_what_apply_accepts_to_a_listed_move_of_its_class(
    config: p.Config, seed: int, chooser: int
) -> None:
    # The suite's check_illegal_moves_rejected, whose snapshot needs palace's JSON (not
    # registered yet): canonical accepts what apply accepts, and maps it into the list.
    for state, _move in playout(config, seed, chooser)[::5]:
        listed = p.legal_moves(state)
        for move in listed:
            assert p.canonical(state, move) is move
        for move in unlisted_moves(state):
            try:
                canonical = p.canonical(state, move)
            except IllegalMoveError as error:
                message = str(error)
            else:
                message = ""
            if message:
                with pytest.raises(IllegalMoveError) as refused:
                    p.apply(state, move)
                assert str(refused.value) == message
                assert not equivalent_to_listed(state, move, listed)
                continue
            assert any(canonical is other for other in listed)
            assert equivalent_to_listed(state, move, listed)
            assert encode(canonical) == encode(move)
            p.apply(state, move)
