"""Pig's batched kernel, for :mod:`tabletop_rules.batch`: importing this module registers
it, so that ``batch.engine("pig", Config(), size)`` plays thousands of games a call, each
the game ``RULES`` plays from the same seed. It throws the die inside (``auto_chance``).

>>> import numpy as np
>>> from tabletop_rules import batch
>>> from tabletop_pig import Config, RULES
>>> import tabletop_pig.batched
>>> engine = batch.engine("pig", Config(), size=2)
>>> games = engine.reset(np.array([5, 6], dtype=np.uint64))
>>> games = engine.step(games, np.array([0, 0]))  # both roll
>>> start = RULES.new_game(seed=5)
>>> engine.state(games, 0) == RULES.apply(start, RULES.decode(start, 0))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from tabletop_rules import batch, kit
from tabletop_rules.batch import rng as batch_rng

from . import RULES
from .rules import MOVES, State

ROLL, HOLD = 0, 1


class PigEngine(batch.Engine):
    """Pig's scores, turn totals and generators as arrays, one row per game."""

    game = "pig"
    ruleset = RULES

    def _prepare(self) -> None:
        if not self.config.auto_chance:
            raise kit.ConfigError(
                "the batched Pig throws the die itself: auto_chance=False is not taken"
            )
        self.target, self.last_turn = self.config.target, self.config.max_rounds * self.players

    def _reset(self, seeds: NDArray[np.uint64]) -> batch.Games:
        zeros = np.zeros(self.size, dtype=np.int32)
        scores = np.zeros((self.size, self.players), dtype=np.int32)
        return self._batch(seeds, seeds.copy(), scores, zeros, zeros)

    def _step(
        self, games: batch.Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]
    ) -> batch.Games:
        seeds, rng, scores, total, turns = (
            games.data[name] for name in ("seed", "rng", "scores", "turn_total", "turns")
        )
        rows, seat = np.arange(self.size), turns % self.players
        rolls = playing & (actions == ROLL)
        face, rng = batch_rng.below(rng, 6, rolls)
        bust = rolls & (face == 0)  # a 1
        total = np.where(rolls & ~bust, total + face.astype(np.int32) + 1, total)
        reached = rolls & ~bust & (scores[rows, seat] + total >= self.target)
        holds = playing & (actions == HOLD)
        banks = holds | reached  # reaching the target banks at once and wins
        scores = scores.copy()
        scores[rows, seat] += np.where(banks, total, 0)
        total = np.where(banks | bust, 0, total)
        return self._batch(seeds, rng, scores, total, turns + (holds | bust))

    def _batch(self, seeds: Any, rng: Any, scores: Any, total: Any, turns: Any) -> batch.Games:
        over = (scores.max(axis=1) >= self.target) | (turns == self.last_turn)
        mask = np.zeros((self.size, len(MOVES.moves)), dtype=bool)
        mask[:, ROLL] = ~over
        mask[:, HOLD] = ~over & (total > 0)
        return batch.Games(
            current_player=np.where(over, batch.NOBODY, turns % self.players).astype(np.int64),
            legal_mask=mask,
            scores=scores.astype(np.int64),
            over=over,
            data={"seed": seeds, "rng": rng, "scores": scores, "turn_total": total, "turns": turns},
        )

    def _observe(self, games: batch.Games) -> NDArray[np.float32]:
        data, players, rows = games.data, self.players, np.arange(self.size)
        seat = np.where(games.over, 0, games.current_player)
        order = (seat[:, None] + np.arange(players)) % players
        viewer = np.zeros((self.size, 1 + players), dtype=np.float32)
        viewer[:, 0] = games.over  # a spectator's view once over
        viewer[rows[~games.over], 1 + seat[~games.over]] = 1
        to_move = np.zeros((self.size, players), dtype=np.float32)
        to_move[~games.over, 0] = 1  # the viewer is the seat to move
        return np.column_stack(
            [
                viewer,
                data["scores"][rows[:, None], order],
                data["turn_total"],
                np.zeros(self.size),
                to_move,
                data["turns"] // players,
            ]
        ).astype(np.float32)

    def _state(self, games: batch.Games, i: int) -> State:
        data = games.data
        return State(
            self.config,
            int(data["seed"][i]),
            kit.Rng(int(data["rng"][i])),
            tuple(data["scores"][i].tolist()),
            int(data["turn_total"][i]),
            int(data["turns"][i]),
        )


batch.register("pig", PigEngine)
