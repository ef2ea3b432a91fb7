"""The README's examples run, and its set-up commands name what exists and what CI runs."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    """The README's fenced code blocks in ``language``, without their fences."""
    return re.findall(rf"^```{language}\n(.*?)^```$", README, flags=re.DOTALL | re.MULTILINE)


def test_readme_python_examples_run() -> None:
    examples = [block for block in blocks("python") if ">>>" in block]
    assert examples, "the README shows no examples"
    source = "\n".join(examples)
    test = doctest.DocTestParser().get_doctest(source, {}, "README.md", str(ROOT / "README.md"), 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert runner.tries >= 20


MAIN = (
    "pip install -e '.[cli]' && "
    "for game in dice-poker palace account; do tabletop-rules simulate $game; done"
)


def test_readme_set_up_commands_run_what_exists() -> None:
    commands = [line for block in blocks("sh") for line in block.splitlines()]
    venv, main, test = commands[:3]
    assert venv == "python -m venv .venv && . .venv/bin/activate"
    assert main == MAIN
    assert test == "pip install -e '.[dev]' && python -m pytest"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'tabletop-rules = "tabletop_rules.cli:main"' in pyproject
    assert re.search(r'^cli = \["rich', pyproject, flags=re.MULTILINE)


def test_the_main_command_simulates_each_game() -> None:
    games = re.search(r"for game in ([a-z -]+); do", MAIN)
    assert games is not None
    for game in games.group(1).split():
        done = subprocess.run(
            [sys.executable, "-m", "tabletop_rules", "simulate", game, "--games", "10"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert "95% interval" in done.stdout


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "python -m pytest" in [line.strip() for line in ci]
