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
views never contain the RNG.
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
    check_chance,
    check_codec,
    check_illegal_moves_rejected,
    check_json_round_trip,
    check_notation_round_trip,
    check_playout,
    check_turn_functions,
    check_view_hides_secrets,
    random_playout,
)
from .suite import ConformanceSuite

__all__ = [
    "ConformanceSuite",
    "Playout",
    "check_chance",
    "check_codec",
    "check_illegal_moves_rejected",
    "check_json_round_trip",
    "check_notation_round_trip",
    "check_playout",
    "check_turn_functions",
    "check_view_hides_secrets",
    "random_playout",
]
