"""Dice poker's compiled kernel: :class:`CompiledDicePokerEngine` plays a step, or records
a deal, as one numba loop over the games, reading the NumPy kernel's tables and writing
its arrays, so that both give the same :class:`~tabletop_rules.batch.Games`, array for
array; the legal actions it writes as each game's list (``legal_actions``), the mask made
from them on first read: the 710-wide mask cost more to write and read than the rules.

A game's list is its rolls (the keeps its throw allows, from a table by throw), then the
boxes it may fill (writes, scratches, announcements: the set bits of one word), then with
``auto_chance`` off and dice in the air the outcomes the keep allows (from a table by
keep): ascending, as the action numbers of the three kinds are.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...dice_poker.moves import BOXES_PER_STAGE, CHANCE_OFFSET, DICE_COUNT, MOUNTAIN
from ...protocol import CHANCE
from ..dice_poker import (
    _ALL_BOXES,
    _ANNOUNCE,
    _FILL_BITS,
    _FIRST_ANNOUNCE,
    _FIRST_SCRATCH,
    _FIRST_WRITE,
    _NO_DICE,
    _NO_ROLL,
    _POKER_MASK,
    _TABLES,
    OPEN,
    DicePokerEngine,
)
from ..frame import NOBODY, Games
from . import jit
from .rng import below

__all__ = ["CompiledDicePokerEngine"]

_MOUNTAIN = len(MOUNTAIN)
_ANNOUNCE_SHIFT = _FIRST_ANNOUNCE - _FIRST_WRITE

_HOUSE = (
    "players",
    "stages",
    "turns",
    "throws",
    "fences",
    "max_fences",
    "max_per_turn",
    "premium",
    "penalty",
    "auto_chance",
)
"""The house rules the compiled loop reads, in this order in one int64 array (no cap: -1)."""
(
    _PLAYERS,
    _STAGES,
    _TURNS,
    _THROWS,
    _FENCES,
    _MAX_FENCES,
    _MAX_PER_TURN,
    _PREMIUM,
    _PENALTY,
    _AUTO_CHANCE,
) = range(len(_HOUSE))

_TABLE_NAMES = ("keep_size", "bound", "drawn", "landed", "fillable", "box_of")
"""The NumPy kernel's config-free tables the loop reads, in its arguments' order."""

_DATA_NAMES = (
    "rng",
    "sheets",
    "open_masks",
    "fences",
    "turns",
    "dice",
    "throws_used",
    "announced",
    "pending",
)
"""The arrays of a game the loop reads and writes (not the seed), in its arguments' order."""


def _ascending(flags: NDArray[np.bool_], first: int) -> tuple[NDArray[np.int16], NDArray[np.int64]]:
    """For each row of ``flags`` the actions ``first`` + its columns set, ascending, then -1
    (as wide as the row with the most), and how many there are.
    """
    counts = flags.sum(axis=1).astype(np.int64)
    listed = np.full((flags.shape[0], max(int(counts.max()), 1)), -1, dtype=np.int16)
    for row, columns in enumerate(flags):
        places = np.flatnonzero(columns)
        listed[row, : places.size] = first + places
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
    """The most legal actions a game may have, from the tables (``fits``: the boxes each
    throw, and no dice, may be written in). With no dice in the air a seat announcing has
    its announcements alone, at most a stage's boxes; any other its rolls (those of its
    throw, or of no dice) and writes (at most the boxes its throw fits) and scratches (at
    most the poker boxes). With ``auto_chance`` off and dice in the air: the keep's
    outcomes alone, at most the most of any keep.
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
    has its seat to move, legal actions (ascending, then -1) and end written: the NumPy
    kernel's ``_step`` and ``_record``, game by game.
    """
    players, stages, turns_per_game = house[_PLAYERS], house[_STAGES], house[_TURNS]
    throws_per_turn = house[_THROWS]
    max_fences, max_per_turn = house[_MAX_FENCES], house[_MAX_PER_TURN]
    per_stage = players * BOXES_PER_STAGE
    width = listed.shape[1]
    row = np.empty(max(width, roll_lists.shape[1] + 8 * 8), dtype=np.int16)
    for i in range(turns.shape[0]):
        if playing[i]:
            action = actions[i]
            if action < _FIRST_WRITE:  # a Roll: the keep is the action's number
                throws_used[i] += 1
                if house[_AUTO_CHANCE]:
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
                if house[_FENCES]:
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
                        got += house[_PREMIUM]
                    elif complete and height < 0:
                        got -= house[_PENALTY]
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
                allowed = throws_per_turn + (spendable if house[_FENCES] else 0)
                if throws_used[i] < allowed:
                    roll_row = dice[i] if thrown else _NO_DICE
        if keep >= 0:  # dice in the air: their outcomes alone (no roll, no box)
            count = outcome_counts[keep]
            for k in range(count):
                listed[i, k] = outcome_lists[keep, k]
            for k in range(count, width):
                listed[i, k] = -1
            continue
        # the list made in a scratch row, by fixed-length copies (vectorized): the roll
        # row's list whole, then each byte of the bits' places, the count moved on by the
        # actions kept; then its first count, then -1. The row is wide enough: a byte's
        # copy starts at most at the most rolls + 8 a byte before (39 bits: 5 bytes)
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


class CompiledDicePokerEngine(DicePokerEngine):
    """:class:`~tabletop_rules.batch.dice_poker.DicePokerEngine` with its step, record and
    restart compiled: the same games, the same arrays, a fraction of the time.
    """

    game = "dice-poker"

    def _prepare(self) -> None:
        super()._prepare()
        config = self.config
        house = {
            "players": self.players,
            "stages": config.stages,
            "turns": self.turns_per_game,
            "throws": config.throws_per_turn,
            "fences": config.fences,
            "max_fences": -1 if self.max_fences is None else self.max_fences,
            "max_per_turn": -1 if self.max_per_turn is None else self.max_per_turn,
            "premium": config.premium,
            "penalty": config.penalty,
            "auto_chance": self.auto_chance,
        }
        self.tables: tuple[NDArray[Any], ...] = (
            np.array([house[name] for name in _HOUSE], dtype=np.int64),
            self.stage_order.astype(np.int64),
            self.points,
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

    def _advanced(
        self,
        data: dict[str, NDArray[Any]],
        scores: NDArray[np.int64],
        record: tuple[NDArray[np.int16], NDArray[np.int64], NDArray[np.bool_]],
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        recording: NDArray[np.bool_],
    ) -> Games:
        """Games of ``data`` and ``scores`` (the caller's own, written in place), the games
        ``playing`` stepped and those ``recording`` recorded into ``record``.
        """
        self._advance(data, scores, record, actions, playing, recording)
        return self._games(data, scores, record)

    def _games(
        self,
        data: dict[str, NDArray[Any]],
        scores: NDArray[np.int64],
        record: tuple[NDArray[np.int16], NDArray[np.int64], NDArray[np.bool_]],
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
        record: tuple[NDArray[np.int16], NDArray[np.int64], NDArray[np.bool_]],
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        recording: NDArray[np.bool_],
    ) -> None:
        """The compiled call of :meth:`_advanced`, writing its arrays in place."""
        arrays = [data[name] for name in _DATA_NAMES]
        arrays += [scores, *record, actions, playing, recording, *self.tables]
        _advance(*arrays)

    def _fresh_record(self) -> tuple[NDArray[np.int16], NDArray[np.int64], NDArray[np.bool_]]:
        """Arrays for a record every game of which is written."""
        size = self.size
        listed = np.empty((size, self.list_width), dtype=np.int16)
        return listed, np.empty(size, dtype=np.int64), np.empty(size, dtype=bool)

    def _record(self, data: dict[str, NDArray[Any]], scores: NDArray[np.int64]) -> Games:
        record = self._fresh_record()
        return self._advanced(data, scores, record, self.no_actions, self.nobody, self.everyone)

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        data = {name: value.copy() for name, value in games.data.items()}
        record = self._fresh_record()
        return self._advanced(data, games.scores.copy(), record, actions, playing, self.everyone)

    def _step_restarting(
        self,
        games: Games,
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        seeds: NDArray[np.uint64],
    ) -> Games:
        """The step into copies of the arrays, then the games over dealt into those rows
        alone and recorded again: the arrays are copied once.
        """
        data = {name: value.copy() for name, value in games.data.items()}
        scores, record = games.scores.copy(), self._fresh_record()
        self._advance(data, scores, record, actions, playing, self.everyone)
        over = record[2]
        if not over.any():
            return self._games(data, scores, record)
        rows = np.flatnonzero(over)
        for name, value in self._dealt(seeds[rows]).items():
            data[name][rows] = value
        scores[rows] = 0
        return self._advanced(data, scores, record, self.no_actions, self.nobody, over.copy())

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Deals only the games ``where`` into copies of the arrays, and records those."""
        rows = np.flatnonzero(where)
        data = {name: value.copy() for name, value in games.data.items()}
        for name, value in self._dealt(seeds[rows]).items():
            data[name][rows] = value
        scores = games.scores.copy()
        scores[rows] = 0
        listed = games.legal_actions
        if listed is None or listed.shape[1] != self.list_width:  # another kernel's record:
            recording = self.everyone  # each game's record is its arrays', so write them all
            record = self._fresh_record()
        else:
            record = (listed.copy(), games.current_player.copy(), games.over.copy())
            recording = where.copy()  # writable: a read-only array would compile a second loop
        return self._advanced(data, scores, record, self.no_actions, self.nobody, recording)
