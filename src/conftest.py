"""Collect the modules' doctests only where their optional dependencies are installed."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pyspiel") is None:  # the openspiel extra is not installed
    collect_ignore.append("tabletop_rules/adapters/openspiel.py")
