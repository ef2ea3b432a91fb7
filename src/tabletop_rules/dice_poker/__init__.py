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

from ..bots import Unseeded
from ..protocol import CHANCE, GameRules, register
from .bots import GreedyBot
from .codec import (
    CHANCE_OFFSET,
    NUM_ACTIONS,
    action_text,
    chance_offset,
    decode,
    encode,
    legal_mask,
    num_actions,
)
from .config import (
    MAX_FENCES,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_STAGES,
    MAX_THROWS_PER_TURN,
    STAGE_ORDERS,
    BoxScores,
    Config,
    Deal,
    StageOrder,
)
from .display import display, sheet_table
from .events import (
    EVENT_TYPES,
    Announced,
    Event,
    FencesChanged,
    GameOver,
    MountainScored,
    Rolled,
    Scratched,
    Wrote,
    redact,
)
from .jsonform import FORMAT_VERSION, json_hooks
from .moves import (
    BOXES_PER_STAGE,
    DICE_COUNT,
    MOUNTAIN,
    MOVE_TYPES,
    POKER_BOXES,
    Announce,
    Box,
    Dice,
    Face,
    Move,
    Roll,
    Scratch,
    Write,
)
from .notation import format_move, parse_box, parse_move, read_move
from .observation import observation_spec, observe
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
from .scoring import mountain_points, points, stage_bonus
from .state import Cell, Sheet, State, check_state
from .view import View, check_view, determinize, view

__all__ = [
    "BOXES_PER_STAGE",
    "CHANCE",
    "CHANCE_OFFSET",
    "DICE_COUNT",
    "EVENT_TYPES",
    "MAX_FENCES",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_STAGES",
    "MAX_THROWS_PER_TURN",
    "MOUNTAIN",
    "MOVE_TYPES",
    "NUM_ACTIONS",
    "POKER_BOXES",
    "RULES",
    "STAGE_ORDERS",
    "Announce",
    "Announced",
    "Box",
    "BoxScores",
    "Cell",
    "Config",
    "Deal",
    "Dice",
    "Event",
    "Face",
    "FencesChanged",
    "GameOver",
    "GreedyBot",
    "MountainScored",
    "Move",
    "Roll",
    "Rolled",
    "Scratch",
    "Scratched",
    "Sheet",
    "StageOrder",
    "State",
    "View",
    "Write",
    "Wrote",
    "action_text",
    "apply",
    "apply_with_events",
    "canonical",
    "chance_offset",
    "chance_probabilities",
    "check_state",
    "check_view",
    "current_player",
    "decode",
    "determinize",
    "display",
    "encode",
    "format_move",
    "is_over",
    "legal_mask",
    "legal_moves",
    "max_moves",
    "mountain_points",
    "new_game",
    "num_actions",
    "observation_spec",
    "observe",
    "parse_box",
    "parse_move",
    "points",
    "read_move",
    "redact",
    "score",
    "sheet_table",
    "stage_bonus",
    "view",
    "winners",
]

RULES: GameRules[Config, State, Move, View, Event] = GameRules(
    name="dice-poker",
    title="Dice poker",
    config_type=Config,
    state_type=State,
    move_types=MOVE_TYPES,
    event_types=EVENT_TYPES,
    view_type=View,
    new_game=new_game,
    legal_moves=legal_moves,
    chance_probabilities=chance_probabilities,
    apply=apply,
    apply_with_events=apply_with_events,
    canonical=canonical,
    score=score,
    current_player=current_player,
    is_over=is_over,
    winners=winners,
    view=view,
    determinize=determinize,
    redact=redact,
    format_move=format_move,
    parse_move=parse_move,
    num_actions=num_actions,
    encode=encode,
    decode=decode,
    legal_mask=legal_mask,
    max_moves=max_moves,
    check_state=check_state,
    check_view=check_view,
    chance_offset=chance_offset,
    action_text=action_text,
    observation_spec=observation_spec,
    observe=observe,
    format_version=FORMAT_VERSION,
    json_hooks=json_hooks,
    display=display,
    own_bots={"greedy": Unseeded(GreedyBot)},
)
"""Dice poker's :class:`~tabletop_rules.protocol.Ruleset`."""

register(RULES)
