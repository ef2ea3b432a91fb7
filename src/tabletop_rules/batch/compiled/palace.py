"""Palace's batched kernel compiled: :class:`CompiledPalaceEngine` plays a step, and deals
the games that restart, as one compiled loop over the games, into the very arrays
:class:`~tabletop_rules.batch.palace.PalaceEngine` writes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...palace.config import ROW
from ...palace.moves import PLAY_BASE, SWAP_BASE
from ...palace.rules import EXTRA_PLAY_MOST
from ...palace.state import MAX_SWAPS
from ..frame import NOBODY, Games
from ..palace import (
    _NATURAL,
    BLIND_ACTION,
    END_ACTION,
    EXTRA,
    KINDS,
    NONE,
    OVER,
    PLAY,
    RANKS,
    READY_ACTION,
    REPLAY,
    SUITS,
    SWAP,
    TAKE,
    TAKE_ACTION,
    PalaceEngine,
)
from . import jit
from .rng import shuffle

__all__ = ["CompiledPalaceEngine"]

Array = NDArray[Any]

CHANGING = (
    "hands",
    "known",
    "hand_size",
    "face_up",
    "face_down",
    "stock_from",
    "pile",
    "pile_size",
    "pile_counts",
    "top",
    "top_run",
    "burned",
    "burned_size",
    "phase",
    "seat",
    "turns",
    "swaps",
    "pending",
    "places",
)
"""The ``Games.data`` arrays a step may change, in the order the compiled code unpacks them
(the ``work`` tuple); ``seed`` and ``deal`` change only when a game is dealt."""

(PLAYERS, HAND_SIZE, CARDS, QUAD_BURN, FROM_TABLE, VOLUNTARY, LOWEST_FIRST, UNTIL_LAST,
 MAX_TURNS) = range(9)  # fmt: skip
"""The places of the config's numbers in the ``settings`` array the compiled code reads."""


class CompiledPalaceEngine(PalaceEngine):
    """:class:`~tabletop_rules.batch.palace.PalaceEngine` with its deal, step and record
    compiled: the same ``Games`` arrays, written game by game in one call.
    """

    def _prepare(self) -> None:
        super()._prepare()
        config = self.config
        self.settings = np.array(
            [
                config.players,
                config.hand_size,
                config.cards,
                config.quad == "burn",
                config.face_up_play == "from_table",
                config.voluntary_pickup,
                config.first_player == "lowest_card",
                config.play_until == "last",
                config.max_turns,
            ],
            dtype=np.int64,
        )
        # the arrays' shapes and dtypes, as the NumPy kernel deals them
        one = PalaceEngine(config, 1)._reset(np.zeros(1, dtype=np.uint64))
        self.layout = {name: (value.shape[1:], value.dtype) for name, value in one.data.items()}
        self.idle = np.zeros(self.size, dtype=bool)
        self.no_actions = np.zeros(self.size, dtype=np.int64)

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        data = {
            name: np.empty((self.size, *shape), dtype=dtype)
            for name, (shape, dtype) in self.layout.items()
        }
        return self._dealt(data, seeds, np.ones(self.size, dtype=bool))

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Only the games ``where`` are dealt; the others' rows are copied as they are."""
        data = {name: value.copy() for name, value in games.data.items()}
        return self._dealt(data, seeds, where.copy())

    def _dealt(
        self, data: dict[str, Array], seeds: NDArray[np.uint64], where: NDArray[np.bool_]
    ) -> Games:
        work = tuple(data[name] for name in CHANGING)
        _deal(seeds, where, self.settings, data["seed"], data["deal"], work)
        data["deal"].flags.writeable = False  # as a step reads it: one compiled signature
        return self._advanced(data, self.no_actions, self.idle)

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        data = dict(games.data)  # the seed and the deal kept, the others copied
        data.update((name, data[name].copy()) for name in CHANGING)
        return self._advanced(data, actions, playing)

    def _advanced(
        self, data: dict[str, Array], actions: NDArray[np.int64], playing: NDArray[np.bool_]
    ) -> Games:
        """``data`` (the copies) after the games ``playing`` play, and its new record."""
        n = self.size
        mask = np.empty((n, self.num_actions), dtype=bool)
        current_player = np.empty(n, dtype=np.int64)
        scores = np.empty((n, self.players), dtype=np.int64)
        over = np.empty(n, dtype=bool)
        work = tuple(data[name] for name in CHANGING)
        record = (mask, current_player, scores, over)
        _advance(
            actions, playing, self.settings, self.allowed, _NATURAL, data["deal"], work, record
        )
        return Games(
            current_player=current_player, legal_mask=mask, scores=scores, over=over, data=data
        )


# --- compiled: one call a batch; ``g`` is a game, ``s`` its seat on turn -----------------


@jit
def _deal(seeds: Any, where: Any, settings: Any, seed: Any, deal: Any, work: Any) -> None:
    """Each game ``where`` dealt from its seed, as ``new_game`` deals."""
    (hands, known, hand_size, face_up, face_down, stock_from, pile, pile_size, pile_counts,
     top, top_run, burned, burned_size, phase, seat, turns, swaps, pending, places) = work  # fmt: skip  # noqa: E501
    players, held = settings[PLAYERS], settings[HAND_SIZE]
    for g in range(seeds.shape[0]):
        if not where[g]:
            continue
        seed[g] = seeds[g]
        cards = deal[g]
        for k in range(cards.shape[0]):
            cards[k] = k % KINDS
        shuffle(seeds[g], cards)
        hands[g] = 0
        known[g] = 0
        for p in range(players):  # a card at a time in seat order: face down, face up, hand
            for slot in range(ROW):
                face_down[g, p, slot] = cards[slot * players + p]
                face_up[g, p, slot] = cards[(ROW + slot) * players + p]
            for k in range(held):
                hands[g, p, cards[(2 * ROW + k) * players + p]] += 1
            hand_size[g, p] = held
            places[g, p] = 0
        stock_from[g] = players * (2 * ROW + held)
        pile[g] = -1
        pile_size[g] = 0
        pile_counts[g] = 0
        top[g] = 0
        top_run[g] = 0
        burned[g] = -1
        burned_size[g] = 0
        phase[g] = SWAP
        seat[g] = 0
        turns[g] = 0
        swaps[g] = 0
        pending[g] = NONE


@jit
def _advance(
    actions: Any,
    playing: Any,
    settings: Any,
    allowed: Any,
    natural: Any,
    deal: Any,
    work: Any,
    record: Any,
) -> None:
    """Each game ``playing`` makes its move; every game's record is written. The tuples
    are unpacked once, and each helper loops over the games: an unpacking costs a reference
    count per array, and a call not inlined passes every array's fields.
    """
    (hands, known, hand_size, face_up, face_down, stock_from, pile, pile_size, pile_counts,
     top, top_run, burned, burned_size, phase, seat, turns, swaps, pending, places) = work  # fmt: skip  # noqa: E501
    mask, current_player, scores, over = record
    _play(
        actions, playing, settings, allowed, natural, deal, hands, known, hand_size, face_up,
        face_down, stock_from, pile, pile_size, pile_counts, top, top_run, burned, burned_size,
        phase, seat, turns, swaps, pending, places,
    )  # fmt: skip
    _record(
        settings, allowed, hands, hand_size, face_up, face_down, pile_size, top, phase, seat,
        swaps, pending, places, mask, current_player, scores, over,
    )  # fmt: skip


@jit
def _play(
    actions: Any, playing: Any, settings: Any, allowed: Any, natural: Any, deal: Any, hands: Any,
    known: Any, hand_size: Any, face_up: Any, face_down: Any, stock_from: Any, pile: Any,
    pile_size: Any, pile_counts: Any, top: Any, top_run: Any, burned: Any, burned_size: Any,
    phase: Any, seat: Any, turns: Any, swaps: Any, pending: Any, places: Any,
) -> None:  # fmt: skip
    """Each game ``playing``'s seat on turn makes its move (legal), with all its
    effects: a burn, the refill, face-up cards into the hand, finishing, a replay, an
    extra play or the turn passing.
    """
    for g in range(actions.shape[0]):
        if not playing[g]:
            continue
        action, s = actions[g], seat[g]
        if phase[g] == SWAP:
            if action >= SWAP_BASE:  # a hand card for a face-up card
                hand_card, up_card = (action - SWAP_BASE) // KINDS, (action - SWAP_BASE) % KINDS
                hands[g, s, hand_card] -= 1
                hands[g, s, up_card] += 1
                known[g, s, hand_card] = max(known[g, s, hand_card] - 1, 0)
                known[g, s, up_card] += 1
                for slot in range(ROW):
                    if face_up[g, s, slot] == up_card:  # the first equal card
                        face_up[g, s, slot] = hand_card
                        break
                swaps[g] += 1
            else:  # ready
                swaps[g] = 0
                if s + 1 < settings[PLAYERS]:
                    seat[g] = s + 1
                else:
                    phase[g] = PLAY
                    seat[g] = _first_player(g, settings, natural, hands)
            continue
        at = pile_size[g]  # the cards laid go on the pile in card order
        if action >= PLAY_BASE:
            rank, count = (action - PLAY_BASE) % RANKS, (action - PLAY_BASE) // RANKS + 1
            if hand_size[g, s] > 0:  # from the hand, the lowest suits first
                left = count
                for card in range(SUITS * rank, SUITS * rank + SUITS):
                    taken = min(left, hands[g, s, card])
                    hands[g, s, card] -= taken
                    known[g, s, card] = max(known[g, s, card] - taken, 0)
                    for _ in range(taken):
                        pile[g, at] = card
                        at += 1
                    left -= taken
                hand_size[g, s] -= count
            else:  # from the face-up row: the lowest cards, of equal ones the lowest slot
                for _ in range(count):
                    lowest = -1
                    for slot in range(ROW):
                        card = face_up[g, s, slot]
                        of_rank = card >= 0 and card // SUITS == rank
                        if of_rank and (lowest < 0 or card < face_up[g, s, lowest]):
                            lowest = slot
                    pile[g, at] = face_up[g, s, lowest]
                    at += 1
                    face_up[g, s, lowest] = -1
        elif action >= BLIND_ACTION:
            slot = action - BLIND_ACTION
            card = face_down[g, s, slot]
            face_down[g, s, slot] = -1
            rank, count = card // SUITS, 1
            if allowed[top[g], rank]:
                pile[g, at] = card
                at += 1
            else:  # it goes into the hand with the pile
                hands[g, s, card] += 1
                known[g, s, card] += 1
                hand_size[g, s] += 1
                action = TAKE_ACTION
        if action == TAKE_ACTION:
            _take_pile(g, s, hands, known, hand_size, pile, pile_size, pile_counts, top, top_run)
        if action in (TAKE_ACTION, END_ACTION):
            _pass_turn(g, settings, phase, seat, turns, pending, places, top)
            continue
        # the cards laid take effect
        size = at
        for k in range(pile_size[g], size):
            pile_counts[g, pile[g, k]] += 1
        run = (top_run[g] if top[g] == rank + 2 else 0) + count
        burn = rank + 2 == 10 or (settings[QUAD_BURN] != 0 and run >= 4)
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
        draw = min(max(settings[HAND_SIZE] - hand_size[g, s], 0), settings[CARDS] - stock_from[g])
        for k in range(stock_from[g], stock_from[g] + draw):  # the refill from the stock
            hands[g, s, deal[g, k]] += 1
        hand_size[g, s] += draw
        stock_from[g] += draw
        face = 0  # the face-up and face-down cards left
        for slot in range(ROW):
            face += (face_up[g, s, slot] >= 0) + (face_down[g, s, slot] >= 0)
        if hand_size[g, s] == 0 and settings[FROM_TABLE] == 0 and stock_from[g] == settings[CARDS]:
            known[g, s] = 0  # the face-up cards go into the hand, in view of all
            for slot in range(ROW):
                card = face_up[g, s, slot]
                if card >= 0:
                    hands[g, s, card] += 1
                    known[g, s, card] += 1
                    hand_size[g, s] += 1
                    face_up[g, s, slot] = -1
        if hand_size[g, s] == 0 and face == 0:  # the seat finished
            place = 1
            for p in range(settings[PLAYERS]):
                place += places[g, p] > 0
            places[g, s] = place
            if settings[UNTIL_LAST] == 0 or settings[PLAYERS] - place <= 1:
                phase[g] = OVER
                pending[g] = NONE
            else:
                _pass_turn(g, settings, phase, seat, turns, pending, places, top)
        elif burn:
            pending[g] = REPLAY
        elif settings[QUAD_BURN] == 0 and count >= 4:
            pending[g] = EXTRA
        else:
            _pass_turn(g, settings, phase, seat, turns, pending, places, top)


@jit
def _first_player(g: Any, settings: Any, natural: Any, hands: Any) -> Any:
    """Who plays first: the first seat holding the lowest natural card, or seat 0."""
    lowest, first = RANKS, 0
    if settings[LOWEST_FIRST]:
        for p in range(settings[PLAYERS]):
            for rank in range(lowest):
                if natural[rank] and hands[g, p, SUITS * rank : SUITS * rank + SUITS].any():
                    lowest, first = rank, p
                    break
    return first


@jit
def _take_pile(
    g: Any, s: Any, hands: Any, known: Any, hand_size: Any, pile: Any, pile_size: Any,
    pile_counts: Any, top: Any, top_run: Any,
) -> None:  # fmt: skip
    """The pile goes into the hand in view of all."""
    for card in range(KINDS):
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
    g: Any, settings: Any, phase: Any, seat: Any, turns: Any, pending: Any, places: Any, top: Any
) -> None:
    """The turn passes to the next seat still holding cards, or the turns run out; a 3 on
    top makes that seat take the pile.
    """
    turns[g] += 1
    if turns[g] >= settings[MAX_TURNS]:
        phase[g] = OVER
        pending[g] = NONE
        return
    players = settings[PLAYERS]
    following = (seat[g] + 1) % players
    while places[g, following] > 0:  # a seat that finished (play_until "last")
        following = (following + 1) % players
    seat[g] = following
    pending[g] = TAKE if top[g] == 3 else NONE


@jit
def _record(
    settings: Any, allowed: Any, hands: Any, hand_size: Any, face_up: Any,
    face_down: Any, pile_size: Any, top: Any, phase: Any, seat: Any, swaps: Any, pending: Any,
    places: Any, mask: Any, current_player: Any, scores: Any, over: Any,
) -> None:  # fmt: skip
    """Each game's ``legal_mask`` row (the moves ``legal_moves`` lists), seat to move,
    scores and end.
    """
    players = settings[PLAYERS]
    ranks = hands.view(np.uint32)  # a rank's four suits, one word: its count in the top byte
    for g in range(over.shape[0]):  # of the word times 0x01010101
        for p in range(players):
            scores[g, p] = players - places[g, p] if places[g, p] > 0 else 0
        mask[g] = False
        over[g] = phase[g] == OVER
        if over[g]:
            current_player[g] = NOBODY
            continue
        s = seat[g]
        current_player[g] = s
        if phase[g] == SWAP:
            mask[g, READY_ACTION] = True
            if swaps[g] < MAX_SWAPS:  # a swap of each hand card for each other face-up card
                for card in range(KINDS):
                    if hands[g, s, card] > 0:
                        for slot in range(ROW):
                            up = face_up[g, s, slot]
                            if up != card:
                                mask[g, SWAP_BASE + KINDS * card + up] = True
            continue
        owed = pending[g]
        in_hand = hand_size[g, s] > 0
        on_table = False  # cards to play from the face-up row (from_table, the hand empty)
        if settings[FROM_TABLE] != 0 and not in_hand:
            for slot in range(ROW):
                on_table |= face_up[g, s, slot] >= 0
        can_play = False
        if owed != TAKE:
            for rank in range(RANKS):
                if not allowed[top[g], rank]:
                    continue
                held = 0
                if in_hand:
                    held = (int(ranks[g, s, rank]) * 0x01010101 >> 24) & 0xFF
                elif on_table:
                    for slot in range(ROW):
                        up = face_up[g, s, slot]
                        held += up >= 0 and up // SUITS == rank
                if owed == EXTRA:
                    held = min(held, EXTRA_PLAY_MOST)
                for count in range(held):
                    mask[g, PLAY_BASE + RANKS * count + rank] = True
                can_play |= held > 0
        holding = in_hand or on_table
        mask[g, TAKE_ACTION] = owed == TAKE or (
            owed == NONE
            and pile_size[g] > 0
            and ((holding and not can_play) or settings[VOLUNTARY] != 0)
        )
        mask[g, END_ACTION] = owed == EXTRA
        if not holding and owed != TAKE and owed != EXTRA:
            for slot in range(ROW):
                mask[g, BLIND_ACTION + slot] = face_down[g, s, slot] >= 0
