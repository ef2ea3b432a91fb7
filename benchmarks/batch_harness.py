"""What the batched benchmarks share: the ``--size`` option and the bytes a game holds."""

from __future__ import annotations

from tabletop_rules import batch

DEFAULT_SIZE = 4096
"""Games a batch unless ``--size`` says."""


def size_argument(arguments: list[str]) -> int:
    """``--size N`` (1 to ``batch.MAX_SIZE``), taken out of ``arguments``; the default else."""
    size = DEFAULT_SIZE
    if "--size" in arguments:
        at = arguments.index("--size")
        size = int(arguments[at + 1])
        del arguments[at : at + 2]
    if not 1 <= size <= batch.MAX_SIZE:
        raise SystemExit(f"--size must be 1 to {batch.MAX_SIZE}")
    return size


def bytes_per_game(games: batch.Games) -> float:
    """The bytes of a batch's arrays (the record's and the kernel's) per game: the legal
    actions' lists where the kernel gives them (the mask is made only when read), else the
    mask.
    """
    legal = games.legal_mask if games.legal_actions is None else games.legal_actions
    arrays = [games.current_player, legal, games.scores, games.over]
    return sum(array.nbytes for array in [*arrays, *games.data.values()]) / games.size
