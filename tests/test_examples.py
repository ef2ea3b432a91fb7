"""The scripts in examples/ run as documented and print what they promise."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules import get_ruleset, rulesets
from tabletop_rules.bots import RandomBot
from tabletop_rules.records import GameRecord, replay
from tabletop_rules.simulate import play_game, simulate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(script: str, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """Run an example as a user would, and check its exit status."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == code, done.stderr
    return done


def sheet_row(output: str, name: str) -> list[str]:
    """The cells of one row of the score sheet printed in ``output``."""
    for line in output.splitlines():
        if line.startswith(f"{name} ") and "|" in line:
            return [cell.strip() for cell in line.split("|")[1:]]
    raise AssertionError(f"no {name!r} row in the output")


def turn_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if re.match(r" *\d+\. P\d s\d: ", line)]


def test_bot_game_prints_every_turn_and_the_final_sheet() -> None:
    out = run("bot_game.py", "--seed", "1").stdout
    assert out.splitlines()[0] == "Dice poker, seed 1: P0 greedy, P1 random"
    turns = turn_lines(out)
    assert len(turns) == 2 * 45, "one line per turn: 45 boxes for each of two seats"
    assert turns[0].startswith("  1. P0 s1: roll ")
    assert turns[-1].startswith(" 90. P1 s3: ")
    assert all(re.search(r"(: |\| )(write|scratch) [a-z_]+", line) for line in turns)
    assert sheet_row(out, "box") == ["P0 s1", "P0 s2", "P0 s3", "P1 s1", "P1 s2", "P1 s3"]
    assert out.rstrip().splitlines()[-1].startswith("game over: winner")


def test_bot_game_shows_the_game_its_seed_plays() -> None:
    out = run("bot_game.py", "--seed", "5", "--quiet").stdout
    game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=6)], seed=5)
    assert [int(cell) for cell in sheet_row(out, "score") if cell] == list(game.score)
    (winner,) = game.winners
    assert out.rstrip().splitlines()[-1] == f"game over: winner P{winner}"


def test_bot_game_is_reproducible_and_quiet_prints_only_the_sheet() -> None:
    loud = run("bot_game.py", "--seed", "2").stdout
    assert run("bot_game.py", "--seed", "2").stdout == loud
    quiet = run("bot_game.py", "--seed", "2", "--quiet").stdout
    assert not turn_lines(quiet)
    turns = turn_lines(loud)
    assert quiet.splitlines() == [line for line in loud.splitlines() if line not in turns]


def test_bot_game_seats_as_many_bots_as_players() -> None:
    out = run("bot_game.py", "--players", "3", "--bots", "random,greedy,random").stdout
    assert out.splitlines()[0] == "Dice poker, seed 1: P0 random, P1 greedy, P2 random"
    assert len(turn_lines(out)) == 3 * 45
    assert sheet_row(out, "box")[-1] == "P2 s3"


def test_bot_game_rejects_bad_arguments() -> None:
    assert "players must be 1 to 8" in run("bot_game.py", "--players", "9", code=2).stderr
    assert "--bots needs 2 names" in run("bot_game.py", "--bots", "greedy", code=2).stderr


def test_quickstart_plays_stores_and_replays() -> None:
    out = run("quickstart.py").stdout
    lines = out.splitlines()
    assert lines[0] == "legal now: roll, scratch pair, scratch two_pairs, scratch three_kind"
    assert lines[1].startswith("roll ")
    assert lines[3].startswith("write fives    dice ()")
    assert "state as JSON:" in out
    record = GameRecord.from_json(lines[-1].removeprefix("record: "))
    assert record.moves == ("roll", "roll keep 5 5", "write fives")
    final = replay(record)
    assert sum(cell is not None for cell in final.sheets[0]) == 1


def test_replay_replays_a_fresh_record_to_the_same_end() -> None:
    out = run("replay.py").stdout
    assert out.startswith("replayed ")
    assert "the replay reaches the same final state: True" in out
    assert out.rstrip().splitlines()[-1].startswith("game over: winner")


def test_replay_writes_a_record_file_and_replays_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    written = run("replay.py", "--write", str(path), "--seed", "8").stdout
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["game"], data["version"], data["seed"]) == ("dice-poker", 2, 8)
    assert written.splitlines()[0] == f"wrote {len(data['moves'])} moves to {path}"
    assert dp.is_over(replay(GameRecord.from_json(path.read_text(encoding="utf-8"))))
    again = run("replay.py", str(path)).stdout
    assert sheet_row(again, "score") == sheet_row(written, "score")


def test_replay_reports_a_record_that_cannot_be_played(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = GameRecord("dice-poker", dp.Config(), 4, ("roll", "write poker"))
    path.write_text(record.to_json(), encoding="utf-8")
    error = run("replay.py", str(path), code=1).stderr
    assert "move 2 ('write poker') cannot be played" in error
    missing = run("replay.py", str(tmp_path / "missing.json"), code=1).stderr
    assert "cannot read" in missing


def tournament_tables(output: str) -> dict[str, list[list[str]]]:
    """Each game's table printed by tournament.py: its name, and the cells of its rows."""
    tables: dict[str, list[list[str]]] = {}
    for block in output.strip().split("\n\n"):
        title, heading, *rows = block.splitlines()
        found = re.match(
            r".* \(([a-z-]+)\): \d+ two-player games a pairing, seed \d+, seats rotating$", title
        )
        assert found is not None, title
        assert heading.split()[:2] == ["bot", "against"]
        tables[found.group(1)] = [row.split() for row in rows]
    return tables


def test_tournament_pairs_every_bot_of_every_game() -> None:
    out = run("tournament.py", "--games", "6", "--seed", "3").stdout
    tables = tournament_tables(out)
    assert list(tables) == list(rulesets())
    for name, rows in tables.items():
        rules = get_ruleset(name)
        assert f"{rules.title} ({name}): 6 two-player games a pairing, seed 3," in out
        pairs = {(row[0], row[1]) for row in rows}
        playing = [
            bot for bot in rules.bots if bot not in ("coach", "search")
        ]  # --search adds them
        assert pairs == set(itertools.permutations(playing, 2)), name
        assert len(rows) == len(pairs)
        for first, second in itertools.combinations(playing, 2):
            result = simulate(rules, [first, second], 6, seed=3)
            for bot, opponent in ((0, 1), (1, 0)):
                stats = result.bots[bot]
                (row,) = (
                    row for row in rows if row[:2] == [stats.name, result.bots[opponent].name]
                )
                assert row[2:5] == ["6", f"{stats.wins:.1f}", f"{stats.win_rate:.1%}"]
                assert row[6] == f"{stats.score_mean:.1f}"
            wins = [float(row[3]) for row in rows if {row[0], row[1]} == {first, second}]
            unwon = sum(not game.winners for game in result.games)  # palace's turn limit
            assert sum(wins) + unwon == 6, "a shared win counts half to each"


def test_tournament_prints_the_same_tables_for_the_same_seed_on_any_workers() -> None:
    arguments = ["--games", "4", "--seed", "9"]
    once = run("tournament.py", *arguments).stdout
    assert run("tournament.py", *arguments, "--workers", "2").stdout == once
    assert run("tournament.py", "--games", "4", "--seed", "10").stdout != once


def test_tournament_plays_one_game_when_asked() -> None:
    out = run("tournament.py", "--game", "palace", "--games", "2").stdout
    assert list(tournament_tables(out)) == ["palace"]
    assert "invalid choice: 'chess'" in run("tournament.py", "--game", "chess", code=2).stderr
    assert "--games must be at least 1" in run("tournament.py", "--games", "0", code=2).stderr


@pytest.mark.parametrize(("game", "bot"), [("dice-poker", "GreedyBot"), ("account", "BestCardBot")])
def test_tournament_versus_random_counts_every_game_once(game: str, bot: str) -> None:
    out = run("tournament.py", "--versus-random", "--game", game, "--games", "10").stdout
    found = re.search(rf"{bot} won (\d+) \(.*\), tied (\d+), lost (\d+)", out)
    assert found is not None, out
    assert sum(int(count) for count in found.groups()) == 10
    assert re.search(rf"margin \({bot} - RandomBot\): mean [+-]\d+\.\d", out)


@pytest.mark.slow  # the 1,000-game tournaments tests/*/test_bots.py play in the quick tier
@pytest.mark.parametrize(
    "arguments",
    [
        [],
        ["--versus-random", "--game", "dice-poker", "--games", "1000"],
        ["--versus-random", "--game", "account", "--games", "1000"],
    ],
)
def test_the_bots_page_shows_what_the_tournament_prints(arguments: list[str]) -> None:
    out = run("tournament.py", *arguments).stdout
    page = (ROOT / "docs" / "bots.rst").read_text(encoding="utf-8")
    assert f"$ {' '.join(['python examples/tournament.py', *arguments])}\n" in page
    for line in out.splitlines():
        assert f"   {line}\n".rstrip() + "\n" in page, f"docs/bots.rst does not show {line!r}"


def test_front_end_keeps_hidden_cards_on_the_server_and_refuses_bad_moves() -> None:
    out = run("front_end.py", "--seed", "4").stdout.splitlines()
    assert out[0] == "Palace, seed 4: seat 0 is a person (a stand-in bot types), seat 1 a bot"
    assert out[1].startswith("seat 1 sends 'ready' out of turn: seat 1 has no move now")
    assert out[2] == "seat 1 sees of seat 0's hand: 3 cards, no faces"
    assert "does not hold 2C 2D 2H in hand" in out[3]
    assert re.match(r"game over after \d+ moves: winners \[\d\]", out[-2])
    assert out[-1].endswith("replays to the same end: True")


def test_house_rules_refuses_a_bad_config_and_plays_a_variant_of_each_game() -> None:
    out = run("house_rules.py", "--seed", "5").stdout
    assert out.startswith("dp.Config(throws_per_turn=0) is refused: throws_per_turn must be 1 to")
    assert sheet_row(out, "box") == ["P0 s1", "P1 s1"]
    assert "Palace, pagat rules for three, two decks: finished in order P" in out
    assert "The account game on a crumbling 3 x 6 field" in out
    assert out.count("game over: winner") == 2


def test_batch_selfplay_reports_the_policys_share_of_wins_each_iteration() -> None:
    out = run("batch_selfplay.py", "--iterations", "2", "--games", "32", "--game", "account")
    lines = out.stdout.splitlines()
    assert lines[0] == "The account game: self-play in batches of 32, a linear softmax policy"
    shares = [
        re.match(r"iteration +(\d+): ([\d.]+)% of the wins against random \(", line)
        for line in lines[1:]
    ]
    assert [int(match.group(1)) for match in shares if match] == [0, 1, 2]
    assert all(0 <= float(match.group(2)) <= 100 for match in shares if match)
