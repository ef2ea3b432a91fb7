"""A reusable conformance suite: what every :class:`~tabletop_rules.protocol.Ruleset` must do.

Subclass :class:`ConformanceSuite` in a test module, name the ruleset and a hypothesis
strategy of configs, and pytest runs every check on random games::

    class TestDicePoker(ConformanceSuite):
        ruleset = dice_poker.RULES
        configs = st.builds(dice_poker.Config, players=st.integers(1, 4))

The checks are the same idea as OpenSpiel's ``RandomSimTest``: random playouts end within
the game's bound; the same seed and moves give equal states; ``apply`` never changes its
argument; every legal move applies and every other move raises ``IllegalMoveError``;
chance probabilities are exact and sum to 1; JSON, notation and the action codec round-trip;
observations fit their spec and come from the view alone; every event is told in words
(``describe``) that name no card hidden from the reader;
views never contain the RNG. Fuzzing (:mod:`tabletop_rules.testing.fuzz`) feeds every
loader mutated JSON and ``apply`` odd objects: each must return a valid value or raise the
library's own error. The suite also holds the limits a hostile client tests: loaders read
the shapes hardest on a JSON reader in linear time, every state reached by play from any
loadable state dumps and loads back, a fair take-back never crosses a reveal, and a move
under the game's costliest allowed config costs a bounded multiple of a default move.
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
