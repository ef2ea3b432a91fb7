"""The SQLite store (the standard library's ``sqlite3``): the default, for one server
process. A file is opened in WAL mode with ``synchronous=NORMAL``, so a move committed
survives the process's crash (a power cut may lose the last moves); ``":memory:"`` is for
tests. The calls run inline on the event loop: a commit takes well under a millisecond.
"""

from __future__ import annotations

import hmac
import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from typing import Any

from typing_extensions import override

from ..records import GameRecord
from .store import (
    AWAY_QUERY,
    MATCH_COLUMNS,
    Live,
    MatchSettings,
    SeatChange,
    SeatRow,
    StaleError,
    Status,
    Store,
    StoredMatch,
    StoredMove,
    away_since,
    clock_moved_on,
    hash_token,
    live_json,
    seat_choices,
    stale,
    stored_match,
    stored_moves,
)

__all__ = ["MIGRATIONS", "SQLiteStore"]

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

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = os.fspath(path)
        self.url = "sqlite://:memory:" if self.path == ":memory:" else f"sqlite:///{self.path}"
        """The store's URL (an absolute path gives ``sqlite:////path``)."""
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: safe on a process crash
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            done = row[0] or 0
            for version, script in enumerate(MIGRATIONS[done:], start=done + 1):
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                db.execute("INSERT INTO schema_version VALUES (?)", (version,))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @property
    def schema_version(self) -> int:
        """The schema version of the file."""
        return int(self._read("SELECT MAX(version) FROM schema_version")[0][0])

    @override
    async def close(self) -> None:
        with self._lock:
            self._db.close()

    @override
    async def ping(self) -> None:
        self._read("SELECT 1")

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run ``statements`` in one transaction; each one's count of rows changed."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                counts = [db.execute(sql, args).rowcount for sql, args in statements]
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return counts

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # --- matches --------------------------------------------------------------------------

    @override
    async def create_match(
        self,
        match_id: str,
        head: GameRecord,
        settings: MatchSettings,
        seats: Sequence[str],
        *,
        creator: str,
        now: float,
    ) -> None:
        status = "open" if "person" in seats else "playing"
        match = (
            "INSERT INTO matches (id, game, record_head, settings, status, created, started, "
            "creator, due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                head.game,
                head.to_json(),
                json.dumps(settings.to_json()),
                status,
                now,
                None if status == "open" else now,
                creator,
                None if status == "open" else now,
            ),
        )
        rows = [
            ("INSERT INTO seats (match_id, seat, kind, bot) VALUES (?, ?, ?, ?)", (match_id, *row))
            for row in seat_choices(seats)
        ]
        self._write([match, *rows])

    @override
    async def match(self, match_id: str) -> StoredMatch | None:
        rows = self._read(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return stored_match(rows[0]) if rows else None

    @override
    async def matches(self, *statuses: Status) -> tuple[StoredMatch, ...]:
        marks = ", ".join("?" * len(statuses))
        rows = self._read(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE status IN ({marks}) ORDER BY created, id",
            statuses,
        )
        return tuple(map(stored_match, rows))

    @override
    async def live_matches_of(self, creator: str) -> int:
        rows = self._read(
            "SELECT COUNT(*) FROM matches WHERE creator = ? AND status != 'over'", (creator,)
        )
        return int(rows[0][0])

    @override
    async def seats(self, match_id: str) -> tuple[SeatRow, ...]:
        rows = self._read(
            "SELECT seat, kind, bot, name, token_hash IS NOT NULL FROM seats "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return tuple(
            SeatRow(seat=seat, kind=kind, bot=bot, name=name, taken=bool(taken))
            for seat, kind, bot, name, taken in rows
        )

    @override
    async def seat_of(self, match_id: str, token: str) -> int | None:
        digest = hash_token(token)
        rows = self._read(
            "SELECT seat, token_hash FROM seats WHERE match_id = ? AND token_hash IS NOT NULL",
            (match_id,),
        )
        found = None
        for seat, stored in rows:
            if hmac.compare_digest(digest, bytes(stored)):
                found = seat
        return found

    @override
    async def moves(self, match_id: str, *, after: int = 0) -> tuple[StoredMove, ...]:
        rows = self._read(
            "SELECT number, seat, move, at, clock FROM moves WHERE match_id = ? AND number > ? "
            "ORDER BY number",
            (match_id, after),
        )
        return stored_moves(rows)

    @override
    async def commit(
        self,
        match_id: str,
        revision: int,
        live: Live,
        *,
        worker: str,
        lease_until: float,
        move: StoredMove | None = None,
        keep: int | None = None,
        seat: SeatChange | None = None,
    ) -> int:
        columns = live_json(live)
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                changed = db.execute(
                    "UPDATE matches SET revision = revision + 1, status = ?, started = ?, "
                    "result = ?, proposal = ?, timed_out = ?, clock = ?, due = ?, lease = ?, "
                    "lease_until = ? WHERE id = ? AND revision = ?",
                    (*columns.values(), worker, lease_until, match_id, revision),
                ).rowcount
                if changed != 1:
                    raise _stale(db, match_id, revision)
                if seat is not None and not _change_seat(db, match_id, seat):
                    raise StaleError(f"seat {seat.seat} of match {match_id} was taken meanwhile")
                if keep is not None:
                    db.execute(
                        "DELETE FROM moves WHERE match_id = ? AND number > ?", (match_id, keep)
                    )
                    db.execute("UPDATE matches SET rewinds = rewinds + 1 WHERE id = ?", (match_id,))
                if move is not None:
                    clock = None if move.clock is None else json.dumps(move.clock)
                    try:
                        db.execute(
                            "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)",
                            (match_id, move.number, move.seat, move.move, move.at, clock),
                        )
                    except sqlite3.IntegrityError:
                        raise StaleError(
                            f"move {move.number} of match {match_id} is stored already"
                        ) from None
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return revision + 1

    @override
    async def revisions(self, match_ids: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for start in range(0, len(match_ids), 500):
            chunk = list(match_ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            rows = self._read(f"SELECT id, revision FROM matches WHERE id IN ({marks})", chunk)
            found.update((match_id, int(revision)) for match_id, revision in rows)
        return found

    # --- workers: presence and leases -----------------------------------------------------

    @override
    async def resume(self, worker: str, *, now: float, down_after: float) -> float:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                (last,) = db.execute("SELECT MAX(seen) FROM workers").fetchone()
                downtime = 0.0 if last is None or now - last < down_after else now - last
                if downtime:
                    _forgive(db, downtime)
                db.execute(
                    "INSERT INTO workers VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET seen = ?",
                    (worker, now, now),
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return downtime

    @override
    async def heartbeat(self, worker: str, *, now: float) -> None:
        self._write(
            [
                (
                    "INSERT INTO workers VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET seen = ?",
                    (worker, now, now),
                ),
            ]
        )

    @override
    async def release(self, worker: str, *, now: float) -> None:
        self._write(
            [
                (
                    "UPDATE seats SET away_since = ? WHERE (match_id, seat) IN "
                    "(SELECT match_id, seat FROM presence WHERE worker = ?)",
                    (now, worker),
                ),
                ("DELETE FROM presence WHERE worker = ?", (worker,)),
                ("UPDATE matches SET lease_until = 0 WHERE lease = ?", (worker,)),
                ("UPDATE workers SET seen = ? WHERE id = ?", (now, worker)),
            ]
        )

    @override
    async def present(
        self, match_id: str, seat: int, worker: str, *, here: bool, now: float, alive_after: float
    ) -> None:
        if here:
            self._write(
                [
                    (
                        "INSERT OR IGNORE INTO presence VALUES (?, ?, ?)",
                        (match_id, seat, worker),
                    )
                ]
            )
            return
        self._write(
            [
                (
                    "DELETE FROM presence WHERE match_id = ? AND seat = ? AND worker = ?",
                    (match_id, seat, worker),
                ),
                (
                    "UPDATE seats SET away_since = ? WHERE match_id = ? AND seat = ? AND NOT "
                    "EXISTS (SELECT 1 FROM presence p JOIN workers w ON w.id = p.worker "
                    "WHERE p.match_id = ? AND p.seat = ? AND w.seen > ?)",
                    (now, match_id, seat, match_id, seat, alive_after),
                ),
            ]
        )

    @override
    async def away(self, match_id: str, *, alive_after: float) -> dict[int, float | None]:
        rows = self._read(AWAY_QUERY, (alive_after, alive_after, match_id))
        return {seat: away_since(*rest) for seat, *rest in rows}

    @override
    async def due_matches(self, *, now: float, limit: int) -> tuple[str, ...]:
        rows = self._read(
            "SELECT id FROM matches WHERE status = 'playing' AND due <= ? "
            "AND (lease_until IS NULL OR lease_until < ?) ORDER BY due LIMIT ?",
            (now, now, limit),
        )
        return tuple(row[0] for row in rows)

    @override
    async def claim_lease(self, match_id: str, worker: str, *, now: float, until: float) -> bool:
        (count,) = self._write(
            [
                (
                    "UPDATE matches SET lease = ?, lease_until = ? WHERE id = ? AND "
                    "(lease_until IS NULL OR lease_until < ? OR lease = ?)",
                    (worker, until, match_id, now, worker),
                )
            ]
        )
        return count == 1


def _stale(db: sqlite3.Connection, match_id: str, revision: int) -> StaleError:
    row = db.execute("SELECT revision FROM matches WHERE id = ?", (match_id,)).fetchone()
    return stale(match_id, revision, None if row is None else row[0])


def _change_seat(db: sqlite3.Connection, match_id: str, seat: SeatChange) -> bool:
    if seat.taken:
        cursor = db.execute(
            "UPDATE seats SET name = ?, token_hash = ?, away_since = NULL WHERE match_id = ? "
            "AND seat = ? AND kind = 'person' AND token_hash IS NULL",
            (seat.name, seat.token_hash, match_id, seat.seat),
        )
    else:
        cursor = db.execute(
            "UPDATE seats SET name = '', token_hash = NULL WHERE match_id = ? AND seat = ? "
            "AND kind = 'person'",
            (match_id, seat.seat),
        )
    return cursor.rowcount == 1


def _forgive(db: sqlite3.Connection, downtime: float) -> None:
    """Move every playing match's clock and away times on by ``downtime``."""
    rows = db.execute(
        "SELECT id, clock FROM matches WHERE status = 'playing' AND clock IS NOT NULL"
    ).fetchall()
    for match_id, clock in rows:
        db.execute(
            "UPDATE matches SET clock = ?, due = due + ?, revision = revision + 1 WHERE id = ?",
            (clock_moved_on(clock, downtime), downtime, match_id),
        )
    db.execute(
        "UPDATE seats SET away_since = away_since + ? WHERE match_id IN "
        "(SELECT id FROM matches WHERE status = 'playing')",
        (downtime,),
    )
