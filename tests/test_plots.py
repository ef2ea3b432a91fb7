"""tabletop_rules.plots: the figures are made with what they show, and the balance report
is one HTML file that holds its figures. Pixels are not compared.
"""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest

pytest.importorskip("matplotlib", reason="the plot extra: pip install -e '.[plot]'")

from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from tabletop_rules import dice_poker as dp
from tabletop_rules import palace
from tabletop_rules.bots import RandomBot
from tabletop_rules.errors import ConfigError
from tabletop_rules.plots import (
    BalanceReport,
    balance_report,
    length_figure,
    png,
    rating_figure,
    score_figure,
    seat_figure,
)
from tabletop_rules.protocol import Bot
from tabletop_rules.simulate import BotChoice, simulate
from tabletop_rules.tournament import TournamentResult, tournament

ONE_STAGE = dp.Config(stages=1)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def legend(axes: Axes) -> list[str]:
    shown = axes.get_legend()
    assert shown is not None
    return [text.get_text() for text in shown.get_texts()]


def heights(axes: Axes) -> list[float]:
    return [patch.get_height() for patch in axes.patches if isinstance(patch, Rectangle)]


@pytest.fixture(scope="module")
def rated() -> TournamentResult:
    bots = ["greedy", "random", "random"]
    return tournament(dp.RULES, bots, 4, seed=2, config=ONE_STAGE, resamples=50)


@pytest.fixture(scope="module")
def weighed() -> BalanceReport:
    return balance_report(palace.RULES, ["quad=burn"], 12, seed=3)


def test_the_rating_figure_has_a_point_and_interval_per_bot_best_on_top(
    rated: TournamentResult,
) -> None:
    axes = rating_figure(rated).axes[0]
    labels = [label.get_text() for label in axes.get_yticklabels()]
    assert labels[-1] == "greedy"
    assert sorted(labels) == sorted(rating.name for rating in rated.ratings)
    (points,) = axes.lines[:1]
    shown = [float(value) for value in cast("Sequence[float]", points.get_xdata())]
    assert sorted(shown) == sorted(rating.rating for rating in rated.ratings)


def test_the_seat_figure_has_a_bar_per_seat_and_run(rated: TournamentResult) -> None:
    axes = seat_figure(rated).axes[0]
    assert heights(axes) == [seat.win_rate for seat in rated.seats]
    plain = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=ONE_STAGE)
    both = seat_figure({"a": plain, "b": rated}).axes[0]
    assert len(both.patches) == 4
    assert legend(both) == ["a", "b"]


def test_the_score_figure_shows_each_bot_of_one_run_and_each_run_of_several(
    rated: TournamentResult,
) -> None:
    axes = score_figure(rated).axes[0]
    assert legend(axes) == ["greedy", "random", "random #2"]
    plain = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=ONE_STAGE)
    runs = score_figure({"defaults": plain, "other": plain}).axes[0]
    assert legend(runs) == ["defaults", "other"]


def test_the_length_figure_is_a_histogram_of_each_runs_lengths(rated: TournamentResult) -> None:
    axes = length_figure({"all": rated}).axes[0]
    assert len(axes.patches) == 1
    assert "length" in axes.get_xlabel()


def test_figures_are_png_bytes(rated: TournamentResult) -> None:
    for figure in (rating_figure(rated), seat_figure(rated), length_figure(rated)):
        assert png(figure).startswith(PNG_SIGNATURE)


def test_a_figure_of_something_else_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="a figure shows a SimulationResult"):
        seat_figure({"a": 3})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="a rating figure shows a TournamentResult"):
        rating_figure(simulate(dp.RULES, ["greedy", "random"], 2, seed=1, config=ONE_STAGE))  # type: ignore[arg-type]


# --- the balance report -------------------------------------------------------------------------


def test_the_balance_report_plays_the_same_seeds_under_both_rules(weighed: BalanceReport) -> None:
    assert weighed.rules == ("quad=burn",)
    assert weighed.changed.seed == weighed.defaults.seed == 3
    assert [game.seed for game in weighed.changed.games] == [
        game.seed for game in weighed.defaults.games
    ]
    changes = [
        after.moves - before.moves
        for before, after in zip(weighed.defaults.games, weighed.changed.games, strict=True)
    ]
    assert weighed.length_change.mean == pytest.approx(sum(changes) / len(changes))


def test_the_balance_report_is_one_html_file_with_its_figures(
    weighed: BalanceReport, tmp_path: Path
) -> None:
    written = weighed.write(tmp_path / "report.html")
    page = written.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "Palace: quad=burn against the defaults" in page
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([^"]+)"', page)
    assert [caption for caption, _data in images] == ["Wins by seat", "Game lengths"]
    assert all(base64.b64decode(data).startswith(PNG_SIGNATURE) for _caption, data in images)
    assert "P0 win rate" in page
    assert 'src="http' not in page, "nothing outside the file"


def test_a_balance_report_needs_house_rules_that_the_game_has() -> None:
    with pytest.raises(TypeError, match="a sequence of key=value house rules"):
        balance_report(palace.RULES, "quad=burn", 2, seed=1)
    with pytest.raises(ConfigError, match="name at least one"):
        balance_report(palace.RULES, [], 2, seed=1)
    with pytest.raises(ConfigError, match="these house rules seat 3, the defaults 2"):
        balance_report(palace.RULES, ["players=3"], 2, seed=1)
    with pytest.raises(ConfigError, match="quad must be one of"):
        balance_report(palace.RULES, ["quad=explode"], 2, seed=1)


def test_the_library_and_the_command_import_no_matplotlib_and_plots_no_pyplot() -> None:
    code = (
        "import sys, tabletop_rules.cli, tabletop_rules.tournament;"
        "print('matplotlib' in sys.modules);"
        "import tabletop_rules.plots; print('matplotlib.pyplot' in sys.modules)"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["False", "False"]


@pytest.mark.slow
def test_the_example_draws_the_docs_figures(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parent.parent / "examples" / "evaluate_bots.py"
    done = subprocess.run(
        [sys.executable, str(script), "--games", "12", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "luck controlled over 6 deals" in done.stdout
    shown = sorted(path.name for path in tmp_path.iterdir())
    docs = Path(__file__).resolve().parent.parent / "docs" / "_static" / "evaluating"
    assert shown == sorted(path.name for path in docs.iterdir())
    for name in shown:
        if name.endswith(".png"):
            assert (tmp_path / name).read_bytes().startswith(PNG_SIGNATURE)


def test_the_balance_report_shows_scores_only_where_they_count_points(
    weighed: BalanceReport,
) -> None:
    assert "Scores" not in weighed.figures(), "palace's scores only say who finished"
    fenceless = balance_report(dp.RULES, ["fences=false", "stages=1"], 2, seed=1)
    assert list(fenceless.figures()) == ["Wins by seat", "Game lengths", "Scores"]


def math_named(seed: int) -> Bot[Any, Any]:
    """A random bot whose factory's name is matplotlib math that does not parse."""
    return RandomBot(dp.RULES, seed)


math_named.__name__ = "$\\frac$"


def test_a_bot_name_holding_matplotlib_math_is_drawn_as_written() -> None:
    bots: list[BotChoice] = [math_named, "random"]
    rated = tournament(dp.RULES, bots, 4, seed=2, config=ONE_STAGE, resamples=20)
    run = simulate(dp.RULES, bots, 4, seed=2, config=ONE_STAGE)
    for figure in (
        rating_figure(rated),
        seat_figure({"$x$ $\\frac$": run, "defaults": run}),
        score_figure(run),
        score_figure(rated),
        length_figure({"$\\frac$": run, "b": run}),
    ):
        assert png(figure).startswith(PNG_SIGNATURE)
    ticks = [label.get_text() for label in rating_figure(rated).axes[0].get_yticklabels()]
    assert "\\$\\frac\\$" in ticks
    report = balance_report(dp.RULES, ["stages=2"], 4, seed=1, bots=bots)
    page = report.html()
    assert "$\\frac$: win rate, mean score" in page
