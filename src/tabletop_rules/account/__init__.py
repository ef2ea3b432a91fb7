"""The account game: markers run round the bottom line of a field of cards and each card
they land on changes their player's account. The rules are the rules page
``rules/account``; every house rule is a field of :class:`Config`.

Work in progress: the rules engine, views, notation and the action codec (no bots or
registry entry yet).
"""

from __future__ import annotations

from . import codec, notation, rules
from .cards import CARDS, END, KINDS, B, Card, P, T, Z
from .codec import NUM_ACTIONS, decode, encode, legal_mask, num_actions
from .config import DEFAULT_DECK, ENDS, Config, Deck, EndRule
from .events import redact
from .moves import DIRECTIONS, Advance, Buy, Die, Direction, Move, Place, Roll
from .notation import format_move, parse_move, read_move
from .rules import (
    apply,
    apply_with_events,
    canonical,
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
    "NUM_ACTIONS",
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
    "canonical",
    "chance_probabilities",
    "check_state",
    "check_view",
    "codec",
    "current_player",
    "decode",
    "determinize",
    "encode",
    "format_move",
    "is_over",
    "legal_mask",
    "legal_moves",
    "line",
    "max_moves",
    "new_game",
    "notation",
    "num_actions",
    "parse_move",
    "read_move",
    "redact",
    "rules",
    "score",
    "view",
    "winners",
]
