"""The compiled twins of what the frame reads off a record's masks and lists of legal
actions: the draw, ``step``'s check, the mask made from the lists, the entry's range check.
Each refuses what the NumPy pass refuses, with the same errors, so no loop here reads or
writes outside its arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import literal_unroll
from numpy.typing import NDArray

from .._inputs import (
    beyond_error,
    check_one_action_a_list,
    checked_draws,
    checked_listed,
    checked_mask,
    draw_error,
)
from . import jit

__all__ = ["first_outside", "listed_mask", "lists_hold", "nth_legal", "nth_listed"]

_BYTE_SUM = np.uint64(0x0101010101010101)  # w * this >> 56: the sum of w's bytes (each 0 or 1)
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)


@jit
def _flags_in(word: Any) -> int:
    # each byte's bits folded into its lowest: a bool array's true byte need not be 1
    word |= word >> _S4
    word |= word >> _S2
    word |= word >> _S1
    return int(((word & _BYTE_SUM) * _BYTE_SUM) >> _S56)


def _drawn(pick: Any, draws: NDArray[np.float64], *arrays: Any) -> NDArray[np.int64]:
    """The actions ``pick`` writes off ``arrays`` and the draws, or the first draw's error."""
    actions = np.empty(draws.shape[0], dtype=np.int64)
    wrong = pick(draws, actions, *arrays)
    if wrong >= 0:
        raise draw_error(draws, wrong)
    return actions


@jit
def _fill(
    draws: Any, actions: Any, flags: Any, words: Any, width: int, found: Any, counts: Any
) -> int:
    for game in range(actions.shape[0]):
        draw = draws[game]
        if not (draw >= 0.0 and draw < 1.0):  # NaN too
            return game
        start = game * width
        end = start + width
        head = min((start + 7) // 8 * 8, end)  # [start, head) and [tail, end): flag by flag
        tail = max(end // 8 * 8, head)
        count = 0
        for at in range(start, head):
            count += flags[at] != 0
        listed = 0  # the words not zero, and their flags, in found and counts
        word, last = head // 8, tail // 8
        while word < last:
            if word + 4 <= last and not (
                words[word] | words[word + 1] | words[word + 2] | words[word + 3]
            ):
                word += 4  # most words of a wide mask are zero: four skipped at once
                continue
            if words[word]:
                found[listed] = word
                counts[listed] = _flags_in(words[word])
                count += counts[listed]
                listed += 1
            word += 1
        for at in range(tail, end):
            count += flags[at] != 0
        if count == 0:
            actions[game] = 0
            continue
        left = min(int(draw * count), count - 1)  # legal actions to pass over
        at = start
        while at < head and (not flags[at] or left > 0):
            left -= flags[at] != 0
            at += 1
        if at == head:
            k = 0
            while k < listed and left >= counts[k]:
                left -= counts[k]
                k += 1
            at = found[k] * 8 if k < listed else tail
            while not flags[at] or left > 0:
                left -= flags[at] != 0
                at += 1
        actions[game] = at - start
    return -1


def nth_legal(mask: NDArray[np.bool_], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """:func:`~tabletop_rules.batch.nth_legal`: the same actions, the same errors."""
    mask = checked_mask(mask)
    draws = checked_draws(draws, mask.shape[0])
    flags = mask.reshape(-1).view(np.uint8)
    words = flags[: flags.size - flags.size % 8].view(np.uint64)
    room = mask.shape[1] // 8 + 1  # a row's words
    found, counts = np.empty(room, dtype=np.int64), np.empty(room, dtype=np.int64)
    return _drawn(_fill, draws, flags, words, mask.shape[1], found, counts)


@jit
def _nth_listed(draws: Any, actions: Any, listed: Any) -> int:
    for game in range(listed.shape[0]):
        draw = draws[game]
        if not (draw >= 0.0 and draw < 1.0):  # NaN too
            return game
        row, count = listed[game], 0  # a row's view: a loop over it LLVM vectorizes
        for k in range(row.shape[0]):
            count += row[k] >= 0
        rank = min(np.int64(draw * count), max(count - 1, 0))
        actions[game] = row[rank] if count > 0 else 0
    return -1


def nth_listed(listed: NDArray[np.int16], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """:func:`~tabletop_rules.batch.nth_legal` off each game's list of legal actions."""
    listed = checked_listed(listed)
    return _drawn(_nth_listed, checked_draws(draws, listed.shape[0]), listed)


@jit
def _hold(listed: Any, actions: Any, held: Any) -> None:
    for game in range(listed.shape[0]):
        row, action, found = listed[game], actions[game], False
        for k in range(row.shape[0]):
            found |= row[k] == action
        held[game] = found


def lists_hold(listed: NDArray[np.int16], actions: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each game's row of ``listed`` holds its action."""
    listed = checked_listed(listed)
    check_one_action_a_list(listed, actions)
    held = np.empty(listed.shape[0], dtype=bool)
    _hold(listed, actions, held)
    return held


@jit
def _mark(listed: Any, mask: Any) -> bool:
    width = mask.shape[1]
    for game in range(listed.shape[0]):
        for k in range(listed.shape[1]):
            action = listed[game, k]
            if action >= width:
                return False
            if action >= 0:
                mask[game, action] = True
    return True


def listed_mask(listed: NDArray[np.int16], width: int) -> NDArray[np.bool_]:
    """``(games, width)``: the mask of the lists; ``InvalidStateError`` for an action beyond."""
    listed = checked_listed(listed)
    mask = np.zeros((listed.shape[0], width), dtype=bool)
    if not _mark(listed, mask):
        raise beyond_error(listed, width)
    return mask


@jit
def _outside(values: Any, low: int, high: int) -> bool:
    # the least and the most in one pass, a reduction LLVM vectorizes (no early exit)
    least = most = values[0]
    for value in values:
        least = min(least, value)
        most = max(most, value)
    return bool(least < low or most > high)


@jit
def first_outside(flat: tuple[NDArray[np.integer[Any]], ...], bounds: NDArray[np.int64]) -> int:
    """The place in ``flat`` (1-D arrays) of the first array with a value outside its row
    of ``bounds`` (lowest, highest), or -1: the entry's range check in one call.
    """
    k = 0
    for values in literal_unroll(flat):
        if values.size and _outside(values, bounds[k, 0], bounds[k, 1]):
            return k
        k += 1  # noqa: SIM113 (numba unrolls no enumerate over a tuple)
    return -1
