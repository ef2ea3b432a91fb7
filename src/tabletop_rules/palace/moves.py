"""The moves of palace, each built once in the move table, and their action numbers. A
constructor checks only its fields' shapes; :func:`~tabletop_rules.palace.apply` says which
rule forbids a move.

>>> Play((Card.parse("7S"), Card.parse("7H")))
Play(cards=(Card(rank=7, suit='H'), Card(rank=7, suit='S')))
"""

from __future__ import annotations

from itertools import cycle, islice
from typing import Any, TypeAlias, get_args

import attrs

from .._messages import short_repr
from .._movetable import MoveTable
from ..errors import IllegalMoveError
from .cards import DECK, RANKS, SUITS, Card, Rank, cards_text, own_card
from .config import MAX_DECKS, ROW, Config

__all__ = [
    "MAX_PLAY",
    "MOVE_TYPES",
    "PLAY_BASE",
    "SWAP_BASE",
    "EndTurn",
    "Move",
    "Play",
    "PlayBlind",
    "Ready",
    "Slot",
    "Swap",
    "TakePile",
    "known_move",
]

Slot: TypeAlias = int
"""A place in a player's face-down or face-up row, 0 to 2 (face-up slot i covers
face-down slot i)."""

MAX_PLAY = 16
"""The most cards one play can lay: every card of one rank in four decks."""


def _play_cards(value: Any) -> tuple[Card, ...]:
    """1 to 16 cards in a tuple or list (nothing else is iterated: that runs its code),
    sorted, as the deck's instances.
    """
    if type(value) is not tuple and type(value) is not list:
        raise IllegalMoveError(
            f"a play's cards are a tuple or list of cards, not {short_repr(value)}"
        )
    if not 1 <= len(value) <= MAX_PLAY:
        raise IllegalMoveError(
            f"a play lays 1 to {MAX_PLAY} cards (every card of one rank in four decks), "
            f"not {len(value)}"
        )
    cards = tuple(sorted(own_card(card) for card in value))
    for index in range(MAX_DECKS, len(cards)):
        if cards[index] == cards[index - MAX_DECKS]:  # sorted: equal cards lie together
            raise IllegalMoveError(
                f"no game holds {cards.count(cards[index])} {cards[index]}: the most decks a "
                f"game has ({MAX_DECKS}) hold {MAX_DECKS}"
            )
    return cards


def _check_slot(_instance: Any, _attribute: Any, slot: Any) -> None:
    if type(slot) is not int or not 0 <= slot < ROW:
        raise IllegalMoveError(f"a face-down slot is 0, 1 or 2, not {short_repr(slot)}")


@attrs.frozen
class Swap:
    """In the swap phase, exchange ``hand_card`` with ``face_up_card`` of one's own row."""

    hand_card: Card = attrs.field(converter=own_card)
    face_up_card: Card = attrs.field(converter=own_card)


@attrs.frozen
class Ready:
    """End one's swaps: the next seat swaps, or play starts."""


@attrs.frozen
class Play:
    """Lay ``cards`` (kept sorted), one or more of one rank, from the hand or, under
    ``from_table`` with an empty hand, from the face-up row.
    """

    cards: tuple[Card, ...] = attrs.field(converter=_play_cards)

    @property
    def rank(self) -> int:
        """The rank of the first card (of all of them, in a legal play)."""
        return self.cards[0].rank


@attrs.frozen
class TakePile:
    """Take the whole pile into the hand; the turn ends."""


@attrs.frozen
class PlayBlind:
    """With hand and face-up row gone, turn the face-down card in ``slot`` and play it."""

    slot: Slot = attrs.field(validator=_check_slot)


@attrs.frozen
class EndTurn:
    """After four of a kind (``quad="extra_play"``), end the turn instead of laying another set."""


Move: TypeAlias = Swap | Ready | Play | TakePile | PlayBlind | EndTurn
"""Any palace move."""

MOVE_TYPES: tuple[type[Move], ...] = get_args(Move)
"""The classes of palace moves (palace has no chance outcomes after the deal)."""

READY = Ready()
TAKE_PILE = TakePile()
END_TURN = EndTurn()
BLIND: tuple[PlayBlind, ...] = tuple(PlayBlind(slot) for slot in range(ROW))


def known_move(move: object) -> Move:
    """The move table's instance equal to ``move`` (``Ready()`` gives ``READY``), else ``move``;
    ``IllegalMoveError`` for what is no palace move (a subclass is not one).
    """
    return MOVE_TABLE.known(move)


def stand_in(rank: Rank, count: int) -> Play:
    """The play of ``count`` cards of ``rank``, the suits in order, cycling (``7C 7D`` for two)."""
    return Play(tuple(Card(rank, suit) for suit in islice(cycle(SUITS), count)))


SWAP_BASE = len((READY, TAKE_PILE, END_TURN)) + ROW
"""The number of the first swap (6): ``ready``, ``take``, ``end`` and the blind plays
come first."""
PLAY_BASE = SWAP_BASE + len(DECK) * len(DECK)
"""The number of the first play (2710): one 2."""
MOVE_TABLE: MoveTable[Move] = MoveTable(
    "palace",
    MOVE_TYPES,
    (
        READY,
        TAKE_PILE,
        END_TURN,
        *BLIND,
        *(Swap(hand, up) for hand in DECK for up in DECK),
        *(stand_in(rank, count) for count in range(1, MAX_PLAY + 1) for rank in RANKS),
    ),
)
"""The move standing for each class of moves, in action order: a play stands for every
play of its rank and count, whatever the suits."""
SWAPS: dict[tuple[Card, Card], Swap] = {
    (move.hand_card, move.face_up_card): move for move in MOVE_TABLE.moves if type(move) is Swap
}
"""The table's swap of each (hand card, face-up card)."""


def action_key(move: object) -> Move:
    """The move of :data:`MOVE_TABLE` standing for ``move``'s class (no state needed);
    ``IllegalMoveError`` for what is no palace move or a play of two ranks.
    """
    if type(move) is not Play:
        return known_move(move)
    cards = move.cards
    if cards[-1].rank != cards[0].rank:  # sorted by rank first
        raise IllegalMoveError(
            f"'play {cards_text(cards)}' has no action number: a play lays cards of one rank"
        )
    return MOVE_TABLE.moves[PLAY_BASE + len(RANKS) * (len(cards) - 1) + cards[0].rank - 2]


def num_actions(config: Config) -> int:
    """The size of the action space: 2710 plus 52 plays per deck (one per rank and count)."""
    return PLAY_BASE + len(RANKS) * len(SUITS) * config.decks
