"""What the README and the docs' front page tell a new user matches the project: the
dependencies named are pyproject's, and a sentence that ends in a colon introduces the
example right after it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_docs_index_names_every_dependency_in_pyproject_and_no_other() -> None:
    """Issue 32, point 8: ``docs/index.rst`` named attrs and cattrs as the only
    dependencies; typing_extensions is one too.
    """
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    required = {
        re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("-", "_")
        for requirement in pyproject["project"]["dependencies"]
    }
    index = (ROOT / "docs" / "index.rst").read_text(encoding="utf-8")
    sentence = re.search(r"the only\s+dependencies are (.*?)\)", index, flags=re.DOTALL)
    assert sentence is not None, "docs/index.rst no longer names the dependencies"
    named = {name.lower().replace("-", "_") for name in re.findall(r"``(.+?)``", sentence[1])}
    assert named == required


def test_every_readme_sentence_ending_in_a_colon_introduces_the_example_after_it() -> None:
    """Issue 32, point 8: the README's "`display` prints the score sheet:" stood before a
    paragraph on ``Match``, apart from the example it introduced.
    """
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    fenced = False
    apart: list[str] = []
    for number, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced or not line.rstrip().endswith(":"):
            continue
        after = next((later for later in lines[number + 1 :] if later.strip()), "")
        if not after.startswith(("```", "|")):  # an example, or a table of figures
            apart.append(f"line {number + 1}: {line.strip()}")
    assert apart == []
