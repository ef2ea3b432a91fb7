"""Views that front ends can use: parse_move from a palace view, a clear TypeError when a
function that needs the state is handed a view (or anything else), and new_game's seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given

from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError, IllegalMoveError, NotationError, TabletopError
from tabletop_rules.palace.state import MAX_SWAPS
from tabletop_rules.rng import Rng

from .helpers import hand, position, ready_all
from .test_properties import configs, playout, playout_settings, seeds

# --- parse_move from a view ----------------------------------------------------------------


def outcome(state: p.State | p.View, text: str) -> object:
    """What parse_move gives: the move (by identity), or the error's class and message."""
    try:
        return ("move", id(p.parse_move(state, text)))
    except TabletopError as error:
        return (type(error).__name__, str(error))


def texts_to_try(state: p.State) -> list[str]:
    """Every legal move's text, ranks-only plays of every rank held and some not, cards
    held and not, and every other verb, legal here or not.
    """
    seat = state.seat
    texts = [p.format_move(move) for move in p.legal_moves(state)]
    held = sorted({*state.hands[seat], *(c for c in state.face_up[seat] if c is not None)})
    for rank in sorted({card.rank for card in held} | {4, 9, 14}):
        word = str(p.Card(rank, "C"))[:-1]
        texts += [f"play {word}", f"play {word} {word}", f"play {' '.join([word] * 5)}"]
    texts += [f"play {card}" for card in held[:3]]
    texts += ["play 4C", "play AS AS", "take", "end", "ready", "blind 0", "blind 1", "blind 2"]
    up = [card for card in state.face_up[seat] if card is not None]
    if state.hands[seat] and up:
        texts += [f"swap {state.hands[seat][0]} {up[-1]}", f"swap {up[-1]} {up[-1]}"]
    texts += ["swap 4C 5D", "play 7 8", "jump"]
    return texts


@playout_settings
@given(configs(), seeds, seeds)
def test_parse_move_from_the_view_on_turn_gives_exactly_what_the_state_gives(
    config: p.Config, seed: int, chooser: int
) -> None:
    steps = playout(config, seed, chooser)
    for state, _move in steps[:: max(1, len(steps) // 12)]:
        if p.is_over(state):
            continue
        seen = p.view(state, state.seat)
        for text in texts_to_try(state):
            assert outcome(seen, text) == outcome(state, text), text


def test_a_legal_move_parsed_from_a_view_is_the_instance_the_view_lists() -> None:
    state = ready_all(p.new_game(seed=1))
    seen = p.view(state, p.current_player(state))
    for move in seen.legal_moves:
        parsed = p.parse_move(seen, p.format_move(move))
        assert parsed is move


def test_play_ranks_only_from_a_view_lays_the_viewers_own_cards() -> None:
    state = position(hands=["7H 7S 9D", "7C 7D"], pile="5D")
    assert p.parse_move(p.view(state, 0), "play 7 7") == p.Play(hand("7H 7S"))
    assert p.parse_move(p.view(state, 0), "play 7S") == p.Play(hand("7H"))  # canonical


def test_play_ranks_only_from_a_view_lays_the_face_up_row_once_the_hand_is_empty() -> None:
    state = position(
        p.Config(face_up_play="from_table"),
        hands=["", "4C"],
        up=["7S 9D 7D", "- - -"],
        down=["5C 5D 5H", "- - -"],
        pile="6H",
    )
    assert p.parse_move(p.view(state, 0), "play 7 7") == p.Play(hand("7D 7S"))


def test_play_ranks_only_from_a_view_refuses_more_than_the_viewer_holds() -> None:
    state = position(hands=["7H 9D", "7C 7D 7S"], pile="5D")
    with pytest.raises(IllegalMoveError, match="seat 0 holds only 1 7s in hand, not 2"):
        p.parse_move(p.view(state, 0), "play 7 7")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("play 4", "4C is lower than the 9S on the pile"),
        ("play 4C", "4C is lower than the 9S on the pile"),
        ("play QH", "seat 0 does not hold QH in hand"),
        ("take", "a player who can play does not take the pile"),
        ("blind 1", "seat 0 still holds cards in hand"),
        ("end", "'end' ends a turn only after four of a kind"),
        ("ready", "the swap phase is over"),
    ],
)
def test_parse_move_from_a_view_names_the_rule_as_from_the_state(text: str, match: str) -> None:
    state = position(hands=["4C 10D JS", "QH KD"], pile="9S", down=["5C 5D 5H", "6C 6D 6H"])
    with pytest.raises(IllegalMoveError, match=match) as from_state:
        p.parse_move(state, text)
    with pytest.raises(IllegalMoveError) as from_view:
        p.parse_move(p.view(state, 0), text)
    assert str(from_view.value) == str(from_state.value)


def test_parse_move_from_a_view_when_a_three_makes_the_seat_take() -> None:
    state = position(hands=["4C 10D", "QH"], pile="9S 3D", pending="take")
    assert p.parse_move(p.view(state, 0), "take") == p.TakePile()
    with pytest.raises(IllegalMoveError, match="a 3 is on top of the pile: seat 0 must take"):
        p.parse_move(p.view(state, 0), "play 10")


def test_parse_move_from_the_view_of_a_seat_not_on_turn_is_refused() -> None:
    seen = p.view(p.new_game(seed=1), 1)
    with pytest.raises(IllegalMoveError, match=r"seat 1 has no move now"):
        p.parse_move(seen, "ready")


def test_parse_move_from_a_spectators_view_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="a spectator has no move now"):
        p.parse_move(p.view(p.new_game(seed=1), None), "ready")


def test_parse_move_from_the_view_of_an_over_game_is_refused() -> None:
    over = p.apply(position(hands=["10D", "QH"]), p.Play(hand("10D")))
    assert p.is_over(over)
    with pytest.raises(IllegalMoveError, match="seat 0 has no move now: the game is over"):
        p.parse_move(p.view(over, 0), "take")


def test_text_that_names_no_move_is_refused_first_from_any_view() -> None:
    spectator = p.view(p.new_game(seed=1), None)
    with pytest.raises(NotationError, match="unknown move 'jump'"):
        p.parse_move(spectator, "jump")
    with pytest.raises(NotationError, match="move text is a string"):
        p.parse_move(spectator, 7)  # type: ignore[arg-type]


def test_parse_move_of_what_is_neither_a_state_nor_a_view_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="parse_move needs a palace State or View, got None"):
        p.parse_move(None, "take")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="palace State or View"):
        p.parse_move(dp.view(dp.new_game(seed=1), 0), "take")  # type: ignore[arg-type]


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
    for _ in range(MAX_SWAPS):
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
