"""Bridges to other game frameworks, each behind its own extra.

- :mod:`tabletop_rules.adapters.openspiel` (``pip install -e '.[openspiel]'``) registers
  every game with OpenSpiel as ``python_tabletop_<name>``.

The package itself imports nothing optional: import the adapter you need.
"""

from __future__ import annotations

__all__: list[str] = []
