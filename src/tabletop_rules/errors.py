"""The exception hierarchy shared by every game.

All errors are :class:`ValueError` subclasses under :class:`TabletopError`, so a caller
can catch exactly what it can handle, or everything the library raises at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "BotSelectionError",
    "ConfigError",
    "GamePluginError",
    "HouseRulesError",
    "IllegalMoveError",
    "InvalidConfigError",
    "InvalidStateError",
    "NotationError",
    "SeatError",
    "SimulationError",
    "TabletopError",
    "UnknownGameError",
]


class TabletopError(ValueError):
    """Base class of the errors about game input (moves, house rules, serialized data,
    notation, seats, bots by name) and of a failed simulation; a wrong type is a ``TypeError``.
    """


class IllegalMoveError(TabletopError):
    """A move that the rules forbid in the given state; the message names the rule."""


class ConfigError(TabletopError):
    """A house-rule configuration that is invalid, raised when the config is built."""


class HouseRulesError(ConfigError):
    """House rules from a form refused field by field: :attr:`fields` holds why each
    refused rule is refused, by its name, for a form to show beside that field.
    """

    def __init__(self, message: str, fields: Mapping[str, str]) -> None:
        super().__init__(message)
        self.fields: Mapping[str, str] = MappingProxyType(dict(fields))
        """Each refused house rule's reason, by the rule's name."""


class SeatError(TabletopError):
    """A seat that is not at the table (``view(state, 5)`` for two); the message names the seats."""


class InvalidStateError(TabletopError):
    """Serialized data that is malformed or breaks an invariant of the game."""


class NotationError(TabletopError):
    """Move text that cannot be read as a move of the game."""


class InvalidConfigError(InvalidStateError, ConfigError):
    """Serialized house rules that break a rule of the game's ``Config``: an
    :class:`InvalidStateError` and a :class:`ConfigError`.
    """


class BotSelectionError(TabletopError):
    """Bots that cannot play a game as chosen: a name it has no bot for (the message lists
    those it has), or not one bot a seat.
    """


class UnknownGameError(TabletopError, KeyError):
    """A game name no game has; the message lists the known ones. A :class:`KeyError` too,
    as the registry's lookup raised before.
    """

    __str__ = BaseException.__str__  # the message, not KeyError's repr of it


class SimulationError(TabletopError):
    """A simulated game that failed (a bot or the rules raised, or its worker died);
    :attr:`games` and :attr:`seeds` name the games without a result, to play again.
    """

    def __init__(self, message: str, games: tuple[int, ...] = (), seeds: tuple[int, ...] = ()):
        super().__init__(message)
        self.games = games
        """The indices of the games lost, in the run's order."""
        self.seeds = seeds
        """The seed of each game of :attr:`games`."""

    def __reduce__(
        self,
    ) -> tuple[type[SimulationError], tuple[str, tuple[int, ...], tuple[int, ...]]]:
        return type(self), (str(self), self.games, self.seeds)


class GamePluginError(TabletopError, KeyError):
    """A game of another package that cannot be played (its entry point fails to import, names
    no ruleset or another name, or two distributions claim the game; the message names the
    entry point and its distribution), or a name :func:`~tabletop_rules.protocol.register`
    finds taken. A :class:`KeyError` too, as an unknown game is.
    """

    __str__ = BaseException.__str__  # the message, not KeyError's repr of it
