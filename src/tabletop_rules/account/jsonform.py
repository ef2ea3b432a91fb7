"""The account game's own JSON hooks: cards travel as their text.

A card is written ``"+10"``, ``"-25"``, ``"B"``, ``"End"``, exactly as ``str(card)``
spells it, and read back only in that spelling (``"10"`` or ``"end"`` are refused). A
config's ``deck`` needs no hook of its own: it is a tuple of ``(card, count)`` pairs, so
it travels as the library holds it, an array of ``[text, count]`` pairs in kind order.
Sets, such as a view's winners, are written sorted by the core.
"""

from __future__ import annotations

from typing import Any

from ..errors import NotationError
from ..messages import short_repr
from .cards import Card

__all__ = ["FORMAT_VERSION", "json_hooks"]

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


def json_hooks(converter: Any) -> None:
    """Register the account game's hooks on the shared converter: ``Card`` as its text."""
    converter.register_unstructure_hook(Card, str)
    converter.register_structure_hook(Card, _card_from_text)
