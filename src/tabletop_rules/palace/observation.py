"""Palace views as numbers: :func:`encode_view` writes exactly what a view holds (never an
unseen card), the same length for every view of a config; the layout is on the API page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .._messages import short_repr
from .._validation import check_type
from ..observation import Features, seats_from, viewer_features
from .cards import DECK, RANK_TEXT, RANKS, SUITS, Card, top_run
from .config import CARDS_PER_DECK, ROW
from .state import MAX_SWAPS, PENDINGS, PHASES, View

__all__: list[str] = []

_CARDS = tuple(str(card) for card in DECK)
_RANK_LABELS = tuple(RANK_TEXT[rank] for rank in RANKS)
_SLOTS = tuple(f"s{slot}" for slot in range(ROW))


def _counts(cards: Iterable[Card | None]) -> list[int]:
    counts = Counter(cards)
    return [counts[card] for card in DECK]


def encode_view(seen: View, features: Features) -> None:
    """Write ``seen`` into ``features`` in the API page's layout; ``TypeError`` for a wrong type."""
    check_type(seen, (View,))
    if type(features) is not Features:
        raise TypeError(f"encode_view writes into Features, got {short_repr(features)}")
    config = seen.config
    players, decks = config.players, config.decks
    most = CARDS_PER_DECK * decks
    per_card = [decks] * CARDS_PER_DECK
    order = seats_from(seen.seat, players)
    viewer_features(features, seen.seat, players)
    features.one_hot("phase[", PHASES, PHASES.index(seen.phase))
    features.one_hot("pending[", PENDINGS, PENDINGS.index(seen.pending))
    features.one_hot("on_turn[", tuple(f"P{n}" for n in range(players)), order.index(seen.on_turn))
    features.scalar("swaps", seen.swaps, 0, MAX_SWAPS)
    features.scalar("turns", seen.turns, 0, config.max_turns)
    features.counts("hand[", _CARDS, _counts(seen.hand), per_card)
    for number, seat in enumerate(order):
        features.counts(f"up[P{number},", _CARDS, _counts(seen.face_up[seat]), per_card)
    for number, seat in enumerate(order):
        features.counts(f"down[P{number},", _SLOTS, seen.face_down[seat], [1] * ROW)
    for number, seat in enumerate(order):
        features.counts(f"known[P{number},", _CARDS, _counts(seen.known[seat]), per_card)
    for number, seat in enumerate(order):
        features.scalar(f"hand_size[P{number}]", seen.hand_sizes[seat], 0, most)
    places = {seat: place for place, seat in enumerate(seen.finished, start=1)}
    for number, seat in enumerate(order):
        features.scalar(f"finished[P{number}]", places.get(seat, 0), 0, players)
    pile = seen.pile
    features.counts("pile[", _CARDS, _counts(pile), per_card)
    features.scalar("pile_size", len(pile), 0, most)
    features.one_hot("top[", _RANK_LABELS, pile[-1].rank - RANKS[0] if pile else None)
    features.scalar("top_run", top_run(pile), 0, len(SUITS) * decks)
    features.counts("burned[", _CARDS, _counts(seen.burned), per_card)
    features.scalar("burned_size", len(seen.burned), 0, most)
    features.scalar("stock_size", seen.stock_size, 0, most)
