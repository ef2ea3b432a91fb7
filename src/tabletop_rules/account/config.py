"""The house rules of the account game (:doc:`/rules/account`, "House rules"), as one
validated, frozen :class:`Config`; every number has an upper bound (``MAX_...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, TypeAlias, get_args

import attrs

from ..kit import ConfigError, NotationError, check_whole, choice, flag, short_repr, whole
from .cards import CARDS, Card, own_card

__all__ = [
    "DEFAULT_DECK",
    "ENDS",
    "FORMAT_VERSION",
    "MAX_COLUMNS",
    "MAX_COST",
    "MAX_COUNT",
    "MAX_MARKERS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_ROWS",
    "Config",
    "Deck",
    "EndRule",
]

EndRule: TypeAlias = Literal["immediate", "finish_round"]
"""When End stops the game: at once, or once the round is complete."""

ENDS: tuple[EndRule, ...] = get_args(EndRule)
"""Every :data:`EndRule`, the default first."""

Deck: TypeAlias = tuple[tuple[Card, int], ...]
"""A deck composition: one ``(card, count)`` pair per kind, in :data:`~.cards.KINDS`
order, every kind present (hashable; ``Config.deck_counts`` gives a dict)."""

MAX_PLAYERS = 8
"""1 to 8 players, as the rules page says."""

MAX_ROWS = 10
"""Largest ``rows`` **[decided]**."""

MAX_COLUMNS = 20
"""Largest ``columns`` **[decided]**."""

MAX_MARKERS = 8
"""Largest ``max_markers`` (and ``starting_markers``) **[decided]**."""

MAX_COUNT = 100
"""Most cards of one kind in ``deck`` **[decided]** (so at most 1,300 cards)."""

MAX_COST = 1_000_000
"""Largest ``marker_cost`` **[decided]**."""

MAX_ROUNDS = 1000
"""Largest ``max_rounds`` **[decided]**: a game stays below about 200,000 moves."""

DEFAULT_DECK: Deck = tuple(zip(CARDS, (8, 8, 7, 6, 8, 8, 7, 6, 3, 1, 4, 2, 2), strict=True))
"""The rules page's 70 cards (:doc:`/rules/account`, "Cards")."""


def _to_deck(value: Any) -> Deck:
    """A mapping (or pairs) from cards or card texts to counts as a :data:`Deck`."""
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if type(pairs) not in (tuple, list) or any(type(p) is not tuple or len(p) != 2 for p in pairs):
        raise ConfigError(
            f"deck must be a mapping from card kinds to counts, got {short_repr(value)}"
        )
    counts: dict[Card, int] = {}
    for key, count in pairs:
        try:
            card = own_card(key)
        except NotationError as error:
            raise ConfigError(f"deck: {error}") from None
        if card in counts:
            raise ConfigError(f"deck names {card} twice")
        check_whole(f"deck count of {card}", count, 0, MAX_COUNT)
        counts[card] = count
    return tuple((card, counts.get(card, 0)) for card in CARDS)


@attrs.frozen
class Config:
    """Account-game house rules, each validated (``ConfigError``); each number is 0 or 1
    up to its ``MAX_`` bound.

    Attributes:
        players: Seats.
        deck: The cards and how many of each (a mapping from cards or card texts to
            counts is converted, kinds left out count 0), at least rows x columns.
        rows: Rows of the field.
        columns: Columns of the field.
        starting_markers: Markers each player places in setup, at most ``max_markers``.
        max_markers: Most markers a player may own.
        marker_cost: Points a bought marker costs.
        placement_scores: Whether the cards placed on in setup score.
        floor_at_zero: Whether an account never drops below 0.
        collapse: Whether a card leaves the field when its last marker leaves it.
        end: When End has scored: ``"immediate"``: the game ends at once;
            ``"finish_round"``: the round is played out first.
        max_rounds: Rounds after which the game stops.
        auto_chance: Whether the die is thrown for the players, or each roll waits for
            the face of a physical die to be given.

    """

    players: int = attrs.field(default=2, validator=whole(1, MAX_PLAYERS))
    deck: Deck = attrs.field(default=DEFAULT_DECK, converter=_to_deck)
    rows: int = attrs.field(default=5, validator=whole(1, MAX_ROWS))
    columns: int = attrs.field(default=7, validator=whole(1, MAX_COLUMNS))
    starting_markers: int = attrs.field(default=1, validator=whole(1, MAX_MARKERS))
    max_markers: int = attrs.field(default=3, validator=whole(1, MAX_MARKERS))
    marker_cost: int = attrs.field(default=2000, validator=whole(0, MAX_COST))
    placement_scores: bool = attrs.field(default=True, validator=flag())
    floor_at_zero: bool = attrs.field(default=False, validator=flag())
    collapse: bool = attrs.field(default=False, validator=flag())
    end: EndRule = attrs.field(default="immediate", validator=choice(EndRule))
    max_rounds: int = attrs.field(default=30, validator=whole(1, MAX_ROUNDS))
    auto_chance: bool = attrs.field(default=True, validator=flag())

    def __attrs_post_init__(self) -> None:
        if self.starting_markers > self.max_markers:
            raise ConfigError(
                f"starting_markers {self.starting_markers} exceeds max_markers {self.max_markers}"
            )
        need = self.rows * self.columns
        if self.deck_size < need:
            raise ConfigError(
                f"a field of {self.rows} x {self.columns} = {need} cards needs a deck of at "
                f"least {need} cards; deck holds {self.deck_size}"
            )

    @property
    def deck_size(self) -> int:
        """Cards in the deck."""
        return sum(count for _card, count in self.deck)

    def deck_counts(self) -> dict[Card, int]:
        """The composition as a dict."""
        return dict(self.deck)

    def deck_cards(self) -> tuple[Card, ...]:
        """Every card of the deck, kind by kind."""
        return _cards_of(self.deck)


@lru_cache(maxsize=64)  # every new game shuffles them
def _cards_of(deck: Deck) -> tuple[Card, ...]:
    return tuple(card for card, count in deck for _ in range(count))


FORMAT_VERSION = 1
"""The version of the account game's JSON layout."""
