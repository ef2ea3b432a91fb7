"""Lock-step checks of a batched kernel against the rules engine it must equal: any
game's kernel runs them as the library's kernels do.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

import attrs
import numpy as np
from numpy.typing import NDArray

from ..batch import NOBODY, Engine, Games, frame, nth_legal, random_actions
from ..errors import IllegalMoveError, InvalidStateError, TabletopError
from ..protocol import CHANCE
from .fuzz import outcome_of

__all__ = ["ODD_DRAWS", "LockstepReport", "check_lockstep", "check_odd_draws", "check_records"]

ODD_DRAWS = (math.nan, math.inf, -math.inf, -1.0, -1e-300, 1.0, 1.5)
"""Draws outside :func:`~tabletop_rules.batch.random_actions`' contract, [0, 1)."""


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
    """Play ``engine`` from ``seeds`` with random actions beside the rules: every game's
    masks, scores, seat to move, end, observation and ``engine.state(games, i)`` at every
    step, and its winners at the end, are the rules'; ``AssertionError`` naming the game,
    the step and what differs. ``max_steps`` bounds the steps (default: until every game
    is over); ``reset_over`` restarts each finished game from a fresh seed through
    ``step(..., reset=...)``. Records' pickling and refusal, and the draws, are checked too.
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
        if step in (0, 8):  # the draws' contract, on a fresh record and on one in play
            _check_draws(games, np.random.default_rng(step), f"step {step}")
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
    _check_pickles(engine, games)
    _check_refused(engine, attrs.evolve(games, made_by=None), "a record no engine made")
    return LockstepReport(games=engine.size, steps=step, states=compared)


def check_odd_draws(
    engine: Engine,
    seeds: np.ndarray[Any, np.dtype[np.uint64]],
    *,
    action_seed: int = 0,
    steps: int = 8,
) -> None:
    """Hold ``engine``'s records, dealt from ``seeds`` and at each of ``steps`` random
    steps, to :func:`~tabletop_rules.batch.random_actions`' draws' contract on every pass
    (NumPy's and, with numba, the compiled one): a draw of :data:`ODD_DRAWS` or draws of
    another shape raise :class:`~tabletop_rules.errors.IllegalMoveError`, draws that are
    no floats ``TypeError``; the lowest, highest and random draws give every game the same
    legal action on every pass (0 for a game over).
    """
    generator = np.random.default_rng(action_seed)
    games = engine.reset(seeds)
    for step in range(steps + 1):
        _check_draws(games, generator, f"step {step}")
        if games.over.all():
            break
        games = engine.step(games, random_actions(games, generator))


@attrs.frozen(eq=False)
class _Fixed:
    """A generator, duck-typed, whose ``random`` gives ``draws`` whatever the size asked."""

    draws: Any

    def random(self, size: int) -> Any:
        return self.draws


def _fixed(draws: Any) -> np.random.Generator:
    return cast(np.random.Generator, _Fixed(draws))


def _passes(games: Games) -> list[tuple[str, Callable[[Any], NDArray[np.int64]]]]:
    """What reads draws off ``games``: ``random_actions``, and each pass it may take."""
    mask, listed = games.legal_mask, games.legal_actions
    passes: list[tuple[str, Callable[[Any], NDArray[np.int64]]]] = [
        ("random_actions", lambda draws: random_actions(games, _fixed(draws))),
        ("nth_legal", lambda draws: nth_legal(mask, draws)),
    ]
    if listed is not None:
        passes.append(("the NumPy pass over the lists", lambda d: frame._nth_listed(listed, d)))
    compiled = frame._compiled_masks()
    if compiled is not None:
        passes.append(("the compiled nth_legal", lambda draws: compiled.nth_legal(mask, draws)))
        if listed is not None:
            passes.append(
                ("the compiled pass over the lists", lambda d: compiled.nth_listed(listed, d))
            )
    return passes


def _check_draws(games: Games, generator: np.random.Generator, where: str) -> None:
    size = games.size
    odd: list[tuple[str, Any, type[Exception]]] = []
    for value in ODD_DRAWS:
        draws, game = generator.random(size), int(generator.integers(size))
        draws[game] = value
        odd.append((f"with game {game}'s draw {value!r}", draws, IllegalMoveError))
    shapes = [(size + 1,), (size - 1,), (size, 1), ()]
    odd.extend((f"of shape {shape}", np.full(shape, 0.5), IllegalMoveError) for shape in shapes)
    odd.append(("of integers", np.zeros(size, dtype=np.int64), TypeError))
    valid = [np.zeros(size), np.full(size, np.nextafter(1.0, 0.0)), generator.random(size)]
    for name, read in _passes(games):
        for what, draws, error in odd:
            try:
                read(draws)
            except error:
                continue
            except Exception as raised:
                raise AssertionError(
                    f"{where}: {name} raised {type(raised).__name__} for draws {what}, "
                    f"not {error.__name__}"
                ) from raised
            raise AssertionError(f"{where}: {name} took draws {what}")
        for draws in valid:
            actions = read(draws)
            expected = random_actions(games, _fixed(draws))
            assert np.array_equal(actions, expected), (
                f"{where}: {name} gave {actions.tolist()}, random_actions {expected.tolist()}"
            )
            legal = games.legal_mask[np.arange(size), np.clip(actions, 0, None)]
            wrong = np.flatnonzero(np.where(games.over, actions != 0, ~legal | (actions < 0)))
            assert not wrong.size, (
                f"{where}: {name} gave game {wrong[0]} action {actions[wrong[0]]}, "
                "not a legal one (0 for a game over)"
            )


def _compare(engine: Engine, games: Games, states: list[Any], step: int) -> int:
    rules = engine.rules
    observations = engine.observe(games)
    for i, state in enumerate(states):
        where = f"game {i} at step {step}"
        over, player = rules.is_over(state), rules.current_player(state)
        for name, ours, theirs in (
            ("over", bool(games.over[i]), over),
            ("current player", int(games.current_player[i]), NOBODY if player is None else player),
            ("scores", tuple(games.scores[i].tolist()), rules.score(state)),
        ):
            assert ours == theirs, f"{where}: {name} {ours}, the rules say {theirs}"
        mask = rules.legal_mask(state) if not over else (False,) * engine.num_actions
        got = tuple(games.legal_mask[i].tolist())
        assert got == mask, (
            f"{where}: legal actions {np.flatnonzero(games.legal_mask[i]).tolist()}, the rules "
            f"say {[a for a, legal in enumerate(mask) if legal]}"
        )
        # check_state, dearer than the read, once: moot for a state equal to the rules'
        rebuilt = engine.state(games, i) if i == 0 else engine._read_state(games, i)
        assert rebuilt == state, f"{where}: state(games, {i}) differs from the rules' state"
        seat = None if over or player == CHANCE else player
        expected = np.asarray(rules.observe(rules.view(state, seat)), dtype=np.float32)
        assert np.array_equal(observations[i], expected), (
            f"{where}: the observation differs from the rules' observe (as float32)"
        )
    return len(states)


def check_records(
    engine: Engine,
    seeds: np.ndarray[Any, np.dtype[np.uint64]],
    *,
    others: Sequence[Engine] = (),
    action_seed: int = 0,
    steps: int = 6,
) -> None:
    """Hold ``engine`` to the record's contract on records dealt from ``seeds`` and played
    ``steps`` random steps: ``engine`` and each of ``others`` (of the same size: another
    config, another game) refuse each other's records at every entry with
    :class:`~tabletop_rules.errors.InvalidStateError`, and a record no engine made; a record
    pickles; a record whose arrays' first game is written to its dtype's extremes, -1 and 0
    is refused with the library's error or read as a state ``check_state`` takes. Check an
    untrusted compiled kernel in a child process: one that reads out of bounds may crash.
    """
    generator = np.random.default_rng(action_seed)
    games = engine.reset(seeds)
    for _ in range(steps):
        games = engine.step(games, random_actions(games, generator), reset=seeds)
    _check_pickles(engine, games)
    _check_refused(engine, attrs.evolve(games, made_by=None), "a record no engine made")
    for other in others:
        theirs = other.reset(seeds)
        _check_refused(engine, theirs, f"a record of {other!r}")
        _check_refused(other, games, f"a record of {engine!r}, by {other!r}")
    for name, value in games.data.items():
        for number in _extremes(value.dtype):
            fresh = engine.reset(seeds)  # a record's arrays may be its former record's
            written = engine.step(fresh, random_actions(fresh, generator), reset=seeds)
            array = written.data[name]
            array.flags.writeable = True
            array.reshape(array.shape[0], -1)[0] = number
            _check_read_or_refused(engine, written, generator, f"{name} written {number!r}")


def _extremes(dtype: np.dtype[Any]) -> list[Any]:
    if dtype.kind == "b":
        return [True, False]
    if dtype.kind not in "iu":
        return []
    info = np.iinfo(dtype)
    return [info.min, info.max, 0] + ([-1] if dtype.kind == "i" else [])


def _check_pickles(engine: Engine, games: Games) -> None:
    again = pickle.loads(pickle.dumps(games))
    assert type(again) is Games, f"a record unpickles to {type(again).__name__}"
    assert again.made_by == games.made_by, "a record unpickled names another engine"
    for name in ("current_player", "scores", "over", "legal_mask"):
        assert np.array_equal(getattr(again, name), getattr(games, name)), (
            f"a record unpickled has another {name}"
        )
    for name, value in games.data.items():
        assert np.array_equal(again.data[name], value), f"a record unpickled has other {name}"
    for i in range(engine.size):
        assert engine.state(again, i) == engine.state(games, i), (
            f"game {i} of a record unpickled is another state"
        )


def _entries(engine: Engine, games: Games, generator: np.random.Generator | None) -> dict[str, Any]:
    """Every entry that takes a record, by name: with no ``generator`` a step of zeros."""
    size = engine.size
    return {
        "step": lambda: engine.step(
            games,
            np.zeros(size, dtype=np.int64)
            if generator is None
            else random_actions(games, generator),
        ),
        "restart": lambda: engine.restart(
            games, np.arange(size, dtype=np.uint64), np.ones(size, dtype=bool)
        ),
        "observe": lambda: engine.observe(games),
        "winners": lambda: engine.winners(games),
        **{f"state {i}": (lambda i=i: engine.state(games, i)) for i in range(size)},
    }


def _check_refused(engine: Engine, games: Games, what: str) -> None:
    for entry, call in _entries(engine, games, None).items():
        refused = outcome_of(f"{entry} of {what}", call, (InvalidStateError,))
        assert isinstance(refused, InvalidStateError), f"{entry} took {what}"


def _check_read_or_refused(
    engine: Engine, games: Games, generator: np.random.Generator, what: str
) -> None:
    for entry, call in _entries(engine, games, generator).items():
        got = outcome_of(f"{entry} of a record with {what}", call)
        if entry.startswith("state") and not isinstance(got, TabletopError):
            refused = outcome_of(f"check_state of {entry}", partial(engine.rules.check_state, got))
            assert not isinstance(refused, TabletopError), (
                f"{entry} of a record with {what} is a state the rules refuse: {refused}"
            )
