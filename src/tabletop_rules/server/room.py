"""One match in a worker's memory: the :class:`~tabletop_rules.match.Match`, its seats,
the clients of this worker watching it, its clocks and a take-back proposed. The store is
the truth and a room its cache: every change goes through a :class:`Room` under its lock,
is committed to the store as one transaction at the room's revision (another worker's
change in between makes it :class:`~tabletop_rules.server.store.StaleError`, and the room
reloads), and only then sent: every client gets its own table
(:func:`~tabletop_rules.table.seat_table` for its seat), built here and nowhere else.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import attrs

from .._seats import top_seats
from ..bots import RandomBot, own_bot_name
from ..errors import IllegalMoveError, InvalidStateError, TabletopError
from ..game import CHANCE
from ..match import Match
from ..protocol import Bot, Ruleset, get_ruleset
from ..rng import Rng, derived_seed, sample_outcome
from ..table import seat_table
from .clock import Clocks, TimeSource
from .hub import Hub, LocalHub, Notice
from .messages import Claim, Message, Move, RefusedError, Resign, Sync, TakeBack
from .metrics import Metrics
from .store import (
    Live,
    MatchSettings,
    Result,
    SeatChange,
    SeatRow,
    StaleError,
    Store,
    StoredMatch,
    StoredMove,
    hash_token,
    new_token,
)

__all__ = ["Client", "Proposal", "Room", "Worker", "match_id"]

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""How a room sends one client a message (JSON data)."""

SEND_SECONDS = 10.0
"""How long a send to one client may take before the client is dropped."""


@attrs.frozen(kw_only=True)
class Worker:
    """What the rooms of one server process share: the worker's ``id`` (unique among the
    workers that share the store), the ``store``, the ``hub`` that tells the other workers
    of a change, where it reads the time, and its timings: a bot's thinking time, the
    grace before an away seat may be claimed, and the ``lease_seconds`` a worker holds a
    match after changing it (and after which a silent worker counts as gone).
    """

    id: str
    store: Store
    hub: Hub
    now: TimeSource
    bot_seconds: float = 5.0
    grace_seconds: float = 60.0
    lease_seconds: float = 10.0
    metrics: Metrics | None = None
    """Where the worker counts its commits, notices and the server's moves."""

    def alive_after(self) -> float:
        """Workers last seen before this time are gone."""
        return self.now() - self.lease_seconds


class Client:
    """One connection to a room: its ``seat`` (``None``: a spectator) and the ``token``
    that holds it, how to ``send`` it a message, and its ``cursor``, the moves of the log
    it has been sent.
    """

    def __init__(self, send: Send, seat: int | None, cursor: int, token: str | None = None) -> None:
        self.send = send
        self.seat = seat
        self.cursor = cursor
        self.token = token
        self.closed = False


async def _delivered(client: Client, message: dict[str, Any]) -> bool:
    """Whether ``client`` took ``message`` within :data:`SEND_SECONDS` (a closed client
    counts as served: it reconnects by its cursor).
    """
    if client.closed:
        return True
    try:
        await asyncio.wait_for(client.send(message), SEND_SECONDS)
    except Exception:  # a closed or stuck socket
        return False
    return True


@attrs.frozen(kw_only=True)
class Proposal:
    """A take-back ``by`` a seat at state ``version``, awaiting the answers of the people
    in ``waiting``; those in ``accepted`` have agreed.
    """

    by: int
    version: int
    waiting: frozenset[int]
    accepted: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, Any]:
        """The proposal as its clients see it."""
        return {
            "by": self.by,
            "version": self.version,
            "waiting": sorted(self.waiting - self.accepted),
            "accepted": sorted(self.accepted),
        }

    def stored(self) -> dict[str, Any]:
        """The proposal as the store keeps it (:meth:`from_stored` reads it back)."""
        return {**self.to_json(), "waiting": sorted(self.waiting)}

    @classmethod
    def from_stored(cls, data: Any) -> Proposal:
        """The proposal :meth:`stored` wrote; ``InvalidStateError`` for anything else."""
        try:
            return cls(
                by=int(data["by"]),
                version=int(data["version"]),
                waiting=frozenset(map(int, data["waiting"])),
                accepted=frozenset(map(int, data["accepted"])),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidStateError(f"a stored take-back proposal is malformed: {error}") from None


@attrs.frozen
class _BotJob:
    """A move the server plays itself: by ``seat``'s bot (or chance), for ``version``
    reached at the room's ``revision`` (a take-back and new moves may reach the same
    version in another state).
    """

    revision: int
    version: int
    seat: int
    timed_out: bool


class Room:
    """A match in play: load one with :meth:`load`. Callers hold its ``lock`` around
    :meth:`act`, :meth:`join`, :meth:`leave`, :meth:`check_clock` and :meth:`refresh`;
    each change raises a :class:`~tabletop_rules.errors.TabletopError` that says why it
    refuses, nothing changed (:class:`~tabletop_rules.server.store.StaleError` when
    another worker changed the match first: :meth:`refresh`, then try again).
    """

    def __init__(
        self,
        *,
        stored: StoredMatch,
        seats: tuple[SeatRow, ...],
        match: Match[Any, Any, Any],
        worker: Worker,
        last_clock: dict[str, Any] | None = None,
    ) -> None:
        self.id = stored.id
        self.match = match
        self.rules: Ruleset[Any, Any, Any] = match.rules
        self.settings: MatchSettings = stored.settings
        self.worker = worker
        self.clients: list[Client] = []
        self.local: dict[int, int] = {}  # this worker's connections by seat
        self.away: dict[int, float | None] = {}  # each person seat: away since (None: here)
        self.lock = asyncio.Lock()
        self._bots: asyncio.Task[None] | None = None
        self._stopped = False  # the worker is shutting down: the bots play no more
        self._delayed: Match[Any, Any, Any] | None = None
        self._adopt(stored, seats, last_clock)

    def _adopt(
        self, stored: StoredMatch, seats: tuple[SeatRow, ...], last_clock: dict[str, Any] | None
    ) -> None:
        """Take the stored match's changing part (its moves are the caller's)."""
        live = stored.live
        self.revision, self.rewinds = stored.revision, stored.rewinds
        self.status, self.result, self.started = live.status, live.result, live.started
        self.seats = list(seats)
        self.proposal = None if live.proposal is None else Proposal.from_stored(live.proposal)
        self.timed_out = live.timed_out
        lease_until = stored.lease_until or 0.0
        self.leased = stored.lease == self.worker.id and lease_until > self.worker.now()
        rule, clocks = self.settings.clock, None
        if rule is not None and live.started is not None:
            clocks = Clocks.start(rule, players=len(seats), now=live.started)
            clock = live.clock if live.clock is not None else last_clock
            if clock is not None:  # a match stored before clocks were kept with it
                clocks = clocks.with_stored(clock)
        self.clocks: Clocks | None = clocks

    @classmethod
    async def load(cls, worker: Worker, match_id: str) -> Room | None:
        """The match stored as ``match_id``, its record replayed through
        :class:`~tabletop_rules.match.Match`; ``None`` if there is none.
        """
        store = worker.store
        read = await _snapshot(store, match_id, after=0)
        if read is None:
            return None
        stored, moves, seats = read
        record = attrs.evolve(stored.head, moves=tuple(row.move for row in moves))
        room = cls(
            stored=stored,
            seats=seats,
            match=Match.from_record(get_ruleset(record.game), record),
            worker=worker,
            last_clock=moves[-1].clock if moves else None,
        )
        await room.reread_presence()
        return room

    async def refresh(self) -> bool:
        """Catch up with the store (another worker changed the match); whether anything
        changed. Only the moves after the room's are read, unless a take-back rewound the
        match: then its record is replayed whole.
        """
        store = self.worker.store
        stored = await store.match(self.id)
        if stored is None:
            raise InvalidStateError(f"match {self.id} is no longer stored")
        if stored.revision == self.revision:
            return False
        whole = stored.rewinds != self.rewinds  # a take-back: replay the record whole
        read = await _snapshot(store, self.id, after=0 if whole else self.version)
        if read is None:
            raise InvalidStateError(f"match {self.id} is no longer stored")
        stored, moves, seats = read
        if whole:
            record = attrs.evolve(stored.head, moves=tuple(row.move for row in moves))
            self.match = Match.from_record(self.rules, record)
        else:
            for row in moves:
                self.match.play(row.move)
        seats_before = self.seats
        self._adopt(stored, seats, None)
        await self.reread_presence()
        if self.seats != seats_before:
            await self._recheck_tokens()
        return True

    async def _recheck_tokens(self) -> None:
        """Drop this worker's clients whose token no longer holds their seat (it was left
        through another worker), so that nothing more of the seat is sent to them.
        """
        for client in list(self.clients):
            token, seat = client.token, client.seat
            if seat is None or token is None:
                continue
            if await self.worker.store.seat_of(self.id, token) != seat:
                await self.drop(client)

    @property
    def version(self) -> int:
        """The moves played so far."""
        return len(self.match.moves)

    # --- what clients see -----------------------------------------------------------------

    def connected(self, seat: int) -> bool:
        """Whether a client of person ``seat`` is connected, to this worker or another."""
        return bool(self.local.get(seat)) or (seat in self.away and self.away[seat] is None)

    def info(self, seat: int | None, *, delayed: bool = False) -> dict[str, Any]:
        """The match beside the table, as ``seat`` (``None``: a spectator) may see it: its
        seats (who is there), status, result, clocks and a take-back proposed. A delayed
        spectator gets neither clocks nor proposal, which would tell the present.
        """
        now = self.worker.now()
        seats = [
            {**row.to_json(), "connected": row.kind == "person" and self.connected(row.seat)}
            for row in self.seats
        ]
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.rules.name,
            "status": self.status,
            "seats": seats,
            "settings": self.settings.to_json(),
            "result": None if self.result is None else self.result.to_json(),
        }
        if delayed and self.status != "over":
            return data
        clocks, to_move = self.clocks, self._person_to_move()
        data["clock"] = (
            None
            if clocks is None
            else {
                "banks": list(clocks.banks),
                "to_move": to_move,
                "left": None if to_move is None else clocks.left(to_move, now=now),
            }
        )
        data["takeback"] = None if self.proposal is None else self.proposal.to_json()
        data["claimable"] = self._claimable(now)
        return data

    def lobby_info(self) -> dict[str, Any]:
        """The match as the lobby shows anyone: a spectator's :meth:`info`, without the
        present (clocks, proposal) where spectators may not watch it live.
        """
        return self.info(None, delayed=self.settings.spectators != "public")

    def table(self, client: Client) -> dict[str, Any]:
        """The table message for ``client``, from its cursor on (with no moves unless the
        match is being played); moves its cursor.
        """
        delayed = client.seat is None and self.settings.spectators == "delayed"
        match = self._delayed_match() if delayed else self.match
        table = seat_table(match, client.seat, since=client.cursor).to_json()
        if self.status != "playing":  # before the start and after a resignation: no moves
            table.update(moves=[], actions=[], move_notes={}, hints=[])
        client.cursor = table["version"]
        return {"type": "table", "table": table, "match": self.info(client.seat, delayed=delayed)}

    def _delayed_match(self) -> Match[Any, Any, Any]:
        """The match as it stood :attr:`MatchSettings.delay` moves ago (all of it once over)."""
        keep = self.version if self.status == "over" else max(0, self.version - self.settings.delay)
        if keep == self.version:
            return self.match
        cached = self._delayed
        if cached is None or len(cached.moves) != keep or cached.moves != self.match.moves[:keep]:
            record = self.match.record
            cached = Match.from_record(self.rules, attrs.evolve(record, moves=record.moves[:keep]))
            self._delayed = cached
        return cached

    async def send(self, client: Client, message: dict[str, Any]) -> None:
        """Send ``client`` a message; a client that cannot take it in time is dropped."""
        if not await _delivered(client, message):
            await self.drop(client)

    async def broadcast(self) -> None:
        """Send every client of this worker its table, all at once: a slow client holds
        up no other. Those that could not take theirs are dropped.
        """
        clients = list(self.clients)
        delivered = await asyncio.gather(
            *(_delivered(client, self.table(client)) for client in clients)
        )
        for client, ok in zip(clients, delivered, strict=True):
            if not ok:
                await self.drop(client)

    async def announce(self) -> None:
        """After a change: send this worker's clients their tables, and tell the others."""
        await self.broadcast()
        worker = self.worker
        await worker.hub.publish(
            Notice(match=self.id, revision=self.revision, worker=worker.id, kind="change")
        )
        if worker.metrics is not None and not isinstance(worker.hub, LocalHub):
            worker.metrics.notice_sent()

    async def refuse(self, client: Client, reason: str, **extra: Any) -> None:
        """Tell ``client`` why its message was refused, with a fresh table."""
        message = {**self.table(client), "type": "refused", "reason": reason, **extra}
        await self.send(client, message)

    async def add(self, client: Client) -> bool:
        """A client joins the room; whether that changed what the others see (a seat that
        was away is here).
        """
        self.clients.append(client)
        seat = client.seat
        if seat is None:
            return False
        self.local[seat] = self.local.get(seat, 0) + 1
        if self.local[seat] > 1:
            return False
        await self._presence(seat, here=True)
        return True

    async def drop(self, client: Client) -> bool:
        """A client leaves; whether that changed what the others see (its seat is away
        from now, having no other connection).
        """
        client.closed = True
        if client not in self.clients:
            return False
        self.clients.remove(client)
        seat = client.seat
        if seat is None:
            return False
        self.local[seat] -= 1
        if self.local[seat]:
            return False
        del self.local[seat]
        await self._presence(seat, here=False)
        return True

    async def _presence(self, seat: int, *, here: bool) -> None:
        """Tell the store and the other workers that ``seat`` came or went."""
        worker = self.worker
        try:
            await worker.store.present(
                self.id,
                seat,
                worker.id,
                here=here,
                now=worker.now(),
                alive_after=worker.alive_after(),
            )
            await self.reread_presence()
        except TabletopError as error:  # the store is down: the seat's presence is stale
            log.warning("match %s: seat %d's presence was not stored: %s", self.id, seat, error)
            return
        await worker.hub.publish(
            Notice(match=self.id, revision=self.revision, worker=worker.id, kind="presence")
        )

    async def reread_presence(self) -> None:
        """Read who is connected from the store (another worker's client came or went)."""
        self.away = await self.worker.store.away(self.id, alive_after=self.worker.alive_after())

    # --- changes --------------------------------------------------------------------------

    async def _change(self, change: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        """Run ``change`` on the room, then commit what it gives (a move, a take-back's
        ``keep``, a seat) with the room's new state, in one transaction at the room's
        revision; the room is as it was if anything fails.
        """
        saved = (
            self.status,
            self.result,
            self.started,
            list(self.seats),
            self.clocks,
            self.proposal,
            self.timed_out,
            self.match.moves,
        )
        try:
            stored = await change()
            worker = self.worker
            now = worker.now()
            clocks, proposal = self.clocks, self.proposal
            live = Live(
                status=self.status,
                started=self.started,
                result=self.result,
                proposal=None if proposal is None else proposal.stored(),
                timed_out=self.timed_out,
                clock=None if clocks is None else clocks.to_json(),
                due=self.due(),
            )
            began = time.perf_counter()
            try:
                self.revision = await worker.store.commit(
                    self.id,
                    self.revision,
                    live,
                    worker=worker.id,
                    lease_until=now + worker.lease_seconds,
                    **stored,
                )
            finally:
                if worker.metrics is not None:
                    worker.metrics.committed(time.perf_counter() - began)
        except BaseException:
            (
                self.status,
                self.result,
                self.started,
                self.seats,
                self.clocks,
                self.proposal,
                self.timed_out,
                moves,
            ) = saved
            self._rewind_to(moves)
            raise
        if "keep" in stored:
            self.rewinds += 1
        self.leased = True

    def _rewind_to(self, moves: tuple[Any, ...]) -> None:
        """Bring the match back to ``moves`` (undo what was played, replay what was taken)."""
        match = self.match
        common = 0
        for mine, theirs in zip(match.moves, moves, strict=False):
            if mine != theirs:
                break
            common += 1
        while len(match.moves) > common:
            match.undo()
        for move in moves[common:]:
            match.play(move)

    def due(self) -> float | None:
        """When the server must act on the match: now for a bot, chance or a timed-out
        seat to move, the deadline of a person on a clock; ``None`` for nothing to do.
        """
        if self._bot_job(leased=False) is not None:
            return self.worker.now()
        player = self._person_to_move()
        return None if self.clocks is None or player is None else self.clocks.deadline(player)

    # --- what clients do ------------------------------------------------------------------

    async def act(self, seat: int | None, message: Message) -> bool:
        """Do what ``seat`` (``None``: a spectator) asks; whether anything changed."""
        if isinstance(message, Sync):
            return False
        if seat is None:
            raise RefusedError("a spectator watches: it cannot move, resign or claim", 403)
        if self.status != "playing":
            raise RefusedError(self._not_playing())
        if isinstance(message, Move):
            await self._change(lambda: self._move(seat, message))
        elif isinstance(message, Resign):
            await self._change(lambda: self._end("resigned", seat))
        elif isinstance(message, Claim):
            await self._change(lambda: self._claim(seat))
        elif isinstance(message, TakeBack):
            await self._change(lambda: self._take_back(seat, message.answer))
        else:
            raise RefusedError(f"a {type(message).__name__.lower()} message is said only once")
        return True

    def _not_playing(self) -> str:
        if self.status == "over":
            return "the match is over"
        free = [row.seat for row in self.seats if row.kind == "person" and not row.taken]
        return f"the match waits for people at seats {', '.join(map(str, free))}"

    async def _move(self, seat: int, message: Move) -> dict[str, Any]:
        if message.version != self.version:
            raise IllegalMoveError(
                f"the move answers the table of version {message.version}, but the game is "
                f"at version {self.version}: nothing was played"
            )
        player = self.match.current_player
        if player != seat:
            raise IllegalMoveError(f"it is not your turn: {self._whose(player)} to move")
        view = self.match.view(seat)
        if message.move is not None:
            move = self.rules.parse_move(view, message.move)
        else:
            assert message.action is not None
            move = self.rules.decode(self.match.state, message.action)
        return self._play(seat, move, timed=True)

    def _whose(self, player: int | None) -> str:
        return {None: "nobody is", CHANCE: "chance is"}.get(player, f"P{player} is")

    def _play(self, seat: int, move: Any, *, timed: bool) -> dict[str, Any]:
        """Play ``move`` for ``seat`` (or chance) and end the match if it ended the game;
        the stored move to commit.
        """
        now = self.worker.now()
        self.match.play(move, seat=None if seat == CHANCE else seat)
        clocks = self.clocks
        if clocks is not None:
            clocks = clocks.after_move(seat if timed and self._is_person(seat) else None, now=now)
        self.clocks, self.proposal, self.timed_out = clocks, None, None
        if self.match.is_over:
            winners = tuple(sorted(self.match.winners))
            self.status, self.result = "over", Result(reason="played", seat=None, winners=winners)
        stored = StoredMove(
            number=self.version,
            seat=seat,
            move=self.rules.format_move(self.match.moves[-1]),
            at=now,
            clock=None if clocks is None else clocks.to_json(),
        )
        return {"move": stored}

    def _is_person(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].kind == "person"

    def _person_to_move(self) -> int | None:
        player = self.match.current_player if self.status == "playing" else None
        return player if player is not None and self._is_person(player) else None

    async def _end(
        self, reason: Literal["resigned", "timeout", "claimed"], loser: int
    ) -> dict[str, Any]:
        """End the match, ``loser`` losing: the others' top scores win."""
        scores = self.match.score
        others = [seat for seat in range(len(scores)) if seat != loser]
        top = top_seats([scores[seat] for seat in others])
        result = Result(reason=reason, seat=loser, winners=tuple(others[i] for i in sorted(top)))
        self.status, self.result, self.proposal, self.timed_out = "over", result, None, None
        return {}

    def _claimable(self, now: float) -> list[int]:
        """The seat on turn if it is a person away past the grace, so others may claim."""
        player = self._person_to_move()
        if player is None or self.connected(player):
            return []
        since = self.away.get(player)
        if since is None or now - since < self.worker.grace_seconds:
            return []
        return [player]

    async def _claim(self, seat: int) -> dict[str, Any]:
        player = self._person_to_move()
        if player is None or player == seat:
            raise RefusedError("only a seat on turn that has gone away can be claimed")
        await self.reread_presence()
        if self.connected(player):
            raise RefusedError(f"P{player} is connected: the match cannot be claimed")
        now = self.worker.now()
        if not self._claimable(now):
            away = now - (self.away.get(player) or now)
            raise RefusedError(
                f"P{player} has been away {away:.0f} s of the {self.worker.grace_seconds:g} s "
                "grace before the match can be claimed"
            )
        return await self._end("claimed", player)

    async def _take_back(self, seat: int, answer: str) -> dict[str, Any]:
        proposal = self.proposal
        if answer == "propose":
            if proposal is not None:
                raise RefusedError(f"P{proposal.by} has proposed a take-back already")
            self.match.verify_take_back(seat)
            waiting = self._takers(seat)
            if waiting:
                self.proposal = Proposal(by=seat, version=self.version, waiting=waiting)
                return {}
            return await self._taken_back(seat)
        if proposal is None or seat not in proposal.waiting - proposal.accepted:
            raise RefusedError("no take-back awaits your answer")
        if answer == "decline":
            self.proposal = None
            return {}
        proposal = attrs.evolve(proposal, accepted=proposal.accepted | {seat})
        self.proposal = proposal
        if proposal.accepted == proposal.waiting:
            return await self._taken_back(proposal.by)
        return {}

    def _takers(self, seat: int) -> frozenset[int]:
        """The other people whose moves taking back ``seat``'s last turn would undo."""
        rules, history = self.rules, self.match.history
        turn = max(i for i in range(self.version) if rules.current_player(history[i]) == seat)
        movers = (rules.current_player(history[i]) for i in range(turn, self.version))
        return frozenset(m for m in movers if m is not None and m != seat and self._is_person(m))

    async def _taken_back(self, seat: int) -> dict[str, Any]:
        """Take back ``seat``'s last turn; the clocks go back to those stored with the last
        move kept (every bank full at the start, as a reload finds them).
        """
        self.match.take_back(seat)
        keep = self.version
        self.proposal, self.timed_out = None, None
        clocks = self.clocks
        if clocks is not None:
            now = self.worker.now()
            kept = await self.worker.store.moves(self.id, after=keep - 1) if keep else ()
            if kept and kept[0].clock is not None:
                clocks = clocks.with_stored(kept[0].clock)
            elif not keep:
                clocks = Clocks.start(clocks.rule, players=len(clocks.banks), now=now)
            self.clocks = clocks.restarted(now=now)
        return {"keep": keep}

    async def join(self, seat: int | None, name: str) -> tuple[int, str]:
        """Seat a person at ``seat`` (``None``: the first free one); its seat and token."""
        if self.status != "open":
            raise RefusedError("the match has no free seat: it has started", 409)
        free = [row.seat for row in self.seats if row.kind == "person" and not row.taken]
        if not free:
            raise RefusedError("the match has no free seat", 409)
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise RefusedError(
                f"seat {seat} is not free; the free seats are {', '.join(map(str, free))}", 409
            )
        token = new_token()
        chosen = seat

        async def seat_them() -> dict[str, Any]:
            self.seats[chosen] = attrs.evolve(self.seats[chosen], name=name, taken=True)
            if len(free) == 1:
                now = self.worker.now()
                self.status, self.started = "playing", now
                rule = self.settings.clock
                if rule is not None:
                    self.clocks = Clocks.start(rule, players=len(self.seats), now=now)
            change = SeatChange(seat=chosen, taken=True, name=name, token_hash=hash_token(token))
            return {"seat": change}

        await self._change(seat_them)
        return seat, token

    async def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves: frees the seat before the match starts, resigns
        once it has; refused once the match is over.
        """
        if self.status == "over":
            raise RefusedError("the match is over", 409)
        if self.status == "playing":
            await self._change(lambda: self._end("resigned", seat))
            return

        async def free_it() -> dict[str, Any]:
            self.seats[seat] = attrs.evolve(self.seats[seat], name="", taken=False)
            return {"seat": SeatChange(seat=seat, taken=False)}

        await self._change(free_it)
        for client in list(self.clients):
            if client.seat == seat:
                await self.drop(client)

    # --- clocks and bots ------------------------------------------------------------------

    async def check_clock(self) -> bool:
        """Act on a seat whose time ran out (per the match's timeout); whether one had."""
        clocks, player = self.clocks, self._person_to_move()
        if clocks is None or player is None or self.timed_out is not None:
            return False
        if self.worker.now() < clocks.deadline(player):
            return False
        if self.settings.timeout == "forfeit":
            await self._change(lambda: self._end("timeout", player))
        else:

            async def time_out() -> dict[str, Any]:
                self.timed_out = (player, self.version)
                return {}

            await self._change(time_out)
        return True

    def _bot_job(self, *, leased: bool = True) -> _BotJob | None:
        """The move the server is to play now, if any: a bot's, chance's or a timed-out
        seat's (with ``leased``, only in a match whose lease this worker holds).
        """
        player = self.match.current_player if self.status == "playing" else None
        if player is None or (leased and not self.leased):
            return None
        if player == CHANCE or self.seats[player].kind == "bot":
            return _BotJob(self.revision, self.version, player, timed_out=False)
        if self.timed_out == (player, self.version):
            return _BotJob(self.revision, self.version, player, timed_out=True)
        return None

    def schedule(self) -> None:
        """Start playing the server's moves if one is due and none is under way (the
        caller holds the lock).
        """
        if self._bots is None and not self._stopped and self._bot_job() is not None:
            self._bots = asyncio.create_task(self._play_bots())

    @property
    def playing_bots(self) -> bool:
        """Whether the room's bots are thinking or moving now."""
        return self._bots is not None

    async def _play_bots(self) -> None:
        """Play the server's moves, each chosen off the event loop, until a person is to
        move, the match is over or another worker changed it; a move that comes too late
        for its table is dropped.
        """
        try:
            while True:
                async with self.lock:
                    job = None if self._stopped else self._bot_job()
                    if job is None:
                        self._bots = None
                        return
                    view = None if job.seat == CHANCE else self.match.view(job.seat)
                    state = self.match.state
                move = await self._choose(job, view, state)
                began = time.perf_counter()  # the bot's thinking is not the server's latency
                async with self.lock:
                    if self._stopped or self._bot_job() != job:
                        continue
                    try:
                        await self._commit_bot(job, move, view)
                    except StaleError:  # another worker moved first: catch up
                        await self.refresh()
                        await self.broadcast()
                        continue
                    await self.announce()
                    if self.worker.metrics is not None:
                        self.worker.metrics.moved("server", time.perf_counter() - began)
        except Exception:  # a bug, or the store down: the lease runs out and a worker retries
            log.exception("match %s: the server's move failed", self.id, extra={"match": self.id})
        finally:
            if self._bots is asyncio.current_task():
                self._bots = None

    async def _commit_bot(self, job: _BotJob, move: Any, view: Any) -> None:
        """Commit ``job``'s move; a move the rules refuse (a bot's bug) is replaced by a
        random one.
        """
        try:
            await self._change(lambda: self._played(job, move))
        except StaleError:
            raise
        except TabletopError as error:
            log.error(
                "match %s: the bot's move was refused: %s", self.id, error, extra={"match": self.id}
            )
            await self._change(lambda: self._played(job, self._random(job, view)))

    async def _played(self, job: _BotJob, move: Any) -> dict[str, Any]:
        return self._play(job.seat, move, timed=job.timed_out)

    async def _choose(self, job: _BotJob, view: Any, state: Any) -> Any:
        """The move of ``job``: a chance outcome drawn from the game's seed, or the seat's
        bot's choice within the time budget (else a random bot's), both seeded from the
        game's seed and the version, so any worker, restarted or not, plays the same.
        """
        seed = derived_seed(self.match.seed, job.version)
        if job.seat == CHANCE:
            chances = self.rules.chance_probabilities(state)
            return sample_outcome(chances, Rng.from_seed(seed))[0]
        name = self.seats[job.seat].bot or own_bot_name(self.rules)
        bot: Bot[Any, Any] = self.rules.bots[name](derived_seed(seed, 1 + job.seat))
        seconds = self.worker.bot_seconds
        try:
            return await asyncio.wait_for(asyncio.to_thread(bot.choose, view), seconds)
        except Exception:
            log.warning("match %s: bot %s gave no move in time; a random one plays", self.id, name)
            return self._random(job, view)

    def _random(self, job: _BotJob, view: Any) -> Any:
        """A random legal move for ``job``'s seat, seeded as its bot is."""
        seed = derived_seed(self.match.seed, job.version)
        return RandomBot(self.rules, derived_seed(seed, 0)).choose(view)

    async def stop(self) -> None:
        """Stop the room's bots for good (the worker shuts down): a move under way
        finishes first, and a bot still choosing plays nothing.

        The bots' task is awaited outside the lock: a cancellation can be lost (Python
        3.11's ``asyncio.wait_for`` returns a result that lands just then), and the task
        must then be able to take the lock to see that the room has stopped.
        """
        async with self.lock:
            self._stopped = True
            task = self._bots
            if task is not None:
                task.cancel()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)


async def _snapshot(
    store: Store, match_id: str, *, after: int
) -> tuple[StoredMatch, tuple[StoredMove, ...], tuple[SeatRow, ...]] | None:
    """The match as stored, its moves after ``after`` and its seats, all of one revision
    (read again while another worker's commit lands in between); ``None`` if there is none.
    """
    read = None
    for _attempt in range(_SNAPSHOT_TRIES):
        stored = await store.match(match_id)
        if stored is None:
            return None
        read = stored, await store.moves(match_id, after=after), await store.seats(match_id)
        if (await store.revisions([match_id])).get(match_id) == stored.revision:
            break
    return read  # a match changing this fast: its next change refreshes it again


_SNAPSHOT_TRIES = 5
"""How often a snapshot is read again before the room takes what it has."""


def match_id() -> str:
    """A fresh match id: 72 random bits, URL-safe."""
    return secrets.token_urlsafe(9)
