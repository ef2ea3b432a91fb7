"""Palace's own JSON hooks: cards travel as their text.

A card is written ``"10H"``, ``"QS"``, ``"4C"``, exactly as ``str(card)`` spells it, and
read back only in that spelling (``"qs"`` is what a player may type, not what the
library writes). Sets, such as a view's winners, are written sorted by the core.

A move is read only if some state could allow it: the loader refuses a play of several
ranks (it has no action number) and a play holding a card more often than four decks do
(its constructor refuses it), and this module's hook refuses a swap of two equal cards,
which changes nothing. That swap keeps its action number, as the codec numbers every
pair of cards (:mod:`~tabletop_rules.palace.codec`), but no state lists it.

>>> from tabletop_rules.serialize import to_data
>>> from tabletop_rules.palace import Card, Play
>>> to_data(Play((Card.parse("10H"), Card.parse("10S"))))
{'cards': ['10H', '10S'], 'type': 'play'}
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalMoveError, NotationError
from ..messages import short_repr
from .cards import Card
from .moves import Swap

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
    """Register palace's hooks on the shared converter: ``Card`` as its text, and a
    ``Swap`` read only when its cards differ.
    """
    converter.register_unstructure_hook(Card, str)
    converter.register_structure_hook(Card, _card_from_text)
    read_swap = converter.get_structure_hook(Swap)

    def swap_of_two_cards(value: Any, kind: Any) -> Swap:
        swap: Swap = read_swap(value, kind)
        if swap.hand_card == swap.face_up_card:
            raise IllegalMoveError(
                f"'swap {swap.hand_card} {swap.face_up_card}' is no move any state allows: "
                f"swapping a card for an equal one changes nothing"
            )
        return swap

    converter.register_structure_hook(Swap, swap_of_two_cards)
