"""The account game's batched kernel compiled: the NumPy kernel's arrays and tables, its
step and its restart each played as one compiled loop over the games.

>>> import numpy as np
>>> from tabletop_rules import account
>>> from tabletop_rules.batch.account import AccountEngine
>>> compiled = CompiledAccountEngine(account.Config(), size=2)
>>> engine = AccountEngine(account.Config(), size=2)
>>> seeds = np.array([7, 8], dtype=np.uint64)
>>> a, b = compiled.reset(seeds), engine.reset(seeds)
>>> a, b = compiled.step(a, np.array([3, 5])), engine.step(b, np.array([3, 5]))
>>> compiled.state(a, 1) == engine.state(b, 1)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...account import Config
from ...account.moves import SIDES
from ...protocol import CHANCE
from ..account import (
    _ADVANCE,
    _B,
    _BUY,
    _BUY_OFFSET,
    _COST,
    _DIE,
    _END,
    _KEY_ADVANCE,
    _KEY_DIE,
    _KEY_OVER,
    _KEY_ROLL,
    _KEY_SETUP,
    _PHASE_OVER,
    _PHASE_PLAY,
    _PHASE_SETUP,
    _PLACE,
    _POINTS,
    _ROLL,
    _VALUED,
    _Z,
    EMPTY,
    AccountEngine,
)
from ..frame import NOBODY, Games
from . import jit
from .rng import below, shuffle

__all__ = ["CompiledAccountEngine"]

Array = NDArray[Any]

_FIXED = frozenset({"field", "seed"})
"""The arrays a step never writes: the new record shares the old one's."""

_STATE = (
    "field",
    "collapsed",
    "bottom",
    "cards",
    "pack_top",
    "discard_size",
    "markers",
    "owned",
    "accounts",
    "moved",
    "moved_count",
    "moved_bits",
    "phase",
    "seat",
    "turns",
    "roll",
    "awaiting_die",
    "ending",
    "rng",
    "seed",
)
"""The ``data`` arrays, in the order the compiled functions unpack them."""


class CompiledAccountEngine(AccountEngine):
    """:class:`~tabletop_rules.batch.account.AccountEngine` with its step and restart
    compiled: the same ``Games``, array for array.
    """

    game = "account"

    def _prepare(self) -> None:
        super()._prepare()
        config: Config = self.config
        decoded = self._action
        self._tables = (
            decoded["kind"],
            decoded["column"],
            decoded["marker"],
            (decoded["sign"] * decoded["steps"]).astype(np.int8),  # a signed distance
            decoded["face"],
            self._mask_table,
        )
        self._deck = (self.deck, self._mask_table[_KEY_SETUP])
        self._settings = tuple(
            int(value)
            for value in (
                self.players,
                config.starting_markers,
                config.marker_cost,
                config.placement_scores,
                config.floor_at_zero,
                config.collapse,
                config.end == "immediate",
                self.last_turn,
                config.auto_chance,
            )
        )

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        """Copies the arrays a step writes; one compiled call plays every game into them."""
        data = {
            name: value if name in _FIXED else value.copy() for name, value in games.data.items()
        }
        size = self.size
        legal = np.empty((size, self.num_actions), dtype=bool)
        player = np.empty(size, dtype=np.int64)
        scores = np.empty((size, self.players), dtype=np.int64)
        over = np.empty(size, dtype=bool)
        state = tuple(data[name] for name in _STATE)
        _play(actions, playing, self._tables, self._settings, state, (legal, player, scores, over))
        return Games(current_player=player, legal_mask=legal, scores=scores, over=over, data=data)

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Copies every array; one compiled call deals the games over into them."""
        data = {name: value.copy() for name, value in games.data.items()}
        legal, player = games.legal_mask.copy(), games.current_player.copy()
        scores, over = games.scores.copy(), games.over.copy()
        state = tuple(data[name] for name in _STATE)
        _deal(where, seeds, self._deck, state, (legal, player, scores, over))
        return Games(current_player=player, legal_mask=legal, scores=scores, over=over, data=data)


@jit
def _play(
    actions: Array,
    playing: Array,
    tables: tuple[Array, ...],
    settings: tuple[int, ...],
    state: tuple[Array, ...],
    record: tuple[Array, ...],
) -> None:
    """Each playing game plays its action, as the NumPy kernel's ``_step``; then every
    game's seat to move, legal mask, scores and end, as its ``_games_of``.
    """
    kind_of, column_of, marker_of, distance_of, face_of, mask_table = tables
    field, collapsed, bottom, cards, pack_top, discard_size, markers, owned = state[:8]
    accounts, moved, moved_count, moved_bits, phase, seat, turns, roll = state[8:16]
    awaiting, ending, rng = state[16:19]
    legal, player, scores, over = record
    mask_bytes, table_bytes = legal.view(np.uint8), mask_table.view(np.uint8)
    players, starting, marker_cost, placement_scores, floor_at_zero = settings[:5]
    collapse, immediate, last_turn, auto_chance = settings[5:]
    columns, rows = bottom.shape[1], field.shape[2]
    for g in range(actions.shape[0]):
        if not playing[g]:
            continue
        action = actions[g]
        kind = kind_of[action]
        if kind == _ROLL:
            if auto_chance:
                face, rng[g] = below(rng[g], SIDES)
                roll[g] = np.int64(face) + 1
            else:
                awaiting[g] = True
            continue
        if kind == _DIE:
            roll[g] = face_of[action]
            awaiting[g] = False
            continue
        # a place, buy or advance: a marker lands on a column and its card scores
        s = seat[g]
        if kind == _ADVANCE:
            marker = marker_of[action]
            start = markers[g, s, marker]
            if collapse:  # along the ring of the columns that still hold a card
                at = length = 0
                for column in range(columns):
                    if bottom[g, column] != EMPTY:
                        at += column < start
                        length += 1
                target = (at + distance_of[action]) % length
                landed = 0
                for column in range(columns):
                    if bottom[g, column] != EMPTY:
                        if target == 0:
                            landed = column
                            break
                        target -= 1
            else:
                landed = (start + distance_of[action]) % columns
            markers[g, s, marker] = landed
            if collapse and landed != start and not _holds(markers[g], start):
                # the bottom card of the column left goes onto the discard pile
                cards[g, discard_size[g]] = bottom[g, start]
                discard_size[g] += 1
                gone = collapsed[g, start] + 1
                collapsed[g, start] = gone
                bottom[g, start] = field[g, start, gone] if gone < rows else EMPTY
            moved[g, moved_count[g]] = marker
            moved_count[g] += 1
            moved_bits[g] |= 1 << marker
            roll[g] = 0
        else:  # a placed or bought marker: the next of its seat's markers
            landed = column_of[action]
            markers[g, s, owned[g, s]] = landed
            owned[g, s] += 1
            if kind == _BUY:
                accounts[g, s] -= marker_cost
        card = bottom[g, landed]
        ended = False
        if placement_scores or kind != _PLACE:
            if card == _END:  # stops the game now, or at the end of the round
                if not ending[g]:
                    ended = immediate != 0
                    ending[g] = not immediate
            else:
                before = accounts[g, s]
                if card == _Z:
                    after = 0
                elif card == _B:
                    after = before - _draw_for_b(g, cards, pack_top, discard_size, rng)
                else:
                    after = before + _POINTS[card]
                accounts[g, s] = max(after, 0) if floor_at_zero else after
        # who moves next: the next seat in setup, the next turn once every marker moved
        if kind == _PLACE and not ended and owned[g, s] >= starting:
            if s + 1 < players:
                seat[g] = s + 1
            elif ending[g]:
                ended = True
            else:
                phase[g], seat[g] = _PHASE_PLAY, 0
        elif kind == _ADVANCE and not ended and moved_count[g] >= owned[g, s]:
            turns[g] += 1
            now = turns[g]
            if now % players == 0 and (ending[g] or now == last_turn):
                ended = True
            else:
                seat[g] = now % players
            moved[g] = -1
            moved_count[g] = 0
            moved_bits[g] = 0
        if ended:
            phase[g] = _PHASE_OVER
            roll[g] = 0
            awaiting[g] = False
    for g in range(actions.shape[0]):  # what the Games record shows
        s = seat[g]
        gone = phase[g] == _PHASE_OVER
        over[g] = gone
        player[g] = NOBODY if gone else CHANCE if awaiting[g] else s
        for other in range(players):
            scores[g, other] = accounts[g, other]
        if gone:
            key = _KEY_OVER
        elif phase[g] == _PHASE_SETUP:
            key = _KEY_SETUP
        elif awaiting[g]:
            key = _KEY_DIE
        elif roll[g] > 0:
            free = ((1 << int(owned[g, s])) - 1) & ~int(moved_bits[g])
            key = _KEY_ADVANCE + (int(roll[g]) - 1) * 256 + free
        else:
            buy = (
                moved_count[g] == 0
                and owned[g, s] < markers.shape[2]
                and accounts[g, s] >= marker_cost
            )
            key = _KEY_ROLL + buy
        for action in range(legal.shape[1]):  # as bytes: a third faster than as bools
            mask_bytes[g, action] = table_bytes[key, action]
        if collapse:  # buy only on the columns left
            for column in range(columns):
                if bottom[g, column] == EMPTY:
                    legal[g, _BUY_OFFSET + column] = False


@jit
def _holds(markers: Array, column: int) -> bool:
    """Whether a marker of any seat is on ``column``."""
    for seat in range(markers.shape[0]):
        for marker in range(markers.shape[1]):
            if markers[seat, marker] == column:
                return True
    return False


@jit
def _draw_for_b(g: int, cards: Array, pack_top: Array, discard_size: Array, rng: Array) -> int:
    """B draws onto the discard pile until a number, P or T (an empty pack is the discard
    pile shuffled, pack below it): the charge, as the NumPy kernel's ``_draw_for_b``.
    """
    last = cards.shape[1]
    top, size = int(pack_top[g]), int(discard_size[g])
    first = top
    while first < last and not _VALUED[cards[g, first]]:
        first += 1
    if first == last:
        if not _VALUED[cards[g, :size]].any():
            return 0  # nothing to charge anywhere: nothing moves
        length = size + last - top
        pack = np.empty(length, dtype=np.int8)
        pack[:size] = cards[g, :size]
        pack[size:] = cards[g, top:]
        rng[g] = shuffle(rng[g], pack)
        top, size = last - length, 0
        cards[g, :top] = EMPTY
        cards[g, top:] = pack
        first = top
        while not _VALUED[cards[g, first]]:
            first += 1
    charge = _COST[cards[g, first]]
    for place in range(top, first + 1):  # onto the pile, in drawing order
        cards[g, size + place - top] = cards[g, place]
        cards[g, place] = EMPTY
    discard_size[g] = size + first + 1 - top
    pack_top[g] = first + 1
    return int(charge)


@jit
def _deal(
    where: Array,
    seeds: Array,
    deck: tuple[Array, Array],
    state: tuple[Array, ...],
    record: tuple[Array, ...],
) -> None:
    """Each game ``where`` dealt anew from its seed, as the NumPy kernel's ``_dealt``: in
    setup, seat 0 to place, the field laid row by row from the shuffled deck.
    """
    cards_in_order, setup_mask = deck
    field, collapsed, bottom, cards, pack_top, discard_size, markers, owned = state[:8]
    accounts, moved, moved_count, moved_bits, phase, seat, turns, roll = state[8:16]
    awaiting, ending, rng, seed = state[16:]
    legal, player, scores, over = record
    columns, rows = field.shape[1], field.shape[2]
    laid = rows * columns
    for g in range(where.shape[0]):
        if not where[g]:
            continue
        cards[g] = cards_in_order
        rng[g] = shuffle(seeds[g], cards[g])
        for row in range(rows):
            field[g, :, row] = cards[g, row * columns : (row + 1) * columns]
        bottom[g] = field[g, :, 0]
        cards[g, :laid] = EMPTY  # the pack is the rest, its top card first
        pack_top[g], discard_size[g] = laid, 0
        collapsed[g] = 0
        markers[g] = -1
        owned[g] = 0
        accounts[g] = 0
        moved[g] = -1
        moved_count[g], moved_bits[g] = 0, 0
        phase[g], seat[g], turns[g], roll[g] = _PHASE_SETUP, 0, 0, 0
        awaiting[g], ending[g] = False, False
        seed[g] = seeds[g]
        legal[g] = setup_mask
        player[g], over[g] = 0, False
        scores[g] = 0
