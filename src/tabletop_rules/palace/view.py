"""What one seat (or a spectator) may know of a palace game, and states consistent with it:
what the rules page's "Hidden information" makes public, plus the viewer's own hand.

>>> from tabletop_rules.palace import new_game, view
>>> seen = view(new_game(seed=7), seat=1)
>>> seen.hand_sizes, seen.stock_size, seen.face_down
((3, 3), 34, ((True, True, True), (True, True, True)))
"""

from __future__ import annotations

from itertools import islice

import attrs

from .._messages import short_repr
from .._seats import check_seat
from .._slots import maker
from .._validation import check_type
from ..protocol import Seat
from ..rng import Rng
from .invariants import hidden_cards, unchecked_fitting_deal
from .rules import current_player, legal_moves, refuse_non_state, score, winners
from .state import State, View

__all__: list[str] = []

_make_view = maker(View)
_SHARED = set(attrs.fields_dict(State)) & set(attrs.fields_dict(View)) - {"seat", "face_down"}
"""The fields a State and its View hold alike (a view's ``seat`` is its viewer, its
``face_down`` where a card lies)."""


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    if type(state) is not State:
        refuse_non_state(state)
    check_seat(seat, state.config.players)
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


def determinize(seen: View, rng: Rng) -> State:
    """A full state consistent with ``seen``: a seed drawn from ``rng``, and the cards its
    seat cannot see shuffled by ``rng`` into the other seats' unknown hand cards, the
    face-down slots and the stock, in that order; its deal is
    :func:`~tabletop_rules.palace.invariants.fitting_deal`. ``view`` of the result for the
    same seat is ``seen``.

    >>> from tabletop_rules.palace import Ready, apply, determinize, new_game, view
    >>> state = apply(new_game(seed=7), Ready())
    >>> seen = view(state, 1)
    >>> sampled = determinize(seen, Rng.from_seed(99))
    >>> view(sampled, 1) == seen, sampled.hands[1] == state.hands[1], sampled.stock == state.stock
    (True, True, False)
    """
    check_type(seen, (View,))
    if type(rng) is not Rng:
        raise TypeError(f"rng must be an Rng, got {short_repr(rng)}")
    unseen = hidden_cards(seen)
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
    return attrs.evolve(state, deal=unchecked_fitting_deal(state))
