"""The API reference is grouped by what a name is for, one directive per name, as
python-chess's reference is, and the helpers for game authors and internals stay off the
sections for users.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tabletop_rules import kit

API = Path(__file__).resolve().parent.parent / "docs" / "api"

GAME_SECTIONS = (
    "Setting up",
    "Playing",
    "Moves",
    "Events",
    "Views",
    "Hints",
    "Notation",
    "Codec and observation",
    "Bots",
    "State and checks",
    "JSON",
)
CORE_SECTIONS = (
    "Rulesets and the registry",
    "Matches and records",
    "JSON",
    "Simulation",
    "Bots",
    "Errors",
    "Randomness",
    "Observation",
    "The kit for game authors",
    "The command line",
)
AUTHOR_HELPERS = ("check_flag", "whole", "short_repr", "replacer", "run_checks")
INTERNALS = ("refuse_state", "slot_setters", "check_own", "type_noun")


def sections(text: str) -> list[str]:
    """The page's section titles (those underlined with ``-``), in order."""
    lines = text.splitlines()
    return [
        title
        for title, under in itertools.pairwise(lines)
        if title and re.fullmatch(r"-+", under) and len(under) >= len(title)
    ]


def lists_members(text: str) -> bool:
    """Whether an ``automodule`` directive lists the module's members."""
    return bool(re.search(r"^\.\. automodule::[^\n]*\n(?:   :[^\n]*\n)*   :members:", text, re.M))


@pytest.mark.parametrize("game", ["dice_poker", "palace", "account"])
def test_api_reference_groups_each_game_page_by_concept(game: str) -> None:
    text = (API / f"{game}.rst").read_text(encoding="utf-8")
    assert tuple(sections(text)[: len(GAME_SECTIONS)]) == GAME_SECTIONS
    assert sections(text)[-1] == "Modules"
    assert not lists_members(text), "name each object in its section, not automodule :members:"


def test_api_reference_groups_the_core_page_by_concept() -> None:
    text = (API / "core.rst").read_text(encoding="utf-8")
    assert tuple(sections(text)) == CORE_SECTIONS
    assert not lists_members(text)


def directive(name: str) -> re.Pattern[str]:
    """An autodoc directive describing ``name`` of any module."""
    return re.compile(rf"^\.\. auto\w+:: tabletop_rules\.[\w.]+\.{name}$", re.M)


@pytest.mark.parametrize("helper", AUTHOR_HELPERS)
def test_api_reference_describes_an_author_helper_on_the_kit_page_only(helper: str) -> None:
    kit_page = (API / "kit.rst").read_text(encoding="utf-8")
    assert re.search(rf"^\.\. auto\w+:: tabletop_rules\.kit\.{helper}$", kit_page, re.M)
    for page in ("core", "dice_poker", "palace", "account", "testing"):
        assert not directive(helper).search((API / f"{page}.rst").read_text(encoding="utf-8"))


@pytest.mark.parametrize("helper", INTERNALS)
def test_api_reference_describes_no_internal_helper(helper: str) -> None:
    for page in API.glob("*.rst"):
        assert not directive(helper).search(page.read_text(encoding="utf-8")), page.name


def test_api_reference_kit_page_links_every_name_it_re_exports() -> None:
    text = (API / "kit.rst").read_text(encoding="utf-8")
    linked = set(re.findall(r":\w+:`~?[\w.]+\.(\w+)`", text))
    described = set(re.findall(r"^\.\. auto\w+:: tabletop_rules\.kit\.(\w+)$", text, re.M))
    assert set(kit.__all__) - linked - described == set()
