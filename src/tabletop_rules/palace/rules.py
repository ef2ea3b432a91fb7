"""The rules of palace, in the order of a game: the deal, the swap phase, a turn and its
effects, the end; :doc:`/rules/palace` says each rule in words.
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
from . import events as ev
from .cards import BONUS_RANKS, DECK, RANK_TEXT, RANKS, Card, Deal, cards_text, own_card, top_run
from .config import ROW, Config
from .events import Event, Source
from .invariants import deck_difference
from .moves import (
    BLIND,
    END_TURN,
    MOVE_TYPES,
    READY,
    SWAPS,
    TAKE_PILE,
    EndTurn,
    Move,
    Play,
    PlayBlind,
    Ready,
    Swap,
    TakePile,
    action_key,
    stand_in,
)
from .notation import format_move, read_words
from .state import MAX_SWAPS, Hand, Pending, Phase, Row, State, View, deal_places, shuffled_decks

__all__ = ["EXTRA_PLAY_MOST", "first_player"]

EXTRA_PLAY_MOST = 4
"""An extra play after four of a kind lays 1 to 4 cards of one rank, as the rules page
says (with several decks a first play may lay more)."""


def _goes_on(rank: int, top: int, strict: bool) -> bool:
    """Whether ``rank`` may go on a top card of rank ``top`` (0: an empty pile). A 2 takes
    anything; so does a 3 laid in this same turn (one from an earlier turn is taken first).
    """
    return top in (0, 2, 3) or rank in BONUS_RANKS or rank > top or (not strict and rank == top)


ALLOWED: dict[bool, tuple[tuple[bool, ...], ...]] = {
    strict: tuple(
        tuple(rank in RANKS and _goes_on(rank, top, strict) for rank in range(15))
        for top in range(15)
    )
    for strict in (False, True)
}
"""``ALLOWED[strict][top_rank][rank]``: may ``rank`` go on ``top_rank``? (Public: the batched
kernel reads it.)"""

# The listed plays, built once and kept by their cards (a bounded number: multisets of one rank).
_PLAYS: dict[tuple[Card, ...], Play] = {}
_RUN_PLAYS: dict[tuple[Card, ...], tuple[Play, ...]] = {}


def new_game(config: Config, seed: int, deal: Deal) -> State:
    """A new game in the swap phase, seat 0 to swap, dealt as :doc:`/rules/palace` says from
    ``deal`` (a deck order, top card first: exactly the configured decks, else
    :class:`~tabletop_rules.errors.ConfigError`) or from the decks shuffled by ``seed``.
    """
    cards = shuffled_decks(config.decks, seed) if deal is None else _checked_deal(config, deal)
    places = [deal_places(config, seat) for seat in range(config.players)]
    return State(
        config=config,
        seed=seed,
        hands=tuple(tuple(sorted(cards[hand])) for _down, _up, hand in places),
        known=((),) * config.players,
        face_up=tuple(cards[up] for _down, up, _hand in places),
        face_down=tuple(cards[down] for down, _up, _hand in places),
        stock=cards[config.players * (2 * ROW + config.hand_size) :],
        deal=None if deal is None else cards,
    )


def _checked_deal(config: Config, deal: object) -> tuple[Card, ...]:
    if type(deal) is not tuple and type(deal) is not list:
        raise ConfigError(f"a deal is a tuple or list of cards, got {short_repr(deal)}")
    exactly = f"a deal must be exactly the configured {config.decks} deck(s)"
    if len(deal) != config.cards:
        raise ConfigError(f"{exactly}: {config.cards} cards, got {len(deal)}")
    try:
        cards = tuple(own_card(card) for card in deal)
    except IllegalMoveError as error:
        raise ConfigError(f"a deal holds what is not a card: {error}") from None
    if difference := deck_difference(Counter(cards), config.decks):
        raise ConfigError(f"{exactly}: {difference}")
    return cards


def is_over(state: State) -> bool:
    """Whether the game is over."""
    if type(state) is not State:
        refuse_non_state(state)
    return state.phase == "over"


def refuse_non_state(state: object) -> NoReturn:
    """The ``TypeError`` for what is no palace State (a View is told what to pass)."""
    refuse_state(state, game="a palace", state_type=State, view_type=View)


def current_player(state: State) -> Seat | None:
    """The seat to move (swapping, in the swap phase); ``None`` once over."""
    if type(state) is not State:
        refuse_non_state(state)
    return None if state.phase == "over" else state.seat


def score(state: State) -> tuple[int, ...]:
    """Each seat's score: the players still holding cards when it finished (0 until then)."""
    if type(state) is not State:
        refuse_non_state(state)
    return _scores(state.config.players, state.finished)


def _scores(players: int, finished: tuple[Seat, ...]) -> tuple[int, ...]:
    return tuple(players - 1 - finished.index(s) if s in finished else 0 for s in range(players))


def winners(state: State) -> frozenset[Seat]:
    """The first to finish, once the game is over (empty when nobody finished)."""
    if type(state) is not State:
        refuse_non_state(state)
    return frozenset(state.finished[:1]) if state.phase == "over" else frozenset()


def deck(config: Config) -> tuple[Card, ...]:
    """The cards ``config`` deals, unshuffled: its decks of :data:`~.cards.DECK`."""
    return DECK * config.decks


def max_moves(config: Config) -> int:
    """A bound on a game's moves: a seat's 6 swaps and ready, a turn's play a card and end."""
    check_type(config, (Config,), ConfigError)
    return config.players * (MAX_SWAPS + 1) + config.max_turns * (config.cards + 1)


def first_player(config: Config, hands: Sequence[Hand]) -> Seat:
    """Who plays first once every seat holds ``hands``, as ``config.first_player`` says."""
    check_type(config, (Config,), ConfigError)
    if (type(hands) is not tuple and type(hands) is not list) or not all(
        type(hand) is tuple and all(type(card) is Card for card in hand) for hand in hands
    ):
        raise TypeError(f"hands are each seat's sorted tuple of cards, got {short_repr(hands)}")
    if config.first_player == "seat0":
        return 0
    naturals = (
        (card.rank, seat) for seat, hand in enumerate(hands) for card in hand if not card.is_bonus
    )
    return min(naturals, default=(0, 0))[1]


def play_source(state: State, seat: Seat) -> tuple[tuple[Card, ...], Source]:
    """The cards ``seat`` plays from: its hand, else its face-up row under ``from_table``,
    sorted, else none (it plays blind).
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
    return ALLOWED[state.config.must_beat == "higher"][pile[-1].rank if pile else 0]


def _plays(source: tuple[Card, ...], allowed: tuple[bool, ...], most: int) -> list[Move]:
    """One Play per (rank, count) that may go on the pile, laying the lowest suits, in order."""
    plays: list[Move] = []
    i, n = 0, len(source)
    while i < n:
        rank = source[i].rank
        j = i + 1
        while j < n and source[j].rank == rank:
            j += 1
        if allowed[rank]:
            run = source[i:j]
            listed = _RUN_PLAYS.get(run)
            if listed is None:  # the run's first 1, 2, ... cards, built once and kept
                listed = _RUN_PLAYS[run] = tuple(
                    _PLAYS.setdefault(run[:count], Play(run[:count]))
                    for count in range(1, j - i + 1)
                )
            plays += listed if j - i <= most else listed[:most]
        i = j
    return plays


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move, in the order :doc:`/rules/palace` gives: one :class:`Play` per
    (rank, count), laying the lowest suits (a play of other suits is accepted too).
    """
    if type(state) is not State:
        refuse_non_state(state)
    phase = state.phase
    if phase == "over":
        return ()
    seat = state.seat
    if phase == "swap":
        if state.swaps >= MAX_SWAPS:
            return (READY,)
        hand = sorted(set(state.hands[seat]))
        ups = sorted({card for card in state.face_up[seat] if card})
        return (*[SWAPS[card, up] for card in hand for up in ups if card != up], READY)
    pending = state.pending
    if pending == "take":
        return (TAKE_PILE,)
    source, _where = play_source(state, seat)
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


_replace = replacer(State)


class Work:
    """A mutable copy of the fields a transition changes, made into the next state once
    (public for the benchmark that times that cost alone).
    """

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
        """The state the scratch copy holds now, a new frozen ``State``."""
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


def transition(state: State, move: Move, events: list[Event] | None) -> State:
    """The state after ``move``, its events appended to ``events``; ``IllegalMoveError``
    naming the rule that forbids it, or saying that ``move`` is no palace move. A
    :class:`~tabletop_rules.palace.Play` of held cards equivalent to a listed play is legal
    (the state records the cards laid).
    """
    phase = state.phase
    if phase == "over":
        raise IllegalMoveError(f"the game is over; '{_text_of(move)}' is not a move")
    cls = type(move)
    work = Work(state, events)
    if phase == "swap":
        if type(move) is Swap:
            _do_swap(work, move)
        elif cls is Ready:
            _do_ready(work)
        else:
            raise IllegalMoveError(
                f"in the swap phase each player swaps a hand card for a face-up card "
                f"('swap') and then declares 'ready'; '{_text_of(move)}' waits until "
                f"play starts"
            )
        return work.next_state()
    if cls is Swap or cls is Ready:
        raise IllegalMoveError(
            f"the swap phase is over: swaps happen once, before the first play; "
            f"'{_text_of(move)}' is not a move now"
        )
    if state.pending == "take" and cls is not TakePile:
        raise IllegalMoveError(
            f"a 3 is on top of the pile: seat {state.seat} must take the pile "
            f"('take'), not '{_text_of(move)}'"
        )
    if type(move) is Play:  # a play equal to a listed one is that one: one dict look-up
        _do_play(work, _PLAYS.get(move.cards, move))
    elif cls is TakePile:
        _do_take(work)
    elif type(move) is PlayBlind:
        _do_blind(work, move.slot)
    elif cls is EndTurn:
        _do_end_turn(work)
    else:
        raise IllegalMoveError(f"{short_repr(move)} is not a palace move")
    return work.next_state()


def _text_of(move: object) -> str:
    """The text of ``move`` for a refusal; ``IllegalMoveError`` for what is no palace move."""
    if not any(type(move) is kind for kind in MOVE_TYPES):
        raise IllegalMoveError(f"{short_repr(move)} is not a palace move")
    return format_move(move)  # type: ignore[arg-type]


def _without(cards: Hand, removed: Sequence[Card], strict: bool = True) -> Hand | None:
    """``cards`` less ``removed`` (sorted multisets, and so is the rest); ``None`` if not all
    are there, when ``strict``. Known cards lose one copy per card that left the hand (the
    public cannot tell which of equal cards left): ``strict=False``.
    """
    rest = list(cards)
    for card in removed:
        try:
            rest.remove(card)
        except ValueError:
            if strict:
                return None
    return tuple(rest)


def _do_swap(work: Work, move: Swap) -> None:
    seat = work.seat
    hand_card, up_card = move.hand_card, move.face_up_card
    if work.swaps >= MAX_SWAPS:
        raise IllegalMoveError(
            f"each player makes at most {MAX_SWAPS} swaps (enough for any arrangement); "
            f"seat {seat} has made them: declare 'ready'"
        )
    rest = _without(work.hands[seat], (hand_card,))
    if rest is None:
        raise IllegalMoveError(f"seat {seat} holds no {hand_card} in hand to swap")
    row = work.face_up[seat]
    if up_card not in row:
        raise IllegalMoveError(f"{up_card} is not in seat {seat}'s face-up row to swap")
    if hand_card == up_card:
        raise IllegalMoveError(f"swapping {hand_card} for an equal {up_card} changes nothing")
    slot = row.index(up_card)
    work.hands[seat] = tuple(sorted((*rest, up_card)))
    known = _without(work.known[seat], (hand_card,), strict=False) or ()
    work.known[seat] = tuple(sorted((*known, up_card)))
    work.face_up[seat] = (*row[:slot], hand_card, *row[slot + 1 :])
    work.swaps += 1
    if work.events is not None:
        work.events.append(ev.Swapped(seat, hand_card, up_card))


def _do_ready(work: Work) -> None:
    seat = work.seat
    if work.events is not None:
        work.events.append(ev.Readied(seat))
    work.swaps = 0
    if seat + 1 < work.config.players:
        work.seat = seat + 1
        return
    work.phase = "play"
    work.seat = first_player(work.config, work.hands)
    if work.events is not None:
        work.events.append(ev.Started(work.seat))


def _do_play(work: Work, move: Play) -> None:
    state = work.state
    seat = state.seat
    cards = move.cards
    rank = cards[0].rank
    if cards[-1].rank != rank:  # cards are sorted: by rank first
        raise IllegalMoveError(f"a play lays cards of one rank, not {cards_text(cards)}")
    source, where = play_source(state, seat)
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
        up = tuple(sorted(card for card in state.face_up[seat] if card))
        mixed = where == "hand" and _without(up, cards) is not None
        if mixed and state.config.face_up_play == "from_table":
            raise IllegalMoveError(
                "face-up cards are played from the table only once the hand is empty, "
                "never mixed with hand cards"
            )
        place = "in hand" if where == "hand" else "in the face-up row"
        raise IllegalMoveError(f"seat {seat} does not hold {cards_text(cards)} {place}")
    if state.pending == "extra" and len(cards) > EXTRA_PLAY_MOST:
        raise IllegalMoveError(
            f"an extra play after four of a kind lays 1 to {EXTRA_PLAY_MOST} cards of one "
            f"rank, not {len(cards)}"
        )
    if not _allowed(state)[rank]:
        top = state.pile[-1]
        if rank == top.rank:
            raise IllegalMoveError(
                f"{cards[0]} is not higher than the {top} on the pile: must_beat is 'higher'"
            )
        raise IllegalMoveError(f"{cards[0]} is lower than the {top} on the pile")
    if where == "hand":
        work.hands[seat] = rest
        if work.known[seat]:
            work.known[seat] = _without(work.known[seat], cards, strict=False) or ()
    else:
        row = list(work.face_up[seat])
        for card in cards:
            row[row.index(card)] = None  # the lowest slot holding an equal card
        work.face_up[seat] = tuple(row)
    _lay(work, seat, cards, where, None)


def _lay(work: Work, seat: Seat, cards: tuple[Card, ...], where: Source, slot: int | None) -> None:
    """``cards`` go on the pile: burn, refill, face-up cards into the hand, then finishing,
    a replay, an extra play or the end of the turn.
    """
    config = work.config
    pile = work.pile + cards
    events = work.events
    if events is not None:
        events.append(ev.Played(seat, cards, where, slot))
    burn = cards[0].rank == 10 or (config.quad == "burn" and top_run(pile) >= 4)
    if burn:
        work.burned += pile
        pile = ()
        if events is not None:
            events.append(ev.Burned(work.pile + cards))
    work.pile = pile
    _refill(work, seat)
    _face_up_into_hand(work, seat)
    if not (work.hands[seat] or any(work.face_up[seat]) or any(work.face_down[seat])):
        _finish(work, seat)
    elif burn:
        work.pending = "replay"
    elif config.quad == "extra_play" and len(cards) >= 4:
        work.pending = "extra"
    else:
        _pass_turn(work, seat)


def _refill(work: Work, seat: Seat) -> None:
    """After every play, while the stock lasts, draw up to ``hand_size`` cards in hand."""
    stock = work.stock
    hand = work.hands[seat]
    short = work.config.hand_size - len(hand)
    if stock and short > 0:
        drawn = stock[:short]
        work.stock = stock[short:]
        work.hands[seat] = tuple(sorted(hand + drawn))
        if work.events is not None:
            work.events.append(ev.Drew(seat, drawn))


def _face_up_into_hand(work: Work, seat: Seat) -> None:
    """Under ``take_into_hand``, face-up cards go openly into the emptied hand once stock is out."""
    if work.hands[seat] or work.stock or work.config.face_up_play != "take_into_hand":
        return
    up = tuple(card for card in work.face_up[seat] if card is not None)
    if not up:
        return
    work.hands[seat] = work.known[seat] = tuple(sorted(up))
    work.face_up[seat] = (None,) * ROW
    if work.events is not None:
        work.events.append(ev.TookFaceUp(seat, up))


def _finish(work: Work, seat: Seat) -> None:
    """``seat`` has no cards left: it finished; the game ends as ``play_until`` says."""
    work.finished += (seat,)
    holding = work.config.players - len(work.finished)
    if work.events is not None:
        work.events.append(ev.Finished(seat, len(work.finished) - 1, holding))
    if work.config.play_until == "first_out" or holding <= 1:
        _game_over(work, "finished")
    else:
        _pass_turn(work, seat)


def _pass_turn(work: Work, seat: Seat) -> None:
    """The turn passes to the next seat holding cards (counted toward ``max_turns``); a 3 on
    top makes that seat take the pile.
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
        work.events.append(ev.TurnPassed(following, work.turns, must_take))


def _game_over(work: Work, reason: Literal["finished", "max_turns"]) -> None:
    work.phase = "over"
    work.pending = "none"
    if work.events is not None:
        scores = _scores(work.config.players, work.finished)
        work.events.append(ev.GameOver(reason, scores, frozenset(work.finished[:1])))


def _do_take(work: Work) -> None:
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
        source, where = play_source(state, seat)
        if where == "face_down":
            raise IllegalMoveError(
                "a player who can play does not take the pile: turn a face-down card "
                "('blind' and its slot); voluntary_pickup would allow it"
            )
        plays = _plays(source, _allowed(state), len(source))
        if plays:
            raise IllegalMoveError(
                f"a player who can play does not take the pile: "
                f"{cards_text(cast(Play, plays[0]).cards)} goes on the {state.pile[-1]} "
                f"(voluntary_pickup would allow it)"
            )
    _take_pile(work, seat, state.pile)


def _take_pile(work: Work, seat: Seat, taken: tuple[Card, ...]) -> None:
    """``taken`` (the pile, and a blind card) goes into the hand in view of all; the turn ends."""
    work.hands[seat] = tuple(sorted(work.hands[seat] + taken))
    work.known[seat] = tuple(sorted(work.known[seat] + taken))
    work.pile = ()
    if work.events is not None:
        work.events.append(ev.TookPile(seat, taken))
    _pass_turn(work, seat)


def _do_blind(work: Work, slot: int) -> None:
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
        work.events.append(ev.TurnedBlind(seat, slot, card))
    _take_pile(work, seat, (*state.pile, card))


def _do_end_turn(work: Work) -> None:
    if work.state.pending != "extra":
        raise IllegalMoveError(
            "'end' ends a turn only after four of a kind (quad='extra_play'); "
            "otherwise a turn ends by playing or taking the pile"
        )
    if work.events is not None:
        work.events.append(ev.EndedTurn(work.seat))
    _pass_turn(work, work.seat)


def canonical(state: State, move: Move) -> Move:
    """The listed move equivalent to ``move``: a :class:`Play` of held cards of a listed
    play's rank and count maps to that play; ``IllegalMoveError`` naming the rule, as
    ``apply`` would, when none is.

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
    legal = legal_moves(state)
    for listed in legal:
        if type(listed) is type(move) and listed == move:
            return listed
    transition(state, move, None)  # raises IllegalMoveError naming the rule
    key = action_key(move)  # the transition accepted held cards of a listed (rank, count)
    for listed in legal:
        if type(listed) is Play and action_key(listed) is key:
            return listed
    raise AssertionError(f"apply accepted {move!r}, which no listed move is equivalent to")


def read_move_in(state: State, text: str) -> Move:
    """The listed legal move ``text`` names in ``state`` (``parse_move`` reads with it):
    ``play 7 7`` names the player's own cards; ``IllegalMoveError`` naming the rule.

    >>> from tabletop_rules.palace import Ready, apply, format_move, new_game, parse_move, view
    >>> state = apply(apply(new_game(seed=1), Ready()), Ready())
    >>> format_move(parse_move(view(state, 0), "play 4 4"))
    'play 4D 4S'
    >>> parse_move(view(state, 1), "take")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.IllegalMoveError: seat 1 has no move now: ... another seat is to move (0)
    """
    named = read_words(text)
    if not isinstance(named, tuple):
        return canonical(state, named)
    rank, count = named
    source, where = play_source(state, state.seat)
    if state.phase != "play" or state.pending == "take" or where == "face_down":
        return canonical(state, stand_in(rank, count))  # refused, naming the rule
    held = tuple(card for card in source if card.rank == rank)
    if len(held) >= count:
        return canonical(state, Play(held[:count]))
    if held:
        transition(state, Play(held), None)  # a rule against the rank itself is named first
    place = "in hand" if where == "hand" else "in the face-up row"
    have = f"only {len(held)}" if held else "no"
    raise IllegalMoveError(
        f"seat {state.seat} holds {have} {RANK_TEXT[rank]}s {place}, not {count}"
    )
