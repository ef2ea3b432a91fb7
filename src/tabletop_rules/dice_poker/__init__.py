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

import warnings
from typing import Any

from .. import kit
from ..game import CHANCE, Game, exported_functions
from . import bots, config, events, invariants, moves, notation, rules, scoring, state, table
from . import coach as coach_module
from . import view as view_module
from .bots import *
from .coach import *
from .config import *
from .events import *
from .moves import *
from .notation import *
from .observation import encode_view
from .scoring import *
from .state import *
from .table import *

__all__ = ["CHANCE", "RULES"]
__all__ += exported_functions()
__all__ += bots.__all__
__all__ += coach_module.__all__
__all__ += config.__all__
__all__ += events.__all__
__all__ += moves.__all__
__all__ += notation.__all__
__all__ += scoring.__all__
__all__ += state.__all__
__all__ += table.__all__

DECLARATION = kit.Declaration(
    name="dice-poker", title="Dice poker", players=(2, MAX_PLAYERS), format_version=FORMAT_VERSION
)

KERNEL = kit.Kernel(
    config_type=Config,
    state_type=State,
    view_type=View,
    move_types=MOVE_TYPES,
    event_types=EVENT_TYPES,
    new_game=rules.new_game,
    legal_moves=rules.legal_moves,
    transition=rules.transition,
    score=rules.score,
    current_player=rules.current_player,
    view=view_module.view,
    determinize=view_module.determinize,
    format_move=notation.format_move,
    encode_view=encode_view,
    check_state=invariants.check_invariants,
    max_moves=rules.max_moves,
    moves=MOVE_TABLE,
    chance_type=Dice,
    transition_checks=True,
    own_move=MOVE_TABLE.known,  # a move no state allows reaches the transition: it names the rule
    check_view=invariants.check_view,
    chance_probabilities=rules.chance_probabilities,
    display=table.display,
    json_hooks=notation.json_hooks,
    bots={"greedy": kit.Unseeded(GreedyBot), "coach": kit.Unseeded(CoachBot)},
    read_move=read_move,
    describe=table.event_text,
    rules_summary=table.rules_summary,
    notation_summary=table.notation_summary,
    hint=table.hint,
)

RULES: Game[Config, State, Move, View, Event] = kit._build(
    DECLARATION,
    KERNEL,
    # benchmarks/ab_playout.py: the derived is_over is two calls deeper.
    is_over=rules.is_over,
)
"""Dice poker's :class:`~tabletop_rules.protocol.Ruleset`: the kernel above and what
:func:`tabletop_rules.kit.build` derives from it."""

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
redact = RULES.redact
score = RULES.score
view = RULES.view
winners = RULES.winners

kit.register(RULES)


def __getattr__(name: str) -> Any:
    """``sheet_table``, the old name of :func:`display`, warns and draws the same (one release)."""
    if name == "sheet_table":
        warnings.warn(
            "dice_poker.sheet_table is deprecated: use dice_poker.display, the name every game "
            "shares",
            DeprecationWarning,
            stacklevel=2,
        )
        return display
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
