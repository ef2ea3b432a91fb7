"""The batched kernels compiled by numba (``pip install 'tabletop-rules[numba]'``): each
subclasses its game's NumPy kernel, keeps its arrays and its ``state``/``observe``, and
plays a step as one compiled loop over the games, so that both play the same games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

try:
    import numba
except ImportError as missing:  # the optional `numba` extra
    raise ImportError(
        "the compiled batched kernels need numba: pip install 'tabletop-rules[numba]'"
    ) from missing

__all__ = ["jit"]

F = TypeVar("F", bound=Callable[..., Any])


def jit(function: F) -> F:
    """``function`` compiled in numba's nopython mode, cached on disk, the GIL released."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))
