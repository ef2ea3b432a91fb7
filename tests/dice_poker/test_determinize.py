"""Views that clients and bots can use: determinize, parse_move from a view, and a clear
TypeError when a function that needs the state is handed a view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.rng import Rng
from tabletop_rules.testing import random_playout

from .strategies import configs

seeds = st.integers(0, 2**64 - 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=seeds, chooser=seeds, pick=seeds, rng_seed=seeds)
def test_the_view_of_a_determinized_view_is_the_view(
    config: dp.Config, seed: int, chooser: int, pick: int, rng_seed: int
) -> None:
    states = random_playout(dp.RULES, config, seed, chooser).states
    state = states[pick % len(states)]
    for seat in (None, *range(config.players)):
        seen = dp.view(state, seat)
        sampled = dp.determinize(seen, Rng.from_seed(rng_seed))
        dp.check_state(sampled)
        assert dp.view(sampled, seat) == seen
        assert dp.legal_moves(sampled) == dp.legal_moves(state)


def test_determinize_draws_a_fresh_seed_from_its_generator() -> None:
    state = dp.apply(dp.new_game(seed=5), dp.Roll())
    seen = dp.view(state, 0)
    first = dp.determinize(seen, Rng.from_seed(1))
    assert dp.determinize(seen, Rng.from_seed(1)) == first
    assert dp.determinize(seen, Rng.from_seed(2)).seed != first.seed


def test_a_determinized_manual_dice_game_has_the_generator_of_its_seed() -> None:
    state = dp.apply(dp.new_game(dp.Config(auto_chance=False), seed=5), dp.Roll())
    sampled = dp.determinize(dp.view(state, 0), Rng.from_seed(3))
    assert sampled.rng == Rng.from_seed(sampled.seed)


def test_a_determinized_game_with_throws_made_has_its_generator_moved_on() -> None:
    state = dp.apply(dp.new_game(seed=5), dp.Roll())
    sampled = dp.determinize(dp.view(state, 0), Rng.from_seed(3))
    assert sampled.rng.draws_since(sampled.seed) >= 1


# --- parse_move from a view -----------------------------------------------------------------


def test_parse_move_reads_a_legal_move_from_the_view_of_the_seat_on_turn() -> None:
    state = dp.apply(dp.new_game(seed=42), dp.Roll())
    seen = dp.view(state, 0)
    assert dp.parse_move(seen, "roll keep 5 5") == dp.parse_move(state, "roll keep 5 5")
    assert dp.parse_move(seen, "write fives") in seen.legal_moves


@pytest.mark.parametrize("text", ["write poker", "announce chance", "roll keep 6 6 6 6 6"])
def test_parse_move_from_a_view_names_the_rule_as_from_the_state(text: str) -> None:
    state = dp.apply(dp.new_game(seed=42), dp.Roll())
    with pytest.raises(IllegalMoveError) as from_state:
        dp.parse_move(state, text)
    with pytest.raises(IllegalMoveError) as from_view:
        dp.parse_move(dp.view(state, 0), text)
    assert str(from_view.value) == str(from_state.value)


def test_parse_move_from_the_view_of_a_seat_not_on_turn_is_refused() -> None:
    seen = dp.view(dp.new_game(seed=1), 1)
    with pytest.raises(IllegalMoveError, match=r"seat 1 has no move now"):
        dp.parse_move(seen, "roll")


def test_parse_move_from_a_spectators_view_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="a spectator has no move now"):
        dp.parse_move(dp.view(dp.new_game(seed=1), None), "roll")


# --- state-only functions handed a view -----------------------------------------------------

STATE_ONLY: list[tuple[str, Callable[[Any], object]]] = [
    ("legal_moves", dp.legal_moves),
    ("apply", lambda state: dp.apply(state, dp.Roll())),
    ("apply_with_events", lambda state: dp.apply_with_events(state, dp.Roll())),
    ("is_over", dp.is_over),
    ("current_player", dp.current_player),
    ("score", dp.score),
    ("winners", dp.winners),
    ("chance_probabilities", dp.chance_probabilities),
]


@pytest.mark.parametrize(("name", "function"), STATE_ONLY, ids=[name for name, _ in STATE_ONLY])
def test_a_state_only_function_handed_a_view_says_what_to_pass(
    name: str, function: Callable[[Any], object]
) -> None:
    seen = dp.view(dp.apply(dp.new_game(seed=1), dp.Roll()), 0)
    with pytest.raises(TypeError, match=r"got a View: .*pass the State, or determinize"):
        function(seen)
