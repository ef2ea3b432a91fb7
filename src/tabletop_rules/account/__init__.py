"""The account game: markers run round the bottom line of a field of cards and each card
they land on changes their player's account (the rules page ``rules/account``; every
house rule is a field of :class:`Config`). Its ``RULES``, registered as ``"account"``, is
built by :func:`tabletop_rules.kit.build` from the declaration and kernel below.
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
from .moves import *
from .notation import json_hooks, read_move
from .observation import *
from .observation import encode_view
from .rules import line
from .state import *
from .table import Landing, landings

P = cards.PREMIUM_100
"""The old name of :data:`~tabletop_rules.account.cards.PREMIUM_100`, for one release more."""
T = cards.PREMIUM_1000
"""The old name of :data:`~tabletop_rules.account.cards.PREMIUM_1000`, for one release more."""
B = cards.CHARGE
"""The old name of :data:`~tabletop_rules.account.cards.CHARGE`, for one release more."""
Z = cards.ZERO
"""The old name of :data:`~tabletop_rules.account.cards.ZERO`, for one release more."""

__all__ = ["CHANCE", "RULES", "B", "Landing", "P", "T", "Z", "landings", "line", "read_move"]
__all__ += exported_functions()
__all__ += bots.__all__
__all__ += cards.__all__
__all__ += config.__all__
__all__ += moves.__all__
__all__ += observation.__all__
__all__ += events.__all__
__all__ += state.__all__

DECLARATION = kit.Declaration(
    name="account",
    title="The account game",
    players=(1, MAX_PLAYERS),
    hidden_information=True,
    deal_type=Card,
    format_version=FORMAT_VERSION,
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
    chance_type=Die,
    check_view=invariants.check_view,
    display=table.display,
    json_hooks=json_hooks,
    deck=Config.deck_cards,
    bots={
        "bestcard": kit.Unseeded(BestCardBot),
        "planner": kit.Unseeded(PlannerBot),
        "search": AccountSearchBot,
    },
    read_move=read_move,
    transition_checks=True,
    describe=table.event_text,
    rules_summary=table.rules_summary,
    notation_summary=table.notation_summary,
    hint=table.hint,
)

RULES: Game[Config, State, Move, View, Event] = kit._build(
    DECLARATION,
    KERNEL,
    # benchmarks/ab_playout.py: a playout asks both every move; behind the shell's guard the
    # playout ran at 0.88 of the game before the kit, with the game's own checks at 0.92.
    legal_moves=rules.legal_moves,
    is_over=rules.is_over,
)
"""The account game's :class:`~tabletop_rules.protocol.Ruleset`: the kernel above and what
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


def __getattr__(name: str) -> Any:
    """``field_text``, the deprecated name of :func:`display`, kept for one release."""
    if name == "field_text":
        warnings.warn(
            "account.field_text is deprecated: use account.display, the name every game shares",
            DeprecationWarning,
            stacklevel=2,
        )
        return display
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


kit.register(RULES)
