"""The thirteen kinds of card of the account game, one instance per kind."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, TypeAlias

import attrs

from ..kit import NotationError, short_repr

__all__ = ["CARDS", "CARD_ORDER", "END", "KINDS", "Card", "Deal"]

_POINTS = {"+1": 1, "+10": 10, "+15": 15, "+25": 25, "-1": -1, "-10": -10, "-15": -15}
_POINTS.update({"-25": -25, "P": 100, "T": 1000, "B": 0, "Z": 0, "End": 0})

KINDS: tuple[str, ...] = tuple(_POINTS)
"""Every card text, in the order the package lists kinds (the deck, the config, counts)."""


def _check_kind(_instance: Any, _attribute: Any, value: Any) -> None:
    if type(value) is not str or value not in _POINTS:
        raise _not_a_card(value)


def _not_a_card(value: object) -> NotationError:
    return NotationError(f"a card is one of {', '.join(KINDS)}, not {short_repr(value)}")


@attrs.frozen(repr=True, cache_hash=True)  # hashed with its deck on every new_game
class Card:
    """A card kind; the package's cards are one instance per kind (:data:`~.cards.CARDS`),
    which :meth:`parse` and :func:`~.cards.own_card` return.
    """

    kind: str = attrs.field(validator=_check_kind)

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card for its text (``+10``, ``-25``, ``B``, ``Z``, ``P``, ``T``, ``End``)."""
        try:
            return _BY_KIND[text]
        except (KeyError, TypeError):
            raise _not_a_card(text) from None

    def __str__(self) -> str:
        return self.kind

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled and copied as the package's own instance."""
        return Card.parse, (self.kind,)

    @property
    def points(self) -> int:
        """What landing on the card adds: the number, 100 for P, 1000 for T; else 0."""
        return _POINTS[self.kind]

    @property
    def cost(self) -> int:
        """What B subtracts when it draws this card: the size of :attr:`points`."""
        return abs(_POINTS[self.kind])

    @property
    def is_number(self) -> bool:
        """Whether the card is one of the eight number cards."""
        return self.kind[0] in "+-"

    @property
    def valued(self) -> bool:
        """Whether B charges this card when it draws it (a number, P or T)."""
        return self.kind not in ("B", "Z", "End")

    @property
    def index(self) -> int:
        """The kind's position in :data:`~tabletop_rules.account.cards.KINDS`."""
        return _INDEX[self.kind]


CARDS: tuple[Card, ...] = tuple(Card(kind) for kind in KINDS)
"""One instance per kind, in :data:`KINDS` order."""

_BY_KIND = {card.kind: card for card in CARDS}
_INDEX = {kind: i for i, kind in enumerate(KINDS)}

CARD_ORDER = operator.attrgetter("index")
"""A sort key that orders cards as :data:`KINDS` lists their kinds: how views and events
list a pile of cards."""

PREMIUM_100 = CARDS[8]
"""The premium card ``P``: +100."""

PREMIUM_1000 = CARDS[9]
"""The premium card ``T``: +1000."""

CHARGE = CARDS[10]
"""The card ``B``: its owner draws the top card of the pack and is charged its absolute
value."""

ZERO = CARDS[11]
"""The card ``Z``: the account becomes 0."""

END = CARDS[12]
"""The card ``End``: the game stops."""


def own_card(value: object) -> Card:
    """The package's instance for a card or a card text; ``NotationError`` otherwise."""
    if type(value) is Card:
        kind = getattr(value, "kind", None)
        if type(kind) is not str or kind not in _BY_KIND:
            raise NotationError(
                f"a card is one of {', '.join(KINDS)}; this Card's kind is {short_repr(kind)}"
            )
        return _BY_KIND[kind]
    if type(value) is str:
        return Card.parse(value)
    raise NotationError(f"expected a card or its text, got {short_repr(value)}")


Deal: TypeAlias = Sequence[Card | str] | None
"""What :func:`~tabletop_rules.account.new_game` takes as ``deal``: a deck order (cards or
card texts), top card first, or ``None`` for the seed's shuffle."""
