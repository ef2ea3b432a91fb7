"""One live match in the server's memory: the :class:`~tabletop_rules.match.Match`, its
seats, the clients watching it, its clocks and a take-back proposed. Everything a client
may change goes through a :class:`Room` under its lock, is committed to the store, and
only then sent: every client gets its own table (:func:`~tabletop_rules.table.seat_table`
for its seat), built here and nowhere else.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import attrs

from .._seats import top_seats
from ..bots import RandomBot, own_bot_name
from ..errors import IllegalMoveError, TabletopError
from ..game import CHANCE
from ..match import Match
from ..protocol import Bot, Ruleset, get_ruleset
from ..rng import Rng, derived_seed, sample_outcome
from ..table import seat_table
from .clock import Clocks, TimeSource
from .messages import Claim, Message, Move, RefusedError, Resign, Sync, TakeBack
from .store import MatchSettings, Result, SeatRow, Store, StoredMatch, new_token

__all__ = ["Client", "Proposal", "Room", "match_id"]

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""How a room sends one client a message (JSON data)."""

SEND_SECONDS = 10.0
"""How long a send to one client may take before the client is dropped."""


class Client:
    """One connection to a room: its ``seat`` (``None``: a spectator), how to ``send`` it
    a message, and its ``cursor``, the moves of the log it has been sent.
    """

    def __init__(self, send: Send, seat: int | None, cursor: int) -> None:
        self.send = send
        self.seat = seat
        self.cursor = cursor
        self.closed = False


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


@attrs.frozen
class _BotJob:
    """A move the server plays itself: by ``seat``'s bot (or chance), for ``version``
    reached by the room's ``changes``-th change (a take-back and new moves may reach the
    same version in another state).
    """

    changes: int
    version: int
    seat: int
    timed_out: bool


class Room:
    """A match in play: load one with :meth:`load`. Callers hold its ``lock`` around
    :meth:`act`, :meth:`join`, :meth:`leave` and :meth:`check_clock`; each raises a
    :class:`~tabletop_rules.errors.TabletopError` that says why it refuses, nothing changed.
    """

    def __init__(
        self,
        *,
        stored: StoredMatch,
        seats: tuple[SeatRow, ...],
        match: Match[Any, Any, Any],
        store: Store,
        now: TimeSource,
        bot_seconds: float,
        grace_seconds: float,
    ) -> None:
        self.id = stored.id
        self.match = match
        self.rules: Ruleset[Any, Any, Any] = match.rules
        self.settings: MatchSettings = stored.settings
        self.status: Literal["open", "playing", "over"] = stored.status
        self.result = stored.result
        self.created = stored.created
        self.seats = list(seats)
        self.store = store
        self.now = now
        self.bot_seconds = bot_seconds
        self.grace_seconds = grace_seconds
        self.clients: list[Client] = []
        self.clocks: Clocks | None = None
        self.proposal: Proposal | None = None
        self.timed_out: tuple[int, int] | None = None  # (seat, version) its bot is to play
        self.changes = 0  # moves played and taken back since the room was loaded
        self.lock = asyncio.Lock()
        loaded = now()
        self.absent_since = {row.seat: loaded for row in seats if row.kind == "person"}
        self._bots: asyncio.Task[None] | None = None
        self._delayed: Match[Any, Any, Any] | None = None

    @classmethod
    def load(
        cls, store: Store, match_id: str, *, now: TimeSource, bot_seconds: float, grace: float
    ) -> Room | None:
        """The match stored as ``match_id``, its record replayed through
        :class:`~tabletop_rules.match.Match` and its clocks resumed; ``None`` if there is none.
        """
        stored = store.match(match_id)
        if stored is None:
            return None
        moves = store.moves(match_id)
        record = attrs.evolve(stored.head, moves=tuple(row.move for row in moves))
        rules = get_ruleset(record.game)
        room = cls(
            stored=stored,
            seats=store.seats(match_id),
            match=Match.from_record(rules, record),
            store=store,
            now=now,
            bot_seconds=bot_seconds,
            grace_seconds=grace,
        )
        rule = stored.settings.clock
        if rule is not None and stored.started is not None:
            clocks = Clocks.start(rule, players=len(room.seats), now=stored.started)
            if moves and moves[-1].clock is not None:
                clocks = clocks.with_stored(moves[-1].clock)
            room.clocks = clocks.restarted(now=now()) if room.status == "playing" else clocks
        return room

    @property
    def version(self) -> int:
        """The moves played so far."""
        return len(self.match.moves)

    # --- what clients see -----------------------------------------------------------------

    def info(self, seat: int | None, *, delayed: bool = False) -> dict[str, Any]:
        """The match beside the table, as ``seat`` (``None``: a spectator) may see it: its
        seats (who is there), status, result, clocks and a take-back proposed. A delayed
        spectator gets neither clocks nor proposal, which would tell the present.
        """
        now = self.now()
        present = {client.seat for client in self.clients if not client.closed}
        seats = [{**row.to_json(), "connected": row.seat in present} for row in self.seats]
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
        if client.closed:
            return
        try:
            await asyncio.wait_for(client.send(message), SEND_SECONDS)
        except Exception:  # a closed or stuck socket: the client reconnects by its cursor
            self.drop(client)

    async def broadcast(self) -> None:
        """Send every client its table."""
        for client in list(self.clients):
            await self.send(client, self.table(client))

    async def refuse(self, client: Client, reason: str) -> None:
        """Tell ``client`` why its message was refused, with a fresh table."""
        await self.send(client, {**self.table(client), "type": "refused", "reason": reason})

    def add(self, client: Client) -> None:
        """A client joins the room (its seat is no longer away)."""
        self.clients.append(client)
        if client.seat is not None:
            self.absent_since.pop(client.seat, None)

    def drop(self, client: Client) -> None:
        """A client leaves; its seat is away from now if it has no other connection."""
        client.closed = True
        if client in self.clients:
            self.clients.remove(client)
        seat = client.seat
        if seat is not None and all(other.seat != seat for other in self.clients):
            self.absent_since[seat] = self.now()

    # --- what clients do ------------------------------------------------------------------

    def act(self, seat: int | None, message: Message) -> bool:
        """Do what ``seat`` (``None``: a spectator) asks; whether anything changed."""
        if isinstance(message, Sync):
            return False
        if seat is None:
            raise RefusedError("a spectator watches: it cannot move, resign or claim", 403)
        if self.status != "playing":
            raise RefusedError(self._not_playing())
        if isinstance(message, Move):
            self._move(seat, message)
        elif isinstance(message, Resign):
            self._end("resigned", seat)
        elif isinstance(message, Claim):
            self._claim(seat)
        elif isinstance(message, TakeBack):
            self._take_back(seat, message.answer)
        else:
            raise RefusedError(f"a {type(message).__name__.lower()} message is said only once")
        return True

    def _not_playing(self) -> str:
        if self.status == "over":
            return "the match is over"
        free = [row.seat for row in self.seats if row.kind == "person" and not row.taken]
        return f"the match waits for people at seats {', '.join(map(str, free))}"

    def _move(self, seat: int, message: Move) -> None:
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
        self._commit(seat, move, timed=True)

    def _whose(self, player: int | None) -> str:
        return {None: "nobody is", CHANCE: "chance is"}.get(player, f"P{player} is")

    def _commit(self, seat: int, move: Any, *, timed: bool) -> None:
        """Play ``move`` for ``seat`` (or chance), store it, and end the match if it ended
        the game; the match is as it was if the store refuses.
        """
        now = self.now()
        self.match.play(move, seat=None if seat == CHANCE else seat)
        clocks = self.clocks
        if clocks is not None:
            clocks = clocks.after_move(seat if timed and self._is_person(seat) else None, now=now)
        result = None
        if self.match.is_over:
            result = Result(reason="played", seat=None, winners=tuple(sorted(self.match.winners)))
        try:
            self.store.add_move(
                self.id,
                self.version,
                seat=seat,
                move=self.rules.format_move(self.match.moves[-1]),
                now=now,
                clock=None if clocks is None else clocks.to_json(),
                result=result,
            )
        except BaseException:
            self.match.undo()
            raise
        self.clocks, self.proposal, self.timed_out = clocks, None, None
        self.changes += 1
        if result is not None:
            self.status, self.result = "over", result

    def _is_person(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].kind == "person"

    def _person_to_move(self) -> int | None:
        player = self.match.current_player if self.status == "playing" else None
        return player if player is not None and self._is_person(player) else None

    def _end(self, reason: Literal["resigned", "timeout", "claimed"], loser: int) -> None:
        """End the match, ``loser`` losing: the others' top scores win."""
        scores = self.match.score
        others = [seat for seat in range(len(scores)) if seat != loser]
        top = top_seats([scores[seat] for seat in others])
        result = Result(reason=reason, seat=loser, winners=tuple(others[i] for i in sorted(top)))
        self.store.set_status(self.id, "over", result=result, now=self.now())
        self.status, self.result, self.proposal, self.timed_out = "over", result, None, None

    def _claimable(self, now: float) -> list[int]:
        """The seat on turn if it is a person away past the grace, so others may claim."""
        player = self._person_to_move()
        since = self.absent_since.get(player) if player is not None else None
        if player is None or since is None or now - since < self.grace_seconds:
            return []
        return [player]

    def _claim(self, seat: int) -> None:
        player = self._person_to_move()
        if player is None or player == seat:
            raise RefusedError("only a seat on turn that has gone away can be claimed")
        since = self.absent_since.get(player)
        if since is None:
            raise RefusedError(f"P{player} is connected: the match cannot be claimed")
        if not self._claimable(self.now()):
            away = self.now() - since
            raise RefusedError(
                f"P{player} has been away {away:.0f} s of the {self.grace_seconds:g} s grace "
                "before the match can be claimed"
            )
        self._end("claimed", player)

    def _take_back(self, seat: int, answer: str) -> None:
        proposal = self.proposal
        if answer == "propose":
            if proposal is not None:
                raise RefusedError(f"P{proposal.by} has proposed a take-back already")
            self.match.verify_take_back(seat)
            waiting = self._takers(seat)
            if waiting:
                self.proposal = Proposal(by=seat, version=self.version, waiting=waiting)
            else:
                self._taken_back(seat)
            return
        if proposal is None or seat not in proposal.waiting - proposal.accepted:
            raise RefusedError("no take-back awaits your answer")
        if answer == "decline":
            self.proposal = None
            return
        proposal = attrs.evolve(proposal, accepted=proposal.accepted | {seat})
        self.proposal = proposal
        if proposal.accepted == proposal.waiting:
            self._taken_back(proposal.by)

    def _takers(self, seat: int) -> frozenset[int]:
        """The other people whose moves taking back ``seat``'s last turn would undo."""
        rules, history = self.rules, self.match.history
        turn = max(i for i in range(self.version) if rules.current_player(history[i]) == seat)
        movers = (rules.current_player(history[i]) for i in range(turn, self.version))
        return frozenset(m for m in movers if m is not None and m != seat and self._is_person(m))

    def _taken_back(self, seat: int) -> None:
        """Take back ``seat``'s last turn, in the store first."""
        keep = self.version - len(self._undo_preview(seat))
        self.store.take_back(self.id, keep)
        self.match.take_back(seat)
        self.proposal, self.timed_out = None, None
        self.changes += 1
        clocks = self.clocks
        if clocks is not None:
            stored = self.store.moves(self.id)
            if stored and stored[-1].clock is not None:
                clocks = clocks.with_stored(stored[-1].clock)
            elif not stored:  # back to the start: every bank full, as a reload finds them
                clocks = Clocks.start(clocks.rule, players=len(clocks.banks), now=self.now())
            self.clocks = clocks.restarted(now=self.now())

    def _undo_preview(self, seat: int) -> tuple[Any, ...]:
        """The moves :meth:`Match.take_back` would take back for ``seat`` (checked fair)."""
        self.match.verify_take_back(seat)
        rules, history = self.rules, self.match.history
        turn = max(i for i in range(self.version) if rules.current_player(history[i]) == seat)
        return self.match.moves[turn:]

    def join(self, seat: int | None, name: str) -> tuple[int, str]:
        """Seat a person at ``seat`` (``None``: the first free one); its seat and token."""
        if self.status != "open":
            raise RefusedError("the match has no free seat: it has started", 409)
        free = [row.seat for row in self.seats if row.kind == "person" and not row.taken]
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise RefusedError(
                f"seat {seat} is not free; the free seats are {', '.join(map(str, free))}", 409
            )
        token = new_token()
        if not self.store.take_seat(self.id, seat, name, token):
            raise RefusedError(f"seat {seat} was taken a moment ago", 409)
        self.seats[seat] = attrs.evolve(self.seats[seat], name=name, taken=True)
        if len(free) == 1:
            now = self.now()
            self.store.set_status(self.id, "playing", now=now)
            self.status = "playing"
            rule = self.settings.clock
            if rule is not None:
                self.clocks = Clocks.start(rule, players=len(self.seats), now=now)
        return seat, token

    def leave(self, seat: int) -> None:
        """The person at ``seat`` leaves: frees the seat before the match starts, resigns
        once it has; refused once the match is over.
        """
        if self.status == "over":
            raise RefusedError("the match is over", 409)
        if self.status == "playing":
            self._end("resigned", seat)
            return
        self.store.free_seat(self.id, seat)
        self.seats[seat] = attrs.evolve(self.seats[seat], name="", taken=False)
        for client in list(self.clients):
            if client.seat == seat:
                self.drop(client)

    # --- clocks and bots ------------------------------------------------------------------

    def check_clock(self) -> bool:
        """Act on a seat whose time ran out (per the match's timeout); whether one had."""
        clocks, player = self.clocks, self._person_to_move()
        if clocks is None or player is None or self.timed_out is not None:
            return False
        if self.now() < clocks.deadline(player):
            return False
        if self.settings.timeout == "forfeit":
            self._end("timeout", player)
        else:
            self.timed_out = (player, self.version)
        return True

    def _bot_job(self) -> _BotJob | None:
        """The move the server is to play now, if any: a bot's, chance's or a timed-out seat's."""
        player = self.match.current_player if self.status == "playing" else None
        if player is None:
            return None
        if player == CHANCE or self.seats[player].kind == "bot":
            return _BotJob(self.changes, self.version, player, timed_out=False)
        if self.timed_out == (player, self.version):
            return _BotJob(self.changes, self.version, player, timed_out=True)
        return None

    def schedule(self) -> None:
        """Start playing the server's moves if one is due and none is under way (the
        caller holds the lock).
        """
        if self._bots is None and self._bot_job() is not None:
            self._bots = asyncio.create_task(self._play_bots())

    async def _play_bots(self) -> None:
        """Play the server's moves, each chosen off the event loop, until a person is to
        move or the match is over; a move that comes too late for its table is dropped.
        """
        try:
            while True:
                async with self.lock:
                    job = self._bot_job()
                    if job is None:
                        self._bots = None
                        return
                    view = None if job.seat == CHANCE else self.match.view(job.seat)
                    state = self.match.state
                move = await self._choose(job, view, state)
                async with self.lock:
                    if self._bot_job() != job:
                        continue
                    try:
                        self._commit(job.seat, move, timed=job.timed_out)
                    except TabletopError as error:  # a bot's own bug: a random move instead
                        log.error("match %s: the bot's move was refused: %s", self.id, error)
                        self._commit(job.seat, self._random(job, view), timed=job.timed_out)
                    await self.broadcast()
        except Exception:  # a bug: the match waits, and the next change tries again
            log.exception("match %s: the server's move failed", self.id)
        finally:
            if self._bots is asyncio.current_task():
                self._bots = None

    async def _choose(self, job: _BotJob, view: Any, state: Any) -> Any:
        """The move of ``job``: a chance outcome drawn from the game's seed, or the seat's
        bot's choice within the time budget (else a random bot's), both seeded from the
        game's seed and the version, so a restarted server plays the same.
        """
        seed = derived_seed(self.match.seed, job.version)
        if job.seat == CHANCE:
            chances = self.rules.chance_probabilities(state)
            return sample_outcome(chances, Rng.from_seed(seed))[0]
        name = self.seats[job.seat].bot or own_bot_name(self.rules)
        bot: Bot[Any, Any] = self.rules.bots[name](derived_seed(seed, 1 + job.seat))
        try:
            return await asyncio.wait_for(asyncio.to_thread(bot.choose, view), self.bot_seconds)
        except Exception:
            log.warning("match %s: bot %s gave no move in time; a random one plays", self.id, name)
            return self._random(job, view)

    def _random(self, job: _BotJob, view: Any) -> Any:
        """A random legal move for ``job``'s seat, seeded as its bot is."""
        seed = derived_seed(self.match.seed, job.version)
        return RandomBot(self.rules, derived_seed(seed, 0)).choose(view)

    async def stop(self) -> None:
        """Stop the room's bots (the server shuts down)."""
        task = self._bots
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


def match_id() -> str:
    """A fresh match id: 72 random bits, URL-safe."""
    return secrets.token_urlsafe(9)
