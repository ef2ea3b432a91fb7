"""The shared conformance suite, run on palace under many house rules and deals."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tabletop_rules import palace as p
from tabletop_rules.palace.cards import DECK
from tabletop_rules.palace.config import MAX_TURNS
from tabletop_rules.testing import ConformanceSuite

from .test_properties import configs


class TestPalaceConformance(ConformanceSuite):
    ruleset = p.RULES
    configs = configs()
    worst_config = p.Config(  # the costliest allowed config (benchmarks/worst_config.py)
        players=13, decks=4, hand_size=9, play_until="last", max_turns=MAX_TURNS
    )

    def deals(self, config: Any) -> st.SearchStrategy[Any]:
        """Any order of the configured decks."""
        return st.permutations(DECK * config.decks).map(tuple)
