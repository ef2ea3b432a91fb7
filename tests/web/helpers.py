"""What the web page's tests share: the example's modules loaded by path, and the palace
cards a seat has been shown.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from tabletop_rules import palace
from tabletop_rules.serialize import dumps

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "examples" / "web"

SCREENSHOTS = ROOT / "build" / "screenshots" / "web"
"""Where the browser tests save a screenshot of each game, for the docs: a git-ignored build
folder, so running the tests never rewrites a tracked file. ``docs/conf.py`` shows these
where they exist, and the committed ``docs/_static/web/*.png`` otherwise.
"""

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[CDHS](?![0-9A-Za-z])")
"""A palace card's text (``7H``, ``10C``) standing alone in a text."""

_RANK_WORDS = [
    *("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("jack", "queen", "king", "ace"),
]
_RANK_TEXTS = [*map(str, range(2, 11)), "J", "Q", "K", "A"]
_SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
SPOKEN_CARD = re.compile(
    rf"\b({'|'.join(_RANK_WORDS)}) of ({'|'.join(_SUIT_WORDS)})\b", re.IGNORECASE
)
"""A palace card as a screen reader is told it (``seven of hearts``)."""

SUIT_SYMBOL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
"""A palace card written with its suit's symbol (``7♥``)."""

_SYMBOL_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def web_module(name: str) -> ModuleType:
    """``examples/web/<name>.py``, imported once."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, WEB / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def cards_in(text: str) -> set[str]:
    """The cards that ``text`` names, as their texts: written (``7H``, in data attributes
    too), spoken (``seven of hearts``, as an aria-label says it) or with a suit symbol.
    """
    spoken = {
        _RANK_TEXTS[_RANK_WORDS.index(rank.lower())] + _SUIT_WORDS[suit.lower()]
        for rank, suit in SPOKEN_CARD.findall(text)
    }
    symbols = {rank + _SYMBOL_LETTERS[symbol] for rank, symbol in SUIT_SYMBOL.findall(text)}
    return set(CARD.findall(text)) | spoken | symbols


@functools.lru_cache(maxsize=8192)
def _shown_in(state: palace.State, seat: int) -> frozenset[str]:
    # Equal states have equal views: a test that checks every answer of a game against
    # all the views so far draws each view once, not once per later answer.
    return frozenset(cards_in(dumps(palace.view(state, seat))))


def shown_cards(states: Iterable[palace.State], seat: int) -> set[str]:
    """Every card that ``seat``'s views of ``states`` show: what the seat may know."""
    shown: set[str] = set()
    for state in states:
        shown |= _shown_in(state, seat)
    return shown


def leaked(text: str, states: tuple[Any, ...], seat: int) -> set[str]:
    """The cards in ``text`` that no view of ``seat`` up to the last of ``states`` showed."""
    return cards_in(text) - shown_cards(states, seat)
