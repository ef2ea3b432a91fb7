"""The rules of the account game (:doc:`/rules/account`): setting up, the legal moves,
the transition and the end.
"""

from __future__ import annotations

from collections import Counter
from itertools import compress
from typing import Literal, NoReturn, TypeAlias

from .._validation import check_type, refuse_state
from .._words import counted
from ..errors import ConfigError, IllegalMoveError, TabletopError
from ..kit import CHANCE, Rng, replacer, short_repr, top_seats
from ..protocol import Seat
from . import events as ev
from .cards import CARD_ORDER, CARDS, CHARGE, END, Card, Deal, own_card
from .config import MAX_COLUMNS, MAX_MARKERS, Config
from .moves import ADVANCES, BUYS, DICE, PLACES, ROLL, SIDES, Advance, Buy, Die, Move, Place, Roll
from .notation import format_move
from .state import State, View, lay

__all__ = ["line"]  # the kernel's other rules reach users as members of the package's RULES

_ROLL_ONLY: tuple[Move, ...] = (ROLL,)

_UNMOVED_ADVANCES: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(
        tuple(move for marker in range(owned) for move in ADVANCES[marker][roll])
        for roll in range(SIDES + 1)
    )
    for owned in range(MAX_MARKERS + 1)
)
"""``[owned][roll]``: the moves after ``roll`` of ``owned`` markers, none moved yet."""

_ADDED_POINTS: dict[Card, int] = {card: card.points for card in CARDS if card.valued}
"""What each number, P and T adds to the account, in one look-up."""

_replace = replacer(State)

_Events: TypeAlias = list[ev.Event] | None  # where a transition appends its events, if anywhere


# --- setting up and asking --------------------------------------------------------------


def new_game(config: Config, seed: int, deal: Deal) -> State:
    """A new game in setup, the field laid from the seed's shuffle of the deck, or from
    ``deal`` (cards or card texts, top card first, exactly the deck).
    """
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
    want, got = Counter(config.deck_cards()), Counter(cards)
    if got != want:
        extra = ", ".join(f"{card} x{n}" for card, n in (got - want).items())
        missing = ", ".join(f"{card} x{n}" for card, n in (want - got).items())
        raise ConfigError(
            f"deal does not match the configured deck of {config.deck_size} cards: "
            f"extra {extra or 'none'}; missing {missing or 'none'}"
        )
    return cards


def _refuse(state: object) -> NoReturn:  # the entries the game guards itself (see RULES)
    refuse_state(state, game="an account", state_type=State, view_type=View)


def is_over(state: State) -> bool:
    """Whether End scored or ``max_rounds`` were played."""
    if type(state) is not State:
        _refuse(state)
    return state.phase == "over"


def current_player(state: State) -> Seat | None:
    """The seat to move, ``CHANCE`` while a roll awaits its die, ``None`` once over."""
    if type(state) is not State:
        _refuse(state)
    if state.phase == "over":
        return None
    return CHANCE if state.awaiting_die else state.seat


def score(state: State) -> tuple[int, ...]:
    """Each seat's account."""
    if type(state) is not State:
        _refuse(state)
    return state.accounts


def max_moves(config: Config) -> int:
    """Each marker is got once, and moved once a turn with ``Roll``, (``Die``,) ``Advance``."""
    check_type(config, (Config,), ConfigError)
    per_marker = 2 if config.auto_chance else 3
    return config.players * config.max_markers * (1 + config.max_rounds * per_marker)


def legal_moves(state: State) -> tuple[Move, ...]:
    """The legal moves, in the order the rules page decides (:doc:`/rules/account`)."""
    if type(state) is not State:
        _refuse(state)
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


def line(state: State) -> tuple[int, ...]:
    """The columns of the bottom line that still hold a card, left to right: the ring the
    markers move on.
    """
    if type(state) is not State:
        _refuse(state)
    return _line(state)


def _line(state: State) -> tuple[int, ...]:
    field = state.field
    if not state.config.collapse:
        return _EVERY_COLUMN[len(field)]
    return tuple(compress(range(len(field)), field))


_EVERY_COLUMN: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(columns)) for columns in range(MAX_COLUMNS + 1)
)


# --- moving -----------------------------------------------------------------------------


def transition(state: State, move: Move, events: _Events) -> State:
    """The state after ``move``; ``IllegalMoveError`` naming the rule that forbids it."""
    if state.phase == "play" and not state.awaiting_die:  # a turn's moves: most moves
        if type(move) is Advance:
            return _advance(state, move, events)
        if type(move) is Roll:
            return _roll(state, events)
        if type(move) is Buy:
            return _buy(state, move.column, events)
    if state.phase == "over":
        raise IllegalMoveError(f"the game is over; '{format_move(move)}' is not a move")
    if state.awaiting_die:
        if not isinstance(move, Die):
            raise IllegalMoveError(
                f"the die is rolling: the next move is its outcome ('die' and the face "
                f"shown), not '{format_move(move)}'"
            )
        if events is not None:
            events.append(ev.Rolled(state.seat, move.value))
        return _replace(state, roll=move.value, awaiting_die=False)
    if type(move) is Die:
        raise IllegalMoveError(
            f"'{format_move(move)}' is a chance outcome, legal only while the die rolls"
        )
    if not isinstance(move, Place):
        raise IllegalMoveError(
            f"in setup each player places its starting markers ('place' and a column), "
            f"not '{format_move(move)}'"
        )
    if state.phase == "setup":
        return _place(state, move.column, events)
    raise IllegalMoveError(
        f"'{format_move(move)}' is for the starting markers in setup; in play a marker is bought "
        f"('buy {move.column}')"
    )


def _check_column(state: State, column: int) -> None:
    columns = state.config.columns
    if column >= columns:
        raise IllegalMoveError(
            f"there is no column {column}: the field has {columns} (0 to {columns - 1})"
        )
    if not state.field[column]:
        raise IllegalMoveError(
            f"column {column} has no cards left: an empty column cannot be placed on"
        )


def _place(state: State, column: int, events: _Events) -> State:
    _check_column(state, column)
    config, seat = state.config, state.seat
    owned = state.markers[seat]
    card = state.field[column][0]
    if events is not None:
        events.append(ev.Placed(seat, len(owned), column, card))
    state = _replace(state, markers=_with(state.markers, seat, (*owned, column)))
    if config.placement_scores:
        state, ended = _score(state, seat, card, events)
        if ended:
            return _over(state, "end", events)
    if len(owned) + 1 < config.starting_markers:
        return state
    if seat + 1 < config.players:
        return _replace(state, seat=seat + 1)
    if state.ending:  # End scored in setup under finish_round: setup is complete now
        return _over(state, "end", events)
    if events is not None:
        events.append(ev.TurnPassed(0))
    return _replace(state, phase="play", seat=0)


def _buy(state: State, column: int, events: _Events) -> State:
    config, seat = state.config, state.seat
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
        events.append(ev.Bought(seat, len(owned), column, card, config.marker_cost))
        events.append(ev.AccountChanged(seat, None, account, after, "buy"))
    state = _replace(
        state,
        markers=_with(state.markers, seat, (*owned, column)),
        accounts=_with(state.accounts, seat, after),
    )
    state, ended = _score(state, seat, card, events)
    return _over(state, "end", events) if ended else state


def _roll(state: State, events: _Events) -> State:
    if state.roll is not None:
        raise IllegalMoveError(
            f"a roll of {state.roll} waits for its move: move a marker ('move') before "
            f"rolling again"
        )
    if not state.config.auto_chance:
        return _replace(state, awaiting_die=True)
    face, rng = state.rng.below(SIDES)
    if events is not None:
        events.append(ev.Rolled(state.seat, face + 1))
    return _replace(state, rng=rng, roll=face + 1)


def _advance(state: State, move: Advance, events: _Events) -> State:
    roll = state.roll
    if roll is None:
        raise IllegalMoveError(
            f"roll first: '{format_move(move)}' moves a marker by up to the number rolled "
            "with 'roll'"
        )
    seat = state.seat
    owned = state.markers[seat]
    marker = move.marker
    if marker >= len(owned):
        names = "m0" if len(owned) == 1 else f"m0 to m{len(owned) - 1}"
        raise IllegalMoveError(
            f"seat {seat} owns {counted(len(owned), 'marker')} ({names}): "
            f"there is no marker m{marker}"
        )
    if marker in state.moved:
        raise IllegalMoveError(f"marker m{marker} has moved this turn already: each moves once")
    steps = move.steps
    if steps > roll:
        raise IllegalMoveError(f"distance {steps} exceeds the roll of {roll}")
    config, field = state.config, state.field
    start = owned[marker]
    sign = -1 if move.direction == "left" else 1
    if config.collapse:  # the ring is the line as it was before the move
        ring = _line(state)
        at = ring.index(start)
        landed = ring[(at + sign * steps) % len(ring)]
    else:  # every column: a column is its own place on the ring
        ring, at = _EVERY_COLUMN[len(field)], start
        landed = (start + sign * steps) % len(field)
    card = field[landed][0]
    if events is not None:
        passed = tuple(ring[(at + sign * step) % len(ring)] for step in range(1, steps))
        events.append(ev.Moved(seat, marker, move.direction, steps, start, passed, landed, card))
    positions = (landed,) if len(owned) == 1 else _with(owned, marker, landed)
    markers = _with(state.markers, seat, positions)
    discard = state.discard
    if config.collapse and landed != start and not any(start in mine for mine in markers):
        left = field[start][0]
        field = _with(field, start, field[start][1:])
        discard = (*discard, left)
        if events is not None:
            events.append(ev.Collapsed(start, left))
    moved = (*state.moved, marker)
    if card is CHARGE or card is END:
        state = _replace(state, field=field, discard=discard, markers=markers, moved=moved)
        state, ended = _score(state, seat, card, events)
        if ended:
            return _over(state, "end", events)
        discard, accounts = state.discard, state.accounts
    else:  # the common case, scored inline as _score would: a third of all moves
        before = state.accounts[seat]
        points = _ADDED_POINTS.get(card)
        after = 0 if points is None else before + points
        if after < 0 and config.floor_at_zero:
            after = 0
        if events is not None:
            events.append(ev.AccountChanged(seat, card, before, after))
        accounts = _with(state.accounts, seat, after)
    turns, ends = state.turns, False
    if len(moved) == len(owned):  # the turn ends
        turns, moved = turns + 1, ()
        last = config.max_rounds * config.players
        ends = not turns % config.players and (state.ending or turns == last)
        if not ends:
            seat = turns % config.players
            if events is not None:
                events.append(ev.TurnPassed(seat))
    state = _replace(
        state,
        field=field,
        discard=discard,
        markers=markers,
        accounts=accounts,
        roll=None,
        moved=moved,
        turns=turns,
        seat=seat,
    )
    if ends:  # End scored, or the last round: the game ends with this turn
        return _over(state, "end" if state.ending else "max_rounds", events)
    return state


def _over(state: State, reason: Literal["end", "max_rounds"], events: _Events) -> State:
    if events is not None:
        events.append(ev.GameOver(reason, top_seats(state.accounts)))
    return _replace(state, phase="over", roll=None, awaiting_die=False)


def _score(state: State, seat: Seat, card: Card, events: _Events) -> tuple[State, bool]:
    """``card`` scores for ``seat``; and whether End stops the game now."""
    if card is END:
        if state.ending:
            return state, False
        immediate = state.config.end == "immediate"
        if events is not None:
            events.append(ev.EndHit(seat, immediate))
        return (state, True) if immediate else (_replace(state, ending=True), False)
    before = state.accounts[seat]
    if card is CHARGE:
        charge, state = _draw_for_b(state, seat, events)
        after = before - charge
    else:
        points = _ADDED_POINTS.get(card)
        after = 0 if points is None else before + points  # Z, or what the card adds
    if after < 0 and state.config.floor_at_zero:
        after = 0
    if events is not None:
        events.append(ev.AccountChanged(seat, card, before, after))
    return _replace(state, accounts=_with(state.accounts, seat, after)), False


def _draw_for_b(state: State, seat: Seat, events: _Events) -> tuple[int, State]:
    """B draws onto the discard pile until it draws a number, P or T (an empty pack is the
    discard pile shuffled): the charge and the state after the draws, found in one pass.
    """
    pack, discard, rng = state.pack, state.discard, state.rng
    top = _first_charged(pack)
    if top < 0:
        if _first_charged(discard) < 0:
            return 0, state
        pack, rng = rng.shuffled((*discard, *pack))  # the pack drawn onto the pile, which runs out
        discard = ()
        if events is not None:
            events.append(ev.Reshuffled(len(pack)))
        top = _first_charged(pack)
    card = pack[top]
    drawn = pack[: top + 1]  # put on the discard pile by this B, since any reshuffle
    if events is not None:
        events.append(ev.Drew(seat, card, tuple(sorted(drawn, key=CARD_ORDER))))
    return card.cost, _replace(state, pack=pack[top + 1 :], discard=(*discard, *drawn), rng=rng)


def _first_charged(pack: tuple[Card, ...]) -> int:
    return next((position for position, card in enumerate(pack) if card.valued), -1)


def _with(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    changed = list(values)  # faster than slicing round the index, for the short tuples here
    changed[index] = value
    return tuple(changed)
