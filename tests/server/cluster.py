"""Real workers for the fault and race tests: :class:`Cluster` runs N ``tabletop-rules
serve`` processes on one Postgres database and one Redis, each on a port of its own on
127.0.0.1, and kills, stops and starts them one at a time; :class:`Load` plays many
matches against them at once through real WebSockets, each client reconnecting to
another live worker whenever its socket drops, and records what every client received.

No worker outlives its cluster: each is started from the services' lasting thread and
receives SIGKILL when that thread ends (``PR_SET_PDEATHSIG``), the cluster's
:meth:`Cluster.close` (run by its context manager, whatever the test did) kills each, and
a finalizer kills what is left when the cluster is collected or the interpreter exits.

Each match's clients speak from a loopback address of their own (``127.1.x.y``), as
distinct clients would: the server's limits per client address (matches created, sockets
open) are then those of one person, not of the whole load.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import weakref
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import attrs
import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from .services import _die_with_parent, _launcher, alive, free_port, process_tree

__all__ = [
    "STALE",
    "Cluster",
    "ClusterError",
    "Load",
    "SeatClient",
    "Seating",
    "Seen",
    "loopback",
    "seat_matches",
]

START_SECONDS = 60.0
"""How long a worker may take to answer ``/health`` after it is started."""

STOP_SECONDS = 20.0
"""How long a worker may take to shut down gracefully before it is killed."""

STALE = "answers the table of version"
"""What the server's refusal of a move sent for a past table says."""


class ClusterError(RuntimeError):
    """A worker that did not start or answer; the message ends with its log's last lines."""


def loopback(number: int) -> str:
    """The ``number``-th client address on the loopback network (``127.1.0.1`` on)."""
    if not 0 <= number < 250 * 250:
        raise ValueError(f"loopback client numbers are 0 to {250 * 250 - 1}, got {number}")
    return f"127.1.{number // 250}.{1 + number % 250}"


class _Processes:
    """The workers' processes, apart from the cluster so its finalizer holds no cluster."""

    def __init__(self, count: int) -> None:
        self.slots: list[subprocess.Popen[bytes] | None] = [None] * count

    def kill(self, index: int) -> None:
        """SIGKILL worker ``index`` (and anything it started) and wait until it is gone."""
        process = self.slots[index]
        if process is None:
            return
        tree = process_tree(process.pid) if process.poll() is None else []
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
        self.slots[index] = None
        deadline = time.monotonic() + 10
        while alive(tree) and time.monotonic() < deadline:
            time.sleep(0.02)

    def kill_all(self) -> None:
        for index in range(len(self.slots)):
            self.kill(index)


class Cluster:
    """``workers`` processes of ``tabletop-rules serve`` on the Postgres ``database`` and
    the ``redis`` server, ids ``w0``, ``w1``, ..., each logging (JSON) to a file of its
    own in ``folder``. Use it as a context manager: every worker is started on entry and
    killed on exit.
    """

    def __init__(
        self,
        database: str,
        redis: str,
        folder: Path,
        *,
        workers: int = 3,
        lease_seconds: float = 10.0,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a cluster has at least one worker, got {workers}")
        self.database, self.redis, self.folder = database, redis, folder
        self.lease_seconds = lease_seconds
        self.ports = [0] * workers
        self._processes = _Processes(workers)
        self._finalizer = weakref.finalize(self, _Processes.kill_all, self._processes)
        folder.mkdir(parents=True, exist_ok=True)

    def __len__(self) -> int:
        return len(self.ports)

    def worker_id(self, index: int) -> str:
        """The ``--worker-id`` of worker ``index``."""
        return f"w{index}"

    def log(self, index: int) -> Path:
        """The file worker ``index`` writes its output to."""
        return self.folder / f"{self.worker_id(index)}.log"

    def url(self, index: int) -> str:
        """The HTTP base URL of worker ``index``."""
        return f"http://127.0.0.1:{self.ports[index]}"

    def socket_url(self, index: int, match_id: str) -> str:
        """The WebSocket URL of match ``match_id`` on worker ``index``."""
        return f"ws://127.0.0.1:{self.ports[index]}/ws/{match_id}"

    def running(self, index: int) -> bool:
        """Whether worker ``index``'s process runs."""
        process = self._processes.slots[index]
        return process is not None and process.poll() is None

    def live(self) -> list[int]:
        """The workers whose processes run."""
        return [index for index in range(len(self)) if self.running(index)]

    # --- starting and stopping ------------------------------------------------------------

    def start(self, *indices: int) -> None:
        """Start the workers ``indices`` (all when none is named), each on the port it had
        if it ran before, and wait until each answers ``/health`` with 200.
        """
        chosen = indices or tuple(range(len(self)))
        for index in chosen:
            if not self.running(index):
                self._spawn(index)
        for index in chosen:
            self._wait_until_ready(index)

    def kill(self, index: int) -> None:
        """SIGKILL worker ``index``: it dies mid-work, as on a crash of its machine."""
        self._processes.kill(index)

    def stop(self, index: int) -> None:
        """SIGTERM worker ``index`` (a graceful shutdown) and wait for it to end; killed
        after :data:`STOP_SECONDS`.
        """
        process = self._processes.slots[index]
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(STOP_SECONDS)
        self._processes.kill(index)

    def close(self) -> None:
        """Kill every worker that still runs."""
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

    def _spawn(self, index: int) -> None:
        if not self.ports[index]:
            self.ports[index] = free_port()
        command = [
            sys.executable,
            *("-m", "tabletop_rules", "serve"),
            *("--db", self.database, "--redis", self.redis),
            *("--worker-id", self.worker_id(index), "--port", str(self.ports[index])),
            *("--lease-seconds", f"{self.lease_seconds:g}", "--log-format", "json"),
        ]
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log(index).open("ab") as log:
            self._processes.slots[index] = _launcher.run(
                lambda: subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=environment,
                    start_new_session=True,
                    preexec_fn=_die_with_parent(signal.SIGKILL),
                )
            )

    def _wait_until_ready(self, index: int) -> None:
        deadline = time.monotonic() + START_SECONDS
        with httpx.Client(timeout=2.0) as client:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{self.url(index)}/health").status_code == 200:
                        return
                if not self.running(index):
                    raise ClusterError(f"worker {index} ended at start:\n{self.log_tail(index)}")
                if time.monotonic() > deadline:
                    self.kill(index)
                    raise ClusterError(
                        f"worker {index} was not ready within {START_SECONDS:g} s:\n"
                        f"{self.log_tail(index)}"
                    )
                time.sleep(0.1)

    def log_tail(self, index: int, lines: int = 30) -> str:
        """The last ``lines`` lines worker ``index`` wrote."""
        try:
            text = self.log(index).read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    # --- asking the workers ---------------------------------------------------------------

    async def metric(self, index: int, name: str) -> float:
        """The sum of metric ``name``'s samples on worker ``index``'s ``/metrics``."""
        async with httpx.AsyncClient(timeout=5.0) as client:
            answer = await client.get(f"{self.url(index)}/metrics")
        answer.raise_for_status()
        pattern = re.compile(rf"^{re.escape(name)}(?:\{{[^}}]*\}})? (\S+)$", re.MULTILINE)
        return sum(float(value) for value in pattern.findall(answer.text))


# --- the load ----------------------------------------------------------------------------


@attrs.frozen
class Seating:
    """A person's seat of a match: its ``token``, and the client ``address`` it speaks from."""

    match: str
    seat: int
    token: str
    address: str


@attrs.frozen
class Seen:
    """One message a client received, as much as the checks read: from which ``worker``,
    its ``kind`` (``table``, ``refused`` or ``error``), the table's ``version``, the
    ``log`` (number, seat, move) from ``log_from`` on, the match's ``status`` and
    ``result``, and a refusal's ``reason`` and ``retry``.
    """

    worker: int
    kind: str
    version: int = -1
    log_from: int = 0
    log: tuple[tuple[int, int, str], ...] = ()
    status: str = ""
    result: Any = None
    reason: str = ""
    retry: bool = False
    at: float = 0.0


@attrs.define
class SeatClient:
    """One seat's client and what it went through: every message it received
    (:attr:`seen`), the log of moves it has put together from them (:attr:`moves`; move
    ``n`` at ``n - 1``), each move it sent (version answered, notation, when), its reconnects
    and the sockets it lost (when, and the close code; ``0``: none opened).
    """

    seating: Seating
    first_worker: int
    play: bool = True
    seen: list[Seen] = attrs.Factory(list)
    moves: list[str] = attrs.Factory(list)
    acknowledged: dict[int, str] = attrs.Factory(dict)
    conflicts: list[str] = attrs.Factory(list)
    sent: list[tuple[int, str, float]] = attrs.Factory(list)
    reconnects: int = 0
    stalls: int = 0
    closes: Counter[int] = attrs.Factory(Counter)
    drops: list[tuple[float, int]] = attrs.Factory(list)
    failures: Counter[str] = attrs.Factory(Counter)
    worker: int = -1
    version: int = 0
    status: str = ""
    result: Any = None
    finished: bool = False
    _table: dict[str, Any] | None = None
    _pending: int | None = None

    @property
    def table(self) -> dict[str, Any]:
        """The table last received (JSON data); :class:`AssertionError` before any."""
        assert self._table is not None, "no table received yet"
        return self._table

    @property
    def last(self) -> Seen | None:
        """The last table or refusal received."""
        tables = [seen for seen in self.seen if seen.kind != "error"]
        return tables[-1] if tables else None

    def refusals(self, *, retry: bool | None = None, stale: bool | None = None) -> list[Seen]:
        """The refusals received, those with or without ``retry``, stale or not."""
        return [
            seen
            for seen in self.seen
            if seen.kind == "refused"
            and (retry is None or seen.retry == retry)
            and (stale is None or (STALE in seen.reason) == stale)
        ]

    def take(self, message: dict[str, Any], worker: int) -> None:
        """Read one message from ``worker``: its log joins the client's, its table is
        the one answered next.
        """
        kind = message.get("type", "")
        if kind == "error":
            self.seen.append(Seen(worker, kind, reason=message.get("reason", ""), at=_now()))
            return
        table, match = message["table"], message["match"]
        log = tuple((entry["number"], entry["seat"], entry["move"]) for entry in table["log"])
        seen = Seen(
            worker,
            kind,
            version=table["version"],
            log_from=table["log_from"],
            log=log,
            status=match["status"],
            result=match["result"],
            reason=message.get("reason", ""),
            retry=bool(message.get("retry", False)),
            at=_now(),
        )
        self.seen.append(seen)
        start = seen.log_from
        if start > len(self.moves):
            self.conflicts.append(f"a log from {start} past the {len(self.moves)} moves held")
            start = len(self.moves)
        del self.moves[start:]
        for number, _seat, move in log:
            if number != len(self.moves) + 1:
                self.conflicts.append(f"move {number} logged after {len(self.moves)} moves")
            self.moves.append(move)
            held = self.acknowledged.setdefault(number, move)
            if held != move:
                self.conflicts.append(f"move {number} was {held!r}, now {move!r}")
        if len(self.moves) != seen.version:
            self.conflicts.append(f"{len(self.moves)} moves held at version {seen.version}")
        self.version, self.status, self.result = seen.version, seen.status, seen.result
        self._table = table
        if kind == "refused":
            self._pending = None
        if seen.status == "over":
            self.finished = True

    def next_move(self, rng: random.Random) -> dict[str, Any] | None:
        """A random legal move for the table last received, if this seat is to move and
        has not answered that table yet.
        """
        table = self._table
        if not self.play or table is None or self.status != "playing":
            return None
        if table["to_move"] != self.seating.seat or not table["actions"]:
            return None
        if self._pending == table["version"]:
            return None
        index = rng.randrange(len(table["actions"]))
        self._pending = table["version"]
        self.sent.append((table["version"], table["moves"][index], _now()))
        return {"type": "move", "action": table["actions"][index], "version": table["version"]}

    def reconnected(self) -> None:
        """A new socket: the move sent on the last one is sent again only if the table the
        new one gets is still at that version (the version check refuses a duplicate).
        """
        self._pending = None


def _now() -> float:
    return time.monotonic()


class Load:
    """Play the matches of ``clients`` against ``cluster`` until each is over or
    ``seconds`` have passed: each client a WebSocket to its first worker, answering every
    table of its seat at once with a random legal action; on any drop (a worker killed
    or shutting down, the store unavailable, a stall of ``idle_seconds``) it connects
    again, to another live worker, with its token and cursor.
    """

    def __init__(
        self,
        cluster: Cluster,
        clients: Sequence[SeatClient],
        *,
        seconds: float,
        seed: int = 0,
        idle_seconds: float = 15.0,
    ) -> None:
        self.cluster, self.clients = cluster, list(clients)
        self.seconds, self.idle_seconds = seconds, idle_seconds
        self.rng = random.Random(seed)
        self.began = 0.0
        self.stopped = False
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def moves(self) -> int:
        """The moves acknowledged so far, counted once a match (its furthest version)."""
        furthest: dict[str, int] = {}
        for client in self.clients:
            match = client.seating.match
            furthest[match] = max(furthest.get(match, 0), client.version)
        return sum(furthest.values())

    @property
    def unfinished(self) -> list[SeatClient]:
        """The clients whose match they have not seen end."""
        return [client for client in self.clients if not client.finished]

    async def run(self, during: Callable[[Load], Coroutine[Any, Any, None]] | None = None) -> None:
        """Play until every client has seen its match end or the time is up, running
        ``during`` (the fault) beside the clients; what ``during`` raises is raised.
        """
        self.began = time.monotonic()
        tasks = [asyncio.create_task(self._client(client)) for client in self.clients]
        self._tasks = tasks
        fault: asyncio.Task[None] | None = None
        if during is not None:
            fault = asyncio.create_task(during(self))
        try:
            await asyncio.wait(tasks, timeout=self.seconds)
            if fault is not None:
                await asyncio.wait_for(fault, max(1.0, self.left()))
        finally:
            for task in [*tasks, *([] if fault is None else [fault])]:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if fault is not None:
                await asyncio.gather(fault, return_exceptions=True)
        for task in tasks:
            if not task.cancelled() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]

    def left(self) -> float:
        """The seconds left of the load's time (none once :meth:`stop` was called)."""
        if self.stopped:
            return 0.0
        return self.seconds - (time.monotonic() - self.began)

    def stop(self) -> None:
        """End the load now: every client closes its socket and reads nothing more."""
        self.stopped = True
        for task in self._tasks:
            task.cancel()

    async def until(self, ready: Callable[[], bool], what: str) -> None:
        """Wait until ``ready()`` (checked every 50 ms); :class:`AssertionError` naming
        ``what`` when the load's time runs out first.
        """
        while not ready():
            if self.left() <= 0:
                raise AssertionError(f"the load's time ran out before {what}")
            await asyncio.sleep(0.05)

    def _next_worker(self, client: SeatClient) -> int:
        """The worker to connect to: the first one the first time, then any live one but
        the worker of the socket lost (that one only when it is the only one live).
        """
        if client.worker < 0:
            return client.first_worker
        live = self.cluster.live() or list(range(len(self.cluster)))
        others = [index for index in live if index != client.worker]
        return self.rng.choice(others or live)

    async def _client(self, client: SeatClient) -> None:
        failures = 0
        while not client.finished and self.left() > 0:
            worker = self._next_worker(client)
            if client.worker >= 0:
                client.reconnects += 1
            client.worker = worker
            try:
                await self._connection(client, worker)
                failures = 0
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                client.closes[code] += 1
                client.drops.append((_now(), code))
            except (WebSocketException, OSError, EOFError) as error:
                client.failures[type(error).__name__] += 1
                client.drops.append((_now(), 0))
            except TimeoutError:
                if self.left() <= 0:
                    return
                client.stalls += 1
            if client.finished or self.left() <= 0:
                return
            failures += 1
            await asyncio.sleep(min(0.5, 0.05 * failures) * (0.5 + self.rng.random()))

    async def _connection(self, client: SeatClient, worker: int) -> None:
        seating = client.seating
        async with connect(
            self.cluster.socket_url(worker, seating.match),
            local_addr=(seating.address, 0),
            open_timeout=5,
            close_timeout=1,
            max_size=2**22,
        ) as socket:
            client.reconnected()
            hello = {"type": "hello", "token": seating.token, "cursor": len(client.moves)}
            await socket.send(json.dumps(hello))
            while True:
                wait = min(self.idle_seconds, max(0.1, self.left()))
                message = json.loads(await asyncio.wait_for(socket.recv(), wait))
                client.take(message, worker)
                if client.finished:
                    return
                if message.get("retry"):  # the store is down: not again at once
                    await asyncio.sleep(0.2 + 0.3 * self.rng.random())
                await self._answer(client, socket)

    async def _answer(self, client: SeatClient, socket: ClientConnection) -> None:
        move = client.next_move(self.rng)
        if move is not None:
            await socket.send(json.dumps(move))


async def seat_matches(
    cluster: Cluster,
    count: int,
    *,
    game: str,
    rules: dict[str, str],
    settings: dict[str, Any] | None = None,
    parallel: int = 16,
    workers: Sequence[int] | None = None,
) -> list[list[Seating]]:
    """Create ``count`` matches of two person seats, round-robin over ``workers`` (the
    live ones when ``None``), and take both seats of each: the seatings of each match, by
    seat. Each match's lobby calls and sockets come from a loopback address of its own.
    """
    gate = asyncio.Semaphore(parallel)
    live = list(workers) if workers is not None else cluster.live()

    async def one(number: int) -> list[Seating]:
        address = loopback(number)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with gate, httpx.AsyncClient(transport=transport, timeout=30.0) as http:
            base = cluster.url(live[number % len(live)])
            body = {"game": game, "rules": rules, "seats": ["person", "person"]}
            created = await http.post(f"{base}/api/matches", json={**body, **(settings or {})})
            if created.status_code != 201:
                raise AssertionError(f"match {number} not created: {created.text}")
            match_id = created.json()["match"]["id"]
            seated = []
            for seat in (0, 1):
                base = cluster.url(live[(number + seat) % len(live)])
                joined = await http.post(f"{base}/api/matches/{match_id}/join", json={"seat": seat})
                if joined.status_code != 200:
                    raise AssertionError(f"seat {seat} of {match_id} not taken: {joined.text}")
                seated.append(Seating(match_id, seat, joined.json()["token"], address))
            return seated

    return list(await asyncio.gather(*(one(number) for number in range(count))))
