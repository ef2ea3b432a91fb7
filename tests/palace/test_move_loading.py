"""Loading a move reads only moves that some state, under some house rules, could allow."""

from __future__ import annotations

import json

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError, InvalidStateError
from tabletop_rules.rng import Rng
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.testing.fuzz import check_move_loads_back

from .helpers import cards, play


def _move(data: dict[str, object]) -> str:
    return json.dumps({"game": "palace", "version": 1, "kind": "move", "data": data})


def test_loads_refuses_a_play_of_more_copies_than_any_decks_hold() -> None:
    with pytest.raises(InvalidStateError, match="no game holds 16 7H"):
        loads(_move({"cards": ["7H"] * 16, "type": "play"}))
    with pytest.raises(InvalidStateError, match="no game holds 5 7H"):
        loads(_move({"cards": ["7H"] * 5 + ["7S"], "type": "play"}))
    four = loads(_move({"cards": ["7H"] * 4, "type": "play"}))  # four decks hold four
    assert four == play("7H 7H 7H 7H")
    every_seven = [card for card in ("7C", "7D", "7H", "7S") for _copy in range(4)]
    sixteen = loads(_move({"cards": every_seven, "type": "play"}))
    assert p.encode(sixteen) == p.encode(play(" ".join(["7C 7D 7H 7S"] * 4)))


def test_a_play_of_more_copies_than_any_decks_hold_cannot_be_built() -> None:
    with pytest.raises(IllegalMoveError, match="no game holds 5 AS: the most decks a game has"):
        p.Play(cards("AS") * 5)
    with pytest.raises(IllegalMoveError, match="no game holds 5 AS"):
        p.read_move("play AS AS AS AS AS")


def test_loads_refuses_a_swap_of_two_equal_cards() -> None:
    with pytest.raises(InvalidStateError, match="swapping a card for an equal one changes nothing"):
        loads(_move({"face_up_card": "7H", "hand_card": "7H", "type": "swap"}))
    swap = p.Swap(*cards("7H 7S"))
    assert loads(dumps(swap)) == swap


def test_loads_refuses_a_play_of_several_ranks() -> None:
    with pytest.raises(InvalidStateError, match="a play lays cards of one rank"):
        loads(_move({"cards": ["7H", "8H"], "type": "play"}))


def test_every_move_some_state_lists_loads_back() -> None:
    """What the loader refuses is no move the rules list: every move of a playout, and of
    its views, loads back and is judged in its state.
    """
    chooser = Rng.from_seed(4)
    state = p.new_game(p.Config(decks=4, players=3), seed=4)
    while not p.is_over(state) and state.turns < 60:
        for move in p.legal_moves(state):
            check_move_loads_back(p.RULES, state, dumps(move))
        assert loads(dumps(p.view(state, state.seat))) == p.view(state, state.seat)
        index, chooser = chooser.below(len(p.legal_moves(state)))
        state = p.apply(state, p.legal_moves(state)[index])
