"""Dice poker as a :class:`~tabletop_rules.game.Game`: its facts, and its kernel bound from
the modules named after each subject (the rules in :mod:`~tabletop_rules.dice_poker.rules`,
what a seat sees in :mod:`~tabletop_rules.dice_poker.view`, the text for people in
:mod:`~tabletop_rules.dice_poker.table`).
"""

from __future__ import annotations

from types import MappingProxyType

from .. import kit
from ..game import Game, guard_config, guard_drawn, guard_table, guard_view
from . import invariants, notation, observation, rules, table
from .bots import GreedyBot
from .coach import CoachBot
from .config import MAX_PLAYERS, Config
from .events import EVENT_TYPES, Event
from .moves import MOVE_TABLE, MOVE_TYPES, Dice, Move
from .state import FORMAT_VERSION, State, View
from .view import determinize, view

__all__ = ["RULES", "DicePoker"]


class DicePoker(Game[Config, State, Move, View, Event]):
    """Dice poker (покер на костях): five dice, three stages of fifteen boxes, and fences."""

    name, title, seats, format_version = (
        "dice-poker",
        "Dice poker",
        (1, MAX_PLAYERS),
        FORMAT_VERSION,
    )
    config_type, state_type, view_type = Config, State, View
    move_types, event_types, chance_type, move_table = MOVE_TYPES, EVENT_TYPES, Dice, MOVE_TABLE
    own_bots = MappingProxyType(
        {"greedy": kit.Unseeded(GreedyBot), "coach": kit.Unseeded(CoachBot)}
    )

    start = staticmethod(rules.new_game)
    legal_moves = staticmethod(rules.legal_moves)
    transition = staticmethod(rules.transition)
    known_move = staticmethod(MOVE_TABLE.known)  # a move no state allows: transition names the rule
    score = staticmethod(rules.score)
    current_player = staticmethod(rules.current_player)
    is_over = staticmethod(rules.is_over)  # a playout asks it every move: one call, not two
    chance_probabilities = staticmethod(rules.chance_probabilities)  # the dice kept change them
    max_moves = staticmethod(rules.max_moves)
    view = staticmethod(view)
    redeal = staticmethod(determinize)
    check_invariants = staticmethod(invariants.check_invariants)
    encode_view = staticmethod(observation.encode_view)
    format_move = staticmethod(notation.format_move)
    read_move = staticmethod(notation.read_move)  # boxes by name or number, "roll 66" and "roll"
    json_hooks = staticmethod(notation.json_hooks)
    display = guard_table(table.display)
    event_text = staticmethod(table.event_text)
    rules_summary = guard_config(table.rules_summary)
    notation_summary = guard_config(table.notation_summary)
    hint = guard_view(table.hint)
    drawn = guard_drawn(table.drawn)
    move_notes = guard_view(table.move_notes)


RULES = DicePoker()
"""Dice poker's rules: every function of the package is one of its members."""
