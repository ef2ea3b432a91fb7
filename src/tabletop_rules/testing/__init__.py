"""A reusable conformance suite: what every :class:`~tabletop_rules.protocol.Ruleset` must do.

Subclass :class:`ConformanceSuite` in a test module, name the ruleset and a hypothesis
strategy of configs, and pytest runs every check on random games, as OpenSpiel's
``RandomSimTest`` does (:doc:`/conformance` lists the checks)::

    class TestDicePoker(ConformanceSuite):
        ruleset = dice_poker.RULES
        configs = st.builds(dice_poker.Config, players=st.integers(1, 4))

Each check is also a function (:mod:`~tabletop_rules.testing.checks`,
:mod:`~tabletop_rules.testing.fuzz`) that any test may call.
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401 - the suite is built on it
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tabletop_rules.testing needs hypothesis: pip install 'tabletop-rules[test]'"
    ) from error

from .checks import (
    Playout,
    check_action_texts,
    check_bots_see_views_only,
    check_chance,
    check_chance_offset,
    check_codec,
    check_errors_hide_secrets,
    check_events_described,
    check_events_hide_secrets,
    check_illegal_moves_rejected,
    check_json_round_trip,
    check_notation_round_trip,
    check_observation,
    check_pickle_round_trip,
    check_playout,
    check_turn_functions,
    check_view_hides_secrets,
    random_playout,
)
from .fuzz import (
    check_apply_total,
    check_loaded,
    check_loads_total,
    check_record_total,
    mutated_json,
    odd_moves,
)
from .suite import FUZZ_PROFILE, ConformanceSuite

__all__ = [
    "FUZZ_PROFILE",
    "ConformanceSuite",
    "Playout",
    "check_action_texts",
    "check_apply_total",
    "check_bots_see_views_only",
    "check_chance",
    "check_chance_offset",
    "check_codec",
    "check_errors_hide_secrets",
    "check_events_described",
    "check_events_hide_secrets",
    "check_illegal_moves_rejected",
    "check_json_round_trip",
    "check_loaded",
    "check_loads_total",
    "check_notation_round_trip",
    "check_observation",
    "check_pickle_round_trip",
    "check_playout",
    "check_record_total",
    "check_turn_functions",
    "check_view_hides_secrets",
    "mutated_json",
    "odd_moves",
    "random_playout",
]
