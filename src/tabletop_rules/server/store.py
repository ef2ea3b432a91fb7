"""The server's memory behind one small interface, :class:`Store`: matches, their seats
with the hashes of the seats' tokens, the moves (append-only), and what the workers
sharing it need to agree on (who is connected, which worker plays a match's bots).

Two stores implement it: SQLite (:mod:`~tabletop_rules.server.sqlite`, the default, one
process) and Postgres (:mod:`~tabletop_rules.server.postgres`, any number of workers),
running the same SQL, written once here;
:func:`~tabletop_rules.server.stores.open_store` picks one by URL. The store is the
truth, and a worker's rooms are its cache: every change to a match is one transaction,
:meth:`Store.commit`, that first checks the match's ``revision`` (how many changes it
has had), so two workers can never both change one match, and a move is acknowledged
only once it is committed.

>>> import asyncio
>>> from tabletop_rules.records import GameRecord
>>> from tabletop_rules.server.stores import open_store
>>> from tabletop_rules import dice_poker as dp
>>> async def demo() -> str:
...     store = await open_store("sqlite://:memory:")
...     head = GameRecord("dice-poker", dp.Config(), 7)
...     seats = ("person", "random")
...     await store.create_match("m1", head, MatchSettings(), seats, creator="ip", now=0.0)
...     stored = await store.match("m1")
...     move = StoredMove(number=1, seat=0, move="roll", at=1.0, clock=None)
...     await store.commit("m1", 0, stored.live, move=move, worker="w", lease_until=0.0)
...     try:
...         await store.commit("m1", 0, stored.live, move=move, worker="w", lease_until=0.0)
...     except StaleError as error:
...         return str(error)
...     finally:
...         await store.close()
...     return "stored twice"
>>> print(asyncio.run(demo()))
match m1 changed meanwhile: revision 0 is past (it is 1); nothing was stored
"""

from __future__ import annotations

import abc
import hashlib
import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, Protocol, TypeVar

import attrs

from .._validation import check_whole, choice
from ..errors import ConfigError, InvalidStateError, TabletopError
from ..records import GameRecord
from .messages import MAX_CURSOR, ClockRule, Spectators, TimeoutRule

__all__ = [
    "Live",
    "MatchSettings",
    "Result",
    "SeatChange",
    "SeatRow",
    "StaleError",
    "Store",
    "StoreUnavailableError",
    "StoredMatch",
    "StoredMove",
    "hash_token",
    "new_token",
]

Status = Literal["open", "playing", "over"]
T = TypeVar("T")


class StaleError(TabletopError):
    """A change written for a revision of the match that another change has passed: the
    worker's room was behind. Nothing was stored; the worker reloads and tries again.
    """


class StoreUnavailableError(TabletopError):
    """The database did not answer (it is down, restarting or unreachable). Nothing was
    stored; the same request may be sent again.
    """


def new_token() -> str:
    """A fresh seat token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> bytes:
    """The SHA-256 of ``token``, all the server keeps of it."""
    if type(token) is not str:
        raise TypeError(f"a token is text, got {type(token).__name__}")
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@attrs.frozen(kw_only=True)
class MatchSettings:
    """How a match is played beside its rules: who may watch (``spectators``, ``delay``
    moves late when ``"delayed"``), its ``clock`` (``None``: untimed) and what a timeout
    does (``"bot"``: the seat's bot plays the move; ``"forfeit"``: the seat loses).
    """

    spectators: Spectators = attrs.field(default="public", validator=choice(Spectators))
    delay: int = attrs.field(default=0)
    clock: ClockRule | None = attrs.field(
        default=None, validator=attrs.validators.optional(attrs.validators.instance_of(ClockRule))
    )
    timeout: TimeoutRule = attrs.field(default="bot", validator=choice(TimeoutRule))

    @delay.validator
    def _check_delay(self, _field: attrs.Attribute[int], delay: int) -> None:
        check_whole("delay", delay, 0, MAX_CURSOR - 1)
        if self.spectators == "delayed" and delay < 1:
            raise ConfigError("a delayed spectator sees the table at least 1 move late")

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
        except (KeyError, TypeError, ConfigError) as error:
            raise InvalidStateError(f"stored match settings are malformed: {error}") from None
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
class Live:
    """The part of a match that its changes rewrite, whole, with each commit: its
    ``status``, when it ``started``, its ``result``, a take-back ``proposal`` awaiting
    answers, the seat whose bot plays for it after a timeout (``timed_out``: seat and
    version), the ``clock`` (banks and the start of the move awaited), and when the
    server must act next (``due``: a bot to move, a deadline; ``None``: nothing to do).
    """

    status: Status
    started: float | None = None
    result: Result | None = None
    proposal: dict[str, Any] | None = None
    timed_out: tuple[int, int] | None = None
    clock: dict[str, Any] | None = None
    due: float | None = None


@attrs.frozen(kw_only=True)
class SeatChange:
    """A person seat ``taken`` by the holder of a token (its ``name`` and ``token_hash``),
    or freed (``taken=False``).
    """

    seat: int
    taken: bool
    name: str = ""
    token_hash: bytes | None = None


@attrs.frozen(kw_only=True)
class StoredMatch:
    """A match as stored: its record's head (no moves), settings, who created it and when,
    its ``revision`` (changes committed), its ``rewinds`` (take-backs committed: a worker
    holding the match at the same number of rewinds only needs the moves after its own),
    what changes (:class:`Live`) and which worker holds its ``lease`` until when
    (``lease_until``).
    """

    id: str
    head: GameRecord
    settings: MatchSettings
    created: float
    creator: str
    revision: int
    live: Live
    rewinds: int = 0
    lease: str | None = None
    lease_until: float | None = None

    @property
    def status(self) -> Status:
        """``"open"`` (waiting for people), ``"playing"`` or ``"over"``."""
        return self.live.status

    @property
    def result(self) -> Result | None:
        """How the match ended, once it has."""
        return self.live.result

    @property
    def started(self) -> float | None:
        """When the last seat was taken."""
        return self.live.started


class Session(Protocol):
    """A store's connection inside one of its transactions, as the SQL of :class:`Store`
    runs on it: ``?`` marks a parameter, whatever the database's own mark.
    """

    async def run(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""

    async def rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a query; its rows."""

    async def run_many(self, sql: str, args: Sequence[Sequence[Any]]) -> None:
        """Run a statement once for each parameters of ``args``."""


class Store(abc.ABC):
    """Where matches are kept. Every method may raise :class:`StoreUnavailableError`
    when the database does not answer; nothing is then half-written.

    The SQL is written here once; a store brings its database's connections and
    transactions (``_session``), and its error for a key stored already.
    """

    url: str
    """The URL the store was opened with."""

    _duplicate: type[Exception]
    _row_lock = ""  # what locks the rows a query reads until its transaction ends

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the store's connections."""

    @abc.abstractmethod
    async def _session(self, work: Callable[[Session], Awaitable[T]], *, atomic: bool = True) -> T:
        """Run ``work`` in one transaction (a lone query, which is one already, when not
        ``atomic``).
        """

    @abc.abstractmethod
    async def _lock_workers(self, session: Session) -> None:
        """Make the workers that resume together do it one after another."""

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await self._session(lambda session: session.rows(sql, args), atomic=False)

    async def _rows_in(self, sql: str, values: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of ``sql``, whose ``{}`` stands for the marks of ``values``, asked 500
        values at a time (an older SQLite takes 999 parameters at the most).
        """
        rows = []
        for start in range(0, len(values), 500):
            chunk = list(values[start : start + 500])
            rows += await self._rows(sql.format(", ".join("?" * len(chunk))), chunk)
        return rows

    async def _write(self, *statements: tuple[str, Sequence[Any]]) -> list[int]:
        """Run ``statements`` in one transaction; how many rows each changed."""

        async def write(session: Session) -> list[int]:
            return [await session.run(sql, args) for sql, args in statements]

        return await self._session(write)

    async def ping(self) -> None:
        """Return once the database answers; :class:`StoreUnavailableError` if it does not."""
        await self._rows("SELECT 1")

    # --- matches --------------------------------------------------------------------------

    async def create_match(
        self,
        match_id: str,
        head: GameRecord,
        settings: MatchSettings,
        seats: Sequence[str],
        *,
        creator: str,
        now: float,
    ) -> None:
        """Store a new match: ``seats`` holds ``"person"`` or a bot's name for each seat;
        it is ``"playing"`` from ``now`` if every seat is a bot, else ``"open"``.
        """
        status = "open" if "person" in seats else "playing"
        begun = None if status == "open" else now
        match = (match_id, head.game, head.to_json(), json.dumps(settings.to_json()), status)

        async def create(session: Session) -> None:
            try:
                await session.run(
                    "INSERT INTO matches (id, game, record_head, settings, status, created, "
                    "started, creator, due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*match, now, begun, creator, begun),
                )
            except self._duplicate:
                raise InvalidStateError(f"a match {match_id} is stored already") from None
            await session.run_many(
                "INSERT INTO seats (match_id, seat, kind, bot) VALUES (?, ?, ?, ?)",
                [
                    (match_id, seat, "person", None)
                    if choice == "person"
                    else (match_id, seat, "bot", choice)
                    for seat, choice in enumerate(seats)
                ],
            )

        await self._session(create)

    async def match(self, match_id: str) -> StoredMatch | None:
        """The match stored as ``match_id``, or ``None``."""
        rows = await self._rows(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return stored_match(rows[0]) if rows else None

    async def matches(self, *statuses: Status) -> tuple[StoredMatch, ...]:
        """The matches of the given statuses, oldest first."""
        sql = f"SELECT {MATCH_COLUMNS} FROM matches WHERE status IN ({{}})"
        found = map(stored_match, await self._rows_in(sql, statuses))
        # ids by code point: the order of SQLite's text and of Postgres's "C" collation
        return tuple(sorted(found, key=lambda match: (match.created, match.id)))

    async def live_matches_of(self, creator: str) -> int:
        """How many matches ``creator`` made that are not over."""
        rows = await self._rows(
            "SELECT COUNT(*) FROM matches WHERE creator = ? AND status != 'over'", (creator,)
        )
        return int(rows[0][0])

    async def seats(self, match_id: str) -> tuple[SeatRow, ...]:
        """The seats of match ``match_id``, in seat order."""
        rows = await self._rows(
            "SELECT seat, kind, bot, name, token_hash IS NOT NULL FROM seats "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return tuple(
            SeatRow(seat=seat, kind=kind, bot=bot, name=name, taken=bool(taken))
            for seat, kind, bot, name, taken in rows
        )

    async def seat_of(self, match_id: str, token: str) -> int | None:
        """The seat of match ``match_id`` that ``token`` holds, or ``None``: the hashes are
        compared in constant time, every seat's, whichever matches.
        """
        digest = hash_token(token)
        rows = await self._rows(
            "SELECT seat, token_hash FROM seats WHERE match_id = ? AND token_hash IS NOT NULL",
            (match_id,),
        )
        found = None
        for seat, stored in rows:
            if hmac.compare_digest(digest, bytes(stored)):
                found = seat
        return found

    async def moves(self, match_id: str, *, after: int = 0) -> tuple[StoredMove, ...]:
        """The match's moves numbered above ``after``, in order."""
        rows = await self._rows(
            "SELECT number, seat, move, at, clock FROM moves WHERE match_id = ? AND number > ? "
            "ORDER BY number",
            (match_id, after),
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

    async def record(self, match_id: str) -> GameRecord:
        """The match's game record: its head and every stored move."""
        stored = await self.match(match_id)
        if stored is None:
            raise InvalidStateError(f"no match {match_id!r} is stored")
        moves = tuple(row.move for row in await self.moves(match_id))
        return attrs.evolve(stored.head, moves=moves)

    async def commit(
        self,
        match_id: str,
        revision: int,
        live: Live,
        *,
        worker: str,
        lease_until: float,
        move: StoredMove | None = None,
        keep: int | None = None,
        seat: SeatChange | None = None,
    ) -> int:
        """Change the match, in one transaction, if it is at ``revision``: write ``live``,
        give the lease to ``worker`` until ``lease_until``, take or free a ``seat``, delete
        the moves after the first ``keep`` (a take-back, counted in the rewinds) and
        append ``move``. Returns the
        new revision; :class:`StaleError` (nothing changed) if the match has passed
        ``revision``, if the seat to take is taken, or if the move's number is stored.
        """
        columns = live_json(live).values()

        async def change(session: Session) -> None:
            changed = await session.run(
                "UPDATE matches SET revision = revision + 1, rewinds = rewinds + ?, "
                "status = ?, started = ?, result = ?, proposal = ?, timed_out = ?, "
                "clock = ?, due = ?, lease = ?, lease_until = ? WHERE id = ? AND revision = ?",
                (int(keep is not None), *columns, worker, lease_until, match_id, revision),
            )
            if changed != 1:
                rows = await session.rows("SELECT revision FROM matches WHERE id = ?", (match_id,))
                if not rows:
                    raise StaleError(f"no match {match_id} is stored; nothing was stored")
                raise StaleError(
                    f"match {match_id} changed meanwhile: revision {revision} is past "
                    f"(it is {rows[0][0]}); nothing was stored"
                )
            if seat is not None and not await _change_seat(session, match_id, seat):
                raise StaleError(f"seat {seat.seat} of match {match_id} was taken meanwhile")
            if keep is not None:
                await session.run(
                    "DELETE FROM moves WHERE match_id = ? AND number > ?", (match_id, keep)
                )
            if move is not None:
                clock = None if move.clock is None else json.dumps(move.clock)
                try:
                    await session.run(
                        "INSERT INTO moves (match_id, number, seat, move, at, clock) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (match_id, move.number, move.seat, move.move, move.at, clock),
                    )
                except self._duplicate:
                    raise StaleError(
                        f"move {move.number} of match {match_id} is stored already"
                    ) from None

        await self._session(change)
        return revision + 1

    async def revisions(self, match_ids: Sequence[str]) -> dict[str, int]:
        """The revision of each match of ``match_ids`` that is stored."""
        sql = "SELECT id, revision FROM matches WHERE id IN ({})"
        return {
            match_id: int(revision) for match_id, revision in await self._rows_in(sql, match_ids)
        }

    # --- workers: presence and leases -----------------------------------------------------

    async def resume(self, worker: str, *, now: float, down_after: float) -> float:
        """Announce ``worker`` (its first heartbeat). If no worker has been seen for
        ``down_after`` seconds, the whole service was down: every playing match's clocks
        and away times move on by that downtime, so nobody is charged for it. Returns the
        downtime forgiven (0 when another worker was alive). One transaction: workers
        starting together forgive it once.
        """

        async def start(session: Session) -> float:
            await self._lock_workers(session)
            ((last,),) = await session.rows("SELECT MAX(seen) FROM workers")
            downtime = 0.0 if last is None or now - last < down_after else now - last
            if downtime:
                await self._forgive(session, downtime)
            await session.run(_UPSERT_WORKER, (worker, now))
            return downtime

        return await self._session(start)

    async def _forgive(self, session: Session, downtime: float) -> None:
        """Move every playing match's clock and away times on by ``downtime``."""
        rows = await session.rows(
            "SELECT id, clock FROM matches WHERE status = 'playing' AND clock IS NOT NULL "
            f"ORDER BY id{self._row_lock}"
        )
        shifted = []
        for match_id, clock in rows:
            data = json.loads(clock)
            data["started"] += downtime  # the move awaited started that much later
            shifted.append((json.dumps(data), downtime, match_id))
        await session.run_many(
            "UPDATE matches SET clock = ?, due = due + ?, revision = revision + 1 WHERE id = ?",
            shifted,
        )
        await session.run(
            "UPDATE seats SET away_since = away_since + ? WHERE match_id IN "
            "(SELECT id FROM matches WHERE status = 'playing')",
            (downtime,),
        )

    async def heartbeat(self, worker: str, *, now: float) -> None:
        """``worker`` is alive at ``now`` (its clients are present)."""
        await self._write((_UPSERT_WORKER, (worker, now)))

    async def release(self, worker: str, *, now: float) -> None:
        """``worker`` stops at ``now``: its leases end, its clients are away from ``now``,
        and it was last seen then (a worker starting after measures the downtime from it).
        """
        await self._write(
            # matches before seats, as a commit locks them, so that the two cannot deadlock
            ("UPDATE matches SET lease_until = 0 WHERE lease = ?", (worker,)),
            (
                "UPDATE seats SET away_since = ? WHERE (match_id, seat) IN "
                "(SELECT match_id, seat FROM presence WHERE worker = ?)",
                (now, worker),
            ),
            ("DELETE FROM presence WHERE worker = ?", (worker,)),
            ("UPDATE workers SET seen = ? WHERE id = ?", (now, worker)),
        )

    async def present(
        self, match_id: str, seat: int, worker: str, *, here: bool, now: float, alive_after: float
    ) -> None:
        """A client of person ``seat`` is connected to ``worker`` (``here``), or its last
        one there left; the seat is away from ``now`` if no live worker (seen after
        ``alive_after``) holds a client of it.
        """
        if here:
            await self._write(
                (
                    "INSERT INTO presence (match_id, seat, worker) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING",
                    (match_id, seat, worker),
                )
            )
            return
        await self._write(
            (
                "DELETE FROM presence WHERE match_id = ? AND seat = ? AND worker = ?",
                (match_id, seat, worker),
            ),
            (
                "UPDATE seats SET away_since = ? WHERE match_id = ? AND seat = ? AND NOT "
                "EXISTS (SELECT 1 FROM presence p JOIN workers w ON w.id = p.worker "
                "WHERE p.match_id = ? AND p.seat = ? AND w.seen > ?)",
                (now, match_id, seat, match_id, seat, alive_after),
            ),
        )

    async def away(self, match_id: str, *, alive_after: float) -> dict[int, float | None]:
        """For each person seat: ``None`` if a live worker holds a client of it, else since
        when it has been away.
        """
        rows = await self._rows(AWAY_QUERY, (alive_after, alive_after, match_id))
        return {seat: away_since(*rest) for seat, *rest in rows}

    async def due_matches(self, *, now: float, limit: int) -> tuple[str, ...]:
        """Matches in play where the server must act by ``now`` (a bot to move, a clock
        due) and no live worker holds the lease, soonest first.
        """
        rows = await self._rows(
            "SELECT id FROM matches WHERE status = 'playing' AND due <= ? "
            "AND (lease_until IS NULL OR lease_until < ?) ORDER BY due LIMIT ?",
            (now, now, limit),
        )
        return tuple(row[0] for row in rows)

    async def claim_lease(self, match_id: str, worker: str, *, now: float, until: float) -> bool:
        """Give ``worker`` the lease of the match until ``until`` if nobody else holds it
        at ``now``; whether it did.
        """
        (count,) = await self._write(
            (
                "UPDATE matches SET lease = ?, lease_until = ? WHERE id = ? AND "
                "(lease_until IS NULL OR lease_until < ? OR lease = ?)",
                (worker, until, match_id, now, worker),
            )
        )
        return count == 1


_UPSERT_WORKER = (
    "INSERT INTO workers (id, seen) VALUES (?, ?) "
    "ON CONFLICT (id) DO UPDATE SET seen = EXCLUDED.seen"
)


async def _change_seat(session: Session, match_id: str, seat: SeatChange) -> bool:
    """Take or free a person seat; whether it did (a seat taken is not taken again)."""
    if seat.taken:
        sql = (
            "UPDATE seats SET name = ?, token_hash = ?, away_since = NULL WHERE match_id = ? "
            "AND seat = ? AND kind = 'person' AND token_hash IS NULL"
        )
        args: tuple[Any, ...] = (seat.name, seat.token_hash, match_id, seat.seat)
    else:
        sql = (
            "UPDATE seats SET name = '', token_hash = NULL WHERE match_id = ? AND seat = ? "
            "AND kind = 'person'"
        )
        args = (match_id, seat.seat)
    return await session.run(sql, args) == 1


def live_json(live: Live) -> dict[str, str | float | None]:
    """The columns that store ``live`` (JSON text where a value is a structure)."""
    return {
        "status": live.status,
        "started": live.started,
        "result": None if live.result is None else json.dumps(live.result.to_json()),
        "proposal": None if live.proposal is None else json.dumps(live.proposal),
        "timed_out": None if live.timed_out is None else json.dumps(list(live.timed_out)),
        "clock": None if live.clock is None else json.dumps(live.clock),
        "due": live.due,
    }


def live_from_columns(
    status: str,
    started: float | None,
    result: str | None,
    proposal: str | None,
    timed_out: str | None,
    clock: str | None,
    due: float | None,
) -> Live:
    """The :class:`Live` that :func:`live_json` stored; ``InvalidStateError`` if malformed."""
    if status not in ("open", "playing", "over"):
        raise InvalidStateError(f"a stored match's status is malformed: {status!r:.40}")
    try:
        pair = None if timed_out is None else json.loads(timed_out)
        return Live(
            status=status,  # type: ignore[arg-type]
            started=started,
            result=None if result is None else Result.from_json(json.loads(result)),
            proposal=None if proposal is None else json.loads(proposal),
            timed_out=None if pair is None else (int(pair[0]), int(pair[1])),
            clock=None if clock is None else json.loads(clock),
            due=due,
        )
    except (ValueError, TypeError, IndexError) as error:
        raise InvalidStateError(f"a stored match is malformed: {error}") from None


MATCH_COLUMNS = (
    "id, record_head, settings, created, creator, revision, rewinds, lease, lease_until, "
    "status, started, result, proposal, timed_out, clock, due"
)
"""The columns of a match that :func:`stored_match` reads, in its order."""


def stored_match(row: Sequence[Any]) -> StoredMatch:
    """The match a row of :data:`MATCH_COLUMNS` holds; ``InvalidStateError`` if malformed."""
    match_id, head, settings, created, creator, revision, rewinds, lease, lease_until, *live = row
    try:
        return StoredMatch(
            id=match_id,
            head=GameRecord.from_json(head),
            settings=MatchSettings.from_json(json.loads(settings)),
            created=created,
            creator=creator,
            revision=revision,
            rewinds=rewinds,
            live=live_from_columns(*live),
            lease=lease,
            lease_until=lease_until,
        )
    except ValueError as error:
        raise InvalidStateError(f"stored match {match_id} is malformed: {error}") from None


AWAY_QUERY = """
SELECT s.seat,
    EXISTS (SELECT 1 FROM presence p JOIN workers w ON w.id = p.worker
            WHERE p.match_id = s.match_id AND p.seat = s.seat AND w.seen > ?),
    s.away_since,
    (SELECT MAX(w.seen) FROM presence p JOIN workers w ON w.id = p.worker
     WHERE p.match_id = s.match_id AND p.seat = s.seat AND w.seen <= ?),
    COALESCE(m.started, m.created)
FROM seats s JOIN matches m ON m.id = s.match_id
WHERE s.match_id = ? AND s.kind = 'person'
ORDER BY s.seat
"""
"""Each person seat: whether a live worker holds a client of it (seen after the first
parameter, also the second's), when its last client left, when the dead workers that held
one were last seen, and when the match started (``?`` marks the parameters).
"""


def away_since(
    present: object, left: float | None, lost: float | None, started: float
) -> float | None:
    """Since when a seat has been away (``None``: it is present), from a row of
    :data:`AWAY_QUERY`: the latest of its last client leaving, the death of the workers
    that held it, and the match's start.
    """
    if present:
        return None
    return max(time for time in (left, lost, started) if time is not None)
