"""The shared conformance suite, run on the account game under many house rules and deals."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tabletop_rules import account as a
from tabletop_rules.testing import ConformanceSuite

from .test_properties import configs


class TestAccountConformance(ConformanceSuite):
    ruleset = a.RULES
    configs = configs()

    def deals(self, config: Any) -> st.SearchStrategy[Any]:
        """Any order of the configured deck."""
        cards = tuple(card for card, count in config.deck for _ in range(count))
        return st.permutations(cards).map(tuple)
