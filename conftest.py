"""Collection settings for the whole repository: an adapter's or the batched engine's
doctests are collected only where its extra is installed (its tests skip themselves, with
the install command); and the hypothesis profile of CI's fuzz run.
"""

from __future__ import annotations

import importlib.util

from hypothesis import settings

# Only the profile's name and registration: importing tabletop_rules.testing here would fix
# the fuzz tests' example counts before --hypothesis-profile is read.
from tabletop_rules._hypothesis import FUZZ_PROFILE, register_profiles

CI_FUZZ_PROFILE = "tabletop-fuzz-ci"
"""The fuzz run .ci/run makes: 150 examples per fuzz test, 1.5 times the quick tier's 100.
The full long run (``tabletop-fuzz``, 5,000) takes about 40 minutes on 2 cores.
"""

register_profiles()  # also where tabletop-rules runs from a clone without its entry point
settings.register_profile(CI_FUZZ_PROFILE, settings.get_profile(FUZZ_PROFILE), max_examples=150)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:  # imported as None: blocked on purpose
        return False


collect_ignore = [
    path
    for path, module in [
        ("src/tabletop_rules/adapters/openspiel.py", "pyspiel"),
        ("src/tabletop_rules/adapters/pettingzoo.py", "pettingzoo"),
        ("src/tabletop_rules/batch", "numpy"),
        ("src/tabletop_rules/batch/compiled", "numba"),
        ("src/tabletop_rules/palace/batch.py", "numba"),
        ("src/tabletop_rules/dice_poker/batch.py", "numba"),
        ("src/tabletop_rules/account/batch.py", "numba"),
    ]
    if not _installed(module)
]
