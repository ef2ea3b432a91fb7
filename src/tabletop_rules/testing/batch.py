"""Lock-step checks of a batched kernel against the rules engine it must equal.

:func:`check_lockstep` plays a batch with random legal actions and, game by game and step
by step, plays the same moves on the reference :class:`~tabletop_rules.protocol.Ruleset`:
the masks, scores, seats to move, ends, observations and ``engine.state(games, i)`` must be
the reference's, and the winners at the end. A fourth game's kernel runs it as the three
games' kernels do.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from ..batch import NOBODY, Engine, Games, random_actions
from ..protocol import CHANCE

__all__ = ["LockstepReport", "check_lockstep"]


@attrs.frozen
class LockstepReport:
    """What a lock-step run compared: games, steps played and reference states."""

    games: int
    steps: int
    states: int


def check_lockstep(
    engine: Engine,
    seeds: np.ndarray[Any, np.dtype[np.uint64]],
    *,
    action_seed: int = 0,
    max_steps: int | None = None,
    reset_over: bool = False,
) -> LockstepReport:
    """Play ``engine`` from ``seeds`` beside the rules, comparing every game at every step;
    ``AssertionError`` naming the game, the step and what differs. ``max_steps`` bounds the
    steps (default: until every game is over); ``reset_over`` restarts each finished game
    from a fresh seed through ``step(..., reset=...)`` and checks the new game as well.
    """
    if reset_over and max_steps is None:
        raise ValueError("reset_over needs max_steps: restarted games never all end")
    rules, config = engine.rules, engine.config
    generator = np.random.default_rng(action_seed)
    games = engine.reset(seeds)
    states = [rules.new_game(config, seed=int(seed)) for seed in seeds]
    compared = 0
    step = 0
    while True:
        compared += _compare(engine, games, states, step)
        if (max_steps is not None and step >= max_steps) or (games.over.all() and not reset_over):
            break
        actions = random_actions(games, generator)
        fresh = generator.integers(0, 2**64, size=engine.size, dtype=np.uint64)
        games = engine.step(games, actions, reset=fresh if reset_over else None)
        for i, state in enumerate(states):
            if not rules.is_over(state):
                state = rules.apply(state, rules.decode(state, int(actions[i])))
            if reset_over and rules.is_over(state):
                state = rules.new_game(config, seed=int(fresh[i]))
            states[i] = state
        step += 1
    won = engine.winners(games)
    for i, state in enumerate(states):
        seats, expected = frozenset(np.flatnonzero(won[i]).tolist()), rules.winners(state)
        assert seats == expected, (
            f"game {i} at the end: winners {sorted(seats)}, the rules say {sorted(expected)}"
        )
    return LockstepReport(games=engine.size, steps=step, states=compared)


def _compare(engine: Engine, games: Games, states: list[Any], step: int) -> int:
    rules = engine.rules
    observations = engine.observe(games)
    for i, state in enumerate(states):
        where = f"game {i} at step {step}"
        over = rules.is_over(state)
        assert bool(games.over[i]) == over, (
            f"{where}: over is {games.over[i]}, the rules say {over}"
        )
        player = rules.current_player(state)
        expected_player = NOBODY if player is None else player
        assert int(games.current_player[i]) == expected_player, (
            f"{where}: current player {games.current_player[i]}, the rules say {player}"
        )
        assert tuple(games.scores[i].tolist()) == rules.score(state), (
            f"{where}: scores {games.scores[i].tolist()}, the rules say {rules.score(state)}"
        )
        mask = rules.legal_mask(state) if not over else (False,) * engine.num_actions
        got = tuple(games.legal_mask[i].tolist())
        assert got == mask, (
            f"{where}: legal actions {np.flatnonzero(games.legal_mask[i]).tolist()}, the rules "
            f"say {[a for a, legal in enumerate(mask) if legal]}"
        )
        rebuilt = engine.state(games, i)
        assert rebuilt == state, f"{where}: state(games, {i}) differs from the rules' state"
        seat = None if over or player == CHANCE else player
        expected = np.asarray(rules.observe(rules.view(state, seat)), dtype=np.float32)
        assert np.array_equal(observations[i], expected), (
            f"{where}: the observation differs from the rules' observe (as float32)"
        )
    return len(states)
