"""The server's metrics: Prometheus text with every metric labelled by its worker, one
registry per server, refusals grouped into a few kinds.
"""

from __future__ import annotations

import math

import pytest

pytest.importorskip("starlette")  # the server package imports its app
pytest.importorskip("prometheus_client")

from prometheus_client import REGISTRY
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from tabletop_rules.errors import ConfigError, TabletopError
from tabletop_rules.server.metrics import MOVE_BUCKETS, REFUSAL_KINDS, Metrics

# each metric: its type and the labels of its samples besides ``worker``
EXPECTED: dict[str, tuple[str, dict[str, set[str]]]] = {
    "tabletop_rooms": ("gauge", {}),
    "tabletop_clients": ("gauge", {}),
    "tabletop_matches_playing": ("gauge", {}),
    "tabletop_moves": ("counter", {"by": {"person", "server"}}),
    "tabletop_refusals": ("counter", {"reason_kind": set(REFUSAL_KINDS)}),
    "tabletop_store_errors": ("counter", {}),
    "tabletop_notices": ("counter", {"direction": {"sent", "received"}}),
    "tabletop_resyncs": ("counter", {}),
    "tabletop_move_seconds": ("histogram", {"by": {"person", "server"}}),
    "tabletop_commit_seconds": ("histogram", {}),
}


def scrape(metrics: Metrics) -> dict[str, Metric]:
    body, _ = metrics.render()
    return {family.name: family for family in text_string_to_metric_families(body.decode())}


def value(family: Metric, sample_name: str, **labels: str) -> float:
    (found,) = [
        sample.value
        for sample in family.samples
        if sample.name == sample_name and labels.items() <= sample.labels.items()
    ]
    return found


def test_the_metrics_text_parses_back_with_each_metric_and_its_labels() -> None:
    metrics = Metrics("w1")
    families = scrape(metrics)
    for name, (kind, labels) in EXPECTED.items():
        family = families[name]
        assert family.type == kind, name
        for sample in family.samples:
            assert sample.labels["worker"] == "w1"
        for label, values in labels.items():
            assert {sample.labels[label] for sample in family.samples} == values, name


def test_each_call_counts_in_its_own_metric() -> None:
    metrics = Metrics("w1")
    metrics.moved("person", seconds=0.003)
    metrics.moved("person", seconds=0.2)
    metrics.moved("server")
    metrics.refused("stale")
    metrics.committed(0.0004)
    metrics.store_failed()
    metrics.notice_sent()
    metrics.notice_received()
    metrics.notice_received()
    metrics.resynced()
    metrics.track(rooms=lambda: 3, clients=lambda: 1, playing=lambda: 2)
    families = scrape(metrics)
    moves, seconds = families["tabletop_moves"], families["tabletop_move_seconds"]
    assert value(moves, "tabletop_moves_total", by="person") == 2
    assert value(moves, "tabletop_moves_total", by="server") == 1
    assert value(seconds, "tabletop_move_seconds_count", by="person") == 2
    assert value(seconds, "tabletop_move_seconds_sum", by="person") == pytest.approx(0.203)
    assert value(seconds, "tabletop_move_seconds_count", by="server") == 0  # not timed
    refusals = families["tabletop_refusals"]
    assert value(refusals, "tabletop_refusals_total", reason_kind="stale") == 1
    assert value(refusals, "tabletop_refusals_total", reason_kind="illegal") == 0
    commits = families["tabletop_commit_seconds"]
    assert value(commits, "tabletop_commit_seconds_bucket", le="0.0005") == 1
    assert value(commits, "tabletop_commit_seconds_bucket", le="0.00025") == 0
    assert value(families["tabletop_store_errors"], "tabletop_store_errors_total") == 1
    notices = families["tabletop_notices"]
    assert value(notices, "tabletop_notices_total", direction="sent") == 1
    assert value(notices, "tabletop_notices_total", direction="received") == 2
    assert value(families["tabletop_resyncs"], "tabletop_resyncs_total") == 1
    assert value(families["tabletop_rooms"], "tabletop_rooms") == 3
    assert value(families["tabletop_clients"], "tabletop_clients") == 1
    assert value(families["tabletop_matches_playing"], "tabletop_matches_playing") == 2


def test_render_answers_the_prometheus_text_content_type() -> None:
    body, content_type = Metrics("w1").render()
    assert content_type.startswith("text/plain; version=0.0.4")
    assert body.startswith(b"# HELP ")


def test_two_metrics_in_one_process_do_not_share_counts() -> None:
    first, second = Metrics("w1"), Metrics("w1")
    first.moved("person", seconds=0.01)
    first.refused("illegal")
    first.track(rooms=lambda: 5)
    families = scrape(second)
    assert value(families["tabletop_moves"], "tabletop_moves_total", by="person") == 0
    refusals = families["tabletop_refusals"]
    assert value(refusals, "tabletop_refusals_total", reason_kind="illegal") == 0
    assert value(families["tabletop_rooms"], "tabletop_rooms") == 0
    assert value(scrape(first)["tabletop_moves"], "tabletop_moves_total", by="person") == 1


def test_no_metric_is_registered_in_the_global_registry() -> None:
    Metrics("w1")
    assert not [name for name in REGISTRY._names_to_collectors if name.startswith("tabletop_")]


def test_a_refusal_kind_outside_the_set_is_counted_as_other() -> None:
    metrics = Metrics("w1")
    metrics.refused("a move of seat 2 at version 7: not your turn")
    metrics.refused("other")
    refusals = scrape(metrics)["tabletop_refusals"]
    assert {sample.labels["reason_kind"] for sample in refusals.samples} == set(REFUSAL_KINDS)
    assert value(refusals, "tabletop_refusals_total", reason_kind="other") == 2


def test_move_latency_buckets_run_from_half_a_millisecond_to_five_seconds() -> None:
    metrics = Metrics("w1")
    metrics.moved("person", seconds=7.0)
    seconds = scrape(metrics)["tabletop_move_seconds"]
    bounds = [
        float(sample.labels["le"])
        for sample in seconds.samples
        if sample.name.endswith("_bucket") and sample.labels["by"] == "person"
    ]
    assert bounds == [*MOVE_BUCKETS, math.inf]
    assert (bounds[0], bounds[-2]) == (0.0005, 5.0)
    assert value(seconds, "tabletop_move_seconds_bucket", by="person", le="5.0") == 0
    assert value(seconds, "tabletop_move_seconds_bucket", by="person", le="+Inf") == 1


def test_gauges_tracked_by_callbacks_are_read_at_each_scrape() -> None:
    rooms = {"a": 1}
    metrics = Metrics("w1")
    metrics.track(rooms=lambda: len(rooms), clients=lambda: 4, playing=lambda: len(rooms) - 1)
    assert value(scrape(metrics)["tabletop_rooms"], "tabletop_rooms") == 1
    rooms["b"] = 2
    families = scrape(metrics)
    assert value(families["tabletop_rooms"], "tabletop_rooms") == 2
    assert value(families["tabletop_clients"], "tabletop_clients") == 4
    assert value(families["tabletop_matches_playing"], "tabletop_matches_playing") == 1


def test_a_move_by_an_unknown_mover_is_refused_with_the_movers_named() -> None:
    with pytest.raises(TabletopError, match=r"one of \('person', 'server'\), got 'bot'"):
        Metrics("w1").moved("bot", seconds=0.1)  # type: ignore[arg-type]


def test_a_worker_id_is_needed_and_is_text() -> None:
    with pytest.raises(ConfigError, match="a worker id is needed"):
        Metrics("")
    with pytest.raises(TypeError, match="a worker id is text, got int"):
        Metrics(1)  # type: ignore[arg-type]
