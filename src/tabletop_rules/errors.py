"""The exception hierarchy shared by every game.

All errors are :class:`ValueError` subclasses under :class:`TabletopError`, so a caller
can catch exactly what it can handle, or everything the library raises at once.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "IllegalMoveError",
    "InvalidConfigError",
    "InvalidStateError",
    "NotationError",
    "TabletopError",
]


class TabletopError(ValueError):
    """Base class of the errors about game input: moves, house rules, serialized data and
    notation. Misuse of the API itself (a seat that is not at the table, a state that is
    no state) raises a plain ``ValueError`` or ``TypeError``.
    """


class IllegalMoveError(TabletopError):
    """A move that the rules forbid in the given state; the message names the rule."""


class ConfigError(TabletopError):
    """A house-rule configuration that is invalid, raised when the config is built."""


class InvalidStateError(TabletopError):
    """Serialized data that is malformed or breaks an invariant of the game."""


class NotationError(TabletopError):
    """Move text that cannot be read as a move of the game."""


class InvalidConfigError(InvalidStateError, ConfigError):
    """Serialized house rules that break a rule of the game's ``Config``: an
    :class:`InvalidStateError` like every loading failure, and a :class:`ConfigError`
    like the same config built in code.
    """
