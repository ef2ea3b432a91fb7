"""Short, safe text of any value for error messages: quoting a list of a million items,
an int of 5,000 digits or an object whose ``__repr__`` raises, a message stays short and
is always built.

>>> short_repr([6] * 1_000_000)
'[6, 6, 6, 6, 6, 6, 6, 6, ...]'
"""

from __future__ import annotations

import reprlib

__all__ = ["short_repr", "short_text"]


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with small limits, and no ``repr`` of an int too long to print."""

    def repr_int(self, x: int, level: int) -> str:
        bits = x.bit_length()
        return f"<int of {bits} bits>" if bits > 128 else super().repr_int(x, level)


_SHORT = _ShortRepr()
_SHORT.maxlevel = 3
_SHORT.maxtuple = _SHORT.maxlist = 8
_SHORT.maxdict = _SHORT.maxset = _SHORT.maxfrozenset = 4
_SHORT.maxstring = 40
_SHORT.maxlong = 40
_SHORT.maxother = 60


def short_repr(value: object) -> str:
    """``repr(value)`` for an error message: at most 120 characters, and it never raises,
    whatever ``value``'s own ``__repr__`` does.

    >>> short_repr((6,) * 100)
    '(6, 6, 6, 6, 6, 6, 6, 6, ...)'
    >>> short_repr(10**5000)
    '<int of 16610 bits>'
    """
    try:
        text = _SHORT.repr(value)
    except Exception:
        pass
    else:
        return text if len(text) <= 120 else text[:117] + "..."
    try:
        return f"<{type(value).__name__} object>"
    except Exception:  # pragma: no cover - a metaclass whose __name__ raises
        return "<object>"


def short_text(value: object) -> str:
    """``str(value)`` cut to 200 characters; never raises."""
    try:
        text = str(value)
    except Exception:
        return f"<{type(value).__name__} whose text cannot be read>"
    return text if len(text) <= 200 else text[:197] + "..."
