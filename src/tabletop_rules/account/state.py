"""The state of an account game, a seat's view of it, and the bounds play keeps them within
(the invariants ``check_state`` checks are in :mod:`~tabletop_rules.account.invariants`).
"""

from __future__ import annotations

from typing import Literal, TypeAlias, get_args

import attrs

from ..kit import Rng
from ..protocol import Seat
from .cards import Card
from .config import Config
from .moves import Move

__all__ = ["PHASES", "Column", "Phase", "State", "View"]

Phase: TypeAlias = Literal["setup", "play", "over"]
"""Placing the starting markers, play, or the game is over."""

PHASES: tuple[Phase, ...] = get_args(Phase)
"""Every :data:`Phase`, in the order a game passes through them."""

Column: TypeAlias = tuple[Card, ...]
"""A column of the field, bottom card first (its first card is on the bottom line); empty
once every card of it has collapsed."""


@attrs.frozen(kw_only=True)
class State:
    """An account game at one moment.

    Attributes:
        pack: The face-down pack B draws from, top card first; ``discard`` oldest first.
        markers: Each seat's markers, in the order got: the column each stands on.
        seat: The seat placing (setup) or on turn (play); kept when the game ends.
        turns: Turns completed in play (a round is ``players`` turns).
        roll: The number rolled that the next ``Advance`` uses, if any.
        moved: The markers of the seat on turn moved this turn, in the order moved.
        ending: Under ``end="finish_round"``, whether End has scored.
        deal: The deck order given to ``new_game``; ``None`` when the seed shuffled it.

    """

    config: Config
    seed: int
    rng: Rng
    field: tuple[Column, ...]
    pack: tuple[Card, ...]
    discard: tuple[Card, ...] = ()
    markers: tuple[tuple[int, ...], ...]
    accounts: tuple[int, ...]
    phase: Phase = "setup"
    seat: Seat = 0
    turns: int = 0
    roll: int | None = None
    awaiting_die: bool = False
    moved: tuple[int, ...] = ()
    ending: bool = False
    deal: tuple[Card, ...] | None = None

    @property
    def rounds(self) -> int:
        """Rounds completed."""
        return self.turns // self.config.players

    @property
    def rolled(self) -> bool:
        """Whether the seat on turn has rolled this turn (buying is over)."""
        return self.roll is not None or self.awaiting_die or bool(self.moved)


@attrs.frozen
class View:
    """A seat's knowledge of an account game (``seat`` ``None``: a spectator's): what the
    state holds but the order of the pack and the discard pile (sorted by kind here), the
    seed and the generator; ``on_turn`` is the state's ``seat``.
    """

    seat: Seat | None
    config: Config
    phase: Phase
    current_player: Seat | None
    on_turn: Seat
    field: tuple[Column, ...]
    markers: tuple[tuple[int, ...], ...]
    accounts: tuple[int, ...]
    turns: int
    rounds: int
    roll: int | None
    awaiting_die: bool
    moved: tuple[int, ...]
    ending: bool
    pack_size: int
    discard: tuple[Card, ...]
    scores: tuple[int, ...]
    winners: frozenset[Seat]
    legal_moves: tuple[Move, ...]


def lay(config: Config, cards: tuple[Card, ...]) -> tuple[tuple[Column, ...], tuple[Card, ...]]:
    """The field and the pack that ``cards`` (top card first) lay: the bottom line left to
    right, then each row above it; the rest is the pack.
    """
    columns, laid = config.columns, config.rows * config.columns
    return tuple(cards[column:laid:columns] for column in range(columns)), cards[laid:]


def largest_change(config: Config) -> int:
    """The most one scoring card can change an account by: the largest number, P or T of
    the deck (Z, End and buying bring an account no further from 0).
    """
    return max((card.cost for card, count in config.deck if count and card.valued), default=0)


def scores_so_far(state: State, seat: Seat) -> int:
    """At most how many times a card has scored for ``seat``: once for each marker it got,
    and once for each marker moved in its turns so far.
    """
    owned = len(state.markers[seat])
    turns_taken = state.rounds + (seat < state.turns % state.config.players)
    return owned * (1 + turns_taken) + (len(state.moved) if seat == state.seat else 0)


def account_bound(state: State, seat: Seat) -> int:
    """The largest size ``seat``'s account can have reached: :func:`largest_change` times
    :func:`scores_so_far` (at most 8,008,000). Play from a state within it stays within it.
    """
    return largest_change(state.config) * scores_so_far(state, seat)
