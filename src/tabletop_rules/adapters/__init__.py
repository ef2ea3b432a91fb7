"""Adapters that let other frameworks play the games, each behind its own extra.

- :mod:`tabletop_rules.adapters.openspiel` (``pip install -e '.[openspiel]'``) registers
  every game with OpenSpiel as ``python_tabletop_<name>``.
- :mod:`tabletop_rules.adapters.pettingzoo` (``pip install -e '.[pettingzoo]'``) makes
  every game a PettingZoo AEC environment.

The package itself imports nothing optional: import the adapter you need.
"""

from __future__ import annotations

__all__: list[str] = []
