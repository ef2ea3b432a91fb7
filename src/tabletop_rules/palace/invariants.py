"""The invariants of palace's states and the checks of a view's shape, each named in its
message: what :func:`~tabletop_rules.palace.check_state` and ``determinize`` refuse.
"""

from __future__ import annotations

from collections import Counter
from typing import NoReturn, cast

import attrs

from .._messages import short_repr
from .._seats import check_seat
from .._validation import Fail, check_type, per_seat, run_checks, whole_in
from ..errors import InvalidStateError
from ..kit import unseen_cards
from ..protocol import Seat
from ..rng import SEED_BITS, is_valid_state
from .cards import DECK, Card, deck_cards, is_card
from .config import ROW, Config
from .state import MAX_SWAPS, PENDINGS, PHASES, Hand, Row, State, View, deal_places, shuffled_decks

__all__ = ["fitting_deal"]


def deck_difference(cards: Counter[Card], decks: int) -> str:
    """``"missing [...], extra [...]"``: how ``cards`` differ from ``decks`` decks ("" if not)."""
    expected = Counter(dict.fromkeys(DECK, decks))
    if cards == expected:
        return ""
    missing, extra = (sorted(diff.elements()) for diff in (expected - cards, cards - expected))
    return f"missing {_texts(missing)}, extra {_texts(extra)}"


def fitting_deal(state: State) -> tuple[Card, ...]:
    """A deck order ``state`` agrees with: every card still where the deal put it, the cards
    moved since in the other places, sorted. For a position set up by hand,
    ``attrs.evolve(state, deal=fitting_deal(state))``; ``InvalidStateError`` for a state
    that breaks another invariant (its ``deal`` is not read).
    """

    def check(fail: Fail) -> tuple[Card, ...]:
        if type(state) is not State or type(state.config) is not Config:
            fail(f"expected a palace State with a palace Config, got {short_repr(state)}")
        _check_places(attrs.evolve(state, deal=None), fail)
        return unchecked_fitting_deal(state)

    return run_checks("palace state", check)


def unchecked_fitting_deal(state: State) -> tuple[Card, ...]:
    """:func:`fitting_deal` of a state just dealt by ``determinize``, without the checks."""
    config = state.config
    order: list[Card | None] = [None] * config.cards
    for seat in range(config.players):
        down, up, hand = deal_places(config, seat)
        order[down] = state.face_down[seat]
        order[up] = state.face_up[seat]
        if state.phase == "swap":
            order[hand] = state.hands[seat]
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


def check_invariants(state: State, fail: Fail) -> None:
    """Every invariant of a palace state, each named in its message: the fields' shapes,
    card conservation, the phases, the rules' traces, and agreement with the deal;
    ``TypeError`` for what is no palace state or a ``fail`` that cannot be called.
    """
    check_type(state, (State,))
    if not callable(fail):
        raise TypeError(f"fail must be callable, got {short_repr(fail)}")
    _check_places(state, fail)
    _check_deal(state, fail)


def row_cards(name: str, value: object, fail: Fail) -> Row:
    """``value`` if it is a row of three slots, each a card or ``None``; else ``fail`` says why."""
    if type(value) is not tuple or len(value) != ROW:
        fail(f"{name} must be a tuple of {ROW} slots, got {short_repr(value)}")
    for card in value:
        if card is not None and not is_card(card):
            fail(f"{name} holds {short_repr(card)}, which is neither a card nor None")
    return value


def _texts(cards: object) -> str:
    return short_repr([str(card) for card in cast(tuple[Card, ...], cards)])


def _check_places(state: State, fail: Fail) -> None:
    config = state.config
    players = config.players
    if not is_valid_state(state.seed):
        fail(f"seed must be an integer in [0, 2**{SEED_BITS}), got {short_repr(state.seed)}")
    for name in ("hands", "known", "face_up", "face_down"):
        per_seat(name, getattr(state, name), players, fail)
    everything: Counter[Card] = Counter()
    for seat in range(players):
        hand = deck_cards(f"seat {seat}'s hand", state.hands[seat], fail)
        known = deck_cards(f"seat {seat}'s known cards", state.known[seat], fail)
        if list(hand) != sorted(hand) or list(known) != sorted(known):
            fail(f"seat {seat}'s hand and known cards must be sorted")
        if Counter(known) - Counter(hand):
            fail(f"seat {seat}'s known cards {_texts(known)} are not all in its hand")
        up = row_cards(f"seat {seat}'s face-up row", state.face_up[seat], fail)
        down = row_cards(f"seat {seat}'s face-down row", state.face_down[seat], fail)
        everything.update(hand)
        everything.update(card for card in up + down if card is not None)
        if None in down and any(up):
            fail(f"seat {seat} turned a face-down card before its face-up row was gone")
        if config.face_up_play == "take_into_hand" and None in up and any(up):
            fail(f"seat {seat}'s face-up row is split, but face-up cards go into the hand at once")
    deal = None if state.deal is None else Counter(deck_cards("the deal", state.deal, fail))
    if deal is not None and (wrong := deck_difference(deal, config.decks)):
        fail(f"the deal must be exactly the configured {config.decks} deck(s), or None: {wrong}")
    stock = deck_cards("the stock", state.stock, fail)
    pile = deck_cards("the pile", state.pile, fail)
    everything.update(stock + pile + deck_cards("the burned cards", state.burned, fail))
    if wrong := deck_difference(everything, config.decks):
        fail(
            f"card conservation: every card of {config.decks} deck(s) must be in exactly one "
            f"place; {wrong}"
        )
    for name, values in (("phase", PHASES), ("pending", PENDINGS)):
        value = getattr(state, name)
        if type(value) is not str or value not in values:
            fail(f"{name} must be one of {', '.join(values)}, got {short_repr(value)}")
    seat = whole_in("seat", state.seat, 0, players - 1, fail)
    turns = whole_in("turns", state.turns, 0, config.max_turns, fail)
    whole_in("swaps", state.swaps, 0, MAX_SWAPS, fail)
    finished = state.finished
    if type(finished) is not tuple or len(set(finished)) != len(finished):
        fail(f"finished must be a tuple of distinct seats, got {short_repr(finished)}")
    for done in finished:
        whole_in("a finished seat", done, 0, players - 1, fail)
    cards = zip(state.hands, state.face_up, state.face_down, strict=True)
    holding = [s for s, (hand, up, down) in enumerate(cards) if hand or any(up) or any(down)]
    if sorted(set(range(players)) - set(holding)) != sorted(finished):
        fail(
            f"the finishing order {short_repr(finished)} must hold exactly the seats with no "
            f"cards left"
        )
    if state.phase == "swap":
        _check_swap_phase(state, fail)
    else:
        _check_play(state, seat, turns, holding, fail)


def _check_swap_phase(state: State, fail: Fail) -> None:
    config = state.config
    undealt = config.cards - config.players * (2 * ROW + config.hand_size)
    if state.turns or state.pile or state.burned or state.finished or state.pending != "none":
        fail("in the swap phase nothing has been played yet")
    if len(state.stock) != undealt:
        fail(f"in the swap phase the stock holds the {undealt} cards not dealt")
    for s in range(config.players):
        if len(state.hands[s]) != config.hand_size:
            fail(f"in the swap phase seat {s} holds hand_size {config.hand_size} cards")
        if None in state.face_up[s] or None in state.face_down[s]:
            fail(f"in the swap phase seat {s}'s rows are full")
        if _not_swapped(state, s) and state.known[s]:
            fail(
                f"seat {s} has swapped nothing yet but has known hand cards "
                f"{_texts(state.known[s])}: in the swap phase only a swap makes a hand card known"
            )


def _check_play(state: State, seat: Seat, turns: int, holding: list[Seat], fail: Fail) -> None:
    config, pile, pending, finished = state.config, state.pile, state.pending, state.finished
    if state.swaps:
        fail("swaps are counted in the swap phase only")
    for s in range(config.players):
        if not state.hands[s] and state.stock:
            fail(f"seat {s}'s hand is empty while the stock lasts: a play refills it")
        if config.face_up_play == "take_into_hand" and not state.hands[s] and any(state.face_up[s]):
            fail(f"seat {s}'s hand and the stock are empty: its face-up cards go into the hand")
    if any(card.rank == 10 for card in pile):
        fail("a 10 lies on the pile, but a 10 burns it at once")
    if config.quad == "burn" and any(
        len({card.rank for card in pile[i : i + 4]}) == 1 for i in range(len(pile) - 3)
    ):
        fail("four of a rank lie together on the pile, but under quad='burn' they burn")
    top = pile[-1] if pile else None
    if state.phase == "over":
        by_finish = len(holding) <= 1 if config.play_until == "last" else len(finished) == 1
        if pending != "none":
            fail("the game is over, but something is still due")
        if turns != config.max_turns and not by_finish:
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
    if pending == "take" and (top is None or top.rank != 3):
        fail("the seat on turn must take the pile, but no 3 is on top")
    if top is not None and top.rank == 3 and pending not in ("take", "extra"):
        fail("a 3 is on top: the seat on turn must take the pile")
    if pending == "replay" and pile:
        fail("a replay after a burn starts on an empty pile")
    if pending == "extra" and config.quad != "extra_play":
        fail("an extra play is due, but quad is not 'extra_play'")
    if pending == "extra" and (len(pile) < 4 or len({card.rank for card in pile[-4:]}) != 1):
        fail("an extra play is due, but no four of a kind lie on top of the pile")


def _not_swapped(state: State, seat: Seat) -> bool:
    """In the swap phase, whether ``seat`` has made no swap yet."""
    return seat > state.seat or (seat == state.seat and not state.swaps)


def _check_deal(state: State, fail: Fail) -> None:
    """The rows, hands and stock agree with the deck order the game was dealt from."""
    config = state.config
    dealt = shuffled_decks(config.decks, state.seed) if state.deal is None else state.deal
    source = "its deal" if state.deal is not None else f"the shuffle of its seed {state.seed}"
    places = [deal_places(config, seat) for seat in range(config.players)]
    for seat, (down, _up, _hand) in enumerate(places):
        slots = zip(state.face_down[seat], dealt[down], strict=True)
        for slot, (card, expected) in enumerate(slots):
            if card is not None and card != expected:
                fail(
                    f"seat {seat}'s face-down slot {slot} holds {card}, but {source} put "
                    f"{expected} there, and a face-down card never moves until it is turned"
                )
    stock, left = state.stock, config.cards - config.players * (2 * ROW + config.hand_size)
    if len(stock) > left or (stock and stock != dealt[-len(stock) :]):
        fail(
            f"the stock {_texts(stock)} is not what is left of the stock {source} dealt "
            f"({_texts(dealt[-left:] if left else ())}): the stock only shrinks from the top"
        )
    for seat, (_down, up_at, hand_at) in enumerate(places):
        up = [card for card in state.face_up[seat] if card is not None]
        hand, row = tuple(sorted(dealt[hand_at])), dealt[up_at]
        if state.phase == "swap":
            _check_swaps(state, seat, hand, row, source, fail)
        elif Counter(up) - Counter(hand + row):
            fail(
                f"seat {seat}'s face-up row {_texts(state.face_up[seat])} holds cards "
                f"{source} dealt neither to it nor to the seat's hand, and once play starts "
                f"face-up cards only leave the row"
            )


def _check_swaps(state: State, seat: Seat, hand: Hand, row: Row, source: str, fail: Fail) -> None:
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


def _fail(why: str) -> NoReturn:
    raise InvalidStateError(f"invalid palace view: {why}")


def hidden_cards(seen: View) -> list[Card]:
    """The cards the View ``seen`` does not show; ``InvalidStateError`` naming what is wrong."""
    config = seen.config
    if type(config) is not Config:
        _fail(f"expected a palace Config, got {short_repr(config)}")
    players = config.players
    viewer = seen.seat
    try:
        check_seat(viewer, players)
    except ValueError as error:
        _fail(str(error))
    for name in ("face_up", "face_down", "hand_sizes", "known"):
        per_seat(name, getattr(seen, name), players, _fail)
    hand = deck_cards("the viewer's hand", seen.hand, _fail)
    if viewer is None and hand:
        _fail("a spectator holds no hand")
    visible = Counter(deck_cards("the pile", seen.pile, _fail) + hand)
    visible.update(deck_cards("the burned cards", seen.burned, _fail))
    hidden = 0
    for seat in range(players):
        size = seen.hand_sizes[seat]
        if type(size) is not int or size < 0:
            _fail(f"seat {seat}'s hand size must be a whole number, got {short_repr(size)}")
        known = deck_cards(f"seat {seat}'s known cards", seen.known[seat], _fail)
        if len(known) > size:
            _fail(f"seat {seat} holds {size} cards in hand but {len(known)} of them are known")
        if seat == viewer:
            if len(hand) != size:
                _fail(f"the viewer's hand holds {len(hand)} cards, but its hand size is {size}")
        else:
            visible.update(known)
            hidden += size - len(known)
        up = row_cards(f"seat {seat}'s face-up row", seen.face_up[seat], _fail)
        visible.update(card for card in up if card is not None)
        down = seen.face_down[seat]
        if type(down) is not tuple or len(down) != ROW or any(type(s) is not bool for s in down):
            _fail(f"seat {seat}'s face-down row must be {ROW} booleans (occupied or not)")
        hidden += sum(down)
    stock = seen.stock_size
    if type(stock) is not int or stock < 0:
        _fail(f"the stock size must be a whole number, got {short_repr(stock)}")
    hidden += stock
    holds = f"{config.decks} deck(s) hold"
    return unseen_cards(DECK * config.decks, visible, hidden, _fail, holds=holds)
