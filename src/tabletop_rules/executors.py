"""Running many games on an executor: a run's games cut into chunks, each a task for a
process pool, Dask or this process, sent as earlier ones come back, the results put back
in game order; :func:`~tabletop_rules.tournament.tournament`'s tables share the workers.

>>> from tabletop_rules import dice_poker as dp
>>> run = Run(dp.RULES, dp.Config(stages=1), ("greedy", "random"), seed=1, rotate=True)
>>> (results,) = play_runs([(run, game_chunks(4, 2))], 4, executor=None, progress=None)
>>> [result.index for result in results]
[0, 1, 2, 3]
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import BrokenExecutor, Future
from functools import partial
from typing import Any, Final, Protocol, TypeVar

import attrs

from ._messages import short_repr
from .errors import ConfigError, SimulationError
from .playing import BotChoice, game_seed, seating, simulated_game
from .protocol import CHANCE, Ruleset
from .results import MAX_GAMES, GameResult
from .rng import derived_seed

__all__ = [
    "BATCHED_CHUNK_SIZE",
    "BATCH_SIZE",
    "TASKS_IN_FLIGHT",
    "Run",
    "TaskExecutor",
    "TaskFuture",
    "check_count",
    "check_game_count",
    "default_chunk_size",
    "game_chunks",
    "games_per_task",
    "play_chunk",
    "play_runs",
    "task_count",
    "useful_workers",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

_SHOWN_LOST_GAMES: Final = 20


class TaskFuture(Protocol[T_co]):
    """What :func:`~tabletop_rules.simulate.simulate` needs of the future ``submit``
    returns: a :class:`concurrent.futures.Future` or a Dask ``distributed.Future``.
    """

    def result(self) -> T_co:
        """The task's value, or its exception raised."""

    def add_done_callback(self, fn: Callable[[Any], object], /) -> None:
        """Call ``fn`` (with the future) once the task is finished."""

    def cancel(self) -> bool:
        """Drop the task if it has not started."""


class TaskExecutor(Protocol):
    """What :func:`~tabletop_rules.simulate.simulate` needs of an executor, ``submit(fn,
    *args)``: any :class:`concurrent.futures.Executor` has it, a Dask ``Client`` too.
    """

    def submit(self, fn: Callable[..., T], /, *args: Any) -> TaskFuture[T]:
        """Run ``fn(*args)`` as a task and return its future."""


@attrs.frozen
class Run:
    """What every chunk of a run needs, sent with each task (so it pickles): game ``i`` is
    :func:`~tabletop_rules.simulate.simulated_game` with these arguments, or a game of the
    batched ``kernel``.
    """

    rules: Ruleset[Any, Any, Any]
    config: Any
    bots: tuple[BotChoice, ...]
    seed: int
    rotate: bool
    kernel: Callable[..., Any] | None = None
    """The batched kernel (a class, which pickles by name) of a batched run."""
    duplicate: bool = False
    """Whether game ``i`` is of deal ``i // len(bots)``."""

    def game_seed(self, index: int) -> int:
        """The seed of the run's game ``index``."""
        return game_seed(self.seed, index, len(self.bots), self.duplicate)


def play_chunk(run: Run, start: int, stop: int) -> tuple[GameResult, ...]:
    """The results of games ``start`` to ``stop - 1`` of ``run``, an executor's task; the
    first game to fail raises :class:`~tabletop_rules.errors.SimulationError` naming it.
    """
    if not isinstance(run, Run):
        raise TypeError(f"a chunk is played of a Run, got {type(run).__name__}")
    if run.kernel is not None:
        return _play_batch(run, run.kernel, start, stop)
    results = []
    for index in range(start, stop):
        try:
            game = simulated_game(
                run.rules,
                run.bots,
                index,
                seed=run.seed,
                config=run.config,
                rotate=run.rotate,
                duplicate=run.duplicate,
            )
        except Exception as error:
            seed = run.game_seed(index)
            raise SimulationError(
                f"game {index} (seed {seed}) failed: {error!r}", (index,), (seed,)
            ) from error
        results.append(GameResult.of(game, index, seating(index, len(run.bots), rotate=run.rotate)))
    return tuple(results)


def _play_batch(
    run: Run, kernel: Callable[..., Any], start: int, stop: int
) -> tuple[GameResult, ...]:
    """Games ``start`` to ``stop - 1`` of ``run`` on the batched engine, at most
    :data:`BATCH_SIZE` at a time, dealt as :func:`simulated_game` deals them, random legal
    moves drawn from a generator seeded with ``(run.seed, start)``. Finished rows are
    refilled once an eighth of the batch (or every game left) waits.
    """
    import numpy as np  # the batch extra: only a batched run needs it

    from .batch import random_actions

    config = run.rules.config_type() if run.config is None else run.config
    count = stop - start
    engine = kernel(config, min(count, BATCH_SIZE))
    seeds = np.array([derived_seed(run.seed, index) for index in range(start, stop)], np.uint64)
    scores = np.zeros((count, engine.players), dtype=np.int64)
    won = np.zeros((count, engine.players), dtype=bool)
    moves = np.zeros(count, dtype=np.int64)
    game = np.arange(engine.size)  # the game (of the chunk) each row plays; -1: none
    dealt = engine.size
    generator = np.random.default_rng([run.seed, start])
    games = engine.reset(seeds[:dealt])
    while dealt < count or (game >= 0).any():
        if (games.current_player == CHANCE).any():  # its outcomes are not equally likely
            raise ConfigError(
                "the batched simulate plays games whose rules draw their own chance "
                "(auto_chance=True); a game stopped at a chance point"
            )
        moves[game[~games.over]] += 1
        games = engine.step(games, random_actions(games, generator))
        ended = np.flatnonzero(games.over & (game >= 0))
        if ended.size:
            scores[game[ended]] = games.scores[ended]
            won[game[ended]] = engine.winners(games)[ended]
            game[ended] = -1
        waiting = np.flatnonzero(game < 0)
        if dealt < count and waiting.size >= min(engine.size // 8, count - dealt):
            rows = waiting[: count - dealt]
            next_seeds = np.zeros(engine.size, dtype=np.uint64)
            next_seeds[rows] = seeds[dealt : dealt + rows.size]
            games = engine.restart(games, next_seeds, np.isin(np.arange(engine.size), rows))
            game[rows] = np.arange(dealt, dealt + rows.size)
            dealt += rows.size
    bots = len(run.bots)
    return tuple(
        GameResult(
            index,
            int(seeds[j]),
            seating(index, bots, rotate=run.rotate),
            tuple(scores[j].tolist()),
            frozenset(np.flatnonzero(won[j]).tolist()),
            int(moves[j]),
            0,
        )
        for j, index in enumerate(range(start, stop))
    )


def _lost(run: Run, chunks: Sequence[range], error: BaseException) -> SimulationError:
    """The error for games that got no result because their task failed outside a game."""
    games = tuple(index for chunk in chunks for index in chunk)
    seeds = tuple(run.game_seed(index) for index in games)
    named = ", ".join(
        f"game {index} (seed {seed})"
        for index, seed in zip(games[:_SHOWN_LOST_GAMES], seeds, strict=False)
    )
    if len(games) > _SHOWN_LOST_GAMES:
        named += f" and {len(games) - _SHOWN_LOST_GAMES} more (see .games and .seeds)"
    why = "their task failed:"
    if isinstance(error, BrokenExecutor):
        why = "the worker pool broke: a worker process died while playing one of"
    return SimulationError(
        f"no result for {len(games)} games; {why} {named} ({error!r})", games, seeds
    )


BATCH_SIZE: Final = 4096
"""The most games a batched :func:`~tabletop_rules.simulate.simulate` task plays at a time."""

BATCHED_CHUNK_SIZE: Final = 8 * BATCH_SIZE
"""The games of one task in a batched :func:`~tabletop_rules.simulate.simulate`, unless
``chunk_size`` says: a batch plays them by turns, a finished game's row taking the next."""


def default_chunk_size(games: int) -> int:
    """The games per task when :func:`~tabletop_rules.simulate.simulate` is not told: about
    100 tasks of at most 100 games, to share the work among a few dozen workers while
    each task still dwarfs the cost of sending it.

    >>> default_chunk_size(40), default_chunk_size(10_000), default_chunk_size(10**6)
    (1, 100, 100)
    """
    return max(1, min(100, -(-games // 100)))


def check_count(
    name: str, value: object, most: int | None = None, cap: str = "", why: str = ""
) -> int:
    """``value``, the argument ``name``, when it is a whole number from 1 to ``most`` (no
    cap where ``None``); else :class:`~tabletop_rules.errors.ConfigError` naming the
    constant ``cap`` and ``why`` it caps. The check of a run's counts, before any work.
    """
    if type(value) is not int or value < 1:
        raise ConfigError(f"{name} must be a positive integer, got {short_repr(value)}")
    if most is not None and value > most:
        raise ConfigError(f"{name} must be at most {most:,} ({cap}), {why}got {short_repr(value)}")
    return value


def check_game_count(games: object) -> None:
    """Raise :class:`~tabletop_rules.errors.ConfigError` unless ``games`` is a whole
    number from 1 to :data:`~tabletop_rules.results.MAX_GAMES`, before the memory runs out.
    """
    check_count("games", games, MAX_GAMES, "MAX_GAMES", "as a result keeps every game; ")


def games_per_task(games: int, chunk_size: object, batched: bool) -> int:
    """The games per task: ``chunk_size`` checked (:func:`check_count`), or when ``None``
    at most :data:`BATCHED_CHUNK_SIZE` for a ``batched`` run of ``games``, else
    :func:`~tabletop_rules.simulate.default_chunk_size`.
    """
    if chunk_size is None:
        return min(games, BATCHED_CHUNK_SIZE) if batched else default_chunk_size(games)
    return check_count("chunk_size", chunk_size)


def game_chunks(games: int, size: int) -> Iterator[range]:
    """The chunks of a run of ``games``, ``size`` games each (the last one fewer), made as
    they are read.

    >>> [list(chunk) for chunk in game_chunks(5, 2)]
    [[0, 1], [2, 3], [4]]
    """
    return (range(start, min(start + size, games)) for start in range(0, games, size))


def task_count(games: int, *, batched: bool = False, chunk_size: int | None = None) -> int:
    """How many tasks :func:`~tabletop_rules.simulate.simulate` splits ``games`` into.

    >>> task_count(1), task_count(250), task_count(10**6), task_count(10**6, batched=True)
    (1, 84, 10000, 31)
    """
    check_game_count(games)
    return -(-games // games_per_task(games, chunk_size, batched))


def _cores() -> int:
    """The cores this process may run on."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if callable(counted):
        return int(counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def useful_workers(workers: int, tasks: int) -> int:
    """The worker processes worth starting for ``tasks`` tasks when ``workers`` are asked
    for: no more than the cores this process may use, nor than the tasks.

    >>> useful_workers(40, 1)
    1
    """
    return max(1, min(workers, tasks, _cores()))


TASKS_IN_FLIGHT: Final = 64
"""The most chunks sent to an executor and not yet collected, or twice its workers where
it says how many (a process pool, a Dask client): a long run never holds every chunk."""


def _in_flight(executor: TaskExecutor) -> int:
    """How many chunks to keep sent to ``executor``: at least :data:`TASKS_IN_FLIGHT`, and
    two per worker of a pool's ``_max_workers`` or a Dask client's ``nthreads()``.
    """
    workers = getattr(executor, "_max_workers", None)
    if type(workers) is not int:
        client: Any = getattr(executor, "_client", executor)
        try:
            counts = client.nthreads()
            workers = sum(counts.values()) if isinstance(counts, Mapping) else 0
        except Exception:  # no Dask client, or one that only looks like it
            workers = 0
    return max(TASKS_IN_FLIGHT, 2 * workers) if type(workers) is int else TASKS_IN_FLIGHT


def _put_number(finished: queue.SimpleQueue[int], number: int, _future: object) -> None:
    finished.put(number)


class _Here:
    """Plays each task as it is sent, in this process: where a run has no executor."""

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args))
        return future


def play_runs(
    runs: Iterable[tuple[Run, Iterable[range]]],
    games: int,
    executor: TaskExecutor | None,
    progress: Callable[[int, int], object] | None,
) -> list[list[GameResult]]:
    """Every run's results, each in game order, its chunks (``games`` games in all) played
    here (``executor`` ``None``, one at a time) or on ``executor``, ``progress(done, games)``
    called before the first and after each chunk. The chunks are made as they are sent, at
    most :data:`TASKS_IN_FLIGHT` (or two per worker) waiting, so the memory held grows with
    the games played; the runs share the workers (a tournament's tables).
    """
    tasks = ((number, run, chunk) for number, (run, chunks) in enumerate(runs) for chunk in chunks)
    limit = 1 if executor is None else _in_flight(executor)
    sender: TaskExecutor = _Here() if executor is None else executor
    finished: queue.SimpleQueue[int] = queue.SimpleQueue()
    pending: dict[int, tuple[TaskFuture[tuple[GameResult, ...]], int, Run, range]] = {}
    collected: dict[int, tuple[int, tuple[GameResult, ...]]] = {}
    played: list[list[GameResult]] = []
    sent = kept = done = 0
    if progress is not None:
        progress(0, games)
    try:
        while True:
            while len(pending) < limit and (task_item := next(tasks, None)) is not None:
                number, run, chunk = task_item
                future = sender.submit(play_chunk, run, chunk.start, chunk.stop)
                future.add_done_callback(partial(_put_number, finished, sent))
                pending[sent] = (future, number, run, chunk)
                sent += 1
            if not pending:
                return played
            task = finished.get()
            future, number, run, chunk = pending.pop(task)
            try:
                collected[task] = (number, future.result())
            except SimulationError:
                raise
            except Exception as error:
                lost = [chunk]
                if isinstance(error, BrokenExecutor):  # every game of the run left unplayed
                    lost += [other for _f, _n, of, other in pending.values() if of is run]
                    lost += [other for _n, of, other in tasks if of is run]
                    lost.sort(key=lambda each: each.start)
                raise _lost(run, lost, error) from error
            while kept in collected:  # in task order, so each run's games in game order
                number, results = collected.pop(kept)
                played += [[] for _ in range(number + 1 - len(played))]
                played[number] += results
                kept += 1
            done += len(chunk)
            if progress is not None:
                progress(done, games)
    except BaseException:
        for future, _number, _run, _chunk in pending.values():
            future.cancel()
        raise
