"""What an operator sees of a worker: ``/health`` ready only while the store answers and
the worker is not stopping, ``/metrics`` in the Prometheus text format counting what
happened, and a stop that hands the worker's matches over.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette")

from prometheus_client.parser import text_string_to_metric_families

from tabletop_rules.bots import RandomBot
from tabletop_rules.server import Server, SQLiteStore, StoreUnavailableError
from tabletop_rules.server.room import Room

from .helpers import create, join, seated, serving, sync


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_health_is_ready_while_the_store_answers() -> None:
    with serving() as client:
        answer = client.get("/health")
    assert answer.status_code == 200
    assert answer.json()["status"] == "ready"


def test_health_is_unavailable_while_the_store_does_not_answer(
    monkeypatch: pytest.MonkeyPatch, stores: Callable[..., SQLiteStore]
) -> None:
    store = stores()
    with serving(store) as client:

        async def down() -> None:
            raise StoreUnavailableError("the database did not answer: test")

        monkeypatch.setattr(store, "ping", down)
        answer = client.get("/health")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable"
    assert "did not answer" in answer.json()["error"]


def test_a_lobby_request_the_store_cannot_answer_is_a_retryable_503(
    monkeypatch: pytest.MonkeyPatch, stores: Callable[..., SQLiteStore]
) -> None:
    store = stores()
    with serving(store) as client:

        async def down(*args: Any, **kwargs: Any) -> Any:
            raise StoreUnavailableError("the database did not answer: test")

        monkeypatch.setattr(store, "live_matches_of", down)
        answer = client.post("/api/matches", json={"game": "dice-poker"})
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"
    assert answer.json()["retry"] is True


def test_a_move_the_store_cannot_take_is_refused_for_a_retry_and_played_once_sent_again(
    monkeypatch: pytest.MonkeyPatch, stores: Callable[..., SQLiteStore]
) -> None:
    store = stores()
    with serving(store) as client:
        match_id = create(client, rules={"stages": "1"})
        first, _second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, first) as seat:
            commit = store.commit

            async def down(*args: Any, **kwargs: Any) -> int:
                raise StoreUnavailableError("the database did not answer: test")

            monkeypatch.setattr(store, "commit", down)
            refused = seat.move("roll")
            monkeypatch.setattr(store, "commit", commit)
            again = seat.move("roll")
    assert refused["type"] == "refused"
    assert refused["retry"] is True
    assert refused["table"]["version"] == 0
    assert again["type"] == "table"
    assert sync(store).record(match_id).moves == ("roll",)


def test_metrics_count_the_moves_the_clients_and_the_commits() -> None:
    with serving() as client:
        match_id = create(client, rules={"stages": "1"})
        first, _second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, first) as seat:
            seat.move("roll")
            seat.move("scratch nothing")  # refused: no such move
            text = client.get("/metrics").text
    samples = _samples(text)
    worker = client.app.state.server.worker_id  # type: ignore[attr-defined]
    assert samples[("tabletop_moves_total", (("by", "person"), ("worker", worker)))] == 1
    assert samples[("tabletop_clients", (("worker", worker),))] == 1
    assert samples[("tabletop_rooms", (("worker", worker),))] == 1
    refusals = sum(
        value for (name, _labels), value in samples.items() if name == "tabletop_refusals_total"
    )
    assert refusals == 1
    assert samples[("tabletop_commit_seconds_count", (("worker", worker),))] >= 3  # 2 joins


def test_metrics_count_the_servers_own_moves() -> None:
    with serving() as client:
        match_id = create(client, seats=["greedy", "random"], rules={"stages": "1"})
        with seated(client, match_id, None) as watcher:
            watcher.read_until(lambda message: message["match"]["status"] == "over")
            moves = watcher.table["version"]
            samples = _samples(client.get("/metrics").text)
    worker = client.app.state.server.worker_id  # type: ignore[attr-defined]
    assert samples[("tabletop_moves_total", (("by", "server"), ("worker", worker)))] == moves
    assert samples[("tabletop_moves_total", (("by", "person"), ("worker", worker)))] == 0
    sent = samples[("tabletop_notices_total", (("direction", "sent"), ("worker", worker)))]
    assert sent == 0  # one process: nobody to tell


def test_a_server_moves_time_counts_from_the_move_chosen_not_the_bots_thinking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    thinking = 0.1
    choose = RandomBot.choose

    def slow(self: RandomBot[Any], view: Any) -> Any:
        time.sleep(thinking)
        return choose(self, view)

    monkeypatch.setattr(RandomBot, "choose", slow)
    with serving() as client:
        match_id = create(client, seats=["random", "person"], rules={"stages": "1"})
        with seated(client, match_id, join(client, match_id)) as seat:
            seat.read_until(lambda message: message["table"]["to_move"] == 1)
            samples = _samples(client.get("/metrics").text)
    worker = client.app.state.server.worker_id  # type: ignore[attr-defined]
    labels = (("by", "server"), ("worker", worker))
    moves = samples[("tabletop_move_seconds_count", labels)]
    assert moves >= 1
    assert samples[("tabletop_move_seconds_sum", labels)] < thinking * moves


def test_a_stopped_worker_hands_its_matches_over(stores: Callable[..., SQLiteStore]) -> None:
    store = stores()
    with serving(store) as client:
        match_id = create(client, seats=["greedy", "person"], rules={"stages": "1"})
        join(client, match_id)  # the bot's turn: this worker plays it and holds the lease
        held = sync(store).match(match_id)
        worker = client.app.state.server.worker_id  # type: ignore[attr-defined]
    released = sync(store).match(match_id)
    assert held.lease == worker
    assert released.lease == worker
    assert released.lease_until == 0  # anyone may claim it
    asyncio.run(store.ping())  # the store handed in is still open


@pytest.mark.timeout(60)
def test_a_stop_ends_even_when_a_bots_choice_swallows_its_cancellation(
    monkeypatch: pytest.MonkeyPatch, stores: Callable[..., SQLiteStore]
) -> None:
    # Python 3.11's asyncio.wait_for returns the result instead of raising when the bot
    # answers just as the stop cancels it; the bot's task then goes on to its commit
    choosing = threading.Event()

    async def stubborn(room: Room, job: Any, view: Any, state: Any) -> Any:
        choosing.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(30)
        return None  # never played: the room has stopped by the time it lands

    monkeypatch.setattr(Room, "_choose", stubborn)
    store = stores()
    with serving(store) as client:
        match_id = create(client, seats=["greedy", "person"], rules={"stages": "1"})
        join(client, match_id)  # the bot's turn: it is choosing when the stop comes
        assert choosing.wait(10)
    stored = sync(store).match(match_id)
    assert stored.lease_until == 0  # the stop ran to its end: the lease was handed over
    assert sync(store).moves(match_id) == ()  # the bot stopped: it played nothing more


@pytest.mark.timeout(60)
def test_a_stop_ends_even_when_the_tickers_cancellation_is_lost(
    monkeypatch: pytest.MonkeyPatch, stores: Callable[..., SQLiteStore]
) -> None:
    ticking = threading.Event()

    async def stubborn(server: Server) -> None:
        ticking.set()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(30)

    monkeypatch.setattr(Server, "_serve_due", stubborn)
    with serving(stores()) as client:
        assert ticking.wait(10)
        server = client.app.state.server  # type: ignore[attr-defined]
    assert server.draining  # the stop ran to its end: the lifespan is over


def test_the_apps_own_store_is_closed_even_when_stopping_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    closed: list[SQLiteStore] = []
    close, stop = SQLiteStore.close, Server.stop

    async def closing(store: SQLiteStore) -> None:
        closed.append(store)
        await close(store)

    async def failing(server: Server) -> None:
        await stop(server)
        raise RuntimeError("the stop failed: test")

    monkeypatch.setattr(SQLiteStore, "close", closing)
    monkeypatch.setattr(Server, "stop", failing)
    with pytest.raises(RuntimeError, match="the stop failed"), serving() as client:
        store = client.app.state.server.store  # type: ignore[attr-defined]
    assert closed == [store]
