"""The State's field order: rules.py builds states positionally on the hot path."""

import attrs

from tabletop_rules import dice_poker as dp


def test_the_state_fields_keep_the_order_the_rules_build_them_in() -> None:
    # A field added to State must go last, or every positional State(...) in rules.py
    # must change with it; this test fails first either way.
    assert tuple(field.name for field in attrs.fields(dp.State)) == (
        "config",
        "seed",
        "rng",
        "sheets",
        "open_masks",
        "fences",
        "turns_played",
        "dice",
        "throws_used",
        "announced",
        "pending_keep",
    )
