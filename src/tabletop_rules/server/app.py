"""The server's routes: the lobby over HTTP (JSON), one WebSocket per client, and the
operator's ``/health`` and ``/metrics``.

The state lives in a :class:`Server` handed to the app, not in module globals: the
store, the hub to the other workers, the rooms this worker holds, the settings and the
clients' message budgets. Every refusal is JSON with the library's message
(``{"error": text, "fields": {...}}`` over HTTP, ``{"type": "refused" | "error",
"reason": text}`` on a socket), never a traceback; a refusal the client may simply send
again (the database did not answer) says ``"retry": true``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket as sockets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .._validation import seconds, whole
from ..errors import ConfigError, HouseRulesError, TabletopError, UnknownGameError
from ..house_rules import configured_form
from ..match import Match
from ..protocol import Ruleset, get_ruleset, rulesets
from ..table import game_entry
from .clock import TimeSource
from .hub import Hub, LocalHub, Notice
from .messages import (
    MAX_MESSAGE_BYTES,
    CreateRequest,
    Hello,
    Move,
    RefusedError,
    read_create,
    read_join,
    read_json,
    read_message,
)
from .metrics import Metrics, RefusalKind
from .room import Client, Room, Worker
from .room import match_id as new_match_id
from .sqlite import SQLiteStore
from .store import MatchSettings, StaleError, Store, StoreUnavailableError
from .stores import open_store, open_store_url

__all__ = ["Server", "ServerSettings", "create_app", "default_worker_id"]

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_BODY_BYTES = 16 * 1024
"""The largest lobby request body read."""

RESTART_CODE = 1012
"""The close code of a worker shutting down (WebSocket's "service restart"): reconnect."""


def default_worker_id() -> str:
    """A worker id unique on this network: the host's name and the process's id."""
    return f"{sockets.gethostname()}-{os.getpid()}"


_MOST = 2**31 - 1
"""A bound on the settings' counts, far above any server's."""


@attrs.frozen(kw_only=True)
class ServerSettings:
    """The server's limits and timings.

    Each is checked when the settings are made, as a game's house rules are:
    :class:`~tabletop_rules.errors.ConfigError` for a count that is no plain ``int``
    from 1 (``max_message_bytes`` from 256) and for a time out of range (above 0;
    ``bot_seconds``, ``grace_seconds`` and ``down_after`` from 0), ``TypeError`` for a
    time that is no number or a ``now`` that cannot be called, and ``ConfigError`` for
    beats (``heartbeat_seconds``, ``tick_seconds``) not below ``lease_seconds``:

    >>> ServerSettings(lease_seconds=0.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: a worker must be seen alive more often than its ...

    Attributes:
        max_message_bytes: The largest WebSocket message a client may send.
        messages_per_second: How many messages a token (or a spectator's socket) may
            send a second, on average; past ``burst`` at once, the socket is closed.
        burst: How many messages may come at once.
        matches_per_client: How many matches not yet over one client (its address) may
            have created.
        sockets_per_client: How many sockets one client (its address) may hold open.
        bot_seconds: How long a bot may think over a move; past it a random bot plays.
        grace_seconds: How long a person on turn may be away before the others may claim.
        tick_seconds: How often the clocks, the bots due and the leases are looked at.
        hello_seconds: How long a new socket may take to say hello.
        lease_seconds: How long a worker holds a match after changing it (its bots, its
            clocks), and how long a worker may be silent before the others count it gone.
        heartbeat_seconds: How often the worker tells the store it is alive.
        poll_seconds: How often the worker compares its rooms with the store, in case a
            notice from another worker was lost.
        down_after: A worker starting after no worker was seen for this long forgives
            every clock the downtime (the whole service was down).
        now: Where the time is read (``time.time``; a test passes its own).

    """

    max_message_bytes: int = attrs.field(default=MAX_MESSAGE_BYTES, validator=whole(256, _MOST))
    messages_per_second: float = attrs.field(default=10.0, validator=seconds())
    burst: int = attrs.field(default=30, validator=whole(1, _MOST))
    matches_per_client: int = attrs.field(default=20, validator=whole(1, _MOST))
    sockets_per_client: int = attrs.field(default=50, validator=whole(1, _MOST))
    bot_seconds: float = attrs.field(default=5.0, validator=seconds(zero=True))
    grace_seconds: float = attrs.field(default=60.0, validator=seconds(zero=True))
    tick_seconds: float = attrs.field(default=0.25, validator=seconds())
    hello_seconds: float = attrs.field(default=10.0, validator=seconds())
    lease_seconds: float = attrs.field(default=10.0, validator=seconds())
    heartbeat_seconds: float = attrs.field(default=1.0, validator=seconds())
    poll_seconds: float = attrs.field(default=1.0, validator=seconds())
    down_after: float = attrs.field(default=30.0, validator=seconds(zero=True))
    now: TimeSource = attrs.field(default=time.time, validator=attrs.validators.is_callable())

    def __attrs_post_init__(self) -> None:
        beat = max(self.heartbeat_seconds, self.tick_seconds)  # the ticker sends the beats
        if beat >= self.lease_seconds:
            raise ConfigError(
                f"a worker must be seen alive more often than its lease_seconds "
                f"({self.lease_seconds:g}): heartbeat_seconds ({self.heartbeat_seconds:g}) and "
                f"tick_seconds ({self.tick_seconds:g}) must both be below it, or the other "
                "workers take it for gone between its beats"
            )


class _Budget:
    """A token bucket: ``rate`` messages a second, ``burst`` at most at once."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.last = float(burst), now

    def spend(self, now: float) -> bool:
        """Whether one more message may come now (it is counted)."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Server:
    """What one worker serves from: the ``store``, the ``hub`` to the other workers (none:
    this is the only one), the ``settings`` and the rooms in memory.
    """

    def __init__(
        self,
        store: Store,
        settings: ServerSettings,
        *,
        hub: Hub | None = None,
        worker: str | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.hub = LocalHub() if hub is None else hub
        self.worker_id = default_worker_id() if worker is None else worker
        self.metrics = Metrics(self.worker_id)
        self.worker = Worker(
            id=self.worker_id,
            store=store,
            hub=self.hub,
            now=settings.now,
            bot_seconds=settings.bot_seconds,
            grace_seconds=settings.grace_seconds,
            lease_seconds=settings.lease_seconds,
            metrics=self.metrics,
        )
        self.rooms: dict[str, Room] = {}
        self.sockets: dict[str, int] = {}  # open sockets by client address
        self.draining = False
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._budgets: dict[object, _Budget] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._kept: set[asyncio.Task[None]] = set()
        self.metrics.track(
            rooms=lambda: len(self.rooms),
            clients=lambda: sum(len(room.clients) for room in self.rooms.values()),
            playing=lambda: sum(room.status == "playing" for room in self.rooms.values()),
        )

    async def start(self) -> None:
        """Join the workers: forgive a downtime of the whole service, forget this worker's
        clients of a previous run, hear the others, and start the ticker (which takes up
        the matches whose bots or clocks are due).
        """
        store, now = self.store, self.settings.now()
        downtime = await store.resume(self.worker_id, now=now, down_after=self.settings.down_after)
        if downtime:
            log.info("the service was down %.0f s: every clock forgives it", downtime)
        await store.release(self.worker_id, now=now)
        await store.heartbeat(self.worker_id, now=now)
        await self.hub.start(self._on_notice, self._on_resync)
        self._ticker = asyncio.create_task(self._tick())

    async def stop(self) -> None:
        """Stop gracefully: refuse new work, let every move under way finish, stop the
        bots, and hand this worker's matches and clients over (leases end now).
        """
        self.draining = True
        if self._ticker is not None:
            self._ticker.cancel()
            await asyncio.gather(self._ticker, return_exceptions=True)
        for room in list(self.rooms.values()):
            await room.stop()
        await asyncio.gather(*self._kept, return_exceptions=True)
        await self.hub.stop()
        with contextlib.suppress(TabletopError):
            await self.store.release(self.worker_id, now=self.settings.now())

    # --- rooms ----------------------------------------------------------------------------

    async def room(self, match_id: str) -> Room:
        """The room of match ``match_id``, loaded from the store when not in memory;
        :class:`~tabletop_rules.server.messages.RefusedError` (404) when there is none.
        """
        room = self.rooms.get(match_id)
        if room is not None:
            return room
        loading = self._loading.get(match_id)
        if loading is None:  # one load, however many ask at once
            loading = asyncio.ensure_future(self._load(match_id))
            self._loading[match_id] = loading
            loading.add_done_callback(lambda _done: self._loading.pop(match_id, None))
        return await asyncio.shield(loading)

    async def _load(self, match_id: str) -> Room:
        try:
            room = await Room.load(self.worker, match_id)
        except StoreUnavailableError:
            raise
        except TabletopError as error:
            raise RefusedError(f"match {match_id!r} cannot be loaded: {error}", 500) from None
        if room is None:
            raise RefusedError(f"no match {match_id!r}", 404)
        return self.rooms.setdefault(match_id, room)

    @contextlib.asynccontextmanager
    async def locked(self, match_id: str) -> AsyncIterator[Room]:
        """The room of ``match_id`` under its lock, the one this worker holds (a room
        forgotten while its lock was awaited is loaded again).
        """
        while True:
            room = await self.room(match_id)
            async with room.lock:
                if self.rooms.get(match_id) is room:
                    yield room
                    return

    async def attempt(self, room: Room, change: Callable[[], Awaitable[T]]) -> T:
        """Make ``change`` to ``room`` (under its lock); if another worker changed the
        match first, catch up, send this worker's clients the news, and try once more.
        """
        try:
            return await change()
        except StaleError:
            self.metrics.refused("stale")
        await room.refresh()
        await room.broadcast()
        try:
            return await change()
        except StaleError:
            raise RefusedError(
                "the match changed meanwhile; send it again on the new table", 409
            ) from None

    def forget(self, room: Room) -> None:
        """Let a room nobody here watches leave memory (the store keeps it) once its match
        is over or in another worker's hands; its seats' budgets go with a match over.
        """
        if room.clients or room.playing_bots or self.rooms.get(room.id) is not room:
            return
        if room.status == "open" or (room.status == "playing" and room.leased):
            return
        del self.rooms[room.id]
        if room.status == "over":
            for seat in range(len(room.seats)):
                self._budgets.pop(("seat", room.id, seat), None)

    def keep(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` as a task the worker holds until it ends (what must be done even
        when the request that started it is cancelled).
        """
        task = asyncio.create_task(work)
        self._kept.add(task)
        task.add_done_callback(self._kept.discard)
        return task

    def budget(self, key: object) -> bool:
        """Whether the client ``key`` may send one more message now."""
        now = self.settings.now()
        budget = self._budgets.get(key)
        if budget is None:
            settings = self.settings
            budget = self._budgets[key] = _Budget(settings.messages_per_second, settings.burst, now)
        return budget.spend(now)

    def forget_budget(self, key: object) -> None:
        """Drop a spectator's socket's budget when it closes (a seat's outlives its socket)."""
        if type(key) is not tuple:
            self._budgets.pop(key, None)

    # --- the other workers ----------------------------------------------------------------

    async def _on_notice(self, notice: Notice) -> None:
        """Another worker changed a match: catch up if this worker holds it."""
        self.metrics.notice_received()
        room = self.rooms.get(notice.match)
        presence = notice.kind == "presence"
        if room is None or (not presence and notice.revision <= room.revision):
            return
        await self._catch_up([room], presence=presence)
        self.forget(room)

    async def _on_resync(self) -> None:
        """Notices may have been lost (the hub reconnected): every room catches up."""
        self.metrics.resynced()
        await self._catch_up(list(self.rooms.values()), presence=True)

    async def _catch_up(self, rooms: list[Room], *, presence: bool = False) -> None:
        """Bring ``rooms`` up to the store (and who is connected, with ``presence``) and
        send their clients what changed; a store that does not answer leaves it to the
        next poll.
        """
        for room in rooms:
            async with room.lock:
                try:
                    changed = await room.refresh()
                    if presence:
                        await room.reread_presence()
                except TabletopError as error:
                    log.warning("match %s cannot catch up: %s", room.id, error)
                    continue
                if changed or presence:
                    await room.broadcast()

    async def _poll(self) -> None:
        """The backstop of lost notices: the rooms whose revision the store has passed."""
        watched = [room for room in self.rooms.values() if room.clients]
        if not watched:
            return
        stored = await self.store.revisions([room.id for room in watched])
        behind = [room for room in watched if stored.get(room.id, room.revision) > room.revision]
        await self._catch_up(behind)

    # --- the ticker: heartbeats, clocks and bots due --------------------------------------

    async def _tick(self) -> None:
        settings = self.settings
        clock = asyncio.get_running_loop().time
        beat = poll = clock()
        while not self.draining:  # a stop cancels it, and ends it should a cancel be lost
            await asyncio.sleep(settings.tick_seconds)
            try:
                if clock() - beat >= settings.heartbeat_seconds:
                    beat = clock()
                    await self.store.heartbeat(self.worker_id, now=settings.now())
                await self._serve_due()
                if clock() - poll >= settings.poll_seconds:
                    poll = clock()
                    await self._poll()
            except TabletopError as error:  # the store is down: try again next tick
                self.metrics.store_failed()
                log.warning("the ticker could not reach the store: %s", error)
            except Exception:
                log.exception("the ticker failed")

    async def _serve_due(self) -> None:
        """Fire the clocks and start the bots that are due: in the rooms this worker
        leases, then in matches no live worker leases (their worker died, or nobody has
        looked at them since), each claimed first so only one worker acts.
        """
        settings = self.settings
        now = settings.now()
        for room in list(self.rooms.values()):
            due = room.due() if room.leased else None
            if due is not None and due <= now:
                await self._act_on_due(room)
        for match_id in await self.store.due_matches(now=now, limit=100):
            until = now + settings.lease_seconds
            if not await self.store.claim_lease(match_id, self.worker_id, now=now, until=until):
                continue
            async with self.locked(match_id) as room:
                if await room.refresh():
                    await room.broadcast()
                room.leased = True
            await self._act_on_due(room)

    async def _act_on_due(self, room: Room) -> None:
        async with room.lock:
            try:
                fired = await self.attempt(room, room.check_clock)
            except TabletopError as error:
                log.warning("match %s: the clock could not fire: %s", room.id, error)
                return
            if fired:
                await room.announce()
            room.schedule()


# --- the lobby ---------------------------------------------------------------------------

Handler = Callable[[Request], Awaitable[Response]]


def _answers(handler: Callable[[Server, Request], Awaitable[Any]]) -> Handler:
    """``handler`` as a route: its answer as JSON, a refusal as ``{"error", "fields"}``
    with its status (503 with ``"retry": true`` when the database did not answer), a bug
    as a 500 with one line (the traceback goes to the log).
    """

    async def route(request: Request) -> Response:
        server: Server = request.app.state.server
        try:
            answer = await handler(server, request)
        except RefusedError as refusal:
            return _error(str(refusal), refusal.status, refusal.fields)
        except StoreUnavailableError as error:
            server.metrics.store_failed()
            return _error(str(error), 503, retry=True)
        except UnknownGameError as error:
            return _error(str(error), 404)
        except TabletopError as error:
            return _error(str(error), 400)
        except Exception:
            log.exception("the lobby failed on %s %s", request.method, request.url.path)
            return _error("the server hit a bug; nothing was changed", 500)
        return answer if isinstance(answer, Response) else JSONResponse(answer)

    route.__doc__ = handler.__doc__
    return route


def _error(
    message: str, status: int, fields: dict[str, str] | None = None, *, retry: bool = False
) -> JSONResponse:
    body: dict[str, Any] = {"error": message, "fields": fields or {}}
    headers = None
    if retry:
        body["retry"] = True
        headers = {"Retry-After": "1"}
    return JSONResponse(body, status_code=status, headers=headers)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read no further than :data:`MAX_BODY_BYTES`."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY_BYTES:
            raise RefusedError(f"the request is over the limit of {MAX_BODY_BYTES} bytes", 413)
    return read_json(bytes(data) or b"{}", MAX_BODY_BYTES)


def _token(request: Request) -> str:
    """The seat token of ``Authorization: Bearer``; 401 without one."""
    scheme, _space, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RefusedError("send the seat's token as Authorization: Bearer TOKEN", 401)
    return token.strip()


async def games(server: Server, request: Request) -> dict[str, Any]:
    """The games the server plays, each with its house rules, bots and seats."""
    return {"games": [game_entry(get_ruleset(name)) for name in rulesets()]}


async def open_matches(server: Server, request: Request) -> dict[str, Any]:
    """The matches waiting for people, oldest first."""
    waiting = await server.store.matches("open")
    shown = []
    for stored in waiting:
        room = await server.room(stored.id)
        shown.append(room.lobby_info())
        server.forget(room)
    return {"matches": shown}


async def create(server: Server, request: Request) -> JSONResponse:
    """Create a match from ``{game, rules, seats, spectators, delay, clock, timeout}``."""
    asked = read_create(await _body(request))
    creator = request.client.host if request.client else "unknown"
    most = server.settings.matches_per_client
    if await server.store.live_matches_of(creator) >= most:
        raise RefusedError(f"a client may have {most} matches not yet over; finish one first", 429)
    rules = get_ruleset(asked.game)
    config = _config(rules, asked.rules)
    seats = _seats(rules, asked, rules.players(config))
    settings = MatchSettings(
        spectators=asked.spectators, delay=asked.delay, clock=asked.clock, timeout=asked.timeout
    )
    head = Match(rules, config).record  # a fresh seed, kept secret until the match is over
    new_id, now = new_match_id(), server.settings.now()
    await server.store.create_match(new_id, head, settings, seats, creator=creator, now=now)
    if "person" not in seats:  # bots alone: this worker plays them
        until = now + server.settings.lease_seconds
        await server.store.claim_lease(new_id, server.worker_id, now=now, until=until)
    async with server.locked(new_id) as room:
        room.schedule()
        answer = room.lobby_info()
    server.forget(room)
    return JSONResponse({"match": answer}, status_code=201)


def _config(rules: Ruleset[Any, Any, Any], values: dict[str, str]) -> Any:
    """The house rules asked for, each refused one reported under its name
    (:func:`~tabletop_rules.house_rules.configured_form`).
    """
    try:
        return configured_form(rules.config_type, values)
    except HouseRulesError as refusal:
        raise RefusedError(f"{refusal}; no match was created", 400, dict(refusal.fields)) from None
    except ConfigError as error:
        raise RefusedError(str(error)) from None


def _seats(rules: Ruleset[Any, Any, Any], asked: CreateRequest, players: int) -> tuple[str, ...]:
    seats = asked.seats if asked.seats is not None else ("person",) * players
    if len(seats) != players:
        raise RefusedError(
            f"the match has {players} seats: name who plays each", 400, {"seats": "one per seat"}
        )
    for choice in seats:
        if choice != "person" and choice not in rules.bots:
            raise RefusedError(
                f"a seat is 'person' or a bot: {', '.join(rules.bots)}; got {choice[:40]!r}",
                400,
                {"seats": "'person' or a bot's name"},
            )
    return seats


async def show(server: Server, request: Request) -> dict[str, Any]:
    """One match, as a spectator of the lobby sees it (seats, status, settings)."""
    async with server.locked(request.path_params["match_id"]) as room:
        await room.refresh()
        answer = room.lobby_info()
    server.forget(room)
    return {"match": answer}


async def join(server: Server, request: Request) -> dict[str, Any]:
    """Take a free seat (``{seat?, name?}``): the seat and its token, shown only now."""
    asked = read_join(await _body(request))
    async with server.locked(request.path_params["match_id"]) as room:
        seat, token = await server.attempt(room, lambda: room.join(asked.seat, asked.name))
        await room.announce()
        room.schedule()
    server.forget(room)
    return {"match": room.id, "seat": seat, "token": token}


async def leave(server: Server, request: Request) -> dict[str, Any]:
    """Leave the match (the token in ``Authorization``): free the seat, or resign."""
    match_id = request.path_params["match_id"]
    seat = await server.store.seat_of(match_id, _token(request))
    if seat is None:
        await server.room(match_id)  # 404 for no such match
        raise RefusedError("the token holds no seat of this match", 403)
    async with server.locked(match_id) as room:
        await server.attempt(room, lambda: room.leave(seat))
        await room.announce()
        answer = room.lobby_info()
    server.forget(room)
    return {"match": answer}


async def record(server: Server, request: Request) -> Response:
    """The game record, once the match is over (before, it would tell the seed)."""
    async with server.locked(request.path_params["match_id"]) as room:
        await room.refresh()
        over = room.status == "over"
    server.forget(room)
    if not over:
        raise RefusedError("the record is shown once the match is over: it holds the seed", 409)
    return Response((await server.store.record(room.id)).to_json(), media_type="application/json")


async def health(request: Request) -> Response:
    """Ready (200) only when the store answers and the worker is not shutting down; a
    load balancer sends clients elsewhere on 503.
    """
    server: Server = request.app.state.server
    body: dict[str, Any] = {"worker": server.worker_id, "hub": server.hub.connected}
    if server.draining:
        return JSONResponse({**body, "status": "draining"}, status_code=503)
    try:
        await asyncio.wait_for(server.store.ping(), 5.0)
    except (TabletopError, TimeoutError) as error:
        return JSONResponse({**body, "status": "unavailable", "error": str(error)}, 503)
    return JSONResponse({**body, "status": "ready"})


async def metrics(request: Request) -> Response:
    """The worker's metrics in the Prometheus text format."""
    server: Server = request.app.state.server
    body, content_type = server.metrics.render()
    return Response(body, media_type=content_type)


# --- the socket --------------------------------------------------------------------------


class _ViolationError(Exception):
    """A client that broke the protocol: the reason, and the close code."""

    def __init__(self, reason: str, code: int = 1008) -> None:
        super().__init__(reason)
        self.code = code


async def socket(websocket: WebSocket) -> None:
    """One client of one match: hello first, then moves and answers (see docs/server.rst)."""
    server: Server = websocket.app.state.server
    await websocket.accept()
    address = websocket.client.host if websocket.client else "unknown"
    most = server.settings.sockets_per_client
    if server.draining:
        await _close(websocket, "the server is shutting down: connect to another", RESTART_CODE)
        return
    if server.sockets.get(address, 0) >= most:
        await _close(websocket, f"a client may hold {most} sockets open; close one first", 1008)
        return
    server.sockets[address] = server.sockets.get(address, 0) + 1
    match_id: str = websocket.path_params["match_id"]
    client: Client | None = None
    key: object = None
    try:
        hello = await asyncio.wait_for(
            _receive(server, websocket, None), server.settings.hello_seconds
        )
        if not isinstance(hello, Hello):
            raise _ViolationError("the first message is a hello")
        try:
            await server.room(match_id)
        except RefusedError as error:
            raise _ViolationError(str(error)) from None
        seat = await _seat(server, match_id, hello)
        key = ("seat", match_id, seat) if seat is not None else websocket
        client = Client(websocket.send_json, seat, hello.cursor, hello.token)
        async with server.locked(match_id) as room:
            await room.refresh()  # the client may come from a worker that is ahead
            if await room.add(client):
                await room.broadcast()  # the others see the seat back
            else:
                await room.send(client, room.table(client))
        while True:
            message = await _receive(server, websocket, key)
            began = time.perf_counter()
            if (
                hello.token is not None
                and await server.store.seat_of(match_id, hello.token) != seat
            ):
                raise _ViolationError("the token no longer holds a seat of this match")
            if client.closed:  # dropped by a send that failed: the client reconnects
                raise _ViolationError("this socket was dropped; reconnect with your cursor")
            async with server.locked(match_id) as room:
                if client not in room.clients:  # the room was reloaded: join it again
                    await room.add(client)
                try:
                    changed = await server.attempt(room, functools.partial(room.act, seat, message))
                except StoreUnavailableError as error:
                    server.metrics.store_failed()
                    server.metrics.refused("unavailable")
                    await room.refuse(client, str(error), retry=True)
                    continue
                except TabletopError as error:
                    server.metrics.refused(_refusal_kind(error))
                    await room.refuse(client, str(error))
                    continue
                if changed:
                    await room.announce()
                    room.schedule()
                    if isinstance(message, Move):
                        server.metrics.moved("person", time.perf_counter() - began)
                else:
                    await room.send(client, room.table(client))
    except WebSocketDisconnect:
        pass
    except TimeoutError:
        await _close(websocket, "no hello in time", 1008)
    except _ViolationError as violation:
        await _close(websocket, str(violation), violation.code)
    except StoreUnavailableError as error:
        await _close(websocket, f"{error}; reconnect", 1013)
    except Exception:
        log.exception("the socket of match %s failed", match_id)
        await _close(websocket, "the server hit a bug; reconnect to get the table", 1011)
    finally:
        server.sockets[address] -= 1
        if not server.sockets[address]:
            del server.sockets[address]
        server.forget_budget(key)
        if client is not None:  # to its end even if this task is cancelled (a dropped link)
            await asyncio.shield(server.keep(_part(server, match_id, client)))


async def _part(server: Server, match_id: str, client: Client) -> None:
    """``client`` has gone: the others are told, and the room may leave memory."""
    room = server.rooms.get(match_id)
    if room is None:
        return
    async with room.lock:
        if await room.drop(client) and not server.draining:
            await room.broadcast()  # the others see the seat away
    server.forget(room)


def _refusal_kind(error: TabletopError) -> RefusalKind:
    """The kind of a refusal, as the metrics count it."""
    if isinstance(error, RefusedError):
        return "stale" if error.status == 409 else "other"
    return "stale" if "answers the table of version" in str(error) else "illegal"


async def _seat(server: Server, match_id: str, hello: Hello) -> int | None:
    """The seat ``hello``'s token holds in the match (``None``: a spectator, if allowed)."""
    if hello.token is None:
        room = await server.room(match_id)
        if room.settings.spectators == "none":
            raise _ViolationError("this match has no spectators")
        return None
    seat = await server.store.seat_of(match_id, hello.token)
    if seat is None:
        raise _ViolationError("the token holds no seat of this match")
    return seat


async def _receive(server: Server, websocket: WebSocket, key: object) -> Any:
    """The next message, read and checked; :class:`_ViolationError` for a broken one."""
    event = await websocket.receive()
    if event["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(event.get("code", 1000))
    text = event.get("text")
    if text is None:
        raise _ViolationError("messages are JSON text, not binary")
    if key is not None and not server.budget(key):
        server.metrics.refused("limit")
        raise _ViolationError(
            f"too many messages: at most {server.settings.messages_per_second:g} a second"
        )
    try:
        return read_message(text, server.settings.max_message_bytes)
    except RefusedError as error:
        server.metrics.refused("limit" if error.status == 413 else "other")
        raise _ViolationError(str(error), 1009 if error.status == 413 else 1008) from None


async def _close(websocket: WebSocket, reason: str, code: int) -> None:
    """Say why, then close (the close frame's reason is cut to its 123 bytes)."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "reason": reason})
        await websocket.close(code, reason.encode()[:120].decode(errors="ignore"))


# --- the app -----------------------------------------------------------------------------


async def _not_found(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "the server hit a bug"
    return _error(str(detail).lower(), status)


def create_app(
    store: Store | str | None = None,
    settings: ServerSettings | None = None,
    *,
    site: str | os.PathLike[str] | None = None,
    hub: Hub | None = None,
    worker: str | None = None,
) -> Starlette:
    """The server as an ASGI app (run it with uvicorn), serving from ``store``: a
    :class:`~tabletop_rules.server.store.Store`, its URL (opened when the app starts and
    closed when it stops, see :func:`~tabletop_rules.server.stores.open_store`), or
    ``None`` for a new SQLite database in memory. Several workers share one Postgres
    store and tell each other of their changes through a ``hub``
    (:class:`~tabletop_rules.server.hub.RedisHub`; ``None``: this is the only worker),
    each under its own ``worker`` id
    (:func:`~tabletop_rules.server.app.default_worker_id`). With ``site``, a folder (the
    web page as ``examples/web/make_site.py`` builds it), its files at ``/`` beside the
    API, and no file outside it. :class:`~tabletop_rules.errors.ConfigError` if
    ``site`` is no folder or ``store`` no store URL.
    """
    if store is not None and not isinstance(store, Store | str):
        raise TypeError(f"a store is a Store, a database URL or None, got {type(store).__name__}")
    if settings is not None and not isinstance(settings, ServerSettings):
        raise TypeError(f"settings are ServerSettings or None, got {type(settings).__name__}")
    if hub is not None and not isinstance(hub, Hub):
        raise TypeError(f"a hub is a Hub or None, got {type(hub).__name__}")
    if site is not None and not isinstance(site, str | os.PathLike):
        raise TypeError(f"a site is a folder's path, got {type(site).__name__}")
    if site is not None and not os.path.isdir(site):
        raise ConfigError(f"the site to serve is a folder, got {os.fspath(site)!r}")
    if isinstance(store, str):
        open_store_url(store)  # a wrong URL is refused now, not when the app starts
    chosen = settings or ServerSettings()
    own_store = not isinstance(store, Store)

    def server_on(opened: Store) -> Server:
        return Server(opened, chosen, hub=hub, worker=worker)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if isinstance(store, str):
            app.state.server = server_on(await open_store(store))
        server: Server = app.state.server
        try:
            await server.start()
            try:
                yield
            finally:
                await server.stop()
        finally:
            if own_store:  # the app's own; a store handed in is its owner's to close
                await server.store.close()

    routes = [
        Route("/health", health, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/api/games", _answers(games), methods=["GET"]),
        Route("/api/matches", _answers(open_matches), methods=["GET"]),
        Route("/api/matches", _answers(create), methods=["POST"]),
        Route("/api/matches/{match_id}", _answers(show), methods=["GET"]),
        Route("/api/matches/{match_id}/join", _answers(join), methods=["POST"]),
        Route("/api/matches/{match_id}/leave", _answers(leave), methods=["POST"]),
        Route("/api/matches/{match_id}/record", _answers(record), methods=["GET"]),
        WebSocketRoute("/ws/{match_id}", socket),
    ]
    if site is not None:  # after the API's routes, which it never shadows
        routes.append(Mount("/", StaticFiles(directory=site, html=True)))
    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: _not_found}
    )
    if not isinstance(store, str):
        app.state.server = server_on(SQLiteStore() if store is None else store)
    return app
