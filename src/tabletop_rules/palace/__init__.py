"""Palace (Russian variant): play cards of one rank that beat the pile, or take it.

The rules are the rules page ``rules/palace``; every house rule is a field of
:class:`Config`; :func:`display` draws the table as a seat sees it. A game from a
seed:

>>> from tabletop_rules import palace
>>> state = palace.new_game(seed=7)
>>> state = palace.apply(state, palace.Ready())
>>> state = palace.apply(state, palace.Ready())
>>> state.phase, palace.current_player(state) in (0, 1)
('play', True)
"""

from __future__ import annotations

from .._deprecation import moved_names
from ..game import CHANCE
from ..protocol import register
from .bots import LowCardBot, PalaceSearchBot
from .cards import Card, Deal
from .config import MAX_PLAYERS, Config
from .events import (
    Burned,
    Drew,
    EndedTurn,
    Event,
    Finished,
    GameOver,
    Played,
    Readied,
    Started,
    Swapped,
    TookFaceUp,
    TookPile,
    TurnedBlind,
    TurnPassed,
)
from .game import RULES, Palace
from .moves import EndTurn, Move, Play, PlayBlind, Ready, Swap, TakePile
from .state import State, View

__all__ = [
    "CHANCE", "MAX_PLAYERS", "RULES", "Burned", "Card", "Config", "Deal", "Drew", "EndTurn",
    "EndedTurn", "Event", "Finished", "GameOver", "LowCardBot", "Move", "Palace",
    "PalaceSearchBot", "Play", "PlayBlind", "Played", "Readied", "Ready", "Started", "State",
    "Swap", "Swapped", "TakePile", "TookFaceUp", "TookPile", "TurnPassed", "TurnedBlind", "View",
    "action_text", "apply", "apply_with_events", "canonical", "chance_offset",
    "chance_probabilities", "check_state", "check_view", "current_player", "decode",
    "describe", "determinize", "display", "encode", "format_move", "is_over", "legal_mask",
    "legal_moves", "max_moves", "new_game", "num_actions", "observation_spec", "observe",
    "parse_move", "read_move", "redact", "score", "view", "winners",
]  # fmt: skip

action_text = RULES.action_text
apply = RULES.apply
apply_with_events = RULES.apply_with_events
canonical = RULES.canonical
chance_offset = RULES.chance_offset
chance_probabilities = RULES.chance_probabilities
check_state = RULES.check_state
check_view = RULES.check_view
current_player = RULES.current_player
decode = RULES.decode
describe = RULES.describe
determinize = RULES.determinize
display = RULES.display
encode = RULES.encode
format_move = RULES.format_move
is_over = RULES.is_over
legal_mask = RULES.legal_mask
legal_moves = RULES.legal_moves
max_moves = RULES.max_moves
new_game = RULES.new_game
num_actions = RULES.num_actions
observation_spec = RULES.observation_spec
observe = RULES.observe
parse_move = RULES.parse_move
read_move = RULES.read_move
redact = RULES.redact
score = RULES.score
view = RULES.view
winners = RULES.winners

register(RULES)

__getattr__ = moved_names(
    __name__,
    {
        "table_text": "table.display",
        "BONUS_RANKS": "cards", "DECK": "cards", "NATURAL_RANKS": "cards", "RANKS": "cards",
        "Rank": "cards", "SUITS": "cards", "Suit": "cards", "is_card": "cards",
        "own_card": "cards", "CARDS_PER_DECK": "config", "FacePlay": "config",
        "FirstPlayer": "config", "MAX_DECKS": "config", "MAX_HAND_SIZE": "config",
        "MAX_TURNS": "config", "MustBeat": "config", "PlayUntil": "config", "Quad": "config",
        "ROW": "config", "EVENT_TYPES": "events", "Source": "events", "MAX_PLAY": "moves",
        "MOVE_TYPES": "moves", "PLAY_BASE": "moves", "SWAP_BASE": "moves", "Slot": "moves",
        "known_move": "moves", "Hand": "state", "MAX_SWAPS": "state", "Pending": "state",
        "Phase": "state", "Row": "state", "EXTRA_PLAY_MOST": "rules", "first_player": "rules",
        "fitting_deal": "invariants", "PILE_SHOWN": "table", "WIDTH": "table",
        "playable_ranks": "table", "cards_left_value": "bots", "lowcard_move": "bots",
    },
)  # fmt: skip
