"""Issue 32, point 3: draws outside the contract of ``random_actions`` and ``nth_legal``
(floats in [0, 1), one a game) are refused with the library's error on both readers (NumPy's
and the compiled one) and every kernel, never read outside a row; valid draws always give a
legal action; a record's lists never write outside its mask.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import account, batch, palace
from tabletop_rules import dice_poker as dp
from tabletop_rules.batch import frame, nth_legal, random_actions
from tabletop_rules.errors import IllegalMoveError, InvalidStateError
from tabletop_rules.testing import batch as kit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "pig" / "src"))

import tabletop_pig as pig
import tabletop_pig.batched  # registers the kernel

HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="numba")

KERNELS = [pytest.param("numba", marks=needs_numba)]
"""The built-in games' one backend: account writes masks, dice poker and palace lists."""

READERS = ["numpy", pytest.param("compiled", marks=needs_numba)]
"""What reads the draws off a record: NumPy's pass, or the compiled one of ``masks``."""

GAMES = [
    ("dice-poker", dp.Config()),
    ("palace", palace.Config(players=3)),
    ("account", account.Config()),
]

ODD = [math.nan, math.inf, -math.inf, -1.0, -1e-300, 1.0, 1.5, 1e300]


def _masks() -> Any:
    from tabletop_rules.batch.compiled import masks

    return masks


@contextmanager
def _reader(name: str) -> Iterator[None]:
    masks = _masks() if name == "compiled" else None
    with mock.patch.object(frame, "_compiled_masks", return_value=masks):
        yield


class _Duck:
    """Duck-typed as ``random_actions`` reads a generator: ``random(size)`` gives ``make(size)``."""

    def __init__(self, make: Callable[[int], Any]) -> None:
        self.make = make

    def random(self, size: int) -> Any:
        return self.make(size)


def _generator(make: Callable[[int], Any]) -> np.random.Generator:
    return cast(np.random.Generator, _Duck(make))


def _fixed(draws: Any) -> np.random.Generator:
    return _generator(lambda _size: draws)


def _one_odd(value: float, game: int = 1) -> np.random.Generator:
    def make(size: int) -> np.ndarray:
        draws = np.random.default_rng(size).random(size)
        draws[game] = value
        return draws

    return _generator(make)


def _played(name: str, config: Any, backend: str, size: int = 6, steps: int = 5) -> batch.Games:
    engine = batch.engine(name, config, size, backend=backend)
    games = engine.reset(np.arange(size, dtype=np.uint64) + 11)
    generator = np.random.default_rng(3)
    for _ in range(steps):
        games = engine.step(games, random_actions(games, generator))
    return games


@pytest.mark.parametrize("value", ODD)
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("backend", KERNELS)
@pytest.mark.parametrize(("name", "config"), GAMES)
def test_draws_that_are_nan_infinite_negative_or_one_are_refused_on_every_backend(
    name: str, config: Any, backend: str, reader: str, value: float
) -> None:
    games = _played(name, config, backend)
    with _reader(reader), pytest.raises(IllegalMoveError, match=r"\[0, 1\).*game 1 drew"):
        random_actions(games, _one_odd(value))


@pytest.mark.parametrize("shape", [(7,), (5,), (6, 1), (), (0,)])
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("backend", KERNELS)
@pytest.mark.parametrize(("name", "config"), GAMES)
def test_draws_of_another_shape_are_refused_on_every_backend(
    name: str, config: Any, backend: str, reader: str, shape: tuple[int, ...]
) -> None:
    games = _played(name, config, backend)
    with _reader(reader), pytest.raises(IllegalMoveError, match=r"draws have shape \(6,\)"):
        random_actions(games, _fixed(np.full(shape, 0.5)))


@pytest.mark.parametrize(
    "draws",
    [np.zeros(6, dtype=np.int64), [0.5] * 6, 0.5, np.zeros(6, dtype=complex), np.zeros(6, object)],
)
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("backend", KERNELS)
def test_draws_that_are_not_a_float_array_are_a_type_error(
    backend: str, reader: str, draws: Any
) -> None:
    games = _played("palace", palace.Config(players=3), backend)
    with _reader(reader), pytest.raises(TypeError, match="draws are a NumPy array of floats"):
        random_actions(games, _fixed(draws))


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("backend", KERNELS)
@pytest.mark.parametrize(("name", "config"), GAMES)
def test_valid_draws_always_give_legal_actions_on_every_backend(
    name: str, config: Any, backend: str, reader: str
) -> None:
    size = 12
    engine = batch.engine(name, config, size, backend=backend)
    games = engine.reset(np.arange(size, dtype=np.uint64))
    edges = np.array([0.0, -0.0, np.nextafter(1.0, 0.0), 0.5, 2.0**-60, 1 - 2.0**-30] * 2)
    float32 = np.random.default_rng(0).random(size, dtype=np.float32)
    with _reader(reader):
        for step in range(40):
            choice = step % 3
            draws: np.ndarray = (edges, float32, np.random.default_rng(step).random(size))[choice]
            actions = random_actions(games, _fixed(draws))
            for i, action in enumerate(actions.tolist()):
                assert 0 <= action < engine.num_actions
                assert games.over[i] or games.legal_mask[i, action], (step, i, action)
                assert not games.over[i] or action == 0
            games = engine.step(games, actions, reset=np.arange(size, dtype=np.uint64) + step)


def test_nth_legal_refuses_a_negative_draw_instead_of_reading_outside_its_rows() -> None:
    with pytest.raises(IllegalMoveError, match=r"draws are floats in \[0, 1\).*game 0 drew -1.0"):
        nth_legal(np.ones((3, 4), dtype=bool), np.full(3, -1.0))


@needs_numba
def test_the_compiled_nth_legal_refuses_what_nth_legal_refuses() -> None:
    masks, mask = _masks(), np.ones((3, 4), dtype=bool)
    for value in ODD:
        draws = np.array([0.5, value, 0.5])
        with pytest.raises(IllegalMoveError, match="game 1 drew") as numpy_error:
            nth_legal(mask, draws)
        with pytest.raises(IllegalMoveError, match="game 1 drew") as compiled_error:
            masks.nth_legal(mask, draws)
        assert str(compiled_error.value) == str(numpy_error.value)
    with pytest.raises(TypeError, match="a legal mask is a NumPy array of bool"):
        masks.nth_legal(np.ones((3, 4)), np.full(3, 0.5))
    with pytest.raises(IllegalMoveError, match=r"draws have shape \(3,\)"):
        masks.nth_legal(mask, np.full(4, 0.5))


@pytest.mark.parametrize("mask", [np.ones((3, 4)), np.ones((3, 4), dtype=np.uint8), [[True] * 4]])
def test_nth_legal_takes_only_a_mask_of_bool(mask: Any) -> None:
    with pytest.raises(TypeError, match="a legal mask is a NumPy array of bool"):
        nth_legal(mask, np.full(3, 0.5))


@pytest.mark.parametrize("shape", [(4,), (3, 0), (2, 3, 4), ()])
def test_nth_legal_takes_a_mask_of_games_by_actions(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"a legal mask has shape \(games, actions\)"):
        nth_legal(np.ones(shape, dtype=bool), np.full(3, 0.5))


def test_nth_legal_takes_one_draw_a_row_of_its_mask() -> None:
    with pytest.raises(IllegalMoveError, match=r"draws have shape \(3,\), one a game, got \(2,\)"):
        nth_legal(np.ones((3, 4), dtype=bool), np.full(2, 0.5))


@settings(max_examples=150, deadline=None)  # the first example compiles
@given(
    st.integers(1, 30),
    st.integers(1, 200),
    st.floats(0, 0.3),
    st.integers(0, 2**32),
    st.sampled_from(["numpy", "compiled"] if HAS_NUMBA else ["numpy"]),
)
def test_a_row_with_no_legal_action_gets_0_and_every_other_row_a_legal_action(
    size: int, width: int, density: float, seed: int, reader: str
) -> None:
    generator = np.random.default_rng(seed)
    mask = generator.random((size, width)) < density
    draws = generator.random(size)
    draws[generator.random(size) < 0.3] = 0.0
    draws[generator.random(size) < 0.3] = np.nextafter(1.0, 0.0)
    read = _masks().nth_legal if reader == "compiled" else nth_legal
    for game, action in enumerate(read(mask, draws).tolist()):
        assert 0 <= action < width
        assert mask[game, action] or (action == 0 and not mask[game].any())


@needs_numba
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12), st.integers(1, 90), st.integers(0, 2**32))
def test_a_mask_whose_true_bytes_are_not_1_reads_alike_on_both_readers(
    size: int, width: int, seed: int
) -> None:
    generator = np.random.default_rng(seed)
    raw = generator.integers(0, 256, size=(size, width), dtype=np.uint8)
    raw[generator.random((size, width)) < 0.7] = 0
    mask = raw.view(bool)  # a bool array NumPy reads by "not zero", as a view may give
    draws = np.append(generator.random(size - 1), np.nextafter(1.0, 0.0))
    got = _masks().nth_legal(mask, draws)
    assert got.tolist() == nth_legal(mask, draws).tolist()
    assert ((got >= 0) & (got < width)).all()


@pytest.mark.parametrize("reader", READERS)
def test_the_list_reader_refuses_odd_draws_as_the_mask_reader_does(reader: str) -> None:
    listed = np.array([[1, 5, -1], [2, -1, -1], [0, 1, 2]], dtype=np.int16)
    with _reader(reader):
        read = frame._fastest(frame._nth_listed)
        for value in ODD:
            with pytest.raises(IllegalMoveError, match=r"\[0, 1\).*game 2 drew"):
                read(listed, np.array([0.5, 0.5, value]))
        with pytest.raises(IllegalMoveError, match=r"draws have shape \(3,\)"):
            read(listed, np.full(2, 0.5))
        assert read(listed, np.array([0.99, 0.0, 0.5])).tolist() == [5, 2, 1]


@pytest.mark.parametrize("reader", READERS)
def test_a_list_naming_an_action_beyond_the_mask_is_refused_not_written(reader: str) -> None:
    listed = np.array([[10], [-1]], dtype=np.int16)
    with _reader(reader), pytest.raises(InvalidStateError, match="game 0 lists action 10"):
        frame._fastest(frame._listed_mask)(listed, 10)


@pytest.mark.parametrize("reader", READERS)
def test_lists_and_actions_of_other_lengths_are_refused_not_read(reader: str) -> None:
    listed = np.array([[1, -1]] * 4, dtype=np.int16)
    with _reader(reader), pytest.raises(ValueError, match=r"one action a game: 4, got \(2,\)"):
        frame._fastest(frame._lists_hold)(listed, np.array([1, 1]))


def test_random_actions_takes_a_games_record() -> None:
    with pytest.raises(TypeError, match="random_actions takes a Games record"):
        random_actions(np.ones((2, 3), dtype=bool), np.random.default_rng(0))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "config", "backend"),
    [pytest.param(name, config, "numba", marks=needs_numba) for name, config in GAMES]
    + [("pig", pig.Config(), "numpy")],
)
def test_the_kit_holds_every_kernel_to_the_draws_contract(
    name: str, config: Any, backend: str
) -> None:
    engine = batch.engine(name, config, 8, backend=backend)
    kit.check_odd_draws(engine, np.arange(8, dtype=np.uint64) * 31)


@needs_numba
def test_the_kits_odd_draws_check_fails_a_reader_that_takes_odd_draws() -> None:
    engine = batch.engine("dice-poker", dp.Config(), 4)

    def unchecked(games: batch.Games, generator: Any) -> np.ndarray:
        return np.zeros(games.size, dtype=np.int64)

    with (
        mock.patch.object(kit, "random_actions", unchecked),
        pytest.raises(AssertionError, match="took draws"),
    ):
        kit.check_odd_draws(engine, np.arange(4, dtype=np.uint64))
