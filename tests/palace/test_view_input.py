"""Views that front ends can use: a clear TypeError when a function that needs the state
is handed a view (or anything else), and new_game's seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError
from tabletop_rules.rng import Rng

from .helpers import hand, position, ready_all

# --- state-only functions handed a view, or anything else ---------------------------------

STATE_ONLY: list[tuple[str, Callable[[Any], object]]] = [
    ("legal_moves", p.legal_moves),
    ("apply", lambda state: p.apply(state, p.TakePile())),
    ("apply_with_events", lambda state: p.apply_with_events(state, p.TakePile())),
    ("is_over", p.is_over),
    ("current_player", p.current_player),
    ("score", p.score),
    ("winners", p.winners),
    ("chance_probabilities", p.chance_probabilities),
    ("canonical", lambda state: p.canonical(state, p.TakePile())),
]
IDS = [name for name, _ in STATE_ONLY]


def _swapped_out() -> p.State:
    state = p.new_game(seed=1)
    for _ in range(p.MAX_SWAPS):
        state = p.apply(state, p.legal_moves(state)[0])
    assert p.legal_moves(state) == (p.Ready(),)
    return state


STATES: dict[str, Callable[[], p.State]] = {
    "swap": lambda: p.new_game(seed=1),
    "swaps used up": _swapped_out,
    "play": lambda: ready_all(p.new_game(seed=1)),
    "a 3 to take": lambda: position(hands=["4C", "QH"], pile="9S 3D", pending="take"),
    "extra play": lambda: position(hands=["4C", "QH"], pile="9S 9C 9D 9H", pending="extra"),
    "blind": lambda: position(hands=["", "QH"], down=["5C - -", "- - -"], pile="9S"),
    "over": lambda: p.apply(position(hands=["10D", "QH"]), p.Play(hand("10D"))),
}


@pytest.mark.parametrize("where", list(STATES))
@pytest.mark.parametrize(("name", "function"), STATE_ONLY, ids=IDS)
def test_a_state_only_function_handed_a_view_says_what_to_pass(
    name: str, function: Callable[[Any], object], where: str
) -> None:
    state = STATES[where]()
    for seat in (0, 1, None):
        seen = p.view(state, seat)
        with pytest.raises(TypeError, match=r"got a View: .*pass the State, or determinize"):
            function(seen)


NOT_STATES: list[object] = [
    None,
    "state",
    7,
    object(),
    dp.new_game(seed=1),
    SimpleNamespace(phase="over", seat=0, pending="none", config=p.Config(), finished=()),
    SimpleNamespace(phase="play", seat=0, pending="take", swaps=0, pile=()),
]


@pytest.mark.parametrize("thing", NOT_STATES, ids=lambda thing: type(thing).__name__)
@pytest.mark.parametrize(("name", "function"), STATE_ONLY, ids=IDS)
def test_a_state_only_function_handed_what_is_no_state_is_a_type_error(
    name: str, function: Callable[[Any], object], thing: object
) -> None:
    with pytest.raises(TypeError, match="expected a palace State, got "):
        function(thing)


def test_the_view_error_says_what_to_pass_in_full() -> None:
    with pytest.raises(TypeError) as error:
        p.legal_moves(p.view(p.new_game(seed=1), 0))  # type: ignore[arg-type]
    assert str(error.value) == (
        "expected a palace State, got a View: a view is what one seat may see; "
        "pass the State, or determinize(view, rng) for a state consistent with it"
    )


def test_the_state_a_view_asks_for_works_where_the_view_did_not() -> None:
    seen = p.view(ready_all(p.new_game(seed=1)), 0)
    state = p.determinize(seen, Rng.from_seed(5))
    assert p.legal_moves(state) == seen.legal_moves
    assert p.current_player(state) == seen.current_player


# --- new_game's seed ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_new_game_refuses_a_bad_seed_as_dice_poker_does(seed: Any) -> None:
    with pytest.raises(ConfigError) as palace_error:
        p.new_game(seed=seed)
    with pytest.raises(ConfigError) as dice_error:
        dp.new_game(seed=seed)
    assert str(palace_error.value) == str(dice_error.value)
    assert str(palace_error.value).startswith("seed must be an integer in [0, 2**64), got ")


def test_new_game_without_a_seed_draws_one_and_keeps_it() -> None:
    state = p.new_game()
    assert 0 <= state.seed < 2**64
    assert p.new_game(seed=state.seed) == state
