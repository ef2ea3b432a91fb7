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

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import Bot
from tabletop_rules.records import GameRecord, replay, replay_states
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.simulate import PlayedGame, play_game

GOLDEN = Path(__file__).with_name("golden")

Bots = Callable[[], Sequence[Bot[dp.View, dp.Move]]]


class Golden(NamedTuple):
    """One golden game: how to play it again."""

    name: str
    config: dp.Config
    seed: int
    chance_seed: int
    bots: Bots


GAMES = (
    Golden(
        "greedy_vs_random_seed_2026",
        dp.Config(),
        seed=2026,
        chance_seed=0,
        bots=lambda: [dp.GreedyBot(), RandomBot(dp.RULES, seed=2026)],
    ),
    Golden(
        "three_players_down_up_announce_manual_dice",
        dp.Config(players=3, stage_orders=("down", "up", "announce"), auto_chance=False),
        seed=7,
        chance_seed=2026,
        bots=lambda: [dp.GreedyBot(), RandomBot(dp.RULES, seed=7), dp.GreedyBot(fence_value=0.5)],
    ),
    Golden(
        "fences_capped",
        dp.Config(
            players=2,
            throws_per_turn=2,
            max_fences=2,
            max_fences_per_turn=1,
            premium=35,
            penalty=10,
            box_scores=dp.BoxScores(small_straight=25, large_straight=30, poker=100),
        ),
        seed=99,
        chance_seed=0,
        bots=lambda: [RandomBot(dp.RULES, seed=99), dp.GreedyBot()],
    ),
)
NAMES = [game.name for game in GAMES]
BY_NAME = {game.name: game for game in GAMES}


def record_path(name: str) -> Path:
    return GOLDEN / f"{name}.record.json"


def final_path(name: str) -> Path:
    return GOLDEN / f"{name}.final.json"


def play(game: Golden) -> PlayedGame:
    return play_game(
        dp.RULES, game.bots(), game.config, seed=game.seed, chance_seed=game.chance_seed
    )


def checked_in(name: str) -> tuple[GameRecord, dp.State]:
    record = GameRecord.from_json(record_path(name).read_text(encoding="utf-8"))
    final = loads(final_path(name).read_text(encoding="utf-8"), dp.State)
    return record, final


def pretty(text: str) -> str:
    """JSON laid out one move or sheet per line, so a change reads as a small diff."""
    return json.dumps(json.loads(text), indent=1) + "\n"


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for game in GAMES:
        played = play(game)
        record_path(game.name).write_text(pretty(played.record.to_json()), encoding="utf-8")
        final_path(game.name).write_text(pretty(dumps(played.final)), encoding="utf-8")
        print(f"wrote {game.name}: {len(played.record.moves)} moves, scores {played.scores}")


@pytest.mark.parametrize("name", NAMES)
def test_the_record_replays_to_the_checked_in_final_state(name: str) -> None:
    record, final = checked_in(name)
    assert dp.is_over(final)
    assert replay(record) == final


@pytest.mark.parametrize("name", NAMES)
def test_play_game_still_plays_the_checked_in_moves(name: str) -> None:
    record, final = checked_in(name)
    played = play(BY_NAME[name])
    assert played.record.config == record.config
    assert played.record.seed == record.seed
    for number, (now, then) in enumerate(zip(played.record.moves, record.moves, strict=False), 1):
        assert now == then, f"move {number} differs: now {now!r}, checked in {then!r}"
    assert len(played.record.moves) == len(record.moves)
    assert played.final == final


@pytest.mark.parametrize("name", NAMES)
def test_the_golden_files_describe_the_declared_game(name: str) -> None:
    record, final = checked_in(name)
    game = BY_NAME[name]
    assert record.game == "dice-poker"
    assert record.config == game.config == final.config
    assert record.seed == game.seed == final.seed


@pytest.mark.parametrize("name", NAMES)
def test_every_replayed_state_is_valid(name: str) -> None:
    record, _final = checked_in(name)
    for state in replay_states(record):
        dp.check_state(state)


def test_the_golden_games_cover_the_house_rules_they_are_named_for() -> None:
    manual_record, _ = checked_in("three_players_down_up_announce_manual_dice")
    assert any(move.startswith("dice ") for move in manual_record.moves)
    assert any(move.startswith("announce ") for move in manual_record.moves)
    capped_record, capped_final = checked_in("fences_capped")
    assert max(state.fences[0] for state in replay_states(capped_record)) == 2
    assert all(state.throws_used <= 3 for state in replay_states(capped_record))
    assert dp.winners(capped_final)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--regenerate", action="store_true", help="rewrite the golden files")
    args = parser.parse_args(argv)
    if not args.regenerate:
        parser.error("nothing to do: pass --regenerate to rewrite the golden files")
    regenerate()


if __name__ == "__main__":
    main()


HASH_SEED_SCRIPT = """
import sys
from tests.dice_poker.test_golden import BY_NAME, play, pretty
from tabletop_rules.serialize import dumps
played = play(BY_NAME[sys.argv[1]])
sys.stdout.write(pretty(played.record.to_json()) + pretty(dumps(played.final)))
"""


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242"])
def test_the_golden_files_are_byte_identical_under_any_hash_seed(hash_seed: str) -> None:
    name = NAMES[1]
    expected = record_path(name).read_text(encoding="utf-8") + final_path(name).read_text(
        encoding="utf-8"
    )
    root = Path(__file__).parents[2]
    environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run(
        [sys.executable, "-c", HASH_SEED_SCRIPT, name],
        capture_output=True,
        text=True,
        cwd=root,
        env=environment,
        check=True,
        timeout=120,
    )
    assert result.stdout == expected
