"""A client of the game server, for a program that plays or watches a seat of a match:
``tabletop-rules join``, tests, load scripts.

A :class:`MatchLink` says where a match is; :func:`join_seat` takes a seat in the lobby;
:class:`Connection` (or :class:`AsyncConnection` under asyncio) holds the match's
WebSocket, says hello with the seat's token and cursor, and keeps a :class:`SeatState`:
the latest :class:`~tabletop_rules.table.Table` (checked by
:meth:`~tabletop_rules.table.Table.from_json`), the match as the lobby shows it, the log,
and the cursor a reconnection resumes from. :class:`SavedSeats` keeps tokens in a file
so a program that comes back finds its seat.

>>> link = MatchLink.parse("http://127.0.0.1:8000/?match=Q3xv_7Tk")
>>> link.base, link.match
('http://127.0.0.1:8000', 'Q3xv_7Tk')
>>> link.socket_url
'ws://127.0.0.1:8000/ws/Q3xv_7Tk'
>>> MatchLink.parse("https://games.example.org/api/matches/Q3xv_7Tk").socket_url
'wss://games.example.org/ws/Q3xv_7Tk'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

import attrs

from .._validation import check_seconds
from ..errors import ConfigError, TabletopError, UnknownGameError
from ..serialize import parse_json
from ..table import LogEntry, Table
from .messages import MAX_MESSAGE_BYTES

__all__ = [
    "AsyncConnection",
    "ClientError",
    "Connection",
    "ConnectionLostError",
    "MatchLink",
    "SavedSeat",
    "SavedSeats",
    "SeatState",
    "Seating",
    "Update",
    "config_dir",
    "join_seat",
    "match_info",
]

TIMEOUT_SECONDS = 10.0
"""How long a lobby request, or opening a socket, may take."""

MAX_RECEIVED_BYTES = 4 * 1024 * 1024
"""The largest message read from a server: a table is a few kilobytes."""

_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PATH_FORMS = re.compile(r"^(?P<prefix>.*?)/(?:api/matches|ws)/(?P<match>[^/]+)(?:/[a-z]*)?/?$")


class ClientError(TabletopError):
    """The server could not be reached, refused a request (``status``: its HTTP status),
    closed the socket saying why, or sent what is not its protocol.
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ConnectionLostError(ClientError):
    """The socket dropped or could not be opened, or the server closed it saying to come
    back (restarting, a bug, its database away: close codes 1011 to 1013):
    :meth:`Connection.reconnect` resumes at the cursor. A refusal for good (close codes
    1008 and 1009: the same hello would be refused again) is a plain :class:`ClientError`.
    """


_FINAL_CLOSE_CODES = frozenset({1008, 1009})
"""The close codes after which reconnecting would be refused again (see :doc:`/server`)."""

_CLOSE_WORDS = {
    1001: "the server is going away",
    1011: "the server hit a bug",
    1012: "the server is restarting",
    1013: "the server's database did not answer",
}


@attrs.frozen(kw_only=True)
class MatchLink:
    """Where a match is: the server's ``base`` URL (``http://host:port``, with the path
    its lobby is under, if any) and the ``match`` id; a share link of the web page may
    also name a ``seat`` to take, or say to ``watch``. Read one with :meth:`parse`.
    """

    base: str = attrs.field()
    match: str = attrs.field()
    seat: int | None = attrs.field(default=None)
    watch: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))

    @base.validator
    def _check_base(self, _field: attrs.Attribute[str], base: object) -> None:
        if type(base) is not str:
            raise TypeError(f"a server's base URL is text, got {type(base).__name__}")
        if not re.fullmatch(r"https?://[^/?#\s]+(/[^?#\s]*)?", base) or base.endswith("/"):
            raise ClientError(f"a base URL is http(s)://HOST:PORT[/PATH], got {base[:80]!r}")

    @match.validator
    def _check_match(self, _field: attrs.Attribute[str], match: object) -> None:
        if type(match) is not str:
            raise TypeError(f"a match id is text, got {type(match).__name__}")
        if not _MATCH_ID.fullmatch(match):
            raise ClientError(f"a match id is letters, digits, - and _, got {match[:80]!r}")

    @seat.validator
    def _check_seat(self, _field: attrs.Attribute[int | None], seat: object) -> None:
        _check_seat(seat)

    @classmethod
    def parse(cls, url: str) -> MatchLink:
        """The link ``url`` names: a page's share link, ``http://host:port/...?match=ID``
        (or ``#match=ID``; the lobby is at the server's root), with ``&seat=N`` or
        ``&watch`` as the page writes them, or the match's own URL,
        ``http://host:port/api/matches/ID`` or ``ws://host:port/ws/ID`` (the lobby is
        where ``/api`` is); :class:`ClientError` for anything else.
        """
        if type(url) is not str:
            raise TypeError(f"a match link is text, got {type(url).__name__}")
        parts = urlsplit(url.strip())
        schemes = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
        scheme = schemes.get(parts.scheme.lower())
        forms = "http://HOST:PORT/?match=ID or http://HOST:PORT/api/matches/ID"
        if scheme is None or not parts.netloc:
            raise ClientError(f"a match link looks like {forms}, got {url[:80]!r}")
        query = parse_qs(parts.query, keep_blank_values=True)
        if "match" not in query:
            query = parse_qs(parts.fragment, keep_blank_values=True)
        asked = query.get("match")
        named = _PATH_FORMS.match(parts.path)
        if asked:
            base, match = f"{scheme}://{parts.netloc}", asked[0]
        elif named:
            base, match = f"{scheme}://{parts.netloc}{named['prefix']}", named["match"]
        else:
            raise ClientError(f"the link names no match: it looks like {forms}, got {url[:80]!r}")
        seat = query.get("seat", [""])[0] if asked else ""
        if seat and not (seat.isascii() and seat.isdigit() and len(seat) < 4):
            raise ClientError(f"the link's seat is a number from 0, got {seat[:20]!r}")
        return cls(base=base, match=match, seat=int(seat) if seat else None, watch="watch" in query)

    @property
    def api_url(self) -> str:
        """The match's lobby URL, ``GET`` to see it."""
        return f"{self.base}/api/matches/{self.match}"

    @property
    def socket_url(self) -> str:
        """The match's WebSocket URL."""
        return "ws" + f"{self.base}/ws/{self.match}".removeprefix("http")

    def __str__(self) -> str:
        return self.api_url


@attrs.frozen(kw_only=True)
class Seating:
    """A seat taken in the lobby: its ``link``, the ``seat`` and its ``token`` (a secret:
    whoever holds it plays the seat).
    """

    link: MatchLink
    seat: int
    token: str = attrs.field(repr=False)


def _lobby(method: str, url: str, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON answer of a lobby request; :class:`ClientError` with the server's reason."""
    import httpx  # the server extra

    try:
        answer = httpx.request(method, url, json=body, timeout=TIMEOUT_SECONDS)
    except httpx.HTTPError as error:
        raise ClientError(f"cannot reach the server at {url}: {error}") from None
    try:
        data = parse_json(answer.content)
    except TabletopError:
        data = None
    if not isinstance(data, dict):
        raise ClientError(f"{url} did not answer as a game server: HTTP {answer.status_code}")
    if answer.is_error:
        reason = data.get("error")
        raise ClientError(str(reason)[:500], answer.status_code)
    return data


def _check_seat(seat: object) -> None:
    """A seat a client names: ``None`` (any), or a whole number from 0."""
    if seat is not None and type(seat) is not int:
        raise TypeError(f"a seat is a whole number or None, got {type(seat).__name__}")
    if seat is not None and seat < 0:
        raise ClientError(f"a seat is a number from 0, got {seat}")


def _checked(link: object) -> MatchLink:
    if not isinstance(link, MatchLink):
        raise TypeError(
            f"a link is a MatchLink (MatchLink.parse reads one), got {type(link).__name__}"
        )
    return link


def match_info(link: MatchLink) -> dict[str, Any]:
    """The match as the lobby shows it (its seats, status, settings, result)."""
    info = _lobby("GET", _checked(link).api_url).get("match")
    if not isinstance(info, dict):
        raise ClientError(f"{link.api_url} sent no match")
    return info


def join_seat(link: MatchLink, *, seat: int | None = None, name: str = "") -> Seating:
    """Take ``seat`` of the match (``None``: the first free one) under ``name``."""
    _checked(link)
    _check_seat(seat)
    if type(name) is not str:
        raise TypeError(f"a name is text, got {type(name).__name__}")
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    answer = _lobby("POST", f"{link.api_url}/join", body)
    seat, token = answer.get("seat"), answer.get("token")
    if type(seat) is not int or type(token) is not str:
        raise ClientError(f"{link.api_url}/join gave no seat and token")
    return Seating(link=link, seat=seat, token=token)


@attrs.frozen(kw_only=True)
class Update:
    """One message of the server, read: a new ``table`` (``kind`` ``"table"``) or a
    refusal of this client's message with its ``reason`` (``"refused"``, nothing applied).
    """

    kind: Literal["table", "refused"]
    table: Table
    """The seat's table now."""
    match: Mapping[str, Any]
    """The match as the lobby shows it (seats, status, result, clock, take-back)."""
    reason: str | None
    """Why the server refused, for a refusal."""
    new: tuple[LogEntry, ...]
    """The moves this client has not been sent before."""
    taken_back: int
    """How many moves the client had been sent were taken back since."""


class SeatState:
    """What a client of one match knows, from the messages it has read: the latest
    :attr:`table` and :attr:`match`, the :attr:`log` since the hello's cursor, and the
    :attr:`cursor` (the version last sent to it) to say hello with after a drop.
    """

    def __init__(self, token: str | None, cursor: int = 0) -> None:
        if token is not None and type(token) is not str:
            raise TypeError(f"a token is text or None, got {type(token).__name__}")
        if type(cursor) is not int:
            raise TypeError(f"a cursor is a whole number of moves, got {type(cursor).__name__}")
        if cursor < 0:
            raise ConfigError(f"a cursor counts moves from 0, got {cursor}")
        self.token = token
        """The seat's token; ``None``: a spectator."""
        self.cursor = cursor
        """The moves of the log sent to this client: the cursor to say hello with."""
        self.table: Table | None = None
        """The latest table; ``None`` before the first."""
        self.match: Mapping[str, Any] = {}
        """The match as the lobby shows it, from the latest message."""
        self.log: list[LogEntry] = []
        """The moves after the hello's cursor, as the seat reads them (a take-back cuts it)."""
        self.closing: str | None = None
        """Why the server is closing the socket, once it said so (the close that follows
        says whether to reconnect); ``None`` otherwise.
        """

    def hello(self) -> dict[str, Any]:
        """The first message: the token (``None``: a spectator) and the cursor."""
        self.closing = None
        return {"type": "hello", "token": self.token, "cursor": self.cursor}

    def receive(self, text: str | bytes) -> Update:
        """Read one message of the server; :class:`ClientError` when it closes the socket
        with an error, or for a message outside the protocol.
        """
        try:
            data = parse_json(text)
        except TabletopError as error:
            raise ClientError(f"the server sent what is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise ClientError("the server sent a message that is not a JSON object")
        kind = data.get("type")
        if kind == "error":
            self.closing = str(data.get("reason"))[:1000]
            raise ClientError(f"the server closed the connection: {self.closing}")
        if kind not in ("table", "refused"):
            raise ClientError(f"the server sent an unknown message type {str(kind)[:40]!r}")
        try:
            table = Table.from_json(data.get("table"))
        except UnknownGameError as error:
            raise ClientError(
                f"the server plays a game not installed here: {error}; install its package"
            ) from None
        match = data.get("match")
        if not isinstance(match, dict):
            raise ClientError("the server sent a table without its match")
        taken_back = max(0, self.cursor - table.log_from)
        self.log = [entry for entry in self.log if entry.number <= table.log_from]
        self.log += table.log
        self.cursor, self.table, self.match = table.version, table, match
        reason = data.get("reason") if kind == "refused" else None
        return Update(
            kind=kind,
            table=table,
            match=match,
            reason=None if reason is None else str(reason),
            new=table.log,
            taken_back=taken_back,
        )

    @property
    def seat(self) -> int | None:
        """The client's seat; ``None``: a spectator."""
        return None if self.table is None else self.table.seat

    @property
    def status(self) -> str:
        """The match's status: ``"open"`` (waiting for people), ``"playing"``, ``"over"``."""
        return str(self.match.get("status", "open"))

    @property
    def to_move(self) -> bool:
        """Whether the seat is to move now."""
        table = self.table
        return self.status == "playing" and table is not None and bool(table.moves)

    @property
    def asked(self) -> bool:
        """Whether a take-back proposed by another seat waits for this seat's answer."""
        proposal = self.match.get("takeback")
        return isinstance(proposal, dict) and self.seat in proposal.get("waiting", ())

    @property
    def against_bots(self) -> bool:
        """Whether every other seat is a bot: a take-back then needs no one's consent."""
        seats = self.match.get("seats") or ()
        others = [row for row in seats if row.get("seat") != self.seat]
        return self.seat is not None and bool(others) and all(r["kind"] == "bot" for r in others)

    def move(self, move: str | int) -> dict[str, Any]:
        """The message playing ``move`` (notation, or an action number) on the table held."""
        if self.table is None:
            raise ClientError("no table yet: say hello first")
        key = "action" if type(move) is int else "move"
        return {"type": "move", key: move, "version": self.table.version}


def _socket_error(link: MatchLink, error: BaseException, closing: str | None) -> ClientError:
    """What a failed read or send means: a refusal for good where the server closed the
    socket with a final code, else a lost connection to come back to.
    """
    from websockets.exceptions import ConnectionClosed  # the server extra

    frame = error.rcvd if isinstance(error, ConnectionClosed) else None
    if frame is not None and frame.code in _FINAL_CLOSE_CODES:
        return ClientError(f"the server closed the connection: {closing or frame.reason}")
    if frame is not None:
        reason = closing or frame.reason or _CLOSE_WORDS.get(frame.code, f"code {frame.code}")
    else:
        reason = str(error)
    return ConnectionLostError(
        f"the connection to {link.socket_url} was lost: {reason or type(error).__name__}"
    )


def _refused_handshake(link: MatchLink, error: Exception) -> ClientError:
    """An opening handshake that failed: unreachable, or answered 5xx (a worker
    restarting behind a proxy), is a lost connection; any other answer, a refusal.
    """
    from websockets.exceptions import InvalidStatus

    if isinstance(error, (OSError, TimeoutError)):
        return ConnectionLostError(f"cannot reach the server at {link.socket_url}: {error}")
    if isinstance(error, InvalidStatus) and error.response.status_code >= 500:
        return ConnectionLostError(f"{link.socket_url} is not serving now: {error}")
    return ClientError(f"{link.socket_url} refused the connection: {error}")


class Connection:
    """A seat's (or a spectator's) WebSocket to a match, blocking: :meth:`open` it, then
    :meth:`receive` updates and :meth:`send` messages built by its :attr:`state`; after a
    :class:`ConnectionLostError`, :meth:`reconnect`.
    """

    def __init__(self, link: MatchLink, socket: Any, state: SeatState) -> None:
        self.link = link
        """The match connected to."""
        self.state = state
        """What the client knows from the messages read so far."""
        self._socket = socket

    @classmethod
    def open(
        cls,
        link: MatchLink,
        token: str | None,
        *,
        cursor: int = 0,
        timeout: float = TIMEOUT_SECONDS,
    ) -> tuple[Connection, Update]:
        """Connect, say hello with ``token`` (``None``: watch) and ``cursor``; the
        connection and the first table.
        """
        state = SeatState(token, cursor)  # checked before the socket opens
        connection = cls(link, _connect(link, timeout), state)
        return connection, connection._greet(timeout)

    def reconnect(self, timeout: float = TIMEOUT_SECONDS) -> Update:
        """Open a new socket and say hello with the token and the cursor: the first table
        brings the moves missed (and says how many were taken back). Raises as
        :meth:`open` does: :class:`ConnectionLostError` while the server is away.
        """
        timeout = check_seconds("timeout", timeout)  # checked before the socket held is closed
        self.close()
        self._socket = _connect(self.link, timeout)
        return self._greet(timeout)

    def _greet(self, timeout: float) -> Update:
        try:
            self.send(self.state.hello())
            first = self.receive(timeout)
        except BaseException:
            self.close()
            raise
        if first is None:
            self.close()
            raise ConnectionLostError(f"{self.link.socket_url} sent no table in {timeout:g} s")
        return first

    def send(self, message: Mapping[str, Any]) -> None:
        """Send ``message`` (JSON data), as :attr:`state` builds it."""
        text = json.dumps(message)
        if len(text.encode()) > MAX_MESSAGE_BYTES:
            raise ClientError(f"the message is over the server's {MAX_MESSAGE_BYTES} bytes")
        try:
            self._socket.send(text)
        except Exception as error:
            raise _socket_error(self.link, error, self.state.closing) from None

    def receive(self, timeout: float | None = None) -> Update | None:
        """The next update, read into :attr:`state`; ``None`` after ``timeout`` seconds.
        When the server says why it closes, the close that follows says which error.
        """
        text = self.read(timeout)
        if text is None:
            return None
        try:
            return self.state.receive(text)
        except ClientError:
            if self.state.closing is not None:
                self.read(TIMEOUT_SECONDS)  # raises as the close code says
            raise

    def read(self, timeout: float | None = None) -> str | bytes | None:
        """The next message as sent, not yet read into :attr:`state` (for a program that
        reads the socket on one thread and keeps its state on another); ``None`` after
        ``timeout`` seconds.
        """
        try:
            text: str | bytes = self._socket.recv(timeout)
        except TimeoutError:
            return None
        except Exception as error:
            raise _socket_error(self.link, error, self.state.closing) from None
        return text

    def close(self) -> None:
        """Close the socket (the seat stays the token's)."""
        with contextlib.suppress(Exception):  # a socket already broken is closed
            self._socket.close()

    def __enter__(self) -> Connection:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _connect(link: MatchLink, timeout: float) -> Any:
    """A blocking WebSocket to ``link``'s match, open."""
    from websockets.sync.client import connect  # the server extra

    timeout, link = check_seconds("timeout", timeout), _checked(link)
    try:
        socket = connect(link.socket_url, open_timeout=timeout, max_size=MAX_RECEIVED_BYTES)
        socket.__enter__()  # held open until close(), as websockets 17 asks to be told
    except Exception as error:
        raise _refused_handshake(link, error) from None
    return socket


class AsyncConnection:
    """:class:`Connection` under asyncio, for many clients in one process."""

    def __init__(self, link: MatchLink, socket: Any, state: SeatState) -> None:
        self.link = link
        """The match connected to."""
        self.state = state
        """What the client knows from the messages read so far."""
        self._socket = socket

    @classmethod
    async def open(
        cls,
        link: MatchLink,
        token: str | None,
        *,
        cursor: int = 0,
        timeout: float = TIMEOUT_SECONDS,
    ) -> tuple[AsyncConnection, Update]:
        """As :meth:`Connection.open`."""
        state = SeatState(token, cursor)
        connection = cls(link, await _connect_async(link, timeout), state)
        return connection, await connection._greet(timeout)

    async def reconnect(self, timeout: float = TIMEOUT_SECONDS) -> Update:
        """As :meth:`Connection.reconnect`."""
        timeout = check_seconds("timeout", timeout)
        await self.close()
        self._socket = await _connect_async(self.link, timeout)
        return await self._greet(timeout)

    async def _greet(self, timeout: float) -> Update:
        try:
            await self.send(self.state.hello())
            return await asyncio.wait_for(self.receive(), timeout)
        except TimeoutError:
            await self.close()
            raise ConnectionLostError(
                f"{self.link.socket_url} sent no table in {timeout:g} s"
            ) from None
        except BaseException:
            await self.close()
            raise

    async def send(self, message: Mapping[str, Any]) -> None:
        """As :meth:`Connection.send`."""
        text = json.dumps(message)
        if len(text.encode()) > MAX_MESSAGE_BYTES:
            raise ClientError(f"the message is over the server's {MAX_MESSAGE_BYTES} bytes")
        try:
            await self._socket.send(text)
        except Exception as error:
            raise _socket_error(self.link, error, self.state.closing) from None

    async def receive(self) -> Update:
        """As :meth:`Connection.receive`: the next update, read into :attr:`state`."""
        text = await self._read()
        try:
            return self.state.receive(text)
        except ClientError:
            if self.state.closing is not None:
                with contextlib.suppress(TimeoutError):  # raises as the close code says
                    await asyncio.wait_for(self._read(), TIMEOUT_SECONDS)
            raise

    async def _read(self) -> str | bytes:
        try:
            text: str | bytes = await self._socket.recv()
        except Exception as error:
            raise _socket_error(self.link, error, self.state.closing) from None
        return text

    async def close(self) -> None:
        """As :meth:`Connection.close`."""
        with contextlib.suppress(Exception):
            await self._socket.close()


async def _connect_async(link: MatchLink, timeout: float) -> Any:
    """An asyncio WebSocket to ``link``'s match, open."""
    from websockets.asyncio.client import connect  # the server extra

    timeout, link = check_seconds("timeout", timeout), _checked(link)
    try:
        return await connect(link.socket_url, open_timeout=timeout, max_size=MAX_RECEIVED_BYTES)
    except Exception as error:
        raise _refused_handshake(link, error) from None


def config_dir() -> Path:
    """Where ``tabletop-rules`` keeps what it remembers for a user: ``%APPDATA%`` on
    Windows, ``~/Library/Application Support`` on macOS, else ``$XDG_CONFIG_HOME`` or
    ``~/.config``; then ``tabletop-rules``.
    """
    if sys.platform == "win32":
        root = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        root = Path.home() / "Library" / "Application Support"
    else:
        root = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return root / "tabletop-rules"


@attrs.frozen(kw_only=True)
class SavedSeat:
    """A seat remembered for a match: the ``seat``, its ``token`` and the ``cursor``."""

    seat: int
    token: str = attrs.field(repr=False)
    cursor: int = 0


class SavedSeats:
    """The seats a user holds, by match, in a JSON file readable by the user alone
    (``seats.json`` under :func:`config_dir` by default), so ``join`` finds its seat again.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        if path is not None and not isinstance(path, str | os.PathLike):
            raise TypeError(f"a path is a str or a path, got {type(path).__name__}")
        self.path = Path(path) if path is not None else config_dir() / "seats.json"

    def _read(self) -> dict[str, Any]:
        try:
            text = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as error:
            raise ClientError(f"cannot read {self.path}: {error.strerror or error}") from None
        try:
            data = parse_json(text)
        except TabletopError as error:
            raise ClientError(f"{self.path} is damaged ({error}); delete it") from None
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(seats, dict):
            raise ClientError(f"{self.path} holds no seats; delete it")
        return seats

    def get(self, link: MatchLink) -> SavedSeat | None:
        """The seat kept for ``link``'s match, if any."""
        entry = self._read().get(_key(link))
        if not isinstance(entry, dict):
            return None
        seat, token, cursor = entry.get("seat"), entry.get("token"), entry.get("cursor")
        if type(seat) is not int or type(token) is not str or type(cursor) is not int:
            return None  # an entry not of this program's writing: the seat is joined afresh
        return SavedSeat(seat=seat, token=token, cursor=max(cursor, 0))

    def put(self, link: MatchLink, saved: SavedSeat) -> None:
        """Keep ``saved`` for ``link``'s match."""
        if not isinstance(saved, SavedSeat):
            raise TypeError(f"what is kept is a SavedSeat, got {type(saved).__name__}")
        seats = self._read()
        seats[_key(link)] = {"seat": saved.seat, "token": saved.token, "cursor": saved.cursor}
        self._write(seats)

    def forget(self, link: MatchLink) -> None:
        """Forget the seat kept for ``link``'s match."""
        seats = self._read()
        if seats.pop(_key(link), None) is not None:
            self._write(seats)

    def _write(self, seats: dict[str, Any]) -> None:
        """Replace the file at once, readable and writable by the user alone."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=self.path.parent, prefix=".seats-")
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump({"seats": seats}, file, indent=1)
            os.chmod(name, 0o600)
            os.replace(name, self.path)
        except OSError as error:
            raise ClientError(f"cannot keep the seat in {self.path}: {error}") from None


def _key(link: MatchLink) -> str:
    link = _checked(link)
    return f"{link.base} {link.match}"
