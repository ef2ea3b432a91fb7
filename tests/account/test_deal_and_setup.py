"""The playing field, the deal order and setup."""

from __future__ import annotations

from collections import Counter

import pytest

from tabletop_rules import account as r
from tabletop_rules.account.cards import Card
from tabletop_rules.account.config import Config
from tabletop_rules.account.moves import Place, Roll
from tabletop_rules.errors import ConfigError, IllegalMoveError

from .helpers import card, game, placed


def test_a_given_deal_lays_the_bottom_line_first_then_each_row_above_then_the_pack() -> None:
    state = game(
        ["+1", "+10", "+15"], above=[["-1", "-10", "-15"], ["P", "T", "B"]], pack=["Z", "End"]
    )
    assert [column[0] for column in state.field] == [card("+1"), card("+10"), card("+15")]
    assert [column[1] for column in state.field] == [card("-1"), card("-10"), card("-15")]
    assert [column[2] for column in state.field] == [card("P"), card("T"), card("B")]
    assert state.pack == (card("Z"), card("End"))
    assert state.discard == ()


def test_the_seed_shuffles_the_deck_into_the_field_and_pack() -> None:
    one, two = r.new_game(seed=5), r.new_game(seed=5)
    assert one == two
    cards = [c for column in one.field for c in column] + list(one.pack)
    assert Counter(cards) == Counter(Config().deck_cards())
    assert len(one.pack) == 70 - 35
    assert r.new_game(seed=6).field != one.field


def test_new_game_without_a_seed_draws_one_and_keeps_it() -> None:
    state = r.new_game()
    again = r.new_game(seed=state.seed)
    assert again.field == state.field
    assert again.pack == state.pack


def test_a_deal_not_matching_the_composition_raises() -> None:
    deck = Config().deck_cards()
    with pytest.raises(ConfigError, match="does not match"):
        r.new_game(seed=1, deal=deck[:-1])
    with pytest.raises(ConfigError, match="does not match"):
        r.new_game(seed=1, deal=(*deck[:-1], Card.parse("T")))
    with pytest.raises(ConfigError):
        r.new_game(seed=1, deal="+1 +10")
    assert r.new_game(seed=1, deal=[str(c) for c in deck]).deal == deck


def test_each_player_starts_with_one_marker_placed_in_seat_order_and_it_scores() -> None:
    state = game(["+10", "-15", "P"], players=2)
    assert r.current_player(state) == 0
    assert state.phase == "setup"
    assert r.legal_moves(state) == (Place(0), Place(1), Place(2))
    state = placed(state, 0)
    assert state.accounts == (10, 0)
    assert r.current_player(state) == 1
    state = placed(state, 1)
    assert state.accounts == (10, -15)
    assert state.markers == ((0,), (1,))


def test_setup_is_not_a_round_and_seat_0_then_takes_the_first_turn() -> None:
    state = placed(game(["+1", "+1", "+1"], players=3), 0, 1, 2)
    assert state.phase == "play"
    assert state.seat == 0
    assert state.turns == 0
    assert r.legal_moves(state) == (Roll(),)


def test_several_markers_may_share_a_card() -> None:
    state = placed(game(["+1", "+10"], players=3), 1, 1, 1)
    assert state.markers == ((1,), (1,), (1,))
    assert state.accounts == (10, 10, 10)


def test_house_rule_starting_markers_places_each_in_turn() -> None:
    state = game(["+1", "+10", "+15"], players=2, starting_markers=2)
    state = placed(state, 0, 1)
    assert state.seat == 1
    assert state.accounts == (11, 0)
    state = placed(state, 2, 2)
    assert state.markers == ((0, 1), (2, 2))
    assert state.phase == "play"


def test_house_rule_placement_scores_off_makes_placement_score_nothing() -> None:
    state = placed(game(["P", "End"], players=2, placement_scores=False), 0, 1)
    assert state.accounts == (0, 0)
    assert state.phase == "play"


def test_place_is_refused_outside_setup_and_setup_takes_only_place() -> None:
    state = game(["+1", "+10"], players=1)
    with pytest.raises(IllegalMoveError, match="in setup"):
        r.apply(state, Roll())
    state = placed(state, 0)
    with pytest.raises(IllegalMoveError, match="'place 1' is for the starting markers"):
        r.apply(state, Place(1))
    with pytest.raises(IllegalMoveError, match="no column 5"):
        r.apply(game(["+1", "+10"]), Place(5))
