"""The batched engine: thousands of games a call over NumPy arrays, each game exactly the
game the rules engine plays from the same seed (``pip install 'tabletop-rules[batch]'``).
"""

from __future__ import annotations

from . import frame, rng
from .frame import *

__all__ = ["rng"]
__all__ += frame.__all__
