"""How long the web page takes to load, and how much it loads, in headless Chromium.

The script builds the site of ``examples/web`` (``make_site.build_site``) into a scratch
folder, serves it on 127.0.0.1 (``make_site.site_server``, any free port) and loads the
page ``--runs`` times per game, each load in a fresh browser context (its own empty
cache), the games' order rotated each run. The page starts a game on load, so the first
legal-move button (``#moves button``) is the moment a person can play.

Timed, per load:

- **first move**: ``performance.now()`` in the page when the first ``#moves button``
  appears (a ``MutationObserver`` set up before the page's own scripts notes it), that
  is the milliseconds from the start of navigation;
- **runtime**: the same clock when the page's status says the Python runtime is up
  ("Loading the rules engine…"), before the wheels load;
- **wall**: the wall clock in this process around ``page.goto`` and the wait for the
  button (it adds Playwright's round trips).

Counted, per load: every request the page made, and the body bytes of their responses
(the server does not compress, so this is what crosses the wire). Every request must go
to the page's own origin; any other is reported as a warning.

Run::

    python benchmarks/web_load.py [--runs 5] [--games dice-poker,palace,account]
        [--json out.json]

It needs the site's build tools (``make_site.py``: pip, and Node.js with npm once),
PyPI ``playwright`` and Debian's ``chromium`` (``--chromium PATH``); Playwright's own
browser download is never used. This is an absolute measurement on one machine, for the
documentation (``docs/web.rst``); nothing asserts it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from harness import machine, machine_line, write_report
from playwright.sync_api import Browser, Request, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[1]
MAKE_SITE = ROOT / "examples" / "web" / "make_site.py"
GAMES = ("dice-poker", "palace", "account")
CHROMIUM = "/usr/bin/chromium"

MARKS = """
(() => {
  const marks = {};
  window.__webLoad = marks;
  const observer = new MutationObserver(() => {
    const status = document.getElementById("status");
    const text = status ? status.textContent : "";
    if (!("runtime" in marks) && text.startsWith("Loading the rules engine")) {
      marks.runtime = performance.now();
    }
    if (!("ready" in marks) && text.startsWith("Ready")) {
      marks.ready = performance.now();
      marks.status = text;
    }
    if (!("firstMove" in marks) && document.querySelector("#moves button")) {
      marks.firstMove = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();
"""
"""Set up in every page before its scripts: notes ``performance.now()`` at each mark."""


@dataclass
class Load:
    """One load of the page: its times in milliseconds and what it fetched."""

    game: str
    first_move_ms: float
    runtime_ms: float
    wall_ms: float
    requests: int
    bytes: int
    files: dict[str, int] = field(default_factory=dict)
    foreign: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    status: str = ""


def import_make_site() -> ModuleType:
    """``examples/web/make_site.py`` as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("make_site", MAKE_SITE)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot import {MAKE_SITE}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_page(browser: Browser, origin: str, game: str, timeout: float) -> Load:
    """Load the page for ``game`` once, in a fresh context, until its first legal move."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(MARKS)
        requests: list[Request] = []
        failed: list[str] = []
        page.on("request", lambda request: requests.append(request))
        page.on("requestfailed", lambda request: failed.append(request.url))
        start = time.perf_counter()
        page.goto(f"{origin}/?game={game}&seed=1")
        try:
            page.wait_for_selector("#moves button", state="attached", timeout=timeout * 1000)
        except PlaywrightTimeoutError:
            status = page.text_content("#status")
            raise SystemExit(
                f"web_load: no legal move on the {game} page after {timeout:g} s; "
                f"its status says: {status!r}"
            ) from None
        wall = (time.perf_counter() - start) * 1000
        marks: dict[str, Any] = page.evaluate("window.__webLoad")
        files: dict[str, int] = {}
        foreign: list[str] = []
        fetched = 0
        for request in requests:
            parts = urlsplit(request.url)
            if parts.scheme in ("data", "blob"):
                continue  # made in the page, not fetched
            if f"{parts.scheme}://{parts.netloc}" != origin:
                foreign.append(request.url)
            response = request.response()
            size = request.sizes()["responseBodySize"] if response is not None else 0
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            files[path] = files.get(path, 0) + size
            fetched += 1
        return Load(
            game=game,
            first_move_ms=float(marks["firstMove"]),
            runtime_ms=float(marks.get("runtime", float("nan"))),
            wall_ms=wall,
            requests=fetched,
            bytes=sum(files.values()),
            files=files,
            foreign=foreign,
            failed=failed,
            status=str(marks.get("status", "")),
        )
    finally:
        context.close()


def spread(values: Sequence[float], unit: str = "", digits: int = 0) -> str:
    """The median and the min-max of ``values``."""
    shown = [f"{value:,.{digits}f}" for value in (statistics.median(values), *sorted(values))]
    return f"{shown[0]}{unit} ({shown[1]}-{shown[-1]})"


def summary(loads: Sequence[Load], games: Sequence[str]) -> list[dict[str, Any]]:
    """Per game: the medians and min-max of the times, and what a load fetched."""
    rows = []
    for game in games:
        mine = [load for load in loads if load.game == game]
        rows.append(
            {
                "game": game,
                "runs": len(mine),
                "first_move_ms": _stats([load.first_move_ms for load in mine]),
                "runtime_ms": _stats([load.runtime_ms for load in mine]),
                "wall_ms": _stats([load.wall_ms for load in mine]),
                "requests": _stats([load.requests for load in mine]),
                "bytes": _stats([load.bytes for load in mine]),
                "loads": [
                    {key: value for key, value in asdict(load).items() if key != "files"}
                    for load in mine
                ],
            }
        )
    return rows


def _stats(values: Sequence[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def table(loads: Sequence[Load], games: Sequence[str]) -> str:
    """The loads as a Markdown table, one row per game."""
    lines = [
        "| game | first legal move, ms | Python runtime up, ms | wall clock, ms "
        "| requests | bytes |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for game in games:
        mine = [load for load in loads if load.game == game]
        requests = sorted({load.requests for load in mine})
        sizes = sorted({load.bytes for load in mine})
        lines.append(
            f"| {game} | {spread([load.first_move_ms for load in mine])} "
            f"| {spread([load.runtime_ms for load in mine])} "
            f"| {spread([load.wall_ms for load in mine])} "
            f"| {'/'.join(map(str, requests))} "
            f"| {'/'.join(f'{size:,}' for size in sizes)} |"
        )
    return "\n".join(lines)


def largest(load: Load, count: int) -> str:
    """The ``count`` largest files of one load, and the rest together."""
    files = sorted(load.files.items(), key=lambda item: -item[1])
    lines = [f"  {size:>12,}  {path}" for path, size in files[:count]]
    rest = files[count:]
    if rest:
        lines.append(f"  {sum(size for _, size in rest):>12,}  the other {len(rest)} files")
    lines.append(f"  {load.bytes:>12,}  in all, {load.requests} requests for {len(files)} files")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Build and serve the site, load the page, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="loads per game (median)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--warmup", type=int, default=1, help="untimed loads first (1)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per load")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the browser ({CHROMIUM})")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    unknown = sorted(set(games) - set(GAMES))
    if args.runs < 1 or args.warmup < 0 or not games or unknown:
        parser.error(f"--runs >= 1, --warmup >= 0, --games among {', '.join(GAMES)}")
    if not Path(args.chromium).exists():
        parser.error(f"no browser at {args.chromium} (Debian: apt-get install chromium)")

    make_site = import_make_site()
    info = machine(["tabletop-rules", "playwright"])
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch:
        print("building the site...", file=sys.stderr)
        site: Path = make_site.build_site(Path(scratch) / "site")
        manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
        server = make_site.site_server(site, 0)
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium)
                try:
                    for number in range(args.warmup):
                        load_page(browser, origin, games[number % len(games)], args.timeout)
                    loads: list[Load] = []
                    for number in range(args.runs):
                        shift = number % len(games)
                        for game in games[shift:] + games[:shift]:
                            load = load_page(browser, origin, game, args.timeout)
                            loads.append(load)
                            print(
                                f"run {number + 1}/{args.runs} {game}: first move "
                                f"{load.first_move_ms:,.0f} ms, {load.bytes:,} bytes",
                                file=sys.stderr,
                            )
                    version = browser.version
                finally:
                    browser.close()
        finally:
            server.shutdown()
            server.server_close()

    found = re.search(r"tabletop_rules (\S+) on Python (\S+),", loads[0].status)
    in_page = {
        "chromium": version,
        "pyodide": manifest["pyodide"],
        "pyodide_python": found.group(2) if found else None,
        "tabletop_rules_in_page": found.group(1) if found else None,
        "wheels": manifest["wheels"],
    }
    info["browser"] = in_page
    info["load_average"] = {"before": load_before, "after": os.getloadavg()[0]}
    print(f"\n{machine_line(info)}")
    print(
        f"Chromium {version} (headless), Pyodide {in_page['pyodide']} "
        f"(Python {in_page['pyodide_python']}), tabletop_rules {in_page['tabletop_rules_in_page']}"
    )
    print(
        f"{args.runs} load{'s' if args.runs > 1 else ''} per game, each in a fresh browser "
        "context (cold cache), after "
        f"{args.warmup} untimed; medians (min-max). Times from navigation start by "
        "performance.now() in the page; the wall clock is around goto and the wait. "
        f"Load average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f} after.\n"
    )
    print(table(loads, games))
    print("\nThe largest files of one load:")
    print(largest(loads[0], 8))
    foreign = sorted({url for load in loads for url in load.foreign})
    failed = sorted({url for load in loads for url in load.failed})
    if foreign:
        print(f"\nWARNING: requests left the page's origin {origin}:", *foreign, sep="\n  ")
    else:
        print(f"\nEvery request went to the page's own origin ({origin}).")
    if failed:
        print("WARNING: requests failed:", *failed, sep="\n  ")
    settings = {"runs": args.runs, "warmup": args.warmup, "games": games, "origin": origin}
    rows = {"games": summary(loads, games), "files": loads[0].files}
    write_report(args.json, info, settings, rows)
    return 1 if foreign or failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
