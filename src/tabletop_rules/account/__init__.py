"""The account game: markers run round the bottom line of a field of cards and each card
they land on changes their player's account. The rules are the rules page
``rules/account``; every house rule is a field of :class:`Config`.

Work in progress: the rules engine and views (no notation, codec, bots or registry
entry yet).
"""

from __future__ import annotations

from . import rules
from .cards import CARDS, END, KINDS, B, Card, P, T, Z
from .config import DEFAULT_DECK, ENDS, Config, Deck, EndRule
from .events import redact
from .moves import DIRECTIONS, Advance, Buy, Die, Direction, Move, Place, Roll
from .rules import (
    apply,
    apply_with_events,
    chance_probabilities,
    current_player,
    is_over,
    legal_moves,
    max_moves,
    new_game,
    score,
    winners,
)
from .state import Phase, State, check_state, line
from .view import View, check_view, determinize, view

__all__ = [
    "CARDS",
    "DEFAULT_DECK",
    "DIRECTIONS",
    "END",
    "ENDS",
    "KINDS",
    "Advance",
    "B",
    "Buy",
    "Card",
    "Config",
    "Deck",
    "Die",
    "Direction",
    "EndRule",
    "Move",
    "P",
    "Phase",
    "Place",
    "Roll",
    "State",
    "T",
    "View",
    "Z",
    "apply",
    "apply_with_events",
    "chance_probabilities",
    "check_state",
    "check_view",
    "current_player",
    "determinize",
    "is_over",
    "legal_moves",
    "line",
    "max_moves",
    "new_game",
    "redact",
    "rules",
    "score",
    "view",
    "winners",
]
