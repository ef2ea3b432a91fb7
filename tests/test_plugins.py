"""Games from other packages, found through the entry-point group ``tabletop_rules.games``.

Each test installs a real distribution in a folder of its own (a module, and a
``dist-info`` folder with ``METADATA`` and ``entry_points.txt``, as pip leaves them) and
puts the folder on ``sys.path``; ``importlib.metadata`` finds it as it finds any
installed package. The plugin game is dice poker under another name: a complete ruleset
that the command line, ``simulate`` and the loaders must play without knowing it.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tabletop_rules import (
    Match,
    TabletopError,
    get_ruleset,
    palace,
    plugins,
    register,
    rulesets,
)
from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import GamePluginError, InvalidStateError
from tabletop_rules.protocol import registered
from tabletop_rules.records import GameRecord, replay
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.simulate import simulate
from tabletop_rules.testing.variants import variant

ROOT = Path(__file__).resolve().parent.parent

TOY = """\
from tabletop_rules import dice_poker
from tabletop_rules.testing.variants import variant

RULES = variant(dice_poker.RULES, name={name!r}, title="Toy dice")
"""
"""A plugin module: dice poker's ruleset under the name ``name``."""

_numbers = itertools.count()

Install = Callable[..., str]


@pytest.fixture(autouse=True)
def fresh_group() -> Iterator[None]:
    """Each test reads the group anew, and leaves nothing of its plugins behind."""
    plugins.forget()
    before = set(sys.modules)
    yield
    plugins.forget()
    for module in set(sys.modules) - before:
        if module.startswith("plugin_"):
            del sys.modules[module]


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Install:
    """``install(entries, source=TOY, dist=...)``: a distribution on ``sys.path`` whose
    entry points in the group are ``entries`` (game name to the attribute of its module,
    ``RULES`` by default); its module is written from ``source``, formatted with the first
    entry's name. Returns the module's name.
    """

    def install_(entries: dict[str, str] | str, source: str = TOY, dist: str = "toy-games") -> str:
        module = f"plugin_{next(_numbers)}"
        if isinstance(entries, str):
            entries = {entries: "RULES"}
        folder = tmp_path / f"site-{module}"
        folder.mkdir()
        (folder / f"{module}.py").write_text(source.format(name=next(iter(entries))))
        info = folder / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        lines = [f"{name} = {module}:{attribute}" for name, attribute in entries.items()]
        (info / "entry_points.txt").write_text("[tabletop_rules.games]\n" + "\n".join(lines))
        monkeypatch.syspath_prepend(str(folder))
        return module

    return install_


def test_games_from_other_packages_are_found_through_the_entry_point_group(
    install: Install,
) -> None:
    """Issue 17, point 6: an installed package's game is found by name and listed, with
    no call to ``register``; its module is imported only when a game outside the
    built-in ones is asked for.
    """
    module = install("toy-dice")
    assert get_ruleset("dice-poker") is dp.RULES
    assert module not in sys.modules, "a built-in game does not read the group"
    rules = get_ruleset("toy-dice")
    assert rules is sys.modules[module].RULES
    assert rules.title == "Toy dice"
    assert rulesets() == ("account", "dice-poker", "palace", "toy-dice")
    assert rules in registered()
    assert get_ruleset("toy-dice") is rules


def test_a_game_of_another_package_is_unknown_until_its_package_is_installed() -> None:
    with pytest.raises(KeyError, match="no game named 'toy-dice'"):
        get_ruleset("toy-dice")
    assert rulesets() == ("account", "dice-poker", "palace")


def test_a_record_naming_a_game_of_another_package_loads_once_it_is_installed(
    install: Install,
) -> None:
    match = Match(dp.RULES, seed=5)
    for text in ("roll", "roll keep 6", "write sixes"):
        match.play(text)
    text = dumps(match.record).replace('"game": "dice-poker"', '"game": "toy-dice"')
    assert '"toy-dice"' in text
    with pytest.raises(InvalidStateError, match="unknown game 'toy-dice'"):
        loads(text)
    install("toy-dice")
    plugins.forget()  # as a new process would: the group is read once per process
    record = loads(text)
    assert isinstance(record, GameRecord)
    assert record.ruleset is get_ruleset("toy-dice")
    assert replay(record) == match.state
    own_form = match.record.to_json().replace('"dice-poker"', '"toy-dice"')
    assert replay(GameRecord.from_json(own_form)) == match.state
    again = Match(get_ruleset("toy-dice"), seed=5)
    again.play("roll")
    assert GameRecord.from_json(again.record.to_json()).game == "toy-dice"
    assert loads(dumps(again.record)).ruleset is again.rules


def test_simulate_plays_a_game_of_another_package(install: Install) -> None:
    install("toy-dice")
    result = simulate(get_ruleset("toy-dice"), ["greedy", "random"], games=4, seed=2)
    same = simulate(dp.RULES, ["greedy", "random"], games=4, seed=2)
    assert result.game == "toy-dice"
    assert result.games == same.games, "dice poker by another name plays the same games"


def run_cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``tabletop-rules ARGS`` in this process: its status, output and errors."""
    from tabletop_rules import cli

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = cli.main(list(args), stdin=io.StringIO(stdin))
    finally:
        sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_plays_simulates_and_lists_a_game_of_another_package(
    install: Install,
) -> None:
    pytest.importorskip("rich", reason="the command needs the cli extra")
    install("toy-dice")
    code, out, err = run_cli("play", "toy-dice", "--seed", "7", stdin="roll\nwrite chance\n")
    assert (code, err) == (0, "")
    assert "Toy dice, seed 7. Seats: P0 you, P1 greedy bot." in out
    assert "P1 threw " in out, "the bot of the other seat played, told in words"
    assert "Game left unfinished." in out
    code, out, err = run_cli("simulate", "toy-dice", "--games", "3", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["game"] == "toy-dice"
    code, out, err = run_cli("rules")
    assert code == 0
    assert "toy-dice" in out
    assert "Toy dice" in out


def test_a_new_process_finds_the_game_in_its_workers_too(install: Install, tmp_path: Path) -> None:
    """The command in a process of its own, with the plugin's folder on ``PYTHONPATH``:
    the game is found there, and in the worker processes of ``--workers 2``, which get
    the ruleset by its name.
    """
    pytest.importorskip("rich", reason="the command needs the cli extra")
    install("toy-dice")
    (folder,) = tmp_path.glob("site-*")
    path = os.pathsep.join([str(folder), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "tabletop_rules"]
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "100"}
    simulated = subprocess.run(
        [*command, "simulate", "toy-dice", "--games", "4", "--workers", "2", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert simulated.returncode == 0, simulated.stderr
    assert json.loads(simulated.stdout)["game"] == "toy-dice"
    played = subprocess.run(
        [*command, "play", "toy-dice", "--seed", "3"],
        input="roll\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    assert "Toy dice, seed 3." in played.stdout


def test_the_web_page_offers_and_plays_a_game_of_another_package(install: Install) -> None:
    """The page's glue lists what :func:`rulesets` gives: with the plugin's wheel among
    the page's wheels, its game is in the menu and plays, with no change to the page.
    """
    from tests.web.helpers import web_module

    glue = web_module("tabletop_web")
    install("toy-dice")
    games = json.loads(glue.catalogue())["games"]
    toy = next(game for game in games if game["name"] == "toy-dice")
    assert toy["title"] == "Toy dice"
    assert toy["bots"] == list(dp.RULES.bots), "the bots of the ruleset it evolves"
    started = json.loads(glue.start(json.dumps({"game": "toy-dice", "seed": 4})))
    assert started["ok"], started
    played = json.loads(glue.play("roll"))
    assert played["ok"], played


# --- plugins that cannot be played ------------------------------------------------------


BROKEN = """raise ImportError("tabletop_pig needs the pigpen package")
"""

NOT_RULES = """RULES = "pig"
"""


def test_a_plugin_that_fails_to_import_is_named_when_asked_for_and_left_out_of_the_list(
    install: Install,
) -> None:
    module = install("pig", BROKEN, dist="tabletop-pig")
    with pytest.raises(GamePluginError) as raised:
        get_ruleset("pig")
    message = str(raised.value)
    assert message.startswith(f"entry point pig = '{module}:RULES' of tabletop-pig 1.0 failed")
    assert "ImportError: tabletop_pig needs the pigpen package" in message
    assert isinstance(raised.value, KeyError)
    assert isinstance(raised.value, TabletopError)
    with pytest.raises(GamePluginError, match="failed to load"):
        get_ruleset("pig")  # the same error each time, from one import
    with pytest.warns(plugins.GamePluginWarning, match="pig.*the game is left out"):
        assert rulesets() == ("account", "dice-poker", "palace")
    assert get_ruleset("palace") is palace.RULES, "one broken plugin breaks no other game"


def test_a_plugin_that_fails_to_load_keeps_every_entry_point_total(install: Install) -> None:
    """The loaders refuse a document of the broken game as an unknown game (the cause
    chained), and the command line says what is wrong in one line, status 2.
    """
    install("pig", BROKEN, dist="tabletop-pig")
    text = dumps(dp.new_game(seed=1)).replace('"dice-poker"', '"pig"')
    with pytest.raises(InvalidStateError, match="unknown game 'pig'") as raised:
        loads(text)
    assert isinstance(raised.value.__cause__, GamePluginError)
    pytest.importorskip("rich", reason="the command needs the cli extra")
    code, _out, err = run_cli("play", "pig")
    assert code == 2
    (error,) = err.strip().splitlines()  # the command loads only the game it is asked for
    assert error.startswith("tabletop-rules: error: entry point pig = ")
    assert error.endswith(
        "of tabletop-pig 1.0 failed to load: ImportError: tabletop_pig needs the pigpen package"
    )


def test_an_entry_point_that_names_no_ruleset_is_refused(install: Install) -> None:
    module = install("pig", NOT_RULES, dist="tabletop-pig")
    with pytest.raises(GamePluginError) as raised:
        get_ruleset("pig")
    assert str(raised.value) == (
        f"entry point pig = '{module}:RULES' of tabletop-pig 1.0 names no ruleset: "
        "expected a ruleset (get_ruleset(name), or a game's RULES), got 'pig'"
    )


def test_an_entry_point_takes_the_name_of_its_game(install: Install) -> None:
    module = install({"pig": "RULES"}, TOY.replace("{name!r}", "'toy-dice'"))
    with pytest.raises(GamePluginError) as raised:
        get_ruleset("pig")
    assert str(raised.value) == (
        f"entry point pig = '{module}:RULES' of toy-games 1.0 names a ruleset called "
        "'toy-dice', not 'pig': an entry point takes its game's name"
    )
    with (
        pytest.raises(KeyError, match="no game named 'toy-dice'; known: account, dice-poker, pal"),
        pytest.warns(plugins.GamePluginWarning, match="not 'pig'"),
    ):
        get_ruleset("toy-dice")


def test_two_distributions_claiming_one_game_are_both_named(install: Install) -> None:
    first = install("toy-dice", dist="toy-games")
    second = install("toy-dice", dist="more-toys")
    with pytest.raises(GamePluginError) as raised:
        get_ruleset("toy-dice")
    message = str(raised.value)
    assert message.startswith("game 'toy-dice' is claimed by 2 distributions: ")
    assert f"entry point toy-dice = '{first}:RULES' of toy-games 1.0" in message
    assert f"entry point toy-dice = '{second}:RULES' of more-toys 1.0" in message
    assert message.endswith("uninstall all but one")
    assert first not in sys.modules, "neither is imported"
    assert second not in sys.modules


def test_a_plugin_claiming_a_built_in_name_is_ignored_and_the_built_in_game_kept(
    install: Install,
) -> None:
    module = install("palace", dist="toy-games")
    assert get_ruleset("palace") is palace.RULES
    with pytest.warns(plugins.GamePluginWarning) as caught:
        assert rulesets() == ("account", "dice-poker", "palace")
    (warning,) = caught
    assert str(warning.message) == (
        f"entry point palace = '{module}:RULES' of toy-games 1.0 claims the name of the "
        "built-in game 'palace': ignored"
    )
    assert module not in sys.modules


def test_forget_reads_the_group_again(install: Install) -> None:
    assert "toy-dice" not in rulesets()
    install("toy-dice")
    assert "toy-dice" not in rulesets(), "the group is read once per process"
    plugins.forget()
    assert "toy-dice" in rulesets()


# --- issue 32: built-in names are reserved, any failure is contained, lazy start -------


IMPOSTER = """\
from tabletop_rules import dice_poker, register
from tabletop_rules.testing.variants import variant

RULES = variant(dice_poker.RULES, name={name!r}, title="Toy dice")
register(variant(dice_poker.RULES, name="palace", title="Imposter palace"))
"""
"""A plugin whose import registers a ruleset of its own under the name ``"palace"``."""

RAISING_NAME = """\
from tabletop_rules.dice_poker import DicePoker


class Rules(DicePoker):
    def __init__(self):
        pass

    @property
    def name(self):
        raise RuntimeError("the name is not ready")


RULES = Rules()
"""
"""A plugin game whose ``name`` raises something other than ``TypeError``."""

EXITING = """import sys
sys.exit("tabletop_pig cannot start")
"""

INTERRUPTED = """raise KeyboardInterrupt
"""


def test_register_refuses_a_built_in_name_with_the_librarys_error() -> None:
    """Issue 32, point 4: a ruleset of another package cannot take a built-in game's name;
    the refusal is a :class:`TabletopError` naming the name.
    """
    imposter = variant(dp.RULES, name="palace", title="Imposter palace")
    with pytest.raises(GamePluginError, match="'palace' is reserved for the built-in") as raised:
        register(imposter)
    assert isinstance(raised.value, TabletopError)
    assert get_ruleset("palace") is palace.RULES


def test_register_refuses_a_built_in_name_before_the_built_in_game_is_imported(
    install: Install, tmp_path: Path
) -> None:
    """Issue 32, point 4: in a new process where ``tabletop_rules.palace`` is not
    imported yet, a plugin whose import registers a ruleset named ``"palace"`` is
    refused: it is left out with its warning, ``palace`` stays the built-in game, and
    ``import tabletop_rules.palace`` still registers it.
    """
    module = install("toy-dice", IMPOSTER)
    (folder,) = tmp_path.glob("site-*")
    script = """\
import json, sys, warnings
from tabletop_rules import get_ruleset, rulesets
assert "tabletop_rules.palace" not in sys.modules
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    names = rulesets()
import tabletop_rules.palace as palace
print(json.dumps({
    "names": names,
    "warnings": [str(warning.message) for warning in caught],
    "palace": get_ruleset("palace") is palace.RULES,
    "title": get_ruleset("palace").title,
}))
"""
    path = os.pathsep.join([str(folder), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["names"] == ["account", "dice-poker", "palace"]
    (warning,) = seen["warnings"]
    assert warning.startswith(f"entry point toy-dice = '{module}:RULES' of toy-games 1.0 failed")
    assert "GamePluginError" in warning
    assert "'palace'" in warning
    assert warning.endswith("the game is left out")
    assert seen["palace"], "the built-in module registers its own ruleset"
    assert seen["title"] == "Palace"


def test_a_plugin_whose_attribute_raises_any_error_is_left_out(install: Install) -> None:
    """Issue 32, point 5: an error other than ``TypeError`` during the protocol check
    is the plugin's failure, named when it is asked for and left out of the list.
    """
    module = install("pig", RAISING_NAME, dist="tabletop-pig")
    with pytest.raises(GamePluginError) as raised:
        get_ruleset("pig")
    assert str(raised.value) == (
        f"entry point pig = '{module}:RULES' of tabletop-pig 1.0 failed its check as a "
        "ruleset: RuntimeError: the name is not ready"
    )
    with pytest.warns(plugins.GamePluginWarning, match="RuntimeError.*the game is left out"):
        assert rulesets() == ("account", "dice-poker", "palace")
    assert get_ruleset("palace") is palace.RULES


def test_a_plugin_that_calls_sys_exit_at_import_is_left_out(install: Install) -> None:
    """Issue 32, point 5: ``SystemExit`` from a plugin's import is its failure, not the
    program's end.
    """
    module = install("pig", EXITING, dist="tabletop-pig")
    with pytest.raises(GamePluginError) as raised:
        get_ruleset("pig")
    assert str(raised.value) == (
        f"entry point pig = '{module}:RULES' of tabletop-pig 1.0 failed to load: "
        "SystemExit: tabletop_pig cannot start"
    )
    with pytest.warns(plugins.GamePluginWarning, match="SystemExit"):
        assert rulesets() == ("account", "dice-poker", "palace")


def test_a_keyboard_interrupt_during_a_plugins_import_reaches_the_caller(
    install: Install,
) -> None:
    """Ctrl-C while a plugin imports is the person's, not the plugin's failure: it
    propagates, and the game is not marked broken, so the next ask imports it again.
    """
    install("pig", INTERRUPTED, dist="tabletop-pig")
    with pytest.raises(KeyboardInterrupt):
        get_ruleset("pig")
    with pytest.raises(KeyboardInterrupt):  # not a GamePluginError: imported again
        get_ruleset("pig")
    with pytest.raises(KeyboardInterrupt):
        rulesets()


def test_one_bad_plugin_stops_no_command_line_command(install: Install) -> None:
    """Issue 32, point 5: plugins that exit at import or raise in their check leave
    every command working: the list leaves them out with one warning line each, and a
    built-in game's commands do not import them at all.
    """
    pytest.importorskip("rich", reason="the command needs the cli extra")
    exiting = install("pig", EXITING, dist="tabletop-pig")
    raising = install("hog", RAISING_NAME, dist="tabletop-hog")
    code, out, err = run_cli("rules", "palace")
    assert (code, err) == (0, "")
    assert "Palace: house rules" in out
    code, out, err = run_cli("simulate", "dice-poker", "--games", "2", "--json")
    assert (code, err) == (0, "")
    assert exiting not in sys.modules
    assert raising not in sys.modules
    code, out, err = run_cli("rules")
    assert code == 0
    assert all(name in out for name in ("account", "dice-poker", "palace"))
    warnings_ = err.strip().splitlines()
    assert len(warnings_) == 2, err
    assert all(line.startswith("tabletop-rules: warning: entry point ") for line in warnings_)
    code, _out, err = run_cli("play", "pig")
    assert code == 2
    assert err.strip().splitlines()[-1].startswith("tabletop-rules: error: entry point pig = ")


def test_the_command_lines_help_imports_no_plugin(
    install: Install, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32: the command's start does not import every plugin: ``--help`` and a
    command's help name the games of the group without importing any of them.
    """
    pytest.importorskip("rich", reason="the command needs the cli extra")
    from tabletop_rules import cli

    module = install("pig", EXITING, dist="tabletop-pig")
    for args in (["--help"], ["play", "--help"], ["rules", "--help"]):
        with pytest.raises(SystemExit) as done:
            cli.main(args)
        assert done.value.code == 0
        assert module not in sys.modules, f"tabletop-rules {' '.join(args)} imported the plugin"
        out, err = capsys.readouterr()
        assert err == ""
        if args[0] == "play":
            assert "pig" in out, "a command's help names the games the group declares"


def test_the_conformance_suite_refuses_a_game_under_a_built_in_name() -> None:
    """Issue 32, point 4, as a check every game's suite inherits: a plugin's game named as
    a built-in one fails its own tests, before any user installs it; so does a game that
    ``get_ruleset`` does not give under its name (it could not be sent to a worker).
    """
    from tabletop_rules.testing.checks import check_found_by_its_name

    check_found_by_its_name(palace.RULES)
    with pytest.raises(AssertionError, match="'palace' is the name of the built-in game"):
        check_found_by_its_name(variant(dp.RULES, name="palace"))
    with pytest.raises(AssertionError, match="get_ruleset\\('toy-dice'\\) fails: no game"):
        check_found_by_its_name(variant(dp.RULES, name="toy-dice"))
