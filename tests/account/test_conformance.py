"""The shared conformance suite, run on the account game under many house rules and deals."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tabletop_rules import account as a
from tabletop_rules.account.cards import CHARGE
from tabletop_rules.testing import ConformanceSuite

from .test_properties import configs


def _worst() -> tuple[a.Config, tuple[a.Card, ...]]:
    """The costliest allowed config (benchmarks/worst_config.py): 8 players with 8 markers
    each, one line of 20 cards, 1000 rounds, a deck of 100 each of B, Z and End and a single
    +1, dealt with B along the line. Every landing is on B and draws through the pack, and
    every landing after the first reshuffles the discard pile (281 cards).
    """
    config = a.Config(
        players=8,
        rows=1,
        columns=20,
        max_markers=8,
        starting_markers=8,
        marker_cost=0,
        max_rounds=1000,
        deck={"B": 100, "Z": 100, "End": 100, "+1": 1},
    )
    rest = list(config.deck_cards())
    for _ in range(config.columns):
        rest.remove(CHARGE)
    return config, (CHARGE,) * config.columns + tuple(rest)


class TestAccountConformance(ConformanceSuite):
    ruleset = a.RULES
    configs = configs()
    worst_config, worst_deal = _worst()

    def deals(self, config: Any) -> st.SearchStrategy[Any]:
        """Any order of the configured deck."""
        cards = tuple(card for card, count in config.deck for _ in range(count))
        return st.permutations(cards).map(tuple)
