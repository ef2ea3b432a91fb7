"""The server tests' stores, each closed when its test ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop_rules.server import Store


@pytest.fixture
def stores() -> Iterator[Callable[..., Store]]:
    """Open a store (in memory, or on the path given); all are closed after the test."""
    pytest.importorskip("starlette")
    from tabletop_rules.server import SQLiteStore

    opened: list[SQLiteStore] = []

    def open_store(path: str | Path = ":memory:") -> SQLiteStore:
        opened.append(SQLiteStore(str(path)))
        return opened[-1]

    yield open_store
    for store in opened:
        asyncio.run(store.close())
