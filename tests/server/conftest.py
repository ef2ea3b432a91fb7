"""The server tests' stores, each closed when its test ends, and the backend each
protocol test runs on: SQLite with one worker (the quick tier), and Postgres + Redis with
two workers, clients spread over both (the slow tier).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .services import postgres_database, postgres_service, redis_service

if TYPE_CHECKING:
    from tabletop_rules.server import Store

__all__ = ["backend", "postgres_database", "postgres_service", "redis_service", "stores"]

PROTOCOL = frozenset(
    {
        "test_bots",
        "test_clocks",
        "test_lobby",
        "test_restart",
        "test_socket",
        "test_spectators",
        "test_takeback",
        "test_whole_games",
    }
)
"""The modules of the protocol suite: each of their tests runs on both backends."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rpartition(".")[2]
    one_worker = metafunc.definition.get_closest_marker("one_worker") is not None
    if "backend" in metafunc.fixturenames and module in PROTOCOL and not one_worker:
        cluster = pytest.param("cluster", marks=[pytest.mark.slow, pytest.mark.timeout(120)])
        metafunc.parametrize("backend", ["sqlite", cluster], indirect=True)


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """``"sqlite"``, or ``"cluster"``: two workers on a Postgres database of the test's
    own, telling each other through a Redis channel of its own.
    """
    name: str = getattr(request, "param", "sqlite")
    if name != "cluster":
        yield name
        return
    pytest.importorskip("psycopg")
    from . import helpers

    database = request.getfixturevalue("postgres_database")
    redis = request.getfixturevalue("redis_service")
    helpers.CLUSTER = helpers.Cluster(database, redis.url, f"tabletop:test:{uuid.uuid4().hex}")
    try:
        yield name
    finally:
        helpers.CLUSTER = None


@pytest.fixture
def stores() -> Iterator[Callable[..., Any]]:
    """Open a store (in memory, or on the path given); all are closed after the test.
    On the cluster, each is the test's Postgres database, whatever the path.
    """
    pytest.importorskip("starlette")
    from tabletop_rules.server import SQLiteStore

    from . import helpers

    opened: list[SQLiteStore] = []

    def open_store(path: str | Path = ":memory:") -> Store | helpers.PostgresAt:
        if helpers.CLUSTER is not None:
            return helpers.PostgresAt(helpers.CLUSTER.database)
        opened.append(SQLiteStore(str(path)))
        return opened[-1]

    yield open_store
    for store in opened:
        asyncio.run(store.close())
