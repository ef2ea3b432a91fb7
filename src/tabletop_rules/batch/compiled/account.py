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

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ...account import Config
from ...account.moves import SIDES
from ...protocol import CHANCE
from .. import account as kernel
from ..frame import NOBODY, Games
from . import jit
from .rng import below, shuffle

__all__ = ["CompiledAccountEngine"]

Array = NDArray[Any]


class _State(NamedTuple):
    """A batch's ``data`` arrays by name (the NumPy kernel's layout)."""

    field: Array
    collapsed: Array
    bottom: Array
    cards: Array
    pack_top: Array
    discard_size: Array
    markers: Array
    owned: Array
    accounts: Array
    moved: Array
    moved_count: Array
    moved_bits: Array
    phase: Array
    seat: Array
    turns: Array
    roll: Array
    awaiting_die: Array
    ending: Array
    rng: Array
    seed: Array


class _Record(NamedTuple):
    """The rest of a ``Games``: what a step shows of each game."""

    legal: Array
    player: Array
    scores: Array
    over: Array


class _Tables(NamedTuple):
    """The NumPy kernel's tables by action number, mask key and card kind (arguments, as
    :class:`_Numbers` says why).
    """

    kind: Array
    column: Array
    marker: Array
    distance: Array  # signed: left negative
    face: Array
    mask: Array  # as bytes: see _play
    valued: Array
    points: Array
    cost: Array
    deck: Array
    setup_mask: Array


class _Numbers(NamedTuple):
    """The config's house rules, and the codes of the NumPy kernel the compiled code compares
    with: arguments, not globals, which numba's cache (keyed on this file alone) would keep
    from a former version of ``batch/account.py``.
    """

    players: int
    starting: int
    marker_cost: int
    placement_scores: int
    floor_at_zero: int
    collapse: int
    immediate: int
    last_turn: int
    auto_chance: int
    empty: int
    b: int
    z: int
    end: int
    place: int
    buy: int
    roll: int
    advance: int
    die: int
    setup: int
    play: int
    over: int
    key_over: int
    key_setup: int
    key_die: int
    key_roll: int
    key_advance: int
    buy_offset: int
    nobody: int
    chance: int
    sides: int


_FIXED = frozenset({"field", "seed"})
"""The arrays a step never writes: the new record shares the old one's."""


class CompiledAccountEngine(kernel.AccountEngine):
    """:class:`~tabletop_rules.batch.account.AccountEngine` with its step and restart
    compiled: the same ``Games``, array for array.
    """

    game = "account"

    def _prepare(self) -> None:
        super()._prepare()
        config: Config = self.config
        decoded = self._action
        self._tables = _Tables(
            kind=decoded["kind"],
            column=decoded["column"],
            marker=decoded["marker"],
            distance=(decoded["sign"] * decoded["steps"]).astype(np.int8),
            face=decoded["face"],
            mask=self._mask_table.view(np.uint8),
            valued=kernel._VALUED,
            points=kernel._POINTS,
            cost=kernel._COST,
            deck=self.deck,
            setup_mask=self._mask_table[kernel._KEY_SETUP],
        )
        self._numbers = _Numbers(
            players=self.players,
            starting=config.starting_markers,
            marker_cost=config.marker_cost,
            placement_scores=int(config.placement_scores),
            floor_at_zero=int(config.floor_at_zero),
            collapse=int(config.collapse),
            immediate=int(config.end == "immediate"),
            last_turn=self.last_turn,
            auto_chance=int(config.auto_chance),
            empty=kernel.EMPTY,
            b=kernel._B,
            z=kernel._Z,
            end=kernel._END,
            place=kernel._PLACE,
            buy=kernel._BUY,
            roll=kernel._ROLL,
            advance=kernel._ADVANCE,
            die=kernel._DIE,
            setup=kernel._PHASE_SETUP,
            play=kernel._PHASE_PLAY,
            over=kernel._PHASE_OVER,
            key_over=kernel._KEY_OVER,
            key_setup=kernel._KEY_SETUP,
            key_die=kernel._KEY_DIE,
            key_roll=kernel._KEY_ROLL,
            key_advance=kernel._KEY_ADVANCE,
            buy_offset=kernel._BUY_OFFSET,
            nobody=NOBODY,
            chance=CHANCE,
            sides=SIDES,
        )

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        return self._games(*self._stepped(games, actions, playing))

    def _step_restarting(
        self,
        games: Games,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64],
    ) -> Games:
        """The step's compiled call, then the games over dealt into the arrays it has just
        made (copies of the ones a step shares, where any is over): only their rows change.
        """
        record, data = self._stepped(games, actions, playing)
        if record.over.any():
            for name in _FIXED:
                data[name] = data[name].copy()
            _deal(record.over.copy(), seeds, self._tables, self._numbers, _State(**data), record)
        return self._games(record, data)

    def _stepped(
        self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]
    ) -> tuple[_Record, dict[str, Array]]:
        """Copies the arrays a step writes; one compiled call plays every game into them."""
        data = {
            name: value if name in _FIXED else value.copy() for name, value in games.data.items()
        }
        size = self.size
        record = _Record(
            legal=np.empty((size, self.num_actions), dtype=bool),
            player=np.empty(size, dtype=np.int64),
            scores=np.empty((size, self.players), dtype=np.int64),
            over=np.empty(size, dtype=bool),
        )
        _play(actions, playing, self._tables, self._numbers, _State(**data), record)
        return record, data

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Copies every array; one compiled call deals the games over into them."""
        data = {name: value.copy() for name, value in games.data.items()}
        record = _Record(
            legal=games.legal_mask.copy(),
            player=games.current_player.copy(),
            scores=games.scores.copy(),
            over=games.over.copy(),
        )
        _deal(where, seeds, self._tables, self._numbers, _State(**data), record)
        return self._games(record, data)

    @staticmethod
    def _games(record: _Record, data: dict[str, Array]) -> Games:
        return Games._made(
            current_player=record.player,
            legal_mask=record.legal,
            scores=record.scores,
            over=record.over,
            data=data,
        )


@jit
def _play(
    actions: Array,
    playing: Array,
    tables: _Tables,
    n: _Numbers,
    state: _State,
    record: _Record,
) -> None:
    """Each playing game plays its action, as the NumPy kernel's ``_step``; then every
    game's seat to move, legal mask, scores and end, as its ``_games_of``.
    """
    bottom, markers, owned = state.bottom, state.markers, state.owned
    accounts, moved_count, phase, seat = state.accounts, state.moved_count, state.phase, state.seat
    roll, awaiting, rng = state.roll, state.awaiting_die, state.rng
    columns, rows = bottom.shape[1], state.field.shape[2]
    for g in range(actions.shape[0]):
        if not playing[g]:
            continue
        action = actions[g]
        kind = tables.kind[action]
        if kind == n.roll:
            if n.auto_chance:
                face, rng[g] = below(rng[g], n.sides)
                roll[g] = np.int64(face) + 1
            else:
                awaiting[g] = True
            continue
        if kind == n.die:
            roll[g] = tables.face[action]
            awaiting[g] = False
            continue
        # a place, buy or advance: a marker lands on a column and its card scores
        s = seat[g]
        if kind == n.advance:
            marker = tables.marker[action]
            if marker >= markers.shape[2]:  # a move no list of the record's own allows
                raise IndexError("a marker beyond the most a seat may own moved")
            start = markers[g, s, marker]
            if n.collapse:  # along the ring of the columns that still hold a card
                at = length = 0
                for column in range(columns):
                    if bottom[g, column] != n.empty:
                        at += column < start
                        length += 1
                target = (at + tables.distance[action]) % length
                landed = 0
                for column in range(columns):
                    if bottom[g, column] != n.empty:
                        if target == 0:
                            landed = column
                            break
                        target -= 1
            else:
                landed = (start + tables.distance[action]) % columns
            markers[g, s, marker] = landed
            if n.collapse and landed != start and not _holds(markers[g], start):
                # the bottom card of the column left goes onto the discard pile
                if state.discard_size[g] >= state.pack_top[g]:
                    raise IndexError("the discard pile ran into the pack")
                state.cards[g, state.discard_size[g]] = bottom[g, start]
                state.discard_size[g] += 1
                gone = state.collapsed[g, start] + 1
                state.collapsed[g, start] = gone
                bottom[g, start] = state.field[g, start, gone] if gone < rows else n.empty
            if moved_count[g] >= state.moved.shape[1]:  # only a record's own lists say
                raise IndexError("a marker moved more often than a seat has markers")
            state.moved[g, moved_count[g]] = marker
            moved_count[g] += 1
            state.moved_bits[g] |= 1 << marker
            roll[g] = 0
        else:  # a placed or bought marker: the next of its seat's markers
            landed = tables.column[action]
            if landed >= columns:
                raise IndexError("a marker got on a column beyond the field")
            if owned[g, s] >= markers.shape[2]:
                raise IndexError("a marker got beyond the most a seat may own")
            markers[g, s, owned[g, s]] = landed
            owned[g, s] += 1
            if kind == n.buy:
                accounts[g, s] -= n.marker_cost
        card = bottom[g, landed]
        ended = False
        if n.placement_scores or kind != n.place:
            if card == n.end:  # stops the game now, or at the end of the round
                if not state.ending[g]:
                    ended = n.immediate != 0
                    state.ending[g] = not n.immediate
            else:
                before = accounts[g, s]
                if card == n.z:
                    after = 0
                elif card == n.b:
                    after = before - _draw_for_b(g, tables, n, state)
                else:
                    after = before + tables.points[card]
                accounts[g, s] = max(after, 0) if n.floor_at_zero else after
        # who moves next: the next seat in setup, the next turn once every marker moved
        if kind == n.place and not ended and owned[g, s] >= n.starting:
            if s + 1 < n.players:
                seat[g] = s + 1
            elif state.ending[g]:
                ended = True
            else:
                phase[g], seat[g] = n.play, 0
        elif kind == n.advance and not ended and moved_count[g] >= owned[g, s]:
            state.turns[g] += 1
            now = state.turns[g]
            if now % n.players == 0 and (state.ending[g] or now == n.last_turn):
                ended = True
            else:
                seat[g] = now % n.players
            state.moved[g] = -1
            moved_count[g] = 0
            state.moved_bits[g] = 0
        if ended:
            phase[g] = n.over
            roll[g] = 0
            awaiting[g] = False
    legal = record.legal.view(np.uint8)  # bytes: LLVM vectorizes their copy, not bools
    for g in range(actions.shape[0]):  # what the Games record shows
        s = seat[g]
        gone = phase[g] == n.over
        record.over[g] = gone
        record.player[g] = n.nobody if gone else n.chance if awaiting[g] else s
        for other in range(n.players):
            record.scores[g, other] = accounts[g, other]
        if gone:
            key = n.key_over
        elif phase[g] == n.setup:
            key = n.key_setup
        elif awaiting[g]:
            key = n.key_die
        elif roll[g] > 0:
            free = ((1 << int(owned[g, s])) - 1) & ~int(state.moved_bits[g])
            key = n.key_advance + (int(roll[g]) - 1) * 256 + free
        else:
            buy = (
                moved_count[g] == 0
                and owned[g, s] < markers.shape[2]
                and accounts[g, s] >= n.marker_cost
            )
            key = n.key_roll + buy
        for action in range(legal.shape[1]):
            legal[g, action] = tables.mask[key, action]
        if n.collapse:  # buy only on the columns left
            for column in range(columns):
                if bottom[g, column] == n.empty:
                    legal[g, n.buy_offset + column] = 0


@jit
def _holds(markers: Array, column: int) -> bool:
    """Whether a marker of any seat is on ``column``."""
    for seat in range(markers.shape[0]):
        for marker in range(markers.shape[1]):
            if markers[seat, marker] == column:
                return True
    return False


@jit
def _draw_for_b(g: int, tables: _Tables, n: _Numbers, state: _State) -> int:
    """B draws onto the discard pile until a number, P or T (an empty pack is the discard
    pile shuffled, pack below it): the charge, as the NumPy kernel's ``_draw_for_b``.
    """
    cards, pack_top, discard_size, rng = state.cards, state.pack_top, state.discard_size, state.rng
    valued, empty, last = tables.valued, n.empty, cards.shape[1]
    top, size = int(pack_top[g]), int(discard_size[g])
    first = top
    while first < last and not valued[cards[g, first]]:
        first += 1
    if first == last:
        if not valued[cards[g, :size]].any():
            return 0  # nothing to charge anywhere: nothing moves
        length = size + last - top
        pack = np.empty(length, dtype=np.int8)
        pack[:size] = cards[g, :size]
        pack[size:] = cards[g, top:]
        rng[g] = shuffle(rng[g], pack)
        top, size = last - length, 0
        cards[g, :top] = empty
        cards[g, top:] = pack
        first = top
        while not valued[cards[g, first]]:
            first += 1
    charge = tables.cost[cards[g, first]]
    for place in range(top, first + 1):  # onto the pile, in drawing order
        cards[g, size + place - top] = cards[g, place]
        cards[g, place] = empty
    discard_size[g] = size + first + 1 - top
    pack_top[g] = first + 1
    return int(charge)


@jit
def _deal(
    where: Array, seeds: Array, tables: _Tables, n: _Numbers, state: _State, record: _Record
) -> None:
    """Each game ``where`` dealt anew from its seed, as the NumPy kernel's ``_dealt``: in
    setup, seat 0 to place, the field laid row by row from the shuffled deck.
    """
    field, cards = state.field, state.cards
    columns, rows = field.shape[1], field.shape[2]
    laid = rows * columns
    for g in range(where.shape[0]):
        if not where[g]:
            continue
        cards[g] = tables.deck
        state.rng[g] = shuffle(seeds[g], cards[g])
        for row in range(rows):
            field[g, :, row] = cards[g, row * columns : (row + 1) * columns]
        state.bottom[g] = field[g, :, 0]
        cards[g, :laid] = n.empty  # the pack is the rest, its top card first
        state.pack_top[g], state.discard_size[g] = laid, 0
        state.collapsed[g] = 0
        state.markers[g] = -1
        state.owned[g] = 0
        state.accounts[g] = 0
        state.moved[g] = -1
        state.moved_count[g], state.moved_bits[g] = 0, 0
        state.phase[g], state.seat[g], state.turns[g], state.roll[g] = n.setup, 0, 0, 0
        state.awaiting_die[g], state.ending[g] = False, False
        state.seed[g] = seeds[g]
        record.legal[g] = tables.setup_mask
        record.player[g], record.over[g] = 0, False
        record.scores[g] = 0
