"""Dice poker's batched kernel: :class:`DicePokerEngine`, thousands of games a call, each
the game :mod:`tabletop_rules.dice_poker` plays from the same seed, throw for throw; a
step, a record and a restart are each one numba loop over the games (the ``batch`` extra).
Every house rule of :class:`~tabletop_rules.dice_poker.Config` is taken, ``auto_chance``
off included (each throw stops at a chance point whose outcome is a ``Dice`` action).

The rules become lookups in tables made once (each throw's points per box and keeps, the
throw each draw gives, the dice a keep and an outcome land, the boxes a stage order lets a
player fill). A game's row holds its generator and seed, each seat's sheet (:data:`OPEN`
for an open box), open boxes and fences, the turns played, the dice (the index of the
throw in :data:`~tabletop_rules.dice_poker.scoring.ALL_THROWS`, -1 for none), the throws
used, the box announced and the keep of a throw in the air (its ``Roll`` action, -1 for
none); the scores are the record's own ``scores``.

The legal actions are written as each game's list (``legal_actions``), the mask made from
them on first read (the 710-wide mask cost more to write and read than the rules): its
rolls, then the boxes it may fill (the set bits of one word), then with dice in the air the
outcomes the keep allows, ascending as the action numbers of the three kinds are.

>>> import numpy as np
>>> from tabletop_rules import batch, dice_poker as dp
>>> engine = batch.engine("dice-poker", dp.Config(), size=2)
>>> games = engine.reset(np.array([42, 7], dtype=np.uint64))
>>> games = engine.step(games, np.array([0, 0]))  # both throw all five dice
>>> engine.state(games, 0).dice == dp.apply(dp.new_game(dp.Config(), seed=42), dp.Roll()).dice
True
>>> write_fives = dp.encode(dp.Write(dp.Box.FIVES))
>>> games = engine.step(games, np.array([write_fives, 0]))
>>> games.scores[0].tolist(), engine.state(games, 0).fences
([-5, 0], (2, 0))
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..batch.compiled import jit
from ..batch.compiled.rng import below
from ..batch.frame import NOBODY, Actions, Engine, Flags, Games, Seeds
from ..protocol import CHANCE
from ..rng import Rng
from . import moves, scoring
from .config import STAGE_ORDERS, Config
from .moves import ACTIONS, BOXES_PER_STAGE, CHANCE_OFFSET, DICE_COUNT, MOUNTAIN, Box
from .state import State

__all__ = ["OPEN", "DicePokerEngine"]

OPEN = np.iinfo(np.int16).min
"""What an open box holds on a batched sheet (the rules say ``None``)."""

_Lists = tuple[NDArray[np.int16], NDArray[np.int64], NDArray[np.bool_]]
"""A record's legal actions as lists, players to move and ends (a step writes them)."""

_THROWS = scoring.ALL_THROWS
_THROW_INDEX = {dice: index for index, dice in enumerate(_THROWS)}
_ROLLS = tuple(move for move in ACTIONS if type(move) is moves.Roll)
_OUTCOMES = tuple(move.values for move in ACTIONS if type(move) is moves.Dice)
_FIRST_WRITE = len(_ROLLS)  # 210
_FIRST_SCRATCH = _FIRST_WRITE + BOXES_PER_STAGE  # 225
_FIRST_ANNOUNCE = _FIRST_SCRATCH + len(moves.POKER_BOXES)  # 234
_FILL_BITS = CHANCE_OFFSET - _FIRST_WRITE  # 39 actions: writes, scratches, announcements
_ALL_BOXES = (1 << BOXES_PER_STAGE) - 1
_POKER_MASK = sum(1 << box for box in moves.POKER_BOXES)
_ORDERS = {order: number for number, order in enumerate(STAGE_ORDERS)}
_ANNOUNCE = _ORDERS["announce"]
_NO_DICE = len(_THROWS)  # the table row of a turn not thrown yet (dice index -1)
_NO_ROLL = _NO_DICE + 1  # the row that allows no roll


def _tables() -> dict[str, NDArray[Any]]:
    """The config-free tables: keeps, draws, landings, fillable boxes, face counts."""
    keeps = {dice: frozenset(kept) for dice, kept in scoring.KEEPS.items()}
    rolls = np.zeros((len(_THROWS) + 2, len(_ROLLS)), dtype=bool)  # + no dice, no roll
    for row, dice in enumerate(_THROWS):
        rolls[row] = [roll.keep in keeps[dice] for roll in _ROLLS]
    rolls[_NO_DICE, 0] = True  # a turn's first throw rolls all five
    keep_size = np.array([len(roll.keep) for roll in _ROLLS], dtype=np.int64)
    outcome_index = {values: index for index, values in enumerate(_OUTCOMES)}
    drawn = np.zeros((DICE_COUNT + 1, 6**DICE_COUNT), dtype=np.int16)
    for count, (_bound, throws) in scoring.THROW_TABLES.items():
        drawn[count, : len(throws)] = [outcome_index[thrown] for thrown in throws]
    landed = np.full((len(_ROLLS) + 1, len(_OUTCOMES)), -1, dtype=np.int16)  # + none pending
    for row, roll in enumerate(_ROLLS):
        for column, values in enumerate(_OUTCOMES):
            if len(roll.keep) + len(values) == DICE_COUNT:
                landed[row, column] = _THROW_INDEX[tuple(sorted(roll.keep + values))]
    masks = np.arange(1 << BOXES_PER_STAGE)
    by_order = {"down": masks & -masks, "up": 1 << np.frexp(masks)[1] >> 1}  # lowest, highest
    fillable = np.stack([by_order.get(order, masks) for order in STAGE_ORDERS])  # by open boxes
    faces = np.arange(1, 7)
    counts = np.zeros((len(_THROWS) + 1, 6), dtype=np.float32)  # + no dice
    counts[: len(_THROWS)] = (np.array(_THROWS)[:, :, None] == faces).sum(axis=1)
    kept = np.zeros((len(_ROLLS) + 1, 6), dtype=np.float32)  # + none pending
    kept[: len(_ROLLS)] = [[roll.keep.count(face) for face in faces] for roll in _ROLLS]
    box_of = np.array([getattr(move, "box", -1) for move in ACTIONS], dtype=np.int64)  # -1: none
    return {
        "rolls": rolls,
        "keep_size": keep_size,
        "bound": (6 ** (DICE_COUNT - keep_size)).astype(np.uint64),
        "drawn": drawn,
        "landed": landed,
        "chance": landed >= 0,
        "fillable": fillable.astype(np.int64),
        "dice_counts": counts,
        "kept_counts": kept,
        "box_of": box_of,
    }


_TABLES = _tables()


_MOUNTAIN = len(MOUNTAIN)
_ANNOUNCE_SHIFT = _FIRST_ANNOUNCE - _FIRST_WRITE


class _House(NamedTuple):
    """The house rules the compiled loop reads (no cap: -1)."""

    players: int
    stages: int
    turns: int
    throws: int
    fences: bool
    max_fences: int
    max_per_turn: int
    premium: int
    penalty: int
    auto_chance: bool


_TABLE_NAMES = ("keep_size", "bound", "drawn", "landed", "fillable", "box_of")
"""The config-free tables (of ``_tables``) the loop reads, in its arguments' order."""


def _ascending(flags: NDArray[np.bool_], first: int) -> tuple[NDArray[np.int16], NDArray[np.int64]]:
    """For each row of ``flags`` the actions ``first`` + its columns set, ascending, then -1
    (as wide as the row with the most), and how many there are.
    """
    counts = flags.sum(axis=1).astype(np.int64)
    listed = np.full((flags.shape[0], max(int(counts.max()), 1)), -1, dtype=np.int16)
    for row, columns in enumerate(flags):
        listed[row, : counts[row]] = first + np.flatnonzero(columns)
    return listed, counts


# the three kinds of action a list holds are numbered in this order, each after the last
assert _TABLES["rolls"].shape[1] == _FIRST_WRITE
assert _FIRST_WRITE + _FILL_BITS == CHANCE_OFFSET
_ROLL_LISTS, _ROLL_COUNTS = _ascending(_TABLES["rolls"], 0)
"""By roll row (a throw, no dice, no roll): the Roll actions it allows, ascending; how many."""
_OUTCOME_LISTS, _OUTCOME_COUNTS = _ascending(_TABLES["chance"], CHANCE_OFFSET)
"""By keep pending (a Roll action; the last row none): its Dice actions, ascending; how many."""
_OCTET_BITS, _OCTET_COUNTS = _ascending((np.arange(256)[:, None] >> np.arange(8) & 1) != 0, 0)
"""By byte: the places of its bits set, ascending; how many."""


def list_width(fits: NDArray[np.int64], auto_chance: bool) -> int:
    """The most legal actions a game may have (``fits``: the boxes each throw, and no dice,
    may be written in): a stage's announcements; a throw's rolls, writes and the poker
    boxes' scratches; with ``auto_chance`` off, the most outcomes of any keep in the air.
    """
    writable = np.array([int(boxes & _ALL_BOXES).bit_count() for boxes in fits])
    assert len(fits) == _NO_DICE + 1  # each throw, then no dice
    assert writable[_NO_DICE] == 0
    rolling = int((_ROLL_COUNTS[: _NO_DICE + 1] + writable).max())
    deciding = max(BOXES_PER_STAGE, rolling + _POKER_MASK.bit_count())
    return deciding if auto_chance else max(deciding, int(_OUTCOME_COUNTS.max()))


@jit
def _advance(
    rng: Any,
    sheets: Any,
    open_masks: Any,
    fences: Any,
    turns: Any,
    dice: Any,
    throws_used: Any,
    announced: Any,
    pending: Any,
    scores: Any,
    listed: Any,
    player: Any,
    over: Any,
    actions: Any,
    playing: Any,
    recording: Any,
    house: Any,
    stage_order: Any,
    points: Any,
    fits: Any,
    roll_lists: Any,
    roll_counts: Any,
    outcome_lists: Any,
    outcome_counts: Any,
    octet_bits: Any,
    octet_counts: Any,
    keep_size: Any,
    bound: Any,
    drawn: Any,
    landed: Any,
    fillable: Any,
    box_of: Any,
) -> None:
    """Each game ``playing`` plays its action in the arrays; each game ``recording`` then
    has its seat to move, legal actions (ascending, then -1) and end written: the rules'
    ``apply`` and ``legal_moves``, game by game.
    """
    players, stages, turns_per_game = house.players, house.stages, house.turns
    throws_per_turn, max_fences, max_per_turn = house.throws, house.max_fences, house.max_per_turn
    per_stage = players * BOXES_PER_STAGE
    width = listed.shape[1]
    row = np.empty(max(width, roll_lists.shape[1] + 8 * 8), dtype=np.int16)
    for i in range(turns.shape[0]):
        if playing[i]:
            action = actions[i]
            if action < _FIRST_WRITE:  # a Roll: the keep is the action's number
                throws_used[i] += 1
                if house.auto_chance:
                    number, rng[i] = below(rng[i], bound[action])
                    outcome = drawn[DICE_COUNT - keep_size[action], np.int64(number)]
                    dice[i] = landed[action, outcome]
                else:
                    pending[i] = action
            elif action >= CHANCE_OFFSET:  # the outcome of the dice in the air
                dice[i] = landed[pending[i], action - CHANCE_OFFSET]
                pending[i] = -1
            elif action >= _FIRST_ANNOUNCE:
                announced[i] = box_of[action]
            else:  # a write or a scratch fills a box and passes the turn on
                box = box_of[action]
                turn = np.int64(turns[i])
                seat, stage = turn % players, turn // per_stage
                first = stage * BOXES_PER_STAGE
                got = points[dice[i], box] if action < _FIRST_SCRATCH else 0
                sheets[i, seat, first + box] = got
                if house.fences:
                    earned = fences[i, seat] + throws_per_turn - throws_used[i]
                    fences[i, seat] = earned if max_fences < 0 else min(earned, max_fences)
                left = open_masks[i, seat] & ~(1 << box)
                open_masks[i, seat] = _ALL_BOXES if left == 0 and stage + 1 < stages else left
                if box < _MOUNTAIN:  # a completed mountain earns its premium or penalty
                    height, complete = 0, True
                    for cell in sheets[i, seat, first : first + _MOUNTAIN]:
                        complete &= cell != OPEN
                        height += cell
                    if complete and height > 0:
                        got += house.premium
                    elif complete and height < 0:
                        got -= house.penalty
                scores[i, seat] += got
                turns[i] += 1
                dice[i], throws_used[i], announced[i] = -1, 0, -1
        if not recording[i]:
            continue
        turn = np.int64(turns[i])
        done = turn == turns_per_game
        seat = turn % players
        order = stage_order[min(turn // per_stage, stages - 1)]
        thrown, keep, box = dice[i] >= 0, np.int64(pending[i]), np.int64(announced[i])
        to_announce = order == _ANNOUNCE and thrown and box < 0
        over[i] = done
        player[i] = NOBODY if done else (CHANCE if keep >= 0 else seat)
        bits, roll_row = 0, _NO_ROLL
        if not done and keep < 0:  # the seat decides: the boxes it may fill, the throws
            can = fillable[order, open_masks[i, seat]]
            if order == _ANNOUNCE and thrown and box >= 0:
                can = 1 << box
            if to_announce:
                bits = can << _ANNOUNCE_SHIFT
            else:
                if thrown:
                    bits = can & fits[dice[i]]
                bits |= (can & _POKER_MASK) >> _MOUNTAIN << BOXES_PER_STAGE
                bank = np.int64(fences[i, seat])
                spendable = bank if max_per_turn < 0 else min(bank, max_per_turn)
                allowed = throws_per_turn + (spendable if house.fences else 0)
                if throws_used[i] < allowed:
                    roll_row = dice[i] if thrown else _NO_DICE
        if keep >= 0:  # dice in the air: their outcomes alone (no roll, no box)
            count = outcome_counts[keep]
            for k in range(count):
                listed[i, k] = outcome_lists[keep, k]
            for k in range(count, width):
                listed[i, k] = -1
            continue
        # the list built in a scratch row by fixed-length (vectorized) copies: the roll row's
        # list, then each byte's bit places (at most the rolls + 8 a byte wide), then -1
        for k in range(roll_lists.shape[1]):
            row[k] = roll_lists[roll_row, k]
        count = roll_counts[roll_row]
        action = _FIRST_WRITE
        while bits != 0:
            octet = bits & 255
            for k in range(8):
                row[count + k] = action + octet_bits[octet, k]
            count += octet_counts[octet]
            bits >>= 8
            action += 8
        for k in range(width):
            listed[i, k] = row[k] if k < count else -1


class DicePokerEngine(Engine):
    """Dice poker under one :class:`~tabletop_rules.dice_poker.Config`, ``size`` games a
    call: every house rule taken (see the module's docstring for the layout).
    """

    game = "dice-poker"
    _winners = Engine._top_scorers  # the rules' winners: the top scores

    def _prepare(self) -> None:
        config: Config = self.config
        self.auto_chance = config.auto_chance
        self.turns_per_game = config.turns_per_game
        self.boxes = config.boxes_per_player
        self.rows = np.arange(self.size)
        self.seat_offsets = np.arange(self.players)
        stage_order = [_ORDERS[order] for order in config.orders_by_stage]
        table = scoring.score_table(config.box_scores)  # the last row: no dice, that fit nothing
        points = np.array(
            [*(table[dice] for dice in _THROWS), (0,) * BOXES_PER_STAGE], dtype=np.int64
        )
        self.fits = np.array([*(scoring.FITS[dice] for dice in _THROWS), 0], dtype=np.int64)
        self.max_per_turn = config.max_fences_per_turn
        self.observation_size = self.rules.observation_spec(config).size
        # the arrays the loop reads and writes, in its arguments' order: a new game's, less the seed
        self.data_names = tuple(self._dealt(np.zeros(1, dtype=np.uint64)))[1:]
        house = _House(
            players=self.players,
            stages=config.stages,
            turns=self.turns_per_game,
            throws=config.throws_per_turn,
            fences=config.fences,
            max_fences=-1 if config.max_fences is None else config.max_fences,
            max_per_turn=-1 if self.max_per_turn is None else self.max_per_turn,
            premium=config.premium,
            penalty=config.penalty,
            auto_chance=self.auto_chance,
        )
        self.tables: tuple[Any, ...] = (
            house,
            np.array(stage_order, dtype=np.int64),
            points,
            self.fits,
            _ROLL_LISTS,
            _ROLL_COUNTS,
            _OUTCOME_LISTS,
            _OUTCOME_COUNTS,
            _OCTET_BITS,
            _OCTET_COUNTS,
            *(_TABLES[name] for name in _TABLE_NAMES),
        )
        self.list_width = list_width(self.fits, self.auto_chance)
        assert self.num_actions == CHANCE_OFFSET + _TABLES["chance"].shape[1]
        self.everyone = np.ones(self.size, dtype=bool)
        self.nobody = np.zeros(self.size, dtype=bool)
        self.no_actions = np.zeros(self.size, dtype=np.int64)

    def _check_record(self, games: Games) -> None:
        """The arrays the step and record index by, within their tables (the turns up to
        the game's, the throw, the keep in the air, the box announced, the open boxes),
        and ``over`` as the turns say: no record drives the compiled loop out of bounds.
        """
        self._check_ranges(
            games,
            {
                "turns": (0, self.turns_per_game),
                "dice": (-1, len(_THROWS) - 1),
                "pending": (-1, -1 if self.auto_chance else len(_ROLLS) - 1),
                "announced": (-1, BOXES_PER_STAGE - 1),
                "open_masks": (0, _ALL_BOXES),
            },
        )
        done = games.data["turns"] == self.turns_per_game
        self._refuse(games, games.over != done, "over is not whether all its turns are played")

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        data, scores = self._dealt(seeds), np.zeros((self.size, self.players), dtype=np.int64)
        record = self._fresh_record()
        self._advance(data, scores, record, self.no_actions, self.nobody, self.everyone)
        return self._games(data, scores, record)

    def _dealt(self, seeds: NDArray[np.uint64]) -> dict[str, NDArray[Any]]:
        """The arrays of new games, one per seed: empty sheets, no dice (the scores are 0);
        after the seed, in the order the compiled loop takes them.
        """
        size, players = len(seeds), self.players
        return {
            "seed": seeds.copy(),
            "rng": seeds.copy(),
            "sheets": np.full((size, players, self.boxes), OPEN, dtype=np.int16),
            "open_masks": np.full((size, players), _ALL_BOXES, dtype=np.int16),
            "fences": np.zeros((size, players), dtype=np.int16),
            "turns": np.zeros(size, dtype=np.int16),
            "dice": np.full(size, -1, dtype=np.int16),
            "throws_used": np.zeros(size, dtype=np.int16),
            "announced": np.full(size, -1, dtype=np.int8),
            "pending": np.full(size, -1, dtype=np.int16),
        }

    def _games(
        self, data: dict[str, NDArray[Any]], scores: NDArray[np.int64], record: _Lists
    ) -> Games:
        """The record of ``data``, ``scores`` and ``record``'s lists, players and ends."""
        listed, player, over = record
        return Games._made(
            current_player=player,
            legal_actions=listed,
            num_actions=self.num_actions,
            scores=scores,
            over=over,
            data=data,
        )

    def _advance(
        self,
        data: dict[str, NDArray[Any]],
        scores: NDArray[np.int64],
        record: _Lists,
        actions: Actions,
        playing: Flags,
        recording: Flags,
    ) -> None:
        """One compiled call: the games ``playing`` of ``data`` and ``scores`` (the
        caller's own, written in place) stepped, and those ``recording`` recorded into
        ``record``.
        """
        arrays = [data[name] for name in self.data_names]
        arrays += [scores, *record, actions, playing, recording, *self.tables]
        _advance(*arrays)

    def _fresh_record(self) -> _Lists:
        """Arrays for a record every game of which is written."""
        size = self.size
        listed = np.empty((size, self.list_width), dtype=np.int16)
        return listed, np.empty(size, dtype=np.int64), np.empty(size, dtype=bool)

    def _dealt_into(
        self, data: dict[str, NDArray[Any]], scores: NDArray[np.int64], seeds: Seeds, where: Flags
    ) -> None:
        """The games ``where`` of ``data`` and ``scores`` (the caller's own) dealt again from
        their ``seeds``, row by row; not yet recorded.
        """
        rows = np.flatnonzero(where)
        for name, value in self._dealt(seeds[rows]).items():
            data[name][rows] = value
        scores[rows] = 0

    def _stepped(
        self, games: Games, actions: Actions, playing: Flags, seeds: Seeds | None
    ) -> Games:
        """The step into copies of the arrays; with ``seeds``, the games then over dealt
        into those rows alone and recorded again: the arrays are copied once.
        """
        data = {name: value.copy() for name, value in games.data.items()}
        scores, record = games.scores.copy(), self._fresh_record()
        self._advance(data, scores, record, actions, playing, self.everyone)
        over = record[2]
        if seeds is not None and over.any():
            self._dealt_into(data, scores, seeds, over)
            self._advance(data, scores, record, self.no_actions, self.nobody, over.copy())
        return self._games(data, scores, record)

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Deals only the games ``where`` into copies of the arrays, and records those."""
        data = {name: value.copy() for name, value in games.data.items()}
        scores = games.scores.copy()
        self._dealt_into(data, scores, seeds, where)
        listed = games.legal_actions
        if listed is None or listed.shape[1] != self.list_width:  # another kernel's record:
            recording = self.everyone  # each game's record is its arrays', so write them all
            record = self._fresh_record()
        else:
            record = (listed.copy(), games.current_player.copy(), games.over.copy())
            recording = where.copy()  # writable: a read-only array would compile a second loop
        self._advance(data, scores, record, self.no_actions, self.nobody, recording)
        return self._games(data, scores, record)

    # --- what the rules read off a game ---------------------------------------------

    def _observe(self, games: Games) -> NDArray[np.float32]:
        data, players, stages = games.data, self.players, self.config.stages
        size, rows = self.size, self.rows
        turns = data["turns"].astype(np.int64)
        over = games.over
        pending = data["pending"].astype(np.int64)
        spectator = over | (pending >= 0)
        seat = np.where(spectator, 0, turns % players)
        order = (seat[:, None] + self.seat_offsets) % players  # seats from the viewer's
        rows2 = rows[:, None]
        out = np.zeros((size, self.observation_size), dtype=np.float32)
        at = 0

        def put(values: NDArray[Any], width: int) -> None:
            nonlocal at
            out[:, at : at + width] = values.reshape(size, width)
            at += width

        put(spectator, 1)
        out[rows, at + seat] = ~spectator
        at += players
        out[:, at] = ~spectator  # the seat to move is the viewer, P0
        at += players
        put(pending >= 0, 1)
        put(over, 1)
        stage = np.minimum(turns // (players * BOXES_PER_STAGE), stages - 1)
        out[rows, at + stage] = 1
        at += stages
        sheets = data["sheets"][rows2, order]
        filled = sheets != OPEN
        put(filled, players * self.boxes)
        put(np.where(filled, sheets, 0), players * self.boxes)
        put(data["fences"][rows2, order], players)
        put(games.scores[rows2, order], players)
        put(data["throws_used"], 1)
        bank = data["fences"][rows, turns % players].astype(np.int64)  # Config.throws_allowed:
        if self.max_per_turn is not None:
            bank = np.minimum(bank, self.max_per_turn)
        allowed = self.config.throws_per_turn + (bank if self.config.fences else 0)
        put(np.where(over, 0, allowed), 1)
        put(_TABLES["dice_counts"][data["dice"]], 6)
        put(pending >= 0, 1)
        put(_TABLES["kept_counts"][pending], 6)
        announced = data["announced"].astype(np.int64)
        out[rows, at + np.maximum(announced, 0)] = announced >= 0
        at += BOXES_PER_STAGE
        assert at == self.observation_size
        return out

    def _state(self, games: Games, i: int) -> State:
        data = {name: value[i] for name, value in games.data.items()}
        sheets = tuple(
            tuple(None if cell == OPEN else cell for cell in sheet.tolist())
            for sheet in data["sheets"]
        )
        dice, announced, pending = (int(data[name]) for name in ("dice", "announced", "pending"))
        return State(
            config=self.config,
            seed=int(data["seed"]),
            rng=Rng(int(data["rng"])),
            sheets=sheets,
            open_masks=tuple(data["open_masks"].tolist()),
            totals=tuple(games.scores[i].tolist()),
            fences=tuple(data["fences"].tolist()),
            turns_played=int(data["turns"]),
            dice=_THROWS[dice] if dice >= 0 else (),
            throws_used=int(data["throws_used"]),
            announced=Box(announced) if announced >= 0 else None,
            pending_keep=_ROLLS[pending].keep if pending >= 0 else None,
        )
