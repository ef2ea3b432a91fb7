"""Views: exactly what the rules page's "Hidden information" makes public plus the seat's
own hand; redacted events; check_view on views whose counts do not add up.
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import InvalidStateError, SeatError

from .helpers import cards, deal_order, hand, play, position, ready_all, row

CONFIG = p.Config()
DEAL = deal_order(
    CONFIG,
    down=["AC AD AH", "AS KC KD"],
    up=["4C 5C 6C", "4D 5D 6D"],
    hands=["7C 8C 9C", "7D 8D 9D"],
    stock="KH KS QC",
)


def rendered(seen: p.View) -> str:
    """A JSON-like rendering of every field: cards as their text."""

    def plain(value: Any) -> Any:
        if type(value) is p.Card:
            return str(value)
        if isinstance(value, tuple | frozenset):
            return [plain(item) for item in value]
        if attrs.has(type(value)):
            return {f.name: plain(getattr(value, f.name)) for f in attrs.fields(type(value))}
        return value

    return json.dumps(plain(seen), sort_keys=True)


def seen_cards(seen: p.View) -> set[p.Card]:
    """Every card object anywhere in the view."""
    found: set[p.Card] = set()

    def walk(value: Any) -> None:
        if type(value) is p.Card:
            found.add(value)
        elif isinstance(value, tuple | frozenset):
            for item in value:
                walk(item)
        elif attrs.has(type(value)):
            for field in attrs.fields(type(value)):
                walk(getattr(value, field.name))

    walk(seen)
    return found


# --- what a view holds ------------------------------------------------------------------


def test_a_seats_view_of_a_given_deal_shows_the_public_table_and_its_own_hand() -> None:
    state = p.new_game(CONFIG, seed=1, deal=DEAL)
    seen = p.view(state, 1)
    assert seen.seat == 1
    assert seen.config == CONFIG
    assert (seen.phase, seen.current_player, seen.on_turn, seen.swaps) == ("swap", 0, 0, 0)
    assert seen.pending == "none"
    assert seen.face_up == (row("4C 5C 6C"), row("4D 5D 6D"))
    assert seen.face_down == ((True, True, True), (True, True, True))
    assert seen.hand_sizes == (3, 3)
    assert seen.known == ((), ())
    assert seen.hand == hand("7D 8D 9D")
    assert seen.stock_size == 52 - 18
    assert (seen.pile, seen.burned, seen.turns, seen.finished) == ((), (), 0, ())
    assert (seen.scores, seen.winners) == ((0, 0), frozenset())
    assert seen.legal_moves == ()  # seat 0 swaps first


def test_the_seat_to_move_sees_its_legal_moves() -> None:
    state = p.new_game(CONFIG, seed=1, deal=DEAL)
    assert p.view(state, 0).legal_moves == p.legal_moves(state)
    assert p.view(state, 0).hand == hand("7C 8C 9C")


def test_a_spectator_sees_no_hand_and_no_moves() -> None:
    state = p.new_game(CONFIG, seed=1, deal=DEAL)
    seen = p.view(state, None)
    assert seen.seat is None
    assert seen.hand == ()
    assert seen.legal_moves == ()
    assert seen.hand_sizes == (3, 3)


def test_a_view_never_carries_the_seed_the_rng_the_deal_or_the_stock() -> None:
    names = {field.name for field in attrs.fields(p.View)}
    assert not names & {"seed", "rng", "deal", "stock", "hands"}


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_no_hidden_card_shows_in_a_views_fields_repr_or_rendering(seat: int | None) -> None:
    state = p.new_game(CONFIG, seed=1, deal=DEAL)
    seen = p.view(state, seat)
    # one deck: every card is unique, so a hidden card's text appears nowhere else
    hidden = [card for down in state.face_down for card in down if card is not None]
    hidden += state.stock
    hidden += [card for s, held in enumerate(state.hands) if s != seat for card in held]
    text, json_text = repr(seen), rendered(seen)
    assert '"4D"' in json_text  # a face-up card: the rendering names cards by their text
    for card in hidden:
        assert card not in seen_cards(seen)
        assert repr(card) not in text
        assert f'"{card}"' not in json_text
    visible = {card for up in state.face_up for card in up if card is not None}
    if seat is not None:
        visible |= set(state.hands[seat])
    assert seen_cards(seen) - {c for m in seen.legal_moves for c in getattr(m, "cards", ())} <= (
        visible
    )


def test_other_seats_see_the_known_part_of_a_hand_only() -> None:
    state = position(
        hands=["4H 5S", "AS KS QS"],
        down=["7C 7D 7H", "8C 8D 8H"],
        pile="6C 9D",
    )
    state = p.apply(state, p.TakePile())
    assert state.hands[0] == hand("4H 5S 6C 9D")
    seen = p.view(state, 1)
    assert seen.known[0] == hand("6C 9D")
    assert seen.hand_sizes[0] == 4
    text = repr(seen)
    for secret in ("4H", "5S", "7C", "7D", "7H", "8C", "8D", "8H"):
        assert repr(p.Card.parse(secret)) not in text
    assert p.view(state, 0).hand == hand("4H 5S 6C 9D")


def test_face_down_rows_show_only_which_slots_are_occupied() -> None:
    state = position(hands=["", "AD"], down=["4C - 9H", "KC KD KH"], pile="5S")
    seen = p.view(state, 1)
    assert seen.face_down == ((True, False, True), (True, True, True))
    assert "rank=9, suit='H'" not in repr(seen)
    assert p.view(state, 0).legal_moves == (p.PlayBlind(0), p.PlayBlind(2))


def test_a_finished_game_has_no_current_player_and_names_its_winners() -> None:
    state = position(p.Config(players=3), hands=["9C", "AD", "KD"])
    state = p.apply(state, play("9C"))
    seen = p.view(state, 2)
    assert (seen.phase, seen.current_player, seen.finished) == ("over", None, (0,))
    assert (seen.scores, seen.winners, seen.legal_moves) == ((2, 0, 0), frozenset({0}), ())


@pytest.mark.parametrize(
    ("seat", "error"), [(2, SeatError), (-1, SeatError), (True, TypeError), ("0", TypeError)]
)
def test_a_view_for_a_seat_not_at_the_table_is_refused(
    seat: object, error: type[Exception]
) -> None:
    with pytest.raises(error, match="seat must be"):
        p.view(p.new_game(seed=1), seat)  # type: ignore[arg-type]


# --- redacted events ----------------------------------------------------------------------


def drew_event() -> p.Drew:
    state = ready_all(p.new_game(CONFIG, seed=1, deal=DEAL))
    seat = state.seat
    move = next(m for m in p.legal_moves(state) if type(m) is p.Play)
    _after, events = p.apply_with_events(state, move)
    drew = next(event for event in events if type(event) is p.Drew)
    assert drew.seat == seat
    return drew


def test_a_drawn_card_is_visible_to_its_drawer_only() -> None:
    drew = drew_event()
    assert p.redact(drew, drew.seat) == drew
    assert drew.cards == cards("KH")
    assert drew.count == 1
    for other in (None, 1 - drew.seat):
        hidden = p.redact(drew, other)
        assert hidden == p.Drew(drew.seat, None, 1)
        assert "rank=13" not in repr(hidden)


def test_public_events_pass_redaction_unchanged() -> None:
    state = position(hands=["4H 5S", "AS KS QS"], pile="6C 9D", stock="JH")
    _after, events = p.apply_with_events(state, p.TakePile())
    for event in events:
        for seat in (None, 0, 1):
            assert p.redact(event, seat) is event
    blind = position(hands=["", "AD"], down=["4C - -", "- - -"], pile="9S")
    _after, events = p.apply_with_events(blind, p.PlayBlind(0))
    assert any(type(event) is p.TurnedBlind for event in events)
    assert all(p.redact(event, 1) is event for event in events)


def test_a_drew_event_says_how_many_cards_it_holds() -> None:
    assert p.Drew(0, cards("4H 5H")).count == 2
    with pytest.raises(ValueError, match="cannot say it drew 3"):
        p.Drew(0, cards("4H 5H"), 3)


# --- check_view ---------------------------------------------------------------------------


def a_view() -> p.View:
    state = position(
        hands=["4H 5S", "AS KS QS"],
        down=["7C 7D 7H", "8C 8D -"],
        up=["- - -", "- - -"],
        known=["", "AS KS"],
        pile="6C 9D",
        stock="JH JD",
    )
    return p.view(state, 0)


def test_check_view_accepts_every_seats_view_of_a_position() -> None:
    seen = a_view()
    p.check_view(seen)
    p.check_view(attrs.evolve(seen, seat=None, hand=(), legal_moves=()))


BROKEN: list[tuple[str, dict[str, Any]]] = [
    ("counts do not add up", {"stock_size": 3}),
    ("counts do not add up", {"hand_sizes": (2, 4)}),
    ("the viewer's hand holds 2 cards, but its hand size is 3", {"hand_sizes": (3, 2)}),
    ("seat 1 holds 1 cards in hand but 2 of them are known", {"hand_sizes": (2, 1)}),
    ("counts do not add up", {"face_down": ((True,) * 3, (True,) * 3)}),
    ("face-down row must be 3 booleans", {"face_down": ((1, 1, 1), (True, True, False))}),
    ("shown more often than 1 deck", {"pile": cards("6C 9D 4H")}),
    ("shown more often than 1 deck", {"known": ((), hand("6C 6C"))}),
    ("a spectator holds no hand", {"seat": None}),
    ("not one of the deck's cards", {"pile": ("6C", "9D")}),
    ("one entry for each of the 2 seats", {"known": ((),)}),
    ("current_player", {"current_player": 1}),
    ("legal_moves", {"legal_moves": ()}),
    ("scores", {"scores": (1, 0)}),
    ("phase must be one of", {"phase": "dealing"}),
]


@pytest.mark.parametrize(("match", "change"), BROKEN, ids=[str(c) for _m, c in BROKEN])
def test_check_view_refuses_a_view_that_does_not_add_up(match: str, change: dict[str, Any]) -> None:
    seen = attrs.evolve(a_view(), **change)
    with pytest.raises(InvalidStateError, match="invalid palace view: .*" + re.escape(match)):
        p.check_view(seen)


def test_check_view_refuses_legal_moves_for_a_seat_not_on_turn() -> None:
    seen = attrs.evolve(a_view(), seat=1, hand=hand("AS KS QS"), legal_moves=())
    p.check_view(seen)
    with pytest.raises(InvalidStateError, match="legal_moves"):
        p.check_view(attrs.evolve(seen, legal_moves=(p.TakePile(),)))


def test_check_view_refuses_what_is_not_a_view() -> None:
    with pytest.raises(InvalidStateError, match="expected a palace View"):
        p.check_view(p.new_game(seed=1))  # type: ignore[arg-type]
