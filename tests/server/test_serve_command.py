"""``tabletop-rules serve``: uvicorn serving the app on the store the command opens, and a
clean refusal with advice where the server extra is missing or the file cannot be kept.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("rich")

import uvicorn

from tabletop_rules.cli import main


def test_serve_runs_the_app_with_uvicorn_on_the_database_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(app=app, **options))
    path = tmp_path / "matches.sqlite"
    assert main(["serve", "--db", str(path), "--port", "8123"]) == 0
    assert ran["host"] == "127.0.0.1"
    assert ran["port"] == 8123
    assert ran["app"].state.server.store.path == str(path)
    assert path.exists()


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
