"""Palace's house rules as one validated, frozen :class:`Config` (``Config()``: the seed's
game), every number bounded so that no config makes a game too big to play quickly.

>>> Config(players=6)
Traceback (most recent call last):
...
tabletop_rules.errors.ConfigError: 6 players need 6 x (6 + hand_size 3) = 54 cards; 1 deck holds 52
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

import attrs

from .._validation import choice, flag, whole
from ..errors import ConfigError

__all__ = [
    "CARDS_PER_DECK",
    "MAX_DECKS",
    "MAX_HAND_SIZE",
    "MAX_PLAYERS",
    "MAX_TURNS",
    "ROW",
    "Config",
    "FacePlay",
    "FirstPlayer",
    "MustBeat",
    "PlayUntil",
    "Quad",
]

MustBeat: TypeAlias = Literal["equal_or_higher", "higher"]
"""What a natural card must be to go on the pile's top card: equal or higher, or higher."""

Quad: TypeAlias = Literal["extra_play", "burn"]
"""Four of a kind: an extra play in the same turn (the seed), or a burn (pagat)."""

FacePlay: TypeAlias = Literal["take_into_hand", "from_table"]
"""Face-up cards: taken into the empty hand (the seed), or played from the table (pagat)."""

FirstPlayer: TypeAlias = Literal["lowest_card", "seat0"]
"""Who plays first: the lowest natural card in hand after the swaps, or seat 0."""

PlayUntil: TypeAlias = Literal["first_out", "last"]
"""The game ends when the first player finishes, or when one player still holds cards."""

CARDS_PER_DECK = 52
"""A standard deck, no jokers."""

ROW = 3
"""Cards in each player's face-down row, and in the face-up row on top of it."""

MAX_DECKS = 4
"""Most decks shuffled together (``decks`` is 1 to 4), as the rules page says."""

MAX_HAND_SIZE = 9
"""Largest ``hand_size`` (1 to 9), as the rules page says."""

MAX_PLAYERS = MAX_DECKS * CARDS_PER_DECK // (2 * ROW + 1)
"""Most seats any config can deal to: 29, with four decks and a hand of one."""

MAX_TURNS = 100_000
"""Largest ``max_turns``: a turn makes at most ``52 x decks + 1`` moves, so even the longest
game stays below about 21 million moves."""


@attrs.frozen
class Config:
    """Palace house rules (:doc:`/rules/palace`); a bad value raises ``ConfigError``.

    Attributes:
        players: Seats at the table, 2 or more, as many as ``players x (6 + hand_size) <=
            52 x decks`` allows (5 with one deck and a hand of three).
        decks: Standard 52-card decks shuffled together, 1 to 4.
        hand_size: Cards dealt to each hand, and the hand a refill draws up to, 1 to 9.
        must_beat: ``"equal_or_higher"``: a natural card goes on an equal or lower one;
            ``"higher"``: only on a lower one.
        quad: ``"extra_play"``: laying four or more of a rank in one play allows another
            set in the same turn; ``"burn"``: four or more of a rank on top burn the pile.
        face_up_play: ``"take_into_hand"``: face-up cards go into the hand once hand and
            stock are empty; ``"from_table"``: they are played from the table.
        voluntary_pickup: Whether a non-empty pile may be taken at a turn's start though a play
            is possible.
        first_player: ``"lowest_card"``: the lowest natural card in hand after the swaps
            starts; ``"seat0"``: seat 0 always does.
        play_until: ``"first_out"``: the first player out wins and the game ends;
            ``"last"``: play goes on until one player holds cards.
        max_turns: Passings of the turn after which the game ends, 1 to 100,000.

    """

    players: int = attrs.field(default=2, validator=whole(2, MAX_PLAYERS))
    decks: int = attrs.field(default=1, validator=whole(1, MAX_DECKS))
    hand_size: int = attrs.field(default=3, validator=whole(1, MAX_HAND_SIZE))
    must_beat: MustBeat = attrs.field(default="equal_or_higher", validator=choice(MustBeat))
    quad: Quad = attrs.field(default="extra_play", validator=choice(Quad))
    face_up_play: FacePlay = attrs.field(default="take_into_hand", validator=choice(FacePlay))
    voluntary_pickup: bool = attrs.field(default=False, validator=flag())
    first_player: FirstPlayer = attrs.field(default="lowest_card", validator=choice(FirstPlayer))
    play_until: PlayUntil = attrs.field(default="first_out", validator=choice(PlayUntil))
    max_turns: int = attrs.field(default=1000, validator=whole(1, MAX_TURNS))

    def __attrs_post_init__(self) -> None:
        needed = self.players * (2 * ROW + self.hand_size)
        if needed > self.cards:
            decks = f"{self.decks} deck holds" if self.decks == 1 else f"{self.decks} decks hold"
            raise ConfigError(
                f"{self.players} players need {self.players} x (6 + hand_size "
                f"{self.hand_size}) = {needed} cards; {decks} {self.cards}"
            )

    @property
    def cards(self) -> int:
        """Cards in the game: 52 per deck."""
        return CARDS_PER_DECK * self.decks

    @classmethod
    def pagat(cls, **changes: Any) -> Config:
        """Pagat's Shithead where the switches reach; ``changes`` set other fields.

        >>> Config.pagat().quad, Config.pagat(players=3).play_until
        ('burn', 'last')
        """
        pagat = {"quad": "burn", "face_up_play": "from_table", "play_until": "last"}
        return cls(**{**pagat, "voluntary_pickup": True, **changes})
