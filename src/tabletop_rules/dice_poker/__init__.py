"""Dice poker (покер на костях): five dice, three stages of fifteen boxes, and fences.

The rules are ``docs/rules/dice_poker`` (from the seed ``002``); every house rule is a
field of :class:`Config`. A game in five lines:

>>> from tabletop_rules import dice_poker as dp
>>> state = dp.new_game(dp.Config(players=2), seed=42)
>>> state = dp.apply(state, dp.Roll())
>>> state.dice
(1, 2, 3, 5, 5)
>>> state = dp.apply(state, dp.parse_move(state, "write fives"))
>>> dp.score(state), state.fences
((-5, 0), (2, 0))
"""

from __future__ import annotations

from .._deprecation import moved_names
from ..game import CHANCE
from ..protocol import register
from .bots import GreedyBot
from .coach import CoachBot
from .coach import coach as coach_function
from .config import MAX_PLAYERS, Config, Deal
from .events import (
    Announced,
    Event,
    FencesChanged,
    GameOver,
    MountainScored,
    Rolled,
    Scratched,
    Wrote,
)
from .game import RULES, DicePoker
from .moves import Announce, Box, Dice, Move, Roll, Scratch, Write
from .state import State, View

__all__ = [
    "CHANCE", "MAX_PLAYERS", "RULES", "Announce", "Announced", "Box", "CoachBot", "Config",
    "Deal", "Dice", "DicePoker", "Event", "FencesChanged", "GameOver", "GreedyBot",
    "MountainScored", "Move", "Roll", "Rolled", "Scratch", "Scratched", "State", "View",
    "Write", "Wrote",
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

# The coach function, as the package gave it before its module shared the name: the
# attribute is set (the submodule's import would otherwise take the name), not exported.
coach = coach_function

__getattr__ = moved_names(
    __name__,
    {
        "ACTIONS": "moves", "BOXES_PER_STAGE": "moves", "CHANCE_OFFSET": "moves",
        "DICE_COUNT": "moves", "Face": "moves", "MOUNTAIN": "moves", "MOVE_TABLE": "moves",
        "MOVE_TYPES": "moves", "NUM_ACTIONS": "moves", "POKER_BOXES": "moves",
        "known_move": "moves", "EVENT_TYPES": "events", "BoxScores": "config",
        "MAX_FENCES": "config", "MAX_POINTS": "config", "MAX_STAGES": "config",
        "MAX_THROWS_PER_TURN": "config", "STAGE_ORDERS": "config", "StageOrder": "config",
        "Cell": "state", "FORMAT_VERSION": "state", "Sheet": "state", "PAR": "bots",
        "expected_points": "bots", "Advice": "coach", "BoxChance": "coach",
        "DEFAULT_VALUES": "coach", "Fill": "coach", "HORIZON": "coach", "KeepAdvice": "coach",
        "Values": "coach", "advice_lines": "coach", "box_chances": "coach",
        "coach_lines": "coach", "mountain_points": "scoring", "points": "scoring",
        "stage_bonus": "scoring", "parse_box": "notation", "open_box_points": "table",
        "sheet_table": "table.display",
    },
)  # fmt: skip
