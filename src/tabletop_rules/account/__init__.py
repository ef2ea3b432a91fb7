"""The account game: markers run round the bottom line of a field of cards and each card
they land on changes their player's account (the rules page ``rules/account``; every
house rule is a field of :class:`Config`). Its ``RULES`` is the
:class:`~tabletop_rules.account.game.Account` game, registered as ``"account"``; the
functions below are its members.
"""

from __future__ import annotations

from .._deprecation import moved_names
from ..game import CHANCE
from ..protocol import register
from .bots import AccountSearchBot, BestCardBot, PlannerBot
from .cards import Card, Deal
from .config import MAX_PLAYERS, Config
from .events import (
    AccountChanged,
    Bought,
    Collapsed,
    Drew,
    EndHit,
    Event,
    GameOver,
    Moved,
    Placed,
    Reshuffled,
    Rolled,
    TurnPassed,
)
from .game import RULES, Account
from .moves import Advance, Buy, Die, Move, Place, Roll
from .state import State, View

__all__ = [
    "CHANCE", "MAX_PLAYERS", "RULES", "Account", "AccountChanged", "AccountSearchBot",
    "Advance", "BestCardBot", "Bought", "Buy", "Card", "Collapsed", "Config", "Deal", "Die",
    "Drew", "EndHit", "Event", "GameOver", "Move", "Moved", "Place", "Placed", "PlannerBot",
    "Reshuffled", "Roll", "Rolled", "State", "TurnPassed", "View",
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
        "field_text": "table.display",
        "P": "cards.PREMIUM_100", "T": "cards.PREMIUM_1000", "B": "cards.CHARGE",
        "Z": "cards.ZERO", "END": "cards", "CARDS": "cards", "CARD_ORDER": "cards",
        "KINDS": "cards", "DEFAULT_DECK": "config", "Deck": "config", "ENDS": "config",
        "EndRule": "config", "FORMAT_VERSION": "config", "MAX_COLUMNS": "config",
        "MAX_COST": "config", "MAX_COUNT": "config", "MAX_MARKERS": "config",
        "MAX_ROUNDS": "config", "MAX_ROWS": "config", "ADVANCES": "moves", "BUYS": "moves",
        "CHANCE_OFFSET": "moves", "DICE": "moves", "DIRECTIONS": "moves", "Direction": "moves",
        "MOVE_TABLE": "moves", "MOVE_TYPES": "moves", "NUM_ACTIONS": "moves", "PLACES": "moves",
        "ROLL": "moves", "SIDES": "moves", "EVENT_TYPES": "events", "Column": "state",
        "PHASES": "state", "Phase": "state", "line": "rules", "Landing": "table",
        "landings": "table", "ACCOUNT_CLIP": "observation", "LOG_CLIP": "observation",
        "DECISIVE": "bots", "plan_value": "bots", "worth_lead_value": "bots",
    },
)  # fmt: skip
