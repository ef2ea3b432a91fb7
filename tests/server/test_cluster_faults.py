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
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("psycopg")
pytest.importorskip("redis")

from tabletop_rules import Match, get_ruleset
from tabletop_rules.server import open_store
from tabletop_rules.server.store import Store

from .cluster import STALE, Cluster, Load, SeatClient, Seating, seat_matches
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
            killed.append(time.monotonic())
            await asyncio.to_thread(cluster.kill, 0)

        await load.run(kill)
        assert_played_cleanly(load)
        await check_stored(cluster.database, clients)
        return load

    killed: list[float] = []
    load = asyncio.run(scenario())
    print(figures(load))
    cut = [c for c in load.clients if c.first_worker == 0 and c.seen[-1].at > killed[0]]
    assert cut, "the worker was killed after its clients' matches had ended"
    assert all(c.reconnects and c.seen[-1].worker != 0 for c in cut)
