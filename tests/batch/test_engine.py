"""The batched engine's entry checks, written once for every kernel (shown on Pig's)."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from tabletop_rules import batch, dice_poker
from tabletop_rules.batch import frame
from tabletop_rules.errors import (
    ConfigError,
    GamePluginError,
    IllegalMoveError,
    InvalidStateError,
    UnknownGameError,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "pig" / "src"))

import tabletop_pig as pig
import tabletop_pig.batched  # registers the kernel


@pytest.fixture
def engine() -> batch.Engine:
    return batch.engine("pig", pig.Config(target=10), size=4)


def seeds(size: int = 4) -> np.ndarray:
    return np.arange(size, dtype=np.uint64)


def test_an_unknown_game_names_the_games_that_have_a_batched_engine() -> None:
    with pytest.raises(UnknownGameError, match="no batched engine for 'chess'; there is one for"):
        batch.engine("chess", pig.Config(), size=4)


def test_a_config_of_another_game_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="a Pig batch takes a Config, got"):
        batch.engine("pig", dice_poker.Config(), size=4)


@pytest.mark.parametrize("size", [0, -1, batch.MAX_SIZE + 1, 2.0, True])
def test_a_size_of_zero_or_beyond_the_bound_is_a_config_error(size: object) -> None:
    with pytest.raises(ConfigError, match=f"size must be a whole number 1 to {batch.MAX_SIZE}"):
        batch.engine("pig", pig.Config(), size=size)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ([0, 1, 2, 3], TypeError, "seeds are a NumPy array of uint64"),
        (np.arange(4), TypeError, "seeds are uint64, got an array of int64"),
        (np.arange(5, dtype=np.uint64), ValueError, r"seeds have shape \(4,\), got \(5,\)"),
        (np.zeros((4, 1), dtype=np.uint64), ValueError, r"seeds have shape \(4,\)"),
    ],
)
def test_seeds_of_the_wrong_type_dtype_or_shape_are_refused(
    engine: batch.Engine, value: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        engine.reset(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ([0, 0, 0, 0], TypeError, "actions are a NumPy array of integers"),
        (np.zeros(4), TypeError, "actions are a NumPy array of integers"),
        (np.zeros(3, dtype=np.int64), ValueError, r"actions have shape \(4,\), got \(3,\)"),
        (np.array([0, 0, 8, 0]), ValueError, "actions are 0 to 7"),
        (np.array([0, -1, 0, 0]), ValueError, "actions are 0 to 7"),
    ],
)
def test_actions_of_the_wrong_type_shape_or_range_are_refused(
    engine: batch.Engine, value: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        engine.step(engine.reset(seeds()), value)  # type: ignore[arg-type]


def test_an_illegal_action_names_its_game_and_the_batch_stays_as_it_was(
    engine: batch.Engine,
) -> None:
    games = engine.reset(seeds())
    before = [engine.state(games, i) for i in range(4)]
    with pytest.raises(IllegalMoveError, match=r"game 2: action 2 \('die 1'\) is not legal"):
        engine.step(games, np.array([0, 0, 2, 0]))
    assert [engine.state(games, i) for i in range(4)] == before


def test_a_game_over_ignores_its_action(engine: batch.Engine) -> None:
    games = engine.reset(seeds())
    while not games.over.any():
        games = engine.step(games, batch.random_actions(games, np.random.default_rng(1)))
    over = int(np.flatnonzero(games.over)[0])
    state = engine.state(games, over)
    actions = batch.random_actions(games, np.random.default_rng(2))
    actions[over] = 7  # illegal anywhere now, and ignored
    assert engine.state(engine.step(games, actions), over) == state


def test_games_are_read_only(engine: batch.Engine) -> None:
    games = engine.reset(seeds())
    with pytest.raises(ValueError, match="read-only"):
        games.scores[0, 0] = 5
    with pytest.raises(ValueError, match="read-only"):
        games.data["scores"][0, 0] = 5
    with pytest.raises(TypeError):
        games.data["scores"] = np.zeros(4)  # type: ignore[index]


def test_games_of_another_batch_are_refused(engine: batch.Engine) -> None:
    other = batch.engine("pig", pig.Config(target=10), size=3).reset(seeds(3))
    with pytest.raises(InvalidStateError, match="plays 4 games a record, the record holds 3"):
        engine.step(other, np.zeros(4, dtype=np.int64))
    with pytest.raises(TypeError, match="expected this engine's Games"):
        engine.observe("games")  # type: ignore[arg-type]


def test_a_record_from_another_engine_is_refused(engine: batch.Engine) -> None:
    other = batch.engine("pig", pig.Config(target=20), size=4).reset(seeds())
    for call in (
        lambda: engine.step(other, np.zeros(4, dtype=np.int64)),
        lambda: engine.restart(other, seeds()),
        lambda: engine.observe(other),
        lambda: engine.winners(other),
        lambda: engine.state(other, 0),
    ):
        with pytest.raises(InvalidStateError, match="made by a pig engine of another config"):
            call()
    twin = batch.engine("pig", pig.Config(target=10), size=4)  # the same game, config, size
    assert twin.state(engine.reset(seeds()), 1) == engine.state(engine.reset(seeds()), 1)


def test_games_copies_the_callers_arrays_and_leaves_them_writable(engine: batch.Engine) -> None:
    games = engine.reset(seeds())
    mine = {name: value.copy() for name, value in games.data.items()}
    built = batch.Games(
        current_player=games.current_player,
        legal_mask=games.legal_mask,
        scores=games.scores,
        over=games.over,
        data=mine,
        made_by=engine.key,
    )
    mine["turns"][0] = 3  # the caller's own stays writable, the record's is its copy
    assert built.data["turns"][0] == 0
    assert engine.state(built, 0) == engine.state(games, 0)


def test_a_record_pickles(engine: batch.Engine) -> None:
    games = engine.step(engine.reset(seeds()), np.zeros(4, dtype=np.int64))
    again = pickle.loads(pickle.dumps(games))
    assert again.made_by == engine.key
    assert [engine.state(again, i) for i in range(4)] == [engine.state(games, i) for i in range(4)]
    assert np.array_equal(again.legal_mask, games.legal_mask)
    assert np.array_equal(engine.observe(again), engine.observe(games))


def test_hand_built_lists_beyond_num_actions_are_refused() -> None:
    with pytest.raises(InvalidStateError, match=r"game 0: legal_actions \[10\] are not its"):
        batch.Games(
            current_player=np.zeros(2, dtype=np.int64),
            legal_actions=np.array([[10], [-1]], dtype=np.int16),
            num_actions=10,
            scores=np.zeros((2, 1), dtype=np.int64),
            over=np.zeros(2, dtype=bool),
            data={},
        )


def test_a_hand_built_record_with_values_out_of_range_is_refused(engine: batch.Engine) -> None:
    games = engine.reset(seeds())
    data = dict(games.data)
    data["turns"] = np.full(4, -30000, dtype=data["turns"].dtype)
    fields: dict[str, Any] = {
        "current_player": games.current_player,
        "legal_mask": games.legal_mask,
        "scores": games.scores,
        "over": games.over,
        "data": data,
    }
    with pytest.raises(InvalidStateError, match="made by no engine"):
        engine.step(batch.Games(**fields), np.zeros(4, dtype=np.int64))
    written = batch.Games(**fields, made_by=engine.key)
    with pytest.raises(InvalidStateError):
        engine.state(written, 0)  # the rules refuse it, if the kernel checks no range


@pytest.mark.parametrize("index", [-1, 4, 1.0, "0"])
def test_a_game_index_outside_the_batch_is_an_index_error(
    engine: batch.Engine, index: object
) -> None:
    with pytest.raises(IndexError, match="a game index is 0 to 3"):
        engine.state(engine.reset(seeds()), index)  # type: ignore[arg-type]


def test_the_registry_lists_the_games_with_a_kernel() -> None:
    assert {"dice-poker", "palace", "account", "pig"} <= set(batch.engines())
    assert batch.kernel("pig") is tabletop_pig.batched.PigEngine


def test_the_callers_seeds_stay_the_callers(engine: batch.Engine) -> None:
    mine = seeds()
    games = engine.reset(mine)
    mine[0] = 99  # still writable, and the batch keeps its own copy
    assert engine.state(games, 0) == pig.RULES.new_game(pig.Config(target=10), seed=0)


def test_a_game_index_may_be_any_numpy_integer(engine: batch.Engine) -> None:
    games = engine.reset(seeds())
    assert engine.state(games, np.int32(2)) == engine.state(games, 2)


def test_register_takes_a_name_and_an_engine_subclass() -> None:
    with pytest.raises(
        TypeError, match="register\\(\\) takes a game's name and an Engine subclass"
    ):
        batch.register("pig", pig.RULES)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", ["numpy", "numba"])
@pytest.mark.parametrize("name", ["dice-poker", "palace", "account"])
def test_register_refuses_a_built_in_games_name(name: str, backend: str) -> None:
    pytest.importorskip("numba")
    before = batch.kernel(name)
    with pytest.raises(GamePluginError, match=f"'{name}' is a built-in game"):
        batch.register(name, tabletop_pig.batched.PigEngine, backend=backend)
    assert batch.kernel(name) is before


def test_the_numpy_backend_is_asked_for_by_name() -> None:
    assert (
        type(batch.engine("pig", pig.Config(), 2, backend="numpy"))
        is tabletop_pig.batched.PigEngine
    )
    assert batch.kernel("pig", "auto") is tabletop_pig.batched.PigEngine  # it has no other


@pytest.mark.parametrize("backend", ["cuda", "NUMBA", None, 1])
def test_a_backend_not_known_is_a_config_error(backend: object) -> None:
    with pytest.raises(ConfigError, match="backend is one of 'auto', 'numpy', 'numba'"):
        batch.engine("pig", pig.Config(), 2, backend=backend)  # type: ignore[arg-type]


def test_a_game_without_a_compiled_kernel_says_so_on_the_numba_backend() -> None:
    pytest.importorskip("numba")
    with pytest.raises(ConfigError, match="pig has no numba kernel"):
        batch.kernel("pig", "numba")


def test_a_kernel_is_registered_for_the_backend_it_is_given() -> None:
    class CompiledPig(tabletop_pig.batched.PigEngine):
        pass

    batch.register("pig", CompiledPig, backend="numba")
    try:
        assert "pig" in batch.engines("numba")
        assert batch.kernel("pig", "numpy") is tabletop_pig.batched.PigEngine
        if importlib.util.find_spec("numba") is not None:
            assert batch.kernel("pig") is CompiledPig  # auto: compiled where it can run
    finally:
        del frame._KERNELS["numba"]["pig"]
    with pytest.raises(ConfigError, match="backend is one of 'numpy', 'numba'"):
        batch.register("pig", CompiledPig, backend="auto")


def test_restart_deals_the_games_asked_for_and_keeps_the_others(engine: batch.Engine) -> None:
    games = engine.step(engine.reset(seeds()), np.zeros(4, dtype=np.int64))
    fresh = np.arange(10, 14, dtype=np.uint64)
    where = np.array([False, True, False, True])
    again = engine.restart(games, fresh, where)
    config = pig.Config(target=10)
    for i in range(4):
        expected = pig.RULES.new_game(config, seed=10 + i) if where[i] else engine.state(games, i)
        assert engine.state(again, i) == expected
    assert engine.restart(games, fresh) is games  # none over: nothing to deal


@pytest.mark.parametrize(
    ("where", "error", "message"),
    [
        ([True] * 4, TypeError, "where is a NumPy array of bool"),
        (np.ones(4, dtype=np.int8), TypeError, "where is a NumPy array of bool"),
        (np.ones(3, dtype=bool), ValueError, "where has shape \\(4,\\), got \\(3,\\)"),
    ],
)
def test_restart_refuses_a_where_not_one_flag_per_game(
    engine: batch.Engine, where: object, error: type[Exception], message: str
) -> None:
    games = engine.reset(seeds())
    with pytest.raises(error, match=message):
        engine.restart(games, seeds(), where)  # type: ignore[arg-type]


def test_the_compiled_range_check_finds_the_array_numpys_finds() -> None:
    masks = pytest.importorskip("tabletop_rules.batch.compiled.masks")
    generator = np.random.default_rng(7)
    for _ in range(200):
        flat: tuple[NDArray[np.integer[Any]], ...] = tuple(
            generator.integers(-5, 6, size=int(generator.integers(0, 40)), dtype=dtype)
            for dtype in (np.int8, np.int16, np.int64)
        )
        bounds = np.sort(generator.integers(-6, 7, size=(3, 2)), axis=1).astype(np.int64)
        assert masks.first_outside(flat, bounds) == frame._first_outside(flat, bounds)


def test_a_batched_engine_is_found_by_its_games_package_spelling_too() -> None:
    pytest.importorskip("numba")
    assert batch.kernel("dice_poker") is batch.kernel("dice-poker")


def test_a_kernel_may_write_stepped_instead_of_step() -> None:
    """The restarting step's hook: a kernel that writes ``_stepped`` alone serves both
    ``step`` and ``step(..., reset=seeds)``, and plays the games a ``_step`` kernel plays.
    """
    handed: list[bool] = []

    class SteppedPig(tabletop_pig.batched.PigEngine):
        def _step(self, games: batch.Games, actions: Any, playing: Any) -> batch.Games:
            raise AssertionError("the frame steps through _stepped")

        def _stepped(
            self, games: batch.Games, actions: Any, playing: Any, seeds: Any
        ) -> batch.Games:
            handed.append(seeds is not None)
            after = super()._step(games, actions, playing)
            return after if seeds is None else self._restart(after, seeds, after.over)

    config, fresh = pig.Config(target=10), np.arange(100, 104, dtype=np.uint64)
    stepped, plain = SteppedPig(config, 4), batch.engine("pig", config, 4)
    ours, theirs = stepped.reset(seeds()), plain.reset(seeds())
    generator = np.random.default_rng(3)
    for turn in range(60):
        actions = batch.random_actions(theirs, generator)
        reset = fresh if turn % 2 else None
        ours, theirs = (
            stepped.step(ours, actions, reset=reset),
            plain.step(theirs, actions, reset=reset),
        )
        assert all(stepped.state(ours, i) == plain.state(theirs, i) for i in range(4))
    assert handed == [turn % 2 == 1 for turn in range(60)]
