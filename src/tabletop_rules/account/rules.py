"""The rules of the account game: new games, legal moves, transitions, the end.

>>> from tabletop_rules.account.cards import CARDS
>>> state = new_game(seed=3)
>>> state = apply(state, Place(2))
>>> state = apply(state, Place(4))
>>> state.phase, current_player(state), legal_moves(state)[0]
('play', 0, Roll())
>>> state = apply(state, Roll())
>>> state.roll is not None
True
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import NoReturn, cast

from ..errors import ConfigError, IllegalMoveError, TabletopError
from ..messages import short_repr
from ..protocol import CHANCE, Seat
from ..rng import Rng, resolve_seed
from ..seats import top_seats
from ..slots import replacer
from ..validation import check_type, refuse_state
from .cards import CARD_ORDER, CARDS, END, B, Card, Deal, Z, own_card
from .config import MAX_MARKERS, Config
from .events import (
    AccountChanged,
    Bought,
    Collapsed,
    Drew,
    EndHit,
    Event,
    GameOver,
    Moved,
    Placed,
    Reshuffled,
    Rolled,
    TurnPassed,
)
from .moves import (
    ADVANCES,
    BUYS,
    DICE,
    MOVE_TABLE,
    PLACES,
    ROLL,
    SIDES,
    Advance,
    Buy,
    Die,
    Move,
    Place,
    Roll,
    format_move,
    known_move,
)
from .state import _EVERY_COLUMN, Phase, State, View, _line, check_state, lay

__all__ = [
    "apply",
    "apply_with_events",
    "canonical",
    "chance_probabilities",
    "current_player",
    "is_over",
    "legal_moves",
    "max_moves",
    "new_game",
    "score",
    "winners",
]

_PROBABILITIES: Mapping[Move, Fraction] = types.MappingProxyType(
    {die: Fraction(1, SIDES) for die in DICE}
)
_NO_PROBABILITIES: Mapping[Move, Fraction] = types.MappingProxyType({})

_LISTED: dict[Move, Move] = {move: move for move in MOVE_TABLE.moves}
"""Each move of the move table, keyed by itself: a move equal to one finds the listed
instance."""

_MOVE_CLASSES = frozenset(MOVE_TABLE.move_types)

_ROLL_ONLY: tuple[Move, ...] = (ROLL,)

_UNMOVED_ADVANCES: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(
        tuple(move for marker in range(owned) for move in ADVANCES[marker][roll])
        for roll in range(SIDES + 1)
    )
    for owned in range(MAX_MARKERS + 1)
)
"""``_UNMOVED_ADVANCES[owned][roll]``: the moves after ``roll`` of a seat owning ``owned``
markers, none moved yet this turn (as :func:`legal_moves` lists them)."""


# --- setting up -----------------------------------------------------------------------


def new_game(config: Config | None = None, *, seed: int | None = None, deal: Deal = None) -> State:
    """A new game in setup: the field laid, seat 0 to place its first marker.

    ``seed=None`` draws a fresh seed and keeps it in the state, so the game can be
    replayed. Without ``deal`` the seed shuffles the deck; with ``deal`` (cards or card
    texts, top card first, exactly the configured composition, else ``ConfigError``) the
    bottom line is laid first, left to right, then each row above it, and the rest is the
    pack, its first card drawn first. The seed then drives only the die and reshuffles.
    """
    config = Config() if config is None else config
    if type(config) is not Config:
        raise ConfigError(f"the account game needs an account.Config, got {short_repr(config)}")
    seed = resolve_seed(seed)
    rng = Rng.from_seed(seed)
    given: tuple[Card, ...] | None = None
    if deal is None:
        cards, rng = rng.shuffled(config.deck_cards())
    else:
        given = cards = _checked_deal(config, deal)
    field, pack = lay(config, cards)
    return State(
        config=config,
        seed=seed,
        rng=rng,
        field=field,
        pack=pack,
        markers=((),) * config.players,
        accounts=(0,) * config.players,
        deal=given,
    )


def _checked_deal(config: Config, deal: object) -> tuple[Card, ...]:
    if type(deal) not in (tuple, list):
        raise ConfigError(f"deal must be a tuple or list of cards, got {short_repr(deal)}")
    assert isinstance(deal, tuple | list)
    try:
        cards = tuple(own_card(card) for card in deal)
    except TabletopError as error:
        raise ConfigError(f"deal: {error}") from None
    want = Counter(config.deck_cards())
    got = Counter(cards)
    if got != want:
        extra = ", ".join(f"{card} x{n}" for card, n in (got - want).items())
        missing = ", ".join(f"{card} x{n}" for card, n in (want - got).items())
        raise ConfigError(
            f"deal does not match the configured deck of {config.deck_size} cards: "
            f"extra {extra or 'none'}; missing {missing or 'none'}"
        )
    return cards


# --- asking ---------------------------------------------------------------------------


def is_over(state: State) -> bool:
    """Whether the game is over (End scored, or ``max_rounds`` were played)."""
    if type(state) is not State:
        _refuse_state(state)
    return state.phase == "over"


def current_player(state: State) -> Seat | None:
    """The seat to move, ``CHANCE`` while a roll awaits its die, ``None`` once over."""
    if is_over(state):
        return None
    if state.awaiting_die:
        return CHANCE
    return state.seat


def score(state: State) -> tuple[int, ...]:
    """Each seat's account."""
    if type(state) is not State:
        _refuse_state(state)
    return state.accounts


def winners(state: State) -> frozenset[Seat]:
    """The seats with the highest account once the game is over (ties share the win);
    empty before.
    """
    return top_seats(score(state)) if is_over(state) else frozenset()


def max_moves(config: Config) -> int:
    """An upper bound on a game's moves, including chance outcomes.

    Each marker is got once, by a ``Place`` or a ``Buy``, and no seat owns more than
    ``max_markers``: at most ``players x max_markers`` of those. Each turn moves every
    marker once with ``Roll``, (``Die``,) ``Advance``, and there are at most
    ``max_rounds x players`` turns.
    """
    check_type(config, (Config,), ConfigError)
    per_marker = 2 if config.auto_chance else 3
    return config.players * config.max_markers * (1 + config.max_rounds * per_marker)


def chance_probabilities(state: State) -> Mapping[Move, Fraction]:
    """While a roll awaits its die, ``Die(1)``..``Die(6)`` each with probability 1/6;
    empty elsewhere (drawing from the pack is no chance point: its order is fixed).
    """
    if type(state) is not State:
        _refuse_state(state)
    return _PROBABILITIES if state.awaiting_die and state.phase != "over" else _NO_PROBABILITIES


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move, in a fixed order: in setup ``Place`` by column; at a chance point
    ``Die(1)``..``Die(6)``; with a roll pending ``Advance`` by unmoved marker, then left
    before right, then distance 1 up to the roll; otherwise ``Roll()`` and, before the
    turn's first roll, ``Buy`` by column when the player may buy.
    """
    if type(state) is not State:  # a view has these fields too: refused, saying why
        _refuse_state(state)
    phase = state.phase
    if phase == "over":
        return ()
    if phase == "setup":
        return tuple(PLACES[column] for column in _line(state))
    if state.awaiting_die:
        return DICE
    roll = state.roll
    owned = state.markers[state.seat]
    if roll is not None:
        moved = state.moved
        if not moved:
            return _UNMOVED_ADVANCES[len(owned)][roll]
        return tuple(
            move
            for marker in range(len(owned))
            if marker not in moved
            for move in ADVANCES[marker][roll]
        )
    config = state.config
    if (
        state.moved
        or len(owned) >= config.max_markers
        or state.accounts[state.seat] < config.marker_cost
    ):
        return _ROLL_ONLY
    return (ROLL, *(BUYS[column] for column in _line(state)))


# --- moving ---------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    """The state after ``move``. Raises :class:`~tabletop_rules.errors.IllegalMoveError`
    naming the rule that forbids it; ``state`` itself never changes.

    ``apply`` is total: handed what is no account :class:`State` it raises
    ``TypeError`` (saying what to pass instead of a :class:`View`); whatever object
    ``move`` is, it returns a valid state or raises ``IllegalMoveError``. A move equal to
    one of the move table's is that move, and the state and events hold the table's own
    instance; any other object is rebuilt through its constructor first
    (:func:`~tabletop_rules.account.moves.known_move`) for the rules to say why it is
    refused. A state whose fields were changed with ``object.__setattr__`` (or built
    around :func:`~tabletop_rules.account.check_state` in any other way) is outside this
    contract, as in python-chess: check a state from elsewhere with ``check_state`` first.
    """
    return _apply(state, move, None)


def apply_with_events(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """:func:`apply`, and the events of the transition in the order they happen."""
    events: list[Event] = []
    return _apply(state, move, events), tuple(events)


def _refuse_state(state: object) -> NoReturn:
    """Raise the ``TypeError`` of a rule function handed ``state``, which is no
    :class:`State` (:func:`~tabletop_rules.validation.refuse_state`): every entry point
    checks ``type(state) is State`` first, and a view gets told what to pass instead.
    """
    refuse_state(
        state,
        None,
        game="an account",
        state_type=State,
        view_type=View,
        check_state=check_state,
    )


def _apply(state: State, move: Move, events: list[Event] | None) -> State:
    if type(state) is not State:
        _refuse_state(state)
    in_turn = state.phase == "play" and not state.awaiting_die  # a turn's moves: most moves
    if type(move) is Roll:  # a Roll has no fields: every one equals the listed ROLL
        if in_turn:
            return _roll(state, events)
        move = ROLL
    else:
        move = _listed(move)
        if in_turn:
            if type(move) is Advance:
                return _advance(state, move, events)
            if type(move) is Buy:
                return _buy(state, move.column, events)
    return _apply_outside_turn(state, move, events)


def _listed(move: object) -> Move:
    """The move table's instance equal to ``move`` (one dict look-up, by equality); for
    any other object :func:`~tabletop_rules.account.moves.known_move`'s verdict: a
    well-formed move no state allows, or ``IllegalMoveError`` for what is no account move.
    """
    if type(move) in _MOVE_CLASSES:
        try:
            listed = _LISTED.get(cast(Move, move))
        except Exception:  # a field set around the checks may refuse to hash or compare
            listed = None
        if listed is not None:
            return listed
    return known_move(move)


def _apply_outside_turn(state: State, move: Move, events: list[Event] | None) -> State:
    """``move`` in setup, with the die rolling or once the game is over; or a move that is
    no turn's move (a Die or a Place in play), refused naming the rule.
    """
    phase = state.phase
    if phase == "over":
        raise IllegalMoveError(f"the game is over; '{format_move(move)}' is not a move")
    if state.awaiting_die:
        if type(move) is not Die:
            raise IllegalMoveError(
                f"the die is rolling: the next move is its outcome ('die' and the face "
                f"shown), not '{format_move(move)}'"
            )
        return _die(_Work(state, events), move.value)
    if type(move) is Die:
        raise IllegalMoveError(
            f"'{format_move(move)}' is a chance outcome, legal only while the die rolls"
        )
    if phase == "setup":
        if type(move) is not Place:
            raise IllegalMoveError(
                f"in setup each player places its starting markers ('place' and a "
                f"column), not '{format_move(move)}'"
            )
        return _place(state, move.column, events)
    assert type(move) is Place
    raise IllegalMoveError(
        f"'{format_move(move)}' is for the starting markers in setup; in play a marker "
        f"is bought ('buy {move.column}')"
    )


def _check_column(state: State, column: int) -> None:
    if column >= state.config.columns:
        raise IllegalMoveError(
            f"there is no column {column}: the field has {state.config.columns} (0 to "
            f"{state.config.columns - 1})"
        )
    if not state.field[column]:
        raise IllegalMoveError(
            f"column {column} has no cards left: an empty column cannot be placed on"
        )


# --- building states ----------------------------------------------------------------

_replace = replacer(State)
"""``_replace(state, field=...)``: ``state`` with the named fields changed, through the
shared builder of :mod:`~tabletop_rules.slots` (sound: ``State``'s constructor only stores
its fields, as tests/account/test_state_layout.py checks)."""


class _Work:
    """The fields a transition changes, as a mutable scratch copy of a state: built once
    per move after the move's checks, frozen once into the next state by :meth:`freeze`.
    """

    __slots__ = (
        "accounts",
        "awaiting_die",
        "config",
        "discard",
        "ending",
        "events",
        "field",
        "markers",
        "moved",
        "pack",
        "phase",
        "rng",
        "roll",
        "seat",
        "state",
        "turns",
    )

    def __init__(self, state: State, events: list[Event] | None) -> None:
        self.state = state
        self.config = state.config
        self.events = events
        self.rng = state.rng
        self.field = state.field
        self.pack = state.pack
        self.discard = state.discard
        self.markers = state.markers
        self.accounts = state.accounts
        self.phase: Phase = state.phase
        self.seat = state.seat
        self.turns = state.turns
        self.roll = state.roll
        self.awaiting_die = state.awaiting_die
        self.moved = state.moved
        self.ending = state.ending

    def freeze(self) -> State:
        """The next state: the scratch copy's fields, the seed and the deal kept."""
        return _replace(
            self.state,
            rng=self.rng,
            field=self.field,
            pack=self.pack,
            discard=self.discard,
            markers=self.markers,
            accounts=self.accounts,
            phase=self.phase,
            seat=self.seat,
            turns=self.turns,
            roll=self.roll,
            awaiting_die=self.awaiting_die,
            moved=self.moved,
            ending=self.ending,
        )


def _place(state: State, column: int, events: list[Event] | None) -> State:
    _check_column(state, column)
    work = _Work(state, events)
    config = work.config
    seat = work.seat
    owned = work.markers[seat]
    work.markers = _with(work.markers, seat, (*owned, column))
    card = work.field[column][0]
    if events is not None:
        events.append(Placed(seat, len(owned), column, card))
    if config.placement_scores:
        ended = _score(work, seat, card)
        if ended and config.end == "immediate":
            return _over(work, "end")
    if len(owned) + 1 < config.starting_markers:
        return work.freeze()
    if seat + 1 < config.players:
        work.seat = seat + 1
        return work.freeze()
    if work.ending:  # End scored in setup under finish_round: setup is complete now
        return _over(work, "end")
    if events is not None:
        events.append(TurnPassed(0))
    work.phase = "play"
    work.seat = 0
    return work.freeze()


def _buy(state: State, column: int, events: list[Event] | None) -> State:
    config = state.config
    seat = state.seat
    if state.rolled:
        raise IllegalMoveError("buying is only allowed before the first roll of the turn")
    owned = state.markers[seat]
    if len(owned) >= config.max_markers:
        raise IllegalMoveError(f"seat {seat} owns {len(owned)} markers, the limit")
    account = state.accounts[seat]
    if account < config.marker_cost:
        raise IllegalMoveError(
            f"seat {seat}'s account of {account} does not cover the marker cost of "
            f"{config.marker_cost}"
        )
    _check_column(state, column)
    after = account - config.marker_cost
    card = state.field[column][0]
    if events is not None:
        events.append(Bought(seat, len(owned), column, card, config.marker_cost))
        events.append(AccountChanged(seat, None, account, after, "buy"))
    work = _Work(state, events)
    work.markers = _with(state.markers, seat, (*owned, column))
    work.accounts = _with(state.accounts, seat, after)
    ended = _score(work, seat, card)
    if ended and config.end == "immediate":
        return _over(work, "end")
    return work.freeze()


def _roll(state: State, events: list[Event] | None) -> State:
    if state.roll is not None:
        raise IllegalMoveError(
            f"a roll of {state.roll} waits for its move: move a marker ('move') before "
            f"rolling again"
        )
    if state.config.auto_chance:
        face, rng = state.rng.below(SIDES)
        if events is not None:
            events.append(Rolled(state.seat, face + 1))
        return _replace(state, rng=rng, roll=face + 1, awaiting_die=False)
    work = _Work(state, events)
    work.awaiting_die = True
    return work.freeze()


def _die(work: _Work, value: int) -> State:
    if work.events is not None:
        work.events.append(Rolled(work.seat, value))
    work.roll = value
    work.awaiting_die = False
    return work.freeze()


def _advance(state: State, move: Advance, events: list[Event] | None) -> State:
    roll = state.roll
    if roll is None:
        raise IllegalMoveError(
            f"roll first: '{format_move(move)}' moves a marker by up to the number rolled "
            f"with 'roll'"
        )
    seat = state.seat
    owned = state.markers[seat]
    marker = move.marker
    if marker >= len(owned):
        raise IllegalMoveError(
            f"seat {seat} owns {len(owned)} markers (0 to {len(owned) - 1}): there is no "
            f"marker {marker}"
        )
    if marker in state.moved:
        raise IllegalMoveError(f"marker {marker} has moved this turn already: each moves once")
    steps = move.steps
    if steps > roll:
        raise IllegalMoveError(f"distance {steps} exceeds the roll of {roll}")
    config = state.config
    field = state.field
    start = owned[marker]
    sign = -1 if move.direction == "left" else 1
    if config.collapse:
        ring = _line(state)
        size = len(ring)
        at = ring.index(start)
        landed = ring[(at + sign * steps) % size]  # on the line as it was before the move
    else:  # the line is every column: a column is its own place on the ring
        ring = _EVERY_COLUMN[len(field)]
        size = len(field)
        at = start
        landed = (start + sign * steps) % size
    card = field[landed][0]
    if events is not None:
        passed = tuple(ring[(at + sign * step) % size] for step in range(1, steps))
        events.append(Moved(seat, marker, move.direction, steps, start, passed, landed, card))
    positions = (landed,) if len(owned) == 1 else _with(owned, marker, landed)
    markers = _with(state.markers, seat, positions)
    discard = state.discard
    if config.collapse and landed != start and not any(start in positions for positions in markers):
        left = field[start][0]
        field = _with(field, start, field[start][1:])
        discard = (*discard, left)
        if events is not None:
            events.append(Collapsed(start, left))
    moved = (*state.moved, marker)
    if card is not B and card is not END:  # the common case: the next state in one step
        before = state.accounts[seat]  # as _account_after, inline: a third of all moves
        points = _ADDED_POINTS.get(card)
        after = 0 if points is None else before + points
        if after < 0 and config.floor_at_zero:
            after = 0
        if events is not None:
            events.append(AccountChanged(seat, card, before, after))
        accounts = _with(state.accounts, seat, after)
        if len(moved) < len(owned):
            return _replace(
                state,
                field=field,
                discard=discard,
                markers=markers,
                accounts=accounts,
                roll=None,
                moved=moved,
            )
        turns = state.turns + 1
        if turns % config.players or not (
            state.ending or turns == config.max_rounds * config.players
        ):
            seat = turns % config.players
            if events is not None:
                events.append(TurnPassed(seat))
            return _replace(
                state,
                field=field,
                discard=discard,
                markers=markers,
                accounts=accounts,
                roll=None,
                moved=(),
                turns=turns,
                seat=seat,
            )
    work = _Work(state, events)
    work.field, work.discard, work.markers, work.roll, work.moved = (
        field,
        discard,
        markers,
        None,
        moved,
    )
    if card is not B and card is not END:
        work.accounts = accounts
        return _end_turn(work)  # the game ends with this turn
    ended = _score(work, seat, card)
    if ended and config.end == "immediate":
        return _over(work, "end")
    if len(moved) < len(owned):
        return work.freeze()
    return _end_turn(work)


def _end_turn(work: _Work) -> State:
    config = work.config
    turns = work.turns = work.turns + 1
    work.moved = ()
    if turns % config.players == 0:
        if work.ending:
            return _over(work, "end")
        if turns == config.max_rounds * config.players:
            return _over(work, "max_rounds")
    seat = work.seat = turns % config.players
    if work.events is not None:
        work.events.append(TurnPassed(seat))
    return work.freeze()


def _over(work: _Work, reason: str) -> State:
    work.phase = "over"
    work.roll = None
    work.awaiting_die = False
    if work.events is not None:
        work.events.append(
            GameOver("end" if reason == "end" else "max_rounds", top_seats(work.accounts))
        )
    return work.freeze()


def _score(work: _Work, seat: Seat, card: Card) -> bool:
    """``card`` scores for ``seat``; whether End scored (it stops the game at once, or
    sets ``ending`` under ``finish_round``: a further End in that round changes nothing).
    """
    events = work.events
    if card is END:
        immediate = work.config.end == "immediate"
        if work.ending:
            return False
        if events is not None:
            events.append(EndHit(seat, immediate))
        if immediate:
            return True
        work.ending = True
        return False
    if card is B:
        before = work.accounts[seat]
        after = before - _draw_for_b(work, seat)
        if work.config.floor_at_zero and after < 0:
            after = 0
        if events is not None:
            events.append(AccountChanged(seat, card, before, after))
    else:
        after = _account_after(work.config, work.accounts[seat], card, events, seat)
    work.accounts = _with(work.accounts, seat, after)
    return False


def _account_after(
    config: Config, before: int, card: Card, events: list[Event] | None, seat: Seat
) -> int:
    """The account ``before`` once ``card``, a number, P, T or Z, scored for ``seat``."""
    points = _ADDED_POINTS.get(card)
    after = 0 if points is None else before + points  # Z, or what the card adds
    if config.floor_at_zero and after < 0:
        after = 0
    if events is not None:
        events.append(AccountChanged(seat, card, before, after))
    return after


_ADDED_POINTS: dict[Card, int] = {card: card.points for card in CARDS if card.valued}
"""What each card that adds to the account adds (the numbers, P and T): the common case
of :func:`_score` in one look-up (a card caches its hash)."""


def _draw_for_b(work: _Work, seat: Seat) -> int:
    """B draws the pack's top card onto the discard pile until it draws a number, P or T
    (B, Z and End are drawn again); the pack, once empty, is the discard pile shuffled
    with the state's generator. Nothing happens when pack and discard pile hold no such
    card. Returns the charge.

    The draws are found, not made one by one: the first card B charges in the pack, or,
    when the pack holds none, the whole pack drawn and the discard pile reshuffled (once:
    the new pack then holds a card B charges). Each pile is copied once per landing, so a
    landing costs time linear in the pack, never quadratic; the reshuffle's draws from
    the generator are those of drawing card by card.
    """
    pack, discard, rng, events = work.pack, work.discard, work.rng, work.events
    top = _first_charged(pack)
    if top < 0:
        if _first_charged(discard) < 0:
            return 0
        pack, rng = rng.shuffled((*discard, *pack))  # the pack drawn onto the pile, which runs out
        discard = ()
        if events is not None:
            events.append(Reshuffled(len(pack)))
        top = _first_charged(pack)
    card = pack[top]
    drawn = pack[: top + 1]  # put on the discard pile by this B, since any reshuffle
    if events is not None:
        events.append(Drew(seat, card, tuple(sorted(drawn, key=CARD_ORDER))))
    work.pack, work.discard, work.rng = pack[top + 1 :], (*discard, *drawn), rng
    return card.cost


def _first_charged(pack: tuple[Card, ...]) -> int:
    """The position of the first card in ``pack`` that B charges (one that is not B, Z
    or End), ``-1`` when none is. A state holds the package's own cards, one instance per
    kind, so identity tells the kind.
    """
    for position, card in enumerate(pack):
        if card is not B and card is not Z and card is not END:
            return position
    return -1


def _with(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    changed = list(values)  # faster than slicing round the index, for the short tuples here
    changed[index] = value
    return tuple(changed)


def canonical(state: State, move: Move) -> Move:
    """The move of :func:`legal_moves` equivalent to ``move``. No two account moves are
    equivalent, so it is ``move`` itself, as the instance ``legal_moves`` lists; raises
    :class:`~tabletop_rules.errors.IllegalMoveError`, naming the rule, when ``move`` is
    not legal in ``state`` (or is no account move at all).

    >>> state = new_game(seed=1)
    >>> canonical(state, Place(3)) is legal_moves(state)[3]
    True
    """
    if type(state) is not State:
        _refuse_state(state)
    known = known_move(move)
    if known in legal_moves(state):
        return known
    apply(state, known)  # raises IllegalMoveError naming the rule
    raise AssertionError(f"apply accepted {known!r}, which legal_moves does not list")
