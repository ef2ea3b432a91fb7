"""The fan-out between workers: after a worker commits a change to a match it publishes a
:class:`Notice`, and every other worker holding that match reads the change from the store
and sends it to its own clients.

The store is the truth and a notice only says where to look: a notice lost (Redis down,
restarted, a worker too slow) costs latency, never correctness, since every worker also
polls the revisions of the matches it holds. So :meth:`Hub.publish` never raises, and a
hub that lost its connection asks its worker to re-read everything it holds
(``on_resync``) once it is back.

:func:`open_hub` picks the hub by URL: none for one process (:class:`LocalHub`), or
Redis pub/sub (:class:`RedisHub`, the ``cluster`` extra).

>>> notice = Notice("m1", 7, "w1", "change")
>>> notice.to_json()
'{"match":"m1","revision":7,"worker":"w1","kind":"change"}'
>>> Notice.from_json(notice.to_json()) == notice
True
>>> Notice.from_json('{"match": "m1", "revision": -1, "worker": "w1", "kind": "change"}')
Traceback (most recent call last):
  ...
tabletop_rules.errors.InvalidStateError: a notice's revision is a whole number from 0, got -1
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, get_args

import attrs

from .._messages import short_repr
from ..errors import ConfigError, InvalidStateError, TabletopError
from ..serialize import parse_json

if TYPE_CHECKING:
    import redis.asyncio
    import redis.asyncio.client

__all__ = [
    "CHANNEL",
    "MAX_NOTICE_BYTES",
    "Hub",
    "LocalHub",
    "Notice",
    "NoticeKind",
    "OnNotice",
    "OnResync",
    "RedisHub",
    "open_hub",
]

log = logging.getLogger(__name__)

NoticeKind: TypeAlias = Literal["change", "presence"]
"""What a notice announces: a committed change to the match (a move, a join, a result...),
or only who is present at its seats.
"""

OnNotice: TypeAlias = Callable[["Notice"], Awaitable[None]]
"""What a worker does with another worker's notice."""

OnResync: TypeAlias = Callable[[], Awaitable[None]]
"""What a worker does when notices may have been lost: re-read every match it holds."""

CHANNEL: Final = "tabletop:changes"
"""The Redis channel the workers publish on, by default."""

MAX_NOTICE_BYTES: Final = 1024
"""The longest notice read; a real one is under 200 bytes."""

MAX_FIELD_CHARS: Final = 200
"""The longest match or worker id a notice may carry."""

_KINDS: Final[tuple[NoticeKind, ...]] = get_args(NoticeKind)

_FIRST_BACKOFF: Final = 0.05
_LAST_BACKOFF: Final = 2.0


def _check_text(value: object, what: str) -> str:
    if type(value) is not str or not 0 < len(value) <= MAX_FIELD_CHARS:
        raise InvalidStateError(
            f"a notice's {what} is text of 1 to {MAX_FIELD_CHARS} characters, "
            f"got {short_repr(value)}"
        )
    return value


def _check_revision(value: object) -> int:
    if type(value) is not int or value < 0:
        raise InvalidStateError(
            f"a notice's revision is a whole number from 0, got {short_repr(value)}"
        )
    return value


def _check_kind(value: object) -> NoticeKind:
    for kind in _KINDS:
        if value == kind:
            return kind
    raise InvalidStateError(f"a notice's kind is {' or '.join(_KINDS)}, got {short_repr(value)}")


def _type_check(expected: type, what: str) -> Callable[[object, attrs.Attribute[Any], Any], None]:
    def check(_instance: object, _attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) is not expected:
            raise TypeError(
                f"a notice's {what} is of type {expected.__name__}, got {short_repr(value)}"
            )

    return check


@attrs.frozen
class Notice:
    """A worker's word that ``match`` changed: it is now at ``revision`` (the store's
    count of its changes), committed by ``worker``. A worker holding the match reads what
    it lacks from the store; one holding a later revision already has it.
    """

    match: str = attrs.field(validator=_type_check(str, "match"))
    revision: int = attrs.field(validator=_type_check(int, "revision"))
    worker: str = attrs.field(validator=_type_check(str, "worker"))
    kind: NoticeKind = attrs.field(validator=attrs.validators.in_(_KINDS))

    def to_json(self) -> str:
        """The notice as compact JSON text, as it travels between workers."""
        return json.dumps(attrs.asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Notice:
        """The notice ``text`` holds: from outside the process, so checked whole.
        :class:`~tabletop_rules.errors.InvalidStateError` for text over
        :data:`MAX_NOTICE_BYTES`, not JSON, not an object of exactly the four fields, or a
        field of the wrong type or out of range.
        """
        if not isinstance(text, str | bytes):
            raise TypeError(f"a notice is JSON text (str or bytes), got {type(text).__name__}")
        size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        if size > MAX_NOTICE_BYTES:
            raise InvalidStateError(
                f"a notice is at most {MAX_NOTICE_BYTES} bytes, got one of {size}"
            )
        data = parse_json(text)
        if type(data) is not dict:
            raise InvalidStateError(f"a notice is a JSON object, got {type(data).__name__}")
        fields = {"match", "revision", "worker", "kind"}
        if data.keys() != fields:
            missing, unknown = fields - data.keys(), data.keys() - fields
            raise InvalidStateError(
                "a notice has exactly the fields kind, match, revision, worker"
                + (f"; {', '.join(sorted(missing))} missing" if missing else "")
                + (f"; no field {', '.join(sorted(unknown))}" if unknown else "")
            )
        return cls(
            _check_text(data["match"], "match"),
            _check_revision(data["revision"]),
            _check_text(data["worker"], "worker"),
            _check_kind(data["kind"]),
        )


class Hub(abc.ABC):
    """How a worker tells the others about its commits and hears of theirs."""

    def __init__(self) -> None:
        self.connected = False
        """Whether notices flow now (always, for a hub of one process)."""
        self.failures = 0
        """How many notices could not be published."""
        self.dropped = 0
        """How many malformed messages were read and dropped."""

    @abc.abstractmethod
    async def start(self, on_notice: OnNotice, on_resync: OnResync) -> None:
        """Start hearing the other workers: ``on_notice`` for each of their notices,
        ``on_resync`` after any stretch in which notices may have been lost.
        """

    @abc.abstractmethod
    async def publish(self, notice: Notice) -> None:
        """Tell the other workers; never raises (a failure is logged and counted in
        :attr:`failures`: the store holds the change, and their poll finds it).
        """

    @abc.abstractmethod
    async def stop(self) -> None:
        """Stop hearing and publishing, and close every connection."""


class LocalHub(Hub):
    """The hub of a server that is one process: there is nobody to tell."""

    def __init__(self) -> None:
        super().__init__()
        self.connected = True

    async def start(self, on_notice: OnNotice, on_resync: OnResync) -> None:
        """Nothing to hear."""

    async def publish(self, notice: Notice) -> None:
        """Nothing to tell."""

    async def stop(self) -> None:
        """Nothing to close."""


def _redis_module() -> Any:
    """``redis.asyncio``, imported when a Redis hub is opened, so the ``server`` extra
    works without the package.
    """
    try:
        import redis.asyncio
    except ImportError:
        raise ConfigError(
            "a Redis hub needs the redis package: pip install 'tabletop-rules[cluster]'"
        ) from None
    return redis.asyncio


class RedisHub(Hub):
    """Notices over Redis pub/sub, on one ``channel`` shared by every worker.

    A reader task listens on the channel and hands each notice of another ``worker`` to
    ``on_notice`` in a task of its own, so a slow worker never holds the reader up; a
    malformed message is logged, counted in :attr:`~Hub.dropped` and dropped. When the
    connection drops (Redis restarted, say) the reader reconnects, waiting 0.05 s at first
    and twice as long each time up to 2 s, and once subscribed again calls ``on_resync``.
    A connection that stays silent ``idle_seconds`` is pinged, and given up when silent as
    long again: a Redis machine that vanished without closing it is noticed too.
    Publishing while Redis is away fails within ``timeout`` seconds, and is counted.
    """

    def __init__(
        self,
        url: str,
        *,
        worker: str,
        channel: str = CHANNEL,
        timeout: float = 0.5,
        idle_seconds: float = 5.0,
    ) -> None:
        super().__init__()
        if not isinstance(worker, str):
            raise TypeError(f"a worker's id is text, got {type(worker).__name__}")
        if not 0 < len(worker) <= MAX_FIELD_CHARS:
            raise ConfigError(
                f"a worker's id is 1 to {MAX_FIELD_CHARS} characters, got {short_repr(worker)}"
            )
        aioredis = _redis_module()
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.url, self.worker, self.channel, self.timeout = url, worker, channel, timeout
        self.idle_seconds = idle_seconds
        options: dict[str, Any] = {
            "socket_connect_timeout": timeout,
            "socket_timeout": timeout,
            "socket_keepalive": True,
        }
        try:
            # one quick retry rides over a connection Redis closed while idle
            self._publisher: redis.asyncio.Redis = aioredis.Redis.from_url(
                url, retry=Retry(NoBackoff(), 1), **options
            )
            # none for the listener: a lost subscription is this hub's to notice and mend
            self._listener: redis.asyncio.Redis = aioredis.Redis.from_url(
                url, retry=Retry(NoBackoff(), 0), **options
            )
        except ValueError as error:
            raise ConfigError(f"cannot read the Redis URL {url!r}: {error}") from None
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._publishing = True  # whether the last publish worked (to log changes once)
        self._stopped = False

    async def start(self, on_notice: OnNotice, on_resync: OnResync) -> None:
        """Subscribe (waiting for Redis's confirmation, so a notice published after this
        returns is heard), then listen in a task. A Redis that is down now is not an
        error: the reader keeps trying, and calls ``on_resync`` once it is in.
        """
        if self._reader is not None:
            raise RuntimeError("the hub is started already")
        self._on_notice, self._on_resync = on_notice, on_resync
        pubsub = None
        try:
            pubsub = await self._subscribe()
        except Exception as error:
            log.warning("hub: Redis at %s does not answer (%s); retrying", self.url, error)
        self._reader = asyncio.create_task(self._read(pubsub), name=f"hub reader {self.worker}")

    async def publish(self, notice: Notice) -> None:
        """Publish ``notice`` on the channel; a failure is logged once until Redis is back
        and counted in :attr:`~Hub.failures`, as is a notice published after :meth:`stop`.
        """
        if self._stopped:
            self.failures += 1
            return
        try:
            await asyncio.wait_for(
                self._publisher.publish(self.channel, notice.to_json()), 2 * self.timeout
            )
        except Exception as error:
            self.failures += 1
            if self._publishing:
                log.warning("hub: cannot publish to Redis (%s); the workers' polls carry on", error)
            self._publishing = False
        else:
            if not self._publishing:
                log.info("hub: publishing to Redis again")
            self._publishing = True

    async def stop(self) -> None:
        """Cancel the reader and every notice in hand, and close both connections."""
        self._stopped = True
        tasks = [*self._tasks, *([self._reader] if self._reader is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._reader = None
        self.connected = False
        for client in (self._publisher, self._listener):
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _subscribe(self) -> redis.asyncio.client.PubSub:
        """A subscription to the channel, confirmed by Redis."""
        pubsub = self._listener.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            while True:
                message = await pubsub.get_message(timeout=self.timeout)
                if message is None:
                    raise TimeoutError("Redis did not confirm the subscription")
                if message["type"] == "subscribe":
                    break
        except BaseException:
            await self._close(pubsub)
            raise
        self.connected = True
        return pubsub

    async def _read(self, pubsub: redis.asyncio.client.PubSub | None) -> None:
        """Hand on every message while subscribed; subscribe again whenever the
        connection drops, with backoff, and ask for a resync each time it is back.
        """
        backoff = _FIRST_BACKOFF
        try:
            while not self._stopped:  # a stop cancels it, and ends it should a cancel be lost
                if pubsub is None:
                    try:
                        pubsub = await self._subscribe()
                    except Exception as error:
                        log.debug("hub: Redis still away (%s); next try in %g s", error, backoff)
                        await asyncio.sleep(backoff)
                        backoff = min(2 * backoff, _LAST_BACKOFF)
                        continue
                    log.info("hub: subscribed to Redis again; resynchronising")
                    self._hand_on(self._on_resync, "the resync")
                backoff = _FIRST_BACKOFF
                try:
                    await self._listen(pubsub)
                except Exception as error:
                    self.connected = False
                    log.warning("hub: lost Redis (%s); reconnecting", error)
                    await self._close(pubsub)
                    pubsub = None
        finally:
            self.connected = False
            if pubsub is not None:
                await self._close(pubsub)

    async def _listen(self, pubsub: redis.asyncio.client.PubSub) -> None:
        """Hand on every message until the connection fails or falls silent."""
        clock = asyncio.get_running_loop().time
        heard, pinged = clock(), False
        while not self._stopped:
            message = await pubsub.get_message(timeout=min(1.0, self.idle_seconds))
            if message is not None:
                heard, pinged = clock(), False
                if message["type"] == "message":
                    self._received(message["data"])
            elif clock() - heard > 2 * self.idle_seconds:
                raise ConnectionError(f"Redis has not answered for {clock() - heard:.1f} s")
            elif clock() - heard > self.idle_seconds and not pinged:
                await pubsub.ping()
                pinged = True

    def _received(self, data: object) -> None:
        """Read one message from the channel and hand it on, unless it is our own."""
        try:
            if not isinstance(data, str | bytes):
                raise InvalidStateError(f"a notice is text, got {type(data).__name__}")
            notice = Notice.from_json(data)
        except TabletopError as error:
            self.dropped += 1
            log.warning("hub: dropped a malformed notice: %s", error)
            return
        if notice.worker != self.worker:
            self._hand_on(partial(self._on_notice, notice), f"the notice {notice}")

    def _hand_on(self, work: Callable[[], Awaitable[None]], what: str) -> None:
        """Run ``work()`` in a task of its own, logging its failure as ``what`` failing;
        called inside the task, so a task cancelled before it starts leaves no coroutine
        unawaited.
        """

        async def logged() -> None:
            try:
                await work()
            except Exception:
                log.exception("hub: %s failed", what)

        task = asyncio.create_task(logged())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _close(pubsub: redis.asyncio.client.PubSub) -> None:
        with contextlib.suppress(Exception):
            await pubsub.aclose()


def open_hub(url: str | None, worker: str) -> Hub:
    """The hub ``url`` names: ``None`` for one process (:class:`LocalHub`), or
    ``redis://host:port[/db]`` (``rediss://`` for TLS) for Redis pub/sub
    (:class:`RedisHub`, publishing as ``worker``); :class:`~tabletop_rules.errors.ConfigError`
    for any other.

    >>> open_hub(None, "w1")  # doctest: +ELLIPSIS
    <tabletop_rules.server.hub.LocalHub object at ...>
    >>> open_hub("amqp://q", "w1")
    Traceback (most recent call last):
      ...
    tabletop_rules.errors.ConfigError: a hub URL starts redis:// or rediss://, got 'amqp://q'
    """
    if url is None:
        return LocalHub()
    if not isinstance(url, str):
        raise TypeError(f"a hub's URL is text or None, got {type(url).__name__}")
    if url.startswith(("redis://", "rediss://")):
        return RedisHub(url, worker=worker)
    raise ConfigError(f"a hub URL starts redis:// or rediss://, got {short_repr(url)}")
