"""What the README and the docs' front page tell a new user matches the project: the
dependencies named are pyproject's, a sentence that ends in a colon introduces the
example right after it, and the guide to writing a game shows the shape the games have.
"""

from __future__ import annotations

import ast
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


def _defined(source: str, dotted: str) -> bool:
    """Whether ``source`` defines the class or function ``dotted`` (``Pig.transition``)."""
    body: list[ast.stmt] = ast.parse(source).body
    for part in dotted.split("."):
        found = [
            node
            for node in body
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name == part
        ]
        if not found:
            return False
        body = found[0].body
    return True


def test_the_tutorial_builds_pig_as_a_game_subclass() -> None:
    """Issue 33, point 7: "Writing your own game" built Pig from a ``kit.Declaration`` and
    a ``kit.Kernel`` given to ``kit.build``; it builds Pig as a ``Game`` subclass, every
    listing included from Pig's files, and names the old kit only where it says how to
    move from it.
    """
    text = (ROOT / "docs" / "authors.rst").read_text(encoding="utf-8")
    includes = re.findall(r"^\.\. literalinclude:: \.\./(\S+)\n((?:   :.*\n)*)", text, re.M)
    objects = [name for _, options in includes for name in re.findall(r":pyobject: (\S+)", options)]
    assert {"Config", "View", "Pig.transition", "Pig.display", "HoldAt20"} <= set(objects)
    for path, options in includes:
        source = (ROOT / path).read_text(encoding="utf-8")
        for name in re.findall(r":pyobject: (\S+)", options):
            assert _defined(source, name), f"{path} defines no {name}"
        for anchor in re.findall(r":(?:start|end)-(?:at|after|before): (.+)", options):
            assert anchor in source, f"{path} has no line with {anchor!r}"
    rules = (ROOT / "examples" / "pig" / "src" / "tabletop_pig" / "rules.py").read_text("utf-8")
    assert "class Pig(Game[" in rules
    assert ":start-at: class Pig(" in text
    before, moving, _ = text.partition("Moving from kit.build\n")
    assert moving, "the page says how to move a game from kit.build"
    for old in ("kit.build", "Kernel", "Declaration", "GameRules", "why_illegal="):
        assert old not in before, f"{old} is named before 'Moving from kit.build'"
