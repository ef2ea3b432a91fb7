"""The server's memory, in SQLite (the standard library's ``sqlite3``): matches, their
seats with the hashes of the seats' tokens, and the moves, append-only.

A match is stored as the existing :class:`~tabletop_rules.records.GameRecord`: its head
(game, house rules, seed, deal) once, and each move as a row numbered from 1. The INSERT
of move ``n`` succeeds only where the match has ``n - 1`` moves, so it is the version check:
two answers to the same table cannot both be stored. A move is in the file when
:meth:`Store.add_move` returns, before the server acknowledges it to anyone.

>>> store = Store()
>>> from tabletop_rules.records import GameRecord
>>> from tabletop_rules import dice_poker as dp
>>> head = GameRecord("dice-poker", dp.Config(), 7)
>>> store.create_match("m1", head, MatchSettings(), ("person", "random"), creator="ip", now=0.0)
>>> store.add_move("m1", 1, seat=0, move="roll", now=1.0)
>>> store.add_move("m1", 1, seat=0, move="roll", now=1.0)
Traceback (most recent call last):
  ...
tabletop_rules.errors.IllegalMoveError: move 1 of match m1 is stored already: ...
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from ..errors import IllegalMoveError, InvalidStateError
from ..records import GameRecord
from .messages import SPECTATORS, TIMEOUTS, ClockRule

__all__ = [
    "MatchSettings",
    "Result",
    "SeatRow",
    "Store",
    "StoredMatch",
    "StoredMove",
    "hash_token",
    "new_token",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    record_head TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'playing', 'over')),
    result TEXT,
    created REAL NOT NULL,
    started REAL,
    creator TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
    bot TEXT,
    name TEXT NOT NULL DEFAULT '',
    token_hash BLOB,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    match_id TEXT NOT NULL REFERENCES matches (id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    at REAL NOT NULL,
    clock TEXT,
    PRIMARY KEY (match_id, number)
);
"""


def new_token() -> str:
    """A fresh seat token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> bytes:
    """The SHA-256 of ``token``, all the server keeps of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@attrs.frozen(kw_only=True)
class MatchSettings:
    """How a match is played beside its rules: who may watch (``spectators``, ``delay``
    moves late when ``"delayed"``), its ``clock`` (``None``: untimed) and what a timeout
    does (``"bot"``: the seat's bot plays the move; ``"forfeit"``: the seat loses).
    """

    spectators: Literal["none", "public", "delayed"] = "public"
    delay: int = 0
    clock: ClockRule | None = None
    timeout: Literal["bot", "forfeit"] = "bot"

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data (what the lobby shows and the store keeps)."""
        clock = self.clock
        return {
            "spectators": self.spectators,
            "delay": self.delay,
            "clock": None if clock is None else attrs.asdict(clock),
            "timeout": self.timeout,
        }

    @classmethod
    def from_json(cls, data: Any) -> MatchSettings:
        """The settings :meth:`to_json` wrote; ``InvalidStateError`` for anything else."""
        try:
            clock = data["clock"]
            settings = cls(
                spectators=data["spectators"],
                delay=data["delay"],
                clock=None if clock is None else ClockRule(**clock),
                timeout=data["timeout"],
            )
        except (KeyError, TypeError) as error:
            raise InvalidStateError(f"stored match settings are malformed: {error}") from None
        if settings.spectators not in SPECTATORS or settings.timeout not in TIMEOUTS:
            raise InvalidStateError(f"stored match settings are malformed: {data!r:.120}")
        return settings


@attrs.frozen(kw_only=True)
class Result:
    """How a match ended: ``"played"`` to the end, or a seat ``"resigned"``, timed out
    (``"timeout"``) or was ``"claimed"`` from after leaving; ``seat`` is that seat, and
    ``winners`` the seats that won.
    """

    reason: Literal["played", "resigned", "timeout", "claimed"]
    seat: int | None
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {"reason": self.reason, "seat": self.seat, "winners": list(self.winners)}

    @classmethod
    def from_json(cls, data: Any) -> Result:
        """The result :meth:`to_json` wrote."""
        try:
            return cls(reason=data["reason"], seat=data["seat"], winners=tuple(data["winners"]))
        except (KeyError, TypeError) as error:
            raise InvalidStateError(f"a stored result is malformed: {error}") from None


@attrs.frozen(kw_only=True)
class SeatRow:
    """A seat of a match: a ``"person"`` (``taken`` once someone joined, under ``name``)
    or a ``"bot"`` (by its name in the game's ``bots``).
    """

    seat: int
    kind: Literal["person", "bot"]
    bot: str | None
    name: str
    taken: bool

    def to_json(self) -> dict[str, Any]:
        """The seat as the lobby shows it: never its token's hash."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "taken": self.taken,
        }


@attrs.frozen(kw_only=True)
class StoredMove:
    """Move ``number`` (from 1): the ``seat`` that made it (``-1``: chance), its text, when
    it was stored, and the clocks after it (``None``: the match is untimed).
    """

    number: int
    seat: int
    move: str
    at: float
    clock: dict[str, Any] | None


@attrs.frozen(kw_only=True)
class StoredMatch:
    """A match as stored: its record's head (no moves), settings, status and result."""

    id: str
    head: GameRecord
    settings: MatchSettings
    status: Literal["open", "playing", "over"]
    result: Result | None
    created: float
    started: float | None
    creator: str


class Store:
    """The server's SQLite database at ``path`` (``":memory:"``, the default, for tests;
    a file is opened in WAL mode, so a move committed survives the process's crash).

    One connection, used under a lock: the server calls it from its event loop, and a
    test's client may call from another thread.
    """

    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: safe on a process crash
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run ``statements`` in one transaction; each one's count of rows changed."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                counts = [db.execute(sql, args).rowcount for sql, args in statements]
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return counts

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # --- matches and seats ----------------------------------------------------------------

    def create_match(
        self,
        match_id: str,
        head: GameRecord,
        settings: MatchSettings,
        seats: Sequence[str],
        *,
        creator: str,
        now: float,
    ) -> None:
        """Store a new match: ``seats`` holds ``"person"`` or a bot's name for each seat."""
        status = "open" if "person" in seats else "playing"
        row = (
            "INSERT INTO matches VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)",
            (
                match_id,
                head.game,
                head.to_json(),
                json.dumps(settings.to_json()),
                status,
                now,
                None if status == "open" else now,
                creator,
            ),
        )
        seat_rows = [
            (
                "INSERT INTO seats VALUES (?, ?, ?, ?, '', NULL)",
                (match_id, seat, *(("person", None) if choice == "person" else ("bot", choice))),
            )
            for seat, choice in enumerate(seats)
        ]
        self._write([row, *seat_rows])

    def match(self, match_id: str) -> StoredMatch | None:
        """The match stored as ``match_id``, or ``None``."""
        rows = self._read("SELECT * FROM matches WHERE id = ?", (match_id,))
        return _stored_match(rows[0]) if rows else None

    def matches(self, *statuses: str) -> tuple[StoredMatch, ...]:
        """The matches of the given statuses, oldest first."""
        marks = ", ".join("?" * len(statuses))
        rows = self._read(
            f"SELECT * FROM matches WHERE status IN ({marks}) ORDER BY created, id", statuses
        )
        return tuple(map(_stored_match, rows))

    def live_matches_of(self, creator: str) -> int:
        """How many matches ``creator`` made that are not over."""
        rows = self._read(
            "SELECT COUNT(*) FROM matches WHERE creator = ? AND status != 'over'", (creator,)
        )
        return int(rows[0][0])

    def seats(self, match_id: str) -> tuple[SeatRow, ...]:
        """The seats of match ``match_id``, in seat order."""
        rows = self._read(
            "SELECT seat, kind, bot, name, token_hash IS NOT NULL FROM seats "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return tuple(
            SeatRow(seat=seat, kind=kind, bot=bot, name=name, taken=bool(taken))
            for seat, kind, bot, name, taken in rows
        )

    def take_seat(self, match_id: str, seat: int, name: str, token: str) -> bool:
        """Give free person seat ``seat`` to the holder of ``token``; ``False`` if it is
        not free (another join took it first).
        """
        (count,) = self._write(
            [
                (
                    "UPDATE seats SET name = ?, token_hash = ? WHERE match_id = ? AND seat = ? "
                    "AND kind = 'person' AND token_hash IS NULL",
                    (name, hash_token(token), match_id, seat),
                )
            ]
        )
        return count == 1

    def free_seat(self, match_id: str, seat: int) -> None:
        """Free person seat ``seat`` (its token no longer holds it)."""
        self._write(
            [
                (
                    "UPDATE seats SET name = '', token_hash = NULL WHERE match_id = ? AND seat = ?",
                    (match_id, seat),
                )
            ]
        )

    def seat_of(self, match_id: str, token: str) -> int | None:
        """The seat of match ``match_id`` that ``token`` holds, or ``None``: the hashes are
        compared in constant time, every seat's, whichever matches.
        """
        digest = hash_token(token)
        rows = self._read(
            "SELECT seat, token_hash FROM seats WHERE match_id = ? AND token_hash IS NOT NULL",
            (match_id,),
        )
        found = None
        for seat, stored in rows:
            if hmac.compare_digest(digest, bytes(stored)):
                found = seat
        return found

    def set_status(
        self, match_id: str, status: str, *, result: Result | None = None, now: float
    ) -> None:
        """Mark the match ``"playing"`` (from ``now``) or ``"over"`` with its ``result``."""
        statement: tuple[str, Sequence[Any]]
        if status == "playing":
            statement = (
                "UPDATE matches SET status = 'playing', started = ? WHERE id = ?",
                (now, match_id),
            )
        else:
            text = None if result is None else json.dumps(result.to_json())
            statement = (
                "UPDATE matches SET status = ?, result = ? WHERE id = ?",
                (status, text, match_id),
            )
        self._write([statement])

    # --- moves ----------------------------------------------------------------------------

    def add_move(
        self,
        match_id: str,
        number: int,
        *,
        seat: int,
        move: str,
        now: float,
        clock: dict[str, Any] | None = None,
        result: Result | None = None,
    ) -> None:
        """Store move ``number`` of the match, and with it the match's ``result`` if it
        ends the match; :class:`~tabletop_rules.errors.IllegalMoveError` if the match
        does not have exactly ``number - 1`` moves (the move answers an old table).
        """
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "INSERT INTO moves SELECT ?, ?, ?, ?, ?, ? "
                "WHERE (SELECT COUNT(*) FROM moves WHERE match_id = ?) = ?",
                (
                    match_id,
                    number,
                    seat,
                    move,
                    now,
                    None if clock is None else json.dumps(clock),
                    match_id,
                    number - 1,
                ),
            )
        ]
        if result is not None:
            statements.append(
                (
                    "UPDATE matches SET status = 'over', result = ? WHERE id = ?",
                    (json.dumps(result.to_json()), match_id),
                )
            )
        try:
            counts = self._write(statements)
        except sqlite3.IntegrityError:
            counts = [0]
        if counts[0] != 1:
            raise IllegalMoveError(
                f"move {number} of match {match_id} is stored already: "
                "the move answers an old table"
            )

    def take_back(self, match_id: str, keep: int) -> None:
        """Delete the moves after the first ``keep``."""
        self._write([("DELETE FROM moves WHERE match_id = ? AND number > ?", (match_id, keep))])

    def moves(self, match_id: str) -> tuple[StoredMove, ...]:
        """The match's moves, in order."""
        rows = self._read(
            "SELECT number, seat, move, at, clock FROM moves WHERE match_id = ? ORDER BY number",
            (match_id,),
        )
        return tuple(
            StoredMove(
                number=number,
                seat=seat,
                move=move,
                at=at,
                clock=None if clock is None else json.loads(clock),
            )
            for number, seat, move, at, clock in rows
        )

    def record(self, match_id: str) -> GameRecord:
        """The match's game record: its head and every stored move."""
        stored = self.match(match_id)
        if stored is None:
            raise InvalidStateError(f"no match {match_id!r} is stored")
        moves = tuple(row.move for row in self.moves(match_id))
        return attrs.evolve(stored.head, moves=moves)


def _stored_match(row: Sequence[Any]) -> StoredMatch:
    match_id, _game, head, settings, status, result, created, started, creator = row
    return StoredMatch(
        id=match_id,
        head=GameRecord.from_json(head),
        settings=MatchSettings.from_json(json.loads(settings)),
        status=status,
        result=None if result is None else Result.from_json(json.loads(result)),
        created=created,
        started=started,
        creator=creator,
    )
