"""The game server under load: N matches of two clients each, on loopback, beside boardgame.io.

For each number of matches N the script starts a fresh server process per contender on
127.0.0.1 (any free port), makes N two-seat matches of dice poker through its lobby,
connects two clients to each match and lets them play random legal moves for a warmup
and then a measured window; then it stops the server. The contenders, in an order
rotated for each N:

- **ours, SQLite file**: ``tabletop-rules serve --db <temp file>`` (the default storage);
- **ours, SQLite in memory**: ``tabletop-rules serve --db :memory:``;
- with ``--anchor``, **boardgame.io, InMemory** and **boardgame.io, FlatFile**: its own
  server (``boardgame.io/server``, Koa + socket.io) from ``benchmarks/bgio`` (the npm
  lock pins it; ``npm ci`` runs there when ``node_modules`` is missing) serving
  ``bgio/game.js``, the same dice poker written for boardgame.io (two players, three
  stages of fifteen boxes, throws with keeps and fences; a random game has 344 moves on
  both sides), driven by ``bgio/load.js`` (``boardgame.io/client`` with its socket.io
  transport, WebSocket only).

Our clients are asyncio ``websockets`` connections in this process; they speak the
protocol of ``docs/server.rst``: a ``hello`` with the seat's token, then on every table
where the seat is to move, after a think time drawn uniformly from 0 to twice
``--think`` seconds, a random one of the table's ``actions`` with the table's
``version``. The boardgame.io clients pick a random move of the game's ``enumerate``
(boardgame.io's AI convention) the same way. Measured in the window, on both sides alike:

- **moves/s**: moves whose answering table (boardgame.io: state) arrived in the window;
- **p50 / p99 latency**: from a move sent to the first table with a later version
  received by the seat that sent it (nearest rank, all moves of the window);
- **memory per match**: the server process's resident memory (``/proc/PID/status``) at
  the end of the window less when it was idle before the lobby, divided by N;
- **server CPU per move**: the server process's user + system time over the window
  (``/proc/PID/stat``) divided by the moves, which the clients' own cost does not touch;
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
(8,000: 2N client sockets stay under the file limit) and within ``--budget`` seconds. A
contender does not run a fixed row above a load it failed. The load average
(``/proc/loadavg``) is printed before and after: other processes on the machine share
its CPUs with the servers and the clients alike, which the CPU time per move does not
feel and the rates and latencies do.

Run::

    python benchmarks/server_load.py [--anchor] [--quick] [--think 1] [--seconds 6]
        [--warmup 2] [--flat-out 100] [--matches 100,1000] [--max-matches 8000]
        [--no-ramp] [--servers ours-file,bgio-memory] [--game dice-poker] [--json out.json]

``--game palace`` (or ``account``) loads our server with that game instead, without the
anchor (boardgame.io plays dice poker only here). ``--quick`` (under a minute): the
flat-out row and the paced row at 100 matches, 2 s windows after 1 s of warmup, no ramp.
This is an absolute measurement on one machine, for the
documentation (``docs/performance.rst``); nothing asserts it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from harness import machine, machine_line, write_report
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
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


@dataclass(frozen=True)
class Contender:
    """A server set-up: its key, its label, and whether it is ours."""

    key: str
    label: str
    ours: bool


CONTENDERS = (
    Contender("ours-file", "ours, SQLite file", True),
    Contender("ours-memory", "ours, SQLite in memory", True),
    Contender("bgio-memory", "boardgame.io, InMemory", False),
    Contender("bgio-flatfile", "boardgame.io, FlatFile", False),
)
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


class Server:
    """A server process of one contender, started on a free port and stopped by its pid."""

    def __init__(self, contender: Contender, scratch: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        if contender.ours:
            env["PYTHONPATH"] = os.pathsep.join(
                [str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])]
            )
            db = ":memory:" if contender.key == "ours-memory" else str(scratch / "load.sqlite")
            command = [
                sys.executable, "-m", "tabletop_rules", "serve", "--db", db,
                "--host", "127.0.0.1", "--port", str(self.port),
            ]  # fmt: skip
            probe, cwd = "/api/games", ROOT
        else:
            storage = "flatfile" if contender.key == "bgio-flatfile" else "memory"
            command = [
                "node", "server.js", "--port", str(self.port), "--storage", storage,
                "--dir", str(scratch / "bgio-storage"),
            ]  # fmt: skip
            probe, cwd = "/games", BGIO
        self.log = (scratch / f"{contender.key}.log").open("w")
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{contender.label} exited with {self.process.returncode}")
            try:
                if httpx.get(self.url + probe, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{contender.label} did not answer {probe} in 60 s")
            time.sleep(0.1)
        self.pid = self.process.pid

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


@dataclass
class Seat:
    """One client of ours: its match, seat and token, and the move it waits on."""

    match: str
    token: str
    address: str
    pending_version: int = -1
    sent: float = 0.0
    acted: int = -1


class OursLoad:
    """N matches of two asyncio WebSocket clients against our server."""

    def __init__(
        self, url: str, pid: int, run: Run, warmup: float, seconds: float, game: str
    ) -> None:
        self.url, self.pid, self.run, self.game = url, pid, run, game
        self.warmup, self.seconds = warmup, seconds
        self.random = random.Random(run.matches)
        self.latencies: list[float] = []
        self.measuring = False
        self.stopped = False
        self.playing = asyncio.Event()

    def error(self, kind: str) -> None:
        """Count an error of ``kind``."""
        self.run.errors += 1
        self.run.error_kinds[kind] = self.run.error_kinds.get(kind, 0) + 1

    async def lobby(self, client: httpx.AsyncClient, address: str) -> list[Seat]:
        """Make one match of two people and join both seats, from ``address``."""
        made = await client.post(
            "/api/matches",
            json={"game": self.game, "seats": ["person", "person"], "spectators": "none"},
        )
        made.raise_for_status()
        match = made.json()["match"]["id"]
        seats = []
        for number in (0, 1):
            joined = await client.post(
                f"/api/matches/{match}/join", json={"seat": number, "name": f"p{number}"}
            )
            joined.raise_for_status()
            seats.append(Seat(match=match, token=joined.json()["token"], address=address))
        return seats

    async def client(self, seat: Seat, connected: asyncio.Queue[None]) -> None:
        """Play one seat: hello, then a random legal move whenever the seat is to move."""
        ws_url = self.url.replace("http://", "ws://") + f"/ws/{seat.match}"
        first = True
        try:
            async with connect(
                ws_url, max_size=None, open_timeout=120, local_addr=(seat.address, 0)
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
        seat.pending_version, seat.sent = version, time.perf_counter()
        await ws.send(json.dumps({"type": "move", "action": action, "version": version}))

    async def watch(self, seats: Sequence[Seat]) -> None:
        """Count a move unanswered for :data:`STALL` seconds as an error, once."""
        while not self.stopped:
            await asyncio.sleep(1)
            now = time.perf_counter()
            for seat in seats:
                if seat.pending_version >= 0 and now - seat.sent > STALL:
                    self.error("stalled move")
                    seat.sent = float("inf")

    async def play(self, setup_timeout: float) -> None:
        """Lobby, connect, warm up, measure the window; fill in the run."""
        run = self.run
        run.idle = usage(self.pid)
        started = time.perf_counter()
        gate = asyncio.Semaphore(32)

        async def made(client: httpx.AsyncClient, count: int, address: str) -> list[Seat]:
            seats = []
            for _ in range(count):
                async with gate:
                    seats += await self.lobby(client, address)
            return seats

        # The server allows a client (an address) a few live matches and open sockets:
        # each group of matches comes from an address of its own, as from its own players.
        groups = range(0, run.matches, MATCHES_PER_ADDRESS)
        clients = [
            httpx.AsyncClient(
                base_url=self.url,
                timeout=60,
                transport=httpx.AsyncHTTPTransport(local_address=loopback(number)),
            )
            for number, _ in enumerate(groups)
        ]
        try:
            made_seats = await asyncio.gather(
                *(
                    made(client, min(MATCHES_PER_ADDRESS, run.matches - first), loopback(number))
                    for number, (client, first) in enumerate(zip(clients, groups, strict=True))
                )
            )
        finally:
            await asyncio.gather(*(client.aclose() for client in clients))
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
        run.setup_seconds = time.perf_counter() - started
        watcher = asyncio.create_task(self.watch(seats))
        self.playing.set()
        await asyncio.sleep(self.warmup)
        run.opened = usage(self.pid)
        cpu = time.process_time()
        window = time.perf_counter()
        self.measuring = True
        await asyncio.sleep(self.seconds)
        self.measuring = False
        run.window_seconds = time.perf_counter() - window
        run.closed = usage(self.pid)
        run.client_cpu = time.process_time() - cpu
        self.stopped = True
        watcher.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, watcher, return_exceptions=True)
        run.p50, run.p99 = quantile(self.latencies, 0.5), quantile(self.latencies, 0.99)


def run_ours(
    server: Server, run: Run, warmup: float, seconds: float, setup: float, game: str
) -> None:
    """Load our server as ``run`` says."""
    load = OursLoad(server.url, server.pid, run, warmup, seconds, game)
    try:
        asyncio.run(load.play(setup))
    except (httpx.HTTPError, TimeoutError, KeyError) as error:
        run.failed = f"{type(error).__name__}: {error}"


def run_bgio(
    server: Server, run: Run, warmup: float, seconds: float, setup: float, game: str
) -> None:
    """Load the boardgame.io server with ``bgio/load.js`` as ``run`` says."""
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
    contender: Contender, matches: int, think: float, args: argparse.Namespace, scratch: Path
) -> Run:
    """Start ``contender``'s server, load it with ``matches`` matches, stop it."""
    run = Run(contender=contender.key, matches=matches, think=think)
    folder = scratch / f"{contender.key}-{matches}-{think:g}"
    folder.mkdir()
    try:
        server = Server(contender, folder)
    except RuntimeError as error:
        run.failed = str(error)
        return run
    try:
        loader = run_ours if contender.ours else run_bgio
        loader(server, run, args.warmup, args.seconds, args.setup_timeout, args.game)
    finally:
        server.stop()
    return run


def describe(run: Run) -> str:
    """One progress line for a run."""
    if run.failed:
        return f"FAILED: {run.failed}"
    return (
        f"{run.moves_per_second:,.0f} moves/s, p50 {run.p50 * 1000:,.1f} ms, "
        f"p99 {run.p99 * 1000:,.1f} ms, {run.memory_per_match / 1024:,.0f} KiB/match, "
        f"{run.cpu_per_move * 1000:.2f} ms CPU/move, {run.received_per_move / 1024:.1f} KiB "
        f"in/move, server {run.server_load:.0%} of a CPU, "
        f"client {run.client_cpu / run.window_seconds:.0%}, setup {run.setup_seconds:.1f} s, "
        f"{run.errors} errors {run.error_kinds or ''}"
    )


def row_name(matches: int, think: float) -> str:
    """How a row of the table names its load."""
    return f"{matches:,} matches, " + ("flat out" if think == 0 else f"think {think:g} s")


def table(runs: Sequence[Run], contenders: Sequence[Contender]) -> str:
    """The runs as a Markdown table, and the ratios ours / boardgame.io for each load."""
    labels = {contender.key: contender.label for contender in contenders}
    lines = [
        "| load | server | moves/s | p50 ms | p99 ms | KiB/match | CPU ms/move | KiB in/move "
        "| setup s | errors |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
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
                             f"failed: {run.failed[:60]} | | | | | | | |")  # fmt: skip
                continue
            lines.append(
                f"| {row_name(matches, think)} | {labels[run.contender]} "
                f"| {run.moves_per_second:,.0f} | {run.p50 * 1000:,.1f} | {run.p99 * 1000:,.1f} "
                f"| {run.memory_per_match / 1024:,.0f} | {run.cpu_per_move * 1000:.2f} "
                f"| {run.received_per_move / 1024:.1f} | {run.setup_seconds:.1f} "
                f"| {run.errors} |"
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
                    f"| {ratio(a.setup_seconds, b.setup_seconds)} | |"
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
    parser.add_argument("--quick", action="store_true", help="a smoke run, under a minute")
    parser.add_argument("--game", choices=GAMES, default=GAMES[0], help="our matches' game")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, s (1)")
    parser.add_argument("--flat-out", type=int, default=100, help="matches of the think-0 row")
    parser.add_argument("--matches", default="100,1000", help="the paced loads (100,1000)")
    parser.add_argument("--no-ramp", dest="ramp", action="store_false", help="fixed rows only")
    parser.add_argument("--max-matches", type=int, default=8000, help="the ramp's end (8000)")
    parser.add_argument("--p99-limit", type=float, default=2.0, help="the ramp's bound, s")
    parser.add_argument("--warmup", type=float, default=2.0, help="play before the window, s")
    parser.add_argument("--seconds", type=float, default=6.0, help="the measured window, s")
    parser.add_argument("--setup-timeout", type=float, default=180.0, help="lobby + connect, s")
    parser.add_argument("--budget", type=float, default=420.0, help="no ramp step after, s")
    parser.add_argument("--servers", help="only these contenders (comma-separated keys)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.quick:
        args.matches, args.ramp, args.warmup, args.seconds = "100", False, 1.0, 2.0
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
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 2N sockets, and the children's

    info = machine(["tabletop-rules", "websockets", "uvicorn", "starlette"])
    info["versions"]["boardgame.io"] = bgio_version()
    info["node"] = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    info["load_average"] = {"before": loadavg()}
    started = time.monotonic()
    runs: list[Run] = []
    held = {contender.key: 0 for contender in contenders}
    failed = {contender.key: args.max_matches * 2 + 1 for contender in contenders}

    def measured(contender: Contender, matches: int, think: float) -> None:
        run = measure(contender, matches, think, args, Path(scratch))
        runs.append(run)
        print(f"{row_name(matches, think)}, {contender.label}: {describe(run)}", file=sys.stderr)
        if think and run.held and run.p99 <= args.p99_limit:
            held[contender.key] = max(held[contender.key], matches)
        elif think:
            failed[contender.key] = min(failed[contender.key], matches)

    with tempfile.TemporaryDirectory(prefix="server-load-") as scratch:
        for step, (matches, think) in enumerate(plan(args)):
            active = [c for c in contenders if think == 0 or matches < failed[c.key]]
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
        f"per run; think times uniform in 0-{2 * args.think:g} s; "
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
