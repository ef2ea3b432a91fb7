"""Faults and races on real workers: ``tabletop-rules serve`` processes sharing one
Postgres database and one Redis (:mod:`tests.server.cluster`), hundreds of matches played
through real WebSockets while a worker is killed, Redis restarted or Postgres stopped,
then every stored match checked against what every client was sent.

What "no acknowledged move lost, none applied twice" means here: each move a client saw
logged in a table is the stored move of that number; each stored record replays through
:class:`~tabletop_rules.match.Match` into itself, numbered 1..n without a gap, its
revision counting exactly its joins, moves and ending; and each client's log, put
together from the tables it received across its reconnects, is that record's moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("psycopg")
pytest.importorskip("redis")

from websockets.asyncio.client import connect

from tabletop_rules import Match, get_ruleset
from tabletop_rules.server import open_store
from tabletop_rules.server.store import Store, StoredMatch, StoredMove

from .cluster import STALE, Cluster, Load, SeatClient, Seating, loopback, seat_matches
from .services import PostgresService, RedisService

GAME = "account"
SHORT = {"max_rounds": "5"}
"""Account over five rounds: about 22 moves a match, cheap tables, so hundreds of
matches finish in seconds on two cores."""

MATCHES = 200


@pytest.fixture
def cluster_of(
    postgres_database: str, redis_service: RedisService, tmp_path: Path
) -> Iterator[Callable[..., Cluster]]:
    """Start a cluster of workers on the test's database and the session's Redis; every
    one is killed when the test ends, however it ends.
    """
    made: list[Cluster] = []

    def make(workers: int = 3, lease_seconds: float = 10.0) -> Cluster:
        redis_service.start()
        cluster = Cluster(
            postgres_database,
            redis_service.url,
            tmp_path / f"cluster{len(made)}",
            workers=workers,
            lease_seconds=lease_seconds,
        )
        made.append(cluster)
        cluster.start()
        return cluster

    try:
        yield make
    finally:
        for cluster in made:
            cluster.close()


def clients_of(seatings: list[list[Seating]], workers: int) -> list[SeatClient]:
    """A client for each seat, the seats of a match on different workers, round-robin."""
    return [
        SeatClient(seating, first_worker=(2 * number + seating.seat) % workers)
        for number, pair in enumerate(seatings)
        for seating in pair
    ]


def by_match(clients: list[SeatClient]) -> dict[str, list[SeatClient]]:
    matches: dict[str, list[SeatClient]] = {}
    for client in clients:
        matches.setdefault(client.seating.match, []).append(client)
    return matches


async def stored_problems(
    store: Store, clients: list[SeatClient], *, finished: bool = True
) -> list[str]:
    """What is wrong with the stored matches of ``clients``, each against what its
    clients received (nothing, when all is well).
    """
    problems: list[str] = []
    for match_id, seats in by_match(clients).items():
        stored = await store.match(match_id)
        assert stored is not None
        rows = await store.moves(match_id)
        moves = [row.move for row in rows]
        if [row.number for row in rows] != list(range(1, len(rows) + 1)):
            problems.append(f"{match_id}: moves numbered {[row.number for row in rows]}")
        record = await store.record(match_id)
        replay = Match.from_record(get_ruleset(record.game), record)
        if replay.record != record:
            problems.append(f"{match_id}: the record is not its replay")
        result = stored.result
        ending = int(result is not None and result.reason != "played")
        if stored.revision != 2 + len(rows) + ending or stored.rewinds:
            problems.append(
                f"{match_id}: revision {stored.revision} for 2 joins, {len(rows)} moves and "
                f"{ending} ending ({stored.rewinds} rewinds)"
            )
        if result is not None and result.reason == "played" and not replay.is_over:
            problems.append(f"{match_id}: over by play, but its record is not")
        if finished and stored.status != "over":
            problems.append(f"{match_id}: {stored.status} at {len(rows)} moves, not over")
        for client in seats:
            seat = client.seating.seat
            problems.extend(f"{match_id} P{seat}: {conflict}" for conflict in client.conflicts)
            lost = {
                number: move
                for number, move in client.acknowledged.items()
                if number > len(moves) or moves[number - 1] != move
            }
            if lost:
                problems.append(f"{match_id} P{seat}: acknowledged but not stored: {lost}")
            if finished and client.moves != moves:
                problems.append(
                    f"{match_id} P{seat}: its log of {len(client.moves)} moves is not the "
                    f"record's {len(moves)}"
                )
            if finished and (client.status, client.result) != (
                stored.status,
                None if result is None else result.to_json(),
            ):
                problems.append(
                    f"{match_id} P{seat}: last saw {client.status} {client.result}, "
                    f"stored {stored.status} {result}"
                )
    return problems


async def check_stored(database: str, clients: list[SeatClient], *, finished: bool = True) -> None:
    store = await open_store(database)
    try:
        problems = await stored_problems(store, clients, finished=finished)
    finally:
        await store.close()
    assert not problems, f"{len(problems)} problems, first: " + "; ".join(problems[:8])


def figures(load: Load) -> dict[str, Any]:
    """What the load went through, for the report and the failure messages."""
    clients = load.clients
    closes: Counter[int] = Counter()
    for client in clients:
        closes.update(client.closes)
    return {
        "matches": len(by_match(clients)),
        "moves": load.moves,
        "sent": sum(len(client.sent) for client in clients),
        "reconnects": sum(client.reconnects for client in clients),
        "stalls": sum(client.stalls for client in clients),
        "stale": sum(len(client.refusals(stale=True)) for client in clients),
        "retry": sum(len(client.refusals(retry=True)) for client in clients),
        "closes": dict(closes),
        "seconds": round(time.monotonic() - load.began, 1),
    }


def assert_played_cleanly(load: Load) -> None:
    """Every match over, no client stuck, and no socket closed for a protocol violation
    or a server bug; the only refusals a stale version's or a retryable one.
    """
    seen = figures(load)
    unfinished = load.unfinished
    assert not unfinished, (
        f"{len(unfinished)} clients did not see their match end, e.g. "
        f"{unfinished[0].seating.match} P{unfinished[0].seating.seat} at version "
        f"{unfinished[0].version}: {seen}"
    )
    assert seen["stalls"] == 0, seen
    bad = {code: n for code, n in seen["closes"].items() if code in (1008, 1009, 1011)}
    assert not bad, f"sockets closed for a violation or a bug: {seen}"
    odd = [
        refusal.reason
        for client in load.clients
        for refusal in client.refusals(retry=False, stale=False)
    ]
    assert not odd, f"refused otherwise than stale or retryable: {odd[:5]}"


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_a_worker_killed_under_load_loses_no_acknowledged_move_and_applies_none_twice(
    cluster_of: Callable[..., Cluster],
) -> None:
    cluster = cluster_of(workers=3)

    async def scenario() -> Load:
        seatings = await seat_matches(cluster, MATCHES, game=GAME, rules=SHORT)
        clients = clients_of(seatings, len(cluster))
        load = Load(cluster, clients, seconds=90)

        async def kill(load: Load) -> None:
            await load.until(lambda: load.moves >= MATCHES * 5, "a quarter of the moves")
            await asyncio.to_thread(cluster.kill, 0)

        await load.run(kill)
        assert_played_cleanly(load)
        await check_stored(cluster.database, clients)
        return load

    load = asyncio.run(scenario())
    print(figures(load))
    # cut off: a client of the killed worker whose match that worker did not see to its end
    cut = [
        c
        for c in load.clients
        if c.first_worker == 0 and not any(s.worker == 0 and s.status == "over" for s in c.seen)
    ]
    assert cut, "the worker was killed after its clients' matches had ended"
    assert all(c.reconnects and c.seen[-1].worker != 0 for c in cut)


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_a_worker_stopped_gracefully_under_load_sends_its_clients_elsewhere_and_starts_again(
    cluster_of: Callable[..., Cluster],
) -> None:
    cluster = cluster_of(workers=3)
    matches = 150
    port = cluster.ports[1]
    restarted: list[float] = []

    async def scenario() -> Load:
        seatings = await seat_matches(cluster, matches, game=GAME, rules=SHORT)
        clients = clients_of(seatings, len(cluster))
        load = Load(cluster, clients, seconds=90)

        async def stop_start_kill(load: Load) -> None:
            await load.until(lambda: load.moves >= matches * 4, "a fifth of the moves")
            await asyncio.to_thread(cluster.stop, 1)
            await asyncio.to_thread(cluster.start, 1)
            restarted.append(time.monotonic())
            await load.until(lambda: load.moves >= matches * 10, "half of the moves")
            await asyncio.to_thread(cluster.kill, 2)

        await load.run(stop_start_kill)
        assert_played_cleanly(load)
        await check_stored(cluster.database, clients)
        return load

    load = asyncio.run(scenario())
    seen = figures(load)
    print(seen)
    assert cluster.ports[1] == port
    assert seen["closes"].get(1012, 0) > 0, f"no client was told to reconnect: {seen}"
    back = [s for c in load.clients for s in c.seen if s.worker == 1 and s.at > restarted[0]]
    assert back, "no client was served by the worker started again"


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_every_client_resynchronises_after_redis_restarts_under_load(
    cluster_of: Callable[..., Cluster], redis_service: RedisService
) -> None:
    cluster = cluster_of(workers=3)
    matches = 150

    async def scenario() -> tuple[Load, list[float]]:
        seatings = await seat_matches(cluster, matches, game=GAME, rules=SHORT)
        clients = clients_of(seatings, len(cluster))
        load = Load(cluster, clients, seconds=90)

        async def restart(load: Load) -> None:
            await load.until(lambda: load.moves >= matches * 5, "a quarter of the moves")
            await asyncio.to_thread(redis_service.restart)

        await load.run(restart)
        assert_played_cleanly(load)
        await check_stored(cluster.database, clients)
        resyncs = [await cluster.metric(i, "tabletop_resyncs_total") for i in range(len(cluster))]
        return load, resyncs

    load, resyncs = asyncio.run(scenario())
    print(figures(load), "resyncs", resyncs)
    assert all(count > 0 for count in resyncs), f"resyncs by worker: {resyncs}"


OUTAGE_SECONDS = 8.0
"""How long Postgres is down: past the pool's 5 s wait for a connection, so the moves
waiting when it stopped are refused, and sent again, within the outage.
"""


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_moves_sent_while_postgres_is_down_are_refused_for_retry_and_nothing_is_half_written(
    cluster_of: Callable[..., Cluster], postgres_service: PostgresService
) -> None:
    cluster = cluster_of(workers=3)
    matches = 150
    window: list[float] = []

    async def scenario() -> Load:
        seatings = await seat_matches(cluster, matches, game=GAME, rules=SHORT)
        clients = clients_of(seatings, len(cluster))
        load = Load(cluster, clients, seconds=100)

        async def outage(load: Load) -> None:
            await load.until(lambda: load.moves >= matches * 5, "a quarter of the moves")
            window.append(time.monotonic())
            await asyncio.to_thread(postgres_service.stop)
            await asyncio.sleep(OUTAGE_SECONDS)
            window.append(time.monotonic())
            await asyncio.to_thread(postgres_service.start)

        try:
            await load.run(outage)
        finally:
            await asyncio.to_thread(postgres_service.start)
        assert_played_cleanly(load)
        await check_stored(cluster.database, clients)
        return load

    load = asyncio.run(scenario())
    down, up = window
    outcomes: Counter[str] = Counter()
    for client in load.clients:
        for number, (version, _move, at) in enumerate(client.sent):
            if not down <= at <= up:
                continue
            until = client.sent[number + 1][2] if number + 1 < len(client.sent) else float("inf")
            refused = [s for s in client.refusals() if at <= s.at <= until and s.version == version]
            dropped = [code for when, code in client.drops if at <= when <= until]
            if any(seen.retry for seen in refused):
                outcomes["refused, retry"] += 1
            elif 1013 in dropped:
                outcomes["closed 1013"] += 1
            elif any(STALE in seen.reason for seen in refused):
                outcomes["refused, stale"] += 1
            elif client.acknowledged.get(version + 1) == _move:
                outcomes["stored after the restart"] += 1
            else:
                outcomes[f"other: {dropped}, {[s.reason for s in refused]}"] += 1
    print(figures(load), dict(outcomes))
    assert outcomes["refused, retry"] + outcomes["closed 1013"] > 0, dict(outcomes)
    assert not [kind for kind in outcomes if kind.startswith("other")], dict(outcomes)


async def stored_match(database: str, match_id: str) -> tuple[StoredMatch, tuple[StoredMove, ...]]:
    """The match as stored now, and its moves."""
    store = await open_store(database)
    try:
        stored = await store.match(match_id)
        assert stored is not None
        return stored, await store.moves(match_id)
    finally:
        await store.close()


@pytest.mark.slow
@pytest.mark.timeout(90)
@pytest.mark.parametrize("timeout", ["forfeit", "bot"])
def test_a_clock_due_while_its_worker_is_dead_fires_once_on_another(
    cluster_of: Callable[..., Cluster], timeout: str
) -> None:
    cluster = cluster_of(workers=3, lease_seconds=1)
    move_seconds = 3.0
    clock = {"move_seconds": move_seconds, "bank_seconds": 0}
    deadline: list[float] = []

    async def scenario() -> tuple[StoredMatch, tuple[StoredMove, ...], list[SeatClient]]:
        (seatings,) = await seat_matches(
            cluster,
            1,
            game="dice_poker",
            rules={"stages": "1"},
            settings={"clock": clock, "timeout": timeout},
            workers=[0],
        )
        match_id = seatings[0].match
        held, _moves = await stored_match(cluster.database, match_id)
        assert held.lease == "w0"
        assert held.lease_until is not None
        assert held.live.due is not None
        assert time.time() < held.lease_until < held.live.due, "worker 0 holds the match"
        deadline.append(held.live.due)
        clients = [SeatClient(seating, first_worker=0, play=False) for seating in seatings]
        load = Load(cluster, clients, seconds=40)
        fired: list[tuple[StoredMatch, tuple[StoredMove, ...]]] = []

        async def kill_then_wait(load: Load) -> None:
            await load.until(lambda: all(client.seen for client in clients), "the first tables")
            await asyncio.to_thread(cluster.kill, 0)
            assert time.time() < held.live.due, "killed before the deadline"  # type: ignore[operator]
            if timeout == "forfeit":
                await load.until(lambda: all(client.finished for client in clients), "the end")
            else:
                await load.until(lambda: all(c.version >= 1 for c in clients), "the bot's move")
            fired.append(await stored_match(cluster.database, match_id))
            load.stop()

        await load.run(kill_then_wait)
        return *fired[0], clients

    stored, moves, clients = asyncio.run(scenario())
    assert stored.lease in ("w1", "w2"), f"fired by {stored.lease}"
    if timeout == "forfeit":
        assert stored.status == "over"
        assert stored.result is not None
        assert stored.result.to_json() == {
            "reason": "timeout",
            "seat": 0,
            "winners": [1],
        }
        assert stored.revision == 3, "two joins and one timeout"
        assert moves == ()
        for client in clients:
            assert client.result == stored.result.to_json()
            assert [seen.result for seen in client.seen if seen.status == "over"][:1] == [
                stored.result.to_json()
            ]
    else:
        assert stored.status == "playing"
        assert [(row.number, row.seat) for row in moves] == [(1, 0)], "one move, by seat 0's bot"
        assert stored.revision == 4, "two joins, one timeout and the bot's move"
        assert moves[0].at >= deadline[0], "fired at its deadline, not before"
        for client in clients:
            assert client.moves == [moves[0].move]
            assert client.acknowledged == {1: moves[0].move}


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_many_clients_joining_the_last_free_seat_at_once_get_exactly_one(
    cluster_of: Callable[..., Cluster],
) -> None:
    cluster = cluster_of(workers=3)
    joiners, rounds = 20, 4

    async def race(number: int) -> tuple[list[httpx.Response], StoredMatch, list[int | None]]:
        """A match with seat 0 taken (created on worker 0, joined on worker 1; worker 2
        has not loaded it), then ``joiners`` clients asking at once for the free seat,
        spread over the workers: their answers, the stored match, and the seats the
        store gives the first joiner's and each winner's token.
        """
        async with httpx.AsyncClient(timeout=30.0) as http:
            created = await http.post(
                f"{cluster.url(0)}/api/matches", json={"game": GAME, "rules": SHORT}
            )
            match_id = created.json()["match"]["id"]
            first = await http.post(f"{cluster.url(1)}/api/matches/{match_id}/join", json={})
            assert first.json()["seat"] == 0

        async def join(joiner: int) -> httpx.Response:
            address = loopback(number * joiners + joiner)
            transport = httpx.AsyncHTTPTransport(local_address=address)
            async with httpx.AsyncClient(transport=transport, timeout=30.0) as http:
                await ready.wait()
                url = f"{cluster.url(joiner % len(cluster))}/api/matches/{match_id}/join"
                return await http.post(url, json={"name": f"joiner {joiner}"})

        ready = asyncio.Event()
        racing = [asyncio.create_task(join(joiner)) for joiner in range(joiners)]
        await asyncio.sleep(0.2)  # every joiner waits for the word
        ready.set()
        answers = await asyncio.gather(*racing)
        tokens = [first.json()["token"]] + [
            answer.json()["token"] for answer in answers if answer.status_code == 200
        ]
        store = await open_store(cluster.database)
        try:
            stored = await store.match(match_id)
            assert stored is not None
            seats = [await store.seat_of(match_id, token) for token in tokens]
        finally:
            await store.close()
        return answers, stored, seats

    async def scenario() -> list[tuple[list[httpx.Response], StoredMatch, list[int | None]]]:
        return [await race(number) for number in range(rounds)]

    for answers, stored, seats in asyncio.run(scenario()):
        statuses = Counter(answer.status_code for answer in answers)
        odd = [answer.text for answer in answers if answer.status_code not in (200, 409)]
        assert statuses == {200: 1, 409: joiners - 1}, (statuses, odd[:1])
        (winner,) = [answer.json() for answer in answers if answer.status_code == 200]
        assert winner["seat"] == 1
        assert seats == [0, 1], "the store holds the first joiner's and the winner's tokens"
        assert stored.revision == 2, "two joins committed, no more"
        assert stored.status == "playing"


class SeatSocket:
    """One socket of a seat to one worker, read by a task of its own into a
    :class:`SeatClient` (which never moves by itself).
    """

    def __init__(self, cluster: Cluster, seating: Seating, worker: int) -> None:
        self.cluster, self.worker = cluster, worker
        self.client = SeatClient(seating, first_worker=worker, play=False)

    async def __aenter__(self) -> SeatSocket:
        seating = self.client.seating
        self.socket = await connect(
            self.cluster.socket_url(self.worker, seating.match),
            local_addr=(seating.address, 0),
            open_timeout=10,
        )
        hello = {"type": "hello", "token": seating.token, "cursor": 0}
        await self.socket.send(json.dumps(hello))
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for raw in self.socket:
            self.client.take(json.loads(raw), self.worker)

    async def __aexit__(self, *exc: object) -> None:
        self.reader.cancel()
        await asyncio.gather(self.reader, return_exceptions=True)
        await self.socket.close()


async def until(ready: Callable[[], bool], what: str, seconds: float = 15.0) -> None:
    """Wait until ``ready()``; :class:`AssertionError` naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        await asyncio.sleep(0.02)


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_the_same_move_sent_to_two_workers_at_once_is_applied_once(
    cluster_of: Callable[..., Cluster],
) -> None:
    cluster = cluster_of(workers=3)
    rounds = 12

    async def scenario() -> tuple[list[tuple[int, int]], tuple[StoredMove, ...], StoredMatch]:
        (seatings,) = await seat_matches(
            cluster, 1, game="dice_poker", rules={"stages": "1"}, workers=[0]
        )
        rng = random.Random(35)
        async with contextlib.AsyncExitStack() as stack:
            sockets = {
                (seating.seat, worker): await stack.enter_async_context(
                    SeatSocket(cluster, seating, worker)
                )
                for seating in seatings
                for worker in (1, 2)
            }
            clients = [socket.client for socket in sockets.values()]

            async def play_round(version: int) -> tuple[int, int]:
                """Send the seat to move's move on both its sockets at once; the stale
                refusals each socket received for it.
                """
                await until(
                    lambda: all(c.last is not None and c.version == version for c in clients),
                    "the table",
                )
                mover = clients[0].table["view"]["current_player"]
                one, other = sockets[mover, 1], sockets[mover, 2]
                await until(lambda: bool(one.client.table["actions"]), "the actions")
                action = rng.choice(one.client.table["actions"])
                move = json.dumps({"type": "move", "action": action, "version": version})
                before = len(one.client.refusals()), len(other.client.refusals())
                await asyncio.gather(one.socket.send(move), other.socket.send(move))
                await until(
                    lambda: (
                        len(one.client.refusals()) + len(other.client.refusals()) > sum(before)
                        and all(c.version == version + 1 for c in clients)
                    ),
                    f"the answers to move {version + 1}",
                )
                await asyncio.sleep(0.1)  # a second refusal, or a second move, would show
                return (
                    len(one.client.refusals(stale=True)) - before[0],
                    len(other.client.refusals(stale=True)) - before[1],
                )

            outcomes = [await play_round(version) for version in range(rounds)]
            await asyncio.sleep(1.0)  # a second application would show by now
            stored, moves = await stored_match(cluster.database, seatings[0].match)
            for client in clients:
                assert client.moves == [row.move for row in moves]
                assert not client.refusals(stale=False), client.refusals(stale=False)
        return outcomes, moves, stored

    outcomes, moves, stored = asyncio.run(scenario())
    assert len(moves) == rounds, f"{len(moves)} moves stored for {rounds} sent twice each"
    assert stored.revision == 2 + rounds
    assert all(sorted(outcome) == [0, 1] for outcome in outcomes), outcomes
    print("stale refusals by round (socket to worker 1, to worker 2):", outcomes)
