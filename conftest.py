"""Collection settings for the whole repository: an adapter's doctests are collected only
where its extra is installed (its tests skip themselves, with the install command).
"""

from __future__ import annotations

import importlib.util


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:  # imported as None: blocked on purpose
        return False


collect_ignore = [
    path
    for path, module in [
        ("src/tabletop_rules/adapters/openspiel.py", "pyspiel"),
        ("src/tabletop_rules/adapters/pettingzoo.py", "pettingzoo"),
    ]
    if not _installed(module)
]
