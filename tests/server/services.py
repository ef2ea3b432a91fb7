"""Real Postgres and Redis for the cluster tests: Debian's binaries started by the tests on
127.0.0.1, at free ports, in throwaway folders, and never left running.

Postgres refuses to run as root, and CI runs as root: there the cluster is created and
served by the unprivileged ``nobody``, its folder handed over to it. Each server runs in a
session of its own (out of reach of a terminal's Ctrl-C); :meth:`PostgresService.kill`
takes the postmaster and every backend down at once, as a crash of the machine would.
A server dies with the thread that started it (``PR_SET_PDEATHSIG``), and whatever still
runs when its service is collected or the interpreter exits is killed: no test run leaves
a server behind.

The fixtures (:func:`postgres_service`, :func:`redis_service`, one each a test session)
skip with the advice to install the servers where they are missing, and fail instead
under ``TABLETOP_REQUIRE_SERVICES=1``, as ``.ci/run`` sets it.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path
from queue import SimpleQueue
from types import TracebackType
from typing import NoReturn, Self, TypeVar

import pytest

__all__ = [
    "ENABLE",
    "PostgresService",
    "RedisService",
    "ServiceError",
    "alive",
    "free_port",
    "postgres_bindir",
    "postgres_database",
    "postgres_service",
    "process_tree",
    "redis_binary",
    "redis_service",
]

ENABLE = (
    "the cluster tests need Debian's Postgres and Redis servers "
    "(apt-get install postgresql redis-server); .ci/run installs both"
)

UNPRIVILEGED_USER = "nobody"
"""Who runs Postgres when the tests run as root."""

START_SECONDS = 30.0
"""How long a server may take to answer after it is started."""

STOP_SECONDS = 30.0
"""How long a server may take to shut down before it is killed."""


class ServiceError(RuntimeError):
    """A server that did not start or answer; the message ends with its log's last lines."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def postgres_bindir() -> Path | None:
    """The folder of the newest installed Postgres server's binaries (Debian's
    ``/usr/lib/postgresql/<version>/bin``, else what ``pg_config --bindir`` names), or
    ``None``.
    """

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name))

    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            named = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=10
            ).stdout.strip()
            candidates.append(Path(named))
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "postgres", "pg_isready", "psql")):
            return folder
    return None


def redis_binary() -> Path | None:
    """The installed ``redis-server``, or ``None``."""
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin")
    return None if found is None else Path(found)


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants that are alive (not zombies), read from ``/proc``
    (Postgres's processes each lead a session of their own, so no process group holds them).
    """
    children: dict[int, list[int]] = {}
    alive = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError):
            text = stat.read_text()
            # pid (comm) state ppid ...: comm may hold spaces and parentheses
            state, parent = text[text.rindex(")") + 2 :].split()[:2]
            if state != "Z":
                child = int(stat.parent.name)
                alive.add(child)
                children.setdefault(int(parent), []).append(child)
    tree, waiting = [], [pid]
    while waiting:
        member = waiting.pop()
        if member in alive:
            tree.append(member)
        waiting.extend(children.get(member, ()))
    return tree


def alive(pids: Sequence[int]) -> list[int]:
    """Those of ``pids`` that still run (not zombies)."""
    running = []
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            text = Path(f"/proc/{pid}/stat").read_text()
            if text[text.rindex(")") + 2 :].split()[0] != "Z":
                running.append(pid)
    return running


def _die_with_parent(sig: int) -> Callable[[], None] | None:
    """A ``preexec_fn`` that has the child receive ``sig`` when the thread that started it
    ends (Linux only; it runs after the change of user, which would clear it).
    """
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_pdeathsig = 1

    def set_signal() -> None:
        libc.prctl(pr_set_pdeathsig, sig, 0, 0, 0)

    return set_signal


_T = TypeVar("_T")


class _Launcher:
    """One thread, living as long as the process, that starts every server: the kernel
    sends the parent-death signal when the *thread* that started a child ends, so a server
    started from a passing thread (``asyncio.to_thread``, say) would die with it.
    """

    def __init__(self) -> None:
        self._jobs: SimpleQueue[tuple[Callable[[], object], Future[object]]] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, job: Callable[[], _T]) -> _T:
        """``job()``, called on the launcher's thread; what it returned or raised."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, name="service launcher", daemon=True
                )
                self._thread.start()
        done: Future[object] = Future()
        self._jobs.put((job, done))
        return done.result()  # type: ignore[return-value]

    def _serve(self) -> None:
        while True:
            job, done = self._jobs.get()
            try:
                done.set_result(job())
            except BaseException as error:
                done.set_exception(error)


_launcher = _Launcher()


class _Child:
    """The running server process of a service: kept apart from the service so the
    service's finalizer can kill it without holding the service alive.
    """

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the process and its descendants at once, and wait until none runs."""
        if self.process is None:
            return
        tree = process_tree(self.process.pid) if self.process.poll() is None else []
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.process.wait()
        self.process = None
        deadline = time.monotonic() + 10
        while alive(tree) and time.monotonic() < deadline:
            time.sleep(0.02)

    def signal_and_wait(self, sig: int, seconds: float) -> None:
        """Send ``sig`` and wait ``seconds`` for the process to end; kill it past that."""
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(seconds)
        self.kill()

    @staticmethod
    def reap(child: _Child, folder: Path) -> None:
        """Kill what still runs and remove the folder: a service's finalizer."""
        child.kill()
        shutil.rmtree(folder, ignore_errors=True)


class _Service:
    """What both servers share: a folder, a log, a process, a port."""

    name = "server"

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix=f"tabletop-{self.name}-"))
        self.log = self.folder / f"{self.name}.log"
        self.port = 0
        self._child = _Child()
        self._finalizer = weakref.finalize(self, _Child.reap, self._child, self.folder)

    @property
    def running(self) -> bool:
        """Whether the server process runs."""
        return self._child.running

    @property
    def pid(self) -> int | None:
        """The server's process id, or ``None`` when stopped."""
        process = self._child.process
        return None if process is None or process.poll() is not None else process.pid

    def start(self) -> None:
        """Start the server (on the port it had, if it ran before) and wait until it
        answers; nothing when it runs already.
        """
        if self.running:
            return
        attempts = 1 if self.port else 3  # a first port may be taken between probe and bind
        for attempt in range(attempts):
            if not self.port or attempt:
                self.port = free_port()
            self._child.process = self._spawn()
            try:
                self._wait_until_ready()
                return
            except ServiceError:
                self._child.kill()
                if attempt == attempts - 1 or "in use" not in self._log_tail():
                    raise

    def stop(self) -> None:
        """Stop the server cleanly (killed after :data:`STOP_SECONDS`)."""
        self._child.signal_and_wait(self._stop_signal, STOP_SECONDS)

    def kill(self) -> None:
        """Kill the server and every process it started at once (SIGKILL)."""
        self._child.kill()

    def restart(self) -> None:
        """Stop the server, then start it again on the same port."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop the server and remove its folder."""
        self.stop()
        self._finalizer()

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    _stop_signal = signal.SIGTERM

    def _spawn(self) -> subprocess.Popen[bytes]:
        raise NotImplementedError

    def _answers(self) -> bool:
        raise NotImplementedError

    def _popen(
        self, command: Sequence[str | Path], *, user: str | None, death_signal: int
    ) -> subprocess.Popen[bytes]:
        """``command`` in a session of its own, as ``user`` (or as ourselves), its
        output appended to the log, dying with ``death_signal`` with the starting thread.
        """
        with self.log.open("ab") as log:
            return _launcher.run(
                lambda: subprocess.Popen(
                    [str(part) for part in command],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    cwd=self.folder,
                    start_new_session=True,
                    preexec_fn=_die_with_parent(death_signal),
                    user=None if user is None else pwd.getpwnam(user).pw_uid,
                    group=None if user is None else pwd.getpwnam(user).pw_gid,
                    extra_groups=None if user is None else [],
                )
            )

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while not self._answers():
            if not self.running:
                raise ServiceError(f"the {self.name} server ended at start:\n{self._log_tail()}")
            if time.monotonic() > deadline:
                raise ServiceError(
                    f"the {self.name} server did not answer within {START_SECONDS:g} s:\n"
                    f"{self._log_tail()}"
                )
            time.sleep(0.05)

    def _log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


class PostgresService(_Service):
    """A throwaway Postgres cluster: ``initdb`` in a temporary folder, served on
    127.0.0.1 at a free port with its socket in that folder, trust authentication for the
    user ``postgres``, ``fsync`` on (the tests check what survives a crash), and room for
    200 connections.

    Its :attr:`url` answers once :meth:`start` returns; :meth:`stop` is a fast shutdown,
    :meth:`kill` a crash, and :meth:`start` brings the same data back.
    """

    name = "postgres"
    _stop_signal = signal.SIGINT  # Postgres's fast shutdown: roll back, disconnect, stop

    def __init__(self, bindir: Path | None = None, *, max_connections: int = 200) -> None:
        found = bindir or postgres_bindir()
        if found is None:
            raise ServiceError(f"no Postgres server found: {ENABLE}")
        self.bindir = found
        self.max_connections = max_connections
        super().__init__()
        self.data = self.folder / "data"
        self.user = UNPRIVILEGED_USER if os.geteuid() == 0 else None
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._databases = itertools.count(1)

    @property
    def url(self) -> str:
        """The URL of the ``postgres`` database, as the superuser ``postgres``."""
        return self.database_url("postgres")

    def database_url(self, database: str) -> str:
        """The URL of ``database`` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """Create the database ``name`` (lower case letters, digits and ``_``) and return
        its URL: one a test, so tests share the server and nothing else.
        """
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
            raise ValueError(f"a database name is [a-z_][a-z0-9_]*, at most 63, got {name!r}")
        self.sql(f"CREATE DATABASE {name}")
        return self.database_url(name)

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run ``statement`` with ``psql`` and return what it printed (unaligned, tuples
        only); :class:`ServiceError` with Postgres's message where it fails.
        """
        done = subprocess.run(
            [
                str(self.bindir / "psql"),
                *("-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"),
                *("-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database),
                *("-c", statement),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=_clean_environment(),
            check=False,
        )
        if done.returncode != 0:
            raise ServiceError(f"psql failed on {statement!r}: {done.stderr.strip()}")
        return done.stdout

    def _spawn(self) -> subprocess.Popen[bytes]:
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        return self._popen(
            [
                self.bindir / "postgres",
                *("-D", self.data, "-p", str(self.port)),
                *("-c", "listen_addresses=127.0.0.1"),
                *("-c", f"unix_socket_directories={self.folder}"),
                *("-c", "fsync=on", "-c", "synchronous_commit=on"),
                *("-c", f"max_connections={self.max_connections}"),
            ],
            user=self.user,
            death_signal=signal.SIGQUIT,  # Postgres's immediate shutdown
        )

    def _initdb(self) -> None:
        initdb = self._popen(
            [
                self.bindir / "initdb",
                *("-D", self.data, "-A", "trust", "-U", "postgres"),
                *("-E", "UTF8", "--locale=C", "--no-sync"),  # the server itself syncs
            ],
            user=self.user,
            death_signal=signal.SIGKILL,
        )
        if initdb.wait(120) != 0:
            raise ServiceError(f"initdb failed:\n{self._log_tail()}")

    def _answers(self) -> bool:
        ready = subprocess.run(
            [
                str(self.bindir / "pg_isready"),
                *("-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-t", "1"),
            ],
            env=_clean_environment(),
            check=False,
        )
        return ready.returncode == 0


def _clean_environment() -> dict[str, str]:
    """This process's environment without the ``PG…`` settings a developer's shell may
    hold, which would point the client elsewhere.
    """
    return {key: value for key, value in os.environ.items() if not key.startswith("PG")}


class RedisService(_Service):
    """A throwaway Redis: ``redis-server`` on 127.0.0.1 at a free port, nothing saved
    (no snapshot, no append-only file), its folder temporary. :meth:`restart` stops it
    and starts it on the same port, empty, as a restarted Redis is.
    """

    name = "redis"

    def __init__(self, binary: Path | None = None) -> None:
        found = binary or redis_binary()
        if found is None:
            raise ServiceError(f"no redis-server found: {ENABLE}")
        self.binary = found
        super().__init__()

    @property
    def url(self) -> str:
        """The server's URL (database 0)."""
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self, *words: str) -> bytes:
        """Send one command (inline, its words without spaces) and return Redis's answer:
        what a test needs without a client library.
        """
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as connection:
            connection.sendall(" ".join(words).encode() + b"\r\n")
            return connection.recv(4096)

    def _spawn(self) -> subprocess.Popen[bytes]:
        return self._popen(
            [
                self.binary,
                *("--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", self.folder),
                *("--daemonize", "no", "--protected-mode", "yes"),
            ],
            user=None,
            death_signal=signal.SIGTERM,
        )

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(64).startswith(b"+PONG")
        except OSError:
            return False


def _missing(reason: str) -> NoReturn:
    """Skip the tests that need the servers, or fail them where CI requires them
    (``TABLETOP_REQUIRE_SERVICES=1``, as ``.ci/run`` sets it).
    """
    if os.environ.get("TABLETOP_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (TABLETOP_REQUIRE_SERVICES=1 requires the cluster tests)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_service() -> Iterator[PostgresService]:
    """A Postgres server for the session; a test that stops it starts it again."""
    if postgres_bindir() is None:
        _missing(f"no Postgres server found: {ENABLE}")
    try:
        service = PostgresService().__enter__()
    except (ServiceError, OSError, KeyError) as error:  # KeyError: no user 'nobody'
        _missing(f"Postgres does not start here ({error}): {ENABLE}")
    try:
        yield service
    finally:
        service.close()


@pytest.fixture(scope="session")
def redis_service() -> Iterator[RedisService]:
    """A Redis server for the session; a test that stops it starts it again."""
    if redis_binary() is None:
        _missing(f"no redis-server found: {ENABLE}")
    try:
        service = RedisService().__enter__()
    except (ServiceError, OSError) as error:
        _missing(f"Redis does not start here ({error}): {ENABLE}")
    try:
        yield service
    finally:
        service.close()


_test_databases = itertools.count(1)


@pytest.fixture
def postgres_database(postgres_service: PostgresService, request: pytest.FixtureRequest) -> str:
    """The URL of a new, empty database for this test alone, on the session's Postgres
    (started again first if an earlier test left it stopped).
    """
    postgres_service.start()
    slug = re.sub(r"[^a-z0-9_]+", "_", request.node.name.lower())
    return postgres_service.new_database(f"t{next(_test_databases)}_{slug}"[:63])
