"""Where the browser tests' screenshots go and which ones the docs show: the tests write
only to the git-ignored build folder, and the docs show a fresh screenshot where one was
saved, the committed one otherwise. No browser is needed.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from .helpers import ROOT, SCREENSHOTS

GAMES = ("dice-poker", "palace", "account")


def docs_conf() -> ModuleType:
    """``docs/conf.py``, imported under a name of its own."""
    spec = importlib.util.spec_from_file_location("tabletop_docs_conf", ROOT / "docs" / "conf.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def figure_line(conf: ModuleType, name: str) -> str:
    line = f".. figure:: _static/web/{name}"
    replaced: str = conf._SCREENSHOT_FIGURE.sub(conf.screenshot_path, line)
    return replaced


def test_running_the_tests_never_rewrites_a_tracked_file() -> None:
    """The screenshots the browser tests save go under ``build/``, which git ignores, and
    never into ``docs/_static/`` (where the committed fallbacks are).
    """
    assert SCREENSHOTS.is_relative_to(ROOT / "build")
    assert not SCREENSHOTS.is_relative_to(ROOT / "docs")
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "build/" in ignored
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        return
    for name in (f"{game}{width}.png" for game in GAMES for width in ("", "-360")):
        path = (SCREENSHOTS / name).relative_to(ROOT)
        # check-ignore exits 0 when git ignores the path; ls-files lists it if tracked
        assert subprocess.run([git, "check-ignore", "-q", str(path)], cwd=ROOT).returncode == 0
        listed = subprocess.run(
            [git, "ls-files", str(path)], cwd=ROOT, capture_output=True, text=True, check=True
        )
        assert listed.stdout == ""


def test_the_docs_show_the_committed_screenshots_where_no_fresh_one_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conf = docs_conf()
    assert conf.FRESH_SCREENSHOTS == SCREENSHOTS
    shown = (ROOT / "docs" / "web.rst").read_text(encoding="utf-8")
    figures = re.findall(r"^\.\. figure:: _static/web/([\w-]+\.png)$", shown, re.MULTILINE)
    # each game at 1280 px and at a phone's 360 px
    assert sorted(figures) == sorted(
        name for game in GAMES for name in (f"{game}.png", f"{game}-360.png")
    )
    monkeypatch.setattr(conf, "FRESH_SCREENSHOTS", tmp_path)
    for name in figures:
        assert (ROOT / "docs" / "_static" / "web" / name).is_file()
        assert figure_line(conf, name) == f".. figure:: _static/web/{name}"


def test_the_docs_show_a_fresh_screenshot_where_the_tests_saved_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conf = docs_conf()
    monkeypatch.setattr(conf, "FRESH_SCREENSHOTS", tmp_path)
    (tmp_path / "palace.png").write_bytes(b"fresh")
    shown = figure_line(conf, "palace.png").removeprefix(".. figure:: ")
    assert (ROOT / "docs" / shown).resolve() == tmp_path.resolve() / "palace.png"
    assert figure_line(conf, "account.png") == ".. figure:: _static/web/account.png"
