"""The fan-out hub (server/hub.py): notices as checked JSON, the one-process hub, and Redis
pub/sub between workers that survives a Redis restart and never lets a failure through.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import time
from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("starlette")

from tabletop_rules.errors import ConfigError, InvalidStateError, TabletopError
from tabletop_rules.server.hub import (
    MAX_NOTICE_BYTES,
    Hub,
    LocalHub,
    Notice,
    RedisHub,
    open_hub,
)

from .services import RedisService

WAIT = 10.0
"""How long a test waits for a notice or a resync before it fails."""

_channels = itertools.count(1)


class Worker:
    """What a worker's hub calls, recorded: each notice heard, and each resync."""

    def __init__(self, name: str, on_notice: Callable[[Notice], Awaitable[None]] | None = None):
        self.name = name
        self.notices: asyncio.Queue[Notice] = asyncio.Queue()
        self.resyncs = 0
        self.resynced = asyncio.Event()
        self._then = on_notice

    async def on_notice(self, notice: Notice) -> None:
        if self._then is not None:
            await self._then(notice)
        self.notices.put_nowait(notice)

    async def on_resync(self) -> None:
        self.resyncs += 1
        self.resynced.set()

    async def next_notice(self) -> Notice:
        return await asyncio.wait_for(self.notices.get(), WAIT)


async def _started(url: str, channel: str, *workers: Worker) -> list[RedisHub]:
    hubs = [RedisHub(url, worker=worker.name, channel=channel) for worker in workers]
    for hub, worker in zip(hubs, workers, strict=True):
        await hub.start(worker.on_notice, worker.on_resync)
    return hubs


async def _stop(*hubs: Hub) -> None:
    for hub in hubs:
        await hub.stop()


def _channel() -> str:
    return f"tabletop:test:{next(_channels)}"


# Notices, and the hub of one process


def test_a_notice_round_trips_through_its_json() -> None:
    for notice in (Notice("m1", 0, "w1", "change"), Notice("x" * 200, 2**40, "w-2", "presence")):
        assert Notice.from_json(notice.to_json()) == notice
        assert Notice.from_json(notice.to_json().encode()) == notice


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "not JSON"),
        (b"\xff\xfe", "utf-8"),
        ("[1, 2]", "a notice is a JSON object, got list"),
        ('{"match": "m", "revision": 1, "worker": "w"}', "kind missing"),
        ('{"match": "m", "revision": 1, "worker": "w", "kind": "change", "x": 1}', "no field x"),
        ('{"match": "", "revision": 1, "worker": "w", "kind": "change"}', "match is text"),
        ('{"match": 5, "revision": 1, "worker": "w", "kind": "change"}', "match is text"),
        ('{"match": "m", "revision": -1, "worker": "w", "kind": "change"}', "from 0, got -1"),
        ('{"match": "m", "revision": true, "worker": "w", "kind": "change"}', "got True"),
        ('{"match": "m", "revision": 1.5, "worker": "w", "kind": "change"}', "got 1.5"),
        ('{"match": "m", "revision": 1, "worker": null, "kind": "change"}', "worker is text"),
        ('{"match": "m", "revision": 1, "worker": "w", "kind": "move"}', "change or presence"),
        ('{"match": "m", "revision": 1, "worker": "w", "kind": "change", "kind": "x"}', "dupl"),
        ("[" + " " * MAX_NOTICE_BYTES + "]", f"at most {MAX_NOTICE_BYTES} bytes"),
    ],
)
def test_a_malformed_notice_is_refused_with_what_is_wrong(text: str | bytes, reason: str) -> None:
    with pytest.raises(InvalidStateError, match=reason) as refused:
        Notice.from_json(text)
    assert isinstance(refused.value, TabletopError)


def test_a_notice_of_the_wrong_types_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="match is of type str, got 1"):
        Notice(1, 2, "w", "change")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="revision is of type int, got True"):
        Notice("m", True, "w", "change")
    with pytest.raises(TypeError, match="JSON text"):
        Notice.from_json({"match": "m"})  # type: ignore[arg-type]


def test_without_a_url_the_hub_is_the_local_one_that_tells_nobody() -> None:
    hub = open_hub(None, "w1")
    assert isinstance(hub, LocalHub)

    async def use() -> None:
        async def never(*_: object) -> None:
            raise AssertionError("a local hub calls nobody")

        await hub.start(never, never)
        await hub.publish(Notice("m", 1, "w1", "change"))
        await hub.stop()

    asyncio.run(use())
    assert (hub.connected, hub.failures) == (True, 0)


def test_open_hub_refuses_an_unknown_scheme() -> None:
    for url in ("amqp://queue", "postgresql://db/x", "", "127.0.0.1:6379"):
        with pytest.raises(ConfigError, match="a hub URL starts redis:// or rediss://"):
            open_hub(url, "w1")
    with pytest.raises(TypeError, match="text or None"):
        open_hub(6379, "w1")  # type: ignore[arg-type]


def test_a_redis_hub_is_opened_by_its_url_without_connecting() -> None:
    hub = open_hub("redis://127.0.0.1:1/0", "w1")
    assert isinstance(hub, RedisHub)
    assert (hub.worker, hub.channel, hub.connected) == ("w1", "tabletop:changes", False)
    asyncio.run(hub.stop())


def test_a_redis_hub_refuses_an_unreadable_url_and_a_worker_without_a_name() -> None:
    with pytest.raises(ConfigError, match="cannot read the Redis URL"):
        open_hub("redis://127.0.0.1:port/0", "w1")
    with pytest.raises(ConfigError, match="worker's id is 1 to 200 characters"):
        open_hub("redis://127.0.0.1/0", "")


def test_a_redis_hub_without_the_redis_package_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # import redis now fails
    monkeypatch.setitem(sys.modules, "redis.asyncio", None)
    with pytest.raises(ConfigError, match=r"pip install 'tabletop-rules\[cluster\]'"):
        open_hub("redis://127.0.0.1:6379/0", "w1")


# Redis pub/sub between workers


@pytest.mark.slow
def test_notices_reach_the_other_workers_and_not_the_sender(redis_service: RedisService) -> None:
    redis_service.start()

    async def run() -> None:
        one, two, three = Worker("w1"), Worker("w2"), Worker("w3")
        hubs = await _started(redis_service.url, _channel(), one, two, three)
        assert all(hub.connected for hub in hubs)
        sent = [Notice("m1", 1, "w1", "change"), Notice("m2", 4, "w1", "presence")]
        for notice in sent:
            await hubs[0].publish(notice)
        assert [await two.next_notice(), await two.next_notice()] == sent
        assert [await three.next_notice(), await three.next_notice()] == sent
        await hubs[2].publish(Notice("m1", 2, "w3", "change"))
        assert await two.next_notice() == Notice("m1", 2, "w3", "change")
        assert one.notices.get_nowait() == Notice("m1", 2, "w3", "change")
        assert one.notices.empty()  # its own two were not handed back to it
        assert three.notices.empty()
        assert [hub.failures for hub in hubs] == [0, 0, 0]
        await _stop(*hubs)

    asyncio.run(run())


@pytest.mark.slow
def test_a_slow_worker_does_not_hold_up_the_reader(redis_service: RedisService) -> None:
    redis_service.start()

    async def run() -> None:
        release = asyncio.Event()

        async def slow_on_the_first(notice: Notice) -> None:
            if notice.match == "slow":
                await release.wait()

        sender, slow = Worker("w1"), Worker("w2", slow_on_the_first)
        hubs = await _started(redis_service.url, _channel(), sender, slow)
        await hubs[0].publish(Notice("slow", 1, "w1", "change"))
        await hubs[0].publish(Notice("quick", 1, "w1", "change"))
        assert await slow.next_notice() == Notice("quick", 1, "w1", "change")
        release.set()
        assert await slow.next_notice() == Notice("slow", 1, "w1", "change")
        await _stop(*hubs)

    asyncio.run(run())


@pytest.mark.slow
def test_a_malformed_message_is_dropped_and_the_hub_lives_on(redis_service: RedisService) -> None:
    redis_service.start()
    import redis.asyncio

    async def run() -> None:
        channel = _channel()
        hearer = Worker("w2")
        [hub] = await _started(redis_service.url, channel, hearer)
        client = redis.asyncio.Redis.from_url(redis_service.url)
        for garbage in (b"\xff", b"{}", b'{"match": "m", "revision": -1}', b"x" * 5000):
            await client.publish(channel, garbage)
        await client.publish(channel, Notice("m", 3, "w1", "change").to_json())
        await client.aclose()
        assert await hearer.next_notice() == Notice("m", 3, "w1", "change")
        assert (hub.dropped, hub.connected, hearer.resyncs) == (4, True, 0)
        await hub.stop()

    asyncio.run(run())


@pytest.mark.slow
def test_after_a_redis_restart_the_hub_resyncs_once_and_hears_later_notices(
    redis_service: RedisService,
) -> None:
    redis_service.start()

    async def run() -> None:
        sender, hearer = Worker("w1"), Worker("w2")
        hubs = await _started(redis_service.url, _channel(), sender, hearer)
        await hubs[0].publish(Notice("m", 1, "w1", "change"))
        assert await hearer.next_notice() == Notice("m", 1, "w1", "change")
        assert hearer.resyncs == 0
        await asyncio.to_thread(redis_service.restart)
        await asyncio.wait_for(hearer.resynced.wait(), WAIT)
        assert hubs[1].connected
        await hubs[0].publish(Notice("m", 2, "w1", "change"))
        assert await hearer.next_notice() == Notice("m", 2, "w1", "change")
        assert (sender.resyncs, hearer.resyncs) == (1, 1)
        assert hubs[0].failures == 0  # the publisher's stale connection was replaced
        await _stop(*hubs)

    asyncio.run(run())


@pytest.mark.slow
def test_a_silent_redis_is_pinged_then_given_up_and_the_hub_resyncs(
    redis_service: RedisService,
) -> None:
    redis_service.start()

    async def run() -> None:
        hearer = Worker("w2")
        hub = RedisHub(redis_service.url, worker="w2", channel=_channel(), idle_seconds=0.3)
        await hub.start(hearer.on_notice, hearer.on_resync)
        await asyncio.sleep(0.5)  # idle, pinged, answered: still the same connection
        assert (hub.connected, hearer.resyncs) == (True, 0)
        assert redis_service.command("CLIENT", "PAUSE", "2000", "ALL") == b"+OK\r\n"
        await asyncio.wait_for(hearer.resynced.wait(), WAIT)
        assert hub.connected
        await hub.stop()

    asyncio.run(run())


@pytest.mark.slow
def test_publishing_while_redis_is_stopped_returns_promptly_and_counts_a_failure(
    redis_service: RedisService,
) -> None:
    redis_service.start()

    async def run() -> None:
        sender, hearer = Worker("w1"), Worker("w2")
        hubs = await _started(redis_service.url, _channel(), sender, hearer)
        await asyncio.to_thread(redis_service.stop)
        try:
            started = time.monotonic()
            for revision in (1, 2):
                await hubs[0].publish(Notice("m", revision, "w1", "change"))
            assert time.monotonic() - started < 2.5
            assert hubs[0].failures == 2
            await asyncio.sleep(1.5)  # the listener notices within its 1 s read
            assert not hubs[1].connected
        finally:
            await asyncio.to_thread(redis_service.start)
        await asyncio.wait_for(hearer.resynced.wait(), WAIT)
        await hubs[0].publish(Notice("m", 3, "w1", "change"))
        assert await hearer.next_notice() == Notice("m", 3, "w1", "change")
        assert hubs[0].failures == 2
        await _stop(*hubs)

    asyncio.run(run())


@pytest.mark.slow
def test_a_hub_started_while_redis_is_down_joins_when_it_is_up_and_resyncs(
    redis_service: RedisService,
) -> None:
    redis_service.start()

    async def run() -> None:
        sender, hearer = Worker("w1"), Worker("w2")
        await asyncio.to_thread(redis_service.stop)
        try:
            [late] = await _started(redis_service.url, _channel(), hearer)
            assert not late.connected
        finally:
            await asyncio.to_thread(redis_service.start)
        await asyncio.wait_for(hearer.resynced.wait(), WAIT)
        [early] = await _started(redis_service.url, late.channel, sender)
        await early.publish(Notice("m", 1, "w1", "change"))
        assert await hearer.next_notice() == Notice("m", 1, "w1", "change")
        await _stop(early, late)

    asyncio.run(run())


@pytest.mark.slow
def test_a_stopped_hub_leaves_no_task_and_no_connection(redis_service: RedisService) -> None:
    redis_service.start()

    async def run() -> None:
        release = asyncio.Event()

        async def stuck(_: Notice) -> None:
            await release.wait()

        sender, hearer = Worker("w1"), Worker("w2", stuck)
        hubs = await _started(redis_service.url, _channel(), sender, hearer)
        await hubs[0].publish(Notice("m", 1, "w1", "change"))
        await asyncio.sleep(0.2)  # the notice is in hand, stuck
        await _stop(*hubs)
        assert asyncio.all_tasks() == {asyncio.current_task()}
        assert not any(hub.connected for hub in hubs)
        await hubs[0].publish(Notice("m", 2, "w1", "change"))  # after stop: counted, no raise
        assert hubs[0].failures == 1

    asyncio.run(run())


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_hub_stops_even_when_its_readers_cancellation_is_lost(
    redis_service: RedisService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import redis.asyncio.client

    redis_service.start()
    get_message = redis.asyncio.client.PubSub.get_message

    async def deaf(self: redis.asyncio.client.PubSub, *args: object, **kwargs: object) -> object:
        try:
            return await get_message(self, *args, **kwargs)  # type: ignore[arg-type]
        except asyncio.CancelledError:  # lost, as a timeout racing a cancel may lose it
            return None

    async def run() -> None:
        hubs = await _started(redis_service.url, _channel(), Worker("w1"))
        monkeypatch.setattr(redis.asyncio.client.PubSub, "get_message", deaf)
        await asyncio.sleep(0.2)  # the reader waits in the deaf get_message
        await asyncio.wait_for(_stop(*hubs), WAIT)
        assert asyncio.all_tasks() == {asyncio.current_task()}

    asyncio.run(run())


def test_a_notice_in_hand_when_the_hub_stops_leaves_no_coroutine_unawaited() -> None:
    import gc

    unawaited: list[str] = []

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        unawaited.append(str(unraisable.exc_value))

    async def run() -> None:
        worker = Worker("w1")
        hub = RedisHub("redis://127.0.0.1:1", worker="w1", channel=_channel())  # no Redis
        await hub.start(worker.on_notice, worker.on_resync)
        hub._received(Notice("m", 1, "w2", "change").to_json())  # heard, its task not begun
        await hub.stop()

    before, sys.unraisablehook = sys.unraisablehook, hook
    try:
        asyncio.run(run())
        gc.collect()
    finally:
        sys.unraisablehook = before
    assert unawaited == []
