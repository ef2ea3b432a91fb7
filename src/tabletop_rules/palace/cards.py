"""Playing cards: :class:`Card`, the 52 of one deck (:data:`DECK`), and which ranks are
bonus cards.

>>> Card.parse("10H"), str(Card(12, "S"))
(Card(rank=10, suit='H'), 'QS')
>>> sorted([Card.parse("4S"), Card.parse("4C"), Card.parse("2D")])
[Card(rank=2, suit='D'), Card(rank=4, suit='C'), Card(rank=4, suit='S')]
>>> Card.parse("1H")
Traceback (most recent call last):
...
tabletop_rules.errors.NotationError: '1H' is not a card: write rank then suit, like 10H, QS or 4C

A card built with a rank or suit no card has raises
:class:`~tabletop_rules.errors.IllegalMoveError`, as a die face no die shows does in dice
poker: cards are the fields of palace's moves, and a move holding a card that does not
exist is a move the rules cannot allow.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple, TypeAlias, get_args

from ..errors import IllegalMoveError, NotationError
from ..messages import short_repr

__all__ = [
    "BONUS_RANKS",
    "CARD_ORDER",
    "DECK",
    "NATURAL_RANKS",
    "RANKS",
    "RANK_TEXT",
    "SUITS",
    "Card",
    "Deal",
    "Rank",
    "Suit",
    "is_bonus",
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

RANK_TEXT: dict[Rank, str] = {
    **{rank: str(rank) for rank in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
"""The text of each rank in a card's name (``"10"``, ``"Q"``)."""


def _check_rank(rank: Any) -> None:
    if type(rank) is not int or not 2 <= rank <= 14:
        raise IllegalMoveError(
            f"a card's rank is a whole number 2 to 14 (11 J, 12 Q, 13 K, 14 A), "
            f"not {short_repr(rank)}"
        )


def _check_suit(suit: Any) -> None:
    if type(suit) is not str or suit not in SUITS:
        raise IllegalMoveError(f"a card's suit is one of C, D, H, S, not {short_repr(suit)}")


class _CardFields(NamedTuple):
    rank: Rank
    suit: Suit


class Card(_CardFields):
    """One playing card, ordered by rank then suit (clubs, diamonds, hearts, spades).

    ``Card(rank, suit)`` returns one of the 52 :data:`~tabletop_rules.palace.cards.DECK`
    instances. A card is a named tuple ``(rank, suit)``: it compares, hashes and sorts as
    that tuple, at C speed (hands are searched and sorted on every move), and cannot be
    changed, not even around its checks.

    Attributes:
        rank: 2 to 14 (11 J, 12 Q, 13 K, 14 A).
        suit: ``"C"``, ``"D"``, ``"H"`` or ``"S"``.

    """

    __slots__ = ()

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        """The :data:`~tabletop_rules.palace.cards.DECK` instance of ``rank`` and ``suit``;
        :class:`~tabletop_rules.errors.IllegalMoveError` if no card has them.
        """
        card = _BY_FIELDS.get((rank, suit)) if type(rank) is int and type(suit) is str else None
        if card is None:
            _check_rank(rank)
            _check_suit(suit)
            raise AssertionError(f"no card {rank!r}{suit!r}")  # pragma: no cover
        return card

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Card:  # type: ignore[override]  # mypy's named-tuple typing
        """``Card(*iterable)``: :meth:`_replace` and copies go through the checks too."""
        return cls(*iterable)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickle and copy as the card's text, so that it comes back as the
        :data:`~tabletop_rules.palace.cards.DECK` instance (in another process too).
        """
        return Card.parse, (str(self),)

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by ``text`` (``"10H"``, ``"QS"``, ``"4C"``; case and surrounding
        space ignored): one of the :data:`~tabletop_rules.palace.cards.DECK` instances.
        :class:`~tabletop_rules.errors.NotationError` for anything else.

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


_BY_FIELDS: dict[tuple[int, str], Card] = {}

DECK: tuple[Card, ...] = tuple(
    tuple.__new__(Card, (rank, suit)) for rank in RANKS for suit in SUITS
)
"""The 52 cards of one deck in sorted order, each built once. Every card in a state is one
of these instances."""

_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
_BY_FIELDS.update({(card.rank, card.suit): card for card in DECK})
CARD_IDS: frozenset[int] = frozenset(map(id, DECK))
"""The identities of the :data:`DECK` instances (they live as long as the module)."""

CARD_ORDER = operator.attrgetter("rank", "suit")
"""A sort key that orders cards as ``<`` does, by rank then suit: for sorting objects
that hold cards by their card. Cards themselves sort in C without a key."""


def is_bonus(rank: Rank) -> bool:
    """Whether ``rank`` is a bonus rank (2, 3 or 10)."""
    return rank in BONUS_RANKS


def own_card(card: object) -> Card:
    """The :data:`DECK` instance equal to ``card``.

    :class:`~tabletop_rules.errors.IllegalMoveError` for anything that is not a
    :class:`Card` (a subclass is not one), and for a ``Card`` built around its checks
    (``tuple.__new__(Card, ...)``) with values no card has. Plain checks of type, length
    and field types come before the look-up: an exact ``Card`` is a tuple, whose code is
    the interpreter's.

    >>> own_card(Card(14, "S")) is Card.parse("AS")
    True
    """
    if type(card) is not Card:
        raise IllegalMoveError(f"{short_repr(card)} is not a card")
    found = None
    if len(card) == 2:
        rank, suit = card
        if type(rank) is int and type(suit) is str:
            found = _BY_FIELDS.get((rank, suit))
    if found is None:
        shown = ", ".join(map(short_repr, card))
        raise IllegalMoveError(f"Card({shown}) is not a card: rank 2 to 14, suit one of C, D, H, S")
    return found


Deal: TypeAlias = Sequence[Card] | None
"""What :func:`~tabletop_rules.palace.new_game` takes as ``deal``: a deck order, top card
first, or ``None`` for the seed's shuffle."""
