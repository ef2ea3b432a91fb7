"""The batched kit's record checks on the three games' kernels: a record is
tied to its engine, pickles, and a written one is refused or read as the rules allow."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

from tabletop_rules import account, batch, dice_poker, palace
from tabletop_rules.errors import InvalidStateError
from tabletop_rules.testing.batch import check_records

BACKENDS = ["numba"] if importlib.util.find_spec("numba") is not None else []
SIZE = 6
SEEDS = np.arange(SIZE, dtype=np.uint64) * 31

GAMES: list[tuple[str, Any, Any]] = [
    ("dice-poker", dice_poker.Config(), dice_poker.Config(stages=1)),
    ("palace", palace.Config(), palace.Config(players=4)),
    ("account", account.Config(), account.Config(players=3)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("game", "config", "other"), GAMES, ids=[g[0] for g in GAMES])
def test_the_kit_holds_each_kernel_to_the_record_contract(
    backend: str, game: str, config: Any, other: Any
) -> None:
    engine = batch.engine(game, config, SIZE, backend=backend)
    another_game = next(name for name, _, _ in GAMES if name != game)
    others = [
        batch.engine(game, other, SIZE, backend=backend),
        batch.engine(another_game, {g: c for g, c, _ in GAMES}[another_game], SIZE),
    ]
    check_records(engine, SEEDS, others=others)


def test_the_kit_finds_a_kernel_that_takes_a_foreign_record() -> None:
    pytest.importorskip("numba")

    class Trusting(batch.kernel("dice-poker")):  # type: ignore[misc]
        def _check_games(self, games: object) -> None:
            pass

    engine = Trusting(dice_poker.Config(), SIZE)
    other = batch.engine("dice-poker", dice_poker.Config(stages=1), SIZE)
    with pytest.raises(AssertionError, match="took a record"):
        check_records(engine, SEEDS, others=[other])


WRITTEN = [
    ("dice-poker", dice_poker.Config(), "turns", -30000),
    ("dice-poker", dice_poker.Config(), "pending", 5000),
    ("palace", palace.Config(), "seat", 100),
    ("palace", palace.Config(), "pile_size", -1),
    ("account", account.Config(), "owned", 100),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("game", "config", "name", "value"), WRITTEN)
def test_the_kernels_refuse_a_written_record_naming_the_game_and_the_value(
    backend: str, game: str, config: Any, name: str, value: int
) -> None:
    engine = batch.engine(game, config, SIZE, backend=backend)
    games = engine.step(engine.reset(SEEDS), np.zeros(SIZE, dtype=np.int64))
    games.data[name].flags.writeable = True  # the array owns its memory: NumPy allows it
    games.data[name][1] = value
    message = f"game 1: {name} holds {value}"
    with pytest.raises(InvalidStateError, match=message):
        engine.step(games, np.zeros(SIZE, dtype=np.int64))
    with pytest.raises(InvalidStateError, match=message):
        engine.observe(games)
    with pytest.raises(InvalidStateError, match=message):
        engine.state(games, 1)
