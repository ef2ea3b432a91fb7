"""The account game's batched kernel: every game of a batch moves its markers round the
bottom line of its own field, and each is the game :mod:`tabletop_rules.account` plays
from the same seed, die roll for die roll and reshuffle for reshuffle. A step, a deal and
a restart are each one compiled loop over the games (the ``batch`` extra).

It takes every house rule of :class:`~tabletop_rules.account.Config`: players, deck, rows,
columns, starting and most markers, the marker cost, ``placement_scores``,
``floor_at_zero``, ``collapse``, both ``end`` rules, ``max_rounds`` and ``auto_chance``
(with ``False`` a ``Roll`` stops at a chance point whose ``Die`` outcome is an action, as in
the rules). No field is refused. A game laid from a given ``deal`` is not a batch's: games
are reset from seeds only.

The layout, one row per game (``EMPTY`` pads, the kind index of no card):

- ``field`` ``(C, R)`` the cards as laid, bottom line first (never changes), with
  ``collapsed`` ``(C,)`` how many cards each column lost from its bottom and ``bottom``
  ``(C,)`` the card now on the bottom line (``EMPTY`` once a column is gone);
- ``cards`` ``(N,)`` the cards off the field: the discard pile at ``cards[:discard_size]``,
  oldest first, and the pack at ``cards[pack_top:]``, top card first (a B moves cards from
  the one to the other, so the pile never reaches the pack: the field holds a card);
- ``markers`` ``(P, M)`` the column of each seat's markers in the order got (-1 unowned),
  ``owned`` ``(P,)``, ``accounts`` ``(P,)``;
- ``moved`` ``(M,)`` the markers moved this turn in order (``moved_count`` of them, also
  as the bits ``moved_bits``), ``phase`` (0 setup, 1 play, 2 over), ``seat``, ``turns``,
  ``roll`` (0 for none), ``awaiting_die``, ``ending``, ``rng`` and ``seed``.

>>> import numpy as np
>>> from tabletop_rules import account, batch
>>> engine = batch.engine("account", account.Config(), size=2)
>>> games = engine.reset(np.array([7, 8], dtype=np.uint64))
>>> games.current_player.tolist(), int(games.legal_mask[0].sum())
([0, 0], 7)
>>> games = engine.step(games, np.array([3, 5]))
>>> state = account.apply(account.new_game(seed=8), account.decode(account.new_game(seed=8), 5))
>>> engine.state(games, 1) == state
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..batch.compiled import jit
from ..batch.compiled.rng import below, shuffle
from ..batch.frame import NOBODY, Actions, Engine, Flags, Games, Seeds
from ..protocol import CHANCE
from ..rng import Rng
from .cards import CARDS, KINDS
from .config import Config
from .moves import ADVANCES, BUYS, CHANCE_OFFSET, MOVE_TABLE, NUM_ACTIONS, ROLL, SIDES
from .observation import ACCOUNT_CLIP, LOG_CLIP
from .state import PHASES, State

__all__ = ["EMPTY", "AccountEngine"]

Array = NDArray[Any]

EMPTY = len(KINDS)
"""The kind index that stands for no card (13): a gone column, a padded pile."""

_B, _Z, _END = KINDS.index("B"), KINDS.index("Z"), KINDS.index("End")
_CELLS = len(KINDS) + 1  # a field cell's one-hot: each kind, then empty

# the action numbering of the move table: places, buys, roll, advances, dice
_PLACE, _BUY, _ROLL, _ADVANCE, _DIE = range(5)
_BUY_OFFSET = MOVE_TABLE.moves.index(BUYS[0])
_ROLL_ACTION = MOVE_TABLE.moves.index(ROLL)
_ADVANCE_OFFSET = MOVE_TABLE.moves.index(ADVANCES[0][SIDES][0])
_PER_MARKER = len(ADVANCES[0][SIDES])  # left 1 to 6, then right 1 to 6

_VALUED = np.array([card.valued for card in CARDS] + [False])
"""Whether B charges a kind when it draws it (numbers, P, T), by kind index."""
_POINTS = np.array([card.points for card in CARDS] + [0], dtype=np.int32)
_COST = np.array([card.cost for card in CARDS] + [0], dtype=np.int32)

_PHASE_SETUP, _PHASE_PLAY, _PHASE_OVER = map(PHASES.index, ("setup", "play", "over"))

# the legal-mask table's rows: a game's row is its key (see _mask_rows)
_KEY_OVER, _KEY_SETUP, _KEY_DIE, _KEY_ROLL, _KEY_ROLL_OR_BUY, _KEY_ADVANCE = range(6)


def _decoded() -> tuple[Array, ...]:
    """Each action number's kind, column, marker, signed distance (left negative) and face."""
    action = np.arange(NUM_ACTIONS)
    advance = action - _ADVANCE_OFFSET
    kind = np.select(
        [action < _BUY_OFFSET, action < _ROLL_ACTION, action == _ROLL_ACTION],
        [_PLACE, _BUY, _ROLL],
        np.where(action < CHANCE_OFFSET, _ADVANCE, _DIE),
    )
    sign = np.where(advance % _PER_MARKER < SIDES, -1, 1)
    fields = (
        kind,
        np.where(kind == _PLACE, action, action - _BUY_OFFSET),
        advance // _PER_MARKER,
        sign * (advance % SIDES + 1),
        action - CHANCE_OFFSET + 1,
    )
    return tuple(values.astype(np.int8) for values in fields)


_KIND, _COLUMN, _MARKER, _DISTANCE, _FACE = _decoded()


class _State(NamedTuple):
    """A batch's ``data`` arrays by name (as ``_reset`` lays them out)."""

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

    legal_mask: Array
    current_player: Array
    scores: Array
    over: Array


class _House(NamedTuple):
    """The config as the compiled loops read it: its legal masks by key, deck and rules."""

    mask: Array  # as bytes: see _play
    setup_mask: Array
    deck: Array
    players: int
    starting: int
    marker_cost: int
    placement_scores: int
    floor_at_zero: int
    collapse: int
    immediate: int
    last_turn: int
    auto_chance: int


_FIXED = frozenset({"field", "seed"})
"""The arrays a step never writes: the new record shares the old one's."""


class AccountEngine(Engine):
    """The account game over arrays: ``size`` games under one :class:`~.account.Config`."""

    game = "account"
    _winners = Engine._top_scorers  # the rules' winners: the top scores

    def _check_record(self, games: Games) -> None:
        """The arrays the step indexes by within their ranges, the discard pile below the
        pack, ``over`` as the phase says; the compiled loop bounds the rest as it goes.
        """
        data, most, cards = games.data, self.max_markers, self.deck_size
        self._check_ranges(
            games,
            {
                "collapsed": (0, self.rows),
                "bottom": (0, EMPTY),
                "cards": (0, EMPTY),
                "pack_top": (0, cards),
                "discard_size": (0, cards),
                "markers": (-1, self.columns - 1),
                "owned": (0, most),
                "moved_count": (0, most),
                "phase": (0, len(PHASES) - 1),
                "seat": (0, self.players - 1),
                "turns": (0, self.last_turn),
                "roll": (0, SIDES),
            },
        )
        self._refuse(
            games, data["discard_size"] > data["pack_top"], "its discard pile runs into its pack"
        )
        over = data["phase"] == _PHASE_OVER
        self._refuse(games, games.over != over, "over is not its phase's")

    def _prepare(self) -> None:
        config: Config = self.config
        self.columns, self.rows = config.columns, config.rows
        self.max_markers = config.max_markers
        self.deck = np.array([card.index for card in config.deck_cards()], dtype=np.int8)
        self.deck_size = len(self.deck)
        self.last_turn = config.max_rounds * self.players
        self._rows = np.arange(self.size)
        mask = self._mask_rows()
        self._house = _House(
            mask=mask.view(np.uint8),
            setup_mask=mask[_KEY_SETUP],
            deck=self.deck,
            players=self.players,
            starting=config.starting_markers,
            marker_cost=config.marker_cost,
            placement_scores=int(config.placement_scores),
            floor_at_zero=int(config.floor_at_zero),
            collapse=int(config.collapse),
            immediate=int(config.end == "immediate"),
            last_turn=self.last_turn,
            auto_chance=int(config.auto_chance),
        )

    def _mask_rows(self) -> NDArray[np.bool_]:
        """The legal mask of each key: over, setup, a die awaited, roll only, roll or buy
        on any column, then ``_KEY_ADVANCE + (roll - 1) * 256 + markers free to move``.
        """
        table = np.zeros((_KEY_ADVANCE + SIDES * 256, self.num_actions), dtype=bool)
        columns = np.arange(self.columns)
        table[_KEY_SETUP, columns] = True
        table[_KEY_DIE, CHANCE_OFFSET : CHANCE_OFFSET + SIDES] = True
        table[_KEY_ROLL : _KEY_ROLL_OR_BUY + 1, _ROLL_ACTION] = True
        table[_KEY_ROLL_OR_BUY, _BUY_OFFSET + columns] = True
        for roll in range(1, SIDES + 1):
            for free in range(256):
                row = table[_KEY_ADVANCE + (roll - 1) * 256 + free]
                for marker in range(self.max_markers):
                    if free >> marker & 1:
                        first = _ADVANCE_OFFSET + marker * _PER_MARKER
                        row[first : first + roll] = True  # left, 1 to roll
                        row[first + SIDES : first + SIDES + roll] = True  # right
        return table

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        """New arrays, one row a game; one compiled call deals every game into them."""
        size, columns, players, most = self.size, self.columns, self.players, self.max_markers
        i8, i16, flag = np.int8, np.int16, np.bool_
        state = _State(
            field=np.empty((size, columns, self.rows), i8),
            collapsed=np.empty((size, columns), i8),
            bottom=np.empty((size, columns), i8),
            cards=np.empty((size, self.deck_size), i8),
            pack_top=np.empty(size, i16),
            discard_size=np.empty(size, i16),
            markers=np.empty((size, players, most), i8),
            owned=np.empty((size, players), i8),
            accounts=np.empty((size, players), np.int32),
            moved=np.empty((size, most), i8),
            moved_count=np.empty(size, i8),
            moved_bits=np.empty(size, np.uint8),
            phase=np.empty(size, i8),
            seat=np.empty(size, i8),
            turns=np.empty(size, i16),
            roll=np.empty(size, i8),
            awaiting_die=np.empty(size, flag),
            ending=np.empty(size, flag),
            rng=np.empty(size, np.uint64),
            seed=np.empty(size, np.uint64),
        )
        record = self._fresh_record()
        _deal(np.ones(size, dtype=bool), seeds, self._house, state, record)
        return Games._made(**record._asdict(), data=state._asdict())

    def _stepped(
        self, games: Games, actions: Actions, playing: Flags, seeds: Seeds | None
    ) -> Games:
        """One compiled call plays every game into copies of the arrays a step writes; with
        ``seeds``, the games then over are dealt into them (and into copies of the ones a
        step shares, where any is over): only their rows change.
        """
        data = {
            name: value if name in _FIXED else value.copy() for name, value in games.data.items()
        }
        record = self._fresh_record()
        _play(actions, playing, self._house, _State(**data), record)
        if seeds is not None and record.over.any():
            for name in _FIXED:
                data[name] = data[name].copy()
            _deal(record.over.copy(), seeds, self._house, _State(**data), record)
        return Games._made(**record._asdict(), data=data)

    def _fresh_record(self) -> _Record:
        """Arrays for a record every game of which is written."""
        size = self.size
        return _Record(
            legal_mask=np.empty((size, self.num_actions), dtype=bool),
            current_player=np.empty(size, dtype=np.int64),
            scores=np.empty((size, self.players), dtype=np.int64),
            over=np.empty(size, dtype=bool),
        )

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Copies every array; one compiled call deals the games over into them."""
        data = {name: value.copy() for name, value in games.data.items()}
        record = _Record(**{name: getattr(games, name).copy() for name in _Record._fields})
        _deal(where, seeds, self._house, _State(**data), record)
        return Games._made(**record._asdict(), data=data)

    def _observe(self, games: Games) -> NDArray[np.float32]:
        data = games.data
        size, players, most, columns = self.size, self.players, self.max_markers, self.columns
        rows = self._rows
        phase, on_turn = data["phase"].astype(np.intp), data["seat"].astype(np.intp)
        spectator = games.current_player < 0
        viewer = np.where(spectator, 0, games.current_player)
        order = (viewer[:, None] + np.arange(players)) % players  # P0 is the viewer
        parts: list[NDArray[Any]] = [
            spectator[:, None],
            (games.current_player[:, None] == np.arange(players)),
            phase[:, None] == np.arange(len(PHASES)),
            ((on_turn - viewer) % players)[:, None] == np.arange(players),
            (games.current_player == CHANCE)[:, None],
        ]
        place = data["collapsed"][:, :, None] + np.arange(self.rows)
        cells = np.take_along_axis(data["field"], np.minimum(place, self.rows - 1), axis=2)
        cells = np.where(place < self.rows, cells, EMPTY)
        parts.append((cells[..., None] == np.arange(_CELLS)).reshape(size, -1))
        markers = data["markers"][rows[:, None], order]
        parts.append((markers[..., None] == np.arange(columns)).reshape(size, -1))
        parts.append(data["owned"][rows[:, None], order])
        accounts = data["accounts"][rows[:, None], order].astype(np.float64)
        parts.append(np.clip(accounts, -ACCOUNT_CLIP, ACCOUNT_CLIP))
        signed_log = np.minimum(np.log10(1 + np.abs(accounts)), LOG_CLIP)
        parts.append(np.copysign(signed_log, accounts))
        parts.append((data["turns"] // players)[:, None])
        parts.append(data["roll"][:, None] == np.arange(1, SIDES + 1))
        parts.append(data["moved_bits"][:, None] >> np.arange(most, dtype=np.uint8) & 1)
        parts.append(data["ending"][:, None])
        parts.append((self.deck_size - data["pack_top"])[:, None])
        pile = np.where(
            np.arange(self.deck_size) < data["discard_size"][:, None], data["cards"], EMPTY
        )
        parts.append((pile[:, :, None] == np.arange(len(KINDS))).sum(axis=1))
        return np.concatenate([part.astype(np.float32) for part in parts], axis=1)

    def _state(self, games: Games, i: int) -> State:
        data = {name: value[i] for name, value in games.data.items()}
        field = tuple(
            tuple(CARDS[kind] for kind in data["field"][column, data["collapsed"][column] :])
            for column in range(self.columns)
        )
        owned = data["owned"]
        return State(
            config=self.config,
            seed=int(data["seed"]),
            rng=Rng(int(data["rng"])),
            field=field,
            pack=tuple(CARDS[kind] for kind in data["cards"][data["pack_top"] :]),
            discard=tuple(CARDS[kind] for kind in data["cards"][: data["discard_size"]]),
            markers=tuple(
                tuple(int(column) for column in data["markers"][seat, : owned[seat]])
                for seat in range(self.players)
            ),
            accounts=tuple(int(account) for account in data["accounts"]),
            phase=PHASES[int(data["phase"])],
            seat=int(data["seat"]),
            turns=int(data["turns"]),
            roll=int(data["roll"]) or None,
            awaiting_die=bool(data["awaiting_die"]),
            moved=tuple(int(marker) for marker in data["moved"][: data["moved_count"]]),
            ending=bool(data["ending"]),
        )


@jit
def _play(actions: Array, playing: Array, house: _House, state: _State, record: _Record) -> None:
    """Each playing game plays its action, as the rules' ``apply`` does; then every
    game's seat to move, legal mask (the rules' ``legal_mask``), scores and end.
    """
    bottom, markers, owned = state.bottom, state.markers, state.owned
    accounts, moved_count, phase, seat = state.accounts, state.moved_count, state.phase, state.seat
    roll, awaiting, rng = state.roll, state.awaiting_die, state.rng
    columns, rows = bottom.shape[1], state.field.shape[2]
    for g in range(actions.shape[0]):
        if not playing[g]:
            continue
        action = actions[g]
        kind = _KIND[action]
        if kind == _ROLL:
            if house.auto_chance:
                face, rng[g] = below(rng[g], SIDES)
                roll[g] = np.int64(face) + 1
            else:
                awaiting[g] = True
            continue
        if kind == _DIE:
            roll[g] = _FACE[action]
            awaiting[g] = False
            continue
        # a place, buy or advance: a marker lands on a column and its card scores
        s = seat[g]
        if kind == _ADVANCE:
            marker = _MARKER[action]
            if marker >= markers.shape[2]:  # a move no list of the record's own allows
                raise IndexError("a marker beyond the most a seat may own moved")
            start = markers[g, s, marker]
            if house.collapse:  # along the ring of the columns that still hold a card
                at = length = 0
                for column in range(columns):
                    if bottom[g, column] != EMPTY:
                        at += column < start
                        length += 1
                target = (at + _DISTANCE[action]) % length
                landed = 0
                for column in range(columns):
                    if bottom[g, column] != EMPTY:
                        if target == 0:
                            landed = column
                            break
                        target -= 1
            else:
                landed = (start + _DISTANCE[action]) % columns
            markers[g, s, marker] = landed
            if house.collapse and landed != start and not _holds(markers[g], start):
                # the bottom card of the column left goes onto the discard pile
                if state.discard_size[g] >= state.pack_top[g]:
                    raise IndexError("the discard pile ran into the pack")
                state.cards[g, state.discard_size[g]] = bottom[g, start]
                state.discard_size[g] += 1
                gone = state.collapsed[g, start] + 1
                state.collapsed[g, start] = gone
                bottom[g, start] = state.field[g, start, gone] if gone < rows else EMPTY
            if moved_count[g] >= state.moved.shape[1]:  # only a record's own lists say
                raise IndexError("a marker moved more often than a seat has markers")
            state.moved[g, moved_count[g]] = marker
            moved_count[g] += 1
            state.moved_bits[g] |= 1 << marker
            roll[g] = 0
        else:  # a placed or bought marker: the next of its seat's markers
            landed = _COLUMN[action]
            if landed >= columns:
                raise IndexError("a marker got on a column beyond the field")
            if owned[g, s] >= markers.shape[2]:
                raise IndexError("a marker got beyond the most a seat may own")
            markers[g, s, owned[g, s]] = landed
            owned[g, s] += 1
            if kind == _BUY:
                accounts[g, s] -= house.marker_cost
        card = bottom[g, landed]
        ended = False
        if house.placement_scores or kind != _PLACE:
            if card == _END:  # stops the game now, or at the end of the round
                if not state.ending[g]:
                    ended = house.immediate != 0
                    state.ending[g] = not house.immediate
            else:
                before = accounts[g, s]
                if card == _Z:
                    after = 0
                elif card == _B:
                    after = before - _draw_for_b(g, state)
                else:
                    after = before + _POINTS[card]
                accounts[g, s] = max(after, 0) if house.floor_at_zero else after
        # who moves next: the next seat in setup, the next turn once every marker moved
        if kind == _PLACE and not ended and owned[g, s] >= house.starting:
            if s + 1 < house.players:
                seat[g] = s + 1
            elif state.ending[g]:
                ended = True
            else:
                phase[g], seat[g] = _PHASE_PLAY, 0
        elif kind == _ADVANCE and not ended and moved_count[g] >= owned[g, s]:
            state.turns[g] += 1
            now = state.turns[g]
            if now % house.players == 0 and (state.ending[g] or now == house.last_turn):
                ended = True
            else:
                seat[g] = now % house.players
            state.moved[g] = -1
            moved_count[g] = 0
            state.moved_bits[g] = 0
        if ended:
            phase[g] = _PHASE_OVER
            roll[g] = 0
            awaiting[g] = False
    legal = record.legal_mask.view(np.uint8)  # bytes: LLVM vectorizes their copy, not bools
    for g in range(actions.shape[0]):  # what the Games record shows
        s = seat[g]
        gone = phase[g] == _PHASE_OVER
        record.over[g] = gone
        record.current_player[g] = NOBODY if gone else CHANCE if awaiting[g] else s
        for other in range(house.players):
            record.scores[g, other] = accounts[g, other]
        if gone:
            key = _KEY_OVER
        elif phase[g] == _PHASE_SETUP:
            key = _KEY_SETUP
        elif awaiting[g]:
            key = _KEY_DIE
        elif roll[g] > 0:
            free = ((1 << int(owned[g, s])) - 1) & ~int(state.moved_bits[g])
            key = _KEY_ADVANCE + (int(roll[g]) - 1) * 256 + free
        else:
            buy = (
                moved_count[g] == 0
                and owned[g, s] < markers.shape[2]
                and accounts[g, s] >= house.marker_cost
            )
            key = _KEY_ROLL + buy
        for action in range(legal.shape[1]):
            legal[g, action] = house.mask[key, action]
        if house.collapse:  # buy only on the columns left
            for column in range(columns):
                if bottom[g, column] == EMPTY:
                    legal[g, _BUY_OFFSET + column] = 0


@jit
def _holds(markers: Array, column: int) -> bool:
    """Whether a marker of any seat is on ``column``."""
    for seat in range(markers.shape[0]):
        for marker in range(markers.shape[1]):
            if markers[seat, marker] == column:
                return True
    return False


@jit
def _draw_for_b(g: int, state: _State) -> int:
    """B draws onto the discard pile until a number, P or T (an empty pack is the discard
    pile shuffled, pack below it): the charge, as the rules' B draws.
    """
    cards, pack_top, discard_size, rng = state.cards, state.pack_top, state.discard_size, state.rng
    valued, empty, last = _VALUED, EMPTY, cards.shape[1]
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
    charge = _COST[cards[g, first]]
    for place in range(top, first + 1):  # onto the pile, in drawing order
        cards[g, size + place - top] = cards[g, place]
        cards[g, place] = empty
    discard_size[g] = size + first + 1 - top
    pack_top[g] = first + 1
    return int(charge)


@jit
def _deal(where: Array, seeds: Array, house: _House, state: _State, record: _Record) -> None:
    """Each game ``where`` dealt anew from its seed, as ``new_game`` deals it: in
    setup, seat 0 to place, the field laid row by row from the shuffled deck.
    """
    field, cards = state.field, state.cards
    columns, rows = field.shape[1], field.shape[2]
    laid = rows * columns
    for g in range(where.shape[0]):
        if not where[g]:
            continue
        cards[g] = house.deck
        state.rng[g] = shuffle(seeds[g], cards[g])
        for row in range(rows):
            field[g, :, row] = cards[g, row * columns : (row + 1) * columns]
        state.bottom[g] = field[g, :, 0]
        cards[g, :laid] = EMPTY  # the pack is the rest, its top card first
        state.pack_top[g], state.discard_size[g] = laid, 0
        state.collapsed[g] = 0
        state.markers[g] = -1
        state.owned[g] = 0
        state.accounts[g] = 0
        state.moved[g] = -1
        state.moved_count[g], state.moved_bits[g] = 0, 0
        state.phase[g], state.seat[g], state.turns[g], state.roll[g] = _PHASE_SETUP, 0, 0, 0
        state.awaiting_die[g], state.ending[g] = False, False
        state.seed[g] = seeds[g]
        record.legal_mask[g] = house.setup_mask
        record.current_player[g], record.over[g] = 0, False
        record.scores[g] = 0
