"""Palace as a :class:`~tabletop_rules.game.Game`: its facts, and its kernel bound from the
modules named after each subject (``rules``, ``view``, ``table`` ...).
"""

from __future__ import annotations

from types import MappingProxyType

from .. import kit
from ..game import Game, guard_config, guard_drawn, guard_table, guard_view
from . import events, invariants, moves, notation, observation, rules, table
from .bots import LowCardBot, PalaceSearchBot
from .cards import Card
from .config import MAX_PLAYERS, Config
from .events import EVENT_TYPES, Event
from .moves import MOVE_TABLE, MOVE_TYPES, Move
from .state import State, View
from .view import determinize, view

__all__ = ["RULES", "Palace"]


class Palace(Game[Config, State, Move, View, Event]):
    """Palace (Russian variant): play cards of one rank that beat the pile, or take it."""

    name, title, seats = "palace", "Palace", (2, MAX_PLAYERS)
    chance_mode, hidden_information, deal_type = "deterministic", True, Card
    config_type, state_type, view_type = Config, State, View
    move_types, event_types, move_table = MOVE_TYPES, EVENT_TYPES, MOVE_TABLE
    own_bots = MappingProxyType({"lowcard": kit.Unseeded(LowCardBot), "search": PalaceSearchBot})

    start = staticmethod(rules.new_game)
    legal_moves = staticmethod(rules.legal_moves)
    transition = staticmethod(rules.transition)
    score = staticmethod(rules.score)
    current_player = staticmethod(rules.current_player)
    is_over = staticmethod(rules.is_over)  # a playout asks it every move: one call, not two
    winners = staticmethod(rules.winners)  # the first out wins, whatever the scores
    canonical = staticmethod(rules.canonical)  # a play of any suits of a listed play's rank
    read_move_in = staticmethod(rules.read_move_in)  # "play 7 7" names cards by rank
    max_moves = staticmethod(rules.max_moves)
    deck = guard_config(rules.deck)
    view = staticmethod(view)
    redeal = staticmethod(determinize)
    redact = staticmethod(events.redact)  # a drawn card is private: others see how many
    check_invariants = staticmethod(invariants.check_invariants)
    encode_view = staticmethod(observation.encode_view)
    format_move = staticmethod(notation.format_move)
    read_move = staticmethod(notation.read_move)
    json_hooks = staticmethod(notation.json_hooks)
    action_key = staticmethod(moves.action_key)  # the codec numbers plays by rank and count
    action_notation = staticmethod(notation.action_text)
    num_actions = guard_config(moves.num_actions)
    display = guard_table(table.display)
    event_text = staticmethod(table.event_text)
    rules_summary = guard_config(table.rules_summary)
    notation_summary = guard_config(table.notation_summary)
    hint = guard_view(table.hint)
    drawn = guard_drawn(table.drawn)

    def known_move(self, move: object) -> Move:
        """``move`` itself: the transition refuses what is no move, and lays a play equal
        to a listed one as that one.
        """
        return move  # type: ignore[return-value]


RULES = Palace()
"""Palace's rules: every function of the package is one of its members."""
