"""The README's examples run, and its set-up commands name what exists and what CI runs."""

from __future__ import annotations

import doctest
import re
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


def test_readme_set_up_commands_run_what_exists() -> None:
    commands = [line for block in blocks("sh") for line in block.splitlines()]
    play, test = commands[:2]
    assert play == "pip install -e . && python examples/bot_game.py --seed 1"
    assert (ROOT / "examples" / "bot_game.py").is_file()
    assert test == "pip install -e '.[dev]' && python -m pytest"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "python -m pytest" in [line.strip() for line in ci]
