"""The batched engine: thousands of games a call over NumPy arrays, each game exactly the
game the rules engine plays from the same seed (``pip install 'tabletop-rules[batch]'``).
"""

from __future__ import annotations

from . import rng
from .frame import (
    MAX_SIZE,
    NOBODY,
    Engine,
    Games,
    engine,
    engines,
    kernel,
    random_actions,
    register,
)

__all__ = [
    "MAX_SIZE",
    "NOBODY",
    "Engine",
    "Games",
    "engine",
    "engines",
    "kernel",
    "random_actions",
    "register",
    "rng",
]
