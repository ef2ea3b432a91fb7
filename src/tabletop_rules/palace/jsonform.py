"""Palace's own JSON hooks: cards travel as their text.

A card is written ``"10H"``, ``"QS"``, ``"4C"``, exactly as ``str(card)`` spells it, and
read back only in that spelling (``"qs"`` is what a player may type, not what the
library writes). Sets, such as a view's winners, are written sorted by the core.

>>> from tabletop_rules.serialize import to_data
>>> from tabletop_rules.palace import Card, Play
>>> to_data(Play((Card.parse("10H"), Card.parse("10S"))))
{'cards': ['10H', '10S'], 'type': 'play'}
"""

from __future__ import annotations

from typing import Any

from ..errors import NotationError
from ..messages import short_repr
from .cards import Card

__all__ = ["FORMAT_VERSION", "json_hooks"]

FORMAT_VERSION = 1
"""The version of palace's JSON layout."""


def _card_from_text(value: Any, _kind: Any) -> Card:
    """The card ``value`` names, spelt exactly as ``str(card)`` writes it."""
    if type(value) is str:
        card = Card.parse(value)
        if str(card) == value:
            return card
    raise NotationError(f"{short_repr(value)} is not a card as the library writes one, like 10H")


def json_hooks(converter: Any) -> None:
    """Register palace's hooks on the shared converter: ``Card`` as its text."""
    converter.register_unstructure_hook(Card, str)
    converter.register_structure_hook(Card, _card_from_text)
