"""The account game: markers run round the bottom line of a field of cards and each card
they land on changes their player's account. The rules are the rules page
``rules/account``; every house rule is a field of :class:`Config`.

The package holds the rules engine, views, notation, the action codec, the field as
text (:func:`display`) and a heuristic bot (:class:`BestCardBot`), all registered
as ``"account"``.
"""

from __future__ import annotations

from ..bots import Unseeded
from ..errors import ConfigError
from ..protocol import CHANCE, GameRules, register
from ..validation import check_type
from .bots import BestCardBot
from .cards import CARDS, END, KINDS, B, Card, Deal, P, T, Z
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
    DEFAULT_DECK,
    ENDS,
    MAX_COLUMNS,
    MAX_COST,
    MAX_COUNT,
    MAX_MARKERS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_ROWS,
    Config,
    Deck,
    EndRule,
)
from .display import display, field_text
from .events import (
    EVENT_TYPES,
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
    redact,
)
from .jsonform import FORMAT_VERSION, json_hooks
from .moves import DIRECTIONS, MOVE_TYPES, Advance, Buy, Die, Direction, Move, Place, Roll
from .notation import format_move, parse_move, read_move
from .observation import ACCOUNT_CLIP, LOG_CLIP, observation_spec, observe
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
from .state import Phase, State, check_state, line
from .view import View, check_view, determinize, view

__all__ = [
    "ACCOUNT_CLIP",
    "CARDS",
    "CHANCE",
    "CHANCE_OFFSET",
    "DEFAULT_DECK",
    "DIRECTIONS",
    "END",
    "ENDS",
    "EVENT_TYPES",
    "KINDS",
    "LOG_CLIP",
    "MAX_COLUMNS",
    "MAX_COST",
    "MAX_COUNT",
    "MAX_MARKERS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_ROWS",
    "MOVE_TYPES",
    "NUM_ACTIONS",
    "RULES",
    "AccountChanged",
    "Advance",
    "B",
    "BestCardBot",
    "Bought",
    "Buy",
    "Card",
    "Collapsed",
    "Config",
    "Deal",
    "Deck",
    "Die",
    "Direction",
    "Drew",
    "EndHit",
    "EndRule",
    "Event",
    "GameOver",
    "Move",
    "Moved",
    "P",
    "Phase",
    "Place",
    "Placed",
    "Reshuffled",
    "Roll",
    "Rolled",
    "State",
    "T",
    "TurnPassed",
    "View",
    "Z",
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
    "field_text",
    "format_move",
    "is_over",
    "legal_mask",
    "legal_moves",
    "line",
    "max_moves",
    "new_game",
    "num_actions",
    "observation_spec",
    "observe",
    "parse_move",
    "read_move",
    "redact",
    "score",
    "view",
    "winners",
]


def _deck(config: Config) -> tuple[Card, ...]:
    """The cards ``config`` deals, unshuffled: :meth:`Config.deck_cards`."""
    checked: Config = check_type(config, (Config,), ConfigError)
    return checked.deck_cards()


RULES: GameRules[Config, State, Move, View, Event] = GameRules(
    name="account",
    title="The account game",
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
    hidden_information=True,
    deal_type=Card,
    deck=_deck,
    format_version=FORMAT_VERSION,
    json_hooks=json_hooks,
    display=display,
    own_bots={"bestcard": Unseeded(BestCardBot)},
)
"""The account game's :class:`~tabletop_rules.protocol.Ruleset`."""

register(RULES)
