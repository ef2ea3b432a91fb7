"""The account game's invariants: what ``check_state`` holds a state to (every state play
reaches keeps them) and what ``check_view`` holds a view to before a state is dealt from it.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from .._validation import check_own, per_seat, whole_in
from ..kit import Fail, Rng, check_type, short_repr, unseen_cards
from .cards import CARD_ORDER, CARDS, Card
from .config import Config
from .moves import SIDES
from .state import PHASES, State, View, account_bound, largest_change, lay, scores_so_far

__all__: list[str] = []  # reach users as the package's check_state and check_view


_OWN_CARDS = frozenset(map(id, CARDS))


def cards_of(name: str, value: object, fail: Fail) -> tuple[Card, ...]:
    """``value``, a tuple of the package's own cards; else ``fail`` says what it holds."""
    own = check_own(name, value, lambda card: id(card) in _OWN_CARDS, "the package's cards", fail)
    return cast(tuple[Card, ...], own)


def check_invariants(state: State, fail: Fail) -> None:
    """Call ``fail`` unless ``state`` is one play reaches (:doc:`/rules/account`);
    ``TypeError`` for what is no state or a ``fail`` that cannot be called.
    """
    check_type(state, (State,))
    if not callable(fail):
        raise TypeError(f"fail must be callable, got {short_repr(fail)}")
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
    whole_in("seat", state.seat, 0, players - 1, fail)
    whole_in("turns", state.turns, 0, config.max_rounds * players, fail)
    for name in ("markers", "accounts"):
        per_seat(name, getattr(state, name), players, fail)
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
            whole_in(f"seat {who}'s marker m{marker}", column, 0, config.columns - 1, fail)
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
        whole_in("roll", state.roll, 1, SIDES, fail)
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
        whole_in("a moved marker", marker, 0, len(owned) - 1, fail)
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


def check_view(seen: View, fail: Fail) -> None:
    """What the shell needs of a view before it deals a state from it: its shape, and its
    cards and pack size adding up to the deck. ``TypeError`` for what is no view or a
    ``fail`` that cannot be called.
    """
    check_type(seen, (View,))
    if not callable(fail):
        raise TypeError(f"fail must be callable, got {short_repr(fail)}")
    config = seen.config
    if type(config) is not Config:
        fail(f"expected an account Config, got {short_repr(config)}")
    if type(seen.field) is not tuple or len(seen.field) != config.columns:
        fail(f"field must hold {config.columns} columns, got {short_repr(seen.field)}")
    shown: list[Card] = []
    for column, cards in enumerate(seen.field):
        shown += cards_of(f"column {column}", cards, fail)
    shown += cards_of("the discard pile", seen.discard, fail)
    if list(seen.discard) != sorted(seen.discard, key=CARD_ORDER):
        fail("the discard pile must be sorted by kind (its order is hidden)")
    pack = seen.pack_size
    if type(pack) is not int or pack < 0:
        fail(f"the pack size must be a whole number, got {short_repr(pack)}")
    unseen_cards(config.deck_cards(), shown, pack, fail, key=CARD_ORDER)
