"""The account game's own JSON hooks: cards travel as their text (``"+10"``, ``"End"``),
a config's ``deck`` as ``[text, count]`` pairs.
"""

from __future__ import annotations

from typing import Any

from .._messages import short_repr
from ..errors import NotationError
from .cards import Card
from .config import Deck

__all__ = ["FORMAT_VERSION"]

FORMAT_VERSION = 1
"""The version of the account game's JSON layout."""


def _card_from_text(value: Any, _kind: Any) -> Card:
    """The card ``value`` names, spelt exactly as ``str(card)`` writes it."""
    if type(value) is str:
        card = Card.parse(value)
        if str(card) == value:
            return card
    raise NotationError(
        f"{short_repr(value)} is not a card as the library writes one, like +10 or End"
    )


def _deck_from_data(value: Any, _kind: Any) -> Deck:
    """A deck from its ``[text, count]`` pairs; ``Config`` validates the counts."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"a deck is an array of [card, count] pairs, got {short_repr(value)}")
    pairs: list[tuple[Card, Any]] = []
    for pair in value:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise TypeError(f"a deck entry is a [card, count] pair, got {short_repr(pair)}")
        pairs.append((_card_from_text(pair[0], Card), pair[1]))
    return tuple(pairs)


def _is_deck(kind: Any) -> bool:
    return bool(kind == Deck)


def json_hooks(converter: Any) -> None:
    """Register the account game's hooks on the shared converter: ``Card`` as its text,
    and a config's ``deck`` as its ``[text, count]`` pairs.
    """
    converter.register_unstructure_hook(Card, str)
    converter.register_structure_hook(Card, _card_from_text)
    converter.register_structure_hook_func(_is_deck, _deck_from_data)
