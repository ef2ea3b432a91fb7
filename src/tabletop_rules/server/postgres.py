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
import math
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from typing_extensions import override

from .._validation import check_seconds
from ..errors import ConfigError, InvalidStateError
from .sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from .store import Session, Store, StoreUnavailableError

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

MIGRATIONS: tuple[str, ...] = tuple(
    script.replace(" REAL", " DOUBLE PRECISION").replace(" BLOB", " BYTEA")
    for script in SQLITE_MIGRATIONS
)
"""The schema, one migration per version (the SQLite store's, in Postgres's types); a
store runs those its database has not had.
"""


class PostgresStore(Store):
    """The store in a Postgres database, reached through a pool of connections; open it
    with :meth:`open`, which brings the schema up to date.
    """

    _row_lock = " FOR UPDATE"

    def __init__(self, url: str, *, min_size: int, max_size: int, timeout: float) -> None:
        self.url = _without_password(url)
        """The database's URL, its password left out."""
        self._conninfo = url
        self._duplicate = pg_errors.UniqueViolation
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
        check_seconds("timeout", timeout)
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

    @override
    async def close(self) -> None:
        await self._pool.close()

    @override
    async def _session(self, work: Callable[[Session], Awaitable[T]], *, atomic: bool = True) -> T:
        return await self._transact(lambda conn: work(_Session(conn)), atomic=atomic)

    @override
    async def _lock_workers(self, session: Session) -> None:
        await session.run("SELECT pg_advisory_xact_lock(?)", (LOCK_KEY,))


class _Session:
    """A connection of the pool, in psycopg's marks: ``%s`` for each ``?``."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def run(self, sql: str, args: Sequence[Any] = ()) -> int:
        cursor = await self.conn.execute(sql.replace("?", "%s"), args)
        return cursor.rowcount

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[TupleRow]:
        cursor = await self.conn.execute(sql.replace("?", "%s"), args)
        return await cursor.fetchall()

    async def run_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        async with self.conn.cursor() as cursor:
            await cursor.executemany(sql.replace("?", "%s"), args)


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
