"""The state of a palace game: every card's place, whose turn it is, and what is due.

Build one with :func:`~tabletop_rules.palace.new_game` and advance it with
:func:`~tabletop_rules.palace.apply`; :func:`~tabletop_rules.palace.check_state` checks
every invariant of a state that comes from elsewhere (a loader, a test).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Literal, NoReturn, TypeAlias, cast, get_args

import attrs

from ..errors import InvalidStateError
from ..messages import short_repr
from ..protocol import Seat
from ..rng import SEED_BITS, Rng, is_valid_state
from ..validation import Fail, check_own, run_checks
from .cards import CARD_IDS, DECK, Card
from .config import ROW, Config
from .moves import Move

__all__ = [
    "MAX_SWAPS",
    "PENDINGS",
    "PHASES",
    "Hand",
    "Pending",
    "Phase",
    "Row",
    "State",
    "View",
    "check_state",
    "dealt_order",
    "fitting_deal",
    "holds_cards",
    "shuffled_decks",
]

Hand: TypeAlias = tuple[Card, ...]
"""Cards in a hand, sorted (a multiset: several decks hold equal cards)."""

Row: TypeAlias = tuple[Card | None, ...]
"""A row of three slots, each a card or ``None`` once it is gone."""

Phase: TypeAlias = Literal["swap", "play", "over"]
"""The swap phase, play, or the game is over."""

Pending: TypeAlias = Literal["none", "take", "extra", "replay"]
"""What the seat on turn owes or may do in the play phase: nothing special (``"none"``);
it must take the pile, a 3 being on top (``"take"``); after four of a kind it may lay
another set or end the turn (``"extra"``); after a burn it plays again (``"replay"``)."""

PHASES: tuple[Phase, ...] = get_args(Phase)
"""Every :data:`Phase`, in the order a game passes through them."""

PENDINGS: tuple[Pending, ...] = get_args(Pending)
"""Every :data:`Pending`, in the order the type lists them."""

MAX_SWAPS = 2 * ROW
"""Swaps each seat may make in the swap phase **[decided]**: six. Two swaps put any card
into any face-up slot (out of another slot into the hand, then into place), so six reach
every arrangement of hand and face-up row; the cap keeps random play, and the bound of
:func:`~tabletop_rules.palace.max_moves`, finite."""


@attrs.frozen
class State:
    """A palace game at one moment. Fields may be read freely; the package's functions
    interpret them.

    Attributes:
        config: The house rules in force.
        seed: The seed the game was dealt from (drawn when none was given); with a given
            deal it is kept but dealt nothing.
        hands: Each seat's hand, sorted.
        known: Each seat's publicly known hand cards, sorted: a sub-multiset of its hand
            (cards taken with the pile, swapped in or taken up from the face-up row, an
            unplayable blind card), until they leave the hand.
        face_up: Each seat's face-up row: slot i covers face-down slot i.
        face_down: Each seat's face-down row.
        stock: The cards left to draw, the next one first.
        pile: The discard pile, bottom first: its top card is the last.
        burned: Cards that left the game, in the order they left.
        phase: ``"swap"``, ``"play"`` or ``"over"``.
        seat: The seat on turn (swapping, in the swap phase); kept when the game ends.
        turns: Passings of the turn so far (the swap phase does not count).
        swaps: Swaps the seat on turn has made in the swap phase (at most
            :data:`~tabletop_rules.palace.state.MAX_SWAPS`); 0 in play.
        pending: What the seat on turn owes or may do (see
            :data:`~tabletop_rules.palace.state.Pending`).
        finished: Seats that have finished, in finishing order.
        deal: The deck order (top card first) the game was dealt from when
            ``new_game(..., deal=cards)`` was given one, or that
            :func:`~tabletop_rules.palace.determinize` chose for the state it re-dealt;
            ``None`` when the seed shuffled the decks. It predicts the whole game, so no
            view ever shows it.

    """

    config: Config
    seed: int
    hands: tuple[Hand, ...]
    known: tuple[Hand, ...]
    face_up: tuple[Row, ...]
    face_down: tuple[Row, ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...] = ()
    burned: tuple[Card, ...] = ()
    phase: Phase = "swap"
    seat: Seat = 0
    turns: int = 0
    swaps: int = 0
    pending: Pending = "none"
    finished: tuple[Seat, ...] = ()
    deal: tuple[Card, ...] | None = None

    @property
    def top(self) -> Card | None:
        """The pile's top card, ``None`` when the pile is empty."""
        return self.pile[-1] if self.pile else None


def holds_cards(state: State, seat: Seat) -> bool:
    """Whether ``seat`` still holds a card: in hand, face up or face down."""
    return bool(
        state.hands[seat]
        or any(card is not None for card in state.face_up[seat])
        or any(card is not None for card in state.face_down[seat])
    )


def shuffled_decks(config: Config, seed: int) -> tuple[Card, ...]:
    """The deck order, top card first, that ``seed`` deals under ``config``:
    :meth:`~tabletop_rules.rng.Rng.shuffled` of :data:`~tabletop_rules.palace.cards.DECK`
    repeated ``decks`` times.
    """
    return _shuffled(config.decks, seed)


@functools.lru_cache(maxsize=256)
def _shuffled(decks: int, seed: int) -> tuple[Card, ...]:
    """The shuffle, kept for the last games seen: checking every state of a game (a
    replay, a loaded record) shuffles its decks once.
    """
    cards, _rng = Rng.from_seed(seed).shuffled(DECK * decks)
    return cards


def dealt_order(state: State) -> tuple[Card, ...]:
    """The deck order ``state``'s game was dealt from: its ``deal``, or its seed's shuffle."""
    return state.deal if state.deal is not None else shuffled_decks(state.config, state.seed)


def _face_down_place(players: int, seat: Seat, slot: int) -> int:
    """Where in a deck order the card dealt to ``seat``'s face-down ``slot`` lies."""
    return slot * players + seat


def _face_up_place(players: int, seat: Seat, slot: int) -> int:
    """Where in a deck order the card dealt to ``seat``'s face-up ``slot`` lies."""
    return (ROW + slot) * players + seat


def _hand_place(players: int, seat: Seat, index: int) -> int:
    """Where in a deck order the ``index``-th card dealt to ``seat``'s hand lies."""
    return (2 * ROW + index) * players + seat


def _stock_start(config: Config) -> int:
    """Where in a deck order the stock begins: after every row and hand."""
    return config.players * (2 * ROW + config.hand_size)


def fitting_deal(state: State) -> tuple[Card, ...]:
    """A deck order that ``state``'s rows, hands and stock agree with, as
    :func:`check_state` checks them against the deal: every face-down and face-up card
    still in place where the deal put it, the stock its last cards, and in the swap phase
    the hands and rows as dealt; the cards that have moved since (to the pile, burned,
    into a hand) fill the other places in sorted order.

    A position set up by hand (a puzzle, a test) gets a deal with
    ``attrs.evolve(state, deal=fitting_deal(state))``;
    :func:`~tabletop_rules.palace.determinize` gives the states it deals such a deal.
    Raises :class:`~tabletop_rules.errors.InvalidStateError` for a state that breaks
    another invariant of :func:`check_state` (its ``deal`` is not read).
    """

    def check(fail: Fail) -> tuple[Card, ...]:
        if type(state) is not State or type(state.config) is not Config:
            fail(f"expected a palace State with a palace Config, got {short_repr(state)}")
        _check_places(attrs.evolve(state, deal=None), fail)
        return _fitting_deal(state)

    return run_checks("palace state", check)


def _fitting_deal(state: State) -> tuple[Card, ...]:
    config = state.config
    players = config.players
    order: list[Card | None] = [None] * config.cards
    for seat in range(players):
        for slot in range(ROW):
            order[_face_down_place(players, seat, slot)] = state.face_down[seat][slot]
            order[_face_up_place(players, seat, slot)] = state.face_up[seat][slot]
        if state.phase == "swap":
            for index, card in enumerate(state.hands[seat]):
                order[_hand_place(players, seat, index)] = card
    if state.stock:
        order[-len(state.stock) :] = state.stock
    moved = state.pile + state.burned  # with the hands in play: every card not placed above
    if state.phase != "swap":
        moved += tuple(card for hand in state.hands for card in hand)
    empty = order.count(None)
    if len(moved) != empty:
        raise InvalidStateError(
            f"invalid palace state: {len(moved)} cards have left their places in the deal, "
            f"but {empty} places are empty: the cards are not the config's deck"
        )
    spare = iter(sorted(moved))
    return tuple(card if card is not None else next(spare) for card in order)


def check_state(state: State) -> None:
    """Raise :class:`~tabletop_rules.errors.InvalidStateError` unless ``state`` is
    consistent with the rules: used by loaders and tests, never on the hot path.

    The checks, each named in the message when it fails:

    - *shape*: a palace ``Config``, a 64-bit seed, one hand, known list and two rows of
      three slots per seat, every card one of the deck's own instances, hands and known
      lists sorted, known cards a sub-multiset of the hand;
    - *conservation*: every card of the configured decks is in exactly one place (hands,
      rows, stock, pile, burned), counted as a multiset;
    - *the phases*: in the swap phase nothing has been played, hands hold ``hand_size``
      cards and the rows are full; in play the seat on turn holds cards and has not
      finished; the game is over only when a player finished (the first one, or all but
      one under ``play_until="last"``) or the turn limit was reached;
    - *the rules' traces*: a hand is empty only once the stock is (refills); a face-down
      card is turned only once the face-up row is gone; under ``take_into_hand`` the
      face-up row is whole or gone; no 10 lies on the pile (it burns at once); under
      ``quad="burn"`` no four of a rank lie together on it; a 3 on top is owed a take,
      unless four of a kind were just laid; the finishing order holds exactly the seats
      with no cards left;
    - *the deal*: ``None``, or a tuple of exactly the configured decks;
    - *agreement with the deal* (``deal``, or the seed's shuffle): face-down cards never
      move until turned, so each one still in place is the card the deal put there; the
      stock only shrinks from the top, so it is the deal's last cards; face-up cards only
      leave once play starts, so those still in place were dealt to the row or swapped in
      from the hand; in the swap phase each seat holds the hand and face-up cards dealt to
      it, swapped between hand and row, a hand card not dealt to the hand known (it was
      swapped in face up), no known cards and nothing changed for a seat that has swapped
      nothing yet, no more known cards nor changed face-up slots than the swaps made.
    """

    def check(fail: Fail) -> None:
        if type(state) is not State or type(state.config) is not Config:
            fail(f"expected a palace State with a palace Config, got {short_repr(state)}")
        _check(state, fail)

    run_checks("palace state", check)


def _cards(name: str, value: object, fail: Fail) -> tuple[Card, ...]:
    return cast(tuple[Card, ...], check_own(name, value, CARD_IDS, "the deck's cards", fail))


def _row(name: str, value: object, fail: Callable[[str], NoReturn]) -> Row:
    if type(value) is not tuple or len(value) != ROW:
        fail(f"{name} must be a tuple of {ROW} slots, got {short_repr(value)}")
    for card in value:
        if card is not None and id(card) not in CARD_IDS:
            fail(f"{name} holds {short_repr(card)}, which is neither a card nor None")
    return value


def _int(name: str, value: object, low: int, high: int, fail: Callable[[str], NoReturn]) -> int:
    if type(value) is not int or not low <= value <= high:
        fail(f"{name} must be a whole number {low} to {high}, got {short_repr(value)}")
    return value


def _check(state: State, fail: Callable[[str], NoReturn]) -> None:
    _check_places(state, fail)
    _check_deal(state, fail)


def _check_places(state: State, fail: Callable[[str], NoReturn]) -> None:
    config = state.config
    players = config.players
    if not is_valid_state(state.seed):
        fail(f"seed must be an integer in [0, 2**{SEED_BITS}), got {short_repr(state.seed)}")
    for name in ("hands", "known", "face_up", "face_down"):
        value = getattr(state, name)
        if type(value) is not tuple or len(value) != players:
            fail(f"{name} must hold one entry for each of the {players} seats")
    everything: Counter[Card] = Counter()
    for seat in range(players):
        hand = _cards(f"seat {seat}'s hand", state.hands[seat], fail)
        known = _cards(f"seat {seat}'s known cards", state.known[seat], fail)
        if list(hand) != sorted(hand) or list(known) != sorted(known):
            fail(f"seat {seat}'s hand and known cards must be sorted")
        if Counter(known) - Counter(hand):
            fail(
                f"seat {seat}'s known cards {short_repr([str(c) for c in known])} are not all "
                f"in its hand"
            )
        up = _row(f"seat {seat}'s face-up row", state.face_up[seat], fail)
        down = _row(f"seat {seat}'s face-down row", state.face_down[seat], fail)
        everything.update(hand)
        everything.update(card for card in up if card is not None)
        everything.update(card for card in down if card is not None)
        if any(card is None for card in down) and any(card is not None for card in up):
            fail(f"seat {seat} turned a face-down card before its face-up row was gone")
        if config.face_up_play == "take_into_hand" and None in up and any(up):
            fail(f"seat {seat}'s face-up row is split, but face-up cards go into the hand at once")
    if state.deal is not None:
        deal = _cards("the deal", state.deal, fail)
        if Counter(deal) != Counter(dict.fromkeys(DECK, config.decks)):
            fail(f"the deal must be exactly the configured {config.decks} deck(s), or None")
    stock = _cards("the stock", state.stock, fail)
    pile = _cards("the pile", state.pile, fail)
    burned = _cards("the burned cards", state.burned, fail)
    everything.update(stock)
    everything.update(pile)
    everything.update(burned)
    expected = Counter(dict.fromkeys(DECK, config.decks))
    if everything != expected:
        missing = sorted((expected - everything).elements())
        extra = sorted((everything - expected).elements())
        fail(
            f"card conservation: every card of {config.decks} deck(s) must be in exactly one "
            f"place; missing {short_repr([str(c) for c in missing])}, extra "
            f"{short_repr([str(c) for c in extra])}"
        )
    if state.phase not in PHASES or type(state.phase) is not str:
        fail(f"phase must be one of {', '.join(PHASES)}, got {short_repr(state.phase)}")
    if state.pending not in PENDINGS or type(state.pending) is not str:
        fail(f"pending must be one of {', '.join(PENDINGS)}, got {short_repr(state.pending)}")
    seat = _int("seat", state.seat, 0, players - 1, fail)
    turns = _int("turns", state.turns, 0, config.max_turns, fail)
    _int("swaps", state.swaps, 0, MAX_SWAPS, fail)
    finished = state.finished
    if type(finished) is not tuple or len(set(finished)) != len(finished):
        fail(f"finished must be a tuple of distinct seats, got {short_repr(finished)}")
    for done in finished:
        _int("a finished seat", done, 0, players - 1, fail)
    holding = [s for s in range(players) if holds_cards(state, s)]
    if sorted(set(range(players)) - set(holding)) != sorted(finished):
        fail(
            f"the finishing order {short_repr(finished)} must hold exactly the seats with no "
            f"cards left"
        )
    if state.phase == "swap":
        dealt = players * (2 * ROW + config.hand_size)
        if turns or pile or burned or finished or state.pending != "none":
            fail("in the swap phase nothing has been played yet")
        if len(stock) != config.cards - dealt:
            fail(f"in the swap phase the stock holds the {config.cards - dealt} cards not dealt")
        for s in range(players):
            if len(state.hands[s]) != config.hand_size:
                fail(f"in the swap phase seat {s} holds hand_size {config.hand_size} cards")
            if None in state.face_up[s] or None in state.face_down[s]:
                fail(f"in the swap phase seat {s}'s rows are full")
            if _not_swapped(state, s) and state.known[s]:
                fail(
                    f"seat {s} has swapped nothing yet but has known hand cards "
                    f"{short_repr([str(c) for c in state.known[s]])}: in the swap phase only "
                    f"a swap makes a hand card known"
                )
        return
    if state.swaps:
        fail("swaps are counted in the swap phase only")
    for s in range(players):
        if not state.hands[s] and stock:
            fail(f"seat {s}'s hand is empty while the stock lasts: a play refills it")
        if config.face_up_play == "take_into_hand" and not state.hands[s] and any(state.face_up[s]):
            fail(f"seat {s}'s hand and the stock are empty: its face-up cards go into the hand")
    for card in pile:
        if card.rank == 10:
            fail("a 10 lies on the pile, but a 10 burns it at once")
    if config.quad == "burn":
        run = 0
        for index, card in enumerate(pile):
            run = run + 1 if index and pile[index - 1].rank == card.rank else 1
            if run >= 4:
                fail("four of a rank lie together on the pile, but under quad='burn' they burn")
    top = pile[-1] if pile else None
    if state.phase == "over":
        if state.pending != "none":
            fail("the game is over, but something is still due")
        by_turns = turns == config.max_turns
        by_finish = len(holding) <= 1 if config.play_until == "last" else len(finished) == 1
        if not by_turns and not by_finish:
            fail("the game is over, but nobody finished as play_until requires, nor turns ran out")
        if config.play_until == "first_out" and len(finished) > 1:
            fail("under play_until='first_out' the game ends when the first player finishes")
        return
    if turns >= config.max_turns:
        fail(f"turns reached max_turns ({config.max_turns}) but the game is not over")
    if config.play_until == "first_out" and finished:
        fail("a player finished, but under play_until='first_out' the game is then over")
    if len(holding) < 2:
        fail("play goes on while at least two players hold cards")
    if seat not in holding:
        fail(f"seat {seat} is on turn but holds no cards")
    pending = state.pending
    if pending == "take" and (top is None or top.rank != 3):
        fail("the seat on turn must take the pile, but no 3 is on top")
    if top is not None and top.rank == 3 and pending not in ("take", "extra"):
        fail("a 3 is on top: the seat on turn must take the pile")
    if pending == "replay" and pile:
        fail("a replay after a burn starts on an empty pile")
    if pending == "extra":
        if config.quad != "extra_play":
            fail("an extra play is due, but quad is not 'extra_play'")
        if len(pile) < 4 or len({card.rank for card in pile[-4:]}) != 1:
            fail("an extra play is due, but no four of a kind lie on top of the pile")


def _not_swapped(state: State, seat: Seat) -> bool:
    """In the swap phase, whether ``seat`` has made no swap yet: its turn to swap has not
    come, or it has come and no swap was made.
    """
    return seat > state.seat or (seat == state.seat and not state.swaps)


def _texts(cards: object) -> str:
    return short_repr([str(card) for card in cast(tuple[Card, ...], cards)])


def _check_deal(state: State, fail: Callable[[str], NoReturn]) -> None:
    """The rows, hands and stock agree with the deck order the game was dealt from (run
    once every other invariant holds: the fields have their shapes, the cards add up).
    """
    config = state.config
    players = config.players
    dealt = dealt_order(state)
    source = "its deal" if state.deal is not None else f"the shuffle of its seed {state.seed}"
    for seat in range(players):
        for slot, card in enumerate(state.face_down[seat]):
            expected = dealt[_face_down_place(players, seat, slot)]
            if card is not None and card != expected:
                fail(
                    f"seat {seat}'s face-down slot {slot} holds {card}, but {source} put "
                    f"{expected} there, and a face-down card never moves until it is turned"
                )
    stock, left = state.stock, config.cards - _stock_start(config)
    if len(stock) > left or (stock and stock != dealt[-len(stock) :]):
        fail(
            f"the stock {_texts(stock)} is not what is left of the stock {source} dealt "
            f"({_texts(dealt[-left:] if left else ())}): the stock only shrinks from the top"
        )
    for seat in range(players):
        up = [card for card in state.face_up[seat] if card is not None]
        if state.phase != "swap" and not up:
            continue
        hand = tuple(
            sorted(dealt[_hand_place(players, seat, index)] for index in range(config.hand_size))
        )
        row = tuple(dealt[_face_up_place(players, seat, slot)] for slot in range(ROW))
        if state.phase == "swap":
            _check_swaps(state, seat, hand, row, source, fail)
        elif Counter(up) - Counter(hand + row):
            fail(
                f"seat {seat}'s face-up row {_texts(state.face_up[seat])} holds cards "
                f"{source} dealt neither to it nor to the seat's hand, and once play starts "
                f"face-up cards only leave the row"
            )


def _check_swaps(
    state: State,
    seat: Seat,
    hand: Hand,
    row: Row,
    source: str,
    fail: Callable[[str], NoReturn],
) -> None:
    """In the swap phase, ``seat``'s hand and face-up row are its dealt ``hand`` and
    ``row`` with the swaps it made between them.
    """
    held, up, known = state.hands[seat], state.face_up[seat], state.known[seat]
    if Counter(held) + Counter(up) != Counter(hand) + Counter(row):
        fail(
            f"in the swap phase seat {seat} holds the cards {source} dealt to its hand "
            f"{_texts(hand)} and face-up row {_texts(row)}, swapped between them; it holds "
            f"{_texts(held)} and {_texts(up)}"
        )
    if _not_swapped(state, seat) and (held != hand or up != row):
        fail(
            f"seat {seat} has swapped nothing yet, so it holds the hand {_texts(hand)} and "
            f"face-up row {_texts(row)} {source} dealt it"
        )
    if Counter(held) - Counter(known) - Counter(hand):
        fail(
            f"seat {seat} holds hand cards {source} did not deal to its hand that are not "
            f"known, but a card swapped in from the face-up row is seen by all"
        )
    made = state.swaps if seat == state.seat else MAX_SWAPS if seat < state.seat else 0
    changed = sum(card != dealt for card, dealt in zip(up, row, strict=True))
    if len(known) > made or changed > made:
        fail(
            f"seat {seat} has {len(known)} known hand cards and {changed} face-up slots "
            f"changed since the deal, but a swap makes one card known and changes one "
            f"slot, and it made {'at most ' if seat < state.seat else ''}{made}"
        )


@attrs.frozen
class View:
    """A seat's knowledge of a palace game: what is public, plus its own hand.

    Attributes:
        seat: Whose view this is; ``None`` for a spectator.
        config: The house rules in force.
        phase: ``"swap"``, ``"play"`` or ``"over"``.
        current_player: As :func:`~tabletop_rules.palace.current_player`: ``None`` once
            the game is over.
        on_turn: The seat on turn (swapping, in the swap phase); kept when the game ends.
        swaps: Swaps the seat on turn has made in the swap phase (made in view of all).
        pending: What the seat on turn owes or may do
            (:data:`~tabletop_rules.palace.state.Pending`).
        pile: The discard pile, bottom first.
        burned: The cards that left the game, in the order they left.
        face_up: Every seat's face-up row (``None`` for an empty slot).
        face_down: Every seat's face-down row as occupied slots: ``True`` where a card
            lies face down (which card, nobody knows).
        hand_sizes: How many cards each seat holds in hand.
        known: Each seat's publicly known hand cards, sorted (taken with the pile,
            swapped in or taken up from the face-up row, an unplayable blind card).
        hand: The viewer's own hand, sorted; ``()`` for a spectator.
        stock_size: How many cards are left to draw.
        turns: Passings of the turn so far.
        finished: Seats that have finished, in finishing order.
        scores: Every seat's score now.
        winners: The winning seats, once the game is over.
        legal_moves: The moves open to ``seat`` now (empty when it is not to move).

    """

    seat: Seat | None
    config: Config
    phase: Phase
    current_player: Seat | None
    on_turn: Seat
    swaps: int
    pending: Pending
    pile: tuple[Card, ...]
    burned: tuple[Card, ...]
    face_up: tuple[Row, ...]
    face_down: tuple[tuple[bool, ...], ...]
    hand_sizes: tuple[int, ...]
    known: tuple[Hand, ...]
    hand: Hand
    stock_size: int
    turns: int
    finished: tuple[Seat, ...]
    scores: tuple[int, ...]
    winners: frozenset[Seat]
    legal_moves: tuple[Move, ...]
