"""Palace's ruleset is built by :func:`tabletop_rules.kit.build` (issue 17)."""

from __future__ import annotations

from tabletop_rules import palace as p

DERIVED = (
    "apply", "apply_with_events", "canonical", "winners", "score", "current_player", "view",
    "determinize", "chance_probabilities", "format_move", "check_state", "check_view",
    "max_moves", "display", "observe", "observation_spec", "parse_move",
    "num_actions", "encode", "decode", "legal_mask", "chance_offset", "action_text",
)  # fmt: skip
# A drawn card is redacted; a playout's is_over and legal_moves are a call shallower
# (benchmarks/ab_playout.py).
OWN = ("is_over", "legal_moves", "redact")


def test_palace_is_built_by_the_kit_and_keeps_only_its_own_members() -> None:
    for name in DERIVED:
        member = getattr(p.RULES, name)
        assert getattr(p, name) is member, name
        # a member of the kit's shell, or the kernel's rule behind the shell's entry guard
        assert member.__module__ == "tabletop_rules.kit" or hasattr(member, "__wrapped__"), name
    for name in OWN:
        member = getattr(p.RULES, name)
        assert getattr(p, name) is member, name
        assert member.__module__.startswith("tabletop_rules.palace."), name
        assert not hasattr(member, "__wrapped__"), name
    assert p.new_game.__module__ == "tabletop_rules.palace.rules"
    assert p.RULES.new_game(seed=3) == p.new_game(p.Config(), seed=3)
    assert p.chance_probabilities(p.new_game(seed=3)) == {}
