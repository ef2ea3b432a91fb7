"""The hypothesis profile of the long fuzzing run, registered when hypothesis is imported.

``pyproject.toml`` names :func:`register_profiles` as a ``hypothesis`` entry point, so
``--hypothesis-profile=tabletop-fuzz`` works before :mod:`tabletop_rules.testing` loads.
"""

from __future__ import annotations

FUZZ_PROFILE = "tabletop-fuzz"
"""The profile's name."""

FUZZ_EXAMPLES = 5_000
"""Hypothesis examples per fuzz test in the long run (the default profile runs 100)."""


def register_profiles() -> None:
    """Register the ``tabletop-fuzz`` profile with hypothesis."""
    from hypothesis import HealthCheck, settings  # only once hypothesis itself is importing

    settings.register_profile(
        FUZZ_PROFILE,
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
