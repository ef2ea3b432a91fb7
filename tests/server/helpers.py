"""What the server's tests share: an app under a test client, a time that only moves when
told, and a seat's socket that reads until the message it waits for.
"""

from __future__ import annotations

import asyncio
import collections
import random
import socket
import threading
import time
import types
import warnings
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # the test client's own notice that httpx will change
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from tabletop_rules import Match, get_ruleset
from tabletop_rules.server import MatchSettings, ServerSettings, Store, create_app, open_store
from tabletop_rules.server.hub import RedisHub

Json = dict[str, Any]


class Cluster:
    """Where a test's workers meet: a Postgres ``database`` of the test's own, and a
    ``channel`` of its own on the ``redis`` server.
    """

    def __init__(self, database: str, redis: str, channel: str) -> None:
        self.database, self.redis, self.channel = database, redis, channel


CLUSTER: Cluster | None = None
"""Set by the ``backend`` fixture while a protocol test runs on two workers."""


class PostgresAt:
    """A Postgres store named by its URL: each app, and each call from the test's own
    thread, opens it on its own event loop.
    """

    def __init__(self, url: str) -> None:
        self.url = url


class Blocking:
    """A store whose methods a test calls from its own thread, each run to its end."""

    def __init__(self, store: Store | PostgresAt) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        store = self._store

        def call(*args: Any, **kwargs: Any) -> Any:
            async def run() -> Any:
                if not isinstance(store, PostgresAt):
                    return await getattr(store, name)(*args, **kwargs)
                opened = await open_store(store.url)
                try:
                    return await getattr(opened, name)(*args, **kwargs)
                finally:
                    await opened.close()

            return asyncio.run(run())

        return call


def sync(store: Store | PostgresAt) -> Any:
    """``store``, its methods called and awaited from the test's thread."""
    return Blocking(store)


class Spread:
    """A test client of several workers: each request and socket goes to the next."""

    def __init__(self, clients: Sequence[TestClient]) -> None:
        self.clients = list(clients)
        self.turn = 0

    def _next(self) -> TestClient:
        client = self.clients[self.turn % len(self.clients)]
        self.turn += 1
        return client

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._next().get(*args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        return self._next().post(*args, **kwargs)

    def websocket_connect(self, *args: Any, **kwargs: Any) -> Any:
        return self._next().websocket_connect(*args, **kwargs)

    @property
    def app(self) -> Any:
        """The workers' apps seen as one: ``app.state.server.rooms`` holds every room."""
        rooms = collections.ChainMap(*(client.app.state.server.rooms for client in self.clients))  # type: ignore[attr-defined]
        return types.SimpleNamespace(
            state=types.SimpleNamespace(server=types.SimpleNamespace(rooms=rooms))
        )


class FakeTime:
    """A clock for the server that stands still until :meth:`advance`."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextmanager
def serving(store: Store | PostgresAt | None = None, **settings: Any) -> Iterator[TestClient]:
    """A test client of a new app (its lifespan run) on ``store``; while a protocol test
    runs on the cluster, of two workers on its Postgres database and Redis channel,
    taken in turn by each request and socket.
    """
    cluster = CLUSTER
    if cluster is None or not (store is None or isinstance(store, PostgresAt)):
        assert not isinstance(store, PostgresAt)
        app = create_app(
            store, ServerSettings(**{"messages_per_second": 1e6, "burst": 10**6, **settings})
        )
        with TestClient(app) as client:
            yield client
        return
    chosen = ServerSettings(
        **{"messages_per_second": 1e6, "burst": 10**6, "lease_seconds": 1e6, **settings}
    )
    apps = [
        create_app(
            cluster.database,
            chosen,
            hub=RedisHub(cluster.redis, worker=worker, channel=cluster.channel),
            worker=worker,
        )
        for worker in ("w1", "w2")
    ]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        yield Spread([one, two])  # type: ignore[misc]


def create(client: TestClient, game: str = "dice-poker", **body: Any) -> str:
    """A new match's id; the request refused makes the test fail with the server's error."""
    answer = client.post("/api/matches", json={"game": game, **body})
    assert answer.status_code == 201, answer.json()
    return str(answer.json()["match"]["id"])


def join(client: TestClient, match_id: str, **body: Any) -> str:
    """A token for a free seat of ``match_id``."""
    answer = client.post(f"/api/matches/{match_id}/join", json=body)
    assert answer.status_code == 200, answer.json()
    return str(answer.json()["token"])


class Seat:
    """A client's socket: it says hello, then reads messages, keeping the last table."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.table: Json = {}
        self.match: Json = {}
        self.frames: list[Json] = []

    def hello(self, token: str | None, cursor: int = 0) -> Json:
        self.socket.send_json({"type": "hello", "token": token, "cursor": cursor})
        return self.read()

    def send(self, message: Json) -> None:
        self.socket.send_json(message)

    def read(self) -> Json:
        """The next message (a table or refusal is kept as the latest table)."""
        message: Json = self.socket.receive_json()
        if "table" in message:
            self.table, self.match = message["table"], message["match"]
            self.frames.append(message)
        return message

    def read_until(self, test: Any, most: int = 500) -> Json:
        """Read until a message passes ``test``."""
        for _ in range(most):
            message = self.read()
            if test(message):
                return message
        raise AssertionError("the awaited message never came")

    def move(self, text: str) -> Json:
        """Send ``text`` for the current table; the answer to this client: its refusal, or
        the first table past that version (on two workers, a table another worker's news
        sent it may come first).
        """
        version = self.table["version"]
        self.send({"type": "move", "move": text, "version": version})
        return self.read_until(
            lambda message: message["type"] != "table" or message["table"]["version"] > version
        )

    def closed_with_error(self) -> str:
        """The reason of the error the server sends before it closes the socket."""
        message = self.socket.receive_json()
        assert message["type"] == "error", message
        try:
            self.socket.receive_json()
        except WebSocketDisconnect:
            return str(message["reason"])
        raise AssertionError("the socket stayed open after an error")


@contextmanager
def seated(client: TestClient, match_id: str, token: str | None, cursor: int = 0) -> Iterator[Seat]:
    """A socket to the match that has said hello and read its first table."""
    with client.websocket_connect(f"/ws/{match_id}") as socket:
        seat = Seat(socket)
        seat.hello(token, cursor)
        yield seat


@contextmanager
def party(client: TestClient, match_id: str, tokens: Sequence[str | None]) -> Iterator[list[Seat]]:
    """Sockets for ``tokens`` (``None``: a spectator), each past the tables that the later
    seats' arrivals sent it (a spectator's arrival sends the others nothing), so that
    every socket has read all sent so far.
    """
    with ExitStack() as stack:
        seats: list[Seat] = []
        for token in tokens:
            socket = stack.enter_context(client.websocket_connect(f"/ws/{match_id}"))
            seat = Seat(socket)
            seat.hello(token)
            for earlier in seats if token is not None else ():
                earlier.read()
            seats.append(seat)
        yield seats


def play_random(seats: dict[int, Seat], rng: random.Random, watchers: Sequence[Seat] = ()) -> None:
    """Play random legal moves at the seats on turn until the game is over, every socket
    reading each move's table (and any older one sent before it).
    """
    everyone = [*seats.values(), *watchers]
    first = next(iter(seats.values()))
    while not first.table["over"] and first.match["status"] == "playing":
        player = first.table["to_move"]
        mover = seats[player]
        text = rng.choice(mover.table["moves"])
        version = mover.table["version"]
        mover.send({"type": "move", "move": text, "version": version})
        for seat in everyone:  # on two workers, news of an arrival may come first
            message = seat.read_until(
                lambda message, version=version: (
                    message["type"] != "table" or message["table"]["version"] > version
                )
            )
            assert message["type"] == "table", message


def seeded(
    store: Store | PostgresAt,
    game: str,
    seed: int,
    seats: Sequence[str] = ("person", "person"),
    config: Any = None,
    settings: MatchSettings | None = None,
    now: float = 0.0,
) -> str:
    """A match of a known seed put straight into ``store`` (the lobby never takes a seed
    from a client: it would know the deal), its id ``"m"``.
    """
    rules = get_ruleset(game)
    head = Match(rules, config, seed=seed).record
    sync(store).create_match(
        "m", head, settings or MatchSettings(), tuple(seats), creator="test", now=now
    )
    return "m"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Serving:
    """A real server on ``store`` (with ``settings``): uvicorn on ``port``, in a thread,
    until :meth:`stop` (a graceful stop: its sockets are closed with 1012, "service
    restart"). The process's logging is left as it is: it is pytest's, not the server's.
    """

    def __init__(self, store: Store, port: int, **settings: Any) -> None:
        import uvicorn

        chosen = ServerSettings(**{"messages_per_second": 1000, "burst": 1000, **settings})
        app = create_app(store, chosen)
        # log_config=None: uvicorn's dictConfig would close the logging handlers of this process
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="error", log_config=None
        )
        self.base = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
