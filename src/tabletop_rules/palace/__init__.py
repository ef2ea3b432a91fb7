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

import warnings
from typing import Any

from .. import kit
from ..game import CHANCE, Game, exported_functions
from . import (
    bots,
    cards,
    config,
    events,
    invariants,
    moves,
    notation,
    observation,
    rules,
    state,
    table,
)
from . import view as view_module
from .bots import *
from .cards import *
from .config import *
from .events import *
from .invariants import *
from .invariants import check_invariants
from .moves import *
from .notation import *
from .notation import json_hooks
from .rules import *
from .state import *
from .table import *
from .view import *

__all__ = ["CHANCE", "RULES"]
__all__ += exported_functions()
__all__ += bots.__all__
__all__ += cards.__all__
__all__ += config.__all__
__all__ += events.__all__
__all__ += invariants.__all__
__all__ += moves.__all__
__all__ += notation.__all__
__all__ += rules.__all__
__all__ += state.__all__
__all__ += table.__all__
__all__ += view_module.__all__

DECLARATION = kit.Declaration(
    name="palace",
    title="Palace",
    players=(2, MAX_PLAYERS),
    chance_mode="deterministic",
    hidden_information=True,
    deal_type=Card,
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
    encode_view=observation.encode_view,
    check_state=check_invariants,
    max_moves=rules.max_moves,
    moves=moves.MOVE_TABLE,
    winners=rules.winners,
    display=table.display,
    json_hooks=json_hooks,
    deck=rules.deck,
    bots={"lowcard": kit.Unseeded(LowCardBot), "search": PalaceSearchBot},
    # transition itself refuses every move that is not legal and makes a play equal to a
    # listed one that one: the shell hands it each move as given.
    own_move=lambda move: move,
    canonical=rules.canonical,
    read_move=notation.read_move,
    read_move_in=rules.read_move_in,
    action_key=moves.action_key,
    num_actions=moves.num_actions,
    action_text=notation.action_text,
    describe=table.event_text,
    rules_summary=table.rules_summary,
    notation_summary=table.notation_summary,
    hint=table.hint,
)

RULES: Game[Config, State, Move, View, Event] = kit._build(
    DECLARATION,
    KERNEL,
    # ab_playout: a playout calls these on every move, the derived ones a call deeper
    # (best of nine plain playouts: 0.90 of 35305bf derived, 0.92 own, as at 0c18b10).
    is_over=rules.is_over,
    legal_moves=rules.legal_moves,
    # A drawn card is private: another seat sees how many were drawn.
    redact=events.redact,
)
"""Palace's :class:`~tabletop_rules.protocol.Ruleset`: the kernel above and what
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
    """``table_text``, the deprecated name of :data:`display`, for one release."""
    if name == "table_text":
        warnings.warn(
            "palace.table_text is deprecated: use palace.display, the name every game shares",
            DeprecationWarning,
            stacklevel=2,
        )
        return display
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
