"""Pig, the fourth game: a package of its own under ``examples/pig``, built on the kit.

It is imported from ``examples/pig/src`` (not installed into the environment), passes the
whole conformance suite, is found through the entry-point group from a distribution's
``dist-info`` as pip leaves it, and plays in ``tabletop-rules play`` and ``simulate``.
"""

from __future__ import annotations

import io
import json
import os
import site
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import strategies as st

import tabletop_rules
from tabletop_rules import cli, get_ruleset, kit, plugins, rulesets
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.testing import ConformanceSuite

ROOT = Path(__file__).resolve().parent.parent
PIG = ROOT / "examples" / "pig"
sys.path.insert(0, str(PIG / "src"))

import tabletop_pig as pig  # noqa: E402


def _install(folder: Path) -> Path:
    """A ``dist-info`` for ``tabletop-pig`` in ``folder``, as ``pip install examples/pig``
    leaves it: its entry point names the game.
    """
    info = folder / "tabletop_pig-1.0.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tabletop-pig\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text("[tabletop_rules.games]\npig = tabletop_pig:RULES\n")
    return folder


@pytest.fixture(autouse=True, scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Pig installed for this module's tests, found through the entry-point group (Pig
    never registers itself); removed afterwards, so other modules see the built-in games.
    """
    folder = str(_install(tmp_path_factory.mktemp("site-pig")))
    sys.path.insert(0, folder)
    plugins.forget()
    assert get_ruleset("pig") is pig.RULES  # loaded through the group, as a new process would
    yield Path(folder)
    sys.path.remove(folder)
    plugins.forget()


configs = st.builds(
    pig.Config,
    players=st.integers(2, 4),
    target=st.integers(10, 40),
    max_rounds=st.integers(1, 12),
    auto_chance=st.booleans(),
)
moves = st.one_of(st.sampled_from([pig.Roll(), pig.Hold()]), st.builds(pig.Die, st.integers(-2, 9)))


class TestPigConformance(ConformanceSuite):
    ruleset = pig.RULES
    configs = configs
    arbitrary_moves = moves
    worst_config = pig.Config(players=8, target=1000, max_rounds=1000, auto_chance=False)


def test_the_fourth_game_is_at_most_300_lines_with_its_view_notation_and_bots() -> None:
    """Issue 17, point 6: a complete game on the kit fits in 300 lines of Python (its
    batched kernel, ``batched.py``, is an extra for the batched engine, not the game).
    """
    files = sorted((PIG / "src" / "tabletop_pig").glob("*.py"))
    assert {path.name for path in files} == {"__init__.py", "rules.py", "batched.py"}
    game = [path for path in files if path.name != "batched.py"]
    lines = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in game)
    assert lines <= 300, f"{lines} lines"


def test_pig_declares_its_entry_point_in_its_own_pyproject() -> None:
    text = (PIG / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."tabletop_rules.games"]' in text
    assert 'pig = "tabletop_pig:RULES"' in text
    assert 'dependencies = ["tabletop-rules"]' in text


def test_a_turn_rolls_banks_and_busts() -> None:
    rules = pig.RULES
    state = rules.new_game(pig.Config(auto_chance=False), seed=1)
    for text, player in (("roll", -1), ("die 5", 0), ("roll", -1), ("die 4", 0), ("hold", 1)):
        state = rules.apply(state, rules.parse_move(state, text))
        assert rules.current_player(state) == player
    assert rules.score(state) == (9, 0)
    state = rules.apply(rules.apply(state, pig.Roll()), pig.Die(1))
    assert rules.current_player(state) == 0
    assert state.turns_played == 2
    state, events = rules.apply_with_events(rules.apply(state, pig.Roll()), pig.Die(6))
    assert events == (pig.rules.Rolled(0, 6),)
    with pytest.raises(IllegalMoveError, match="roll at least once"):
        rules.apply(rules.new_game(seed=1), pig.Hold())


def test_reaching_the_target_wins_at_once() -> None:
    rules = pig.RULES
    state = rules.new_game(pig.Config(target=10, auto_chance=False), seed=1)
    for value in (6, 4):
        state = rules.apply(rules.apply(state, pig.Roll()), pig.Die(value))
    assert rules.is_over(state)
    assert rules.winners(state) == frozenset({0})
    assert rules.score(state) == (10, 0)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        rules.apply(state, pig.Roll())


def test_the_hold20_bot_holds_at_twenty() -> None:
    rules = pig.RULES
    bot = rules.bots["hold20"](0)
    state = rules.new_game(pig.Config(auto_chance=False), seed=1)
    for value in (6, 6, 6):
        state = rules.apply(rules.apply(state, pig.Roll()), pig.Die(value))
    assert bot.choose(rules.view(state, 0)) == pig.Roll()
    state = rules.apply(rules.apply(state, pig.Roll()), pig.Die(2))
    assert bot.choose(rules.view(state, 0)) == pig.Hold()


def test_a_pig_view_never_holds_the_generator_and_determinize_draws_a_fresh_seed() -> None:
    rules = pig.RULES
    state = rules.new_game(seed=7)
    seen = rules.view(state, 1)
    assert "rng" not in dumps(seen)
    assert "seed" not in dumps(seen)
    dealt = rules.determinize(seen, kit.Rng.from_seed(3))
    assert dealt.seed != state.seed
    assert rules.view(dealt, 1) == seen
    assert loads(dumps(state)) == state


def test_pig_is_found_through_the_entry_point_group_in_a_fresh_process(installed: Path) -> None:
    """Nothing imports ``tabletop_pig`` first: the group names it, and ``simulate`` plays it."""
    path = os.pathsep.join([str(installed), str(PIG / "src"), str(ROOT / "src")])
    command = [sys.executable, "-m", "tabletop_rules", "simulate", "pig", "--games", "6"]
    done = subprocess.run(
        [*command, "--bots", "hold20,random", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games_played"] == 6


def test_pig_plays_in_simulate_and_play_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert "pig" in rulesets()
    assert get_ruleset("pig") is pig.RULES
    assert cli.main(["simulate", "pig", "--games", "8", "--rule", "target=30"]) == 0
    assert "Pig: 8 games" in capsys.readouterr().out
    argv = ["play", "pig", "--seed", "3", "--rule", "target=20", "--rule", "auto_chance=false"]
    script = io.StringIO("roll\ndie 6\nroll\ndie 6\nroll\ndie 6\nroll\ndie 6\n")
    assert cli.main(argv, stdin=script) == 0
    out = capsys.readouterr().out
    assert out.startswith("Pig, seed 3. Seats: P0 you, P1 hold20 bot.")
    assert "outcome> " in out
    assert "Not played" not in out
    assert "Pig to 20: S0 24  S1 0; game over" in out
    assert "Game over: " in out


def test_pig_plays_on_the_web_page_glue_unchanged() -> None:
    """The page's glue (``examples/web/tabletop_web.py``) offers Pig with its house rules
    and bots, and plays it, as it does a built-in game.
    """
    from tests.web.helpers import web_module

    web = web_module("tabletop_web")
    games = json.loads(web.catalogue())["games"]
    entry = next(game for game in games if game["name"] == "pig")
    assert entry["best_bot"] == "hold20"
    assert [rule["name"] for rule in entry["rules"]] == [
        "players",
        "target",
        "max_rounds",
        "auto_chance",
    ]
    request = {"game": "pig", "rules": {"auto_chance": "false", "target": "10"}, "seed": "2"}
    started = json.loads(web.start(json.dumps(request)))
    assert started["ok"], started
    for text in ("roll", "die 6", "roll", "die 6"):
        answer = json.loads(web.play(text))
        assert answer["ok"], answer
    assert "game over" in json.dumps(answer).lower()


def _environment_seeing_this_one(folder: Path) -> Path:
    """A new virtual environment in ``folder`` whose Python also sees this environment's
    packages (tabletop_rules, hatchling), after its own: its interpreter.

    ``venv --system-site-packages`` is not enough: inside a virtual environment it shows
    the base interpreter's packages, not this environment's. A ``.pth`` file adds this
    environment's site directories with ``site.addsitedir``, so their own ``.pth`` files
    (an editable install's) are read too.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        ours.append(site.getusersitepackages())
    lines = [f"import site; site.addsitedir({str(path)!r})\n" for path in ours]
    (Path(own) / "outer_environment.pth").write_text("".join(lines), encoding="utf-8")
    return python


@pytest.mark.slow
def test_pig_installs_with_pip_from_inside_a_virtual_environment_and_plays_from_its_entry_point(
    tmp_path: Path,
) -> None:
    """``pip install examples/pig`` into an environment of its own (seeing this one's
    packages, whether this one is a virtual environment or not), then ``simulate`` and
    ``play`` there, with nothing on ``PYTHONPATH``: the installed distribution's entry
    point is all that names the game.
    """
    python = str(_environment_seeing_this_one(tmp_path / "venv"))
    install = [sys.executable, "-m", "pip", "--python", python, "install", "--quiet"]
    subprocess.run(
        [*install, "--no-deps", "--no-build-isolation", "--no-index", str(PIG)],
        check=True,
        timeout=300,
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}

    def run(*argv: str, stdin: str = "") -> str:
        done = subprocess.run(
            [python, "-m", "tabletop_rules", *argv],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=env,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = (
        "import tabletop_rules, tabletop_pig; print(tabletop_rules.__file__, tabletop_pig.__file__)"
    )
    found = subprocess.run(
        [python, "-c", where], capture_output=True, text=True, check=True, env=env, cwd=tmp_path
    ).stdout.split()
    assert found[0] == tabletop_rules.__file__  # this environment's library, not the base's
    assert Path(found[1]).is_relative_to(tmp_path / "venv")  # the game pip installed
    assert json.loads(run("simulate", "pig", "--games", "6", "--json"))["games_played"] == 6
    played = run("play", "pig", "--seed", "3", "--rule", "target=20", stdin="roll\n" * 40)
    assert played.startswith("Pig, seed 3.")
    assert "Game over: " in played


def test_help_for_pig_gives_the_commands_and_examples_of_its_notation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 19, point 7: a game of another package that gives no summaries of its own
    gets the commands and an example of each verb of its notation; ``hint`` says it has
    none.
    """
    argv = ["play", "pig", "--seed", "3", "--rule", "auto_chance=false"]
    assert cli.main(argv, stdin=io.StringIO("help\nhint\n")) == 0
    out = capsys.readouterr().out
    assert "in brief" not in out
    assert "Moves are typed in notation:\n  for example: roll, hold\n" in out
    assert "  chance outcomes, at outcome>: die 1\n" in out
    assert "Commands:\n  help " in out
    assert "move> Pig gives no hints here." in out
