"""What one seat (or a spectator) may know of an account game (:doc:`/rules/account`,
"Hidden information"), and states consistent with it.
"""

from __future__ import annotations

from collections import Counter
from itertools import islice

import attrs

from ..kit import Fail, Rng, check_seat, maker, short_repr, top_seats, unseen_cards
from ..protocol import Seat
from .cards import CARD_ORDER, Card
from .config import Config
from .rules import current_player, legal_moves
from .state import Column, State, View, cards_of

__all__: list[str] = []


_make_view = maker(View)
_SHARED = tuple(
    sorted(set(attrs.fields_dict(View)) & set(attrs.fields_dict(State)) - {"seat", "discard"})
)  # the fields a view copies from its state as they are


def view(state: State, seat: Seat | None) -> View:
    to_move = current_player(state)
    over = to_move is None
    return _make_view(
        **{name: getattr(state, name) for name in _SHARED},
        seat=seat,
        current_player=to_move,
        on_turn=state.seat,
        rounds=state.turns // state.config.players,
        pack_size=len(state.pack),
        discard=tuple(sorted(state.discard, key=CARD_ORDER)),
        scores=state.accounts,
        winners=top_seats(state.accounts) if over else frozenset(),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )


def check_view(seen: View, fail: Fail) -> None:
    """What the shell needs of a view before it deals a state from it: its shape, and its
    cards and pack size adding up to the deck.
    """
    config = seen.config
    if type(config) is not Config:
        fail(f"expected an account Config, got {short_repr(config)}")
    check_seat(seen.seat, config.players)
    if type(seen.field) is not tuple or len(seen.field) != config.columns:
        fail(f"field must hold {config.columns} columns, got {short_repr(seen.field)}")
    shown: list[Card] = []
    for column, cards in enumerate(seen.field):
        shown += cards_of(f"column {column}", cards, fail)
    shown += cards_of("the discard pile", seen.discard, fail)
    if list(seen.discard) != sorted(seen.discard, key=CARD_ORDER):
        fail("the discard pile must be sorted by kind (its order is hidden)")
    pack = seen.pack_size
    if type(pack) is not int or pack < 0:
        fail(f"the pack size must be a whole number, got {short_repr(pack)}")
    unseen_cards(config.deck_cards(), shown, pack, fail, key=CARD_ORDER)


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
    """
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
