"""Test ids that read the same in every process: pytest-xdist refuses to run when its
workers collect different ids, and a default ``repr`` holds the object's address.
"""

from __future__ import annotations

import re

from tabletop_rules._messages import short_repr

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def repr_id(value: object) -> str:
    """``repr(value)`` without an object's address."""
    return _ADDRESS.sub("", repr(value))


def short_repr_id(value: object) -> str:
    """The error messages' short form of ``value``, without an object's address."""
    return _ADDRESS.sub("", short_repr(value))
