"""Golden playthroughs: whole seeded games whose every move and final state are checked in.

For each game in ``GAMES`` the directory ``golden/`` holds ``<name>.record.json`` (the
:class:`~tabletop_rules.records.GameRecord`: config, seed and every move in notation) and
``<name>.final.json`` (the final state, as ``serialize.dumps`` writes it). The tests check
that the record still replays to that final state, and that ``play_game`` with the same
bots, seed and chance seed still plays exactly those moves. A change to the rules, the
generator, the notation, the JSON layout or the bots shows up here as a diff.

The tests never write these files. After a deliberate change of behaviour, regenerate them
from the repository root and review the diff before committing::

    python -m tests.dice_poker.test_golden --regenerate
"""

from __future__ import annotations

from pathlib import Path

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.dice_poker.config import BoxScores
from tabletop_rules.records import replay_states
from tabletop_rules.testing.golden import GoldenGame, GoldenSuite

GAMES = (
    GoldenGame(
        "greedy_vs_random_seed_2026",
        dp.Config(),
        seed=2026,
        chance_seed=0,
        bots=lambda: [dp.GreedyBot(), RandomBot(dp.RULES, seed=2026)],
    ),
    GoldenGame(
        "three_players_down_up_announce_manual_dice",
        dp.Config(players=3, stage_orders=("down", "up", "announce"), auto_chance=False),
        seed=7,
        chance_seed=2026,
        bots=lambda: [dp.GreedyBot(), RandomBot(dp.RULES, seed=7), dp.GreedyBot(fence_value=0.5)],
    ),
    GoldenGame(
        "fences_capped",
        dp.Config(
            players=2,
            throws_per_turn=2,
            max_fences=2,
            max_fences_per_turn=1,
            premium=35,
            penalty=10,
            box_scores=BoxScores(small_straight=25, large_straight=30, poker=100),
        ),
        seed=99,
        chance_seed=0,
        bots=lambda: [RandomBot(dp.RULES, seed=99), dp.GreedyBot()],
    ),
)


class TestDicePokerGolden(GoldenSuite):
    ruleset = dp.RULES
    folder = Path(__file__).with_name("golden")
    games = GAMES


checked_in = TestDicePokerGolden.checked_in


def test_the_golden_games_cover_the_house_rules_they_are_named_for() -> None:
    manual_record, _ = checked_in("three_players_down_up_announce_manual_dice")
    assert any(move.startswith("dice ") for move in manual_record.moves)
    assert any(move.startswith("announce ") for move in manual_record.moves)
    capped_record, capped_final = checked_in("fences_capped")
    assert max(state.fences[0] for state in replay_states(capped_record)) == 2
    assert all(state.throws_used <= 3 for state in replay_states(capped_record))
    assert dp.winners(capped_final)


if __name__ == "__main__":
    TestDicePokerGolden.main()
