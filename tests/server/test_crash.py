"""A real ``tabletop-rules serve`` process killed mid-game (SIGKILL) loses nothing it
acknowledged: whole games of every game are played over real WebSockets by two people and a
spectator each, the process is killed, started again on the same SQLite file, every client
comes back with its token and cursor, and each game is finished; the record the server
gives replays to the tables the clients were sent. And a server running on shows what one
restarted on its file would.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tabletop_rules import Match, get_ruleset
from tabletop_rules.account.config import DEFAULT_DECK
from tabletop_rules.records import GameRecord, replay
from tabletop_rules.table import seat_table

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tabletop_rules.server import SQLiteStore

from .helpers import FakeTime, create, join, party, seated, serving, sync

websockets = pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

Json = dict[str, Any]

CLOCK = {"move_seconds": 0, "bank_seconds": 600}
"""A clock whose banks every move of a person draws on, so that they tell each version."""

NO_END = json.dumps([[str(card), 0 if str(card) == "End" else n] for card, n in DEFAULT_DECK])
"""The account deck without End, so that no game ends in its setup, before the kill."""

GAMES: tuple[tuple[str, dict[str, str], list[str], Json | None, int], ...] = (
    ("palace", {"max_turns": "40"}, ["person", "person"], CLOCK, 12),
    ("dice-poker", {"stages": "1", "auto_chance": "false"}, ["person", "person"], None, 30),
    (
        "account",
        {"players": "3", "max_rounds": "8", "deck": NO_END},
        ["person", "random", "person"],
        CLOCK,
        12,
    ),
)
"""Each game with its house rules, seats, clock and the version by which its match is
killed: a bot's seat, and chance played by the server, are in it too.
"""

WAIT_SECONDS = 15.0
"""The longest any one wait (a server starting, a message) may take."""

PACE_SECONDS = 0.12
"""The least time between two messages of one client: within the server's budget of ten
a second.
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A ``tabletop-rules serve`` process on ``db`` at ``port``; :meth:`kill` kills it."""

    def __init__(self, db: Path, port: int, log: Path) -> None:
        self.db, self.port, self.log = db, port, log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the process and wait until it answers the lobby."""
        command = [sys.executable, "-m", "tabletop_rules", "serve", "--db", str(self.db)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, "--port", str(self.port)], stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        pytest.fail(f"the server did not answer in time: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no store closed, as a crash leaves it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(WAIT_SECONDS)
        self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a file in ``tmp_path``, killed at the end whatever happened."""
    running = Server(tmp_path / "matches.sqlite", _free_port(), tmp_path / "server.log")
    try:
        yield running
    finally:
        running.kill()


class Client:
    """One socket of a match: a seat (``None``: the spectator) that plays random legal
    moves, keeping every table it is sent, the log, and its cursor.
    """

    def __init__(
        self, base: str, match_id: str, token: str | None, seat: int | None, rng: random.Random
    ) -> None:
        self.url = base.replace("http", "ws", 1) + f"/ws/{match_id}"
        self.token, self.seat, self.rng = token, seat, rng
        self.cursor = 0
        self.table: Json = {}
        self.match: Json = {}
        self.log: list[str] = []
        self.acknowledged: dict[int, str] = {}  # every move number a table showed, its move
        self.movers: dict[int, int] = {}  # who made each move a table showed
        self.banks: dict[int, list[float]] = {}  # the clock's banks at each version
        self.sent: set[tuple[int, str]] = set()  # each move sent, with the version it answers
        self.last_sent = 0.0
        self.sent_for = -1  # the version the last move sent answered

    def __repr__(self) -> str:
        to_move, status = self.table.get("to_move"), self.match.get("status")
        return f"<seat {self.seat} at {self.cursor}, {to_move} to move, {status}>"

    @property
    def over(self) -> bool:
        return self.match.get("status") == "over"

    async def play(self, hold: dict[str, Any]) -> None:
        """Say hello with the token and cursor, then play until the match is over or the
        socket drops; no move past ``hold["at"]`` until ``hold["released"]``.
        """
        async with websockets.connect(self.url, open_timeout=WAIT_SECONDS) as socket:
            await socket.send(
                json.dumps({"type": "hello", "token": self.token, "cursor": self.cursor})
            )
            deadline = time.monotonic() + 60
            while not self.over:
                assert time.monotonic() < deadline, "the match never ended"
                try:
                    text = await asyncio.wait_for(socket.recv(), 0.1)
                except TimeoutError:
                    text = None
                if text is not None:
                    self.read(json.loads(text))
                if self.seat is None or self.over or not self.table.get("moves"):
                    continue
                if self.table["to_move"] != self.seat or self.match["status"] != "playing":
                    continue
                if self.table["version"] >= hold["at"] and not hold["released"]:
                    continue
                if text is None and self.sent_for == self.table["version"]:
                    continue  # waiting for the answer to the move already sent
                wait = self.last_sent + PACE_SECONDS - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                move = self.rng.choice(self.table["moves"])
                self.sent_for = self.table["version"]
                self.sent.add((self.sent_for, move))
                self.last_sent = time.monotonic()
                await socket.send(
                    json.dumps({"type": "move", "move": move, "version": self.table["version"]})
                )

    def read(self, frame: Json) -> None:
        """Keep a table (or a refusal's fresh table): the log from its ``log_from`` on."""
        assert frame["type"] in ("table", "refused"), frame
        table = frame["table"]
        assert table["seat"] == self.seat
        start = table["log_from"]
        assert start <= len(self.log), f"the log skips from {len(self.log)} to {start}"
        self.log[start:] = [entry["move"] for entry in table["log"]]
        assert len(self.log) == table["version"]
        for number, entry in enumerate(table["log"], start + 1):
            assert entry["number"] == number
            self.movers[number] = entry["seat"]
            seen = self.acknowledged.setdefault(number, entry["move"])
            assert seen == entry["move"], f"move {number} was {seen!r}, now {entry['move']!r}"
        self.table, self.match, self.cursor = table, frame["match"], table["version"]
        if self.match.get("clock") is not None:
            banks = self.banks.setdefault(self.cursor, self.match["clock"]["banks"])
            assert banks == self.match["clock"]["banks"], f"the banks at {self.cursor} changed"


@pytest.mark.slow
def test_a_killed_server_loses_no_acknowledged_move_and_finishes_every_game(
    server: Server,
) -> None:
    server.start()
    rng = random.Random(34)
    matches: list[tuple[str, str, list[Client]]] = []
    with httpx.Client(base_url=server.base, timeout=WAIT_SECONDS) as lobby:
        for game, house_rules, seats, clock, _at in GAMES:
            body = {"game": game, "rules": house_rules, "seats": seats, "clock": clock}
            created = lobby.post("/api/matches", json=body)
            assert created.status_code == 201, created.json()
            match_id = created.json()["match"]["id"]
            clients = []
            for seat, kind in enumerate(seats):
                if kind == "person":
                    joined = lobby.post(f"/api/matches/{match_id}/join", json={"seat": seat})
                    token = joined.json()["token"]
                    clients.append(Client(server.base, match_id, token, seat, rng))
            clients.append(Client(server.base, match_id, None, None, rng))
            matches.append((game, match_id, clients))
    everyone = [client for _game, _id, clients in matches for client in clients]
    holds = [{"at": at, "released": False} for *_rest, at in GAMES]

    async def until_killed() -> list[int]:
        tasks = [
            asyncio.create_task(client.play(hold))
            for (_game, _id, clients), hold in zip(matches, holds, strict=True)
            for client in clients
        ]
        deadline = time.monotonic() + 40
        watchers = [clients[-1] for _game, _id, clients in matches]
        while any(
            w.cursor < hold["at"] and not w.over for w, hold in zip(watchers, holds, strict=True)
        ):
            assert time.monotonic() < deadline, f"the games never reached the kill: {everyone}"
            assert not any(task.done() and task.exception() for task in tasks), [
                task.exception() for task in tasks if task.done()
            ]
            await asyncio.sleep(0.05)
        assert not any(w.over for w in watchers), f"a game ended before the kill: {everyone}"
        for hold in holds:
            hold["released"] = True
        await asyncio.sleep(0.3)  # moves are under way: some answered, some perhaps not
        server.kill()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), WAIT_SECONDS)
        return [client.cursor for client in everyone]

    before = asyncio.run(asyncio.wait_for(until_killed(), 60))
    acknowledged = [dict(client.acknowledged) for client in everyone]
    server.start()

    async def finish() -> None:
        results = await asyncio.gather(
            *(client.play({"at": 0, "released": True}) for client in everyone),
            return_exceptions=True,
        )
        failures = [result for result in results if result is not None]
        assert not failures, failures

    asyncio.run(asyncio.wait_for(finish(), 60))
    with httpx.Client(base_url=server.base, timeout=WAIT_SECONDS) as lobby:
        for game, match_id, clients in matches:
            answer = lobby.get(f"/api/matches/{match_id}/record")
            assert answer.status_code == 200, answer.text
            record = GameRecord.from_json(answer.text)
            rules = get_ruleset(game)
            match = Match.from_record(rules, record)
            assert match.state == replay(rules, record)
            assert match.is_over
            for client in clients:
                assert client.log == list(record.moves), f"{game}: seat {client.seat}'s log"
                table = seat_table(match, client.seat, since=client.table["log_from"])
                assert client.table == table.to_json(), f"{game}: seat {client.seat}'s table"
                assert client.match["result"]["winners"] == sorted(match.winners)
                if clients[-1].banks:  # the clock ran: the banks told the versions apart
                    assert len({tuple(banks) for banks in client.banks.values()}) > 1
    for client, seen, cursor in zip(everyone, acknowledged, before, strict=True):
        assert len(seen) == cursor
        assert all(client.log[number - 1] == move for number, move in seen.items())
        for number, move in enumerate(client.log, 1):  # each move played once, as it was sent
            if client.movers[number] == client.seat:
                assert (number - 1, move) in client.sent, f"move {number} was never sent"


def test_a_take_back_to_the_start_gives_every_bank_back_as_a_restart_does(
    tmp_path: Path, stores: Callable[..., SQLiteStore]
) -> None:
    now = FakeTime()
    clock = {"move_seconds": 0, "bank_seconds": 100}
    path = tmp_path / "matches.sqlite"
    with serving(stores(path), now=now) as client:
        match_id = create(client, "palace", clock=clock, seats=["person", "random"])
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            now.advance(30)
            spent = seat.move(seat.table["moves"][0])["match"]["clock"]["banks"]
            seat.send({"type": "takeback", "answer": "propose"})
            taken = seat.read()
    with serving(stores(path), now=now) as client, seated(client, match_id, token) as seat:
        restarted = seat.match["clock"]["banks"]
    assert spent == [70, 100]
    assert taken["table"]["version"] == 0
    assert taken["match"]["clock"]["banks"] == restarted == [100, 100]


def _as_seen(client: Any, match_id: str, tokens: list[str]) -> list[tuple[Json, Json]]:
    """What each seat, connecting alone from cursor 0, is sent first: its table and the
    match (less the seconds left, which a restart gives back in full, by design).
    """
    seen = []
    for token in tokens:
        with seated(client, match_id, token, 0) as seat:
            match = dict(seat.match)
            if match.get("clock") is not None:
                match["clock"] = {**match["clock"], "left": None}
            seen.append((seat.table, match))
    return seen


@pytest.mark.parametrize("game", ["palace", "dice-poker", "account"])
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a whole game shrinks too slowly
)
@given(seed=st.integers(0, 2**32), people=st.integers(2, 3), steps=st.integers(0, 60))
def test_a_restarted_server_shows_every_seat_what_the_running_one_did(
    game: str, seed: int, people: int, steps: int
) -> None:
    rng, now = random.Random(seed), FakeTime()
    clock = {"move_seconds": 0, "bank_seconds": 1000}
    rules = {"players": str(people)}
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "matches.sqlite")
        try:
            with serving(store, now=now) as client:
                match_id = create(client, game, rules=rules, clock=clock)
                tokens = [join(client, match_id) for _seat in range(people)]
                with party(client, match_id, tokens) as seats:
                    room = client.app.state.server.rooms[match_id]  # type: ignore[attr-defined]
                    for _step in range(steps):
                        if room.status != "playing":
                            break
                        now.advance(rng.randrange(5))
                        _act(rng, room, seats)
                running = _as_seen(client, match_id, tokens)
            with serving(store, now=now) as client:
                restarted = _as_seen(client, match_id, tokens)
        finally:
            sync(store).close()
    assert restarted == running  # a take-back proposed too: it is stored


def _act(rng: random.Random, room: Any, seats: list[Any]) -> None:
    """A random message: mostly a legal move of the seat on turn, else a take-back
    proposed, accepted or declined; every socket reads what it was sent.
    """
    roll, player = rng.random(), room.match.current_player
    sender = seats[player] if roll < 0.8 else rng.choice(seats)
    if roll < 0.8:
        message = {"type": "move", "move": rng.choice(sender.table["moves"])}
        message["version"] = sender.table["version"]
    else:
        answer = "propose" if roll < 0.9 else rng.choice(["accept", "accept", "decline"])
        message = {"type": "takeback", "answer": answer}
    sender.send(message)
    if sender.read()["type"] != "refused":
        for other in seats:
            if other is not sender:
                assert other.read()["type"] == "table"
