"""Build the web page into a self-contained static site, and serve it on 127.0.0.1.

    python examples/web/make_site.py            # build examples/web/site/
    python examples/web/make_site.py --serve    # build, then serve it on port 8000

The site holds everything the page loads, from pinned versions: the Pyodide runtime from
the npm package locked in ``package-lock.json`` (``npm ci`` runs when it is missing),
the wheels that ``wheels.txt`` pins (checked against their hashes) and a wheel of this
project built from the working tree. Nothing at run time is fetched from anywhere but
the page's own origin. It needs Python 3.11+, pip, and Node.js with npm for the first
build.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SITE = HERE / "site"

PAGE_FILES = ("index.html", "app.js", "style.css", "tabletop_web.py")
"""The page itself: copied as they are."""

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The parts of the Pyodide npm package that the page loads: the runtime, the
WebAssembly module, the standard library and the package index it reads at start.
"""

WHEEL_ORDER = ("typing_extensions", "attrs", "cattrs", "tabletop_rules")
"""The order the page loads the wheels in: each after those it depends on."""

TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".whl": "application/zip",
    ".json": "application/json",
}


class BuildError(Exception):
    """A step of the build that failed, with what to do about it."""


def pyodide_version() -> str:
    """The Pyodide version that ``package-lock.json`` pins."""
    lock = json.loads((HERE / "package-lock.json").read_text(encoding="utf-8"))
    version: str = lock["packages"]["node_modules/pyodide"]["version"]
    return version


def install_pyodide() -> Path:
    """The locked Pyodide package in ``node_modules``, installed with ``npm ci`` first
    when it is missing or not the locked version.
    """
    package = HERE / "node_modules" / "pyodide"
    manifest = package / "package.json"
    version = pyodide_version()
    if manifest.exists() and json.loads(manifest.read_text(encoding="utf-8"))["version"] == version:
        return package
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm is needed once, to install Pyodide: install Node.js with npm")
    _run([npm, "ci", "--no-audit", "--no-fund"], "npm ci")
    return package


def download_wheels(into: Path) -> list[Path]:
    """The wheels that ``wheels.txt`` pins, downloaded into ``into`` and hash-checked
    (pip's own cache makes a second build fast).
    """
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    pinned = ["--require-hashes", "-r", str(HERE / "wheels.txt")]
    _run([*pip, *pinned, "--dest", str(into)], "pip download")
    return sorted(into.glob("*.whl"))


def build_project_wheel(into: Path) -> Path:
    """A wheel of tabletop_rules built from the working tree."""
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    _run([*pip, "--wheel-dir", str(into), str(ROOT)], "pip wheel")
    (wheel,) = into.glob("tabletop_rules-*.whl")
    return wheel


def build_site(out: Path = SITE) -> Path:
    """Assemble the static site in ``out`` and return it. A site built there before is
    replaced; any other folder that is not empty is refused, never deleted.
    """
    if out.exists() and any(out.iterdir()) and not (out / "manifest.json").exists():
        raise BuildError(f"{out} is not empty and holds no site built before: not replaced")
    package = install_pyodide()
    with tempfile.TemporaryDirectory() as scratch:
        dependencies = download_wheels(Path(scratch) / "pinned")
        project = build_project_wheel(Path(scratch) / "project")
        wheels = [_wheel_named(name, [*dependencies, project]) for name in WHEEL_ORDER]
        if out.exists():
            shutil.rmtree(out)
        (out / "pyodide").mkdir(parents=True)
        (out / "wheels").mkdir()
        for name in PAGE_FILES:
            shutil.copy2(HERE / name, out / name)
        for name in PYODIDE_FILES:
            shutil.copy2(package / name, out / "pyodide" / name)
        for wheel in wheels:
            shutil.copy2(wheel, out / "wheels" / wheel.name)
    manifest = {"pyodide": pyodide_version(), "wheels": [wheel.name for wheel in wheels]}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return out


def site_server(site: Path, port: int = 8000) -> http.server.ThreadingHTTPServer:
    """A server for ``site`` on 127.0.0.1 (``port`` 0: any free port), not yet started."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a browser insists on (WebAssembly, modules), unlogged
    and uncached, so a rebuilt site is what the next load gets.
    """

    extensions_map = {  # noqa: RUF012  (the base class declares it so)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **TYPES,
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _wheel_named(name: str, wheels: list[Path]) -> Path:
    found = [wheel for wheel in wheels if wheel.name.split("-")[0] == name]
    if len(found) != 1:
        raise BuildError(f"expected one wheel of {name}, found {[w.name for w in found]}")
    return found[0]


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, cwd=HERE, capture_output=True, text=True, check=False)
    if done.returncode:
        raise BuildError(f"{what} failed:\n{done.stdout}{done.stderr}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=SITE, help="where to build the site")
    parser.add_argument("--serve", action="store_true", help="serve the site once built")
    parser.add_argument("--port", type=int, default=8000, help="the port to serve on (8000)")
    args = parser.parse_args(argv)
    print(f"Building the site in {args.out} (the first build installs Pyodide with npm ci)...")
    try:
        site = build_site(args.out)
    except BuildError as error:
        print(f"make_site: {error}", file=sys.stderr)
        return 1
    size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
    print(f"Built {site} ({size / 1e6:.1f} MB).")
    if args.serve:
        with site_server(site, args.port) as server:
            print(f"Serving at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops).")
            with contextlib.suppress(KeyboardInterrupt):
                server.serve_forever()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
