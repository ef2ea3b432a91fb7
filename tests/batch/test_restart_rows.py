"""A step with ``reset=`` deals the finished games into the arrays the step has just made:
it copies the batch's arrays once, as a plain step does, not a second time to restart.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest

from tabletop_rules import account, batch, palace
from tabletop_rules import dice_poker as dp

pytest.importorskip("numba")

from tabletop_rules.account.batch import AccountEngine
from tabletop_rules.dice_poker.batch import DicePokerEngine
from tabletop_rules.palace.batch import PalaceEngine

SIZE = 2048

KERNELS: list[tuple[type[batch.Engine], Any]] = [
    (PalaceEngine, palace.Config(max_turns=12)),
    (DicePokerEngine, dp.Config()),
    (AccountEngine, account.Config()),
]


def _peak(call: Any) -> int:
    """The most bytes allocated at once while ``call`` runs (NumPy reports its arrays)."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _playing_until_some_end(engine: batch.Engine) -> tuple[batch.Games, np.ndarray]:
    """A record whose next step (its actions returned) ends some games and not all."""
    generator = np.random.default_rng(3)
    games = engine.reset(np.arange(SIZE, dtype=np.uint64))
    for _ in range(100_000):
        actions = batch.random_actions(games, generator)
        after = engine.step(games, actions)
        if after.over.any():
            assert not after.over.all()
            return games, actions
        games = after
    raise AssertionError("no game ended")


@pytest.mark.parametrize(("kernel", "config"), KERNELS, ids=lambda k: getattr(k, "__name__", ""))
def test_restarting_finished_games_touches_only_their_rows(
    kernel: type[batch.Engine], config: Any
) -> None:
    engine = kernel(config, SIZE)
    games, actions = _playing_until_some_end(engine)
    seeds = np.arange(SIZE, 2 * SIZE, dtype=np.uint64)
    engine.step(games, actions, reset=seeds)  # compiled before it is measured
    plain = _peak(lambda: engine.step(games, actions))
    restarting = _peak(lambda: engine.step(games, actions, reset=seeds))
    assert restarting < 1.3 * plain, (restarting, plain)
    after = engine.step(games, actions, reset=seeds)
    stepped = engine.step(games, actions)
    ended = stepped.over
    assert not after.over.any()
    for name, value in stepped.data.items():  # the games still playing: the step's rows
        assert np.array_equal(after.data[name][~ended], value[~ended]), name
    held = {name: value.copy() for name, value in stepped.data.items()}
    fresh = engine.restart(stepped, seeds)  # a caller's record: a new one, the old as it was
    for name, value in fresh.data.items():
        assert np.array_equal(after.data[name], value), name
        assert np.array_equal(stepped.data[name], held[name]), name
    assert np.array_equal(fresh.legal_mask, after.legal_mask)
    assert np.array_equal(fresh.scores, after.scores)
    assert stepped.over.any()
