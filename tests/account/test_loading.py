"""Loading refuses account states no play can reach: a field its seed or deal did not lay,
an account out of reach of the cards scored so far; and play from whatever loads writes
states that load."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from tabletop_rules import account as a
from tabletop_rules import account as r
from tabletop_rules.account.config import MAX_ROUNDS
from tabletop_rules.account.moves import Advance
from tabletop_rules.account.state import account_bound, largest_change, scores_so_far
from tabletop_rules.errors import InvalidStateError
from tabletop_rules.rng import Rng
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.testing.checks import check_play_from_loaded_round_trips, pushed_to_the_limit

from .helpers import game, placed, rolled


def data_of(state: a.State) -> Any:
    return json.loads(dumps(state))


def load(data: Any) -> Any:
    return loads(json.dumps(data))


def in_play(config: a.Config, seed: int = 3, moves: int = 40) -> a.State:
    """A state of a random game under ``config``, ``moves`` moves in (or its end)."""
    state = r.new_game(config, seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(moves):
        legal = r.legal_moves(state)
        if not legal:
            break
        index, rng = rng.below(len(legal))
        state = r.apply(state, legal[index])
    return state


# --- the field is as its seed or its deal laid it ------------------------------------------


def test_a_field_that_is_not_its_seeds_shuffle_does_not_load() -> None:
    state = in_play(a.Config(), moves=25)
    assert state.deal is None
    assert state.phase == "play"
    assert loads(dumps(state)) == state
    data = data_of(state)["data"]
    field, pack = data["field"], data["pack"]
    column = next(c for c in range(1, 7) if field[c][0] != field[0][0])
    swapped = json.loads(json.dumps(data))  # two bottom cards change places
    swapped["field"][0][0], swapped["field"][column][0] = field[column][0], field[0][0]
    top = next(i for i, card in enumerate(pack) if card != field[0][1])
    traded = json.loads(json.dumps(data))  # a field card and a pack card change places
    traded["field"][0][1], traded["pack"][top] = pack[top], field[0][1]
    for changed in (swapped, traded):
        with pytest.raises(InvalidStateError, match=f"as the shuffle of seed {state.seed}"):
            load({**data_of(state), "data": changed})


def test_a_field_that_is_not_its_deals_laying_does_not_load() -> None:
    state = placed(game(["+1", "B", "+10"], above=[["Z", "P", "T"]], players=1), 0)
    data = data_of(state)
    data["data"]["field"][0], data["data"]["field"][1] = (
        data["data"]["field"][1],
        data["data"]["field"][0],
    )
    data["data"]["markers"] = [[1]]  # the marker stands on the +1 it scored, now column 1
    with pytest.raises(InvalidStateError, match="as the deal laid it"):
        load(data)


def test_under_collapse_a_column_is_what_is_left_of_the_top_of_its_laid_column() -> None:
    state = placed(
        game(["+1", "+10", "P"], above=[["-1", "-10", "Z"]], players=1, collapse=True), 0
    )
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))  # column 0 collapses
    assert state.field[0] == (a.Card.parse("-1"),)
    assert loads(dumps(state)) == state
    data = data_of(state)
    data["data"]["field"][0] = ["+1"]  # the bottom card back, the top one gone
    data["data"]["discard"] = ["-1"]
    with pytest.raises(InvalidStateError, match="less the cards collapsed"):
        load(data)


# --- accounts lie within reach of the cards scored so far ---------------------------------


def test_an_account_out_of_reach_does_not_load() -> None:
    state = in_play(a.Config(), moves=30)
    bound = account_bound(state, 0)
    assert bound == largest_change(state.config) * scores_so_far(state, 0) > 0
    data = data_of(state)
    for account in (bound, -bound):
        data["data"]["accounts"][0] = account
        assert load(data).accounts[0] == account
    for account in (bound + 1, -bound - 1, 10**19, -(10**19)):
        data["data"]["accounts"][0] = account
        with pytest.raises(InvalidStateError, match="out of reach"):
            load(data)


def test_a_new_game_holds_accounts_of_0_and_no_card_can_change_them() -> None:
    state = r.new_game(a.Config(deck={"B": 30, "Z": 20, "End": 20}), seed=1)
    assert largest_change(state.config) == 0
    data = data_of(state)
    data["data"]["accounts"][1] = 1
    with pytest.raises(InvalidStateError, match="out of reach"):
        load(data)


def test_the_largest_game_keeps_accounts_within_8_million() -> None:
    config = a.Config(players=8, max_markers=8, max_rounds=MAX_ROUNDS, deck={"T": 100})
    assert largest_change(config) == 1000
    start = r.new_game(config, seed=0)
    over = attrs.evolve(start, markers=((0,) * 8,) * 8, phase="over", turns=8 * MAX_ROUNDS)
    assert account_bound(over, 7) == 1000 * 8 * (MAX_ROUNDS + 1) == 8_008_000


@pytest.mark.parametrize("sign", [1, -1])
def test_play_from_an_account_at_the_limit_of_loading_writes_states_that_load(sign: int) -> None:
    """An account pushed as far as loading takes it, then a whole game played on: every
    state reached loads back (before, a 20-digit account loaded and play wrote 21 digits).
    """
    config = a.Config(deck={"T": 60, "+25": 10}, floor_at_zero=False, max_rounds=30)
    state = in_play(config, seed=8, moves=9)
    assert state.phase == "play"
    pushed = pushed_to_the_limit(state, ("data", "accounts", 0), sign)
    assert pushed is not None
    check_play_from_loaded_round_trips(a.RULES, pushed, Rng.from_seed(1), r.max_moves(config))
    assert abs(pushed.accounts[0]) == account_bound(pushed, 0)
