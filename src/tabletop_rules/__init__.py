"""tabletop_rules: exact, typed, immutable-state rules engines for three tabletop games.

Each game is a subclass of :class:`~tabletop_rules.game.Game`, and a package whose
functions (``new_game``, ``legal_moves``, ``apply``, ``score``, ``view``, …) are its
``RULES`` object's methods; :func:`~tabletop_rules.protocol.get_ruleset` finds one by name.

>>> import tabletop_rules
>>> rules = tabletop_rules.get_ruleset("dice-poker")
>>> state = rules.new_game(seed=1)
>>> rules.legal_moves(state)[0]
Roll()
"""

from __future__ import annotations

# Imported for what they add to the modules below them: every ruleset's bots include
# "random", shared by the bots module; dumps and loads carry game records.
from . import bots as bots
from . import records as records
from .errors import (
    BotSelectionError,
    ConfigError,
    GamePluginError,
    HouseRulesError,
    IllegalMoveError,
    InvalidConfigError,
    InvalidStateError,
    NotationError,
    SeatError,
    SimulationError,
    TabletopError,
    UnknownGameError,
)
from .game import Game
from .match import Match
from .observation import ObservationSpec
from .protocol import CHANCE, Bot, Ruleset, Seat, get_ruleset, register, rulesets
from .rng import Rng
from .table import LogEntry, Table, seat_table

__all__ = [
    "CHANCE",
    "Bot",
    "BotSelectionError",
    "ConfigError",
    "Game",
    "GamePluginError",
    "HouseRulesError",
    "IllegalMoveError",
    "InvalidConfigError",
    "InvalidStateError",
    "LogEntry",
    "Match",
    "NotationError",
    "ObservationSpec",
    "Rng",
    "Ruleset",
    "Seat",
    "SeatError",
    "SimulationError",
    "Table",
    "TabletopError",
    "UnknownGameError",
    "__version__",
    "get_ruleset",
    "register",
    "rulesets",
    "seat_table",
]

__version__ = "0.1.0.dev0"
"""The package's version; the distribution's version is read from here."""
