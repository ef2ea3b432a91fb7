"""Dice poker's ruleset is built by :func:`tabletop_rules.kit.build` (issue 17)."""

from __future__ import annotations

from tabletop_rules import dice_poker as dp

DERIVED = (
    "apply_with_events", "canonical", "winners", "score", "current_player", "view",
    "determinize", "chance_probabilities", "redact", "num_actions", "encode", "decode",
    "legal_mask", "chance_offset", "action_text", "observe", "observation_spec",
    "check_state", "check_view", "max_moves", "display", "legal_moves", "format_move",
    "parse_move",
)  # fmt: skip
OWN = ("apply", "is_over")


def test_dice_poker_is_built_by_the_kit_and_keeps_only_its_measured_overrides() -> None:
    for name in DERIVED:
        member = getattr(dp.RULES, name)
        assert getattr(dp, name) is member, name
        # a member of the kit's shell, or the kernel's rule behind the shell's entry guard
        assert member.__module__ == "tabletop_rules.kit" or hasattr(member, "__wrapped__"), name
    for name in OWN:
        member = getattr(dp.RULES, name)
        assert getattr(dp, name) is member, name
        assert member.__module__.startswith("tabletop_rules.dice_poker."), name
        assert not hasattr(member, "__wrapped__"), name
    assert dp.new_game.__module__ == "tabletop_rules.dice_poker.rules"
    assert dp.RULES.new_game(seed=3) == dp.new_game(dp.Config(), seed=3)


def test_the_derived_parse_move_reads_text_as_the_kernels_read_move_does() -> None:
    state = dp.new_game(seed=1)
    assert dp.KERNEL.read_move is dp.read_move
    assert dp.parse_move(state, "scratch Full-House") is dp.legal_moves(state)[5]
