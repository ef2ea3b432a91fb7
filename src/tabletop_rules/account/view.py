"""What one seat (or a spectator) may know of an account game, and states consistent
with it.

The rules page's "Hidden information": the field and every account are public; hidden
from everyone are the order of the pack and of the discard pile, and the seed of the die.
So a :class:`~tabletop_rules.account.View` holds the whole table (field, markers,
accounts, the turn) and how many cards the pack holds, never their order. The discard
pile's *contents* are public **[decided]**: every card on it was shown face up when it
got there (a card B draws is turned over for all to see; a collapsed card lay face up in
the field), so a view holds them sorted (in :data:`~tabletop_rules.account.cards.KINDS`
order), which shows what is on the pile but not its order. The pack's contents then
follow (the deck less the field and the discard pile); its order does not. Never the
seed, the generator or the deal.

>>> from tabletop_rules.account import new_game
>>> seen = view(new_game(seed=7), seat=1)
>>> seen.phase, seen.on_turn, seen.current_player, seen.pack_size, seen.discard
('setup', 0, 0, 35, ())
>>> seen.legal_moves
()
"""

from __future__ import annotations

from collections import Counter
from itertools import islice
from typing import NoReturn, cast

from ..errors import InvalidStateError
from ..messages import short_repr
from ..protocol import Seat
from ..rng import Rng
from ..seats import check_seat
from ..slots import maker
from ..validation import check_dealt_view, check_own
from .cards import CARD_IDS, CARD_ORDER, Card
from .config import Config
from .rules import current_player, legal_moves, score, winners
from .state import Column, State, View, check_state

__all__ = ["View", "check_view", "determinize", "view"]

_make_view = maker(View)
"""A :class:`View` with every field by keyword, through the shared builder of
:mod:`~tabletop_rules.slots` (sound: ``View``'s constructor only stores its fields)."""


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator. ``ValueError`` for a
    seat not at the table.
    """
    to_move = current_player(state)  # first: it refuses what is not a state
    if seat is not None:
        check_seat(seat, state.config.players)
    return _make_view(
        seat=seat,
        config=state.config,
        phase=state.phase,
        current_player=to_move,
        on_turn=state.seat,
        field=state.field,
        markers=state.markers,
        accounts=state.accounts,
        turns=state.turns,
        rounds=state.turns // state.config.players,
        roll=state.roll,
        awaiting_die=state.awaiting_die,
        moved=state.moved,
        ending=state.ending,
        pack_size=len(state.pack),
        discard=tuple(sorted(state.discard, key=CARD_ORDER)),
        scores=score(state),
        winners=winners(state),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )


# --- checking a view and dealing a state from it ---------------------------------------


def _fail(why: str) -> NoReturn:
    raise InvalidStateError(f"invalid account view: {why}")


def _cards(name: str, value: object) -> tuple[Card, ...]:
    return cast(tuple[Card, ...], check_own(name, value, CARD_IDS, "the package's cards", _fail))


def _hidden(seen: View) -> Counter[Card]:
    """The cards of the pack (the deck less the field and the discard pile), checking the
    view's shape and that its counts add up to the deck on the way.
    """
    if type(seen) is not View:
        _fail(f"expected an account View, got {short_repr(seen)}")
    config = seen.config
    if type(config) is not Config:
        _fail(f"expected an account Config, got {short_repr(config)}")
    try:
        check_seat(seen.seat, config.players)
    except ValueError as error:
        _fail(str(error))
    if type(seen.field) is not tuple or len(seen.field) != config.columns:
        _fail(f"field must hold {config.columns} columns, got {short_repr(seen.field)}")
    visible: Counter[Card] = Counter()
    for column, cards in enumerate(seen.field):
        visible.update(_cards(f"column {column}", cards))
    discard = _cards("the discard pile", seen.discard)
    if list(discard) != sorted(discard, key=CARD_ORDER):
        _fail("the discard pile must be sorted by kind (its order is hidden)")
    visible.update(discard)
    pack = seen.pack_size
    if type(pack) is not int or pack < 0:
        _fail(f"the pack size must be a whole number, got {short_repr(pack)}")
    deck = Counter(config.deck_counts())
    too_many = visible - deck
    if too_many:
        _fail(
            "cards shown more often than the deck holds them: "
            f"{short_repr([str(c) for c in sorted(too_many.elements(), key=CARD_ORDER)])}"
        )
    if visible.total() + pack != config.deck_size:
        _fail(
            f"the counts do not add up: {visible.total()} cards in the field and discard pile "
            f"and {pack} in the pack, but the deck holds {config.deck_size}"
        )
    return deck - visible


def _deal(seen: View, hidden: Counter[Card], rng: Rng) -> State:
    """A state with ``seen``'s table: the seed drawn from ``rng`` first (the generator is
    that seed's), then the pack's cards and the discard pile each shuffled by ``rng``.
    """
    seed, rng = rng.next_u64()
    pack, rng = rng.shuffled(sorted(hidden.elements(), key=CARD_ORDER))
    discard, _rng = rng.shuffled(seen.discard)
    return State(
        config=seen.config,
        seed=seed,
        rng=Rng.from_seed(seed),
        field=seen.field,
        pack=pack,
        discard=discard,
        markers=seen.markers,
        accounts=seen.accounts,
        phase=seen.phase,
        seat=seen.on_turn,
        turns=seen.turns,
        roll=seen.roll,
        awaiting_die=seen.awaiting_die,
        moved=seen.moved,
        ending=seen.ending,
        deal=_laying(seen.config, seen.field, (*pack, *discard)),
    )


def _laying(config: Config, field: tuple[Column, ...], rest: tuple[Card, ...]) -> tuple[Card, ...]:
    """A deck order that lays ``field``: its columns as they are, under ``collapse`` each
    first filled up from below with cards of ``rest`` (as if collapsed), then what is
    left of ``rest`` as the pack. The state's seed did not shuffle its field, so a
    re-dealt state says how its field was laid, as a given deal does.
    """
    spare = iter(rest)
    laid = [(*islice(spare, config.rows - len(cards)), *cards) for cards in field]
    lines = [column[row] for row in range(config.rows) for column in laid if row < len(column)]
    return (*lines, *spare)  # a view check_state refuses may not fill the field: no matter


def _check_dealt(seen: View, state: State) -> None:
    check_dealt_view("account", seen, state, view, check_state)


def check_view(seen: View) -> None:
    """Raise :class:`~tabletop_rules.errors.InvalidStateError` unless ``seen`` is
    consistent in itself: loaders of views use it.

    The checks: the shape of every field; the discard pile sorted by kind; no card shown
    more often than the deck holds it; the field, the discard pile and the pack size add
    up to the deck; then every invariant of
    :func:`~tabletop_rules.account.check_state` of a state dealt from it (markers,
    accounts, the turn, rounds), whose view must be ``seen`` again (so current player,
    rounds, scores, winners and legal moves follow from the rest, and legal moves show
    only for the seat to move).
    """
    _check_dealt(seen, _deal(seen, _hidden(seen), Rng.from_seed(0)))


def determinize(seen: View, rng: Rng) -> State:
    """A full state consistent with ``seen``: the seed drawn from ``rng`` first and the
    generator of that seed (for the die and the reshuffles), then the pack's cards (the
    deck less the field and the discard pile) shuffled by ``rng``, then the discard pile
    put in an order shuffled by ``rng``; ``deal`` is a deck order that lays the field
    (the seed did not shuffle it), the pack and the discard pile after it. ``view`` of the result,
    for the same seat, is ``seen`` again.

    >>> from tabletop_rules.account import new_game
    >>> state = new_game(seed=7)
    >>> seen = view(state, 1)
    >>> sampled = determinize(seen, Rng.from_seed(99))
    >>> view(sampled, 1) == seen, sampled.field == state.field, sampled.pack == state.pack
    (True, True, False)

    Raises :class:`~tabletop_rules.errors.InvalidStateError` for a view that
    :func:`check_view` refuses.
    """
    state = _deal(seen, _hidden(seen), rng)
    _check_dealt(seen, state)
    return state
