"""The web page in a real browser: the built site served on 127.0.0.1 and Debian's
Chromium driven by Playwright. Without Chromium, Playwright or npm the browser tests skip
and say how to enable them.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from .helpers import WEB, web_module

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page

ENABLE = (
    "the browser tests need Debian's chromium (apt-get install chromium, or "
    "TABLETOP_CHROMIUM=/path/to/chromium), Playwright (pip install -e '.[dev]') and, "
    "for the first build of examples/web, Node.js with npm; .ci/run installs all three"
)


def _chromium() -> str | None:
    return (
        os.environ.get("TABLETOP_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )


def _skip(reason: str) -> NoReturn:
    """Skip the browser tests, or fail them where CI requires them
    (``TABLETOP_REQUIRE_BROWSER=1``, as ``.ci/run`` sets it).
    """
    if os.environ.get("TABLETOP_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (TABLETOP_REQUIRE_BROWSER=1 requires the browser tests)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page built from this working tree, as make_site.py builds it."""
    if _chromium() is None:
        _skip(f"no Chromium found: {ENABLE}")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _skip(f"no Playwright: {ENABLE}")
    if not (WEB / "node_modules" / "pyodide").exists() and shutil.which("npm") is None:
        _skip(f"Pyodide is not installed and there is no npm: {ENABLE}")
    built: Path = web_module("make_site").build_site(tmp_path_factory.mktemp("web") / "site")
    return built


@pytest.fixture(scope="session")
def origin(site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1, at a free port."""
    server = web_module("make_site").site_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser(origin: str) -> Iterator[Browser]:
    """Headless Chromium from the system, not a browser Playwright downloads."""
    from playwright.sync_api import Error, sync_playwright

    with sync_playwright() as playwright:
        path = _chromium()
        try:
            chromium = playwright.chromium.launch(executable_path=path, headless=True)
        except Error as error:  # e.g. a sandboxed (snap) build Playwright cannot drive
            first_line = str(error).splitlines()[0]
            _skip(
                f"the Chromium at {path} does not start under Playwright ({first_line}): {ENABLE}"
            )
        yield chromium
        chromium.close()


class Visit:
    """What a page did while a test used it: every request, every uncaught error, and
    every error the page reported in the console (an animation it left out, say).
    """

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.console_errors: list[str] = []


@pytest.fixture
def visit() -> Visit:
    return Visit()


@pytest.fixture
def page(browser: Browser, origin: str, visit: Visit) -> Iterator[Page]:
    """A fresh page (its own context: no cache, no storage) at desktop width. After the
    test it checks what every test must hold: no request left the page's origin, no
    script error was thrown or reported, and no Python traceback was ever shown.
    """
    context = browser.new_context(viewport={"width": 1000, "height": 900}, accept_downloads=True)
    opened = context.new_page()
    opened.on("request", lambda request: visit.requests.append(request.url))
    opened.on("pageerror", lambda error: visit.errors.append(str(error)))

    def reported(message: ConsoleMessage) -> None:
        if message.type == "error":
            visit.console_errors.append(message.text)

    opened.on("console", reported)
    yield opened
    shown = opened.inner_text("body")
    context.close()
    assert [url for url in visit.requests if not url.startswith(f"{origin}/")] == []
    assert visit.errors == []
    assert visit.console_errors == []
    assert "Traceback" not in shown
