"""Views: what a seat may know of an account game, states consistent with it, the
redaction of events, and the JSON hooks."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from cattrs.errors import ClassValidationError
from hypothesis import given

from tabletop_rules import account as a
from tabletop_rules import account as r
from tabletop_rules import serialize
from tabletop_rules.account.cards import CARDS
from tabletop_rules.account.config import FORMAT_VERSION
from tabletop_rules.account.events import Drew, Reshuffled
from tabletop_rules.account.moves import Advance
from tabletop_rules.account.notation import json_hooks
from tabletop_rules.account.state import lay
from tabletop_rules.errors import InvalidStateError, NotationError, SeatError
from tabletop_rules.protocol import CHANCE
from tabletop_rules.rng import Rng
from tabletop_rules.serialize import converter as shared_converter

from .helpers import card, game, placed, rolled
from .test_properties import configs, playout, playout_settings, seeds

HIDDEN_NAMES = ("seed", "rng", "pack", "deal")


def cards(*texts: str) -> tuple[a.Card, ...]:
    return tuple(map(card, texts))


def a_position() -> a.State:
    """Play, seat 0 on turn, one B landing done: Z and -25 are on the discard pile."""
    state = placed(game(["+1", "B", "+10"], pack=["Z", "-25", "+15", "P"], players=2), 0, 2)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    assert state.discard == cards("Z", "-25")
    return state


def test_a_view_shows_the_public_table() -> None:
    state = a_position()
    seen = a.view(state, 1)
    assert seen.seat == 1
    assert seen.config == state.config
    assert seen.phase == "play"
    assert seen.on_turn == 1
    assert seen.current_player == 1
    assert seen.field == state.field
    assert seen.markers == ((1,), (2,))
    assert seen.accounts == seen.scores == state.accounts == (1 - 25, 10)
    assert (seen.turns, seen.rounds) == (1, 0)
    assert (seen.roll, seen.awaiting_die, seen.moved, seen.ending) == (None, False, (), False)
    assert seen.pack_size == 2
    assert seen.discard == cards("-25", "Z")  # sorted by kind, not in pile order
    assert seen.winners == frozenset()
    assert seen.legal_moves == r.legal_moves(state)


def test_only_the_seat_to_move_sees_legal_moves() -> None:
    state = a_position()
    assert a.view(state, 0).legal_moves == ()
    assert a.view(state, None).legal_moves == ()
    assert a.view(state, 1).legal_moves


def test_a_roll_awaiting_its_die_is_a_chance_point_with_no_moves_for_anyone() -> None:
    state = r.apply(a_position(), a.Roll())
    assert state.awaiting_die
    for seat in (0, 1, None):
        seen = a.view(state, seat)
        assert seen.current_player == CHANCE
        assert seen.awaiting_die
        assert seen.legal_moves == ()


def test_a_view_never_carries_the_seed_the_rng_the_deal_or_the_pack() -> None:
    names = {field.name for field in attrs.fields(a.View)}
    assert not names & set(HIDDEN_NAMES)
    state = r.new_game(seed=2**63 + 12345)
    for seat in (0, 1, None):
        text = repr(a.view(state, seat))
        assert "Rng" not in text
        assert str(state.seed) not in text
        assert str(state.rng.state) not in text


def test_views_do_not_depend_on_the_pack_or_discard_order_or_the_rng() -> None:
    state = a_position()
    other = attrs.evolve(
        state,
        seed=12345,
        rng=Rng.from_seed(12345),
        pack=tuple(reversed(state.pack)),
        discard=tuple(reversed(state.discard)),
    )
    a.check_state(other)
    assert other.pack != state.pack
    assert other.discard != state.discard
    for seat in (0, 1, None):
        assert a.view(other, seat) == a.view(state, seat)


def test_a_finished_game_has_no_current_player_and_names_its_winners() -> None:
    state = placed(game(["+10", "End"], players=1), 0)
    state = r.apply(rolled(state, 1), Advance(0, "right", 1))
    seen = a.view(state, 0)
    assert seen.phase == "over"
    assert seen.current_player is None
    assert seen.winners == frozenset({0})
    assert seen.legal_moves == ()


@pytest.mark.parametrize(
    ("seat", "error"),
    [(2, SeatError), (-1, SeatError), (True, TypeError), ("0", TypeError), (1.0, TypeError)],
)
def test_a_view_for_a_seat_not_at_the_table_is_refused(
    seat: object, error: type[Exception]
) -> None:
    with pytest.raises(error, match="seat must be"):
        a.view(a_position(), seat)  # type: ignore[arg-type]


def test_determinize_redeals_the_pack_and_discard_pile_and_keeps_the_table() -> None:
    state = a_position()
    seen = a.view(state, 0)
    sampled = a.determinize(seen, Rng.from_seed(99))
    a.check_state(sampled)
    assert a.view(sampled, 0) == seen
    assert sampled.field == state.field
    assert sampled.accounts == state.accounts
    assert sorted(sampled.pack, key=str) == sorted(state.pack, key=str)
    assert sorted(sampled.discard, key=str) == sorted(state.discard, key=str)
    assert sampled.seed != state.seed
    assert sampled.deal is not None  # the seed did not shuffle the field: a deal laid it
    assert lay(sampled.config, sampled.deal)[0] == sampled.field
    assert sampled.rng == Rng.from_seed(sampled.seed)
    assert a.determinize(seen, Rng.from_seed(99)) == sampled  # reproducible
    packs = {a.determinize(seen, Rng.from_seed(n)).pack for n in range(20)}
    assert len(packs) == 2  # both orders of the two hidden cards turn up


# --- check_view ------------------------------------------------------------------------


def test_check_view_accepts_every_seats_view_of_a_position() -> None:
    state = a_position()
    for seat in (0, 1, None):
        a.check_view(a.view(state, seat))
    a.check_view(a.view(r.apply(state, a.Roll()), None))


@pytest.mark.parametrize(
    ("match", "change"),
    [
        ("do not add up", {"pack_size": 3}),
        ("do not add up", {"pack_size": 1}),
        ("pack size", {"pack_size": -1}),
        ("sorted by kind", {"discard": cards("Z", "-25")}),
        ("more often than the deck", {"discard": cards("-25", "T")}),
        ("not one of the package's cards", {"discard": ("-25", "Z")}),
        ("field must hold", {"field": ()}),
        ("seat must be", {"seat": 5}),
        ("scores", {"scores": (0, 0)}),
        ("rounds", {"rounds": 3}),
        ("current_player", {"current_player": 0}),
        ("winners", {"winners": frozenset({1})}),
        ("marker m0", {"markers": ((1,), (7,))}),
    ],
)
def test_check_view_refuses_a_view_that_does_not_add_up(match: str, change: dict[str, Any]) -> None:
    seen = attrs.evolve(a.view(a_position(), 1), **change)
    with pytest.raises(InvalidStateError, match=match):
        a.check_view(seen)
    with pytest.raises(InvalidStateError):
        a.determinize(seen, Rng.from_seed(1))


def test_check_view_refuses_legal_moves_for_a_seat_not_on_turn() -> None:
    state = a_position()
    seen = attrs.evolve(a.view(state, 0), legal_moves=r.legal_moves(state))
    with pytest.raises(InvalidStateError, match="legal_moves"):
        a.check_view(seen)


def test_check_view_refuses_what_is_not_a_view() -> None:
    with pytest.raises(InvalidStateError, match="expected an account View"):
        a.check_view(a_position())  # type: ignore[arg-type]


# --- redaction -------------------------------------------------------------------------


def test_every_event_is_public() -> None:
    state = placed(game(["+1", "B"], pack=["Z", "End", "-10", "+15"], players=1), 0)
    events: list[Any] = []
    for distance in (1, 2, 2):
        state, happened = r.apply_with_events(
            rolled(state, distance), Advance(0, "right", distance)
        )
        events.extend(happened)
    assert any(type(e) is Drew for e in events)
    assert any(type(e) is Reshuffled for e in events)
    for event in events:
        for seat in (0, None):
            assert a.redact(event, seat) is event


# --- JSON hooks ------------------------------------------------------------------------


@pytest.fixture
def converter() -> Any:
    # The shared converter, as registration will configure it: its tuple hook structures
    # items through the shared converter, so a copy would not reach the card hook.
    json_hooks(shared_converter)
    return shared_converter


def test_cards_travel_as_their_text(converter: Any) -> None:
    assert FORMAT_VERSION == 1
    for each in CARDS:
        assert converter.unstructure(each) == str(each)
        assert converter.structure(str(each), a.Card) is each


@pytest.mark.parametrize("text", ["end", "10", "+010", " B", 10, None])
def test_a_card_is_read_only_as_the_library_writes_it(converter: Any, text: object) -> None:
    with pytest.raises(NotationError):
        converter.structure(text, a.Card)


def test_a_configs_deck_travels_as_card_text_and_count_pairs(converter: Any) -> None:
    config = a.Config(deck={"+10": 40, "B": 3, "End": 1}, rows=3, columns=5)
    data = converter.unstructure(config)
    assert list(data["deck"][1]) == ["+10", 40]
    assert converter.structure(data, a.Config) == config


@pytest.mark.parametrize(
    "deck",
    [
        "x",
        [["+1", 8, 1]],
        [["end", 2]],
        [["+1", True]],
        [["+1", 2], ["+1", 3]],
        [["+1", -1]],
    ],
)
def test_a_bad_deck_is_refused(converter: Any, deck: object) -> None:
    data = converter.unstructure(a.Config())
    data["deck"] = deck
    with pytest.raises(ClassValidationError):  # wrapping the TypeError or ConfigError
        converter.structure(data, a.Config)


def test_states_and_spectator_views_round_trip_through_the_converter(converter: Any) -> None:
    # Views with legal moves need the move union, configured at registration.
    state = a_position()
    assert converter.structure(converter.unstructure(state), a.State) == state
    seen = a.view(state, 0)
    assert converter.structure(converter.unstructure(seen), a.View) == seen
    assert "Card(" not in repr(converter.unstructure(seen))


def test_states_views_and_moves_round_trip_through_serialize() -> None:
    state = a_position()
    assert serialize.loads(serialize.dumps(state)) == state
    assert serialize.loads(serialize.dumps(a.view(state, 1))) == a.view(state, 1)


# --- properties over random playouts ---------------------------------------------------


@playout_settings
@given(configs(), seeds)
def test_determinized_states_view_as_the_view_they_came_from(config: a.Config, seed: int) -> None:
    rng = Rng.from_seed(seed ^ 0xA5A5)
    states = playout(config, seed)
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        for seat in (*range(config.players), None):
            seen = a.view(state, seat)
            a.check_view(seen)
            sampled = a.determinize(seen, rng)
            rng = rng.advanced(1)
            a.check_state(sampled)
            assert a.view(sampled, seat) == seen
            assert sampled.field == state.field
            assert sorted(sampled.discard, key=str) == sorted(state.discard, key=str)
