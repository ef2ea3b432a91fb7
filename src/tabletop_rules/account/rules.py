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
from typing import NoReturn

from ..errors import ConfigError, IllegalMoveError, TabletopError
from ..messages import short_repr
from ..protocol import CHANCE, Seat
from ..rng import Rng, resolve_seed
from ..seats import top_seats
from ..slots import slot_setters
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

_MOVE_IDS = MOVE_TABLE.ids

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
        _refuse_state(state, None)
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
        _refuse_state(state, None)
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
        _refuse_state(state, None)
    return _PROBABILITIES if state.awaiting_die and state.phase != "over" else _NO_PROBABILITIES


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move, in a fixed order: in setup ``Place`` by column; at a chance point
    ``Die(1)``..``Die(6)``; with a roll pending ``Advance`` by unmoved marker, then left
    before right, then distance 1 up to the roll; otherwise ``Roll()`` and, before the
    turn's first roll, ``Buy`` by column when the player may buy.
    """
    if type(state) is not State:  # a view has these fields too: refused, saying why
        _refuse_state(state, None)
    try:
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
    except TabletopError:
        raise
    except Exception as error:
        _refuse_state(state, error)


# --- moving ---------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    """The state after ``move``. Raises :class:`~tabletop_rules.errors.IllegalMoveError`
    naming the rule that forbids it; ``state`` itself never changes.

    ``apply`` is total over moves: whatever object ``move`` is, it returns a valid state
    or raises ``IllegalMoveError``; the move is rebuilt through its constructor first
    (:func:`~tabletop_rules.account.moves.known_move`).
    """
    return _apply(state, move, None)


def apply_with_events(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """:func:`apply`, and the events of the transition in the order they happen."""
    events: list[Event] = []
    return _apply(state, move, events), tuple(events)


def _refuse_state(state: object, error: Exception | None) -> NoReturn:
    """Raise why a rule function failed on ``state``
    (:func:`~tabletop_rules.validation.refuse_state`). The rule functions check the type
    only where it costs nothing per move: where they already fail on anything else, on
    their rare branches, and up front in the small functions.
    """
    refuse_state(
        state,
        error,
        game="an account",
        state_type=State,
        view_type=View,
        check_state=check_state,
    )


def _apply(state: State, move: Move, events: list[Event] | None) -> State:
    if id(move) not in _MOVE_IDS:
        move = known_move(move)
    try:
        if state.phase == "play" and not state.awaiting_die:  # a turn's moves: most moves
            if type(move) is Advance:
                return _advance(state, move, events)
            if type(move) is Roll:
                return _roll(state, events)
            if type(move) is Buy:
                return _buy(state, move.column, events)
        return _apply_outside_turn(state, move, events)
    except TabletopError:
        raise
    except Exception as error:
        _refuse_state(state, error)


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

# A move builds one State. attrs.evolve per changed field cost the random-playout loop
# about half its speed, and State(...) with its sixteen fields by keyword about a seventh
# (benchmarks/README.md): matching sixteen keywords costs more than setting the fields.
# So _Work.freeze (and _rolled, for Roll()) makes the new State with object.__new__ and
# sets each field, by name, through the setter of its slot (State is frozen: its own
# __setattr__ refuses). The State holds exactly what its constructor would have made (no
# field has a default factory, a converter or a validator); tests/account/
# test_state_layout.py fails when a field of State has no setter here, or a builder
# leaves one out.

_new_object = object.__new__
_SLOT_SETTERS = slot_setters(State)
"""The setter of each field's slot, by name."""

_set_config = _SLOT_SETTERS["config"]
_set_seed = _SLOT_SETTERS["seed"]
_set_rng = _SLOT_SETTERS["rng"]
_set_field = _SLOT_SETTERS["field"]
_set_pack = _SLOT_SETTERS["pack"]
_set_discard = _SLOT_SETTERS["discard"]
_set_markers = _SLOT_SETTERS["markers"]
_set_accounts = _SLOT_SETTERS["accounts"]
_set_phase = _SLOT_SETTERS["phase"]
_set_seat = _SLOT_SETTERS["seat"]
_set_turns = _SLOT_SETTERS["turns"]
_set_roll = _SLOT_SETTERS["roll"]
_set_awaiting_die = _SLOT_SETTERS["awaiting_die"]
_set_moved = _SLOT_SETTERS["moved"]
_set_ending = _SLOT_SETTERS["ending"]
_set_deal = _SLOT_SETTERS["deal"]


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
        """The next state: a new :class:`State` with every field set, by name, through
        its slot (see :data:`_SLOT_SETTERS`).
        """
        state = self.state
        new = _new_object(State)
        _set_config(new, self.config)
        _set_seed(new, state.seed)
        _set_rng(new, self.rng)
        _set_field(new, self.field)
        _set_pack(new, self.pack)
        _set_discard(new, self.discard)
        _set_markers(new, self.markers)
        _set_accounts(new, self.accounts)
        _set_phase(new, self.phase)
        _set_seat(new, self.seat)
        _set_turns(new, self.turns)
        _set_roll(new, self.roll)
        _set_awaiting_die(new, self.awaiting_die)
        _set_moved(new, self.moved)
        _set_ending(new, self.ending)
        _set_deal(new, state.deal)
        return new


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
        return _rolled(state, rng, face + 1)
    work = _Work(state, events)
    work.awaiting_die = True
    return work.freeze()


def _rolled(state: State, rng: Rng, roll: int) -> State:
    """``state`` once its die, drawn from the generator before ``rng``, came up ``roll``
    (``auto_chance``): the most frequent transition, and one that changes two fields, so
    built without a :class:`_Work`.
    """
    new = _new_object(State)
    _set_config(new, state.config)
    _set_seed(new, state.seed)
    _set_rng(new, rng)
    _set_field(new, state.field)
    _set_pack(new, state.pack)
    _set_discard(new, state.discard)
    _set_markers(new, state.markers)
    _set_accounts(new, state.accounts)
    _set_phase(new, state.phase)
    _set_seat(new, state.seat)
    _set_turns(new, state.turns)
    _set_roll(new, roll)
    _set_awaiting_die(new, False)
    _set_moved(new, state.moved)
    _set_ending(new, state.ending)
    _set_deal(new, state.deal)
    return new


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
    work = _Work(state, events)
    config = work.config
    field = work.field
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
    markers = work.markers = _with(work.markers, seat, positions)
    if config.collapse and landed != start and not any(start in positions for positions in markers):
        left = field[start][0]
        work.field = _with(field, start, field[start][1:])
        work.discard = (*work.discard, left)
        if events is not None:
            events.append(Collapsed(start, left))
    work.roll = None
    moved = work.moved = (*work.moved, marker)
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
    before = work.accounts[seat]
    points = _ADDED_POINTS.get(id(card))
    if points is not None:
        after = before + points
    elif card.kind == "Z":
        after = 0
    else:  # B
        after = before - _draw_for_b(work, seat)
    if work.config.floor_at_zero and after < 0:
        after = 0
    if events is not None:
        events.append(AccountChanged(seat, card, before, after))
    work.accounts = _with(work.accounts, seat, after)
    return False


_ADDED_POINTS: dict[int, int] = {id(card): card.points for card in CARDS if card.valued}
"""What each card that adds to the account adds (the numbers, P and T), by the identity
of the package's own instance: the common case of :func:`_score` in one lookup.
"""


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
    known = known_move(move)
    if known in legal_moves(state):
        return known
    apply(state, known)  # raises IllegalMoveError naming the rule
    raise AssertionError(f"apply accepted {known!r}, which legal_moves does not list")
