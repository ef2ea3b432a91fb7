"""The SQLite store (the standard library's ``sqlite3``): the default, for one server
process. A file is opened in WAL mode with ``synchronous=NORMAL``, so a move committed
survives the process's crash (a power cut may lose the last moves); ``":memory:"`` is for
tests. The calls run inline on the event loop: a commit takes well under a millisecond.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from typing_extensions import override

from .store import Session, Store

__all__ = ["MIGRATIONS", "SQLiteStore"]

T = TypeVar("T")

MIGRATIONS: tuple[str, ...] = (
    # 1: one process (the first server)
    """
    CREATE TABLE IF NOT EXISTS matches (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        record_head TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'playing', 'over')),
        result TEXT,
        created REAL NOT NULL,
        started REAL,
        creator TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status);
    CREATE TABLE IF NOT EXISTS seats (
        match_id TEXT NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
        bot TEXT,
        name TEXT NOT NULL DEFAULT '',
        token_hash BLOB,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE IF NOT EXISTS moves (
        match_id TEXT NOT NULL REFERENCES matches (id),
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        at REAL NOT NULL,
        clock TEXT,
        PRIMARY KEY (match_id, number)
    );
    """,
    # 2: many workers (revisions, leases, presence)
    """
    ALTER TABLE matches ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN proposal TEXT;
    ALTER TABLE matches ADD COLUMN timed_out TEXT;
    ALTER TABLE matches ADD COLUMN clock TEXT;
    ALTER TABLE matches ADD COLUMN due REAL;
    ALTER TABLE matches ADD COLUMN lease TEXT;
    ALTER TABLE matches ADD COLUMN lease_until REAL;
    ALTER TABLE matches ADD COLUMN rewinds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN away_since REAL;
    CREATE INDEX matches_due ON matches (status, due);
    CREATE TABLE workers (id TEXT PRIMARY KEY, seen REAL NOT NULL);
    CREATE TABLE presence (
        match_id TEXT NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        worker TEXT NOT NULL,
        PRIMARY KEY (match_id, seat, worker)
    );
    """,
)
"""The schema, one migration per version; a store runs those its file has not had."""


class SQLiteStore(Store):
    """The store in the SQLite file at ``path`` (``":memory:"``: in memory, for tests).

    One connection, used under a lock: the server calls it from its event loop, and a
    test may call it from another thread.
    """

    _duplicate = sqlite3.IntegrityError

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = os.fspath(path)
        self.url = "sqlite://:memory:" if self.path == ":memory:" else f"sqlite:///{self.path}"
        """The store's URL (an absolute path gives ``sqlite:////path``)."""
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: safe on a process crash
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def _migrate(self) -> None:
        with self._transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            done = row[0] or 0
            for version, script in enumerate(MIGRATIONS[done:], start=done + 1):
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                db.execute("INSERT INTO schema_version VALUES (?)", (version,))

    @property
    def schema_version(self) -> int:
        """The schema version of the file."""
        with self._lock:
            return int(self._db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])

    @override
    async def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection, locked, in a writing transaction that ends with the block."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @override
    async def _session(self, work: Callable[[Session], Awaitable[T]], *, atomic: bool = True) -> T:
        # work awaits only the session, which never suspends: the lock is not held across
        # a switch to another task
        if atomic:
            with self._transaction() as db:
                return await work(_Session(db))
        with self._lock:
            return await work(_Session(self._db))

    @override
    async def _lock_workers(self, session: Session) -> None:
        """Nothing to do: a writing transaction holds the whole file."""


class _Session:
    """The store's connection, as the SQL of :class:`~.store.Store` runs on it."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def run(self, sql: str, args: Sequence[Any] = ()) -> int:
        return self.db.execute(sql, args).rowcount

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self.db.execute(sql, args).fetchall()

    async def run_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        self.db.executemany(sql, args)
