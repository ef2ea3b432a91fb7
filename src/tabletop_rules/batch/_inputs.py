"""The checks of a batch's masks, draws and lists of legal actions that the NumPy pass and
the compiled one (:mod:`tabletop_rules.batch.compiled.masks`) both make, alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._messages import short_repr
from ..errors import IllegalMoveError, InvalidStateError


def checked_mask(mask: object) -> NDArray[np.bool_]:
    """``mask`` C-contiguous if a bool array, games by actions; else what it is not."""
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
        raise TypeError(f"a legal mask is a NumPy array of bool, got {short_repr(mask)}")
    if mask.ndim != 2 or not mask.shape[1]:
        raise ValueError(
            f"a legal mask has shape (games, actions), one action at least, got {mask.shape}"
        )
    return np.ascontiguousarray(mask)


def checked_draws(draws: object, size: int) -> NDArray[np.float64]:
    """``draws`` as C-contiguous float64, if a float array of shape ``(size,)`` (their
    range is checked by the pass that reads them).
    """
    if not isinstance(draws, np.ndarray) or draws.dtype.kind != "f":
        raise TypeError(f"draws are a NumPy array of floats in [0, 1), got {short_repr(draws)}")
    if draws.shape != (size,):
        raise IllegalMoveError(f"draws have shape ({size},), one a game, got {draws.shape}")
    return np.ascontiguousarray(draws, dtype=np.float64)


def check_draws_in_range(draws: NDArray[np.float64]) -> None:
    """:func:`draw_error` for the first draw not in [0, 1): a min and a max over them."""
    if draws.size and not (draws.min() >= 0.0 and draws.max() < 1.0):  # NaN fails both
        raise draw_error(draws, int(np.flatnonzero(~((draws >= 0.0) & (draws < 1.0)))[0]))


def draw_error(draws: NDArray[np.float64], game: int) -> IllegalMoveError:
    """The error for game ``game``'s draw, not in [0, 1): the same on either pass."""
    return IllegalMoveError(
        "draws are floats in [0, 1), as Generator.random gives; "
        f"game {game} drew {float(draws[game])!r}"
    )


def checked_listed(listed: object) -> NDArray[np.signedinteger[Any]]:
    """``listed`` C-contiguous if a 2-D signed integer array; else what it is not."""
    if not isinstance(listed, np.ndarray) or listed.dtype.kind != "i":
        raise TypeError(f"legal actions are a NumPy array of integers, got {short_repr(listed)}")
    if listed.ndim != 2:
        raise ValueError(f"legal actions have shape (games, k), got {listed.shape}")
    return np.ascontiguousarray(listed)


def check_one_action_a_list(listed: NDArray[Any], actions: NDArray[Any]) -> None:
    if actions.shape != (listed.shape[0],):
        raise ValueError(f"actions are one action a game: {listed.shape[0]}, got {actions.shape}")


def beyond_error(listed: NDArray[Any], width: int) -> InvalidStateError:
    """The error for the first game whose list names an action of ``width`` or more."""
    game, place = (int(at[0]) for at in np.nonzero(listed >= width))
    return InvalidStateError(
        f"game {game} lists action {int(listed[game, place])}; the actions are 0 to {width - 1}"
    )
