"""The state of a palace game, a seat's :class:`View` of it, and how a seed deals the
cards; the invariants a state keeps are :mod:`~tabletop_rules.palace.invariants`'.
"""

from __future__ import annotations

import functools
from itertools import pairwise
from typing import Literal, TypeAlias, get_args

import attrs

from ..protocol import Seat
from ..rng import Rng
from .cards import DECK, Card
from .config import ROW, Config
from .moves import Move

__all__ = ["MAX_SWAPS", "Hand", "Pending", "Phase", "Row", "State", "View"]

Hand: TypeAlias = tuple[Card, ...]
"""Cards in a hand, sorted (a multiset: several decks hold equal cards)."""

Row: TypeAlias = tuple[Card | None, ...]
"""A row of three slots, each a card or ``None`` once it is gone."""

Phase: TypeAlias = Literal["swap", "play", "over"]
"""The swap phase, play, or the game is over."""

Pending: TypeAlias = Literal["none", "take", "extra", "replay"]
"""What the seat on turn owes in play: nothing; to take the pile, a 3 being on top; after
four of a kind another set or the end of the turn (``"extra"``); after a burn a replay."""

PHASES: tuple[Phase, ...] = get_args(Phase)
PENDINGS: tuple[Pending, ...] = get_args(Pending)

MAX_SWAPS = 2 * ROW
"""Swaps each seat may make in the swap phase: six, a **[decided]** point of the rules page."""


@attrs.frozen
class State:
    """A palace game at one moment; the package's functions interpret its fields.

    Attributes:
        seed: The seed the game was dealt from (kept, unused, with a given deal).
        hands: Each seat's hand, sorted.
        known: Each seat's hand cards seen by all (:doc:`/rules/palace`), sorted.
        face_up: Each seat's face-up row: slot i covers face-down slot i (``None``: gone).
        stock: The cards left to draw, the next one first.
        pile: The discard pile, bottom first.
        burned: Cards that left the game, in the order they left.
        seat: The seat on turn (swapping, in the swap phase); kept when the game ends.
        turns: Passings of the turn so far (the swap phase does not count).
        swaps: Swaps the seat on turn has made in the swap phase; 0 in play.
        pending: What the seat on turn owes (:data:`~tabletop_rules.palace.state.Pending`).
        finished: Seats that have finished, in finishing order.
        deal: The deck order given to ``new_game`` or chosen by ``determinize``; ``None``
            when the seed shuffled. It predicts the game, so no view shows it.

    """

    config: Config
    seed: int
    hands: tuple[Hand, ...]
    known: tuple[Hand, ...]
    face_up: tuple[Row, ...]
    face_down: tuple[Row, ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...] = ()
    burned: tuple[Card, ...] = ()
    phase: Phase = "swap"
    seat: Seat = 0
    turns: int = 0
    swaps: int = 0
    pending: Pending = "none"
    finished: tuple[Seat, ...] = ()
    deal: tuple[Card, ...] | None = None

    @property
    def top(self) -> Card | None:
        """The pile's top card, ``None`` when the pile is empty."""
        return self.pile[-1] if self.pile else None


@functools.lru_cache(maxsize=256)
def shuffled_decks(decks: int, seed: int) -> tuple[Card, ...]:
    """The deck order, top first, that ``seed`` deals (cached: a replay's checks shuffle once)."""
    cards, _rng = Rng.from_seed(seed).shuffled(DECK * decks)
    return cards


def deal_places(config: Config, seat: Seat) -> tuple[slice, ...]:
    """Where a deck order puts ``seat``'s face-down row, face-up row and hand: one card at
    a time in seat order, three rounds face down, three face up, then the hands.
    """
    n = config.players
    rounds = (0, ROW, 2 * ROW, 2 * ROW + config.hand_size)
    return tuple(slice(first * n + seat, last * n, n) for first, last in pairwise(rounds))


@attrs.frozen
class View:
    """A seat's knowledge of a palace game: what is public, plus its own hand.

    Attributes:
        seat: Whose view this is; ``None`` for a spectator.
        current_player: As :func:`~tabletop_rules.palace.current_player`.
        on_turn: The seat on turn (swapping, in the swap phase); kept when the game ends.
        face_down: Every seat's face-down row as ``True`` where a card lies (which card,
            nobody knows).
        known: Each seat's publicly known hand cards, sorted.
        hand: The viewer's own hand, sorted; ``()`` for a spectator.
        legal_moves: The moves open to ``seat`` now (empty when it is not to move).

    """

    seat: Seat | None
    config: Config
    phase: Phase
    current_player: Seat | None
    on_turn: Seat
    swaps: int
    pending: Pending
    pile: tuple[Card, ...]
    burned: tuple[Card, ...]
    face_up: tuple[Row, ...]
    face_down: tuple[tuple[bool, ...], ...]
    hand_sizes: tuple[int, ...]
    known: tuple[Hand, ...]
    hand: Hand
    stock_size: int
    turns: int
    finished: tuple[Seat, ...]
    scores: tuple[int, ...]
    winners: frozenset[Seat]
    legal_moves: tuple[Move, ...]
