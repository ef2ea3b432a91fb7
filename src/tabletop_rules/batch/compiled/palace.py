"""Palace's batched kernel compiled: :class:`CompiledPalaceEngine` deals, plays a step and
writes its record as compiled loops over the games, into the very arrays
:class:`~tabletop_rules.batch.palace.PalaceEngine` writes.

>>> import numpy as np
>>> from tabletop_rules import palace
>>> from tabletop_rules.batch.palace import PalaceEngine
>>> compiled = CompiledPalaceEngine(palace.Config(), size=2)
>>> engine = PalaceEngine(palace.Config(), size=2)
>>> seeds = np.array([7, 8], dtype=np.uint64)
>>> a, b = compiled.reset(seeds), engine.reset(seeds)
>>> a, b = compiled.step(a, np.array([0, 0])), engine.step(b, np.array([0, 0]))
>>> compiled.state(a, 1) == engine.state(b, 1)
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ...palace.config import ROW
from ...palace.moves import PLAY_BASE, SWAP_BASE
from ...palace.rules import EXTRA_PLAY_MOST
from ...palace.state import MAX_SWAPS
from .. import palace as kernel
from ..frame import NOBODY, Games
from . import jit
from .rng import shuffle

__all__ = ["CompiledPalaceEngine"]

Array = NDArray[Any]


class _State(NamedTuple):
    """A batch's ``data`` arrays by name (the NumPy kernel's layout)."""

    seed: Array
    deal: Array
    hands: Array
    known: Array
    hand_size: Array
    face_up: Array
    face_down: Array
    stock_from: Array
    pile: Array
    pile_size: Array
    pile_counts: Array
    top: Array
    top_run: Array
    burned: Array
    burned_size: Array
    phase: Array
    seat: Array
    turns: Array
    swaps: Array
    pending: Array
    places: Array


class _Record(NamedTuple):
    """The rest of a ``Games``: what a step shows of each game."""

    listed: Array  # (size, most + 1) each game's legal actions ascending, the rest scratch
    counts: Array  # (size,) how many each game has
    player: Array
    scores: Array
    over: Array


class _Numbers(NamedTuple):
    """The config's house rules, and the numbers of the NumPy kernel and the rules the
    compiled code compares with: arguments, not globals, which numba's cache (keyed on this
    file alone) would keep from a former version of the files that define them.
    """

    players: int
    hand_size: int
    cards: int
    quad_burns: int
    from_table: int
    voluntary: int
    lowest_first: int
    until_last: int
    max_turns: int
    num_actions: int
    kinds: int  # the deck's geometry
    ranks: int
    suits: int
    row: int
    phase_swap: int  # the phases and what the seat on turn owes
    phase_play: int
    phase_over: int
    owes_none: int
    owes_take: int
    owes_extra: int
    owes_replay: int
    ready: int  # the action numbers
    take: int
    end: int
    blind: int
    swap_base: int
    play_base: int
    max_swaps: int
    extra_most: int
    nobody: int
    nothing_goes: int  # the row of ``allowed`` below the top ranks': no rank goes


_FIXED = frozenset({"seed", "deal"})
"""The arrays a step never writes: the new ``Games`` shares the old one's."""


class CompiledPalaceEngine(kernel.PalaceEngine):
    """:class:`~tabletop_rules.batch.palace.PalaceEngine` with its deal, step and record
    compiled: the same ``Games``, array for array.
    """

    game = "palace"

    def _prepare(self) -> None:
        super()._prepare()
        config = self.config
        self._numbers = _Numbers(
            players=config.players,
            hand_size=config.hand_size,
            cards=config.cards,
            quad_burns=int(config.quad == "burn"),
            from_table=int(config.face_up_play == "from_table"),
            voluntary=int(config.voluntary_pickup),
            lowest_first=int(config.first_player == "lowest_card"),
            until_last=int(config.play_until == "last"),
            max_turns=config.max_turns,
            num_actions=self.num_actions,
            kinds=kernel.KINDS,
            ranks=kernel.RANKS,
            suits=kernel.SUITS,
            row=ROW,
            phase_swap=kernel.SWAP,
            phase_play=kernel.PLAY,
            phase_over=kernel.OVER,
            owes_none=kernel.NONE,
            owes_take=kernel.TAKE,
            owes_extra=kernel.EXTRA,
            owes_replay=kernel.REPLAY,
            ready=kernel.READY_ACTION,
            take=kernel.TAKE_ACTION,
            end=kernel.END_ACTION,
            blind=kernel.BLIND_ACTION,
            swap_base=SWAP_BASE,
            play_base=PLAY_BASE,
            max_swaps=MAX_SWAPS,
            extra_most=EXTRA_PLAY_MOST,
            nobody=NOBODY,
            nothing_goes=self.allowed.shape[0],
        )
        # ``allowed`` with a row below where no rank goes: the row of a seat owing the take
        self._goes = np.vstack([self.allowed, np.zeros_like(self.allowed[:1])])
        # the arrays' shapes and dtypes, as the NumPy kernel deals them
        one = kernel.PalaceEngine(config, 1)._reset(np.zeros(1, dtype=np.uint64))
        self._layout = {name: (value.shape[1:], value.dtype) for name, value in one.data.items()}
        self._most = _most_legal(self.num_actions, PLAY_BASE, SWAP_BASE, kernel.KINDS, ROW)
        self._idle = np.zeros(self.size, dtype=bool)
        self._no_actions = np.zeros(self.size, dtype=np.int64)

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        data = {
            name: np.empty((self.size, *shape), dtype=dtype)
            for name, (shape, dtype) in self._layout.items()
        }
        return self._dealt_where(data, seeds, np.ones(self.size, dtype=bool))

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Only the games ``where`` are dealt; the others' rows are copied as they are, and
        every record written again.
        """
        data = {name: value.copy() for name, value in games.data.items()}
        return self._dealt_where(data, seeds, where.copy())

    def _dealt_where(
        self, data: dict[str, Array], seeds: NDArray[np.uint64], where: NDArray[np.bool_]
    ) -> Games:
        _deal(seeds, where, self._numbers, _State(**data))
        for name in _FIXED:  # read-only, as a step finds them: one compiled signature
            data[name].flags.writeable = False
        return self._advanced(data, self._no_actions, self._idle)

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        data = {
            name: value if name in _FIXED else value.copy() for name, value in games.data.items()
        }
        return self._advanced(data, actions, playing)

    def _step_restarting(
        self,
        games: Games,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64],
    ) -> Games:
        """One compiled call plays the step into copies of the arrays, deals the games
        over into those rows alone and writes the record once.
        """
        data = {name: value.copy() for name, value in games.data.items()}
        return self._advanced(data, actions, playing, seeds)

    def _advanced(
        self,
        data: dict[str, Array],
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64] | None = None,
    ) -> Games:
        """``data`` (new arrays) after the games ``playing`` play (with ``seeds``, those
        then over dealt again), and its new record: the legal actions as lists as wide as
        this batch's longest (the mask made on first read).
        """
        size = self.size
        record = _Record(
            listed=np.empty((size, self._most + 1), dtype=np.int16),  # a spare column
            counts=np.empty(size, dtype=np.int64),
            player=np.empty(size, dtype=np.int64),
            scores=np.empty((size, self.players), dtype=np.int64),
            over=np.empty(size, dtype=bool),
        )
        if seeds is None:
            legal_actions = _advance(
                actions, playing, self._numbers, self._goes, kernel._NATURAL, _State(**data), record
            )
        else:
            legal_actions = _advance_restarting(
                actions,
                playing,
                seeds,
                self._numbers,
                self._goes,
                kernel._NATURAL,
                _State(**data),
                record,
            )
        return Games._made(
            current_player=record.player,
            legal_actions=legal_actions,
            num_actions=self.num_actions,
            scores=record.scores,
            over=record.over,
            data=data,
        )


def _most_legal(num_actions: int, play_base: int, swap_base: int, kinds: int, row: int) -> int:
    """The most actions a game can have legal at once, by the record's own construction
    (each action it lists, it lists once): in the swap phase ``ready`` and swaps of a hand
    card (at most ``kinds`` distinct ones) for a face-up card (at most ``row`` distinct),
    no other; in play no swap, so at most the ``swap_base`` actions before the swaps and
    every play. 214 at four decks; the lists handed on are as wide as a batch's longest.
    """
    return max(1 + kinds * row, swap_base + num_actions - play_base)


# --- compiled: one call a batch; ``g`` is a game, ``s`` its seat on turn -----------------


@jit
def _deal(seeds: Array, where: Array, n: _Numbers, state: _State) -> None:
    """Each game ``where`` dealt from its seed, as ``new_game`` deals."""
    players, held, row = n.players, n.hand_size, n.row
    hands, face_up, face_down = state.hands, state.face_up, state.face_down
    kinds_of = np.arange(state.deal.shape[1]) % n.kinds
    for g in range(seeds.shape[0]):
        if not where[g]:
            continue
        state.seed[g] = seeds[g]
        cards = state.deal[g]
        for k in range(cards.shape[0]):  # the decks in order, each card its number
            cards[k] = kinds_of[k]
        shuffle(seeds[g], cards)
        hands[g] = 0
        state.known[g] = 0
        for p in range(players):  # a card at a time in seat order: face down, face up, hand
            for slot in range(row):
                face_down[g, p, slot] = cards[slot * players + p]
                face_up[g, p, slot] = cards[(row + slot) * players + p]
            for k in range(held):
                hands[g, p, cards[(2 * row + k) * players + p]] += 1
            state.hand_size[g, p] = held
            state.places[g, p] = 0
        state.stock_from[g] = players * (2 * row + held)
        state.pile[g] = -1
        state.pile_size[g] = 0
        state.pile_counts[g] = 0
        state.top[g] = 0
        state.top_run[g] = 0
        state.burned[g] = -1
        state.burned_size[g] = 0
        state.phase[g] = n.phase_swap
        state.seat[g] = 0
        state.turns[g] = 0
        state.swaps[g] = 0
        state.pending[g] = n.owes_none


@jit
def _advance(
    actions: Array,
    playing: Array,
    n: _Numbers,
    allowed: Array,
    natural: Array,
    state: _State,
    record: _Record,
) -> Array:
    """Each game ``playing`` makes its move; then every game's record is written, and its
    legal actions returned as ``(size, k)`` lists, ``k`` the longest (at least 1), -1
    after each game's own. Each helper loops over the games itself: a call LLVM does not
    inline passes every array's fields, too dear once a game.
    """
    _play(actions, playing, n, allowed, natural, state)
    _record(n, allowed, state, record)
    return _packed(record.listed, record.counts)


@jit
def _advance_restarting(
    actions: Array,
    playing: Array,
    seeds: Array,
    n: _Numbers,
    allowed: Array,
    natural: Array,
    state: _State,
    record: _Record,
) -> Array:
    """:func:`_advance` with the games over after the move dealt again from their seeds
    before the record is written: only their rows change.
    """
    _play(actions, playing, n, allowed, natural, state)
    _deal(seeds, state.phase == n.phase_over, n, state)
    _record(n, allowed, state, record)
    return _packed(record.listed, record.counts)


@jit
def _packed(listed: Array, counts: Array) -> Array:
    """``listed``'s first ``counts[g]`` actions of each game ``g``, then -1, as wide as the
    longest list (at least 1: a list is read by rank even where there is none).
    """
    size = counts.shape[0]
    width = 1
    for g in range(size):
        width = max(width, counts[g])
    packed = np.empty((size, width), dtype=np.int16)
    for g in range(size):  # the row whole, a select in each place: one loop LLVM vectorizes
        c = counts[g]
        for k in range(width):
            packed[g, k] = listed[g, k] if k < c else -1
    return packed


@jit
def _play(
    actions: Array, playing: Array, n: _Numbers, allowed: Array, natural: Array, state: _State
) -> None:
    """Each game ``playing``'s seat on turn makes its move (legal), with all its effects:
    a burn, the refill, face-up cards into the hand, finishing, a replay, an extra play or
    the turn passing.
    """
    hands, known, hand_size, face_up = state.hands, state.known, state.hand_size, state.face_up
    face_down, stock_from, pile, pile_size = (
        state.face_down,
        state.stock_from,
        state.pile,
        state.pile_size,
    )
    pile_counts, top, top_run, phase = state.pile_counts, state.top, state.top_run, state.phase
    seat, turns, swaps, pending = state.seat, state.turns, state.swaps, state.pending
    burned, burned_size, places, deal = state.burned, state.burned_size, state.places, state.deal
    kinds, ranks, suits, row = n.kinds, n.ranks, n.suits, n.row
    for g in range(actions.shape[0]):
        if not playing[g]:
            continue
        action, s = actions[g], seat[g]
        if phase[g] == n.phase_swap:
            if action >= n.play_base:  # a move no list of the record's own allows
                raise IndexError("a play in the swap phase")
            if action >= n.swap_base:  # a hand card for a face-up card
                hand_card, up_card = (action - n.swap_base) // kinds, (action - n.swap_base) % kinds
                hands[g, s, hand_card] -= 1
                hands[g, s, up_card] += 1
                known[g, s, hand_card] = max(known[g, s, hand_card] - 1, 0)
                known[g, s, up_card] += 1
                for slot in range(row):
                    if face_up[g, s, slot] == up_card:  # the first equal card
                        face_up[g, s, slot] = hand_card
                        break
                swaps[g] += 1
            else:  # ready
                swaps[g] = 0
                if s + 1 < n.players:
                    seat[g] = s + 1
                else:
                    phase[g] = n.phase_play
                    seat[g] = _first_player(g, n, natural, hands)
            continue
        at = pile_size[g]  # the cards laid go on the pile in card order
        if action >= n.play_base:
            rank, count = (action - n.play_base) % ranks, (action - n.play_base) // ranks + 1
            if hand_size[g, s] > 0:  # from the hand, the lowest suits first
                left = count
                for card in range(suits * rank, suits * rank + suits):
                    taken = min(left, hands[g, s, card])
                    hands[g, s, card] -= taken
                    known[g, s, card] = max(known[g, s, card] - taken, 0)
                    if at + taken > pile.shape[1]:  # more cards than the deck: no game's
                        raise IndexError("a play beyond the pile's room")
                    for _ in range(taken):
                        pile[g, at] = card
                        at += 1
                    left -= taken
                hand_size[g, s] -= count
            else:  # from the face-up row: the lowest cards, of equal ones the lowest slot
                for _ in range(count):
                    lowest = -1
                    for slot in range(row):
                        card = face_up[g, s, slot]
                        of_rank = card >= 0 and card // suits == rank
                        if of_rank and (lowest < 0 or card < face_up[g, s, lowest]):
                            lowest = slot
                    if lowest < 0 or at >= pile.shape[1]:  # a play no list of its own allows
                        raise IndexError("a face-up play of cards not on the table")
                    pile[g, at] = face_up[g, s, lowest]
                    at += 1
                    face_up[g, s, lowest] = -1
        elif action >= n.blind:
            slot = action - n.blind
            if slot >= row or face_down[g, s, slot] < 0:  # a move no list of the record's
                raise IndexError("a blind play of a face-down slot that is empty")
            card = face_down[g, s, slot]
            face_down[g, s, slot] = -1
            rank, count = card // suits, 1
            if allowed[top[g], rank]:
                if at >= pile.shape[1]:
                    raise IndexError("a play beyond the pile's room")
                pile[g, at] = card
                at += 1
            else:  # it goes into the hand with the pile
                hands[g, s, card] += 1
                known[g, s, card] += 1
                hand_size[g, s] += 1
                action = n.take
        if action == n.take:
            _take_pile(g, s, hands, known, hand_size, pile, pile_size, pile_counts, top, top_run)
        if action in (n.take, n.end):
            _pass_turn(g, n, phase, seat, turns, pending, places, top)
            continue
        # the cards laid take effect
        size = at
        for k in range(pile_size[g], size):
            pile_counts[g, pile[g, k]] += 1
        run = (top_run[g] if top[g] == rank + 2 else 0) + count
        burn = rank + 2 == 10 or (n.quad_burns != 0 and run >= 4)
        if burn and burned_size[g] + size > burned.shape[1]:
            raise IndexError("a burn beyond the room of the burned cards")
        if burn:  # the whole pile leaves the game, bottom first
            for k in range(size):
                burned[g, burned_size[g] + k] = pile[g, k]
                pile[g, k] = -1
            burned_size[g] += size
            pile_counts[g] = 0
            pile_size[g] = 0
            top[g] = 0
            top_run[g] = 0
        else:
            pile_size[g] = size
            top[g] = rank + 2
            top_run[g] = run
        draw = min(max(n.hand_size - hand_size[g, s], 0), n.cards - stock_from[g])
        for k in range(stock_from[g], stock_from[g] + draw):  # the refill from the stock
            if not 0 <= deal[g, k] < kinds:
                raise IndexError("a card of the deal that is no card")
            hands[g, s, deal[g, k]] += 1
        hand_size[g, s] += draw
        stock_from[g] += draw
        face = 0  # the face-up and face-down cards left
        for slot in range(row):
            face += (face_up[g, s, slot] >= 0) + (face_down[g, s, slot] >= 0)
        if hand_size[g, s] == 0 and n.from_table == 0 and stock_from[g] == n.cards:
            known[g, s] = 0  # the face-up cards go into the hand, in view of all
            for slot in range(row):
                card = face_up[g, s, slot]
                if card >= 0:
                    hands[g, s, card] += 1
                    known[g, s, card] += 1
                    hand_size[g, s] += 1
                    face_up[g, s, slot] = -1
        if hand_size[g, s] == 0 and face == 0:  # the seat finished
            place = 1
            for p in range(n.players):
                place += places[g, p] > 0
            places[g, s] = place
            if n.until_last == 0 or n.players - place <= 1:
                phase[g] = n.phase_over
                pending[g] = n.owes_none
            else:
                _pass_turn(g, n, phase, seat, turns, pending, places, top)
        elif burn:
            pending[g] = n.owes_replay
        elif n.quad_burns == 0 and count >= 4:
            pending[g] = n.owes_extra
        else:
            _pass_turn(g, n, phase, seat, turns, pending, places, top)


@jit
def _first_player(g: int, n: _Numbers, natural: Array, hands: Array) -> int:
    """Who plays first: the first seat holding the lowest natural card, or seat 0."""
    lowest, first = n.ranks, 0
    if n.lowest_first:
        for p in range(n.players):
            for rank in range(lowest):
                if natural[rank] and hands[g, p, n.suits * rank : n.suits * (rank + 1)].any():
                    lowest, first = rank, p
                    break
    return first


@jit
def _take_pile(
    g: int, s: int, hands: Array, known: Array, hand_size: Array, pile: Array, pile_size: Array,
    pile_counts: Array, top: Array, top_run: Array,
) -> None:  # fmt: skip
    """The pile goes into the hand in view of all."""
    for card in range(pile_counts.shape[1]):
        hands[g, s, card] += pile_counts[g, card]
        known[g, s, card] += pile_counts[g, card]
        pile_counts[g, card] = 0
    hand_size[g, s] += pile_size[g]
    for k in range(pile_size[g]):
        pile[g, k] = -1
    pile_size[g] = 0
    top[g] = 0
    top_run[g] = 0


@jit
def _pass_turn(
    g: int, n: _Numbers, phase: Array, seat: Array, turns: Array, pending: Array,
    places: Array, top: Array,
) -> None:  # fmt: skip
    """The turn passes to the next seat still holding cards, or the turns run out; a 3 on
    top makes that seat take the pile.
    """
    turns[g] += 1
    if turns[g] >= n.max_turns:
        phase[g] = n.phase_over
        pending[g] = n.owes_none
        return
    following = (seat[g] + 1) % n.players
    left = n.players  # past the seats that finished (play_until "last"), at most once
    while places[g, following] > 0 and left > 0:  # round: a written record may have none
        following = (following + 1) % n.players
        left -= 1
    seat[g] = following
    pending[g] = n.owes_take if top[g] == 3 else n.owes_none


@jit
def _record(n: _Numbers, allowed: Array, state: _State, record: _Record) -> None:
    """Each game's legal actions ascending (the moves ``legal_moves`` lists), seat to move,
    scores and end.
    """
    hands, hand_size, face_up, face_down = (
        state.hands,
        state.hand_size,
        state.face_up,
        state.face_down,
    )
    top, phase, seat, pending, places = (
        state.top,
        state.phase,
        state.seat,
        state.pending,
        state.places,
    )
    listed, legal_counts, scores, over = record.listed, record.counts, record.scores, record.over
    players, kinds, ranks, row = n.players, n.kinds, n.ranks, n.row
    counts = (n.num_actions - n.play_base) // ranks  # the most cards a play lays
    # a rank's four suits as one word: the word times 0x01010101 has its count in the top byte
    by_rank = hands.view(np.uint32)
    held_of = np.zeros(ranks, dtype=np.int64)  # per rank, how many of it the seat may lay
    ups = np.zeros(row, dtype=np.int64)  # the face-up cards, distinct, ascending
    for g in range(over.shape[0]):
        for p in range(players):
            scores[g, p] = players - places[g, p] if places[g, p] > 0 else 0
        at = 0
        over[g] = phase[g] == n.phase_over
        if over[g]:
            record.player[g] = n.nobody
            legal_counts[g] = 0
            continue
        s = seat[g]
        record.player[g] = s
        if phase[g] == n.phase_swap:
            listed[g, at] = n.ready
            at += 1
            if state.swaps[g] < n.max_swaps:  # each hand card for each other face-up card
                distinct = 0
                for slot in range(row):
                    up = face_up[g, s, slot]
                    place = distinct
                    while place > 0 and ups[place - 1] > up:
                        place -= 1
                    if place > 0 and ups[place - 1] == up:
                        continue  # an equal card (more than one deck): one action
                    for k in range(distinct, place, -1):
                        ups[k] = ups[k - 1]
                    ups[place] = up
                    distinct += 1
                for card in range(kinds):
                    if hands[g, s, card] > 0:
                        for k in range(distinct):
                            if ups[k] != card:
                                listed[g, at] = n.swap_base + kinds * card + ups[k]
                                at += 1
            legal_counts[g] = at
            continue
        owed = pending[g]
        in_hand = hand_size[g, s] > 0
        on_table = False  # cards to play from the face-up row (from_table, the hand empty)
        if n.from_table != 0 and not in_hand:
            for slot in range(row):
                on_table |= face_up[g, s, slot] >= 0
        # how many of each rank the seat holds where it plays from (the hand, or the row)
        if in_hand:
            for rank in range(ranks):
                held_of[rank] = (int(by_rank[g, s, rank]) * 0x01010101 >> 24) & 0xFF
        else:
            held_of[:] = 0
            if on_table:
                for slot in range(row):
                    up = face_up[g, s, slot]
                    if up >= 0:
                        held_of[up // n.suits] += 1
        # then how many it may lay, branch-free: whether a rank may go on the top card is
        # as likely as not, and a branch on it was mispredicted half the time
        t = top[g] if owed != n.owes_take else n.nothing_goes  # the row of all False
        cap = min(n.extra_most, counts) if owed == n.owes_extra else counts
        most = 0  # the most cards of one rank the seat may lay
        for rank in range(ranks):
            held = min(held_of[rank], cap) * allowed[t, rank]
            held_of[rank] = held
            most = max(most, held)
        can_play = most > 0
        holding = in_hand or on_table
        if owed == n.owes_take or (
            owed == n.owes_none
            and state.pile_size[g] > 0
            and ((holding and not can_play) or n.voluntary != 0)
        ):
            listed[g, at] = n.take
            at += 1
        if owed == n.owes_extra:
            listed[g, at] = n.end
            at += 1
        if not holding and owed != n.owes_take and owed != n.owes_extra:
            for slot in range(row):
                if face_down[g, s, slot] >= 0:
                    listed[g, at] = n.blind + slot
                    at += 1
        for count in range(most):  # a play's number: its count, then its rank
            for rank in range(ranks):  # written always, kept if held (branch-free)
                listed[g, at] = n.play_base + ranks * count + rank
                at += held_of[rank] > count
        legal_counts[g] = at
