"""The game server under load: N matches of two clients each, on loopback, beside boardgame.io.

For each number of matches N the script starts a fresh server process per contender on
127.0.0.1 (any free port), makes N two-seat matches of dice poker through its lobby,
connects two clients to each match and lets them play random legal moves for a warmup
and then a measured window; then it stops the server. The contenders, in an order
rotated for each N:

- **ours, SQLite file**: ``tabletop-rules serve --db <temp file>`` (the default storage);
- **ours, SQLite in memory**: ``tabletop-rules serve --db :memory:``;
- **ours, Postgres, 1, 2 or 4 workers** (``pg-1``, ``pg-2``, ``pg-4``): as many
  ``tabletop-rules serve --db postgresql://… --redis redis://… --worker-id wI`` processes
  on a fresh database of one throwaway Postgres and one throwaway Redis
  (``tests/server/services.py``: Debian's binaries on 127.0.0.1, Postgres as ``nobody``
  under root), started at the first such run and kept for the others. Match i is made on
  worker i (mod W); its seat 0 joins and plays there, its seat 1 on worker i + 1, so every
  move crosses the fan-out once there are two workers;
- with ``--anchor``, **boardgame.io, InMemory** and **boardgame.io, FlatFile**: its own
  server (``boardgame.io/server``, Koa + socket.io) from ``benchmarks/bgio`` (the npm
  lock pins it; ``npm ci`` runs there when ``node_modules`` is missing) serving
  ``bgio/game.js``, the same dice poker written for boardgame.io (two players, three
  stages of fifteen boxes, throws with keeps and fences; a random game has 344 moves on
  both sides), driven by ``bgio/load.js`` (``boardgame.io/client`` with its socket.io
  transport, WebSocket only).

Our clients are asyncio ``websockets`` connections in this process (in ``--drivers``
processes, by default as many as keep each one's 2 sockets a match under the file limit,
started together and playing in step); they speak the
protocol of ``docs/server.rst``: a ``hello`` with the seat's token, then on every table
where the seat is to move, after a think time drawn uniformly from 0 to twice
``--think`` seconds, a random one of the table's ``actions`` with the table's
``version``. The boardgame.io clients pick a random move of the game's ``enumerate``
(boardgame.io's AI convention) the same way. Measured in the window, on both sides alike:

- **moves/s**: moves whose answering table (boardgame.io: state) arrived in the window;
- **p50 / p99 latency**: from a move sent to the first table with a later version
  received by the seat that sent it (nearest rank, all moves of the window);
- **memory per match**: the server processes' resident memory (``/proc/PID/status``) at
  the end of the window less when they were idle before the lobby, summed, divided by N;
- **server CPU per move**: the server processes' user + system time over the window
  (``/proc/PID/stat``) divided by the moves, which the clients' own cost does not touch;
- **CPU shares** over the window, of one CPU: the workers', Postgres's (the postmaster
  and every backend), Redis's, and the driver's own (every driver process): what is
  busy says what bends the curve;
- **commit ms**: the workers' ``tabletop_commit_seconds`` histogram (``/metrics``) over
  the window, summed: its mean, and the bucket bound its 99th percentile falls under (the
  wall time of ``Store.commit`` inside the worker: a busy worker's waits count in it);
- **KiB in/move**: the message text both clients received in the window (ours: the
  WebSocket messages, decompressed; boardgame.io: the socket.io packets) per move;
- **setup s**: from the first lobby request to every client holding its first table;
- **errors**: refused moves, protocol errors, dropped connections, moves unanswered for
  10 s.

The rows: a flat-out row (think time 0 at ``--flat-out`` matches, default 100: the
server's capacity), then paced rows (``--think``, default 1 s) at ``--matches`` (100 and
1,000), then the ramp: for each contender, the most matches that held (p99 within
``--p99-limit``, default 2 s, and no error) doubled, or the fewest that did not halved
when none held, while that stays below the fewest that did not, up to ``--max-matches``
(8,000) and within ``--budget`` seconds. A contender does not run a fixed row above a
load it failed (but with ``--all-rows``). The open-file limit is raised to the hard
limit (to 65,536 where that may be raised), for the drivers and the servers alike; a row
whose 2N sockets would not fit in one server process fails with that reason. The load
average
(``/proc/loadavg``) is printed before and after: other processes on the machine share
its CPUs with the servers and the clients alike, which the CPU time per move does not
feel and the rates and latencies do.

Run::

    python benchmarks/server_load.py [--anchor] [--quick] [--think 1] [--seconds 6]
        [--warmup 2] [--flat-out 100] [--matches 100,1000] [--max-matches 8000]
        [--no-ramp] [--all-rows] [--servers ours-file,pg-2] [--drivers 0] [--cluster]
        [--game dice-poker] [--json out.json]

``--game palace`` (or ``account``) loads our server with that game instead, without the
anchor (boardgame.io plays dice poker only here). ``--cluster``: ``pg-1``, ``pg-2``,
``pg-4`` and ``ours-file``, paced at 1,000 and 10,000 matches after the flat-out row, every
row, no ramp. ``--quick`` (under 2 minutes): ``pg-1``, ``pg-2`` and ``ours-file`` (and
boardgame.io's with ``--anchor``) unless ``--servers`` says otherwise, the flat-out row
and the paced row at 100 matches, 2 s windows after 1 s of warmup, no ramp. Without
Postgres and Redis installed the Postgres contenders are left out, with the advice.
This is an absolute measurement on one machine, for the
documentation (``docs/performance.rst``); nothing asserts it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import queue
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from harness import machine, machine_line, write_report
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' throwaway Postgres and Redis
from tests.server.services import (  # noqa: E402
    PostgresService,
    RedisService,
    ServiceError,
    postgres_bindir,
    process_tree,
    redis_binary,
)

BGIO = Path(__file__).resolve().parent / "bgio"
GAMES = ("dice-poker", "palace", "account")
STALL = 10.0
"""Seconds a sent move may go unanswered before it counts as an error."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
RAMP_FLOOR = 10
"""The ramp probes no fewer matches."""
MATCHES_PER_ADDRESS = 16
"""Matches made and played from one loopback address: under the server's
``matches_per_client`` (20) and ``sockets_per_client`` (50).
"""
FILE_LIMIT = 65536
"""Open files asked for (as root the hard limit can be raised): 2N sockets in the driver and
in a lone worker, with room to spare.
"""
LOBBY_TRIES = 10
"""How many times a lobby request refused with 503 is sent."""
SPARE_FILES = 1024
"""Files a process keeps beside its sockets (libraries, logs, the database)."""


@dataclass(frozen=True)
class Contender:
    """A server set-up: its key, its label, whether it is ours, and how many ``serve``
    workers share one Postgres and one Redis (0: one process on SQLite, or boardgame.io).
    """

    key: str
    label: str
    ours: bool
    workers: int = 0


CONTENDERS = (
    Contender("ours-file", "ours, SQLite file", True),
    Contender("ours-memory", "ours, SQLite in memory", True),
    Contender("pg-1", "ours, Postgres, 1 worker", True, 1),
    Contender("pg-2", "ours, Postgres, 2 workers", True, 2),
    Contender("pg-4", "ours, Postgres, 4 workers", True, 4),
    Contender("bgio-memory", "boardgame.io, InMemory", False),
    Contender("bgio-flatfile", "boardgame.io, FlatFile", False),
)
CLUSTER = ("pg-1", "pg-2", "pg-4", "ours-file")
"""``--cluster``'s contenders: 1, 2 and 4 workers on Postgres + Redis, and one on SQLite."""
QUICK = ("pg-1", "pg-2", "ours-file")
"""``--quick``'s contenders, unless ``--servers`` says otherwise."""
RATIOS = (("ours-memory", "bgio-memory"), ("ours-file", "bgio-flatfile"))
"""Which contender is set beside which: in memory beside in memory, on disk beside on disk."""


@dataclass
class Usage:
    """The server process's resident memory (bytes) and CPU time (seconds) at a moment."""

    rss: int
    cpu: float


@dataclass
class Run:
    """One contender at one N: what the clients saw and what the server process used."""

    contender: str
    matches: int
    think: float
    moves: int = 0
    received: int = 0
    window_seconds: float = 0.0
    setup_seconds: float = 0.0
    p50: float = float("nan")
    p99: float = float("nan")
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    games_over: int = 0
    idle: Usage | None = None
    opened: Usage | None = None
    closed: Usage | None = None
    client_cpu: float = 0.0
    workers: int = 1
    drivers: int = 1
    lobby_retries: int = 0
    postgres_cpu: float = float("nan")
    redis_cpu: float = float("nan")
    commits: int = 0
    commit_seconds: float = 0.0
    commit_buckets: dict[str, float] = field(default_factory=dict)
    load_before: str = ""
    load_after: str = ""
    failed: str = ""

    @property
    def moves_per_second(self) -> float:
        """Moves answered per second of the window."""
        return self.moves / self.window_seconds if self.window_seconds else float("nan")

    @property
    def memory_per_match(self) -> float:
        """Bytes of server memory per match: end of the window less idle, over N."""
        if self.idle is None or self.closed is None:
            return float("nan")
        return (self.closed.rss - self.idle.rss) / self.matches

    @property
    def cpu_per_move(self) -> float:
        """Seconds of server CPU per move answered in the window."""
        if self.opened is None or self.closed is None or not self.moves:
            return float("nan")
        return (self.closed.cpu - self.opened.cpu) / self.moves

    @property
    def received_per_move(self) -> float:
        """Characters of message text the clients received per move (both seats)."""
        return self.received / self.moves if self.moves else float("nan")

    @property
    def server_load(self) -> float:
        """The share of one CPU the server process used in the window."""
        if self.opened is None or self.closed is None or not self.window_seconds:
            return float("nan")
        return (self.closed.cpu - self.opened.cpu) / self.window_seconds

    def share(self, cpu: float) -> float:
        """``cpu`` seconds as a share of one CPU over the window."""
        return cpu / self.window_seconds if self.window_seconds else float("nan")

    @property
    def commit_mean(self) -> float:
        """Mean seconds of a store transaction in the window, over every worker."""
        return self.commit_seconds / self.commits if self.commits else float("nan")

    def commit_quantile(self, q: float) -> float:
        """The upper bound of the histogram bucket that holds the ``q`` quantile of the
        window's store transactions (inf past the last bucket, nan with none).
        """
        if not self.commits:
            return float("nan")
        for bound, count in sorted(self.commit_buckets.items(), key=lambda b: float(b[0])):
            if count >= q * self.commits:
                return float(bound)
        return float("inf")

    @property
    def held(self) -> bool:
        """Whether the server kept up: no error and p99 latency measured."""
        return not self.failed and self.errors == 0 and self.moves > 0


def usage(pid: int) -> Usage:
    """Process ``pid``'s resident memory and user + system CPU time, from ``/proc``."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return Usage(rss=rss * 1024, cpu=(int(fields[11]) + int(fields[12])) / CLK_TCK)


def usages(pids: Sequence[int]) -> Usage:
    """The summed resident memory and CPU time of the processes ``pids``."""
    each = [usage(pid) for pid in pids]
    return Usage(rss=sum(one.rss for one in each), cpu=sum(one.cpu for one in each))


def tree_cpu(pid: int) -> dict[int, float]:
    """The CPU time of ``pid`` and of each of its descendants alive now, by pid (Postgres:
    the postmaster and every backend).
    """
    times = {}
    for member in process_tree(pid):
        with contextlib.suppress(OSError, StopIteration, ValueError):
            times[member] = usage(member).cpu
    return times


def tree_cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds a process tree spent between two :func:`tree_cpu` readings (a process
    born in between counts from zero; one that ended in between is lost, as it is rare).
    """
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def commit_histogram(texts: Sequence[str]) -> tuple[float, float, dict[str, float]]:
    """The ``tabletop_commit_seconds`` histogram summed over the workers' ``/metrics``
    texts: count, sum of seconds, and the cumulative count by bucket bound.
    """
    count, total = 0.0, 0.0
    buckets: dict[str, float] = {}
    for text in texts:
        for family in text_string_to_metric_families(text):
            if family.name != "tabletop_commit_seconds":
                continue
            for sample in family.samples:
                if sample.name.endswith("_count"):
                    count += sample.value
                elif sample.name.endswith("_sum"):
                    total += sample.value
                elif sample.name.endswith("_bucket"):
                    bound = sample.labels["le"]
                    buckets[bound] = buckets.get(bound, 0.0) + sample.value
    return count, total, buckets


def quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``values`` (nan when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def loopback(number: int) -> str:
    """The ``number``-th client address of 127.1.0.0/16 (loopback: Linux answers them all)."""
    return f"127.1.{number // 250}.{number % 250 + 1}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def loadavg() -> str:
    """``/proc/loadavg``'s three load averages."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Services:
    """One throwaway Postgres and one Redis (``tests/server/services.py``) for the
    Postgres contenders, started at the first need; a fresh database for each run.
    """

    def __init__(self) -> None:
        self.postgres: PostgresService | None = None
        self.redis: RedisService | None = None
        self.numbers = itertools.count(1)

    def database(self) -> tuple[str, str]:
        """A new empty database's URL, and Redis's URL."""
        if self.postgres is None or self.redis is None:
            self.postgres = PostgresService(max_connections=200)
            self.postgres.start()
            self.redis = RedisService()
            self.redis.start()
        return self.postgres.new_database(f"load_{next(self.numbers)}"), self.redis.url

    def close(self) -> None:
        """Stop both servers and remove their folders."""
        for service in (self.redis, self.postgres):
            if service is not None:
                service.close()


class Server:
    """A server process of one contender, started on a free port and stopped by its pid:
    ``db`` and ``redis`` make it a worker of a Postgres cluster, named ``worker``.
    """

    def __init__(
        self,
        contender: Contender,
        scratch: Path,
        *,
        db: str = "",
        redis: str = "",
        worker: str = "",
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.label = f"{contender.label} {worker}".strip()
        env = dict(os.environ)
        if contender.ours:
            env["PYTHONPATH"] = os.pathsep.join(
                [str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])]
            )
            if not db:
                db = ":memory:" if contender.key == "ours-memory" else str(scratch / "load.sqlite")
            command = [
                sys.executable, "-m", "tabletop_rules", "serve", "--db", db,
                "--host", "127.0.0.1", "--port", str(self.port),
            ]  # fmt: skip
            if redis:
                command += ["--redis", redis, "--worker-id", worker]
            probe, cwd = ("/health" if redis else "/api/games"), ROOT
        else:
            storage = "flatfile" if contender.key == "bgio-flatfile" else "memory"
            command = [
                "node", "server.js", "--port", str(self.port), "--storage", storage,
                "--dir", str(scratch / "bgio-storage"),
            ]  # fmt: skip
            probe, cwd = "/games", BGIO
        self.log = (scratch / f"{contender.key}{worker and '-' + worker}.log").open("w")
        self.probe = probe
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        self.pid = self.process.pid

    def wait(self) -> None:
        """Wait until the server answers its probe (60 s at most)."""
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited with {self.process.returncode}")
            try:
                if httpx.get(self.url + self.probe, timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.label} did not answer {self.probe} in 60 s")
            time.sleep(0.1)

    def signal(self) -> None:
        """Ask the process to stop (SIGTERM): workers drain together."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        """Stop the process (SIGTERM, then SIGKILL after 10 s) and close its log."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Deployment:
    """A contender's server processes: one, or ``workers`` workers on a fresh Postgres
    database and the one Redis, started together.
    """

    def __init__(self, contender: Contender, scratch: Path, services: Services) -> None:
        self.services = services
        self.servers: list[Server] = []
        try:
            if contender.workers:
                db, redis = services.database()
                for number in range(contender.workers):
                    self.servers.append(
                        Server(contender, scratch, db=db, redis=redis, worker=f"w{number}")
                    )
            else:
                self.servers.append(Server(contender, scratch))
            for server in self.servers:
                server.wait()
        except (RuntimeError, ServiceError):
            self.stop()
            raise
        self.urls = [server.url for server in self.servers]
        self.pids = [server.pid for server in self.servers]
        self.clustered = bool(contender.workers)

    def stop(self) -> None:
        """Stop every process: all asked at once, then each waited for."""
        for server in self.servers:
            server.signal()
        for server in self.servers:
            server.stop()

    def postgres_cpu(self) -> dict[int, float]:
        """The CPU times of Postgres's processes (empty without Postgres)."""
        postgres = self.services.postgres
        pid = postgres.pid if postgres is not None and self.clustered else None
        return tree_cpu(pid) if pid is not None else {}

    def redis_cpu(self) -> float:
        """Redis's CPU time (nan without Redis)."""
        redis = self.services.redis
        pid = redis.pid if redis is not None and self.clustered else None
        return usage(pid).cpu if pid is not None else float("nan")


@dataclass
class Seat:
    """One client of ours: its match, seat and token, the worker it talks to, and the move
    it waits on.
    """

    match: str
    token: str
    address: str
    url: str
    pending_version: int = -1
    sent: float = 0.0
    acted: int = -1
    stalled: bool = False


class OursLoad:
    """N matches of two asyncio WebSocket clients against our server."""

    def __init__(
        self,
        urls: list[str],
        run: Run,
        warmup: float,
        seconds: float,
        game: str,
        part: tuple[int, int] | None = None,
    ) -> None:
        self.urls, self.run, self.game = urls, run, game
        self.part = part or (0, run.matches)
        self.warmup, self.seconds = warmup, seconds
        self.random = random.Random(run.matches * 1_000_003 + self.part[0])
        self.latencies: list[float] = []
        self.measuring = False
        self.stopped = False
        self.playing = asyncio.Event()

    def error(self, kind: str) -> None:
        """Count an error of ``kind``."""
        self.run.errors += 1
        self.run.error_kinds[kind] = self.run.error_kinds.get(kind, 0) + 1

    async def lobby(self, client: httpx.AsyncClient, address: str, index: int) -> list[Seat]:
        """Make the ``index``-th match of two people and join both seats, from ``address``:
        made on worker ``index``, seat 0 joined and played there, seat 1 on the next worker.
        """
        workers = len(self.urls)
        made = await self.post(
            client,
            self.urls[index % workers] + "/api/matches",
            {"game": self.game, "seats": ["person", "person"], "spectators": "none"},
        )
        match = made["match"]["id"]
        seats = []
        for number in (0, 1):
            url = self.urls[(index + number) % workers]
            joined = await self.post(
                client, f"{url}/api/matches/{match}/join", {"seat": number, "name": f"p{number}"}
            )
            seats.append(Seat(match=match, token=joined["token"], address=address, url=url))
        return seats

    async def post(self, client: httpx.AsyncClient, url: str, body: Any) -> Any:
        """POST ``body`` to ``url`` and return the JSON answer; a 503 (a worker whose store
        did not answer: nothing was stored, try again) is tried again after a second, at
        most :data:`LOBBY_TRIES` times in all, as a player's page would.
        """
        for attempt in range(1, LOBBY_TRIES + 1):
            answer = await client.post(url, json=body)
            if answer.status_code != 503 or attempt == LOBBY_TRIES:
                answer.raise_for_status()
                return answer.json()
            self.run.lobby_retries += 1
            await asyncio.sleep(1)
        raise AssertionError("unreachable")

    async def client(self, seat: Seat, connected: asyncio.Queue[None]) -> None:
        """Play one seat: hello, then a random legal move whenever the seat is to move."""
        ws_url = seat.url.replace("http://", "ws://") + f"/ws/{seat.match}"
        first = True
        try:
            async with connect(  # no keepalive pings: a busy server is slow, not gone
                ws_url,
                max_size=None,
                open_timeout=300,
                ping_interval=None,
                local_addr=(seat.address, 0),
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": seat.token, "cursor": 0}))
                async for raw in ws:
                    if self.measuring:
                        self.run.received += len(raw)
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "error":
                        self.error(f"error: {message.get('reason')}")
                        return
                    if kind == "refused":
                        self.error("refused")
                        seat.pending_version = -1
                    if "table" not in message:
                        continue
                    if first:
                        first = False
                        connected.put_nowait(None)
                        await self.playing.wait()
                    if self.stopped:
                        return
                    await self.on_table(ws, seat, message["table"])
            if not self.stopped:
                self.error("closed by the server")
        except (TimeoutError, OSError, ConnectionClosed) as error:
            if not self.stopped:
                self.error(type(error).__name__)
        finally:
            if first:  # it never played: the setup must not wait for it
                connected.put_nowait(None)

    async def on_table(self, ws: Any, seat: Seat, table: dict[str, Any]) -> None:
        """Note the answer to the seat's move, and send its next move if it is to move."""
        version = table["version"]
        if seat.pending_version >= 0 and version > seat.pending_version:
            if self.measuring:
                self.run.moves += 1
                self.latencies.append(time.perf_counter() - seat.sent)
            seat.pending_version = -1
        if table["over"]:
            if table["seat"] == 0:
                self.run.games_over += 1
            return
        if seat.pending_version >= 0 or not table["actions"] or version <= seat.acted:
            return
        seat.acted = version
        if self.run.think > 0:
            await asyncio.sleep(self.random.random() * 2 * self.run.think)
        if self.stopped:
            return
        action = self.random.choice(table["actions"])
        seat.pending_version, seat.sent, seat.stalled = version, time.perf_counter(), False
        await ws.send(json.dumps({"type": "move", "action": action, "version": version}))

    async def watch(self, seats: Sequence[Seat]) -> None:
        """Count a move unanswered for :data:`STALL` seconds as an error, once."""
        while not self.stopped:
            await asyncio.sleep(1)
            now = time.perf_counter()
            for seat in seats:
                if seat.pending_version >= 0 and not seat.stalled and now - seat.sent > STALL:
                    self.error("stalled move")
                    seat.stalled = True  # counted once; its latency still counts when answered

    async def connect(self, setup_timeout: float) -> tuple[list[Seat], list[asyncio.Task[None]]]:
        """Make this driver's matches, connect their clients, and wait until each holds
        its first table: the seats, and the clients' tasks.
        """
        gate = asyncio.Semaphore(32)

        async def made(
            client: httpx.AsyncClient, first: int, count: int, address: str
        ) -> list[Seat]:
            seats = []
            for index in range(first, first + count):
                async with gate:
                    seats += await self.lobby(client, address, index)
            return seats

        # The server allows a client (an address) a few live matches and open sockets:
        # each group of matches comes from an address of its own, as from its own players.
        first, count = self.part
        groups = range(first, first + count, MATCHES_PER_ADDRESS)
        clients = {
            # no kept-alive connections: one that the server closes idle as a request
            # goes out on it fails that request (uvicorn closes them after 5 s)
            group: httpx.AsyncClient(
                timeout=120,
                transport=httpx.AsyncHTTPTransport(
                    local_address=loopback(group // MATCHES_PER_ADDRESS),
                    limits=httpx.Limits(max_keepalive_connections=0),
                ),
            )
            for group in groups
        }
        try:
            made_seats = await asyncio.gather(
                *(
                    made(
                        client,
                        group,
                        min(MATCHES_PER_ADDRESS, first + count - group),
                        loopback(group // MATCHES_PER_ADDRESS),
                    )
                    for group, client in clients.items()
                )
            )
        finally:
            await asyncio.gather(*(client.aclose() for client in clients.values()))
        seats = [seat for group in made_seats for seat in group]
        connected: asyncio.Queue[None] = asyncio.Queue()
        tasks = []
        for number, seat in enumerate(seats):
            tasks.append(asyncio.create_task(self.client(seat, connected)))
            if number % 64 == 63:
                await asyncio.sleep(0)  # let the connections open a few at a time
        async with asyncio.timeout(setup_timeout):
            for _ in seats:
                await connected.get()
        return seats, tasks

    async def play(self, setup_timeout: float, meter: Meter | None, barrier: Any = None) -> None:
        """Lobby, connect, (wait at ``barrier`` for the other drivers), warm up, measure
        the window; fill in the run, and with ``meter`` what the servers used.
        """
        run = self.run
        started = time.perf_counter()
        try:
            seats, tasks = await self.connect(setup_timeout)
        except httpx.HTTPError as error:  # say which request failed
            try:
                where = f" on {error.request.method} {error.request.url.path}"
            except RuntimeError:  # no request attached
                where = ""
            raise httpx.HTTPError(f"{type(error).__name__}{where}: {error}") from error
        if barrier is not None:
            await asyncio.to_thread(barrier.wait, setup_timeout)
        run.setup_seconds = time.perf_counter() - started
        watcher = asyncio.create_task(self.watch(seats))
        self.playing.set()
        await asyncio.sleep(self.warmup)
        if meter is not None:
            meter.open()
        cpu = time.process_time()
        window = time.perf_counter()
        self.measuring = True
        await asyncio.sleep(self.seconds)
        self.measuring = False
        run.window_seconds = time.perf_counter() - window
        run.client_cpu = time.process_time() - cpu
        if meter is not None:
            await meter.close(run)
        self.stopped = True
        watcher.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, watcher, return_exceptions=True)
        run.p50, run.p99 = quantile(self.latencies, 0.5), quantile(self.latencies, 0.99)


class Meter:
    """What a deployment's processes use over the window: the workers' memory and CPU,
    Postgres's and Redis's CPU, the workers' commit histogram, the load average.
    """

    def __init__(self, deployment: Deployment) -> None:
        self.deployment = deployment
        self.postgres: dict[int, float] = {}
        self.redis = float("nan")
        self.opened: Usage | None = None
        self.commits: asyncio.Task[tuple[float, float, dict[str, float]]] | None = None
        self.load = ""

    def open(self) -> None:
        """Read the processes at the window's start (call in the event loop)."""
        self.load = loadavg()
        self.opened = usages(self.deployment.pids)
        self.postgres = self.deployment.postgres_cpu()
        self.redis = self.deployment.redis_cpu()
        self.commits = asyncio.create_task(self.histogram())

    async def close(self, run: Run) -> None:
        """Read them at the window's end and fill in ``run``."""
        assert self.commits is not None
        run.opened, run.closed = self.opened, usages(self.deployment.pids)
        if self.deployment.clustered:
            run.postgres_cpu = tree_cpu_spent(self.postgres, self.deployment.postgres_cpu())
            run.redis_cpu = self.deployment.redis_cpu() - self.redis
        run.load_before, run.load_after = self.load, loadavg()
        before = await self.commits
        after = await self.histogram()
        run.commits = round(after[0] - before[0])
        run.commit_seconds = after[1] - before[1]
        run.commit_buckets = {
            bound: count - before[2].get(bound, 0.0) for bound, count in after[2].items()
        }

    async def histogram(self) -> tuple[float, float, dict[str, float]]:
        """The workers' summed ``tabletop_commit_seconds`` histogram, read from ``/metrics``
        (a busy worker answers late: the reading is of when it answered).
        """
        async with httpx.AsyncClient(timeout=120) as client:
            answers = await asyncio.gather(
                *(client.get(url + "/metrics") for url in self.deployment.urls)
            )
        return commit_histogram([answer.text for answer in answers])


def drivers_for(matches: int, asked: int) -> int:
    """How many driver processes play ``matches``: ``asked``, or (0) as few as keep each
    one's 2 sockets a match under the file limit.
    """
    if asked:
        return asked
    per_driver = (files_limit() - SPARE_FILES) // 2
    return -(-matches // per_driver)


def drive_part(
    urls: list[str],
    run: Run,
    part: tuple[int, int],
    timing: tuple[float, float, float],
    game: str,
    barrier: Any,
    results: Any,
) -> None:
    """A driver process's share of a run: the matches ``part`` (first, count), played in
    step with the others through ``barrier``; what its clients saw goes to ``results``.
    """
    warmup, seconds, setup = timing
    load = OursLoad(urls, run, warmup, seconds, game, part)
    try:
        asyncio.run(load.play(setup, None, barrier))
    except threading.BrokenBarrierError:
        run.failed = "another driver failed"
    except (httpx.HTTPError, TimeoutError, KeyError, OSError) as error:
        first, count = part
        run.failed = (
            f"driver of matches {first}-{first + count - 1}: {type(error).__name__}: {error}"
        )
        barrier.abort()
    results.put((asdict(run), load.latencies))


def run_ours(
    deployment: Deployment,
    run: Run,
    args: argparse.Namespace,
) -> None:
    """Load our server (or workers) as ``run`` says: from this process, or from as many
    driver processes as the file limit needs (or ``--drivers`` asks), the window measured
    here.
    """
    drivers = drivers_for(run.matches, args.drivers)
    run.drivers = drivers
    run.idle = usages(deployment.pids)
    meter = Meter(deployment)
    if drivers == 1:
        load = OursLoad(deployment.urls, run, args.warmup, args.seconds, args.game)
        try:
            asyncio.run(load.play(args.setup_timeout, meter))
        except (httpx.HTTPError, TimeoutError, KeyError) as error:
            run.failed = f"{type(error).__name__}: {error}"
        return
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(drivers + 1)
    results = context.Queue()
    groups = -(-run.matches // MATCHES_PER_ADDRESS)
    cuts = [groups * number // drivers * MATCHES_PER_ADDRESS for number in range(drivers)]
    parts = [
        (cut, min(run.matches, following) - cut)
        for cut, following in zip(cuts, [*cuts[1:], run.matches], strict=True)
    ]
    timing = (args.warmup, args.seconds, args.setup_timeout)
    processes = [
        context.Process(
            target=drive_part,
            args=(deployment.urls, run, part, timing, args.game, barrier, results),
        )
        for part in parts
    ]
    for process in processes:
        process.start()

    async def window() -> None:
        started = time.perf_counter()
        await asyncio.to_thread(barrier.wait, args.setup_timeout + 60)
        run.setup_seconds = time.perf_counter() - started
        await asyncio.sleep(args.warmup)
        meter.open()
        await asyncio.sleep(args.seconds)
        await meter.close(run)

    try:
        asyncio.run(window())
    except (threading.BrokenBarrierError, httpx.HTTPError) as error:
        run.failed = f"{type(error).__name__}: {error}"
    failures = []
    latencies: list[float] = []
    for _ in processes:
        try:
            part, seen = results.get(timeout=args.setup_timeout + args.seconds + 120)
        except queue.Empty:
            run.failed = run.failed or "a driver process gave no result"
            break
        latencies += seen
        if part["failed"]:
            failures.append(part["failed"])
        run.moves += part["moves"]
        run.received += part["received"]
        run.errors += part["errors"]
        run.games_over += part["games_over"]
        run.lobby_retries += part["lobby_retries"]
        run.client_cpu += part["client_cpu"]
        run.window_seconds = max(run.window_seconds, part["window_seconds"])
        for kind, count in part["error_kinds"].items():
            run.error_kinds[kind] = run.error_kinds.get(kind, 0) + count
    for process in processes:
        process.join(30)
        if process.is_alive():
            process.kill()
    if failures or run.failed:  # a driver's own reason first, not the barrier it broke
        failures.sort(key=lambda reason: reason == "another driver failed")
        run.failed = "; ".join([*failures, run.failed][:2])
    run.p50, run.p99 = quantile(latencies, 0.5), quantile(latencies, 0.99)


def run_bgio(deployment: Deployment, run: Run, args: argparse.Namespace) -> None:
    """Load the boardgame.io server with ``bgio/load.js`` as ``run`` says."""
    server = deployment.servers[0]
    warmup, seconds, setup = args.warmup, args.seconds, args.setup_timeout
    command = [
        "node", "load.js", "--url", server.url, "--matches", str(run.matches),
        "--pid", str(server.pid), "--warmup", str(warmup), "--seconds", str(seconds),
        "--think", str(run.think), "--seed", str(run.matches), "--setup-timeout", str(setup),
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=BGIO, capture_output=True, text=True, timeout=setup + warmup + seconds + 120
    )
    try:
        report = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        run.failed = f"load.js exited with {done.returncode}: {done.stderr.strip()[-300:]}"
        return
    if "failed" in report:
        run.failed = report["failed"].splitlines()[0]
        return
    run.moves, run.window_seconds = report["moves"], report["window_seconds"]
    run.received = report["bytes"]
    run.setup_seconds = report["setup_seconds"]
    run.errors = report["errors"] + report["stalled"]
    run.error_kinds = report["error_kinds"]
    run.games_over = report["games_over"]
    run.idle, run.opened, run.closed = (
        Usage(rss=int(report["server"][key]["rss"]), cpu=float(report["server"][key]["cpu"]))
        for key in ("idle", "opened", "closed")
    )
    run.client_cpu = report["client_cpu"]
    run.p50 = quantile(report["latencies"], 0.5)
    run.p99 = quantile(report["latencies"], 0.99)


def measure(
    contender: Contender,
    matches: int,
    think: float,
    args: argparse.Namespace,
    scratch: Path,
    services: Services,
) -> Run:
    """Start ``contender``'s server(s), load them with ``matches`` matches, stop them."""
    run = Run(
        contender=contender.key, matches=matches, think=think, workers=max(1, contender.workers)
    )
    most = (files_limit() - SPARE_FILES) // 2
    if matches > most and contender.workers < 2:
        run.failed = (
            f"{2 * matches:,} sockets in one server process are over the file limit "
            f"({files_limit():,})"
        )
        return run
    folder = scratch / f"{contender.key}-{matches}-{think:g}"
    folder.mkdir()
    try:
        deployment = Deployment(contender, folder, services)
    except (RuntimeError, ServiceError) as error:
        run.failed = str(error)
        return run
    try:
        loader = run_ours if contender.ours else run_bgio
        loader(deployment, run, args)
    finally:
        deployment.stop()
    return run


def files_limit() -> int:
    """This process's limit of open files (its children inherit it)."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_files_limit() -> int:
    """Raise the limit of open files to :data:`FILE_LIMIT` (the hard limit too, which only
    root may raise), else to the hard limit; the limit now.
    """
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard < FILE_LIMIT:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))
            return FILE_LIMIT
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def describe(run: Run) -> str:
    """One progress line for a run."""
    if run.failed:
        return f"FAILED: {run.failed}"
    return (
        f"{run.moves_per_second:,.0f} moves/s, p50 {run.p50 * 1000:,.1f} ms, "
        f"p99 {run.p99 * 1000:,.1f} ms, {run.memory_per_match / 1024:,.0f} KiB/match, "
        f"{run.cpu_per_move * 1000:.2f} ms CPU/move, {run.received_per_move / 1024:.1f} KiB "
        f"in/move, server {run.server_load:.0%} of a CPU, "
        f"client {run.client_cpu / run.window_seconds:.0%}, setup {run.setup_seconds:.1f} s "
        f"({run.lobby_retries} lobby retries), "
        f"{run.errors} errors {run.error_kinds or ''}"
        + (
            f"; Postgres {run.share(run.postgres_cpu):.0%}, Redis {run.share(run.redis_cpu):.0%}"
            if run.postgres_cpu == run.postgres_cpu
            else ""
        )
        + f"; {run.commits:,} commits, mean {run.commit_mean * 1000:.2f} ms, "
        f"p99 <= {run.commit_quantile(0.99) * 1000:g} ms; "
        f"load {run.load_before} -> {run.load_after}"
    )


def row_name(matches: int, think: float) -> str:
    """How a row of the table names its load."""
    return f"{matches:,} matches, " + ("flat out" if think == 0 else f"think {think:g} s")


def table(runs: Sequence[Run], contenders: Sequence[Contender]) -> str:
    """The runs as a Markdown table, and the ratios ours / boardgame.io for each load."""
    labels = {contender.key: contender.label for contender in contenders}
    lines = [
        "| load | server | moves/s | p50 ms | p99 ms | KiB/match | CPU ms/move | KiB in/move "
        "| setup s | errors | CPU % workers | Postgres | Redis | driver | commit ms mean "
        "| commit p99 ms <= | load avg |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: | ---: | ---: | --- |",
    ]
    loads = sorted({(run.matches, run.think) for run in runs}, key=lambda at: (at[1] > 0, at[0]))
    for matches, think in loads:
        mine = {run.contender: run for run in runs if (run.matches, run.think) == (matches, think)}
        for contender in contenders:
            run = mine.get(contender.key)
            if run is None:
                continue
            if run.failed:
                lines.append(f"| {row_name(matches, think)} | {labels[run.contender]} | "
                             f"failed: {run.failed[:60]} |" + " |" * 14)  # fmt: skip
                continue
            lines.append(
                f"| {row_name(matches, think)} | {labels[run.contender]} "
                f"| {run.moves_per_second:,.0f} | {run.p50 * 1000:,.1f} | {run.p99 * 1000:,.1f} "
                f"| {run.memory_per_match / 1024:,.0f} | {run.cpu_per_move * 1000:.2f} "
                f"| {run.received_per_move / 1024:.1f} | {run.setup_seconds:.1f} "
                f"| {run.errors} | {percent(run.server_load)} "
                f"| {percent(run.share(run.postgres_cpu))} | {percent(run.share(run.redis_cpu))} "
                f"| {percent(run.share(run.client_cpu))} | {run.commit_mean * 1000:.2f} "
                f"| {run.commit_quantile(0.99) * 1000:g} | {run.load_before} / {run.load_after} |"
            )
        for ours, theirs in RATIOS:
            if ours in mine and theirs in mine and not (mine[ours].failed or mine[theirs].failed):
                a, b = mine[ours], mine[theirs]
                lines.append(
                    f"| {row_name(matches, think)} | **ratio {ours} / {theirs}** "
                    f"| {ratio(a.moves_per_second, b.moves_per_second)} | {ratio(a.p50, b.p50)} "
                    f"| {ratio(a.p99, b.p99)} "
                    f"| {ratio(a.memory_per_match, b.memory_per_match)} "
                    f"| {ratio(a.cpu_per_move, b.cpu_per_move)} "
                    f"| {ratio(a.received_per_move, b.received_per_move)} "
                    f"| {ratio(a.setup_seconds, b.setup_seconds)} |" + " |" * 8
                )
    return "\n".join(lines)


def holds(runs: Sequence[Run], contender: Contender, limit: float) -> str:
    """The most paced matches ``contender`` held (p99 within ``limit``, no error) and the
    fewest it did not, with why.
    """
    paced = [run for run in runs if run.contender == contender.key and run.think]
    good = [run.matches for run in paced if run.held and run.p99 <= limit]
    bad = sorted((run for run in paced if not (run.held and run.p99 <= limit)),
                 key=lambda run: run.matches)  # fmt: skip
    said = f"{contender.label}: held {max(good):,} matches" if good else f"{contender.label}: "
    if not bad:
        return said + " (the most tried)"
    run = bad[0]
    why = (
        run.failed[:80]
        if run.failed
        else f"{run.errors} errors"
        if run.errors
        else f"p99 {run.p99:.1f} s > {limit:g} s"
    )
    return said + f"{'; ' if good else ''}not {run.matches:,} ({why})"


def percent(share: float) -> str:
    """A share of one CPU as a whole percentage; empty when not measured."""
    return "" if share != share else f"{share:.0%}"


def ratio(ours: float, theirs: float) -> str:
    """``ours / theirs`` as ``1.23x``; n/a when either is missing or zero."""
    if not theirs or ours != ours or theirs != theirs:
        return "n/a"
    return f"{ours / theirs:.2f}x"


def plan(args: argparse.Namespace) -> list[tuple[int, float]]:
    """The fixed loads: the flat-out row, then the paced rows."""
    loads = [(args.flat_out, 0.0)] if args.flat_out else []
    return loads + [(matches, args.think) for matches in args.matches]


def install_bgio() -> None:
    """``npm ci`` in ``benchmarks/bgio`` when its ``node_modules`` is missing."""
    if (BGIO / "node_modules" / "boardgame.io").is_dir():
        return
    if shutil.which("npm") is None:
        raise SystemExit("server_load: --anchor needs Node.js 20+ and npm (apt-get install npm)")
    print("npm ci in benchmarks/bgio...", file=sys.stderr)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=BGIO, check=True)


def bgio_version() -> str | None:
    """The installed boardgame.io's version."""
    package = BGIO / "node_modules" / "boardgame.io" / "package.json"
    return json.loads(package.read_text())["version"] if package.exists() else None


def main(argv: list[str] | None = None) -> int:
    """Run the loads, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", action="store_true", help="boardgame.io beside ours")
    parser.add_argument("--quick", action="store_true", help="a smoke run, under 2 minutes")
    parser.add_argument(
        "--cluster", action="store_true", help="workers on Postgres + Redis: " + ",".join(CLUSTER)
    )
    parser.add_argument("--all-rows", action="store_true", help="run rows above a failed load")
    parser.add_argument("--game", choices=GAMES, default=GAMES[0], help="our matches' game")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, s (1)")
    parser.add_argument("--flat-out", type=int, default=100, help="matches of the think-0 row")
    parser.add_argument("--matches", default="100,1000", help="the paced loads (100,1000)")
    parser.add_argument("--no-ramp", dest="ramp", action="store_false", help="fixed rows only")
    parser.add_argument("--max-matches", type=int, default=8000, help="the ramp's end (8000)")
    parser.add_argument("--p99-limit", type=float, default=2.0, help="the ramp's bound, s")
    parser.add_argument("--warmup", type=float, default=2.0, help="play before the window, s")
    parser.add_argument("--seconds", type=float, default=6.0, help="the measured window, s")
    parser.add_argument("--setup-timeout", type=float, default=600.0, help="lobby + connect, s")
    parser.add_argument("--budget", type=float, default=420.0, help="no ramp step after, s")
    parser.add_argument("--servers", help="only these contenders (comma-separated keys)")
    parser.add_argument(
        "--drivers", type=int, default=0, help="client processes (0: as the file limit needs)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.cluster:
        args.matches, args.ramp, args.all_rows = "1000,10000", False, True
        args.servers = args.servers or ",".join(CLUSTER)
    if args.quick:
        args.matches, args.ramp, args.warmup, args.seconds = "100", False, 1.0, 2.0
        anchors = [c.key for c in CONTENDERS if not c.ours] if args.anchor else []
        args.servers = args.servers or ",".join([*QUICK, *anchors])
    args.matches = [int(text) for text in args.matches.split(",") if text.strip()]
    if args.think < 0 or args.seconds <= 0 or any(n < 1 for n in args.matches):
        parser.error("--think >= 0, --seconds > 0, --matches of whole numbers >= 1")
    contenders = [c for c in CONTENDERS if c.ours or args.anchor]
    if args.servers:
        keys = args.servers.split(",")
        if unknown := set(keys) - {c.key for c in CONTENDERS}:
            parser.error(f"unknown --servers {', '.join(sorted(unknown))}")
        contenders = [c for c in CONTENDERS if c.key in keys]
    if args.game != GAMES[0] and not all(c.ours for c in contenders):
        print(f"boardgame.io plays dice poker only: no anchor for {args.game}", file=sys.stderr)
        contenders = [c for c in contenders if c.ours]
    if any(not c.ours for c in contenders):
        install_bgio()
    if any(c.workers for c in contenders) and (postgres_bindir() is None or redis_binary() is None):
        print("server_load: no Postgres or Redis server here (apt-get install postgresql "
              "redis-server): the Postgres contenders are left out", file=sys.stderr)  # fmt: skip
        contenders = [c for c in contenders if not c.workers]
    limit = raise_files_limit()  # 2N sockets here and in a lone worker; children inherit it

    info = machine(["tabletop-rules", "websockets", "uvicorn", "starlette"])
    info["versions"]["boardgame.io"] = bgio_version()
    info["node"] = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    info["load_average"] = {"before": loadavg()}
    info["open_files"] = limit
    started = time.monotonic()
    runs: list[Run] = []
    held = {contender.key: 0 for contender in contenders}
    failed = {contender.key: args.max_matches * 2 + 1 for contender in contenders}

    services = Services()

    def measured(contender: Contender, matches: int, think: float) -> None:
        run = measure(contender, matches, think, args, Path(scratch), services)
        runs.append(run)
        print(f"{row_name(matches, think)}, {contender.label}: {describe(run)}", file=sys.stderr)
        if think and run.held and run.p99 <= args.p99_limit:
            held[contender.key] = max(held[contender.key], matches)
        elif think:
            failed[contender.key] = min(failed[contender.key], matches)

    with (
        tempfile.TemporaryDirectory(prefix="server-load-") as scratch,
        contextlib.closing(services),
    ):
        for step, (matches, think) in enumerate(plan(args)):
            active = [
                c for c in contenders if think == 0 or args.all_rows or matches < failed[c.key]
            ]
            shift = step % len(active) if active else 0
            for contender in active[shift:] + active[:shift]:
                measured(contender, matches, think)
        # The ramp: double the largest N that held (halve the smallest that failed when
        # none held) while it stays under the smallest that failed, contenders in turn.
        while args.ramp and time.monotonic() - started < args.budget:
            probes = []
            for contender in contenders:
                key = contender.key
                probe = held[key] * 2 if held[key] else failed[key] // 2
                if probe < failed[key] and RAMP_FLOOR <= probe <= args.max_matches:
                    probes.append((contender, probe))
            if not probes:
                break
            for contender, probe in probes:
                measured(contender, probe, args.think)
    info["load_average"]["after"] = loadavg()
    print(f"\n{machine_line(info)}")
    print(
        f"boardgame.io {info['versions']['boardgame.io']}, node {info['node'].strip()}; "
        f"{args.warmup:g} s warm-up then a {args.seconds:g} s window per run, a fresh server "
        f"(and database) per run; think times uniform in 0-{2 * args.think:g} s; "
        f"open files {limit:,}; "
        f"load average (1, 5, 15 min) {info['load_average']['before']} before, "
        f"{info['load_average']['after']} after; {time.monotonic() - started:.0f} s in all.\n"
    )
    print(table(runs, contenders))
    print("\nAs many as one process holds (paced):")
    for contender in contenders:
        print(f"- {holds(runs, contender, args.p99_limit)}")
    settings = {key: value for key, value in vars(args).items() if key != "json"}
    settings["stall_seconds"] = STALL
    write_report(args.json, info, settings, [asdict(run) for run in runs])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
