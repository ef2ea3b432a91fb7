"""The rules of palace: the deal, the swap phase, a turn, and the end.

The turn structure at a glance (each rule a small function below):

- :func:`~tabletop_rules.palace.new_game` deals three face-down, three face-up and
  ``hand_size`` hand cards per seat; the rest is the stock.
- Swap phase, seat by seat: :class:`~tabletop_rules.palace.Swap` as often as wanted (at most
  :data:`~tabletop_rules.palace.state.MAX_SWAPS`), then
  :class:`~tabletop_rules.palace.Ready`; the first player is then chosen
  (:func:`~tabletop_rules.palace.first_player`).
- A turn: :class:`~tabletop_rules.palace.Play` cards of one rank that beat the top of the
  pile, or :class:`~tabletop_rules.palace.TakePile`; with hand and face-up row gone,
  :class:`~tabletop_rules.palace.PlayBlind`. After a play the hand refills from the stock; a
  10 (or four of a kind under ``quad="burn"``) burns the pile and the player plays again;
  four of a kind under ``quad="extra_play"`` allow another set or
  :class:`~tabletop_rules.palace.EndTurn`; a 3 left on top makes the next player take the
  pile.
- A player with no cards left has finished; the game ends as ``play_until`` says, or when
  ``max_turns`` passings of the turn are reached.

>>> from tabletop_rules import palace
>>> state = palace.new_game(seed=7)
>>> state.phase, palace.current_player(state), len(palace.legal_moves(state))
('swap', 0, 10)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal, NoReturn, cast

from .._messages import short_repr
from .._slots import replacer
from .._validation import check_type, refuse_state
from ..errors import ConfigError, IllegalMoveError
from ..protocol import Seat
from .cards import BONUS_RANKS, DECK, RANKS, Card, Deal, own_card
from .config import ROW, Config
from .events import (
    Burned,
    Drew,
    EndedTurn,
    Event,
    Finished,
    GameOver,
    Played,
    Readied,
    Source,
    Started,
    Swapped,
    TookFaceUp,
    TookPile,
    TurnedBlind,
    TurnPassed,
)
from .moves import (
    BLIND,
    END_TURN,
    READY,
    SWAPS,
    TAKE_PILE,
    Move,
    Play,
    PlayBlind,
    Ready,
    Swap,
    TakePile,
    format_move,
    known_move,
)
from .state import MAX_SWAPS, Hand, Pending, Phase, Row, State, View, shuffled_decks

__all__ = ["EXTRA_PLAY_MOST", "first_player"]

EXTRA_PLAY_MOST = 4
"""An extra play after four of a kind lays 1 to 4 cards of one rank, as the rules page
says (with several decks a first play may lay more)."""

# --- precomputed tables -------------------------------------------------------------

_ALL = tuple(rank in RANKS for rank in range(15))


def _allowed_ranks(top: int, strict: bool) -> tuple[bool, ...]:
    """For a top card of rank ``top`` (0: an empty pile), whether each rank may go on it.
    A 2 takes anything; so does a 3, which is only consulted when the 3 was laid in this
    same turn (a 3 from an earlier turn makes the next player take the pile first).
    """
    if top in (0, 2, 3):
        return _ALL
    return tuple(
        rank in RANKS and (rank in BONUS_RANKS or rank > top or (not strict and rank == top))
        for rank in range(15)
    )


_ALLOWED: dict[bool, tuple[tuple[bool, ...], ...]] = {
    strict: tuple(_allowed_ranks(top, strict) for top in range(15)) for strict in (False, True)
}
"""``_ALLOWED[strict][top_rank][rank]``: may ``rank`` go on ``top_rank``?"""

# The moves legal_moves lists are built once and kept, by their fields: apply and
# canonical map a move equal to a listed one to that instance (own_move; a swap is the move
# table's, SWAPS). Their number is bounded: a play is a multiset of one rank's cards.
_PLAYS: dict[tuple[Card, ...], Play] = {}
_RUN_PLAYS: dict[tuple[Card, ...], tuple[Play, ...]] = {}


def _play(cards: tuple[Card, ...]) -> Play:
    return _PLAYS.get(cards) or _PLAYS.setdefault(cards, Play(cards))


def own_move(move: object) -> Move:
    """The instance :func:`legal_moves` lists that equals ``move``, else ``move`` rebuilt
    by :func:`~tabletop_rules.palace.moves.known_move` (which refuses what is no move). A
    field is hashed only once it has the type the constructor stores.
    """
    cls = type(move)
    if cls is Play:
        cards = getattr(move, "cards", None)
        if type(cards) is tuple:
            for card in cards:  # a loop: all() of a generator costs a twentieth of a move
                if type(card) is not Card:
                    return known_move(move)
            play = _PLAYS.get(cards)
            if play is not None:
                return play
    elif cls is Swap:
        hand_card, up_card = getattr(move, "hand_card", None), getattr(move, "face_up_card", None)
        if type(hand_card) is Card and type(up_card) is Card:
            swap = SWAPS.get((hand_card, up_card))
            if swap is not None:
                return swap
    return known_move(move)


# --- the deal ------------------------------------------------------------------------


def new_game(config: Config, seed: int, deal: Deal) -> State:
    """A new game in the swap phase, seat 0 to swap.

    ``deal`` is a deck order, top card first: exactly the configured decks (else
    :class:`~tabletop_rules.errors.ConfigError`); without it the decks are shuffled from
    ``seed``. The cards are dealt one at a time in seat order: three rounds to the
    face-down slots 0, 1, 2, three to the face-up slots, ``hand_size`` to the hands; the
    rest is the stock, its first card drawn first.
    """
    cards = shuffled_decks(config.decks, seed) if deal is None else _checked_deal(config, deal)
    n = config.players
    face_down = tuple(tuple(cards[r * n + s] for r in range(ROW)) for s in range(n))
    face_up = tuple(tuple(cards[(ROW + r) * n + s] for r in range(ROW)) for s in range(n))
    base = 2 * ROW * n
    hands = tuple(
        tuple(sorted(cards[base + r * n + s] for r in range(config.hand_size))) for s in range(n)
    )
    return State(
        config=config,
        seed=seed,
        hands=hands,
        known=((),) * n,
        face_up=face_up,
        face_down=face_down,
        stock=tuple(cards[base + config.hand_size * n :]),
        deal=None if deal is None else cards,
    )


def _checked_deal(config: Config, deal: object) -> tuple[Card, ...]:
    if type(deal) is not tuple and type(deal) is not list:
        raise ConfigError(f"a deal is a tuple or list of cards, got {short_repr(deal)}")
    if len(deal) != config.cards:
        raise ConfigError(
            f"a deal must be exactly the configured {config.decks} deck(s): "
            f"{config.cards} cards, got {len(deal)}"
        )
    try:
        cards = tuple(own_card(card) for card in deal)
    except IllegalMoveError as error:
        raise ConfigError(f"a deal holds what is not a card: {error}") from None
    counts = Counter(cards)
    expected = Counter(dict.fromkeys(DECK, config.decks))
    if counts != expected:
        missing = sorted((expected - counts).elements())
        extra = sorted((counts - expected).elements())
        raise ConfigError(
            f"a deal must be exactly the configured {config.decks} deck(s): missing "
            f"{short_repr([str(c) for c in missing])}, too many "
            f"{short_repr([str(c) for c in extra])}"
        )
    return cards


# --- reading a state -----------------------------------------------------------------


def is_over(state: State) -> bool:
    """Whether the game is over."""
    if type(state) is not State:
        _refuse(state)
    return state.phase == "over"


def _refuse(state: object) -> NoReturn:
    """The ``TypeError`` for what is no palace State (a View is told what to pass)."""
    refuse_state(state, game="a palace", state_type=State, view_type=View)


def current_player(state: State) -> Seat | None:
    """The seat to move (swapping, in the swap phase); ``None`` once over."""
    return None if state.phase == "over" else state.seat


def score(state: State) -> tuple[int, ...]:
    """Each seat's score: the number of players still holding cards when it finished; 0
    for a seat still holding cards.
    """
    return _scores(state.config.players, state.finished)


def _scores(players: int, finished: tuple[Seat, ...]) -> tuple[int, ...]:
    scores = [0] * players
    for place, seat in enumerate(finished):
        scores[seat] = players - 1 - place
    return tuple(scores)


def winners(state: State) -> frozenset[Seat]:
    """Once the game is over, the first to finish; empty before, and empty when the turn
    limit ended a game nobody finished.
    """
    return frozenset(state.finished[:1]) if state.phase == "over" else frozenset()


def deck(config: Config) -> tuple[Card, ...]:
    """The cards ``config`` deals, unshuffled: :data:`~tabletop_rules.palace.cards.DECK`
    once per deck.
    """
    return DECK * config.decks


def max_moves(config: Config) -> int:
    """An upper bound on the moves of a game: ``MAX_SWAPS`` swaps and a ``Ready`` per seat,
    then per turn at most one play per card in the game and one move that ends it.
    """
    return config.players * (MAX_SWAPS + 1) + config.max_turns * (config.cards + 1)


def first_player(config: Config, hands: Sequence[Hand]) -> Seat:
    """Who plays first once every seat is ready: with ``first_player="lowest_card"`` the
    seat holding the lowest natural rank in hand (ties: the lowest seat), seat 0 if no hand
    holds a natural card; with ``"seat0"`` seat 0.
    """
    check_type(config, (Config,), ConfigError)
    if (type(hands) is not tuple and type(hands) is not list) or not all(
        type(hand) is tuple and all(type(card) is Card for card in hand) for hand in hands
    ):
        raise TypeError(f"hands are each seat's sorted tuple of cards, got {short_repr(hands)}")
    if config.first_player == "seat0":
        return 0
    best_rank, best_seat = 15, 0
    for seat, hand in enumerate(hands):
        for card in hand:  # sorted: the first natural card is the lowest
            if card.rank not in BONUS_RANKS:
                if card.rank < best_rank:
                    best_rank, best_seat = card.rank, seat
                break
    return best_seat


def _source(state: State, seat: Seat) -> tuple[tuple[Card, ...], Source]:
    """The cards the seat plays from: its hand; with an empty hand under
    ``face_up_play="from_table"`` its face-up row (sorted); else none (a blind card).
    """
    hand = state.hands[seat]
    if hand:
        return hand, "hand"
    if state.config.face_up_play == "from_table":
        up = tuple(sorted(card for card in state.face_up[seat] if card is not None))
        if up:
            return up, "face_up"
    return (), "face_down"


def _allowed(state: State) -> tuple[bool, ...]:
    pile = state.pile
    return _ALLOWED[state.config.must_beat == "higher"][pile[-1].rank if pile else 0]


def _plays(source: tuple[Card, ...], allowed: tuple[bool, ...], most: int) -> list[Move]:
    """One Play per (rank, count) that may go on the pile, ranks ascending, then counts:
    each lays the first ``count`` cards of that rank in sorted order (lowest suits).
    """
    plays: list[Move] = []
    i, n = 0, len(source)
    while i < n:
        rank = source[i].rank
        j = i + 1
        while j < n and source[j].rank == rank:
            j += 1
        if allowed[rank]:
            run = source[i:j]
            listed = _RUN_PLAYS.get(run) or _run_plays(run)
            plays += listed if j - i <= most else listed[:most]
        i = j
    return plays


def _run_plays(run: tuple[Card, ...]) -> tuple[Play, ...]:
    """The plays of a run (all of a source's cards of one rank): its first 1, 2, …
    cards, built once and kept.
    """
    return _RUN_PLAYS.setdefault(run, tuple(_play(run[:count]) for count in range(1, len(run) + 1)))


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move, in a fixed order: in the swap phase a :class:`Swap` per pair of
    distinct (hand card, face-up card), then :class:`Ready`; in play one :class:`Play` per
    (rank, count) the pile allows, laying the lowest suits (an equivalent play of other suits
    is accepted too), then :class:`TakePile` when allowed; with hand and face-up row gone a
    :class:`PlayBlind` per occupied slot; after four of a kind, the plays and :class:`EndTurn`.
    """
    if type(state) is not State:
        _refuse(state)
    phase = state.phase
    if phase == "over":
        return ()
    seat = state.seat
    if phase == "swap":
        if state.swaps >= MAX_SWAPS:
            return (READY,)
        ups = sorted({card for card in state.face_up[seat] if card is not None})
        return (
            *(
                SWAPS[hand_card, up]
                for hand_card in sorted(set(state.hands[seat]))
                for up in ups
                if hand_card != up
            ),
            READY,
        )
    pending = state.pending
    if pending == "take":
        return (TAKE_PILE,)
    source, _where = _source(state, seat)
    if pending == "extra":
        return (*_plays(source, _allowed(state), EXTRA_PLAY_MOST), END_TURN)
    can_take = bool(state.pile) and state.config.voluntary_pickup and pending == "none"
    if not source:
        blind = [BLIND[slot] for slot, card in enumerate(state.face_down[seat]) if card]
        return (*blind, TAKE_PILE) if can_take else tuple(blind)
    plays = _plays(source, _allowed(state), len(source))
    if state.pile and (can_take or not plays):
        plays.append(TAKE_PILE)
    return tuple(plays)


# --- applying a move -----------------------------------------------------------------


_replace = replacer(State)
"""A copy of a state with the named fields changed (:func:`~tabletop_rules.kit.replacer`)."""


class _Work:
    """The fields a transition changes, as a mutable scratch copy of a state: made into the
    next state once by :meth:`next_state`.
    """

    __slots__ = (
        "burned",
        "config",
        "events",
        "face_down",
        "face_up",
        "finished",
        "hands",
        "known",
        "pending",
        "phase",
        "pile",
        "seat",
        "state",
        "stock",
        "swaps",
        "turns",
    )

    def __init__(self, state: State, events: list[Event] | None) -> None:
        self.state = state
        self.config = state.config
        self.events = events
        self.hands: list[Hand] = list(state.hands)
        self.known: list[Hand] = list(state.known)
        self.face_up: list[Row] = list(state.face_up)
        self.face_down: tuple[Row, ...] = state.face_down  # only a blind play changes it
        self.stock = state.stock
        self.pile = state.pile
        self.burned = state.burned
        self.phase: Phase = state.phase
        self.seat = state.seat
        self.turns = state.turns
        self.swaps = state.swaps
        self.pending: Pending = state.pending
        self.finished = state.finished

    def next_state(self) -> State:
        """The next state: the state moved from, with the fields a transition changes."""
        return _replace(
            self.state,
            hands=tuple(self.hands),
            known=tuple(self.known),
            face_up=tuple(self.face_up),
            face_down=self.face_down,
            stock=self.stock,
            pile=self.pile,
            burned=self.burned,
            phase=self.phase,
            seat=self.seat,
            turns=self.turns,
            swaps=self.swaps,
            pending=self.pending,
            finished=self.finished,
        )

    def holds(self, seat: Seat) -> bool:
        return bool(self.hands[seat] or any(self.face_up[seat]) or any(self.face_down[seat]))


def transition(state: State, move: Move, events: list[Event] | None) -> State:
    """The state after ``move`` (as :func:`own_move` gives it), its events appended to
    ``events``; :class:`~tabletop_rules.errors.IllegalMoveError` naming the rule that
    forbids it. A :class:`Play` is legal when it lays cards the player holds that are
    equivalent (same source, rank and count) to a listed play; the state records exactly
    the cards laid.
    """
    phase = state.phase
    if phase == "over":
        raise IllegalMoveError(f"the game is over; '{format_move(move)}' is not a move")
    cls = type(move)
    work = _Work(state, events)
    if phase == "swap":
        if type(move) is Swap:
            _do_swap(work, move)
        elif cls is Ready:
            _do_ready(work)
        else:
            raise IllegalMoveError(
                f"in the swap phase each player swaps a hand card for a face-up card "
                f"('swap') and then declares 'ready'; '{format_move(move)}' waits until "
                f"play starts"
            )
        return work.next_state()
    if cls is Swap or cls is Ready:
        raise IllegalMoveError(
            f"the swap phase is over: swaps happen once, before the first play; "
            f"'{format_move(move)}' is not a move now"
        )
    if state.pending == "take" and cls is not TakePile:
        raise IllegalMoveError(
            f"a 3 is on top of the pile: seat {state.seat} must take the pile "
            f"('take'), not '{format_move(move)}'"
        )
    if type(move) is Play:
        _do_play(work, move)
    elif cls is TakePile:
        _do_take(work)
    elif type(move) is PlayBlind:
        _do_blind(work, move.slot)
    else:
        _do_end_turn(work)
    return work.next_state()


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _without(cards: tuple[Card, ...], removed: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """``cards`` less ``removed`` (multisets, both sorted); ``None`` if not all are there."""
    rest = list(cards)
    for card in removed:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return tuple(rest)


def _less_known(known: Hand, removed: Sequence[Card]) -> Hand:
    """Known cards once ``removed`` left the hand: each leaving card removes one copy from
    what is known (the public cannot tell which of equal cards left).
    """
    if not known:
        return known
    rest = list(known)  # sorted already, and stays sorted as cards are taken out
    for card in removed:
        if card in rest:
            rest.remove(card)
    return tuple(rest)


# --- the swap phase --------------------------------------------------------------------


def _do_swap(work: _Work, move: Swap) -> None:
    seat = work.seat
    hand_card, up_card = move.hand_card, move.face_up_card
    if work.swaps >= MAX_SWAPS:
        raise IllegalMoveError(
            f"each player makes at most {MAX_SWAPS} swaps (enough for any arrangement); "
            f"seat {seat} has made them: declare 'ready'"
        )
    hand = work.hands[seat]
    rest = _without(hand, (hand_card,))
    if rest is None:
        raise IllegalMoveError(f"seat {seat} holds no {hand_card} in hand to swap")
    row = work.face_up[seat]
    if up_card not in row:
        raise IllegalMoveError(f"{up_card} is not in seat {seat}'s face-up row to swap")
    if hand_card == up_card:
        raise IllegalMoveError(f"swapping {hand_card} for an equal {up_card} changes nothing")
    slot = row.index(up_card)
    work.hands[seat] = tuple(sorted((*rest, up_card)))
    work.known[seat] = tuple(sorted((*_less_known(work.known[seat], (hand_card,)), up_card)))
    work.face_up[seat] = (*row[:slot], hand_card, *row[slot + 1 :])
    work.swaps += 1
    if work.events is not None:
        work.events.append(Swapped(seat, hand_card, up_card))


def _do_ready(work: _Work) -> None:
    seat = work.seat
    if work.events is not None:
        work.events.append(Readied(seat))
    work.swaps = 0
    if seat + 1 < work.config.players:
        work.seat = seat + 1
        return
    work.phase = "play"
    work.seat = first_player(work.config, work.hands)
    if work.events is not None:
        work.events.append(Started(work.seat))


# --- a turn ------------------------------------------------------------------------


def _do_play(work: _Work, move: Play) -> None:
    state = work.state
    seat = state.seat
    cards = move.cards
    rank = cards[0].rank
    if cards[-1].rank != rank:  # cards are sorted: by rank first
        raise IllegalMoveError(f"a play lays cards of one rank, not {_cards_text(cards)}")
    source, where = _source(state, seat)
    if where == "face_down":
        if state.pending == "extra":
            raise IllegalMoveError(
                f"seat {seat} has no hand or face-up cards left for an extra play, and a "
                f"blind card is never part of one: end the turn ('end')"
            )
        raise IllegalMoveError(
            f"seat {seat}'s hand and face-up cards are gone: turn a face-down card "
            f"('blind' and its slot, e.g. 'blind 0'), not '{format_move(move)}'"
        )
    rest = _without(source, cards)
    if rest is None:
        if (
            where == "hand"
            and _without(tuple(sorted(c for c in state.face_up[seat] if c is not None)), cards)
            is not None
            and state.config.face_up_play == "from_table"
        ):
            raise IllegalMoveError(
                "face-up cards are played from the table only once the hand is empty, "
                "never mixed with hand cards"
            )
        place = "in hand" if where == "hand" else "in the face-up row"
        raise IllegalMoveError(f"seat {seat} does not hold {_cards_text(cards)} {place}")
    if state.pending == "extra" and len(cards) > EXTRA_PLAY_MOST:
        raise IllegalMoveError(
            f"an extra play after four of a kind lays 1 to {EXTRA_PLAY_MOST} cards of one "
            f"rank, not {len(cards)}"
        )
    if not _allowed(state)[rank]:
        _refuse_rank(state, cards[0])
    if where == "hand":
        work.hands[seat] = rest
        work.known[seat] = _less_known(work.known[seat], cards)
    else:
        row = list(work.face_up[seat])
        for card in cards:
            row[row.index(card)] = None  # the lowest slot holding an equal card
        work.face_up[seat] = tuple(row)
    _lay(work, seat, cards, where, None)


def _refuse_rank(state: State, card: Card) -> NoReturn:
    top = state.pile[-1]
    if card.rank == top.rank:
        raise IllegalMoveError(
            f"{card} is not higher than the {top} on the pile: must_beat is 'higher'"
        )
    raise IllegalMoveError(f"{card} is lower than the {top} on the pile")


def _lay(work: _Work, seat: Seat, cards: tuple[Card, ...], where: Source, slot: int | None) -> None:
    """``cards`` go on the pile, with all their effects: burn, refill, face-up cards into
    the hand, finishing, a replay, an extra play, or the end of the turn.
    """
    config = work.config
    pile = work.pile + cards
    events = work.events
    if events is not None:
        events.append(Played(seat, cards, where, slot))
    rank = cards[0].rank
    burn = rank == 10
    if not burn and config.quad == "burn" and len(pile) >= 4:
        run = 0
        for card in reversed(pile):
            if card.rank != rank:
                break
            run += 1
        burn = run >= 4
    if burn:
        work.burned += pile
        pile = ()
        if events is not None:
            events.append(Burned(work.pile + cards))
    work.pile = pile
    _refill(work, seat)
    _face_up_into_hand(work, seat)
    if not work.holds(seat):
        _finish(work, seat)
    elif burn:
        work.pending = "replay"
    elif config.quad == "extra_play" and len(cards) >= 4:
        work.pending = "extra"
    else:
        _pass_turn(work, seat)


def _refill(work: _Work, seat: Seat) -> None:
    """After every play, while the stock lasts, draw up to ``hand_size`` cards in hand."""
    stock = work.stock
    hand = work.hands[seat]
    short = work.config.hand_size - len(hand)
    if stock and short > 0:
        drawn = stock[:short]
        work.stock = stock[short:]
        work.hands[seat] = tuple(sorted(hand + drawn))
        if work.events is not None:
            work.events.append(Drew(seat, drawn))


def _face_up_into_hand(work: _Work, seat: Seat) -> None:
    """Under ``take_into_hand``, the moment hand and stock are empty the face-up cards
    go into the hand, in view of all.
    """
    if work.hands[seat] or work.stock or work.config.face_up_play != "take_into_hand":
        return
    up = tuple(card for card in work.face_up[seat] if card is not None)
    if not up:
        return
    work.hands[seat] = work.known[seat] = tuple(sorted(up))
    work.face_up[seat] = (None,) * ROW
    if work.events is not None:
        work.events.append(TookFaceUp(seat, up))


def _finish(work: _Work, seat: Seat) -> None:
    """``seat`` has no cards left: it finished; the game ends as ``play_until`` says."""
    work.finished += (seat,)
    holding = work.config.players - len(work.finished)
    if work.events is not None:
        work.events.append(Finished(seat, len(work.finished) - 1, holding))
    if work.config.play_until == "first_out" or holding <= 1:
        _game_over(work, "finished")
    else:
        _pass_turn(work, seat)


def _pass_turn(work: _Work, seat: Seat) -> None:
    """The turn passes to the next seat still holding cards; it counts toward
    ``max_turns``. A 3 on top makes that seat take the pile.
    """
    work.turns += 1
    if work.turns >= work.config.max_turns:
        _game_over(work, "max_turns")
        return
    players = work.config.players
    following = (seat + 1) % players
    while following in work.finished:
        following = (following + 1) % players
    work.seat = following
    must_take = bool(work.pile) and work.pile[-1].rank == 3
    work.pending = "take" if must_take else "none"
    if work.events is not None:
        work.events.append(TurnPassed(following, work.turns, must_take))


def _game_over(work: _Work, reason: Literal["finished", "max_turns"]) -> None:
    work.phase = "over"
    work.pending = "none"
    if work.events is not None:
        scores = _scores(work.config.players, work.finished)
        work.events.append(GameOver(reason, scores, frozenset(work.finished[:1])))


def _do_take(work: _Work) -> None:
    state = work.state
    seat = state.seat
    if not state.pile:
        raise IllegalMoveError("the pile is empty: there is nothing to take")
    if state.pending == "extra":
        raise IllegalMoveError(
            "after four of a kind lay another set on them or end the turn ('end'); "
            "the pile is not taken"
        )
    if state.pending == "none" and not state.config.voluntary_pickup:
        source, where = _source(state, seat)
        if where == "face_down":
            raise IllegalMoveError(
                "a player who can play does not take the pile: turn a face-down card "
                "('blind' and its slot); voluntary_pickup would allow it"
            )
        plays = _plays(source, _allowed(state), len(source))
        if plays:
            raise IllegalMoveError(
                f"a player who can play does not take the pile: "
                f"{_cards_text(cast(Play, plays[0]).cards)} goes on the {state.pile[-1]} "
                f"(voluntary_pickup would allow it)"
            )
    _take_pile(work, seat, state.pile)


def _take_pile(work: _Work, seat: Seat, taken: tuple[Card, ...]) -> None:
    """``taken`` (the pile, and a blind card) goes into the hand in view of all; the turn ends."""
    work.hands[seat] = tuple(sorted(work.hands[seat] + taken))
    work.known[seat] = tuple(sorted(work.known[seat] + taken))
    work.pile = ()
    if work.events is not None:
        work.events.append(TookPile(seat, taken))
    _pass_turn(work, seat)


def _do_blind(work: _Work, slot: int) -> None:
    state = work.state
    seat = state.seat
    if state.pending == "extra":
        raise IllegalMoveError(
            "a blind card is never part of an extra play: lay another set or end the turn ('end')"
        )
    if state.hands[seat]:
        raise IllegalMoveError(
            f"seat {seat} still holds cards in hand: they are played before a face-down card"
        )
    if any(state.face_up[seat]):
        raise IllegalMoveError(
            f"seat {seat}'s face-up cards are played before a face-down card is turned"
        )
    row = state.face_down[seat]
    card = row[slot]
    if card is None:
        raise IllegalMoveError(f"seat {seat}'s face-down slot {slot} is empty")
    rows = work.face_down
    work.face_down = (*rows[:seat], (*row[:slot], None, *row[slot + 1 :]), *rows[seat + 1 :])
    if _allowed(state)[card.rank]:
        _lay(work, seat, (card,), "face_down", slot)
        return
    if work.events is not None:
        work.events.append(TurnedBlind(seat, slot, card))
    _take_pile(work, seat, (*state.pile, card))


def _do_end_turn(work: _Work) -> None:
    if work.state.pending != "extra":
        raise IllegalMoveError(
            "'end' ends a turn only after four of a kind (quad='extra_play'); "
            "otherwise a turn ends by playing or taking the pile"
        )
    if work.events is not None:
        work.events.append(EndedTurn(work.seat))
    _pass_turn(work, work.seat)


# --- equivalent moves ----------------------------------------------------------------


def canonical(state: State, move: Move) -> Move:
    """The move of :func:`legal_moves` equivalent to ``move``, as the instance listed: a
    :class:`Play` of cards the player holds, of the rank and count of a listed play but
    other suits, maps to that listed play; any other legal move to itself.
    :class:`~tabletop_rules.errors.IllegalMoveError` naming the rule, as ``apply`` would,
    when no listed move is equivalent.

    >>> from tabletop_rules.palace import Card, Play, Ready, apply, canonical, new_game
    >>> state = apply(apply(new_game(seed=1), Ready()), Ready())
    >>> " ".join(map(str, state.hands[0]))
    '4D 4S 5S'
    >>> canonical(state, Play((Card.parse("4S"),)))
    Play(cards=(Card(rank=4, suit='D'),))
    >>> canonical(state, Play((Card.parse("4H"),)))
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.IllegalMoveError: seat 0 does not hold 4H in hand
    """
    move = own_move(move)
    legal = legal_moves(state)
    for listed in legal:
        if listed == move:
            return listed
    transition(state, move, None)  # raises IllegalMoveError naming the rule
    if type(move) is Play:  # the transition accepted held cards of a listed (rank, count)
        rank, count = move.cards[0].rank, len(move.cards)
        for listed in legal:
            if type(listed) is Play and listed.cards[0].rank == rank and len(listed.cards) == count:
                return listed
    raise AssertionError(f"apply accepted {move!r}, which no listed move is equivalent to")
