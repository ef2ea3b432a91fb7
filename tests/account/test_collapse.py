"""House rule collapse: landing, then collapse, then scoring; empty columns skipped."""

from __future__ import annotations

import pytest

from tabletop_rules import account as r
from tabletop_rules.account.events import AccountChanged, Collapsed, Moved
from tabletop_rules.account.moves import Advance, Buy, Place
from tabletop_rules.errors import IllegalMoveError

from .helpers import card, game, placed, rolled


def test_by_default_cards_never_leave_the_field() -> None:
    state = placed(game(["+1", "+10"], above=[["-1", "-10"]], players=1), 0)
    after = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert after.field == state.field
    assert after.discard == ()


def test_when_the_last_marker_leaves_a_card_it_goes_to_the_discard_and_the_column_drops() -> None:
    state = placed(
        game(["+1", "+10", "+15"], above=[["-1", "-10", "-15"]], players=1, collapse=True), 0
    )
    after = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert after.field[0] == (card("-1"),)
    assert after.discard == (card("+1"),)
    assert after.accounts == (1 + 10,)


def test_a_card_another_marker_still_stands_on_does_not_collapse() -> None:
    state = placed(game(["+1", "+10", "+15"], players=2, collapse=True), 0, 0)
    after = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert after.field[0] == (card("+1"),)
    assert after.discard == ()


def test_the_landing_cell_is_counted_on_the_line_as_it_was_before_the_move() -> None:
    state = placed(game(["+1", "+10", "+15", "+25"], players=1, collapse=True), 1)
    after = r.apply(rolled(state, 2), Advance(0, "left", 2))  # 1 -> 0 -> 3
    assert after.markers == ((3,),)
    assert after.field[1] == ()


def test_the_order_is_landing_then_collapse_then_scoring() -> None:
    # The collapsed -10 is on the discard pile before B scores: with an empty pack, B
    # reshuffles the discard pile and draws it.
    state = placed(game(["-10", "B"], players=1, collapse=True), 0)
    after, events = r.apply_with_events(rolled(state, 1), Advance(0, "right", 1))
    kinds = [type(e) for e in events if type(e) in (Moved, Collapsed, AccountChanged)]
    assert kinds == [Moved, Collapsed, AccountChanged]
    assert after.accounts == (-10 - 10,)


def test_a_full_lap_back_onto_its_own_card_does_not_collapse_it() -> None:
    state = placed(game(["+1", "+10"], players=1, collapse=True), 0)
    after = r.apply(rolled(state, 2), Advance(0, "right", 2))
    assert after.field[0] == (card("+1"),)
    assert after.accounts == (2,)


def test_a_column_with_no_cards_left_is_skipped_in_moves_and_cannot_be_placed_on() -> None:
    state = placed(game(["T", "+10", "+15"], players=2, collapse=True, marker_cost=0), 0, 2)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))  # column 0 collapses
    assert state.field[0] == ()
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))  # 2 -> 1 (0 is skipped)
    assert state.markers == ((1,), (1,))
    assert Place(0) not in r.legal_moves(state)
    assert Buy(0) not in r.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="column 0 has no cards left"):
        r.apply(state, Buy(0))
    assert Buy(1) in r.legal_moves(state)
