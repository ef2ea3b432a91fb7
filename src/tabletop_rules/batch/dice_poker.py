"""Dice poker's batched kernel: :class:`DicePokerEngine`, thousands of games a call, each
the game :mod:`tabletop_rules.dice_poker` plays from the same seed, throw for throw.

Every house rule of :class:`~tabletop_rules.dice_poker.Config` is taken: any number of
players and stages, every stage order (``announce`` included), the throws, the fences and
their caps, the premium and penalty, the box scores, and ``auto_chance`` both ways (off,
each throw stops at a chance point whose outcome is a ``Dice`` action, as the rules do).
None is refused.

The rules become lookups in tables made once: what each throw scores in each box and
which keeps it allows, the sorted throw each draw of the generator gives, the dice a keep
and an outcome land, the boxes a stage order lets a player fill. A game's row holds its
generator and seed, each seat's sheet (:data:`OPEN` for an open box), open boxes and
fences, the turns played, the dice on the table (the index of the sorted throw in
:data:`~tabletop_rules.dice_poker.scoring.ALL_THROWS`, -1 for none), the throws used,
the box announced and the keep of a throw in the air (its ``Roll`` action, -1 for none);
the scores are the record's own ``scores``.

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

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..dice_poker import moves, scoring
from ..dice_poker.config import STAGE_ORDERS, Config
from ..dice_poker.moves import ACTIONS, BOXES_PER_STAGE, CHANCE_OFFSET, DICE_COUNT, Box
from ..dice_poker.state import State
from ..protocol import CHANCE
from ..rng import Rng
from . import rng as batch_rng
from .frame import NOBODY, Engine, Games

__all__ = ["OPEN", "DicePokerEngine"]

OPEN = np.iinfo(np.int16).min
"""What an open box holds on a batched sheet (the rules say ``None``)."""

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
    open_masks = np.arange(1 << BOXES_PER_STAGE)
    highest = np.where(open_masks > 0, 1 << np.maximum(_bit_length(open_masks) - 1, 0), 0)
    by_order = {  # the boxes each stage order lets a seat fill, by its open boxes
        "free": open_masks,
        "down": open_masks & -open_masks,
        "up": highest,
        "announce": open_masks,
    }
    fillable = np.stack([by_order[order] for order in STAGE_ORDERS])
    faces = np.arange(1, 7)
    counts = np.zeros((len(_THROWS) + 1, 6), dtype=np.float32)  # + no dice
    counts[: len(_THROWS)] = (np.array(_THROWS)[:, :, None] == faces).sum(axis=1)
    kept = np.zeros((len(_ROLLS) + 1, 6), dtype=np.float32)  # + none pending
    kept[: len(_ROLLS)] = [[roll.keep.count(face) for face in faces] for roll in _ROLLS]
    box_of = np.full(len(ACTIONS), -1, dtype=np.int64)
    for number, move in enumerate(ACTIONS):
        if isinstance(move, moves.Write | moves.Scratch | moves.Announce):
            box_of[number] = int(move.box)
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


def _bit_length(values: NDArray[np.int64]) -> NDArray[np.int64]:
    """``int.bit_length`` of each value below ``2 ** 15``."""
    length = np.zeros_like(values)
    for bit in range(BOXES_PER_STAGE):
        length = np.where(values >> bit & 1, bit + 1, length)
    return length


def _lookup(table: NDArray[Any], row: NDArray[Any], column: NDArray[Any]) -> NDArray[Any]:
    """``table[row, column]`` for each game (row -1: the last row), by a flat take, which
    costs a fraction of a two-array fancy index.
    """
    values: NDArray[Any] = table.ravel().take(row * table.shape[1] + column)
    return values


def _unpacked(bits: NDArray[np.int64]) -> NDArray[np.bool_]:
    """``(size, 39)``: bit ``k`` of each game's ``bits``, the legality of action 210 + k."""
    octets = bits.astype("<u8").view(np.uint8).reshape(bits.shape[0], 8)
    return np.unpackbits(octets, axis=1, count=_FILL_BITS, bitorder="little").view(bool)


_TABLES = _tables()


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
        self.stage_order = np.array([_ORDERS[order] for order in config.orders_by_stage])
        table = scoring.score_table(config.box_scores)
        self.points = np.zeros((len(_THROWS) + 1, BOXES_PER_STAGE), dtype=np.int64)
        self.points[: len(_THROWS)] = [table[dice] for dice in _THROWS]
        fits = np.zeros(len(_THROWS) + 1, dtype=np.int64)  # no dice fit nothing
        fits[: len(_THROWS)] = [scoring.FITS[dice] for dice in _THROWS]
        self.fits = fits
        self.max_fences = config.max_fences
        self.max_per_turn = config.max_fences_per_turn
        self.observation_size = self.rules.observation_spec(config).size

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

    # --- the rules over arrays ------------------------------------------------------

    def _throws_allowed(self, bank: NDArray[Any]) -> NDArray[np.int64]:
        """``Config.throws_allowed`` of each bank."""
        config: Config = self.config
        allowed = np.full(bank.shape, config.throws_per_turn, dtype=np.int64)
        if config.fences:
            spendable = bank if self.max_per_turn is None else np.minimum(bank, self.max_per_turn)
            allowed += spendable
        return allowed

    def _at_seat(self, values: NDArray[Any], seat: NDArray[np.int64]) -> NDArray[Any]:
        """Each game's entry of ``(size, players)`` ``values`` for its ``seat`` (a flat
        take: a two-array fancy index costs several times as much).
        """
        return values.ravel().take(self.rows * self.players + seat)

    def _record(self, data: dict[str, NDArray[Any]], scores: NDArray[np.int64]) -> Games:
        """The record of ``data``: the seat to move, the legal mask, the scores, the end."""
        players = self.players
        turns = data["turns"].astype(np.int64)
        over = turns == self.turns_per_game
        seat = turns % players
        stage = np.minimum(turns // (players * BOXES_PER_STAGE), self.config.stages - 1)
        order = self.stage_order[stage]
        dice = data["dice"].astype(np.int64)
        pending = data["pending"].astype(np.int64)
        deciding = ~over & (pending < 0)
        open_mask = self._at_seat(data["open_masks"], seat).astype(np.int64)
        fillable = _lookup(_TABLES["fillable"], order, open_mask)
        thrown = dice >= 0
        announcing = (order == _ANNOUNCE) & thrown
        announced = data["announced"].astype(np.int64)
        to_announce = announcing & (announced < 0)
        fillable = np.where(announcing & ~to_announce, 1 << np.maximum(announced, 0), fillable)
        fillable = np.where(deciding, fillable, 0)
        writes = np.where(thrown & ~to_announce, fillable & self.fits[dice], 0)
        scratches = np.where(to_announce, 0, fillable & _POKER_MASK)
        announcements = np.where(to_announce, fillable, 0)
        bank = self._at_seat(data["fences"], seat)
        can_throw = data["throws_used"] < self._throws_allowed(bank)
        roll_row = np.where(thrown, dice, _NO_DICE)
        roll_row = np.where(deciding & can_throw & ~to_announce, roll_row, _NO_ROLL)
        bits = writes | (scratches >> len(moves.MOUNTAIN)) << BOXES_PER_STAGE
        bits |= announcements << (_FIRST_ANNOUNCE - _FIRST_WRITE)
        legal = np.zeros((self.size, self.num_actions), dtype=bool)
        legal[:, :_FIRST_WRITE] = _TABLES["rolls"].take(roll_row, axis=0)
        legal[:, _FIRST_WRITE:CHANCE_OFFSET] = _unpacked(bits)
        if not self.auto_chance:
            legal[:, CHANCE_OFFSET:] = _TABLES["chance"].take(pending, axis=0)
        player = np.where(over, NOBODY, np.where(pending >= 0, CHANCE, seat))
        return Games._made(
            current_player=player, legal_mask=legal, scores=scores, over=over, data=data
        )

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        return self._record(self._dealt(seeds), np.zeros((self.size, self.players), dtype=np.int64))

    def _dealt(self, seeds: NDArray[np.uint64]) -> dict[str, NDArray[Any]]:
        """The arrays of new games, one per seed: empty sheets, no dice (the scores are 0)."""
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

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        return self._record(*self._played(games, actions, playing))

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Copies of the arrays, the games ``where`` alone dealt into them; one record."""
        data = {name: value.copy() for name, value in games.data.items()}
        rows = np.flatnonzero(where)
        self._dealt_into(data, games.data, rows, self._dealt(seeds[rows]))
        scores = games.scores.copy()
        scores[rows] = 0
        return self._record(data, scores)

    def _step_restarting(
        self,
        games: Games,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64],
    ) -> Games:
        """The step, the games then over dealt into its new arrays' rows, one record."""
        data, scores = self._played(games, actions, playing)
        rows = np.flatnonzero(data["turns"] == self.turns_per_game)
        if rows.size:
            self._dealt_into(data, games.data, rows, self._dealt(seeds[rows]))
            if np.may_share_memory(scores, games.scores):
                scores = scores.copy()
            scores[rows] = 0
        return self._record(data, scores)

    def _played(
        self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]
    ) -> tuple[dict[str, NDArray[Any]], NDArray[np.int64]]:
        """The arrays and scores after the games ``playing`` play (the unchanged ones
        the record's own).
        """
        data = dict(games.data)
        rolling = playing & (actions < _FIRST_WRITE)
        filling = playing & (actions >= _FIRST_WRITE) & (actions < _FIRST_ANNOUNCE)
        announcing = playing & (actions >= _FIRST_ANNOUNCE) & (actions < CHANCE_OFFSET)
        landing = playing & (actions >= CHANCE_OFFSET)
        throws_used = data["throws_used"] + rolling
        if self.auto_chance:
            keep = np.where(rolling, actions, 0)  # a Roll action names what it keeps
            number, data["rng"] = batch_rng.below(data["rng"], _TABLES["bound"][keep], rolling)
            count = DICE_COUNT - _TABLES["keep_size"][keep]
            outcome = _lookup(_TABLES["drawn"], count, number.astype(np.int64))
            dice = np.where(rolling, _lookup(_TABLES["landed"], keep, outcome), data["dice"])
        else:
            pending = data["pending"].astype(np.int64)
            outcome = np.maximum(actions - CHANCE_OFFSET, 0)
            dice = np.where(landing, _lookup(_TABLES["landed"], pending, outcome), data["dice"])
            pending = np.where(rolling, actions, np.where(landing, -1, pending))
            data["pending"] = pending.astype(np.int16)
        box = _TABLES["box_of"][actions]
        data["announced"] = np.where(announcing, box, data["announced"]).astype(np.int8)
        scores = games.scores
        if filling.any():
            scores = self._fill(data, scores, np.flatnonzero(filling), actions, box)
            dice = np.where(filling, -1, dice)
            throws_used = np.where(filling, 0, throws_used)
            data["announced"] = np.where(filling, -1, data["announced"]).astype(np.int8)
        data["dice"] = dice.astype(np.int16)
        data["throws_used"] = throws_used.astype(np.int16)
        return data, scores

    def _fill(
        self,
        data: dict[str, NDArray[Any]],
        scores: NDArray[np.int64],
        games: NDArray[np.intp],
        actions: NDArray[np.int64],
        box: NDArray[np.int64],
    ) -> NDArray[np.int64]:
        """Write or scratch ``games``' boxes: the sheet, the fences, the open boxes, the
        score (with a completed mountain's premium or penalty), the turn passed on; the
        new scores.
        """
        config: Config = self.config
        players = self.players
        turns = data["turns"][games].astype(np.int64)
        seat = turns % players
        stage = turns // (players * BOXES_PER_STAGE)
        box = box[games]
        dice = data["dice"][games].astype(np.int64)
        points = np.where(actions[games] < _FIRST_SCRATCH, _lookup(self.points, dice, box), 0)
        at_seat = games * players + seat  # flat indices into (size, players) arrays
        sheets = data["sheets"].copy()
        cells = sheets.reshape(-1)
        base = at_seat * self.boxes + stage * BOXES_PER_STAGE  # the stage's first cell
        cells[base + box] = points
        data["sheets"] = sheets
        if config.fences:
            fences = data["fences"].copy()
            banks = fences.reshape(-1)
            earned = banks[at_seat] + config.throws_per_turn - data["throws_used"][games]
            if self.max_fences is not None:
                earned = np.minimum(earned, self.max_fences)
            banks[at_seat] = earned
            data["fences"] = fences
        open_masks = data["open_masks"].copy()
        masks = open_masks.reshape(-1)
        left = masks[at_seat] & ~(1 << box)
        next_stage = (left == 0) & (stage + 1 < config.stages)
        masks[at_seat] = np.where(next_stage, _ALL_BOXES, left)
        data["open_masks"] = open_masks
        mountain = cells[base[:, None] + np.arange(len(moves.MOUNTAIN))]
        complete = (box < len(moves.MOUNTAIN)) & (mountain != OPEN).all(axis=1)
        height = mountain.astype(np.int64).sum(axis=1)
        bonus = np.where(height > 0, config.premium, np.where(height < 0, -config.penalty, 0))
        scores = scores.copy()
        scores.reshape(-1)[at_seat] += points + np.where(complete, bonus, 0)
        turns_after = data["turns"].copy()
        turns_after[games] += 1
        data["turns"] = turns_after
        return scores

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
        bank = data["fences"][rows, turns % players]
        put(np.where(over, 0, self._throws_allowed(bank)), 1)
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
        dice = int(data["dice"])
        announced = int(data["announced"])
        pending = int(data["pending"])
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
