"""The server's routes: the lobby over HTTP (JSON) and one WebSocket per client.

The state lives in a :class:`Server` handed to the app, not in module globals: the
store, the rooms in play, the settings and the clients' message budgets. Every refusal
is JSON with the library's message (``{"error": text, "fields": {...}}`` over HTTP,
``{"type": "refused" | "error", "reason": text}`` on a socket), never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import ConfigError, HouseRulesError, TabletopError, UnknownGameError
from ..house_rules import configured_form
from ..match import Match
from ..protocol import Ruleset, get_ruleset, rulesets
from ..table import game_entry
from .clock import TimeSource
from .messages import (
    MAX_MESSAGE_BYTES,
    CreateRequest,
    Hello,
    RefusedError,
    read_create,
    read_join,
    read_json,
    read_message,
)
from .room import Client, Room, match_id
from .store import MatchSettings, Store

__all__ = ["Server", "ServerSettings", "create_app"]

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 16 * 1024
"""The largest lobby request body read."""


@attrs.frozen(kw_only=True)
class ServerSettings:
    """The server's limits and timings.

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
        tick_seconds: How often the clocks are looked at.
        hello_seconds: How long a new socket may take to say hello.
        now: Where the time is read (``time.time``; a test passes its own).

    """

    max_message_bytes: int = MAX_MESSAGE_BYTES
    messages_per_second: float = 10.0
    burst: int = 30
    matches_per_client: int = 20
    sockets_per_client: int = 50
    bot_seconds: float = 5.0
    grace_seconds: float = 60.0
    tick_seconds: float = 0.25
    hello_seconds: float = 10.0
    now: TimeSource = time.time


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
    """What the app serves from: the ``store``, the ``settings``, the rooms in memory."""

    def __init__(self, store: Store, settings: ServerSettings) -> None:
        self.store = store
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self._budgets: dict[object, _Budget] = {}
        self.sockets: dict[str, int] = {}  # open sockets by client address
        self._ticker: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Resume every match in play (clocks, bots) and start the clock ticker."""
        for stored in self.store.matches("playing"):
            try:
                room = self.room(stored.id)
            except TabletopError as error:  # its game's package gone, say: the others play on
                log.error("match %s cannot be resumed: %s", stored.id, error)
                continue
            async with room.lock:
                room.schedule()
        self._ticker = asyncio.create_task(self._tick())

    async def stop(self) -> None:
        """Stop the ticker and every room's bots."""
        if self._ticker is not None:
            self._ticker.cancel()
            await asyncio.gather(self._ticker, return_exceptions=True)
        for room in self.rooms.values():
            await room.stop()

    def room(self, match_id: str) -> Room:
        """The room of match ``match_id``, loaded from the store when not in memory;
        :class:`~tabletop_rules.server.messages.RefusedError` (404) when there is none.
        """
        room = self.rooms.get(match_id)
        if room is None:
            settings = self.settings
            try:
                room = Room.load(
                    self.store,
                    match_id,
                    now=settings.now,
                    bot_seconds=settings.bot_seconds,
                    grace=settings.grace_seconds,
                )
            except TabletopError as error:
                raise RefusedError(f"match {match_id!r} cannot be loaded: {error}", 500) from None
            if room is None:
                raise RefusedError(f"no match {match_id!r}", 404)
            self.rooms[match_id] = room
        return room

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

    def forget(self, room: Room) -> None:
        """Let a finished match with nobody watching leave memory, its seats' budgets too."""
        if room.status == "over" and not room.clients and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            for seat in range(len(room.seats)):
                self._budgets.pop(("seat", room.id, seat), None)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            for room in list(self.rooms.values()):
                if room.clocks is None or room.status != "playing":
                    continue
                async with room.lock:
                    try:
                        changed = room.check_clock()
                    except Exception:
                        log.exception("match %s: the clock failed", room.id)
                        continue
                    if changed:
                        await room.broadcast()
                        room.schedule()


# --- the lobby ---------------------------------------------------------------------------

Handler = Callable[[Request], Awaitable[Response]]


def _answers(handler: Callable[[Server, Request], Awaitable[Any]]) -> Handler:
    """``handler`` as a route: its answer as JSON, a refusal as ``{"error", "fields"}``
    with its status, a bug as a 500 with one line (the traceback goes to the log).
    """

    async def route(request: Request) -> Response:
        server: Server = request.app.state.server
        try:
            answer = await handler(server, request)
        except RefusedError as refusal:
            return _error(str(refusal), refusal.status, refusal.fields)
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


def _error(message: str, status: int, fields: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "fields": fields or {}}, status_code=status)


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
    waiting = server.store.matches("open")
    return {"matches": [server.room(stored.id).lobby_info() for stored in waiting]}


async def create(server: Server, request: Request) -> JSONResponse:
    """Create a match from ``{game, rules, seats, spectators, delay, clock, timeout}``."""
    asked = read_create(await _body(request))
    creator = request.client.host if request.client else "unknown"
    most = server.settings.matches_per_client
    if server.store.live_matches_of(creator) >= most:
        raise RefusedError(f"a client may have {most} matches not yet over; finish one first", 429)
    rules = get_ruleset(asked.game)
    config = _config(rules, asked.rules)
    seats = _seats(rules, asked, rules.players(config))
    settings = MatchSettings(
        spectators=asked.spectators, delay=asked.delay, clock=asked.clock, timeout=asked.timeout
    )
    head = Match(rules, config).record  # a fresh seed, kept secret until the match is over
    new_id = match_id()
    server.store.create_match(
        new_id, head, settings, seats, creator=creator, now=server.settings.now()
    )
    room = server.room(new_id)
    async with room.lock:
        room.schedule()
    return JSONResponse({"match": room.lobby_info()}, status_code=201)


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
    room = server.room(request.path_params["match_id"])
    server.forget(room)
    return {"match": room.lobby_info()}


async def join(server: Server, request: Request) -> dict[str, Any]:
    """Take a free seat (``{seat?, name?}``): the seat and its token, shown only now."""
    asked = read_join(await _body(request))
    room = server.room(request.path_params["match_id"])
    async with room.lock:
        seat, token = room.join(asked.seat, asked.name)
        await room.broadcast()
        room.schedule()
    return {"match": room.id, "seat": seat, "token": token}


async def leave(server: Server, request: Request) -> dict[str, Any]:
    """Leave the match (the token in ``Authorization``): free the seat, or resign."""
    room = server.room(request.path_params["match_id"])
    seat = server.store.seat_of(room.id, _token(request))
    if seat is None:
        raise RefusedError("the token holds no seat of this match", 403)
    async with room.lock:
        room.leave(seat)
        await room.broadcast()
    server.forget(room)
    return {"match": room.lobby_info()}


async def record(server: Server, request: Request) -> Response:
    """The game record, once the match is over (before, it would tell the seed)."""
    room = server.room(request.path_params["match_id"])
    if room.status != "over":
        raise RefusedError("the record is shown once the match is over: it holds the seed", 409)
    server.forget(room)
    return Response(server.store.record(room.id).to_json(), media_type="application/json")


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
    if server.sockets.get(address, 0) >= most:
        await _close(websocket, f"a client may hold {most} sockets open; close one first", 1008)
        return
    server.sockets[address] = server.sockets.get(address, 0) + 1
    room: Room | None = None
    client: Client | None = None
    key: object = None
    try:
        hello = await asyncio.wait_for(
            _receive(server, websocket, None), server.settings.hello_seconds
        )
        if not isinstance(hello, Hello):
            raise _ViolationError("the first message is a hello")
        try:
            room = server.room(websocket.path_params["match_id"])
        except RefusedError as error:
            raise _ViolationError(str(error)) from None
        seat = _seat(server, room, hello)
        key = ("seat", room.id, seat) if seat is not None else websocket
        client = Client(websocket.send_json, seat, hello.cursor)
        async with room.lock:
            room.add(client)
            await room.broadcast()
        while True:
            message = await _receive(server, websocket, key)
            if hello.token is not None and server.store.seat_of(room.id, hello.token) != seat:
                raise _ViolationError("the token no longer holds a seat of this match")
            if client.closed:  # dropped by a send that failed: the client reconnects
                raise _ViolationError("this socket was dropped; reconnect with your cursor")
            async with room.lock:
                try:
                    changed = room.act(seat, message)
                except TabletopError as error:
                    await room.refuse(client, str(error))
                    continue
                if changed:
                    await room.broadcast()
                    room.schedule()
                else:
                    await room.send(client, room.table(client))
    except WebSocketDisconnect:
        pass
    except TimeoutError:
        await _close(websocket, "no hello in time", 1008)
    except _ViolationError as violation:
        await _close(websocket, str(violation), violation.code)
    except Exception:
        log.exception("the socket of match %s failed", websocket.path_params["match_id"])
        await _close(websocket, "the server hit a bug; reconnect to get the table", 1011)
    finally:
        server.sockets[address] -= 1
        if not server.sockets[address]:
            del server.sockets[address]
        server.forget_budget(key)
        if room is not None and client is not None:
            async with room.lock:
                room.drop(client)
                await room.broadcast()
            server.forget(room)


def _seat(server: Server, room: Room, hello: Hello) -> int | None:
    """The seat ``hello``'s token holds in ``room`` (``None``: a spectator, if allowed)."""
    if hello.token is None:
        if room.settings.spectators == "none":
            raise _ViolationError("this match has no spectators")
        return None
    seat = server.store.seat_of(room.id, hello.token)
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
        raise _ViolationError(
            f"too many messages: at most {server.settings.messages_per_second:g} a second"
        )
    try:
        return read_message(text, server.settings.max_message_bytes)
    except RefusedError as error:
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
    store: Store | None = None,
    settings: ServerSettings | None = None,
    *,
    site: str | os.PathLike[str] | None = None,
) -> Starlette:
    """The server as an ASGI app (run it with uvicorn), serving from ``store`` (``None``: a
    new database in memory, closed with the app) under ``settings``; with ``site``, a
    folder (the web page as ``examples/web/make_site.py`` builds it), its files at ``/``
    beside the API, and no file outside it. :class:`~tabletop_rules.errors.ConfigError`
    if ``site`` is no folder.
    """
    if site is not None and not os.path.isdir(site):
        raise ConfigError(f"the site to serve is a folder, got {os.fspath(site)!r}")
    server = Server(Store() if store is None else store, settings or ServerSettings())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()
            if store is None:  # the app's own; a store handed in is its owner's to close
                server.store.close()

    routes = [
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
    app.state.server = server
    return app
