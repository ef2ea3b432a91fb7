"""What the server's tests share: an app under a test client, a time that only moves when
told, and a seat's socket that reads until the message it waits for.
"""

from __future__ import annotations

import asyncio
import random
import warnings
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # the test client's own notice that httpx will change
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from tabletop_rules import Match, get_ruleset
from tabletop_rules.server import MatchSettings, ServerSettings, Store, create_app

Json = dict[str, Any]


class Blocking:
    """A store whose methods a test calls from its own thread, each run to its end."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return asyncio.run(method(*args, **kwargs))

        return call


def sync(store: Store) -> Any:
    """``store``, its methods called and awaited from the test's thread."""
    return Blocking(store)


class FakeTime:
    """A clock for the server that stands still until :meth:`advance`."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextmanager
def serving(store: Store | None = None, **settings: Any) -> Iterator[TestClient]:
    """A test client of a new app (its lifespan run) on ``store``."""
    app = create_app(
        store, ServerSettings(**{"messages_per_second": 1e6, "burst": 10**6, **settings})
    )
    with TestClient(app) as client:
        yield client


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
        """Send ``text`` for the current table; the answer to this client."""
        self.send({"type": "move", "move": text, "version": self.table["version"]})
        return self.read()

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
    ones' arrivals sent it, so that every socket has read all sent so far.
    """
    with ExitStack() as stack:
        seats: list[Seat] = []
        for token in tokens:
            socket = stack.enter_context(client.websocket_connect(f"/ws/{match_id}"))
            seat = Seat(socket)
            seat.hello(token)
            for earlier in seats:
                earlier.read()
            seats.append(seat)
        yield seats


def play_random(seats: dict[int, Seat], rng: random.Random, watchers: Sequence[Seat] = ()) -> None:
    """Play random legal moves at the seats on turn until the game is over, every socket
    reading each change's table.
    """
    everyone = [*seats.values(), *watchers]
    first = next(iter(seats.values()))
    while not first.table["over"] and first.match["status"] == "playing":
        player = first.table["to_move"]
        mover = seats[player]
        text = rng.choice(mover.table["moves"])
        mover.send({"type": "move", "move": text, "version": mover.table["version"]})
        for seat in everyone:
            message = seat.read()
            assert message["type"] == "table", message


def seeded(
    store: Store,
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
