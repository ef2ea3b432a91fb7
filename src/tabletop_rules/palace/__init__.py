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

from ..bots import Unseeded
from ..errors import ConfigError
from ..protocol import CHANCE, GameRules, register
from ..validation import check_type
from .bots import LowCardBot
from .cards import BONUS_RANKS, DECK, NATURAL_RANKS, RANKS, SUITS, Card, Deal, Rank, Suit
from .codec import action_text, chance_offset, decode, encode, legal_mask, num_actions
from .config import (
    MAX_DECKS,
    MAX_HAND_SIZE,
    MAX_PLAYERS,
    MAX_TURNS,
    Config,
    FacePlay,
    FirstPlayer,
    MustBeat,
    PlayUntil,
    Quad,
)
from .display import display, table_text
from .events import (
    EVENT_TYPES,
    Burned,
    Drew,
    EndedTurn,
    Event,
    Finished,
    GameOver,
    Played,
    Readied,
    Started,
    Swapped,
    TookFaceUp,
    TookPile,
    TurnedBlind,
    TurnPassed,
    redact,
)
from .jsonform import FORMAT_VERSION, json_hooks
from .moves import MOVE_TYPES, EndTurn, Move, Play, PlayBlind, Ready, Slot, Swap, TakePile
from .notation import format_move, parse_move, read_move
from .observation import observation_spec, observe
from .rules import (
    apply,
    apply_with_events,
    canonical,
    chance_probabilities,
    current_player,
    first_player,
    is_over,
    legal_moves,
    max_moves,
    new_game,
    score,
    winners,
)
from .state import MAX_SWAPS, Pending, Phase, State, check_state, fitting_deal
from .view import View, check_view, determinize, view

__all__ = [
    "BONUS_RANKS",
    "CHANCE",
    "DECK",
    "EVENT_TYPES",
    "MAX_DECKS",
    "MAX_HAND_SIZE",
    "MAX_PLAYERS",
    "MAX_SWAPS",
    "MAX_TURNS",
    "MOVE_TYPES",
    "NATURAL_RANKS",
    "RANKS",
    "RULES",
    "SUITS",
    "Burned",
    "Card",
    "Config",
    "Deal",
    "Drew",
    "EndTurn",
    "EndedTurn",
    "Event",
    "FacePlay",
    "Finished",
    "FirstPlayer",
    "GameOver",
    "LowCardBot",
    "Move",
    "MustBeat",
    "Pending",
    "Phase",
    "Play",
    "PlayBlind",
    "PlayUntil",
    "Played",
    "Quad",
    "Rank",
    "Readied",
    "Ready",
    "Slot",
    "Started",
    "State",
    "Suit",
    "Swap",
    "Swapped",
    "TakePile",
    "TookFaceUp",
    "TookPile",
    "TurnPassed",
    "TurnedBlind",
    "View",
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
    "first_player",
    "fitting_deal",
    "format_move",
    "is_over",
    "legal_mask",
    "legal_moves",
    "max_moves",
    "new_game",
    "num_actions",
    "observation_spec",
    "observe",
    "parse_move",
    "read_move",
    "redact",
    "score",
    "table_text",
    "view",
    "winners",
]


def _deck(config: Config) -> tuple[Card, ...]:
    """The cards ``config`` deals, unshuffled: :data:`DECK` once per deck."""
    checked: Config = check_type(config, (Config,), ConfigError)
    return DECK * checked.decks


RULES: GameRules[Config, State, Move, View, Event] = GameRules(
    name="palace",
    title="Palace",
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
    own_bots={"lowcard": Unseeded(LowCardBot)},
)
"""Palace's :class:`~tabletop_rules.protocol.Ruleset`."""

register(RULES)
