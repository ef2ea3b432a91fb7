"""The shared conformance suite, run on dice poker under many house rules."""

from tabletop_rules import dice_poker as dp
from tabletop_rules.testing import ConformanceSuite

from .strategies import configs, moves


class TestDicePokerConformance(ConformanceSuite):
    ruleset = dp.RULES
    configs = configs()
    arbitrary_moves = moves
    worst_config = dp.Config(  # the costliest allowed config (benchmarks/worst_config.py)
        players=8, stages=10, throws_per_turn=10, fences=False
    )
