"""The Postgres store (psycopg 3, async, with a pool of connections): for any number of
server workers sharing one database (the ``cluster`` extra).

Every change is one transaction, and :meth:`~tabletop_rules.server.store.Store.commit`
first rewrites the match's row ``WHERE revision = <the worker's>``: that row's lock
orders the workers, so of two commits at one revision exactly one is stored, wherever
they come from. When the database does not answer (stopped, restarting, unreachable) a
call fails within the pool's ``timeout`` with ``StoreUnavailableError`` and its
transaction is rolled back whole; the calls after it fail at once while one connection a
:data:`PROBE_SECONDS` tries the database, and once it answers the store takes a fresh
pool and works again, with no restart of the worker.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from typing_extensions import override

from ..errors import ConfigError, InvalidStateError
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
    StoreUnavailableError,
    away_since,
    clock_moved_on,
    hash_token,
    live_json,
    seat_choices,
    stale,
    stored_match,
    stored_moves,
)

_MISSING: ImportError | None = None
try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg_pool import AsyncConnectionPool, PoolTimeout
except ImportError as error:  # the cluster extra is not installed
    _MISSING = error

if TYPE_CHECKING:
    from psycopg.rows import TupleRow

    Connection = psycopg.AsyncConnection[TupleRow]

__all__ = ["LOCK_KEY", "MIGRATIONS", "PROBE_SECONDS", "PostgresStore"]

T = TypeVar("T")

LOCK_KEY = 0x7461626C65746F70
"""The key of the advisory lock (``"tablet0p"``) under which the schema is migrated and a
worker resumes, so that workers starting together do not race.
"""

PROBE_SECONDS = 0.5
"""While the database does not answer, a store tries one connection at most this often;
the calls in between fail at once.
"""

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
        created DOUBLE PRECISION NOT NULL,
        started DOUBLE PRECISION,
        creator TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status);
    CREATE TABLE IF NOT EXISTS seats (
        match_id TEXT NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
        bot TEXT,
        name TEXT NOT NULL DEFAULT '',
        token_hash BYTEA,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE IF NOT EXISTS moves (
        match_id TEXT NOT NULL REFERENCES matches (id),
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
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
    ALTER TABLE matches ADD COLUMN due DOUBLE PRECISION;
    ALTER TABLE matches ADD COLUMN lease TEXT;
    ALTER TABLE matches ADD COLUMN lease_until DOUBLE PRECISION;
    ALTER TABLE matches ADD COLUMN rewinds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN away_since DOUBLE PRECISION;
    CREATE INDEX matches_due ON matches (status, due);
    CREATE TABLE workers (id TEXT PRIMARY KEY, seen DOUBLE PRECISION NOT NULL);
    CREATE TABLE presence (
        match_id TEXT NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        worker TEXT NOT NULL,
        PRIMARY KEY (match_id, seat, worker)
    );
    """,
)
"""The schema, one migration per version (the SQLite store's, in Postgres's types); a
store runs those its database has not had.
"""

_UPSERT_WORKER = (
    "INSERT INTO workers (id, seen) VALUES (%s, %s) "
    "ON CONFLICT (id) DO UPDATE SET seen = EXCLUDED.seen"
)


class PostgresStore(Store):
    """The store in a Postgres database, reached through a pool of connections; open it
    with :meth:`open`, which brings the schema up to date.
    """

    def __init__(self, url: str, *, min_size: int, max_size: int, timeout: float) -> None:
        self.url = _without_password(url)
        """The database's URL, its password left out."""
        self._conninfo = url
        self._sizes = (min_size, max_size)
        self._timeout = timeout
        self._pool = self._new_pool()
        self._down = False  # a call failed to reach the database: the next one probes first
        self._probed = -math.inf  # when a probe last failed (monotonic seconds)
        self._reason = ""  # why it failed
        self._recovering = asyncio.Lock()

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 5.0
    ) -> PostgresStore:
        """Open a pool of ``min_size`` to ``max_size`` connections to the database ``url``
        (``postgresql://user:password@host:port/database``) and run the migrations it has
        not had. A call waits at most ``timeout`` seconds for a connection, then fails
        with ``StoreUnavailableError``.
        """
        if _MISSING is not None:
            raise ConfigError(
                f"a postgresql:// store needs psycopg 3 and psycopg-pool ({_MISSING}): "
                "pip install 'tabletop-rules[cluster]'"
            )
        if not isinstance(url, str):
            raise TypeError(f"a database URL is a str, got {type(url).__name__}")
        for name, size in (("min_size", min_size), ("max_size", max_size)):
            if not isinstance(size, int) or isinstance(size, bool):
                raise TypeError(f"{name} is an int, got {type(size).__name__}")
        if not 1 <= min_size <= max_size:
            raise ConfigError(
                f"a pool holds 1 <= min_size <= max_size connections; got {min_size} and {max_size}"
            )
        if not isinstance(timeout, int | float) or isinstance(timeout, bool):
            raise TypeError(f"timeout is a number of seconds, got {type(timeout).__name__}")
        if not (math.isfinite(timeout) and timeout > 0):
            raise ConfigError(f"timeout is a positive number of seconds; got {timeout}")
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError as error:
            reason = _line(error).replace(url, "the URL")  # which may hold a password
            raise ConfigError(f"not a Postgres URL: {reason}") from None
        store = cls(url, min_size=min_size, max_size=max_size, timeout=timeout)
        try:
            await store._probe()  # at once, and with the reason: refused, a wrong password...
            try:
                await store._pool.open(wait=True, timeout=timeout)
            except psycopg.OperationalError as error:
                raise _unavailable(error) from None
            await store._transact(_migrate)
        except BaseException:
            await store._pool.close()
            raise
        return store

    def _new_pool(self) -> AsyncConnectionPool[Connection]:
        min_size, max_size = self._sizes
        return AsyncConnectionPool(
            self._conninfo,
            min_size=min_size,
            max_size=max_size,
            timeout=self._timeout,
            open=False,
            kwargs={"autocommit": True, **self._connection_options},
            name="tabletop-rules",
        )

    @property
    def _connect_timeout(self) -> int:
        return max(2, math.ceil(self._timeout))  # libpq's least connect_timeout is 2 seconds

    @property
    def _connection_options(self) -> dict[str, Any]:
        """The libpq options of each connection, where the URL sets none: a connect timeout,
        and TCP keepalives and a user timeout, so that a database cut off by the network
        fails a call in seconds instead of TCP's quarter of an hour.
        """
        options: dict[str, Any] = {
            "connect_timeout": self._connect_timeout,
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": 15_000,
        }
        given = psycopg.conninfo.conninfo_to_dict(self._conninfo)
        return {key: value for key, value in options.items() if key not in given}

    async def _transact(
        self, work: Callable[[Connection], Awaitable[T]], *, atomic: bool = True
    ) -> T:
        """Run ``work`` on a connection of the pool in one transaction (a lone statement,
        which is one already, when not ``atomic``); its failures to reach the database
        become :class:`StoreUnavailableError`. A transaction that a lost connection, a
        deadlock or a serialization failure rolled back is run once more (on a fresh
        connection).
        """
        if self._down:
            await self._recover()
        for attempt in (1, 2):
            stage = "connect"
            pool = self._pool
            try:
                async with pool.connection() as conn:
                    stage = "run"
                    if not atomic:
                        return await work(conn)
                    async with conn.transaction():
                        result = await work(conn)
                        stage = "commit"
                return result
            except (pg_errors.SerializationFailure, pg_errors.DeadlockDetected) as error:
                if attempt == 2:
                    raise _unavailable(error) from None
            except (psycopg.DataError, psycopg.IntegrityError) as error:
                # text holding NUL (which SQLite stores), a match that is not stored
                raise InvalidStateError(
                    f"the database refused a value: {_line(error)}; nothing was stored"
                ) from None
            except PoolTimeout as error:
                if self._busy(pool):  # every connection at work: a queue, not an outage
                    raise StoreUnavailableError(
                        f"the database is busy: no connection was free within "
                        f"{self._timeout:g} s; nothing was stored"
                    ) from None
                self._down = True
                raise _unavailable(error) from None
            except psycopg.OperationalError as error:
                if stage == "commit":
                    self._down = True
                    raise StoreUnavailableError(
                        f"the database did not answer while committing: {_line(error)}; the "
                        "change may or may not be stored: read the match again"
                    ) from None
                if attempt == 2 or stage == "connect":
                    self._down = True
                    raise _unavailable(error) from None
                # the database closed the pool's connections (a restart): drop them all
                await pool.check()
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _busy(pool: AsyncConnectionPool[Any]) -> bool:
        """Whether the pool holds all the connections it may and has lent them all out
        (so a wait for one timed out for the work queued, not for a database that does not
        answer: a pool that could not grow counts as the database down).
        """
        stats = pool.get_stats()
        return stats.get("pool_size", 0) >= pool.max_size and not stats.get("pool_available", 0)

    async def _probe(self) -> None:
        """Connect once, past the pool: :class:`StoreUnavailableError` with the reason
        if the database does not answer within the timeout.
        """
        try:
            probe = await asyncio.wait_for(
                psycopg.AsyncConnection.connect(self._conninfo, **self._connection_options),
                self._timeout,
            )
        except (psycopg.OperationalError, TimeoutError) as error:
            raise _unavailable(error) from None
        await probe.close()

    async def _recover(self) -> None:
        """After a call failed to reach the database: fail at once while it still does not
        answer (one probe a :data:`PROBE_SECONDS`), else start a fresh pool, whose
        connections are new and which does not wait out the old one's reconnection delays.
        """
        async with self._recovering:
            if not self._down:
                return
            if time.monotonic() - self._probed < PROBE_SECONDS:
                raise StoreUnavailableError(
                    f"the database did not answer a moment ago ({self._reason}); nothing was stored"
                )
            try:
                await self._probe()
            except StoreUnavailableError as error:
                self._probed = time.monotonic()
                self._reason = str(error).removeprefix("the database did not answer: ")
                self._reason = self._reason.removesuffix("; nothing was stored")
                raise
            old, self._pool = self._pool, self._new_pool()
            await self._pool.open(wait=False)
            self._down = False
            await old.close(timeout=0)

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[TupleRow]:
        async def read(conn: Connection) -> list[TupleRow]:
            cursor = await conn.execute(sql, args)
            return await cursor.fetchall()

        return await self._transact(read, atomic=False)

    @override
    async def close(self) -> None:
        await self._pool.close()

    @override
    async def ping(self) -> None:
        await self._rows("SELECT 1")

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
        begun = None if status == "open" else now

        async def create(conn: Connection) -> None:
            try:
                await conn.execute(
                    "INSERT INTO matches (id, game, record_head, settings, status, created, "
                    "started, creator, due) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (
                        match_id,
                        head.game,
                        head.to_json(),
                        json.dumps(settings.to_json()),
                        status,
                        now,
                        begun,
                        creator,
                        begun,
                    ),
                )
            except pg_errors.UniqueViolation:
                raise InvalidStateError(f"a match {match_id} is stored already") from None
            async with conn.cursor() as cursor:
                await cursor.executemany(
                    "INSERT INTO seats (match_id, seat, kind, bot) VALUES (%s, %s, %s, %s)",
                    [(match_id, *row) for row in seat_choices(seats)],
                )

        await self._transact(create)

    @override
    async def match(self, match_id: str) -> StoredMatch | None:
        rows = await self._rows(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = %s", (match_id,))
        return stored_match(rows[0]) if rows else None

    @override
    async def matches(self, *statuses: Status) -> tuple[StoredMatch, ...]:
        rows = await self._rows(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE status = ANY(%s) "
            'ORDER BY created, id COLLATE "C"',
            (list(statuses),),
        )
        return tuple(map(stored_match, rows))

    @override
    async def live_matches_of(self, creator: str) -> int:
        rows = await self._rows(
            "SELECT COUNT(*) FROM matches WHERE creator = %s AND status != 'over'", (creator,)
        )
        return int(rows[0][0])

    @override
    async def seats(self, match_id: str) -> tuple[SeatRow, ...]:
        rows = await self._rows(
            "SELECT seat, kind, bot, name, token_hash IS NOT NULL FROM seats "
            "WHERE match_id = %s ORDER BY seat",
            (match_id,),
        )
        return tuple(
            SeatRow(seat=seat, kind=kind, bot=bot, name=name, taken=bool(taken))
            for seat, kind, bot, name, taken in rows
        )

    @override
    async def seat_of(self, match_id: str, token: str) -> int | None:
        digest = hash_token(token)
        rows = await self._rows(
            "SELECT seat, token_hash FROM seats WHERE match_id = %s AND token_hash IS NOT NULL",
            (match_id,),
        )
        found = None
        for seat, stored in rows:
            if hmac.compare_digest(digest, bytes(stored)):
                found = seat
        return found

    @override
    async def moves(self, match_id: str, *, after: int = 0) -> tuple[StoredMove, ...]:
        rows = await self._rows(
            "SELECT number, seat, move, at, clock FROM moves WHERE match_id = %s "
            "AND number > %s ORDER BY number",
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
        columns = tuple(live_json(live).values())

        async def change(conn: Connection) -> None:
            cursor = await conn.execute(
                "UPDATE matches SET revision = revision + 1, rewinds = rewinds + %s, "
                "status = %s, started = %s, result = %s, proposal = %s, timed_out = %s, "
                "clock = %s, due = %s, lease = %s, lease_until = %s "
                "WHERE id = %s AND revision = %s",
                (int(keep is not None), *columns, worker, lease_until, match_id, revision),
            )
            if cursor.rowcount != 1:
                raise await _stale(conn, match_id, revision)
            if seat is not None and not await _change_seat(conn, match_id, seat):
                raise StaleError(f"seat {seat.seat} of match {match_id} was taken meanwhile")
            if keep is not None:
                await conn.execute(
                    "DELETE FROM moves WHERE match_id = %s AND number > %s", (match_id, keep)
                )
            if move is not None:
                clock = None if move.clock is None else json.dumps(move.clock)
                try:
                    await conn.execute(
                        "INSERT INTO moves (match_id, number, seat, move, at, clock) "
                        "VALUES (%s, %s, %s, %s, %s, %s)",
                        (match_id, move.number, move.seat, move.move, move.at, clock),
                    )
                except pg_errors.UniqueViolation:
                    raise StaleError(
                        f"move {move.number} of match {match_id} is stored already"
                    ) from None

        await self._transact(change)
        return revision + 1

    @override
    async def revisions(self, match_ids: Sequence[str]) -> dict[str, int]:
        rows = await self._rows(
            "SELECT id, revision FROM matches WHERE id = ANY(%s)", (list(match_ids),)
        )
        return {match_id: int(revision) for match_id, revision in rows}

    # --- workers: presence and leases -----------------------------------------------------

    @override
    async def resume(self, worker: str, *, now: float, down_after: float) -> float:
        async def start(conn: Connection) -> float:
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            cursor = await conn.execute("SELECT MAX(seen) FROM workers")
            row = await cursor.fetchone()
            last = None if row is None else row[0]
            downtime = 0.0 if last is None or now - last < down_after else now - last
            if downtime:
                await _forgive(conn, downtime)
            await conn.execute(_UPSERT_WORKER, (worker, now))
            return downtime

        return await self._transact(start)

    @override
    async def heartbeat(self, worker: str, *, now: float) -> None:
        async def beat(conn: Connection) -> None:
            await conn.execute(_UPSERT_WORKER, (worker, now))

        await self._transact(beat)

    @override
    async def release(self, worker: str, *, now: float) -> None:
        async def stop(conn: Connection) -> None:
            # matches before seats, as a commit locks them, so the two cannot deadlock
            await conn.execute("UPDATE matches SET lease_until = 0 WHERE lease = %s", (worker,))
            await conn.execute(
                "UPDATE seats SET away_since = %s WHERE (match_id, seat) IN "
                "(SELECT match_id, seat FROM presence WHERE worker = %s)",
                (now, worker),
            )
            await conn.execute("DELETE FROM presence WHERE worker = %s", (worker,))
            await conn.execute("UPDATE workers SET seen = %s WHERE id = %s", (now, worker))

        await self._transact(stop)

    @override
    async def present(
        self, match_id: str, seat: int, worker: str, *, here: bool, now: float, alive_after: float
    ) -> None:
        async def arrive(conn: Connection) -> None:
            await conn.execute(
                "INSERT INTO presence (match_id, seat, worker) VALUES (%s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (match_id, seat, worker),
            )

        async def leave(conn: Connection) -> None:
            await conn.execute(
                "DELETE FROM presence WHERE match_id = %s AND seat = %s AND worker = %s",
                (match_id, seat, worker),
            )
            await conn.execute(
                "UPDATE seats SET away_since = %s WHERE match_id = %s AND seat = %s AND NOT "
                "EXISTS (SELECT 1 FROM presence p JOIN workers w ON w.id = p.worker "
                "WHERE p.match_id = %s AND p.seat = %s AND w.seen > %s)",
                (now, match_id, seat, match_id, seat, alive_after),
            )

        await self._transact(arrive if here else leave)

    @override
    async def away(self, match_id: str, *, alive_after: float) -> dict[int, float | None]:
        rows = await self._rows(_AWAY, (alive_after, alive_after, match_id))
        return {seat: away_since(*rest) for seat, *rest in rows}

    @override
    async def due_matches(self, *, now: float, limit: int) -> tuple[str, ...]:
        rows = await self._rows(
            "SELECT id FROM matches WHERE status = 'playing' AND due <= %s "
            "AND (lease_until IS NULL OR lease_until < %s) ORDER BY due LIMIT %s",
            (now, now, limit),
        )
        return tuple(row[0] for row in rows)

    @override
    async def claim_lease(self, match_id: str, worker: str, *, now: float, until: float) -> bool:
        async def claim(conn: Connection) -> bool:
            cursor = await conn.execute(
                "UPDATE matches SET lease = %s, lease_until = %s WHERE id = %s AND "
                "(lease_until IS NULL OR lease_until < %s OR lease = %s)",
                (worker, until, match_id, now, worker),
            )
            return cursor.rowcount == 1

        return await self._transact(claim)


_AWAY = AWAY_QUERY.replace("?", "%s")


async def _migrate(conn: Connection) -> None:
    """Run the migrations the database has not had, under the advisory lock."""
    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    cursor = await conn.execute("SELECT MAX(version) FROM schema_version")
    row = await cursor.fetchone()
    done = 0 if row is None or row[0] is None else int(row[0])
    for version, script in enumerate(MIGRATIONS[done:], start=done + 1):
        await conn.execute(script)  # no parameters: Postgres runs the whole script
        await conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))


async def _stale(conn: Connection, match_id: str, revision: int) -> StaleError:
    cursor = await conn.execute("SELECT revision FROM matches WHERE id = %s", (match_id,))
    row = await cursor.fetchone()
    return stale(match_id, revision, None if row is None else row[0])


async def _change_seat(conn: Connection, match_id: str, seat: SeatChange) -> bool:
    if seat.taken:
        cursor = await conn.execute(
            "UPDATE seats SET name = %s, token_hash = %s, away_since = NULL WHERE match_id = %s "
            "AND seat = %s AND kind = 'person' AND token_hash IS NULL",
            (seat.name, seat.token_hash, match_id, seat.seat),
        )
    else:
        cursor = await conn.execute(
            "UPDATE seats SET name = '', token_hash = NULL WHERE match_id = %s AND seat = %s "
            "AND kind = 'person'",
            (match_id, seat.seat),
        )
    return cursor.rowcount == 1


async def _forgive(conn: Connection, downtime: float) -> None:
    """Move every playing match's clock and away times on by ``downtime``."""
    cursor = await conn.execute(
        "SELECT id, clock FROM matches WHERE status = 'playing' AND clock IS NOT NULL "
        "ORDER BY id FOR UPDATE"
    )
    shifted = []
    for match_id, clock in await cursor.fetchall():
        shifted.append((clock_moved_on(clock, downtime), downtime, match_id))
    async with conn.cursor() as many:
        await many.executemany(
            "UPDATE matches SET clock = %s, due = due + %s, revision = revision + 1 WHERE id = %s",
            shifted,
        )
    await conn.execute(
        "UPDATE seats SET away_since = away_since + %s WHERE match_id IN "
        "(SELECT id FROM matches WHERE status = 'playing')",
        (downtime,),
    )


def _line(error: BaseException) -> str:
    """The error's text on one line."""
    return " ".join(str(error).split()) or type(error).__name__


def _unavailable(error: BaseException) -> StoreUnavailableError:
    return StoreUnavailableError(f"the database did not answer: {_line(error)}; nothing was stored")


def _without_password(url: str) -> str:
    """``url`` with its password, if any, replaced by ``***`` (it may be shown or logged).

    >>> _without_password("postgresql://game:secret@db:5432/tabletop")
    'postgresql://game:***@db:5432/tabletop'
    >>> _without_password("host=db password=secret dbname=tabletop")
    'host=db password=*** dbname=tabletop'
    """
    if "://" not in url:
        return re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", url)
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
