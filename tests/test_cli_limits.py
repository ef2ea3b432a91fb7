"""The command's limits: numbers taken from the command line are checked against their
documented caps before any work, worker pools are no larger than the cores and the tasks,
refusals are one line on stderr (never a traceback), and the result tables say what the
figures mean for the game at hand.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("rich", reason="the command needs the cli extra: pip install -e '.[cli]'")

from tabletop_rules import cli
from tabletop_rules.cli import main
from tabletop_rules.simulate import MAX_GAMES


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: a refusal must come before the first game."""

    def refuse(*_args: Any) -> Any:
        raise AssertionError("a game was played before the arguments were checked")

    monkeypatch.setattr("tabletop_rules.executors.play_chunk", refuse)


def one_line_error(capsys: pytest.CaptureFixture[str], *parts: str) -> None:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("tabletop-rules: error: ")
    for part in parts:
        assert part in lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "dice-poker", "--games", str(MAX_GAMES + 1)],
        ["simulate", "dice-poker", "--games", str(10**12), "--workers", "2"],
        ["simulate", "dice-poker", "--games", str(10**26), "--batched"],
        ["tournament", "dice-poker", "--bots", "random,greedy", "--games", str(10**12)],
        ["balance", "palace", "--rule", "quad=burn", "--games", str(10**12)],
    ],
)
def test_unbounded_work_games_beyond_the_cap_are_one_line_refusals(
    args: list[str], capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    assert main(args) == 2
    one_line_error(capsys, "--games", "10,000,000")


def test_unbounded_work_resamples_and_bots_beyond_their_caps_are_one_line_refusals(
    capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    bots = ["tournament", "dice-poker", "--bots"]
    assert main([*bots, "random,greedy", "--resamples", "100001"]) == 2
    one_line_error(capsys, "--resamples", "100,000")
    assert main([*bots, ",".join(["random"] * 33)]) == 2
    one_line_error(capsys, "32 bots")
    assert main([*bots, ",".join(["random"] * 30), "--rule", "players=8"]) == 2
    one_line_error(capsys, "5,852,925 tables")


class FakePool:
    """Stands in for the process pool: records the workers asked for, plays nothing."""

    asked: ClassVar[list[int]] = []

    def __init__(self, workers: int) -> None:
        FakePool.asked.append(workers)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_exc: object) -> None:
        return None


def test_unbounded_work_workers_are_capped_by_the_cores_and_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "ProcessPoolExecutor", FakePool)
    FakePool.asked.clear()
    one = ["simulate", "dice-poker", "--games", "1", "--rule", "stages=1", "--workers", "40"]
    assert main(one) == 0
    assert FakePool.asked == []
    many = ["simulate", "dice-poker", "--games", "300", "--rule", "stages=1", "--workers", "40"]
    assert main(many) == 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert all(asked <= min(40, cores or 1) for asked in FakePool.asked)
    capsys.readouterr()


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_duplicate_with_an_odd_games_is_a_one_line_refusal(
    command: str, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    args = [command, "dice-poker", "--duplicate", "--games", "5", "--bots", "greedy,random"]
    assert main(args) == 2
    one_line_error(capsys, "--games", "multiple of 2", "got 5")


def test_balance_out_is_refused_before_either_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_games: None
) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra: pip install -e '.[plot]'")
    weigh = ["balance", "palace", "--rule", "quad=burn", "--games", "2", "--out"]
    assert main([*weigh, str(tmp_path)]) == 2
    one_line_error(capsys, str(tmp_path), "directory")
    assert main([*weigh, str(tmp_path / "missing" / "report.html")]) == 2
    one_line_error(capsys, "missing")
    assert not (tmp_path / "missing").exists()


def test_the_main_jobs_table_has_no_mean_score_where_the_score_only_says_who_won(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "palace", "--games", "6"]) == 0
    palace_table = capsys.readouterr().out
    assert "win rate" in palace_table
    assert "mean score ┃" not in palace_table
    assert "only say who won" in palace_table
    assert main(["simulate", "dice-poker", "--games", "4", "--rule", "stages=1"]) == 0
    assert "mean score ┃" in capsys.readouterr().out


def test_the_main_jobs_table_says_how_the_shortest_game_ended(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "account"]) == 0  # game 83 of seed 0 places on End at once
    out = capsys.readouterr().out
    assert "min 1," in out
    note = out[out.index("shortest game") :]
    assert "1 move" in note
    assert "P0 random, P1 bestcard" in note
    assert "placed marker m0 on column 6 (End)" in note
    assert "the game stops" in note
