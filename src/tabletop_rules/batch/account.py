"""The account game's batched kernel: every game of a batch moves its markers round the
bottom line of its own field, and each is the game :mod:`tabletop_rules.account` plays
from the same seed, die roll for die roll and reshuffle for reshuffle.

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

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..account import CHANCE_OFFSET, Config, State
from ..account.cards import CARDS, KINDS
from ..account.moves import ADVANCES, BUYS, MOVE_TABLE, ROLL, SIDES
from ..account.observation import ACCOUNT_CLIP, LOG_CLIP
from ..account.state import PHASES
from ..protocol import CHANCE
from ..rng import Rng
from . import rng as batch_rng
from .frame import NOBODY, Engine, Games

__all__ = ["EMPTY", "AccountEngine"]

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

# the legal-mask table's rows: a game's row is its key (see _masks)
_KEY_OVER, _KEY_SETUP, _KEY_DIE, _KEY_ROLL, _KEY_ROLL_OR_BUY, _KEY_ADVANCE = range(6)


def _decoded(num_actions: int) -> dict[str, NDArray[Any]]:
    """Each action number's kind and its fields (column, marker, sign, steps, face)."""
    action = np.arange(num_actions)
    advance = action - _ADVANCE_OFFSET
    kind = np.select(
        [action < _BUY_OFFSET, action < _ROLL_ACTION, action == _ROLL_ACTION],
        [_PLACE, _BUY, _ROLL],
        np.where(action < CHANCE_OFFSET, _ADVANCE, _DIE),
    )
    return {
        "kind": kind.astype(np.int8),
        "column": np.where(kind == _PLACE, action, action - _BUY_OFFSET).astype(np.int8),
        "marker": (advance // _PER_MARKER).astype(np.int8),
        "sign": np.where(advance % _PER_MARKER < SIDES, -1, 1).astype(np.int8),
        "steps": (advance % SIDES + 1).astype(np.int8),
        "face": (action - CHANCE_OFFSET + 1).astype(np.int8),
    }


class AccountEngine(Engine):
    """The account game over arrays: ``size`` games under one :class:`~.account.Config`."""

    game = "account"
    _winners = Engine._top_scorers  # the rules' winners: the top scores

    def _check_record(self, games: Games) -> None:
        """The arrays whose values the step and record index by, within their ranges (the
        cards off the field and on the bottom line, columns, markers, counts, seats, phases,
        the roll), the discard pile below the pack, and ``over`` as the phase says; what the
        compiled loop indexes by beyond these (a seat's next marker, a column or marker an
        action names, the pile's next place) it bounds as it goes.
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
            games,
            data["discard_size"] > data["pack_top"],
            "its discard pile runs into its pack",
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
        self._action = _decoded(self.num_actions)
        self._mask_table = self._mask_rows()

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

    # --- reset ------------------------------------------------------------------------

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        return self._games_of(self._dealt(seeds))

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Deals only the games that are over, and writes them into copies of the rows."""
        rows = np.flatnonzero(where)
        fresh = self._dealt(seeds[rows])

        def merged(old: NDArray[Any], new: Any) -> NDArray[Any]:
            value = old.copy()
            value[rows] = new
            return value

        return Games._made(  # a new game: in setup, seat 0 to place, nothing scored
            current_player=merged(games.current_player, 0),
            legal_mask=merged(games.legal_mask, self._mask_table[_KEY_SETUP]),
            scores=merged(games.scores, 0),
            over=merged(games.over, False),
            data={name: merged(value, fresh[name]) for name, value in games.data.items()},
        )

    def _dealt(self, seeds: NDArray[np.uint64]) -> dict[str, NDArray[Any]]:
        """New games in setup, each laid from its seed's shuffle of the deck."""
        size, columns, rows = len(seeds), self.columns, self.rows
        players, most = self.players, self.max_markers
        cards, states = batch_rng.shuffled(
            seeds, np.broadcast_to(self.deck, (len(seeds), len(self.deck)))
        )
        laid = rows * columns
        field = cards[:, :laid].reshape(size, rows, columns).transpose(0, 2, 1).copy()
        cards[:, :laid] = EMPTY  # the pack is the rest, its top card first
        return {
            "field": field,
            "collapsed": np.zeros((size, columns), dtype=np.int8),
            "bottom": field[:, :, 0].copy(),
            "cards": cards,
            "pack_top": np.full(size, laid, dtype=np.int16),
            "discard_size": np.zeros(size, dtype=np.int16),
            "markers": np.full((size, players, most), -1, dtype=np.int8),
            "owned": np.zeros((size, players), dtype=np.int8),
            "accounts": np.zeros((size, players), dtype=np.int32),
            "moved": np.full((size, most), -1, dtype=np.int8),
            "moved_count": np.zeros(size, dtype=np.int8),
            "moved_bits": np.zeros(size, dtype=np.uint8),
            "phase": np.zeros(size, dtype=np.int8),
            "seat": np.zeros(size, dtype=np.int8),
            "turns": np.zeros(size, dtype=np.int16),
            "roll": np.zeros(size, dtype=np.int8),
            "awaiting_die": np.zeros(size, dtype=bool),
            "ending": np.zeros(size, dtype=bool),
            "rng": states,
            "seed": seeds.copy(),
        }

    # --- step -------------------------------------------------------------------------

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        return self._games_of(self._played(games, actions, playing))

    def _step_restarting(
        self,
        games: Games,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64],
    ) -> Games:
        """The step, the games then over dealt into its new arrays' rows, one record."""
        data = self._played(games, actions, playing)
        rows = np.flatnonzero(data["phase"] == _PHASE_OVER)
        if rows.size:
            self._dealt_into(data, games.data, rows, self._dealt(seeds[rows]))
        return self._games_of(data)

    def _played(
        self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]
    ) -> dict[str, NDArray[Any]]:
        """The arrays after the games ``playing`` play (those unchanged the record's own)."""
        work = _Work(games.data)
        decoded = self._action
        kind = np.where(playing, decoded["kind"][actions], -1)
        rolls = np.flatnonzero(kind == _ROLL)
        if rolls.size:
            if self.config.auto_chance:
                face, states = batch_rng.below(work.read("rng")[rolls], SIDES)
                work.write("rng")[rolls] = states
                work.write("roll")[rolls] = face.astype(np.int8) + 1
            else:
                work.write("awaiting_die")[rolls] = True
        dice = np.flatnonzero(kind == _DIE)
        if dice.size:
            work.write("roll")[dice] = decoded["face"][actions[dice]]
            work.write("awaiting_die")[dice] = False
        lands = np.flatnonzero((kind == _PLACE) | (kind == _BUY) | (kind == _ADVANCE))
        if lands.size:
            self._land(work, lands, kind[lands], actions[lands])
        return work.data()

    def _land(
        self, work: _Work, g: NDArray[np.intp], kind: NDArray[np.int8], actions: NDArray[np.int64]
    ) -> None:
        """Places, buys and advances: a marker lands on a column and its card scores."""
        config: Config = self.config
        decoded = self._action
        seat = work.old["seat"][g].astype(np.intp)
        markers, owned = work.write("markers"), work.write("owned")
        placing = kind != _ADVANCE
        # a placed or bought marker: the next of its seat's markers
        p = np.flatnonzero(placing)
        column = decoded["column"][actions[p]]
        landed = np.empty(g.size, dtype=np.intp)
        landed[p] = column
        slot = owned[g[p], seat[p]]
        markers[g[p], seat[p], slot] = column
        owned[g[p], seat[p]] = slot + 1
        buys = p[kind[p] == _BUY]
        if buys.size:
            work.write("accounts")[g[buys], seat[buys]] -= config.marker_cost
        # an advance: along the ring of the columns that still hold a card
        a = np.flatnonzero(~placing)
        if a.size:
            landed[a] = self._advance(work, g[a], seat[a], actions[a])
        card = work.read("bottom")[g, landed]
        scoring = np.ones(g.size, dtype=bool) if config.placement_scores else kind != _PLACE
        ended = self._score(work, g, seat, card, scoring)
        self._after(work, g, seat, kind, ended)

    def _advance(
        self, work: _Work, g: NDArray[np.intp], seat: NDArray[np.intp], actions: NDArray[np.int64]
    ) -> NDArray[np.intp]:
        """Moves each game's marker, collapses the column it left if it must, and notes the
        marker moved; the column it lands on.
        """
        decoded = self._action
        marker = decoded["marker"][actions].astype(np.intp)
        step = decoded["sign"][actions].astype(np.intp) * decoded["steps"][actions]
        markers = work.write("markers")
        start = markers[g, seat, marker].astype(np.intp)
        landed: NDArray[np.intp]
        if self.config.collapse:
            line = work.read("bottom")[g] != EMPTY
            rank = np.cumsum(line, axis=1) - line  # place on the ring, of each column
            at = rank[np.arange(g.size), start]
            target = (at + step) % line.sum(axis=1)
            landed = np.argmax(line & (rank == target[:, None]), axis=1)
        else:
            landed = (start + step) % self.columns
        markers[g, seat, marker] = landed
        if self.config.collapse:
            left = (landed != start) & ~(markers[g] == start[:, None, None]).any(axis=(1, 2))
            if left.any():
                self._collapse(work, g[left], start[left])
        count = work.write("moved_count")
        work.write("moved")[g, count[g]] = marker
        count[g] += 1
        work.write("moved_bits")[g] |= (1 << marker).astype(np.uint8)
        work.write("roll")[g] = 0
        return landed

    def _collapse(self, work: _Work, g: NDArray[np.intp], column: NDArray[np.intp]) -> None:
        """The bottom card of ``column`` goes onto the discard pile; the one above moves down."""
        bottom, collapsed = work.write("bottom"), work.write("collapsed")
        size = work.write("discard_size")
        work.write("cards")[g, size[g]] = bottom[g, column]
        size[g] += 1
        gone = collapsed[g, column] + 1
        collapsed[g, column] = gone
        above = work.old["field"][g, column, np.minimum(gone, self.rows - 1)]
        bottom[g, column] = np.where(gone < self.rows, above, EMPTY)

    def _score(
        self,
        work: _Work,
        g: NDArray[np.intp],
        seat: NDArray[np.intp],
        card: NDArray[np.int8],
        scoring: NDArray[np.bool_],
    ) -> NDArray[np.bool_]:
        """``card`` scores for ``seat`` where ``scoring``; whether End stops the game now."""
        ending = work.read("ending")
        end_hit: NDArray[np.bool_] = scoring & (card == _END) & ~ending[g]
        if self.config.end == "immediate":
            ended: NDArray[np.bool_] = end_hit
        else:
            ended = np.zeros(g.size, dtype=bool)
            if end_hit.any():
                work.write("ending")[g[end_hit]] = True
        counted = scoring & (card != _END)
        if not counted.any():
            return ended
        g, seat, card = g[counted], seat[counted], card[counted]
        accounts = work.write("accounts")
        before = accounts[g, seat]
        after = np.where(card == _Z, 0, before + _POINTS[card])
        drawing = np.flatnonzero(card == _B)
        if drawing.size:
            after[drawing] = before[drawing] - self._draw_for_b(work, g[drawing])
        if self.config.floor_at_zero:
            after = np.maximum(after, 0)
        accounts[g, seat] = after
        return ended

    def _draw_for_b(self, work: _Work, g: NDArray[np.intp]) -> NDArray[np.int32]:
        """B draws onto the discard pile until a number, P or T (an empty pack is the
        discard pile shuffled, pack below it); the charges.
        """
        cards, top = work.write("cards"), work.write("pack_top")
        size, last = work.write("discard_size"), self.deck_size
        first = top[g].astype(np.intp)  # each game's first number, P or T from the top
        found = np.zeros(g.size, dtype=bool)
        look = np.arange(g.size)
        while look.size:  # a card at a time, for the games still looking
            look = look[first[look] < last]
            hit = _VALUED[cards[g[look], first[look]]]
            found[look[hit]] = True
            look = look[~hit]
            first[look] += 1
        places = np.arange(last)
        out = np.flatnonzero(~found)
        if out.size:
            pile = cards[g[out]]
            out = out[(_VALUED[pile] & (places < size[g[out], None])).any(axis=1)]
        if out.size:  # the pack runs out: (*discard, *pack) shuffled is the pack
            o = g[out]
            length = (size[o] + last - top[o]).astype(np.intp)
            pile = cards[o]
            at = np.clip(places - size[o, None] + top[o, None], 0, last - 1)
            both = np.where(places < size[o, None], pile, np.take_along_axis(pile, at, 1))
            both, states = _shuffled(work.read("rng")[o], both, length)
            work.write("rng")[o] = states
            at = np.clip(places - (last - length)[:, None], 0, last - 1)
            put = np.take_along_axis(both, at, 1)
            cards[o] = np.where(places >= (last - length)[:, None], put, EMPTY)
            top[o], size[o] = last - length, 0
            first[out] = top[o]
            while True:  # a valued card is in it now
                looking = ~_VALUED[cards[o, first[out]]]
                if not looking.any():
                    break
                first[out[looking]] += 1
            found[out] = True
        g, first = g[found], first[found]
        charge = np.zeros(found.size, dtype=np.int32)
        charge[found] = _COST[cards[g, first]]
        drawn = first + 1 - top[g]
        for offset in range(int(drawn.max(initial=0))):  # onto the pile, in drawing order
            d = drawn > offset
            gd = g[d]
            card = cards[gd, top[gd] + offset]
            cards[gd, top[gd] + offset] = EMPTY
            cards[gd, size[gd] + offset] = card
        size[g] += drawn.astype(np.int16)
        top[g] = first + 1
        return charge

    def _after(
        self,
        work: _Work,
        g: NDArray[np.intp],
        seat: NDArray[np.intp],
        kind: NDArray[np.int8],
        ended: NDArray[np.bool_],
    ) -> None:
        """Who moves next: the next seat in setup, the next turn once every marker moved,
        and the end.
        """
        config: Config = self.config
        players = self.players
        ending = work.read("ending")[g]
        over = ended.copy()
        owned = work.read("owned")[g, seat]
        # setup: a seat places its starting markers, then the next; then play
        placed = (kind == _PLACE) & ~ended & (owned >= config.starting_markers)
        if placed.any():
            seats, phase = work.write("seat"), work.write("phase")
            onward = placed & (seat + 1 < players)
            seats[g[onward]] += 1
            last = placed & ~onward
            over |= last & ending
            begin = g[last & ~ending]
            phase[begin], seats[begin] = _PHASE_PLAY, 0
        # play: the turn ends when every marker of the seat moved
        done = (kind == _ADVANCE) & ~ended & (work.read("moved_count")[g] >= owned)
        if done.any():
            d = g[done]
            turns = work.write("turns")
            turns[d] += 1
            now = turns[d]
            final = (now % players == 0) & (ending[done] | (now == self.last_turn))
            over[done] = final
            work.write("seat")[d[~final]] = (now[~final] % players).astype(np.int8)
            work.write("moved")[d] = -1
            work.write("moved_count")[d] = 0
            work.write("moved_bits")[d] = 0
        if over.any():
            o = g[over]
            work.write("phase")[o] = _PHASE_OVER
            work.write("roll")[o] = 0
            work.write("awaiting_die")[o] = False

    # --- what the Games record shows --------------------------------------------------

    def _games_of(self, data: dict[str, NDArray[Any]]) -> Games:
        phase, seat, roll = data["phase"], data["seat"], data["roll"]
        awaiting, over = data["awaiting_die"], phase == _PHASE_OVER
        player = np.where(over, NOBODY, np.where(awaiting, CHANCE, seat)).astype(np.int64)
        return Games._made(
            current_player=player,
            legal_mask=self._masks(data, phase, seat, roll, awaiting),
            scores=data["accounts"].astype(np.int64),
            over=over,
            data=data,
        )

    def _masks(
        self,
        data: dict[str, NDArray[Any]],
        phase: NDArray[np.int8],
        seat: NDArray[np.int8],
        roll: NDArray[np.int8],
        awaiting: NDArray[np.bool_],
    ) -> NDArray[np.bool_]:
        config: Config = self.config
        rows = np.arange(len(seat))
        owned = data["owned"][rows, seat]
        free = ((1 << owned.astype(np.int32)) - 1) & ~data["moved_bits"].astype(np.int32)
        buy = (
            (data["moved_count"] == 0)
            & (owned < config.max_markers)
            & (data["accounts"][rows, seat] >= config.marker_cost)
        )
        key = np.where(
            roll > 0, _KEY_ADVANCE + (roll.astype(np.int32) - 1) * 256 + free, _KEY_ROLL + buy
        )
        key = np.where(awaiting, _KEY_DIE, key)
        key = np.where(phase == _PHASE_SETUP, _KEY_SETUP, key)
        key = np.where(phase == _PHASE_OVER, _KEY_OVER, key)
        mask = self._mask_table[key]
        if config.collapse:  # buy only on the columns left
            mask[:, _BUY_OFFSET : _BUY_OFFSET + self.columns] &= data["bottom"] != EMPTY
        return mask

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
        bits = data["moved_bits"][:, None] >> np.arange(most, dtype=np.uint8) & 1
        parts.append(bits)
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
        pack = data["cards"][data["pack_top"] :]
        discard = data["cards"][: data["discard_size"]]
        owned = data["owned"]
        roll = int(data["roll"])
        return State(
            config=self.config,
            seed=int(data["seed"]),
            rng=Rng(int(data["rng"])),
            field=field,
            pack=tuple(CARDS[kind] for kind in pack),
            discard=tuple(CARDS[kind] for kind in discard),
            markers=tuple(
                tuple(int(column) for column in data["markers"][seat, : owned[seat]])
                for seat in range(self.players)
            ),
            accounts=tuple(int(account) for account in data["accounts"]),
            phase=PHASES[int(data["phase"])],
            seat=int(data["seat"]),
            turns=int(data["turns"]),
            roll=roll or None,
            awaiting_die=bool(data["awaiting_die"]),
            moved=tuple(int(marker) for marker in data["moved"][: data["moved_count"]]),
            ending=bool(data["ending"]),
        )


def _shuffled(
    states: NDArray[np.uint64], items: NDArray[np.int8], length: NDArray[Any]
) -> tuple[NDArray[np.int8], NDArray[np.uint64]]:
    """Each row's first ``length`` items shuffled as ``Rng.shuffled`` shuffles them
    (Fisher-Yates from the end), and the generators after.
    """
    rows = np.arange(items.shape[0])
    for i in range(int(length.max()) - 1, 0, -1):
        active = i < length
        j, states = batch_rng.below(states, i + 1, active)
        j = np.where(active, j, i).astype(np.intp)
        picked = items[rows, j]
        items[rows, j] = items[:, i]
        items[:, i] = picked
    return items, states


class _Work:
    """The arrays of a step: the old record's, each copied the first time it is written."""

    def __init__(self, old: Any) -> None:
        self.old = old
        self._new: dict[str, NDArray[Any]] = {}

    def read(self, name: str) -> NDArray[Any]:
        """The array as written so far."""
        new = self._new.get(name)
        return self.old[name] if new is None else new

    def write(self, name: str) -> NDArray[Any]:
        """The step's own copy of the array, to write into."""
        new = self._new.get(name)
        if new is None:
            new = self._new[name] = self.old[name].copy()
        return new

    def data(self) -> dict[str, NDArray[Any]]:
        """Every array: the new where written, the old (shared, read-only) elsewhere."""
        return {name: self._new.get(name, value) for name, value in self.old.items()}
