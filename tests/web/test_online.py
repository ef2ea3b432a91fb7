"""The web page played online: ``tabletop-rules serve --site`` serves the built page beside
the API, and the same page, drawing the server's tables with its own drawing code, plays a
match between two browsers while a third watches.
"""

from __future__ import annotations

import contextlib
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tabletop_rules import Match, palace
from tabletop_rules.errors import ConfigError
from tabletop_rules.records import GameRecord
from tabletop_rules.serialize import dumps

from .helpers import cards_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

pytest.importorskip("starlette")

with warnings.catch_warnings():  # the test client's own notice that httpx will change
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from tabletop_rules.server import create_app


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


# --- the page online, in three browsers ---------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(site: Path, db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``tabletop-rules serve`` process on the SQLite file ``db``, serving ``site``
    at ``port``, once it answers; killed at the end.
    """
    command = [sys.executable, "-m", "tabletop_rules.cli", "serve", "--db", str(db)]
    command += ["--site", str(site), "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    _stdout, errors = process.communicate(timeout=5)
                    pytest.fail(f"tabletop-rules serve did not start: {errors.decode()[-2000:]}")
                time.sleep(0.2)
        yield process
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


@pytest.fixture(scope="module")
def server(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server the browser tests play on, for the whole module."""
    port = _free_port()
    with serving(site, tmp_path_factory.mktemp("online") / "matches.sqlite", port):
        yield f"http://127.0.0.1:{port}"


class Browser3:
    """A browser context per person (its own storage), each page's errors collected."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, name: str) -> Page:
        context = self.browser.new_context(
            viewport={"width": 1000, "height": 900}, accept_downloads=True
        )
        self.contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda error: self.errors.append(f"{name}: {error}"))

        def reported(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.errors.append(f"{name} console: {message.text}")

        opened.on("console", reported)
        return opened

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def people(browser: Browser) -> Iterator[Browser3]:
    crowd = Browser3(browser)
    yield crowd
    crowd.close()
    assert crowd.errors == []


def create_match(page: Page, server: str, game: str, rules: dict[str, str] | None = None) -> str:
    """Create a match from the page's form, the page at seat 0 and seat 1 a person by link;
    the link the page shows for seat 1.
    """
    page.goto(f"{server}/?game={game}")
    page.wait_for_selector("#play:not([hidden])", timeout=90_000)  # the page's own game
    if not page.is_visible("#rules"):
        page.click("#setup summary")
    for name, value in (rules or {}).items():
        page.fill(f"#rule-{name}", value)
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "link")
    page.click("#create-online")
    page.wait_for_selector("#invite-1", timeout=30_000)
    assert "seat=0" in page.url
    return page.input_value("#invite-1")


def version_of(page: Page) -> int:
    return int(page.get_attribute("#play", "data-version") or -1)


def wait_version(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => document.querySelector('#play').dataset.version === v", arg=str(version)
    )


def play_first_move(page: Page, prefer: tuple[str, ...] = ()) -> str:
    """Press the first of the page's legal-move buttons (one starting with a ``prefer``
    word first), from the moves in notation.
    """
    if page.get_attribute("#notation", "open") is None:
        page.click("#notation > summary")
    buttons = page.locator("#moves button")
    texts = buttons.all_inner_texts()
    assert texts, "the page on turn shows no move"
    chosen = (
        next((i for i, text in enumerate(texts) if text.startswith(prefer)), 0) if prefer else 0
    )
    buttons.nth(chosen).click()
    return texts[chosen]


def play_on(
    players: list[Page],
    watchers: list[Page],
    moves: int | None,
    prefer: tuple[str, ...] = (),
    each: Callable[[int], None] | None = None,
) -> int:
    """Play ``moves`` moves (``None``: to the end), each by the page on turn, every page
    waiting for the table that follows; the version reached.
    """
    played = 0
    version = version_of(players[0])
    while moves is None or played < moves:
        if players[0].get_attribute("#play", "data-status") == "over":
            break
        to_move = int(players[0].get_attribute("#play", "data-to-move") or -1)
        on_turn = players[to_move]
        play_first_move(on_turn, prefer)
        version += 1
        for page in [*players, *watchers]:
            wait_version(page, version)
        played += 1
        if each is not None:
            each(version)
    return version


@pytest.mark.slow
def test_two_browsers_play_dice_poker_online_while_a_third_watches(
    server: str, people: Browser3
) -> None:
    first, second, watcher = people.page("P0"), people.page("P1"), people.page("watcher")
    link = create_match(first, server, "dice-poker")
    watch = first.input_value("#invite-watch")
    second.goto(link)
    watcher.goto(watch)
    for page in (first, second, watcher):
        page.wait_for_selector("#play[data-status='playing']", timeout=30_000)
    assert second.get_attribute("#play", "data-seat") == "1"
    assert watcher.get_attribute("#play", "data-seat") == ""
    assert first.is_hidden("#invite-1")  # the seat is taken: no link to share any more

    def reload_second(version: int) -> None:
        if version == 12:  # mid-game: the page comes back with its token and cursor
            second.reload()
            wait_version(second, version)
            assert second.locator("#log li").count() == version

    version = play_on([first, second], [watcher], None, each=reload_second)
    for page in (first, second, watcher):
        page.wait_for_selector("#play[data-status='over']")
        assert page.locator("#log li").count() == version
        assert "Game over." in page.inner_text("#result")
    replayed = Match.from_record(fetched_record(server, link))
    with first.expect_download() as download:
        first.click("#save")  # the record, offered once the match is over
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert GameRecord.from_json(saved) == replayed.record
    assert replayed.is_over
    assert len(replayed.moves) == version
    shown = re.findall(r"P\d (-?\d+)", first.inner_text("#result").split("Scores:")[1])
    assert tuple(map(int, shown)) == tuple(replayed.score)


def table_of(page: Page) -> str:
    """All the page shows of the match (its HTML, attributes included), but the links to
    share, whose random match id may read as a card.
    """
    html: str = page.evaluate(
        """() => {
            const play = document.querySelector('#play').cloneNode(true);
            play.querySelector('#invites').remove();
            return play.outerHTML;
        }"""
    )
    return html


def fetched_record(server: str, link: str) -> GameRecord:
    """The record of the match of ``link``, from the server (once the match is over)."""
    match_id = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["match"][0]
    with urllib.request.urlopen(f"{server}/api/matches/{match_id}/record") as answer:
        return GameRecord.from_json(answer.read().decode())


@pytest.mark.slow
def test_a_spectator_of_palace_online_never_sees_a_card_its_view_does_not_hold(
    server: str, people: Browser3
) -> None:
    first, second, watcher = people.page("P0"), people.page("P1"), people.page("watcher")
    link = create_match(first, server, "palace")
    second.goto(link)
    watcher.goto(first.input_value("#invite-watch"))
    for page in (first, second, watcher):
        page.wait_for_selector("#play[data-status='playing']", timeout=30_000)
    shown: dict[int, str] = {0: table_of(watcher)}

    def snapshot(version: int) -> None:
        shown[version] = table_of(watcher)

    version = play_on([first, second], [watcher], 10, prefer=("ready", "play"), each=snapshot)
    first.click("#resign")
    first.click("#resign")  # the second press confirms
    for page in (first, second, watcher):
        page.wait_for_selector("#play[data-status='over']")
    assert "You resigned" in first.inner_text("#result")
    assert "P0 resigned" in second.inner_text("#result")
    match = Match.from_record(fetched_record(server, link))
    assert len(match.moves) == version
    assert cards_in(shown[version])  # the face-up cards: the check has cards to check
    seen: set[str] = set()  # every card the spectator's views showed, move by move
    for at, state in enumerate(match.history):
        seen |= cards_in(dumps(palace.view(state, None)))
        assert cards_in(shown[at]) - seen == set(), f"after move {at}"
    assert cards_in(table_of(first)) - seen  # P0's own page shows its hand: the check bites


@pytest.mark.slow
def test_a_take_back_online_is_proposed_and_accepted_and_a_refusal_says_why(
    server: str, people: Browser3
) -> None:
    first, second, watcher = people.page("P0"), people.page("P1"), people.page("watcher")
    link = create_match(first, server, "account")
    second.goto(link)
    watcher.goto(first.input_value("#invite-watch"))
    for page in (first, second, watcher):
        page.wait_for_selector("#play[data-status='playing']", timeout=30_000)
    assert first.is_disabled("#undo")  # no move of P0's to take back yet
    assert watcher.is_hidden("#undo")
    # Out of turn: the server refuses, says why, and nothing is played.
    second.click("#notation > summary")
    second.fill("#move-text", "place 1")
    second.click("#typed button")
    second.wait_for_selector("#move-error:has-text('not your turn')")
    assert version_of(second) == 0
    play_on([first, second], [watcher], 2)
    first.click("#undo")
    first.wait_for_selector("#takeback:visible")
    assert first.inner_text("#move-error") == ""
    second.wait_for_selector("#takeback-accept:visible")
    assert "P0 asks to take back" in second.inner_text("#takeback-text")
    assert "waiting for P1" in first.inner_text("#takeback-text")
    assert watcher.is_hidden("#takeback-accept")
    second.click("#takeback-accept")
    for page in (first, second, watcher):
        wait_version(page, 0)
        assert page.locator("#log li").count() == 0
        assert page.is_hidden("#takeback")


BAD_REQUEST = "the server responded with a status of 400 (Bad Request)"


@pytest.mark.slow
def test_an_online_match_refuses_a_house_rule_beside_its_field_and_shows_its_clock(
    server: str, people: Browser3
) -> None:
    first, second = people.page("P0"), people.page("P1")
    first.goto(f"{server}/?game=dice-poker")
    first.wait_for_selector("#play:not([hidden])", timeout=90_000)
    first.click("#setup summary")
    first.fill("#rule-players", "1000")
    first.select_option("#seat-1", "link")
    first.click("#start")  # a person by link plays online only: the page says so
    assert "online" in first.inner_text("#error-seats")
    first.click("#create-online")
    first.wait_for_selector("#error-players:not(:empty)")
    assert "no match was created" in first.inner_text("#online-error")
    assert first.get_attribute("#rule-players", "aria-invalid") == "true"
    assert "?match=" not in first.url
    # The browser itself notes the lobby's 400 answer in the console: expected here alone.
    assert people.errors == [f"P0 console: Failed to load resource: {BAD_REQUEST}"]
    people.errors.clear()
    first.fill("#rule-players", "2")
    first.fill("#clock-move", "30")
    first.fill("#clock-bank", "90")
    first.click("#create-online")
    first.wait_for_selector("#invite-1", timeout=30_000)
    link = first.input_value("#invite-1")
    second.goto(link)
    for page in (first, second):
        page.wait_for_selector("#play[data-status='playing']", timeout=30_000)
    late = people.page("late")
    late.goto(link)  # the seat is taken: the server's reason, and no seat for this page
    late.wait_for_selector("#status:has-text('Seat P1 cannot be taken')")
    assert late.is_hidden("#resign")
    assert [error.split(": ", 1)[0] for error in people.errors] == ["late console"]
    people.errors.clear()
    assert "P0 1:30 · P1 1:30" in second.inner_text("#clock")
    first.wait_for_selector("#clock:has-text('You have')")
    before = first.inner_text("#clock")
    first.wait_for_function(
        "before => document.querySelector('#clock').textContent !== before", arg=before
    )  # counted down on the page between the server's messages
    assert "P0 has" in second.inner_text("#clock")


@pytest.mark.slow
def test_the_pages_reconnect_after_the_server_is_killed_and_started_again(
    site: Path, tmp_path: Path, people: Browser3
) -> None:
    port, db = _free_port(), tmp_path / "matches.sqlite"
    origin = f"http://127.0.0.1:{port}"
    first, second = people.page("P0"), people.page("P1")
    with serving(site, db, port) as process:
        second.goto(create_match(first, origin, "dice-poker"))
        for page in (first, second):
            page.wait_for_selector("#play[data-status='playing']", timeout=30_000)
        play_on([first, second], [], 5)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        for page in (first, second):
            page.wait_for_selector("#status:has-text('reconnecting')")
    with serving(site, db, port):
        for page in (first, second):
            page.wait_for_selector("#status:empty", state="attached", timeout=30_000)
            assert version_of(page) == 5
        version = play_on([first, second], [], 5)
    assert version == 10
    # While the server was down the browser noted each failed reconnection: those alone.
    refused = [error for error in people.errors if "WebSocket connection to" in error]
    assert [error for error in people.errors if error not in refused] == []
    people.errors.clear()
