"""The test tiers: ``python -m pytest`` (the README's command) runs the quick tier, and
``.ci/run`` runs it, the slow tier (``-m slow``) and the fuzz tests at CI's length.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from .web import test_page

ROOT = Path(__file__).resolve().parents[1]


def test_the_default_run_is_the_quick_tier_without_the_browser_tests() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    addopts = pytest_options["addopts"]
    assert addopts[addopts.index("-m") + 1] == "not slow"
    assert addopts[addopts.index("-n") + 1] == "auto"  # spread over the cores
    assert any(marker.startswith("slow:") for marker in pytest_options["markers"])
    assert test_page.pytestmark == pytest.mark.slow


def test_ci_runs_the_quick_tier_the_slow_tier_and_the_ci_fuzz() -> None:
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    quick = ci.index("python -m pytest")
    slow = ci.index("python -m pytest -m slow")
    fuzz = ci.index("python -m pytest -k fuzz --hypothesis-profile=tabletop-fuzz-ci")
    assert quick < slow < fuzz
    assert ci.index("export TABLETOP_REQUIRE_BROWSER=1") < slow
    assert ci.index("export TABLETOP_REQUIRE_SERVICES=1") < slow  # Postgres and Redis
