"""Pig, the dice game, as a :class:`~tabletop_rules.game.Game`: roll or hold, don't roll a 1."""

from __future__ import annotations

from .rules import HOLD, Config, Die, Event, Hold, HoldAt20, Move, Pig, Roll, State, View

__all__ = [
    "HOLD", "RULES", "Config", "Die", "Event", "Hold", "HoldAt20", "Move", "Pig", "Roll",
    "State", "View",
]  # fmt: skip

RULES = Pig()
"""Pig's rules. The entry point in ``pyproject.toml`` names it, so the game needs no
``register`` call of its own."""
