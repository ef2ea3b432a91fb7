"""The state of an account game, a seat's view of it, and the invariants ``check_state`` checks."""

from __future__ import annotations

from collections import Counter
from itertools import compress
from typing import Literal, TypeAlias, get_args

import attrs

from .._validation import check_own
from ..kit import Fail, Rng, check_type, short_repr
from ..protocol import Seat
from .cards import CARDS, Card
from .config import MAX_COLUMNS, Config
from .moves import SIDES, Move

__all__ = ["PHASES", "Column", "Phase", "State", "View", "line"]

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


def line(state: State) -> tuple[int, ...]:
    """The columns of the bottom line that still hold a card, left to right: the ring the
    markers move on.
    """
    return _line(check_type(state, (State,)))


def _line(state: State) -> tuple[int, ...]:
    field = state.field
    if not state.config.collapse:
        return _EVERY_COLUMN[len(field)]
    return tuple(compress(range(len(field)), field))


_EVERY_COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(columns)) for columns in range(MAX_COLUMNS + 1)
)


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


# --- the invariants -----------------------------------------------------------------------


_OWN_CARDS = frozenset(map(id, CARDS))


def cards_of(name: str, value: object, fail: Fail) -> tuple[Card, ...]:
    """``value``, a tuple of the package's own cards; else ``fail`` says what it holds."""
    cards: tuple[Card, ...] = check_own(name, value, _OWN_CARDS, "the package's cards", fail)
    return cards


def _int(name: str, value: object, low: int, high: int, fail: Fail) -> int:
    if type(value) is not int or not low <= value <= high:
        fail(f"{name} must be a whole number {low} to {high}, got {short_repr(value)}")
    return value


def invariants(state: State, fail: Fail) -> None:
    """Call ``fail`` unless ``state`` is one play reaches (:doc:`/rules/account`)."""
    config = state.config
    players = config.players
    if type(state.field) is not tuple or len(state.field) != config.columns:
        fail(f"field must hold {config.columns} columns, got {short_repr(state.field)}")
    everything: Counter[Card] = Counter()
    for column, cards in enumerate(state.field):
        everything.update(cards_of(f"column {column}", cards, fail))
        if len(cards) > config.rows or (len(cards) < config.rows and not config.collapse):
            fail(f"column {column} holds {len(cards)} cards of {config.rows} rows")
    everything.update(cards_of("pack", state.pack, fail))
    everything.update(cards_of("discard", state.discard, fail))
    if everything != Counter(config.deck_counts()) - Counter():
        fail("cards are not conserved: field, pack and discard pile must hold exactly the deck")
    _check_laid(state, fail)
    if type(state.phase) is not str or state.phase not in PHASES:
        fail(f"phase must be setup, play or over, got {short_repr(state.phase)}")
    _int("seat", state.seat, 0, players - 1, fail)
    _int("turns", state.turns, 0, config.max_rounds * players, fail)
    if type(state.markers) is not tuple or len(state.markers) != players:
        fail(f"markers must hold one tuple for each of the {players} seats")
    if type(state.accounts) is not tuple or len(state.accounts) != players:
        fail(f"accounts must hold one account for each of the {players} seats")
    moved = state.moved
    if type(moved) is not tuple or len(set(moved)) != len(moved):
        fail(f"moved must be a tuple of distinct markers, got {short_repr(moved)}")
    for who, (account, owned) in enumerate(zip(state.accounts, state.markers, strict=True)):
        if type(account) is not int:
            fail(f"seat {who}'s account must be a whole number, got {short_repr(account)}")
        if config.floor_at_zero and account < 0:
            fail(f"seat {who}'s account is {account}, below the floor at 0")
        if type(owned) is not tuple or len(owned) > config.max_markers:
            fail(f"seat {who}'s markers must be at most {config.max_markers}: {owned!r}")
        for marker, column in enumerate(owned):
            _int(f"seat {who}'s marker m{marker}", column, 0, config.columns - 1, fail)
            if not state.field[column]:
                fail(f"seat {who}'s marker m{marker} stands on column {column}, which is empty")
        bound = account_bound(state, who)
        if abs(account) > bound:
            fail(
                f"seat {who}'s account of {short_repr(account)} is out of reach: at most "
                f"{scores_so_far(state, who)} cards have scored for it, each changing it by "
                f"at most {largest_change(config)}, so it lies within +-{bound}"
            )
    if state.roll is not None:
        _int("roll", state.roll, 1, SIDES, fail)
    if type(state.awaiting_die) is not bool or type(state.ending) is not bool:
        fail("awaiting_die and ending must be True or False")
    if state.awaiting_die and (config.auto_chance or state.roll is not None):
        fail("a die is awaited only with auto_chance=False, and never with a roll pending")
    if state.ending and config.end != "finish_round":
        fail("ending is set only under end='finish_round'")
    if state.phase == "setup":
        _check_setup(state, fail)
    else:
        _check_turn(state, fail)


def _check_setup(state: State, fail: Fail) -> None:
    config, seat = state.config, state.seat
    if state.turns or state.moved or state.roll is not None or state.awaiting_die:
        fail("nothing is rolled, moved or counted as a turn in setup")
    for who, owned in enumerate(state.markers):
        want = config.starting_markers if who < seat else 0
        if who == seat and len(owned) >= config.starting_markers:
            fail(f"seat {seat} places in setup but holds all its starting markers")
        if who != seat and len(owned) != want:
            fail(f"in setup seat {who} must hold {want} markers, holds {len(owned)}")


def _check_turn(state: State, fail: Fail) -> None:
    config, seat, turns = state.config, state.seat, state.turns
    owned = state.markers[seat]
    for marker in state.moved:
        _int("a moved marker", marker, 0, len(owned) - 1, fail)
    if state.phase == "over":
        return
    for who, markers in enumerate(state.markers):
        if len(markers) < config.starting_markers:
            fail(f"seat {who} owns {len(markers)} markers, fewer than starting_markers")
    if turns >= config.max_rounds * config.players:
        fail(f"play goes on after max_rounds {config.max_rounds}")
    if turns % config.players != seat:
        fail(f"seat {seat} is on turn after {turns} turns")
    if len(state.moved) >= len(owned):
        fail("every marker has moved, yet the turn goes on")


def _check_laid(state: State, fail: Fail) -> None:
    """The field is as the deal, or else the seed's shuffle, laid it (less collapsed cards)."""
    config = state.config
    if state.deal is None:
        cards, _rng = Rng.from_seed(state.seed).shuffled(config.deck_cards())
        source = f"the shuffle of seed {state.seed}"
    else:
        cards = cards_of("deal", state.deal, fail)
        if Counter(cards) != Counter(config.deck_cards()):
            fail("the deal must be exactly the configured deck")
        source = "the deal"
    laid, _pack = lay(config, cards)
    for column, (cards_now, cards_laid) in enumerate(zip(state.field, laid, strict=True)):
        if cards_now != cards_laid[len(cards_laid) - len(cards_now) :]:
            fail(
                f"column {column} is not as {source} laid it"
                + (" (less the cards collapsed from its bottom)" if config.collapse else "")
            )
