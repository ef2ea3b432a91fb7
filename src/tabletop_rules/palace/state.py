"""The state of a palace game: every card's place, whose turn it is, and what is due.

Build one with :func:`~tabletop_rules.palace.new_game` and advance it with
:func:`~tabletop_rules.palace.apply`; :func:`~tabletop_rules.palace.check_state` checks
every invariant of a state that comes from elsewhere (a loader, a test).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Literal, NoReturn, TypeAlias, cast, get_args

import attrs

from ..messages import short_repr
from ..protocol import Seat
from ..rng import SEED_BITS, is_valid_state
from ..validation import Fail, check_own, run_checks
from .cards import CARD_IDS, DECK, Card
from .config import ROW, Config

__all__ = [
    "MAX_SWAPS",
    "PENDINGS",
    "PHASES",
    "Hand",
    "Pending",
    "Phase",
    "Row",
    "State",
    "check_state",
    "holds_cards",
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
            ``new_game(..., deal=cards)`` was given one; ``None`` when the seed shuffled
            the decks. It predicts the whole game, so no view ever shows it.

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
    - *the deal*: ``None``, or a tuple of exactly the configured decks.
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
