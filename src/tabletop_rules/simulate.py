"""Playing many games with bots, reproducibly: :func:`simulate` plays them in this
process or on any executor and sums them up. It names its bots, so that a worker process
can make them again, and gives the same result for the same seed wherever it plays.

>>> from tabletop_rules import dice_poker as dp
>>> result = simulate(dp.RULES, ["greedy", "random"], 20, seed=1, config=dp.Config(stages=1))
>>> [(bot.name, bot.wins) for bot in result.bots]
[('greedy', 20.0), ('random', 0.0)]

This module also gathers the names a simulation's user needs from the modules that do
each job: :mod:`tabletop_rules.playing` (one game, with :func:`play_game`, its seeds and
seats), :mod:`tabletop_rules.executors` (workers) and :mod:`tabletop_rules.results`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import BotSelectionError, ConfigError
from .executors import (
    BATCH_SIZE,
    BATCHED_CHUNK_SIZE,
    TASKS_IN_FLIGHT,
    Run,
    TaskExecutor,
    TaskFuture,
    check_game_count,
    default_chunk_size,
    game_chunks,
    games_per_task,
    play_runs,
    task_count,
    useful_workers,
)
from .playing import (
    BotChoice,
    ConfigT,
    PlayedGame,
    bot_names,
    check_whole_deals,
    game_seed,
    play_game,
    seat_bot,
    seating,
    simulated_game,
)
from .protocol import Ruleset
from .results import (
    MAX_GAMES,
    BotStats,
    Estimate,
    FieldDifference,
    GameResult,
    Json,
    LengthStats,
    SimulationResult,
    mean_interval,
    text_table,
    wilson_interval,
)
from .rng import Rng, derived_seed, sample_outcome

__all__ = [
    "BATCHED_CHUNK_SIZE",
    "BATCH_SIZE",
    "MAX_GAMES",
    "TASKS_IN_FLIGHT",
    "BotChoice",
    "BotStats",
    "Estimate",
    "FieldDifference",
    "GameResult",
    "Json",
    "LengthStats",
    "PlayedGame",
    "SimulationResult",
    "TaskExecutor",
    "TaskFuture",
    "default_chunk_size",
    "derived_seed",
    "game_seed",
    "mean_interval",
    "play_game",
    "sample_outcome",
    "seat_bot",
    "seating",
    "simulate",
    "simulated_game",
    "task_count",
    "text_table",
    "useful_workers",
    "wilson_interval",
]


def simulate(
    rules: Ruleset[ConfigT, Any, Any],
    bots: Sequence[BotChoice],
    games: int,
    *,
    seed: int,
    config: ConfigT | None = None,
    executor: TaskExecutor | None = None,
    progress: Callable[[int, int], object] | None = None,
    rotate: bool = True,
    chunk_size: int | None = None,
    batched: bool = False,
    duplicate: bool = False,
) -> SimulationResult:
    """Play ``games`` games of ``rules`` with ``bots``, one bot per seat, and sum them up.

    Args:
        rules: The game.
        bots: One bot per seat: names of ``rules.bots`` (``"random"``, ``"greedy"``…) or
            bot factories (:data:`~tabletop_rules.protocol.BotFactory`) that pickle.
        games: How many games to play, from 1 to :data:`~tabletop_rules.results.MAX_GAMES`.
        seed: The run's seed, in ``range(2 ** 64)``; game ``i`` is played with the seed
            ``derived_seed(seed, i)`` (:func:`simulated_game` plays it again alone).
        config: The house rules (the game's default ``Config()`` when ``None``).
        executor: Where to play: ``None`` here; a :class:`~concurrent.futures.ProcessPoolExecutor`,
            Dask's ``client.get_executor()`` or a ``Client`` play chunks in parallel
            (:doc:`/simulation`).
        progress: Called as ``progress(done, games)`` before the first game and after
            each chunk, in this thread.
        rotate: Seat the bots rotated by the game's index (:func:`seating`), so that the
            first player's edge evens out; false keeps ``bots[i]`` at seat ``i``.
        chunk_size: Games per task; :func:`default_chunk_size` when ``None``, and
            :data:`~tabletop_rules.executors.BATCHED_CHUNK_SIZE` for a batched run.
        batched: Play on the batched engine (:mod:`tabletop_rules.batch`, the ``batch``
            extra), one batch per task: every bot must be ``"random"``, its moves drawn
            from the legal mask with NumPy (the same deals, other games than unbatched,
            as reproducible). ``ConfigError`` for a game that stops at chance points
            (``auto_chance=False``): a uniform draw is not the outcomes' odds.
        duplicate: Play each deal once per rotation of the seats: games ``k·n`` to
            ``k·n + n - 1`` of ``n`` bots are all dealt from ``derived_seed(seed, k)``
            (:func:`game_seed`), so every bot meets the same cards and dice from every
            seat, and the result adds :attr:`SimulationResult.versus_field`. ``games``
            must be a multiple of ``n``; needs ``rotate``, and is not batched
            (``ConfigError`` otherwise).

    The result is the same for the same arguments whatever the executor. Raises
    :class:`~tabletop_rules.errors.BotSelectionError` for a bot name the game does not
    have or not one bot per seat, :class:`~tabletop_rules.errors.ConfigError` for a count
    out of range (``games``, ``chunk_size``) before any work, and
    :class:`~tabletop_rules.errors.SimulationError` naming the game and its seed when a
    game fails, or the games left without a result when a worker dies: never fewer games.

    """
    check_game_count(games)
    Rng.from_seed(seed)
    size = games_per_task(games, chunk_size, batched)
    choices = tuple(bots)
    names = bot_names(rules, choices)
    players = rules.players(rules.config_type() if config is None else config)
    if len(choices) != players:
        raise BotSelectionError(
            f"{rules.name} with these rules seats {players} players: "
            f"name {players} bots, got {len(choices)}"
        )
    if batched and any(choice != "random" for choice in choices):
        raise BotSelectionError(
            f"the batched engine plays random bots only: name 'random' for every seat, got "
            f"{', '.join(map(str, names))}"
        )
    check_whole_deals(games, players, duplicate)
    if duplicate and not rotate:
        raise ConfigError("duplicate play seats each bot at every seat: it needs rotate=True")
    if duplicate and batched:
        raise ConfigError(
            "the batched engine plays random bots only, whose moves come from one generator "
            "per batch: duplicate play, which compares bots on the same deals, is not batched"
        )
    kernel = None
    if batched:
        from .batch import kernel as batch_kernel  # the batch extra

        kernel = batch_kernel(rules.name)
    run = Run(rules, config, choices, seed, rotate, kernel, duplicate)
    (results,) = play_runs([(run, game_chunks(games, size))], games, executor, progress)
    return SimulationResult.of(rules.name, seed, rotate, names, results, duplicate=duplicate)
