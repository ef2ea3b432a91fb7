"""Dice poker's public functions are its ruleset's members, and read text as its notation does."""

from __future__ import annotations

from tabletop_rules import dice_poker as dp

MEMBERS = (
    "apply", "apply_with_events", "canonical", "winners", "score", "current_player", "view",
    "determinize", "chance_probabilities", "redact", "num_actions", "encode", "decode",
    "legal_mask", "chance_offset", "action_text", "observe", "observation_spec",
    "check_state", "check_view", "max_moves", "display", "legal_moves", "format_move",
    "parse_move", "is_over", "describe",
)  # fmt: skip


def test_the_package_functions_are_the_rulesets_members() -> None:
    for name in MEMBERS:
        assert getattr(dp, name) == getattr(dp.RULES, name), name
    assert dp.RULES.new_game(seed=3) == dp.new_game(dp.Config(), seed=3)


def test_parse_move_reads_text_as_read_move_does() -> None:
    state = dp.new_game(seed=1)
    assert dp.read_move("scratch Full-House") == dp.Scratch(dp.Box.FULL_HOUSE)
    assert dp.parse_move(state, "scratch Full-House") is dp.legal_moves(state)[5]
