"""What one seat (or a spectator) may know of an account game (:doc:`/rules/account`,
"Hidden information"), and states consistent with it.
"""

from __future__ import annotations

from collections import Counter
from itertools import islice

import attrs

from .._validation import refuse_state
from ..kit import Rng, check_seat, check_type, maker, short_repr, top_seats
from ..protocol import Seat
from .cards import CARD_ORDER, Card
from .config import Config
from .rules import current_player, legal_moves
from .state import Column, State, View

__all__: list[str] = []


_make_view = maker(View)
_SHARED = tuple(
    sorted(set(attrs.fields_dict(View)) & set(attrs.fields_dict(State)) - {"seat", "discard"})
)  # the fields a view copies from its state as they are


def view(state: State, seat: Seat | None) -> View:
    """What ``seat`` (``None``: a spectator) may know of ``state``."""
    if type(state) is not State:
        refuse_state(state, game="an account", state_type=State, view_type=View)
    check_seat(seat, state.config.players)
    to_move = current_player(state)
    return _make_view(
        **{name: getattr(state, name) for name in _SHARED},
        seat=seat,
        current_player=to_move,
        on_turn=state.seat,
        rounds=state.turns // state.config.players,
        pack_size=len(state.pack),
        discard=tuple(sorted(state.discard, key=CARD_ORDER)),
        scores=state.accounts,
        winners=top_seats(state.accounts) if to_move is None else frozenset(),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )


def pack_contents(seen: View) -> tuple[Card, ...]:
    """The cards of the pack by kind: the deck less the field and the discard pile."""
    hidden = Counter(seen.config.deck_counts())
    hidden.subtract(card for cards in seen.field for card in cards)
    hidden.subtract(seen.discard)
    return tuple(sorted(hidden.elements(), key=CARD_ORDER))


def determinize(seen: View, rng: Rng) -> State:
    """A state consistent with ``seen``: a seed drawn from ``rng``, then the pack and the
    discard pile shuffled by ``rng``; ``deal`` is a deck order that lays them and the field.

    >>> from tabletop_rules.account import determinize, new_game
    >>> state = new_game(seed=7)
    >>> seen = view(state, 1)
    >>> sampled = determinize(seen, Rng.from_seed(99))
    >>> view(sampled, 1) == seen, sampled.field == state.field, sampled.pack == state.pack
    (True, True, False)

    ``TypeError`` for what is no view or no :class:`Rng`.
    """
    check_type(seen, (View,))
    if type(rng) is not Rng:
        raise TypeError(f"rng must be an Rng, got {short_repr(rng)}")
    seed, rng = rng.next_u64()
    pack, rng = rng.shuffled(pack_contents(seen))
    discard, _rng = rng.shuffled(seen.discard)
    return State(
        **{name: getattr(seen, name) for name in _SHARED},
        seed=seed,
        rng=Rng.from_seed(seed),
        pack=pack,
        discard=discard,
        seat=seen.on_turn,
        deal=_laying(seen.config, seen.field, (*pack, *discard)),
    )


def _laying(config: Config, field: tuple[Column, ...], rest: tuple[Card, ...]) -> tuple[Card, ...]:
    """A deck order that lays ``field`` (each column first filled up from below with cards
    of ``rest``), then the rest as the pack.
    """
    spare = iter(rest)
    laid = [(*islice(spare, config.rows - len(cards)), *cards) for cards in field]
    lines = [column[row] for row in range(config.rows) for column in laid if row < len(column)]
    return (*lines, *spare)  # a view check_state refuses may not fill the field: no matter
