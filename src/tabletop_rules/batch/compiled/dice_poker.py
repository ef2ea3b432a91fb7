"""Dice poker's compiled kernel: :class:`CompiledDicePokerEngine` plays a step, or records
a deal, as one numba loop over the games, reading the NumPy kernel's tables and writing
its arrays, so that both give the same :class:`~tabletop_rules.batch.Games`, array for array.
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

_TABLE_NAMES = ("rolls", "keep_size", "bound", "drawn", "landed", "chance", "fillable", "box_of")
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
    legal: Any,
    player: Any,
    over: Any,
    actions: Any,
    playing: Any,
    recording: Any,
    house: Any,
    stage_order: Any,
    points: Any,
    fits: Any,
    rolls: Any,
    keep_size: Any,
    bound: Any,
    drawn: Any,
    landed: Any,
    chance: Any,
    fillable: Any,
    box_of: Any,
) -> None:
    """Each game ``playing`` plays its action in the arrays; each game ``recording`` then
    has its seat to move, legal mask and end written: the NumPy kernel's ``_step`` and
    ``_record``, game by game.
    """
    players, stages, turns_per_game = house[_PLAYERS], house[_STAGES], house[_TURNS]
    throws_per_turn = house[_THROWS]
    max_fences, max_per_turn = house[_MAX_FENCES], house[_MAX_PER_TURN]
    per_stage = players * BOXES_PER_STAGE
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
        for k in range(_FIRST_WRITE):  # loops: a slice assigned may be copied first
            legal[i, k] = rolls[roll_row, k]
        for k in range(_FILL_BITS):
            legal[i, _FIRST_WRITE + k] = (bits >> k) & 1 != 0
        if keep < 0:  # no dice in the air: no outcome (stores alone, no table read)
            for k in range(chance.shape[1]):
                legal[i, CHANCE_OFFSET + k] = False
        else:
            for k in range(chance.shape[1]):
                legal[i, CHANCE_OFFSET + k] = chance[keep, k]
        over[i] = done
        player[i] = NOBODY if done else (CHANCE if keep >= 0 else seat)


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
            *(_TABLES[name] for name in _TABLE_NAMES),
        )
        self.everyone = np.ones(self.size, dtype=bool)
        self.nobody = np.zeros(self.size, dtype=bool)
        self.no_actions = np.zeros(self.size, dtype=np.int64)

    def _advanced(
        self,
        data: dict[str, NDArray[Any]],
        scores: NDArray[np.int64],
        record: tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.bool_]],
        actions: NDArray[np.int64],
        playing: NDArray[np.bool_],
        recording: NDArray[np.bool_],
    ) -> Games:
        """Games of ``data`` and ``scores`` (the caller's own, written in place), the games
        ``playing`` stepped and those ``recording`` recorded into ``record``.
        """
        arrays = [data[name] for name in _DATA_NAMES]
        arrays += [scores, *record, actions, playing, recording, *self.tables]
        _advance(*arrays)
        legal, player, over = record
        return Games(current_player=player, legal_mask=legal, scores=scores, over=over, data=data)

    def _fresh_record(self) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.bool_]]:
        """Arrays for a record every game of which is written."""
        size = self.size
        legal = np.empty((size, self.num_actions), dtype=bool)
        return legal, np.empty(size, dtype=np.int64), np.empty(size, dtype=bool)

    def _record(self, data: dict[str, NDArray[Any]], scores: NDArray[np.int64]) -> Games:
        record = self._fresh_record()
        return self._advanced(data, scores, record, self.no_actions, self.nobody, self.everyone)

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        data = {name: value.copy() for name, value in games.data.items()}
        record = self._fresh_record()
        return self._advanced(data, games.scores.copy(), record, actions, playing, self.everyone)

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """Deals only the games ``where`` into copies of the arrays, and records those."""
        rows = np.flatnonzero(where)
        data = {name: value.copy() for name, value in games.data.items()}
        for name, value in self._dealt(seeds[rows]).items():
            data[name][rows] = value
        scores = games.scores.copy()
        scores[rows] = 0
        record = (games.legal_mask.copy(), games.current_player.copy(), games.over.copy())
        recording = where.copy()  # writable: a read-only array would compile a second loop
        return self._advanced(data, scores, record, self.no_actions, self.nobody, recording)
