""":func:`~tabletop_rules.batch.nth_legal` compiled, for
:func:`~tabletop_rules.batch.random_actions`: the masks read eight flags to a 64-bit word.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import jit

__all__ = ["nth_legal"]

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
