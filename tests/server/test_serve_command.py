"""``tabletop-rules serve``: uvicorn serving the app on the store the command opens, and a
clean refusal with advice where the server extra is missing or the file cannot be kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("rich")

import uvicorn

from tabletop_rules.cli import main
from tabletop_rules.server import SQLiteStore

from .helpers import Serving, free_port


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``serve`` hands uvicorn.run last (the app and its options), run no further."""
    handed: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: handed.update(app=app, **options))
    return handed


def test_serve_runs_the_app_with_uvicorn_on_the_database_file(
    tmp_path: Path, ran: dict[str, Any]
) -> None:
    path = tmp_path / "matches.sqlite"
    assert main(["serve", "--db", str(path), "--port", "8123"]) == 0
    assert ran["host"] == "127.0.0.1"
    assert ran["port"] == 8123
    assert ran["app"].state.server.store.path == str(path)
    assert path.exists()


def test_serve_trusts_the_forwarded_client_address_of_the_balancers_it_is_told_of(
    tmp_path: Path, ran: dict[str, Any]
) -> None:
    db = str(tmp_path / "matches.sqlite")
    assert main(["serve", "--db", db, "--forwarded-allow-ips", "10.0.0.5,10.0.0.6"]) == 0
    assert ran["forwarded_allow_ips"] == "10.0.0.5,10.0.0.6"
    assert main(["serve", "--db", db]) == 0
    assert ran["forwarded_allow_ips"] is None  # uvicorn reads FORWARDED_ALLOW_IPS, else 127.0.0.1


def test_behind_a_trusted_balancer_the_limits_count_each_forwarded_client() -> None:
    from websockets.sync.client import connect

    serving = Serving(SQLiteStore(), free_port(), sockets_per_client=1)
    url = serving.base.replace("http", "ws", 1) + "/ws/no-match"
    try:  # uvicorn trusts X-Forwarded-For from 127.0.0.1, the balancer here
        with (
            connect(url, additional_headers={"X-Forwarded-For": "10.0.0.1"}) as one,
            connect(url, additional_headers={"X-Forwarded-For": "10.0.0.2"}) as other,
        ):
            with connect(url, additional_headers={"X-Forwarded-For": "10.0.0.1"}) as again:
                refused = json.loads(again.recv(5))
            for waiting in (one, other):  # each its own client, its hello awaited
                with pytest.raises(TimeoutError):
                    waiting.recv(0.3)
    finally:
        serving.stop()
    assert refused == {
        "type": "error",
        "reason": "a client may hold 1 sockets open; close one first",
    }


def test_serve_beats_within_the_shortest_lease_it_takes(
    tmp_path: Path, ran: dict[str, Any]
) -> None:
    db = str(tmp_path / "matches.sqlite")
    assert main(["serve", "--db", db, "--lease-seconds", "0.5"]) == 0
    settings = ran["app"].state.server.settings
    assert (settings.lease_seconds, settings.heartbeat_seconds) == (0.5, 0.125)
    assert main(["serve", "--db", db]) == 0
    assert ran["app"].state.server.settings.heartbeat_seconds == 1.0


def test_serve_without_the_server_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    assert main(["serve"]) == 2
    assert "pip install 'tabletop-rules[server]'" in capsys.readouterr().err


def test_serve_refuses_a_database_it_cannot_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "no" / "such" / "dir.sqlite")]) == 2
    assert "cannot keep matches in" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
