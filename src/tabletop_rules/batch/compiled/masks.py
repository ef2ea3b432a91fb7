""":func:`~tabletop_rules.batch.nth_legal` compiled, for
:func:`~tabletop_rules.batch.random_actions`: the masks read eight flags to a 64-bit word;
and what the frame reads off a record's lists of legal actions (``Games.legal_actions``),
compiled: the draw, ``step``'s check, the mask made from them. NumPy's reductions over a
list's few dozen columns cost more than dice poker's compiled step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import jit

__all__ = ["listed_mask", "lists_hold", "nth_legal", "nth_listed"]

_BYTE_SUM = np.uint64(0x0101010101010101)  # w * this >> 56: the sum of w's bytes (each 0 or 1)
_S56 = np.uint64(56)


@jit
def _flags_in(word: Any) -> int:
    return int((word * _BYTE_SUM) >> _S56)


@jit
def _fill(
    flags: Any, words: Any, width: int, draws: Any, actions: Any, found: Any, counts: Any
) -> None:
    for game in range(actions.shape[0]):
        start = game * width
        end = start + width
        head = min((start + 7) // 8 * 8, end)  # [start, head) and [tail, end): flag by flag
        tail = max(end // 8 * 8, head)
        count = 0
        for at in range(start, head):
            count += flags[at]
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
            count += flags[at]
        if count == 0:
            actions[game] = 0
            continue
        left = min(int(draws[game] * count), count - 1)  # legal actions to pass over
        at = start
        while at < head and (not flags[at] or left > 0):
            left -= flags[at]
            at += 1
        if at == head:
            k = 0
            while k < listed and left >= counts[k]:
                left -= counts[k]
                k += 1
            at = found[k] * 8 if k < listed else tail
            while not flags[at] or left > 0:
                left -= flags[at]
                at += 1
        actions[game] = at - start


def nth_legal(mask: NDArray[np.bool_], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """:func:`~tabletop_rules.batch.nth_legal`, the same actions."""
    flags = np.ascontiguousarray(mask).reshape(-1).view(np.uint8)
    words = flags[: flags.size - flags.size % 8].view(np.uint64)
    actions = np.empty(mask.shape[0], dtype=np.int64)
    room = mask.shape[1] // 8 + 1  # a row's words
    found, counts = np.empty(room, dtype=np.int64), np.empty(room, dtype=np.int64)
    _fill(flags, words, mask.shape[1], draws, actions, found, counts)
    return actions


@jit
def _nth_listed(listed: Any, draws: Any, actions: Any) -> None:
    for game in range(listed.shape[0]):
        count = 0
        for k in range(listed.shape[1]):
            count += listed[game, k] >= 0
        rank = min(np.int64(draws[game] * count), max(count - 1, 0))
        actions[game] = listed[game, rank] if count > 0 else 0


def nth_listed(listed: NDArray[np.int16], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """For each game (a row of ``listed``: its legal actions ascending, then -1) its legal
    action of rank ``floor(draw * count)``, 0 for a game with none: what
    :func:`~tabletop_rules.batch.random_actions` draws off the lists.
    """
    actions = np.empty(listed.shape[0], dtype=np.int64)
    _nth_listed(listed, draws, actions)
    return actions


@jit
def _hold(listed: Any, actions: Any, held: Any) -> None:
    for game in range(listed.shape[0]):
        found = False
        for k in range(listed.shape[1]):
            found |= listed[game, k] == actions[game]
        held[game] = found


def lists_hold(listed: NDArray[np.int16], actions: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each game's row of ``listed`` holds its action."""
    held = np.empty(listed.shape[0], dtype=bool)
    _hold(listed, actions, held)
    return held


@jit
def _mark(listed: Any, mask: Any) -> None:
    for game in range(listed.shape[0]):
        for k in range(listed.shape[1]):
            if listed[game, k] >= 0:
                mask[game, listed[game, k]] = True


def listed_mask(listed: NDArray[np.int16], width: int) -> NDArray[np.bool_]:
    """``(games, width)``: the mask of each game's listed actions."""
    mask = np.zeros((listed.shape[0], width), dtype=bool)
    _mark(listed, mask)
    return mask
