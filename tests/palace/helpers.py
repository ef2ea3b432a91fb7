"""Helpers for the rule-by-rule palace tests: cards from text, deals and positions.

A position is built as a :class:`~tabletop_rules.palace.State` by name and passed through
``check_state``, so every position a test starts from keeps the invariants; cards a test
does not place are put among the burned cards, and the position gets a deal it agrees
with (``fitting_deal``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.palace.cards import DECK
from tabletop_rules.palace.invariants import fitting_deal
from tabletop_rules.palace.state import Pending


def cards(text: str) -> tuple[p.Card, ...]:
    """``"7H 7S"`` as cards, in the order written."""
    return tuple(p.Card.parse(word) for word in text.split())


def hand(text: str) -> tuple[p.Card, ...]:
    """``"7S 7H"`` as a sorted hand."""
    return tuple(sorted(cards(text)))


def row(text: str) -> tuple[p.Card | None, ...]:
    """``"5C - 9D"`` as a row of three slots (``-`` for an empty slot)."""
    slots = tuple(None if word == "-" else p.Card.parse(word) for word in text.split())
    assert len(slots) == 3, text
    return slots


def play(text: str) -> p.Play:
    return p.Play(cards(text))


def deal_order(
    config: p.Config,
    *,
    down: Sequence[str] = (),
    up: Sequence[str] = (),
    hands: Sequence[str] = (),
    stock: str = "",
) -> list[p.Card]:
    """A deck order (top first) that deals the given rows and hands (seat by seat, texts
    of three cards and ``hand_size`` cards) and puts ``stock`` on top of the stock; every
    other card fills the remaining places in deck order."""
    n = config.players
    order: list[p.Card | None] = [None] * config.cards
    for seat, text in enumerate(down):
        for r, card in enumerate(cards(text)):
            order[r * n + seat] = card
    for seat, text in enumerate(up):
        for r, card in enumerate(cards(text)):
            order[(3 + r) * n + seat] = card
    for seat, text in enumerate(hands):
        for r, card in enumerate(cards(text)):
            order[(6 + r) * n + seat] = card
    base = n * (6 + config.hand_size)
    for i, card in enumerate(cards(stock)):
        order[base + i] = card
    rest = Counter(dict.fromkeys(DECK, config.decks))
    rest.subtract(card for card in order if card is not None)
    assert all(count >= 0 for count in rest.values()), "a card placed too often"
    spare = iter(sorted(rest.elements()))
    return [card if card is not None else next(spare) for card in order]


def ready_all(state: p.State) -> p.State:
    """Every seat declares Ready: play starts."""
    while state.phase == "swap":
        state = p.apply(state, p.Ready())
    return state


def position(
    config: p.Config | None = None,
    *,
    hands: Sequence[str],
    up: Sequence[str] | None = None,
    down: Sequence[str] | None = None,
    known: Sequence[str] | None = None,
    stock: str = "",
    pile: str = "",
    seat: int = 0,
    pending: Pending = "none",
    finished: tuple[int, ...] = (),
    turns: int = 0,
) -> p.State:
    """A play-phase position; rows default to empty, unplaced cards are burned."""
    config = config or p.Config()
    n = config.players
    up = up if up is not None else ["- - -"] * n
    down = down if down is not None else ["- - -"] * n
    fields: dict[str, Any] = {
        "hands": tuple(hand(text) for text in hands),
        "known": tuple(hand(text) for text in known) if known else ((),) * n,
        "face_up": tuple(row(text) for text in up),
        "face_down": tuple(row(text) for text in down),
        "stock": cards(stock),
        "pile": cards(pile),
    }
    placed: Counter[p.Card] = Counter()
    for name in ("hands", "face_up", "face_down"):
        for seat_cards in fields[name]:
            placed.update(card for card in seat_cards if card is not None)
    placed.update(fields["stock"])
    placed.update(fields["pile"])
    rest = Counter(dict.fromkeys(DECK, config.decks))
    rest.subtract(placed)
    state = p.State(
        config=config,
        seed=0,
        burned=tuple(sorted(rest.elements())),
        phase="play",
        seat=seat,
        pending=pending,
        finished=finished,
        turns=turns,
        **fields,
    )
    state = attrs.evolve(state, deal=fitting_deal(state))
    p.check_state(state)
    return state


def assert_illegal(state: p.State, move: object, match: str) -> None:
    """``move`` raises IllegalMoveError matching ``match``, and the state is unchanged."""
    before = repr(state)
    with pytest.raises(IllegalMoveError, match=match):
        p.apply(state, move)  # type: ignore[arg-type]
    assert repr(state) == before


def plays(state: p.State) -> list[str]:
    """The listed plays as text, ``"7H 7S"`` each."""
    return [" ".join(map(str, move.cards)) for move in p.legal_moves(state) if type(move) is p.Play]


def events_of(state: p.State, move: p.Move) -> tuple[p.State, list[str]]:
    """The state after ``move`` and its events' class names."""
    after, events = p.apply_with_events(state, move)
    p.check_state(after)
    return after, [type(event).__name__ for event in events]
