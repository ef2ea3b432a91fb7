"""The web page played online: ``tabletop-rules serve --site`` serves the built page beside
the API, and the same page, drawing the server's tables with its own drawing code, plays a
match between two browsers while a third watches.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tabletop_rules.errors import ConfigError

pytest.importorskip("starlette")

with warnings.catch_warnings():  # the test client's own notice that httpx will change
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from tabletop_rules.server import create_app  # noqa: E402


@pytest.fixture
def small_site(tmp_path: Path) -> Path:
    """A site folder of two files, beside a secret file and a folder it must not serve."""
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><title>the page</title>", encoding="utf-8")
    (site / "sub" / "app.js").write_text("// the page's script", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("the database password", encoding="utf-8")
    (site / "outside").symlink_to(tmp_path / "secret.txt")
    return site


def test_serve_site_serves_the_page_beside_the_api(small_site: Path) -> None:
    with TestClient(create_app(site=small_site)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert "the page" in page.text
        assert client.get("/sub/app.js").text == "// the page's script"
        games = client.get("/api/games").json()["games"]
        assert "dice-poker" in {game["name"] for game in games}


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/sub/..%5c..%5csecret.txt",
        "//etc/passwd",
        "/outside",
    ],
)
def test_serve_site_serves_no_file_outside_the_site(small_site: Path, path: str) -> None:
    with TestClient(create_app(site=small_site)) as client:
        answer = client.get(path)
        assert "password" not in answer.text
        assert answer.status_code in (404, 400)


def test_serve_site_refuses_a_site_that_is_no_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="the site to serve is a folder"):
        create_app(site=tmp_path / "missing")
