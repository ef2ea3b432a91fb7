"""The server's metrics in the Prometheus text format, served at ``/metrics``.

Each :class:`Metrics` owns its own registry, so several servers in one process (the tests'
workers) never share a count, and every metric is labelled by the worker it describes.
The app calls plain methods (:meth:`Metrics.moved`, :meth:`Metrics.refused`, ...) and
never touches a ``prometheus_client`` object.

>>> metrics = Metrics("w1")
>>> metrics.moved("person", seconds=0.004)
>>> metrics.refused("a free-text reason")  # not a known kind: counted as "other"
>>> body, content_type = metrics.render()
>>> for line in body.decode().splitlines():
...     if line.startswith(("tabletop_moves_total", 'tabletop_refusals_total{reason_kind="o')):
...         print(line)
tabletop_moves_total{by="person",worker="w1"} 1.0
tabletop_moves_total{by="server",worker="w1"} 0.0
tabletop_refusals_total{reason_kind="other",worker="w1"} 1.0
>>> content_type
'text/plain; version=0.0.4; charset=utf-8'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, TypeVar, get_args

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from ..errors import ConfigError, TabletopError

__all__ = [
    "COMMIT_BUCKETS",
    "MOVE_BUCKETS",
    "REFUSAL_KINDS",
    "Metrics",
    "Mover",
    "RefusalKind",
]

Mover = Literal["person", "server"]
"""Who made a move: a person over a socket, or the server (a bot, chance, a timed-out
seat's bot).
"""

RefusalKind = Literal["stale", "illegal", "limit", "unavailable", "other"]
"""Why a message was refused, in a few words a dashboard can group by: ``stale`` (it
answered an old version), ``illegal`` (the rules forbid it, or it was out of turn),
``limit`` (a budget or size limit), ``unavailable`` (the store could not be reached; the
client may retry), ``other``. Never the refusal's text, which would make a label value of
every message.
"""

REFUSAL_KINDS: Final[tuple[RefusalKind, ...]] = get_args(RefusalKind)
"""Every :data:`RefusalKind`, each counted from 0."""

_MOVERS: Final[tuple[Mover, ...]] = get_args(Mover)

_F = TypeVar("_F", Counter, Gauge, Histogram)

MOVE_BUCKETS: Final = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
)
"""Upper bounds, in seconds, of :meth:`Metrics.moved`'s histogram: from 0.5 ms (a move on
one worker with SQLite) to 5 s (a bot's full think, a store under strain).
"""

COMMIT_BUCKETS: Final = (0.0001, 0.00025, *MOVE_BUCKETS)
"""Upper bounds, in seconds, of :meth:`Metrics.committed`'s histogram: a commit is a part
of a move, and SQLite's take a fraction of a millisecond, so these begin at 0.1 ms.
"""


class Metrics:
    """The counters, gauges and histograms of one server (one ``worker``), in a registry
    of their own.

    The gauges are read from callbacks at each scrape (:meth:`track`), so they cannot
    drift from the truth they read.
    """

    def __init__(self, worker: str) -> None:
        if not isinstance(worker, str):
            raise TypeError(f"a worker id is text, got {type(worker).__name__}")
        if not worker:
            raise ConfigError("a worker id is needed to label the metrics, got ''")
        self.worker: Final = worker
        self.registry: Final = CollectorRegistry(auto_describe=True)

        def family(kind: type[_F], name: str, about: str, *labels: str, **options: Any) -> _F:
            return kind(name, about, ("worker", *labels), registry=self.registry, **options)

        # Every child is made now, so each series is exported from 0 before it first counts.
        self._rooms = family(Gauge, "tabletop_rooms", "Matches loaded in memory.").labels(worker)
        self._clients = family(Gauge, "tabletop_clients", "Open sockets.").labels(worker)
        self._playing = family(
            Gauge, "tabletop_matches_playing", "Matches being played (status playing)."
        ).labels(worker)
        moves = family(
            Counter, "tabletop_moves", "Moves committed and broadcast, by who made them.", "by"
        )
        self._moves: dict[str, Counter] = {by: moves.labels(worker, by) for by in _MOVERS}
        refusals = family(
            Counter,
            "tabletop_refusals",
            "Messages refused, by kind (stale, illegal, limit, unavailable, other).",
            "reason_kind",
        )
        self._refusals: dict[str, Counter] = {
            kind: refusals.labels(worker, kind) for kind in REFUSAL_KINDS
        }
        self._store_errors = family(
            Counter, "tabletop_store_errors", "Store operations that failed (not stale versions)."
        ).labels(worker)
        notices = family(
            Counter,
            "tabletop_notices",
            "Change notices published to or received from the other workers.",
            "direction",
        )
        self._notices_sent = notices.labels(worker, "sent")
        self._notices_received = notices.labels(worker, "received")
        self._resyncs = family(
            Counter,
            "tabletop_resyncs",
            "Times the fan-out reconnected and rooms re-read the store.",
        ).labels(worker)
        move_seconds = family(
            Histogram,
            "tabletop_move_seconds",
            "Seconds from a move read to its broadcast done, by who made it.",
            "by",
            buckets=MOVE_BUCKETS,
        )
        self._move_seconds: dict[str, Histogram] = {
            by: move_seconds.labels(worker, by) for by in _MOVERS
        }
        self._commit_seconds = family(
            Histogram,
            "tabletop_commit_seconds",
            "Seconds of the store's transaction for one change.",
            buckets=COMMIT_BUCKETS,
        ).labels(worker)

    def __repr__(self) -> str:
        return f"Metrics({self.worker!r})"

    def moved(self, by: Mover, seconds: float | None = None) -> None:
        """Count a move made ``by`` a person or the server, which took ``seconds`` from its
        message read (or, for the server's, from its decision) to its broadcast done;
        ``None`` counts it without timing it.
        """
        try:
            count = self._moves[by]
        except KeyError:
            raise TabletopError(f"a move is made by one of {_MOVERS}, got {by!r}") from None
        count.inc()
        if seconds is not None:
            self._move_seconds[by].observe(seconds)

    def refused(self, kind: str) -> None:
        """Count a refused message of ``kind`` (one of :data:`REFUSAL_KINDS`; any other
        text counts as ``other``, so a careless caller cannot grow the label space).
        """
        self._refusals.get(kind, self._refusals["other"]).inc()

    def committed(self, seconds: float) -> None:
        """Time one store transaction (a change committed, or refused as stale)."""
        self._commit_seconds.observe(seconds)

    def store_failed(self) -> None:
        """Count a store operation that failed: the database unreachable, a timeout."""
        self._store_errors.inc()

    def notice_sent(self) -> None:
        """Count a change notice published to the other workers."""
        self._notices_sent.inc()

    def notice_received(self) -> None:
        """Count a change notice received from another worker."""
        self._notices_received.inc()

    def resynced(self) -> None:
        """Count a resynchronisation: the fan-out reconnected and rooms re-read the store."""
        self._resyncs.inc()

    def track(
        self,
        *,
        rooms: Callable[[], float] | None = None,
        clients: Callable[[], float] | None = None,
        playing: Callable[[], float] | None = None,
    ) -> None:
        """Read each gauge given from its callback at every scrape (e.g.
        ``rooms=lambda: len(server.rooms)``); a callback runs in :meth:`render`, so it is
        quick and does not wait on the store. A gauge never tracked reads 0.
        """
        for gauge, read in (
            (self._rooms, rooms),
            (self._clients, clients),
            (self._playing, playing),
        ):
            if read is not None:
                gauge.set_function(read)

    def render(self) -> tuple[bytes, str]:
        """The body of a ``/metrics`` answer (the Prometheus text format) and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
