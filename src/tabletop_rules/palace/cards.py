"""Playing cards: :class:`Card`, the 52 of one deck (:data:`DECK`), and the bonus ranks. A
card no deck has is an ``IllegalMoveError``: cards are the fields of moves.

>>> Card.parse("10H"), str(Card(12, "S")), Card.parse("4S") < Card.parse("5C")
(Card(rank=10, suit='H'), 'QS', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple, TypeAlias, cast, get_args

from .._messages import short_repr
from .._validation import Fail, check_own
from ..errors import IllegalMoveError, NotationError

__all__ = [
    "BONUS_RANKS",
    "DECK",
    "NATURAL_RANKS",
    "RANKS",
    "SUITS",
    "Card",
    "Deal",
    "Rank",
    "Suit",
    "is_card",
    "own_card",
]

Rank: TypeAlias = int
"""A card's rank, 2 to 14 (11 J, 12 Q, 13 K, 14 A)."""

Suit: TypeAlias = Literal["C", "D", "H", "S"]
"""A card's suit: clubs, diamonds, hearts, spades. Suits never change what may be played."""

SUITS: tuple[Suit, ...] = get_args(Suit)
"""The four suits, in the order of :data:`Suit`."""

RANKS: tuple[Rank, ...] = tuple(range(2, 15))
"""The thirteen ranks, 2 to 14 (the ace)."""

BONUS_RANKS: frozenset[Rank] = frozenset({2, 3, 10})
"""The bonus cards 2, 3 and 10: they may be played on any card."""

NATURAL_RANKS: tuple[Rank, ...] = tuple(rank for rank in RANKS if rank not in BONUS_RANKS)
"""The natural ranks in play order: 4 < 5 < 6 < 7 < 8 < 9 < J < Q < K < A."""

RANK_TEXT: dict[Rank, str] = dict(zip(RANKS, [*map(str, range(2, 11)), *"JQKA"], strict=True))


class _CardFields(NamedTuple):
    rank: Rank
    suit: Suit


class Card(_CardFields):
    """One playing card, ordered by rank then suit (C, D, H, S): ``Card(rank, suit)`` is one
    of the :data:`~tabletop_rules.palace.cards.DECK` instances, a named tuple that compares
    and sorts at C speed.
    """

    __slots__ = ()

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        """The :data:`DECK` instance; ``IllegalMoveError`` if no card has these fields."""
        card = _BY_FIELDS.get((rank, suit)) if type(rank) is int and type(suit) is str else None
        if card is not None:
            return card
        if type(rank) is not int or not 2 <= rank <= 14:
            raise IllegalMoveError(
                f"a card's rank is a whole number 2 to 14 (11 J, 12 Q, 13 K, 14 A), "
                f"not {short_repr(rank)}"
            )
        raise IllegalMoveError(f"a card's suit is one of C, D, H, S, not {short_repr(suit)}")

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Card:  # type: ignore[override]  # mypy's named-tuple typing
        """``Card(*iterable)``: :meth:`_replace` and copies go through the checks too."""
        return cls(*iterable)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickle as the card's text, so that it comes back as the :data:`DECK` instance."""
        return Card.parse, (str(self),)

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card ``text`` names (``"10H"``, ``"QS"``, ``"4C"``; case and surrounding
        space ignored); :class:`~tabletop_rules.errors.NotationError` for anything else.

        >>> Card.parse("qs") is Card.parse("QS") is Card(12, "S")
        True
        """
        card = _BY_TEXT.get(text.strip().upper()) if type(text) is str else None
        if card is None:
            raise NotationError(
                f"{short_repr(text)} is not a card: write rank then suit, like 10H, QS or 4C"
            )
        return card

    @property
    def is_bonus(self) -> bool:
        """Whether the card is a bonus card: a 2, 3 or 10."""
        return self[0] in BONUS_RANKS

    def __str__(self) -> str:
        return RANK_TEXT[self[0]] + self[1]


DECK: tuple[Card, ...] = tuple(
    tuple.__new__(Card, (rank, suit)) for rank in RANKS for suit in SUITS
)
"""The 52 cards of one deck in sorted order, each built once."""

_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
_BY_FIELDS: dict[tuple[int, str], Card] = {(card.rank, card.suit): card for card in DECK}


def is_card(card: object) -> bool:
    """Whether ``card`` is an exact :class:`Card` of a real rank and suit (checked plainly
    first: one built with ``tuple.__new__`` may hold anything).
    """
    return (
        type(card) is Card
        and len(card) == 2
        and type(card[0]) is int
        and type(card[1]) is str
        and card in _BY_FIELDS
    )


def own_card(card: object) -> Card:
    """The :data:`DECK` instance equal to ``card``; ``IllegalMoveError`` for anything else.

    >>> own_card(Card(14, "S")) is Card.parse("AS")
    True
    """
    if not is_card(card):
        if type(card) is not Card:
            raise IllegalMoveError(f"{short_repr(card)} is not a card")
        shown = ", ".join(map(short_repr, card))
        raise IllegalMoveError(f"Card({shown}) is not a card: rank 2 to 14, suit one of C, D, H, S")
    return _BY_FIELDS[cast(Card, card)]


def deck_cards(name: str, value: object, fail: Fail) -> tuple[Card, ...]:
    """``value`` if it is a tuple of cards; otherwise ``fail`` names the item that is not."""
    return cast(tuple[Card, ...], check_own(name, value, is_card, "the deck's cards", fail))


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as the rules page writes them, in the order given: ``7H 7S``."""
    return " ".join(map(str, cards))


def top_run(cards: Sequence[Card]) -> int:
    """How many cards of the last card's rank lie together at the end of ``cards``."""
    rank = cards[-1].rank if cards else 0
    return next((i for i, card in enumerate(reversed(cards)) if card.rank != rank), len(cards))


Deal: TypeAlias = Sequence[Card] | None
"""What :func:`~tabletop_rules.palace.new_game` takes as ``deal``: a deck order, top card
first, or ``None`` for the seed's shuffle."""
