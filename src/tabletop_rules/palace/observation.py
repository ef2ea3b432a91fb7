"""Palace views as numbers: :func:`~tabletop_rules.palace.observe` and
:func:`~tabletop_rules.palace.observation_spec`.

The encoding is read from a :class:`~tabletop_rules.palace.View` only, for a seat or a
spectator, and has the same length for every view of a config: it holds exactly what the
view holds, so never another seat's unseen hand cards, a face-down card or the stock's
order. Card fields count each of the 52 cards of :data:`~tabletop_rules.palace.cards.DECK`
(``2C``, ``2D``, … ``AS``), 0 to ``decks``: with several decks a count, not a one-hot.
Values are whole numbers as floats, never scaled: the spec's ``low`` and ``high`` give
each element's range. Per-seat fields list the seats in turn order *from the viewer*
(:func:`~tabletop_rules.observation.seats_from`): ``P0`` is the viewer (seat 0 for a
spectator), ``P1`` the next seat after it, and so on. Field by field, in order:

===============================  ==========  ===============================================
names                            count       value
===============================  ==========  ===============================================
``viewer[spectator]``            1           1 for a spectator's view
``viewer[S0]`` …                 players     the viewer's absolute seat, one-hot
``phase[swap]`` …                3           the phase (swap, play, over), one-hot
``pending[none]`` …              4           what the seat on turn owes or may do (none,
                                             take, extra, replay), one-hot
``on_turn[P0]`` …                players     the seat on turn, relative, one-hot
``swaps``                        1           swaps made by the seat on turn, 0 to 6
``turns``                        1           passings of the turn, 0 to ``max_turns``
``hand[2C]`` …                   52          the viewer's own hand (all 0 for a spectator)
``up[P0,2C]`` …                  players     each seat's face-up row
                                 x 52
``down[P0,s0]`` …                players     1 where a card lies in the seat's face-down
                                 x 3         slot (which card, nobody knows)
``known[P0,2C]`` …               players     each seat's publicly known hand cards
                                 x 52
``hand_size[P0]`` …              players     cards in each seat's hand, 0 to 52 x ``decks``
``finished[P0]`` …               players     0 while the seat plays on, else its place in
                                             the finishing order (1 first out)
``pile[2C]`` …                   52          the cards on the pile
``pile_size``                    1           cards on the pile, 0 to 52 x ``decks``
``top[2]`` … ``top[A]``          13          the rank of the pile's top card, one-hot (all 0
                                             for an empty pile)
``top_run``                      1           how many cards of that rank lie on top in a
                                             row, 0 to 4 x ``decks``
``burned[2C]`` …                 52          the cards that left the game
``burned_size``                  1           how many, 0 to 52 x ``decks``
``stock_size``                   1           cards left to draw, 0 to 52 x ``decks``
===============================  ==========  ===============================================

The default config (two players, one deck) makes 405 elements:

>>> from tabletop_rules.palace import Config, new_game, observation_spec, observe, view
>>> spec = observation_spec(Config())
>>> spec.size, spec.names[11:14]
(405, ('on_turn[P1]', 'swaps', 'turns'))
>>> seen = dict(zip(spec.names, observe(view(new_game(seed=7), 1))))
>>> seen["phase[swap]"], seen["hand_size[P0]"], seen["stock_size"], sum(
...     value for name, value in seen.items() if name.startswith("hand[")
... )
(1.0, 3.0, 34.0, 3.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import get_args

from ..observation import Features, seats_from, viewer_features
from .cards import DECK, RANK_TEXT, RANKS, SUITS, Card
from .config import CARDS_PER_DECK, ROW
from .state import MAX_SWAPS, PENDINGS, Phase, View

__all__ = ["encode_view"]

PHASES = get_args(Phase)

_CARDS = tuple(str(card) for card in DECK)
_INDEX: dict[Card, int] = {card: index for index, card in enumerate(DECK)}
_RANK_LABELS = tuple(RANK_TEXT[rank] for rank in RANKS)
_SLOTS = tuple(f"s{slot}" for slot in range(ROW))


def _counts(cards: Iterable[Card | None]) -> list[int]:
    counts = [0] * CARDS_PER_DECK
    for card in cards:
        if card is not None:
            counts[_INDEX[card]] += 1
    return counts


def encode_view(seen: View, features: Features) -> None:
    """Write ``seen`` into ``features``, field by field as the module's table says."""
    config = seen.config
    players = config.players
    decks = config.decks
    most = CARDS_PER_DECK * decks
    per_card = [decks] * CARDS_PER_DECK
    order = seats_from(seen.seat, players)
    labels = tuple(f"P{number}" for number in range(players))
    viewer_features(features, seen.seat, players)
    features.one_hot("phase[", PHASES, PHASES.index(seen.phase))
    features.one_hot("pending[", PENDINGS, PENDINGS.index(seen.pending))
    features.one_hot("on_turn[", labels, order.index(seen.on_turn))
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
    top = pile[-1].rank if pile else None
    features.one_hot("top[", _RANK_LABELS, None if top is None else top - RANKS[0])
    run = 0
    for card in reversed(pile):
        if card.rank != top:
            break
        run += 1
    features.scalar("top_run", run, 0, len(SUITS) * decks)
    features.counts("burned[", _CARDS, _counts(seen.burned), per_card)
    features.scalar("burned_size", len(seen.burned), 0, most)
    features.scalar("stock_size", seen.stock_size, 0, most)
