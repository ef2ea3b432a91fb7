"""The exception hierarchy shared by every game.

All errors are :class:`ValueError` subclasses under :class:`TabletopError`, so a caller
can catch exactly what it can handle, or everything the library raises at once.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "IllegalMoveError",
    "InvalidStateError",
    "NotationError",
    "TabletopError",
]


class TabletopError(ValueError):
    """Base class of every error this library raises on purpose."""


class IllegalMoveError(TabletopError):
    """A move that the rules forbid in the given state; the message names the rule."""


class ConfigError(TabletopError):
    """A house-rule configuration that is invalid, raised when the config is built."""


class InvalidStateError(TabletopError):
    """Serialized data that is malformed or breaks an invariant of the game."""


class NotationError(TabletopError):
    """Move text that cannot be read as a move of the game."""
