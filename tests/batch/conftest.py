"""The batched engine's tests share one worker of a parallel run (``--dist loadgroup``),
so numba compiles each game's kernel once a run, not once on every worker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("numba"))
