"""What one seat (or a spectator) may know of a palace game, and states consistent with it:
what the rules page's "Hidden information" makes public, plus the viewer's own hand.

>>> from tabletop_rules.palace import new_game, view
>>> seen = view(new_game(seed=7), seat=1)
>>> seen.hand_sizes, seen.stock_size, seen.face_down
((3, 3), 34, ((True, True, True), (True, True, True)))
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from typing import NoReturn

import attrs

from .._messages import short_repr
from .._seats import check_seat
from .._slots import maker
from ..errors import InvalidStateError
from ..kit import unseen_cards
from ..protocol import Seat
from ..rng import Rng
from .cards import DECK, Card, deck_cards
from .config import ROW, Config
from .rules import current_player, legal_moves, score, winners
from .state import State, View, _fitting_deal, per_seat, row_cards

__all__: list[str] = []

_make_view = maker(View)
_SHARED = set(attrs.fields_dict(State)) & set(attrs.fields_dict(View)) - {"seat", "face_down"}
"""The fields a State and its View hold alike (a view's ``seat`` is its viewer, its
``face_down`` where a card lies)."""


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    to_move = current_player(state)
    return _make_view(
        **{name: getattr(state, name) for name in _SHARED},
        seat=seat,
        current_player=to_move,
        on_turn=state.seat,
        face_down=tuple(tuple(card is not None for card in row) for row in state.face_down),
        hand_sizes=tuple(map(len, state.hands)),
        hand=() if seat is None else state.hands[seat],
        stock_size=len(state.stock),
        scores=score(state),
        winners=winners(state),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )


def _fail(why: str) -> NoReturn:
    raise InvalidStateError(f"invalid palace view: {why}")


def _cards(name: str, value: object) -> tuple[Card, ...]:
    return deck_cards(name, value, _fail)


def _hidden(seen: View) -> list[Card]:
    """The cards ``seen`` (a View: the kit checked) does not show, once its shape and
    counts are checked.
    """
    config = seen.config
    if type(config) is not Config:
        _fail(f"expected a palace Config, got {short_repr(config)}")
    players = config.players
    viewer = seen.seat
    try:
        check_seat(viewer, players)
    except ValueError as error:
        _fail(str(error))
    for name in ("face_up", "face_down", "hand_sizes", "known"):
        per_seat(name, getattr(seen, name), players, _fail)
    hand = _cards("the viewer's hand", seen.hand)
    if viewer is None and hand:
        _fail("a spectator holds no hand")
    visible = Counter(_cards("the pile", seen.pile) + _cards("the burned cards", seen.burned))
    visible.update(hand)
    hidden = 0
    for seat in range(players):
        size = seen.hand_sizes[seat]
        if type(size) is not int or size < 0:
            _fail(f"seat {seat}'s hand size must be a whole number, got {short_repr(size)}")
        known = _cards(f"seat {seat}'s known cards", seen.known[seat])
        if len(known) > size:
            _fail(f"seat {seat} holds {size} cards in hand but {len(known)} of them are known")
        if seat == viewer:
            if len(hand) != size:
                _fail(f"the viewer's hand holds {len(hand)} cards, but its hand size is {size}")
        else:
            visible.update(known)
            hidden += size - len(known)
        up = row_cards(f"seat {seat}'s face-up row", seen.face_up[seat], _fail)
        visible.update(card for card in up if card is not None)
    for seat in range(players):
        down = seen.face_down[seat]
        if type(down) is not tuple or len(down) != ROW or any(type(s) is not bool for s in down):
            _fail(f"seat {seat}'s face-down row must be {ROW} booleans (occupied or not)")
        hidden += sum(down)
    stock = seen.stock_size
    if type(stock) is not int or stock < 0:
        _fail(f"the stock size must be a whole number, got {short_repr(stock)}")
    hidden += stock
    holds = f"{config.decks} deck(s) hold"
    return unseen_cards(DECK * config.decks, visible, hidden, _fail, holds=holds)


def _deal(seen: View, unseen: list[Card], rng: Rng) -> State:
    """A state with ``seen``'s public part, a seed drawn from ``rng``, and the ``unseen``
    cards shuffled by ``rng`` into the other seats' unknown hand cards, the face-down slots
    and the stock, in that order; its deal is :func:`~tabletop_rules.palace.fitting_deal`.
    """
    seed, rng = rng.next_u64()
    cards, _rng = rng.shuffled(unseen)
    deck = iter(cards)
    hands = tuple(
        seen.hand
        if seat == seen.seat
        else tuple(sorted(seen.known[seat] + tuple(islice(deck, size - len(seen.known[seat])))))
        for seat, size in enumerate(seen.hand_sizes)
    )
    face_down = tuple(tuple(next(deck) if down else None for down in row) for row in seen.face_down)
    state = State(
        **{name: getattr(seen, name) for name in _SHARED},
        seed=seed,
        hands=hands,
        face_down=face_down,
        stock=tuple(deck),
        seat=seen.on_turn,
        deal=None,
    )
    return attrs.evolve(state, deal=_fitting_deal(state))


def determinize(seen: View, rng: Rng) -> State:
    """A full state consistent with ``seen``: the cards its seat cannot see shuffled by
    ``rng`` into the hidden places; ``view`` of the result for the same seat is ``seen``.

    >>> from tabletop_rules.palace import Ready, apply, determinize, new_game, view
    >>> state = apply(new_game(seed=7), Ready())
    >>> seen = view(state, 1)
    >>> sampled = determinize(seen, Rng.from_seed(99))
    >>> view(sampled, 1) == seen, sampled.hands[1] == state.hands[1], sampled.stock == state.stock
    (True, True, False)
    """
    return _deal(seen, _hidden(seen), rng)
