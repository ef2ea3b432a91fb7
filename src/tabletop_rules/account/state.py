"""The state of an account game: the field, the pack, the markers and the accounts.

Build one with :func:`~tabletop_rules.account.new_game` and advance it with
:func:`~tabletop_rules.account.apply`; :func:`~tabletop_rules.account.check_state` checks
every invariant of a state that comes from elsewhere (a loader, a test). Fields are
keyword-only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import compress
from typing import Literal, NoReturn, TypeAlias, cast, get_args

import attrs

from ..messages import short_repr
from ..protocol import Seat
from ..rng import SEED_BITS, Rng, is_valid_state
from ..validation import Fail, check_own, check_type, run_checks
from .cards import CARD_IDS, Card
from .config import MAX_COLUMNS, Config
from .moves import SIDES, Move

__all__ = [
    "PHASES",
    "Column",
    "Phase",
    "State",
    "View",
    "account_bound",
    "check_state",
    "largest_change",
    "lay",
    "line",
    "scores_so_far",
]

Phase: TypeAlias = Literal["setup", "play", "over"]
"""Placing the starting markers, play, or the game is over."""

PHASES: tuple[Phase, ...] = get_args(Phase)
"""Every :data:`Phase`, in the order a game passes through them."""

Column: TypeAlias = tuple[Card, ...]
"""A column of the field, bottom card first: its first card is on the bottom line.
Empty once every card of it has collapsed."""


@attrs.frozen(kw_only=True)
class State:
    """An account game at one moment. Fields may be read freely; the package's functions
    interpret them.

    Attributes:
        config: The house rules in force.
        seed: The seed the game was dealt from (drawn when none was given).
        rng: The generator for the die (with ``auto_chance``) and the reshuffles of the
            discard pile.
        field: One :data:`~tabletop_rules.account.state.Column` per column, bottom card first.
        pack: The face-down pack B draws from, top card first.
        discard: The discard pile, oldest first.
        markers: Each seat's markers, in the order they were got: the column each
            stands on.
        accounts: Each seat's account.
        phase: ``"setup"``, ``"play"`` or ``"over"``.
        seat: The seat placing (setup) or on turn (play); kept when the game ends.
        turns: Turns completed in play (a round is ``players`` turns).
        roll: The number rolled that the next ``Advance`` uses, ``None`` when no roll
            awaits a move.
        awaiting_die: Whether a roll waits for its chance outcome ``Die(value)``.
        moved: The markers of the seat on turn moved this turn, in the order moved.
        ending: Under ``end="finish_round"``, whether End has scored and the game stops
            when the round is complete.
        deal: The deck order (top card first) given to ``new_game``; ``None`` when the
            seed shuffled the deck.

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


def line(state: State) -> tuple[int, ...]:
    """The columns of the bottom line that still hold a card, left to right: the ring the
    markers move on. Without ``collapse`` no card leaves the field, so that is every column.
    ``TypeError`` for what is no account state.
    """
    return _line(check_type(state, (State,)))


def _line(state: State) -> tuple[int, ...]:
    """:func:`line` unchecked, for the rules' hot path."""
    field = state.field
    if not state.config.collapse:
        return _EVERY_COLUMN[len(field)]
    return tuple(compress(range(len(field)), field))


_EVERY_COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(columns)) for columns in range(MAX_COLUMNS + 1)
)


def check_state(state: State) -> None:
    """Raise :class:`~tabletop_rules.errors.InvalidStateError` unless ``state`` is
    consistent with the rules: used by loaders and tests, never on the hot path.

    The checks, each named in the message when it fails: the shape of every field;
    *conservation* (the field, pack and discard pile hold exactly the configured deck, as
    a multiset); the *field* (every column full without ``collapse``, at most ``rows``
    cards with it); the *markers* (each on a column that holds a card; no seat owns more
    than ``max_markers``; in setup, seats before the one placing hold all their starting
    markers and later seats none; in play each seat owns at least ``starting_markers``);
    the *accounts* (whole numbers, never negative under ``floor_at_zero``, each within
    :func:`~tabletop_rules.account.state.account_bound`: no further from 0 than the cards
    scored so far can take it); the *turn*
    (a roll of 1 to 6 or none, a die awaited only with ``auto_chance=False`` and only
    with no roll, moved markers distinct and owned, fewer moved than owned while the turn
    goes on, nothing rolled or moved in setup); *rounds* below ``max_rounds`` while the
    game goes on; ``ending`` only under ``finish_round``; the *deal* (exactly the
    configured deck); the field *as laid*: the deal's laying, or without a deal the
    seed's shuffle's, each column under ``collapse`` what is left of its laid column
    """

    def check(fail: Fail) -> None:
        if type(state) is not State or type(state.config) is not Config:
            fail(f"expected an account State with an account Config, got {short_repr(state)}")
        _check(state, fail)

    run_checks("account state", check)


def _cards(name: str, value: object, fail: Fail) -> tuple[Card, ...]:
    return cast(tuple[Card, ...], check_own(name, value, CARD_IDS, "the package's cards", fail))


def _int(name: str, value: object, low: int, high: int, fail: Callable[[str], NoReturn]) -> int:
    if type(value) is not int or not low <= value <= high:
        fail(f"{name} must be a whole number {low} to {high}, got {short_repr(value)}")
    return value


def _check(state: State, fail: Callable[[str], NoReturn]) -> None:
    config = state.config
    players = config.players
    if not is_valid_state(state.seed):
        fail(f"seed must be an integer in [0, 2**{SEED_BITS}), got {short_repr(state.seed)}")
    if type(state.rng) is not Rng or not is_valid_state(state.rng.state):
        fail(f"rng must be an Rng, got {short_repr(state.rng)}")
    if type(state.field) is not tuple or len(state.field) != config.columns:
        fail(f"field must hold {config.columns} columns, got {short_repr(state.field)}")
    everything: Counter[Card] = Counter()
    for column, cards in enumerate(state.field):
        _cards(f"column {column}", cards, fail)
        if config.collapse:
            if len(cards) > config.rows:
                fail(f"column {column} holds {len(cards)} cards, more than the {config.rows} rows")
        elif len(cards) != config.rows:
            fail(
                f"column {column} holds {len(cards)} cards; without collapse every column "
                f"keeps its {config.rows}"
            )
        everything.update(cards)
    everything.update(_cards("pack", state.pack, fail))
    everything.update(_cards("discard", state.discard, fail))
    if everything != Counter(config.deck_counts()) - Counter():
        fail("cards are not conserved: field, pack and discard pile must hold exactly the deck")
    _check_laid(state, fail)
    if state.phase not in ("setup", "play", "over") or type(state.phase) is not str:
        fail(f"phase must be setup, play or over, got {short_repr(state.phase)}")
    seat = _int("seat", state.seat, 0, players - 1, fail)
    if type(state.markers) is not tuple or len(state.markers) != players:
        fail(f"markers must hold one tuple for each of the {players} seats")
    if type(state.accounts) is not tuple or len(state.accounts) != players:
        fail(f"accounts must hold one account for each of the {players} seats")
    for who, account in enumerate(state.accounts):
        if type(account) is not int:
            fail(f"seat {who}'s account must be a whole number, got {short_repr(account)}")
        if config.floor_at_zero and account < 0:
            fail(f"seat {who}'s account is {account}, below the floor at 0")
    for who, owned in enumerate(state.markers):
        if type(owned) is not tuple:
            fail(f"seat {who}'s markers must be a tuple, got {short_repr(owned)}")
        if len(owned) > config.max_markers:
            fail(
                f"seat {who} owns {len(owned)} markers, more than max_markers {config.max_markers}"
            )
        for marker, column in enumerate(owned):
            _int(f"seat {who}'s marker {marker}", column, 0, config.columns - 1, fail)
            if not state.field[column]:
                fail(f"seat {who}'s marker {marker} stands on column {column}, which is empty")
    turns = _int("turns", state.turns, 0, config.max_rounds * players, fail)
    moved = state.moved
    if type(moved) is not tuple or len(set(moved)) != len(moved):
        fail(f"moved must be a tuple of distinct markers, got {short_repr(moved)}")
    if state.roll is not None:
        _int("roll", state.roll, 1, SIDES, fail)
    if type(state.awaiting_die) is not bool or type(state.ending) is not bool:
        fail("awaiting_die and ending must be True or False")
    if state.awaiting_die and (config.auto_chance or state.roll is not None):
        fail("a die is awaited only with auto_chance=False, and never with a roll pending")
    if state.ending and config.end != "finish_round":
        fail("ending is set only under end='finish_round'")
    _check_reachable_accounts(state, fail)
    if state.phase == "setup":
        if turns or moved or state.roll is not None or state.awaiting_die:
            fail("nothing is rolled, moved or counted as a turn in setup")
        for who, owned in enumerate(state.markers):
            want = config.starting_markers if who < seat else 0
            if who == seat:
                if len(owned) >= config.starting_markers:
                    fail(f"seat {seat} places in setup but holds all its starting markers")
            elif len(owned) != want:
                fail(f"in setup seat {who} must hold {want} markers, holds {len(owned)}")
        return
    for who, owned in enumerate(state.markers):
        if state.phase == "play" and len(owned) < config.starting_markers:
            fail(f"seat {who} owns {len(owned)} markers, fewer than starting_markers")
    owned = state.markers[seat]
    for marker in moved:
        _int("a moved marker", marker, 0, len(owned) - 1, fail)
    if state.phase == "play":
        if turns >= config.max_rounds * players:
            fail(f"play goes on after max_rounds {config.max_rounds}")
        if turns % players != seat:
            fail(f"seat {seat} is on turn after {turns} turns")
        if len(moved) >= len(owned):
            fail("every marker has moved, yet the turn goes on")
        if state.roll is not None and len(moved) >= len(owned):
            fail("a roll is pending with no marker left to move")


def lay(config: Config, cards: tuple[Card, ...]) -> tuple[tuple[Column, ...], tuple[Card, ...]]:
    """The field and the pack that a deck in the order ``cards`` (top card first) lays:
    the bottom line first, left to right, then each row above it; the rest is the pack,
    its first card drawn first.
    """
    columns, laid = config.columns, config.rows * config.columns
    return tuple(cards[column:laid:columns] for column in range(columns)), cards[laid:]


def _check_laid(state: State, fail: Callable[[str], NoReturn]) -> None:
    """The field is what the deal, or else the seed's shuffle of the deck, laid: cards
    never move on the field, and under ``collapse`` a column only loses its bottom cards,
    so each column is what is left of the top of its laid column.
    """
    config = state.config
    if state.deal is None:
        cards, _rng = Rng.from_seed(state.seed).shuffled(config.deck_cards())
        source = f"the shuffle of seed {state.seed}"
    else:
        cards = _cards("deal", state.deal, fail)
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


def largest_change(config: Config) -> int:
    """The most one scoring card can change an account by under ``config``: the largest
    size among the numbers, P and T its deck holds (what landing on one adds, and what B
    charges for drawing one); 0 when it holds none. Z only brings an account to 0, End
    and buying a marker (which needs the account to cover the cost) bring none further
    from 0.
    """
    return max((card.cost for card, count in config.deck if count and card.valued), default=0)


def scores_so_far(state: State, seat: Seat) -> int:
    """At most how many times a card has scored for ``seat``: once for each marker it got
    (placed or bought), once for each marker moved in its turns so far (no more than it
    owns now, markers are never lost) and in the turn under way.
    """
    config = state.config
    owned = len(state.markers[seat])
    turns_taken = state.turns // config.players + (seat < state.turns % config.players)
    on_turn = len(state.moved) if seat == state.seat else 0
    return owned * (1 + turns_taken) + on_turn


def account_bound(state: State, seat: Seat) -> int:
    """The largest size ``seat``'s account can have reached in ``state``:
    :func:`largest_change` for each of :func:`scores_so_far`. A move raises a seat's bound
    by at least what its card can add, so play from a state within its bounds stays
    within them; over a whole game the bound is at most
    ``largest_change x max_markers x (max_rounds + 1)`` (8,008,000 for the largest config).
    """
    return largest_change(state.config) * scores_so_far(state, seat)


def _check_reachable_accounts(state: State, fail: Callable[[str], NoReturn]) -> None:
    for seat, account in enumerate(state.accounts):
        bound = account_bound(state, seat)
        if abs(account) > bound:
            fail(
                f"seat {seat}'s account of {short_repr(account)} is out of reach: at most "
                f"{scores_so_far(state, seat)} cards have scored for it, each changing it by "
                f"at most {largest_change(state.config)}, so it lies within +-{bound}"
            )


@attrs.frozen
class View:
    """A seat's knowledge of an account game: everything public, nothing of the pack's or
    the discard pile's order, the seed or the generator.

    Attributes:
        seat: Whose view this is; ``None`` for a spectator.
        config: The house rules in force (the deck composition is public).
        phase: ``"setup"``, ``"play"`` or ``"over"``.
        current_player: As :func:`~tabletop_rules.account.current_player`: ``CHANCE``
            while a roll awaits its die, ``None`` once the game is over.
        on_turn: The seat placing (setup) or on turn (play); kept when the game ends.
        field: One column per column of the field, bottom card first (all face up).
        markers: Each seat's markers, in the order they were got: the column each stands
            on.
        accounts: Each seat's account.
        turns: Turns completed in play.
        rounds: Rounds completed (``turns // players``).
        roll: The roll the next ``Advance`` uses, ``None`` when none is pending.
        awaiting_die: Whether a roll waits for its chance outcome.
        moved: The markers of the seat on turn moved this turn, in the order moved.
        ending: Under ``end="finish_round"``, whether End has scored.
        pack_size: How many cards the face-down pack holds.
        discard: The discard pile's cards, sorted by kind (its order is hidden).
        scores: Every seat's score now.
        winners: The winning seats, once the game is over.
        legal_moves: The moves open to ``seat`` now (empty when it is not to move).

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
