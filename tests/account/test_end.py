"""End and winner: End immediate or finish_round, max_rounds, score, winners."""

from __future__ import annotations

from tabletop_rules import account as r
from tabletop_rules.account.events import EndHit, GameOver
from tabletop_rules.account.moves import Advance, Buy

from .helpers import game, placed, rolled


def test_the_game_stops_at_once_when_end_scores_for_a_moved_marker() -> None:
    state = placed(game(["+10", "End", "-1"], players=2), 0, 2)
    after, events = r.apply_with_events(rolled(state, 1), Advance(0, "right", 1))
    assert r.is_over(after)
    assert r.current_player(after) is None
    assert r.legal_moves(after) == ()
    assert EndHit(0, immediate=True) in events
    assert GameOver("end", frozenset({0})) in events
    assert r.winners(after) == frozenset({0})


def test_end_stops_the_game_when_a_marker_is_placed_on_it() -> None:
    state = placed(game(["+10", "End"], players=3), 0, 1)
    assert r.is_over(state)
    assert state.markers == ((0,), (1,), ())
    assert r.winners(state) == frozenset({0})


def test_end_stops_the_game_when_a_marker_is_bought_onto_it() -> None:
    state = placed(game(["T", "End"], players=1, marker_cost=500), 0)
    after = r.apply(state, Buy(1))
    assert r.is_over(after)
    assert after.accounts == (500,)


def test_finish_round_completes_the_round_including_the_player_who_hit_end() -> None:
    state = placed(
        game(["+1", "End", "+10", "+15"], players=3, end="finish_round", starting_markers=2),
        0, 0, 2, 2, 3, 3,
    )  # fmt: skip
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))  # seat 0 hits End
    assert not r.is_over(state)
    assert state.ending
    assert r.current_player(state) == 0  # the player who hit End finishes the turn
    state = r.apply(rolled(state, 2), Advance(1, "right", 2))
    assert r.current_player(state) == 1
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    state = r.apply(rolled(state, 1), Advance(1, "right", 1))
    assert r.current_player(state) == 2
    state = r.apply(rolled(state, 1), Advance(0, "left", 1))
    state = r.apply(rolled(state, 1), Advance(1, "left", 1))
    assert r.is_over(state)
    assert state.turns == 3


def test_under_finish_round_a_further_end_in_that_round_changes_nothing() -> None:
    state = placed(game(["+1", "End", "+10"], players=2, end="finish_round"), 0, 2)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert state.ending
    after, events = r.apply_with_events(rolled(state, 1), Advance(0, "left", 1))
    assert not any(isinstance(e, EndHit) for e in events)
    assert r.is_over(after)
    assert after.accounts == (1, 10)


def test_under_finish_round_end_in_setup_stops_the_game_once_setup_is_complete() -> None:
    state = placed(game(["End", "+10"], players=2, end="finish_round"), 0)
    assert not r.is_over(state)
    state = placed(state, 1)
    assert r.is_over(state)
    assert r.winners(state) == frozenset({1})


def test_the_game_stops_after_max_rounds() -> None:
    state = placed(game(["+1", "+10", "-1"], players=2, max_rounds=2), 0, 0)
    assert state.config.max_rounds == 2
    for _turn in range(3):
        state = r.apply(rolled(state, 3), Advance(0, "right", 3))
        assert not r.is_over(state)
    state, events = r.apply_with_events(rolled(state, 3), Advance(0, "right", 3))
    assert r.is_over(state)
    assert state.rounds == 2
    assert GameOver("max_rounds", frozenset({0, 1})) in events


def test_winners_is_empty_until_the_game_is_over() -> None:
    state = placed(game(["+1", "+10", "End"], players=2), 1, 0)
    assert r.winners(state) == frozenset()
    assert r.score(state) == (10, 1)


def test_score_is_each_seats_account_and_the_highest_wins() -> None:
    state = placed(game(["+1", "+10", "End"], players=2), 1, 0)
    state = r.apply(rolled(state, 2), Advance(0, "right", 2))  # seat 0: 1 -> 2 -> 0
    state = r.apply(rolled(state, 2), Advance(0, "right", 2))  # seat 1: 0 -> 1 -> End
    assert r.is_over(state)
    assert r.score(state) == (10 + 1, 1)
    assert r.winners(state) == frozenset({0})


def test_equal_top_accounts_share_the_win() -> None:
    state = placed(game(["+10", "+10", "End"], players=3), 0, 1)
    state = placed(state, 2)
    assert r.is_over(state)
    assert r.winners(state) == frozenset({0, 1})
