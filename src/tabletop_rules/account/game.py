"""The account game as a :class:`~tabletop_rules.game.Game`: its facts, and its kernel
bound from the modules named after each subject (the rules in :mod:`~tabletop_rules.account.rules`,
what a seat sees in :mod:`~tabletop_rules.account.view`, the text for people in
:mod:`~tabletop_rules.account.table`).
"""

from __future__ import annotations

from types import MappingProxyType

from .. import kit
from ..game import Game, guard_config, guard_drawn, guard_table, guard_view
from . import invariants, notation, observation, rules, table
from .bots import AccountSearchBot, BestCardBot, PlannerBot
from .cards import Card
from .config import FORMAT_VERSION, MAX_PLAYERS, Config
from .events import EVENT_TYPES, Event
from .moves import MOVE_TABLE, MOVE_TYPES, Die, Move
from .state import State, View
from .view import determinize, view

__all__ = ["RULES", "Account"]


class Account(Game[Config, State, Move, View, Event]):
    """The account game: markers run round the bottom line of a field of cards, and each
    card they land on changes their player's account.
    """

    name, title, seats = "account", "The account game", (1, MAX_PLAYERS)
    hidden_information, deal_type, format_version = True, Card, FORMAT_VERSION
    config_type, state_type, view_type = Config, State, View
    move_types, event_types, chance_type, move_table = MOVE_TYPES, EVENT_TYPES, Die, MOVE_TABLE
    own_bots = MappingProxyType(
        {
            "bestcard": kit.Unseeded(BestCardBot),
            "planner": kit.Unseeded(PlannerBot),
            "search": AccountSearchBot,
        }
    )

    start = staticmethod(rules.new_game)
    legal_moves = staticmethod(rules.legal_moves)
    transition = staticmethod(rules.transition)
    score = staticmethod(rules.score)
    current_player = staticmethod(rules.current_player)
    is_over = staticmethod(rules.is_over)  # a playout asks it every move: one call, not two
    max_moves = staticmethod(rules.max_moves)
    view = staticmethod(view)
    redeal = staticmethod(determinize)
    check_invariants = staticmethod(invariants.check_invariants)
    check_view_invariants = staticmethod(invariants.check_view)
    encode_view = staticmethod(observation.encode_view)
    format_move = staticmethod(notation.format_move)
    read_move = staticmethod(notation.read_move)  # "place 3" names a column, "buy" alone
    json_hooks = staticmethod(notation.json_hooks)
    deck = guard_config(Config.deck_cards)
    display = guard_table(table.display)
    event_text = staticmethod(table.event_text)
    rules_summary = guard_config(table.rules_summary)
    notation_summary = guard_config(table.notation_summary)
    hint = guard_view(table.hint)
    drawn = guard_drawn(table.drawn)
    move_notes = guard_view(table.move_notes)


RULES = Account()
"""The account game's rules: every function of the package is one of its members."""
