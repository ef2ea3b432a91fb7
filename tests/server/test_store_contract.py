"""One contract for every store: the same tests run on SQLite (in memory, or in a file
where a test opens the database twice) in the quick tier and on Postgres (a fresh
database of the tests' own throwaway cluster, tests/server/services.py) in the slow tier.

What they hold each store to: a change is stored whole or not at all, at the revision it
was written for and no other; of many changes racing for one revision exactly one is
stored; the schema is migrated once however many workers start; presence, leases and the
downtime forgiven at a restart mean the same on both. Postgres alone is stopped under a
transaction: the store then answers promptly that it is unavailable, keeps nothing of
what it was writing, and works again once the database is back.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import ConfigError, InvalidStateError
from tabletop_rules.records import GameRecord

pytest.importorskip("starlette")

from tabletop_rules.server.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from tabletop_rules.server.sqlite import SQLiteStore
from tabletop_rules.server.store import (
    Live,
    MatchSettings,
    SeatChange,
    StaleError,
    Store,
    StoredMove,
    StoreUnavailableError,
    hash_token,
    new_token,
)
from tabletop_rules.server.stores import open_store

from .services import PostgresService

HEAD = GameRecord("dice-poker", dp.Config(stages=1), 7)
PEOPLE = ("person", "person")
PLAYING = Live(status="playing", started=10.0)
WAITING = (
    "SELECT 1 FROM pg_locks JOIN pg_stat_activity USING (pid) "
    "WHERE NOT granted AND datname = current_database()"
)
"""A lock waited for by a connection to the test's own database (a row's lock is waited
for on its holder's transaction, which names no database; another test's do not count).
"""


class Database:
    """One empty database of a kind (``"sqlite"`` or ``"postgres"``) for a test: it opens
    any number of stores on it, runs the test's coroutine, and closes every store after.
    """

    def __init__(self, kind: str, target: str) -> None:
        self.kind = kind
        self.target = target  # SQLite: the file; Postgres: the database's URL
        self._opened: list[Store] = []

    async def open(self, *, memory: bool = False, **options: Any) -> Store:
        """A new store on the database (SQLite: in memory instead, when ``memory``)."""
        if self.kind == "sqlite":
            store: Store = SQLiteStore(":memory:" if memory else self.target)
        else:
            from tabletop_rules.server.postgres import PostgresStore

            store = await PostgresStore.open(self.target, **options)
        self._opened.append(store)
        return store

    def run(self, scenario: Callable[[], Awaitable[None]]) -> None:
        """Run ``scenario`` on an event loop of its own; close the stores it opened."""

        async def main() -> None:
            try:
                await scenario()
            finally:
                for store in self._opened:
                    await store.close()
                self._opened.clear()

        asyncio.run(main())

    def versions(self) -> list[int]:
        """The schema versions the database records, read past the store."""
        sql = "SELECT version FROM schema_version ORDER BY version"
        if self.kind == "sqlite":
            with sqlite3.connect(self.target) as db:
                return [row[0] for row in db.execute(sql)]
        import psycopg

        with psycopg.connect(self.target) as conn:
            return [row[0] for row in conn.execute(sql)]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty database of each kind of store."""
    if request.param == "sqlite":
        yield Database("sqlite", str(tmp_path / "matches.db"))
        return
    pytest.importorskip("psycopg")
    yield Database("postgres", request.getfixturevalue("postgres_database"))


async def _a_match(store: Store, seats: tuple[str, ...] = PEOPLE, match_id: str = "m") -> None:
    await store.create_match(match_id, HEAD, MatchSettings(), seats, creator="ip", now=1.0)


def _move(number: int, text: str = "roll", at: float = 20.0) -> StoredMove:
    return StoredMove(number=number, seat=0, move=text, at=at, clock=None)


def _take(seat: int, name: str, token: str) -> SeatChange:
    return SeatChange(seat=seat, taken=True, name=name, token_hash=hash_token(token))


async def _revision(store: Store, match_id: str = "m") -> int:
    stored = await store.match(match_id)
    assert stored is not None
    return stored.revision


# --- schema -------------------------------------------------------------------------------


def test_migrations_run_once_and_a_reopen_runs_none(database: Database) -> None:
    async def scenario() -> None:
        every = list(range(1, len(SQLITE_MIGRATIONS) + 1))
        # workers starting together on an empty database: one of them migrates it
        first, *_ = await asyncio.gather(*(database.open() for _ in range(3)))
        assert database.versions() == every
        await _a_match(first)
        again = await database.open()  # a restart runs none
        assert database.versions() == every
        stored = await again.match("m")
        assert stored is not None
        assert stored.status == "open"

    database.run(scenario)


def test_both_stores_have_the_same_schema_versions() -> None:
    pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import MIGRATIONS as POSTGRES_MIGRATIONS

    assert len(POSTGRES_MIGRATIONS) == len(SQLITE_MIGRATIONS)


# --- commits ------------------------------------------------------------------------------


def test_a_commit_stores_the_live_state_and_the_lease_whole(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        clock = {"banks": [60.0, 60.0], "started": 10.0}
        live = Live(
            status="playing",
            started=10.0,
            proposal={"by": 0, "to": 1, "yes": [0]},
            timed_out=(1, 3),
            clock=clock,
            due=70.0,
        )
        token = new_token()
        revision = await store.commit(
            "m", 0, live, worker="w1", lease_until=15.0, seat=_take(0, "ann", token)
        )
        assert revision == 1
        stored = await store.match("m")
        assert stored is not None
        assert (stored.revision, stored.live, stored.lease, stored.lease_until) == (
            1,
            live,
            "w1",
            15.0,
        )
        assert await store.seat_of("m", token) == 0
        assert await store.seat_of("m", new_token()) is None
        assert [seat.taken for seat in await store.seats("m")] == [True, False]
        assert await store.revisions(["m", "nothing"]) == {"m": 1}
        assert await store.revisions([]) == {}
        assert [match.id for match in await store.matches("playing")] == ["m"]
        assert await store.matches("open") == ()
        assert await store.live_matches_of("ip") == 1

    database.run(scenario)


def test_two_commits_at_one_revision_the_second_is_stale_and_nothing_of_it_is_stored(
    database: Database,
) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        ann = new_token()
        await store.commit(
            "m", 0, PLAYING, worker="w1", lease_until=5.0, move=_move(1), seat=_take(0, "ann", ann)
        )
        late = Live(status="over", started=10.0, due=99.0)
        with pytest.raises(StaleError, match=r"revision 0 is past \(it is 1\); nothing was stored"):
            await store.commit(
                "m",
                0,
                late,
                worker="w2",
                lease_until=50.0,
                move=_move(2, "roll keep 1"),
                seat=_take(1, "bob", new_token()),
            )
        stored = await store.match("m")
        assert stored is not None
        assert (stored.revision, stored.live, stored.lease) == (1, PLAYING, "w1")
        assert [move.move for move in await store.moves("m")] == ["roll"]
        assert [seat.taken for seat in await store.seats("m")] == [True, False]
        with pytest.raises(StaleError, match="no match nothing is stored"):
            await store.commit("nothing", 0, PLAYING, worker="w1", lease_until=5.0)

    database.run(scenario)


def test_concurrent_commits_at_one_revision_exactly_one_wins(database: Database) -> None:
    async def scenario() -> None:
        # Postgres: two workers' pools, sixteen connections racing at once
        stores = [await database.open(min_size=8, max_size=8) for _ in range(2)]
        await _a_match(stores[0])
        for revision in range(4):
            number = revision + 1

            async def commit(racer: int, revision: int = revision, number: int = number) -> int:
                store = stores[racer % 2]
                try:
                    await store.commit(
                        "m",
                        revision,
                        PLAYING,
                        worker=f"w{racer % 2}",
                        lease_until=9.0,
                        move=_move(number, f"roll {racer}"),
                    )
                except StaleError:
                    return -1
                return racer

            won = [racer for racer in await asyncio.gather(*map(commit, range(16))) if racer >= 0]
            assert len(won) == 1
            moves = await stores[1].moves("m", after=revision)
            assert [move.move for move in moves] == [f"roll {won[0]}"]
            assert await _revision(stores[1]) == revision + 1

    database.run(scenario)


def test_the_last_free_seat_taken_concurrently_goes_to_exactly_one(database: Database) -> None:
    async def scenario() -> None:
        stores = [await database.open(min_size=6, max_size=6) for _ in range(2)]
        await _a_match(stores[0])
        await stores[0].commit(
            "m", 0, Live(status="open"), worker="w0", lease_until=1.0, seat=_take(0, "ann", "a")
        )
        tokens = [new_token() for _ in range(12)]

        async def join(client: int) -> bool:
            # as a worker does: read the match, try, and on a stale revision read again
            store = stores[client % 2]
            while True:
                revision = await _revision(store)
                if all(seat.taken for seat in await store.seats("m")):
                    return False
                try:
                    await store.commit(
                        "m",
                        revision,
                        PLAYING,
                        worker=f"w{client % 2}",
                        lease_until=1.0,
                        seat=_take(1, f"p{client}", tokens[client]),
                    )
                except StaleError:
                    continue
                return True

        seated = await asyncio.gather(*map(join, range(12)))
        assert seated.count(True) == 1
        winner = seated.index(True)
        assert [await stores[0].seat_of("m", token) for token in tokens] == [
            1 if client == winner else None for client in range(12)
        ]
        assert await _revision(stores[0]) == 2

    database.run(scenario)


def test_taking_a_taken_seat_is_stale_and_nothing_is_stored(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        await store.commit("m", 0, PLAYING, worker="w", lease_until=1.0, seat=_take(0, "ann", "a"))
        with pytest.raises(StaleError, match="seat 0 of match m was taken meanwhile"):
            await store.commit(
                "m", 1, PLAYING, worker="w", lease_until=1.0, move=_move(1), seat=_take(0, "b", "b")
            )
        assert await _revision(store) == 1
        assert await store.moves("m") == ()
        assert await store.seat_of("m", "a") == 0

    database.run(scenario)


def test_a_move_number_stored_twice_is_stale_and_nothing_of_it_is_stored(
    database: Database,
) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        await store.commit("m", 0, PLAYING, worker="w", lease_until=1.0, move=_move(1))
        with pytest.raises(StaleError, match="move 1 of match m is stored already"):
            await store.commit(
                "m", 1, Live(status="over"), worker="w2", lease_until=9.0, move=_move(1, "other")
            )
        stored = await store.match("m")
        assert stored is not None
        assert (stored.revision, stored.status, stored.lease) == (1, "playing", "w")
        assert [move.move for move in await store.moves("m")] == ["roll"]

    database.run(scenario)


def test_a_match_stored_twice_is_refused_with_a_library_error(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        with pytest.raises(InvalidStateError, match="a match m is stored already"):
            await _a_match(store)
        assert await _revision(store) == 0

    database.run(scenario)


def test_a_take_back_keep_deletes_the_later_moves(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        texts = ("roll", "roll keep 1", "write chance")
        for number, text in enumerate(texts, 1):
            await store.commit(
                "m", number - 1, PLAYING, worker="w", lease_until=1.0, move=_move(number, text)
            )
        assert await store.commit("m", 3, PLAYING, worker="w", lease_until=1.0, keep=1) == 4
        assert [move.move for move in await store.moves("m")] == ["roll"]
        stored = await store.match("m")
        assert stored is not None
        assert (stored.revision, stored.rewinds) == (4, 1)
        # the number taken back is free again, and a take-back may append its next move
        await store.commit(
            "m", 4, PLAYING, worker="w", lease_until=1.0, keep=0, move=_move(1, "roll again")
        )
        assert (await store.record("m")).moves == ("roll again",)

    database.run(scenario)


# --- presence -----------------------------------------------------------------------------


def test_a_seat_is_away_since_its_last_client_left(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        await store.commit("m", 0, PLAYING, worker="a", lease_until=1.0)
        for worker in ("a", "b"):
            await store.heartbeat(worker, now=20.0)
        assert await store.away("m", alive_after=15.0) == {0: 10.0, 1: 10.0}  # since the start
        for worker in ("a", "b", "b"):  # a client arriving twice at one worker counts once
            await store.present("m", 0, worker, here=True, now=20.0, alive_after=15.0)
        assert await store.away("m", alive_after=15.0) == {0: None, 1: 10.0}
        await store.present("m", 0, "a", here=False, now=30.0, alive_after=15.0)
        assert await store.away("m", alive_after=15.0) == {0: None, 1: 10.0}  # b holds one
        await store.present("m", 0, "b", here=False, now=40.0, alive_after=15.0)
        assert await store.away("m", alive_after=15.0) == {0: 40.0, 1: 10.0}

    database.run(scenario)


def test_a_dead_workers_clients_count_as_away_since_it_was_last_seen(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        await store.commit("m", 0, PLAYING, worker="a", lease_until=1.0)
        await store.heartbeat("a", now=20.0)
        await store.present("m", 0, "a", here=True, now=20.0, alive_after=15.0)
        await store.heartbeat("b", now=50.0)
        await store.present("m", 1, "b", here=True, now=50.0, alive_after=45.0)
        # a was last seen at 20: once it counts as dead, its client is away from then
        assert await store.away("m", alive_after=19.0) == {0: None, 1: None}
        assert await store.away("m", alive_after=45.0) == {0: 20.0, 1: None}

    database.run(scenario)


def test_a_released_worker_ends_its_leases_and_its_clients_are_away_from_then(
    database: Database,
) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store)
        await store.commit("m", 0, PLAYING, worker="a", lease_until=100.0)
        await store.heartbeat("a", now=20.0)
        await store.present("m", 0, "a", here=True, now=20.0, alive_after=15.0)
        await store.release("a", now=30.0)
        assert await store.away("m", alive_after=15.0) == {0: 30.0, 1: 10.0}
        stored = await store.match("m")
        assert stored is not None
        assert (stored.lease, stored.lease_until) == ("a", 0.0)
        assert await store.claim_lease("m", "b", now=31.0, until=40.0)

    database.run(scenario)


# --- leases -------------------------------------------------------------------------------


def test_a_lease_is_claimed_held_renewed_by_its_holder_and_claimed_once_expired(
    database: Database,
) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        await _a_match(store, seats=("random", "random"))  # playing from the start
        assert await store.claim_lease("m", "a", now=0.0, until=10.0)
        assert not await store.claim_lease("m", "b", now=5.0, until=15.0)  # held
        assert await store.claim_lease("m", "a", now=9.0, until=20.0)  # its own, renewed
        assert not await store.claim_lease("m", "b", now=15.0, until=25.0)
        assert await store.claim_lease("m", "b", now=21.0, until=30.0)  # expired
        stored = await store.match("m")
        assert stored is not None
        assert (stored.lease, stored.lease_until) == ("b", 30.0)
        # a commit takes the lease, whoever held it
        await store.commit("m", 0, PLAYING, worker="c", lease_until=35.0)
        assert not await store.claim_lease("m", "b", now=31.0, until=40.0)

    database.run(scenario)


def test_a_lease_raced_for_by_many_workers_goes_to_one(database: Database) -> None:
    async def scenario() -> None:
        stores = [await database.open(min_size=4, max_size=4) for _ in range(2)]
        await _a_match(stores[0], seats=("random", "random"))

        async def claim(worker: int) -> bool:
            return await stores[worker % 2].claim_lease("m", f"w{worker}", now=1.0, until=9.0)

        won = await asyncio.gather(*map(claim, range(8)))
        assert won.count(True) == 1
        stored = await stores[0].match("m")
        assert stored is not None
        assert stored.lease == f"w{won.index(True)}"

    database.run(scenario)


def test_due_matches_are_those_in_play_due_and_unleased_soonest_first(database: Database) -> None:
    async def scenario() -> None:
        store = await database.open(memory=True)
        for name, due in (("late", 30.0), ("soon", 10.0), ("later", 50.0), ("leased", 5.0)):
            await _a_match(store, match_id=name)
            await store.commit(
                name, 0, Live(status="playing", due=due), worker="x", lease_until=0.0
            )
        await _a_match(store, match_id="open")  # waiting for people: nothing to do
        await _a_match(store, match_id="idle")
        await store.commit("idle", 0, PLAYING, worker="x", lease_until=0.0)  # due: None
        await _a_match(store, match_id="over")
        await store.commit("over", 0, Live(status="over", due=1.0), worker="x", lease_until=0.0)
        assert await store.claim_lease("leased", "y", now=1.0, until=100.0)
        assert await store.due_matches(now=40.0, limit=10) == ("soon", "late")
        assert await store.due_matches(now=60.0, limit=2) == ("soon", "late")
        assert await store.due_matches(now=200.0, limit=10) == ("leased", "soon", "late", "later")

    database.run(scenario)


# --- restarts -----------------------------------------------------------------------------


def test_resume_forgives_a_downtime_once_when_two_workers_start_together(
    database: Database,
) -> None:
    async def scenario() -> None:
        first, second = await database.open(), await database.open()
        await _a_match(first)
        timed = Live(
            status="playing",
            started=10.0,
            clock={"banks": [60.0, 60.0], "started": 90.0},
            due=150.0,
        )
        await first.commit("m", 0, timed, worker="old", lease_until=100.0)
        await first.heartbeat("old", now=100.0)
        await first.present("m", 0, "old", here=True, now=100.0, alive_after=95.0)
        await first.present("m", 0, "old", here=False, now=100.0, alive_after=95.0)
        forgiven = await asyncio.gather(
            first.resume("w1", now=1100.0, down_after=30.0),
            second.resume("w2", now=1100.0, down_after=30.0),
        )
        assert sorted(forgiven) == [0.0, 1000.0]
        stored = await second.match("m")
        assert stored is not None
        assert stored.revision == 2
        assert stored.live.clock == {"banks": [60.0, 60.0], "started": 1090.0}
        assert stored.live.due == 1150.0
        assert (await second.away("m", alive_after=1090.0))[0] == 1100.0
        # a worker starting while another is alive forgives nothing
        assert await second.resume("w3", now=1110.0, down_after=30.0) == 0.0
        assert await _revision(second) == 2

    database.run(scenario)


# --- Postgres alone -----------------------------------------------------------------------


def test_a_store_url_without_psycopg_says_to_install_the_cluster_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tabletop_rules.server as server

    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.setitem(sys.modules, "psycopg_pool", None)
    monkeypatch.delitem(sys.modules, "tabletop_rules.server.postgres", raising=False)
    monkeypatch.setattr(server, "postgres", None, raising=False)
    with pytest.raises(ConfigError, match=r"pip install 'tabletop-rules\[cluster\]'"):
        asyncio.run(open_store("postgresql://game@127.0.0.1:1/tabletop"))


@pytest.mark.slow
def test_a_busy_pool_refuses_for_a_retry_without_failing_the_work_under_way(
    postgres_database: str,
) -> None:
    psycopg = pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import PostgresStore

    async def scenario() -> None:
        store = await PostgresStore.open(postgres_database, min_size=1, max_size=1, timeout=0.5)
        try:
            await _a_match(store)
            blocker = psycopg.connect(postgres_database)
            blocker.execute("SELECT 1 FROM matches WHERE id = 'm' FOR UPDATE")
            # the pool's one connection waits on the lock, in a commit under way
            commit = asyncio.create_task(
                store.commit("m", 0, PLAYING, worker="w", lease_until=9.0, move=_move(1))
            )
            with psycopg.connect(postgres_database, autocommit=True) as watcher:
                while not watcher.execute(WAITING).fetchall():
                    await asyncio.sleep(0.02)
            with pytest.raises(StoreUnavailableError, match="the database is busy"):
                await store.match("m")
            blocker.rollback()
            blocker.close()
            assert await commit == 1  # the work under way was not failed
            stored = await store.match("m")  # the same pool serves on
            assert stored is not None
            assert stored.revision == 1
        finally:
            await store.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_stopped_postgres_is_unavailable_promptly_and_nothing_half_written_remains(
    postgres_service: PostgresService,
    postgres_database: str,
) -> None:
    psycopg = pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import PROBE_SECONDS, PostgresStore

    timeout = 2.0

    async def scenario() -> None:
        store = await PostgresStore.open(postgres_database, timeout=timeout)
        blocker = None
        try:
            await _a_match(store)
            # a commit caught mid-transaction: the match's row rewritten, the seat's locked
            blocker = psycopg.connect(postgres_database)
            blocker.execute("SELECT 1 FROM seats WHERE match_id = 'm' AND seat = 0 FOR UPDATE")

            async def first_roll() -> int:
                return await store.commit(
                    "m",
                    0,
                    PLAYING,
                    worker="w",
                    lease_until=9.0,
                    move=_move(1),
                    seat=_take(0, "a", "a"),
                )

            commit = asyncio.create_task(first_roll())
            with psycopg.connect(postgres_database, autocommit=True) as watcher:
                while not watcher.execute(WAITING).fetchall():
                    await asyncio.sleep(0.02)
            await asyncio.to_thread(postgres_service.stop)
            stopped = time.monotonic()
            # mostly refused; but the stop may end the blocker first, freeing its lock for the
            # commit to get in, whole, before its own connection ends
            (outcome,) = await asyncio.gather(commit, return_exceptions=True)
            committed = not isinstance(outcome, BaseException)
            if not committed:
                assert isinstance(outcome, StoreUnavailableError), outcome
                assert "the database did not answer" in str(outcome)
            assert time.monotonic() - stopped < timeout + 1
            if committed:  # the store has yet to meet the stopped database: this call does
                asked = time.monotonic()
                with pytest.raises(StoreUnavailableError, match="nothing was stored"):
                    await store.match("m")
                assert time.monotonic() - asked < timeout + 1
            for _ in range(3):  # while it is down, a call fails at once
                asked = time.monotonic()
                with pytest.raises(StoreUnavailableError, match="nothing was stored"):
                    await store.match("m")
                assert time.monotonic() - asked < 0.5
            blocker.close()
            await asyncio.to_thread(postgres_service.start)
            # the same store, with no reopening, once it may probe again: a fresh pool
            await asyncio.sleep(PROBE_SECONDS)
            stored = await store.match("m")
            assert stored is not None
            if committed:  # all of it, and a worker reads it as played
                assert (stored.revision, stored.status) == (1, "playing")
                assert (await store.seats("m"))[0].taken
            else:  # none of it: the same commit goes through whole once the database is back
                assert (stored.revision, stored.status, stored.lease) == (0, "open", None)
                assert await store.moves("m") == ()
                assert not any(seat.taken for seat in await store.seats("m"))
                await first_roll()
            assert (await store.record("m")).moves == ("roll",)
        finally:
            if blocker is not None:  # a failure above must not leak it into the next test
                blocker.close()
            await store.close()
            postgres_service.start()

    asyncio.run(scenario())


@pytest.mark.slow
def test_what_postgres_cannot_store_is_refused_whole_with_a_library_error(
    postgres_database: str,
) -> None:
    pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import PostgresStore

    async def scenario() -> None:
        store = await PostgresStore.open(postgres_database)
        try:
            await _a_match(store)
            with pytest.raises(InvalidStateError, match="a match m is stored already"):
                await _a_match(store)
            with pytest.raises(InvalidStateError, match=r"NUL.*nothing was stored"):
                await store.commit(
                    "m", 0, PLAYING, worker="w", lease_until=1.0, seat=_take(0, "a\x00b", "a")
                )
            assert await _revision(store) == 0
            assert not any(seat.taken for seat in await store.seats("m"))
            with pytest.raises(InvalidStateError, match=r"presence.*nothing was stored"):
                await store.present("nothing", 0, "w", here=True, now=1.0, alive_after=0.0)
        finally:
            await store.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_commit_that_postgres_aborts_for_a_deadlock_is_run_again_once(
    postgres_database: str,
) -> None:
    psycopg = pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import PostgresStore

    async def scenario() -> None:
        store = await PostgresStore.open(postgres_database)
        other = psycopg.connect(postgres_database)
        try:
            await _a_match(store)
            # another client holds the seat the commit takes, then wants the match's row,
            # and waits long enough that Postgres aborts the commit rather than it
            other.execute("SET deadlock_timeout = '30s'")
            other.execute("SELECT 1 FROM seats WHERE match_id = 'm' AND seat = 0 FOR UPDATE")
            commit = asyncio.create_task(
                store.commit(
                    "m",
                    0,
                    PLAYING,
                    worker="w",
                    lease_until=1.0,
                    move=_move(1),
                    seat=_take(0, "a", "a"),
                )
            )
            with psycopg.connect(postgres_database, autocommit=True) as watcher:
                while not watcher.execute(WAITING).fetchall():
                    await asyncio.sleep(0.02)

            def wait_for_the_match_then_commit() -> None:
                other.execute("UPDATE matches SET creator = 'other' WHERE id = 'm'")
                other.commit()

            await asyncio.to_thread(wait_for_the_match_then_commit)
            assert await commit == 1
            stored = await store.match("m")
            assert stored is not None
            assert (stored.revision, stored.creator) == (1, "other")
            assert await store.seat_of("m", "a") == 0
        finally:
            other.close()
            await store.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_transaction_aborted_twice_for_serialization_is_unavailable(
    postgres_database: str,
) -> None:
    psycopg = pytest.importorskip("psycopg")
    from psycopg import errors

    from tabletop_rules.server.postgres import PostgresStore

    async def scenario() -> None:
        store = await PostgresStore.open(postgres_database)
        runs: list[int] = []

        async def conflicting(conn: Any) -> None:
            await conn.execute("INSERT INTO workers VALUES ('w', 1.0)")
            runs.append(1)
            raise errors.SerializationFailure("could not serialize access")

        try:
            with pytest.raises(StoreUnavailableError, match="could not serialize access"):
                await store._transact(conflicting)
            assert len(runs) == 2  # run again once, and each run rolled back whole
            with psycopg.connect(postgres_database) as conn:
                assert conn.execute("SELECT COUNT(*) FROM workers").fetchone() == (0,)
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_postgres_store_refuses_a_malformed_url_or_pool_before_connecting() -> None:
    pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import PostgresStore

    url = "postgresql://game@127.0.0.1:1/tabletop"
    with pytest.raises(ConfigError, match='not a Postgres URL: invalid URI query parameter: "x"'):
        asyncio.run(PostgresStore.open("postgresql://game@127.0.0.1/tabletop?x=1"))
    with pytest.raises(ConfigError, match="not a Postgres URL") as refused:
        asyncio.run(PostgresStore.open("postgresql://game:secret@[::1/tabletop"))
    assert "secret" not in str(refused.value)
    with pytest.raises(ConfigError, match="1 <= min_size <= max_size"):
        asyncio.run(PostgresStore.open(url, min_size=5, max_size=2))
    with pytest.raises(ConfigError, match="timeout must be a finite number of seconds above 0"):
        asyncio.run(PostgresStore.open(url, timeout=0))
    with pytest.raises(TypeError, match="max_size is an int"):
        asyncio.run(PostgresStore.open(url, max_size=2.5))  # type: ignore[arg-type]


@pytest.mark.slow
def test_postgres_down_at_open_is_unavailable_at_once_with_the_reason(
    postgres_service: PostgresService,
) -> None:
    pytest.importorskip("psycopg")
    from tabletop_rules.server.postgres import PostgresStore

    from .services import free_port

    for url, reason in (
        (f"postgresql://x@127.0.0.1:{free_port()}/x", "Connection refused"),
        (postgres_service.database_url("nothing_here"), 'database "nothing_here" does not exist'),
    ):
        started = time.monotonic()
        with pytest.raises(StoreUnavailableError, match=f"did not answer: .*{reason}"):
            asyncio.run(PostgresStore.open(url, timeout=3.0))
        assert time.monotonic() - started < 1.5
