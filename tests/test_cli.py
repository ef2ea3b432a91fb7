"""The tabletop-rules command, driven as users and other programs drive it: through real
subprocesses, over pipes and through a pseudo-terminal.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tabletop_rules import Match, palace
from tabletop_rules import account as a
from tabletop_rules import dice_poker as dp
from tabletop_rules.serialize import MAX_DOCUMENT_CHARS
from tabletop_rules.simulate import simulate
from tabletop_rules.tournament import tournament

pytest.importorskip("rich", reason="the command needs the cli extra: pip install -e '.[cli]'")

COMMAND = [sys.executable, "-m", "tabletop_rules"]


def run(*args: str, stdin: str = "", code: int = 0) -> subprocess.CompletedProcess[str]:
    """Run the command with ``args``, its input piped from ``stdin``; check its status."""
    done = subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert done.returncode == code, (done.stdout, done.stderr)
    return done


def assert_one_line_error(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tabletop-rules: error: ")
    assert message in lines[0]
    assert "Traceback" not in done.stderr


# --- rules -------------------------------------------------------------------------------


def test_rules_lists_every_game_with_its_bots() -> None:
    out = run("rules").stdout
    for name in ("dice-poker", "palace", "account"):
        assert name in out
    assert "greedy" in out


def test_rules_of_a_game_lists_its_house_rules_values_and_defaults() -> None:
    out = run("rules", "palace", "--rule", "players=3").stdout
    lines = {line.split()[1]: line for line in out.splitlines() if line.startswith("│ ")}
    assert "players" in lines
    assert "3" in lines["players"].split("│")[2]
    assert "2" in lines["players"].split("│")[3]
    assert "quad" in lines
    assert "extra_play" in lines["quad"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "chess"], "unknown game 'chess'; the games are account, dice-poker, palace"),
        (["rules", "palace", "--rule", "player=3"], "unknown house rule 'player'"),
        (["rules", "palace", "--rule", "players"], "a house rule is written key=value"),
        (["simulate", "palace", "--rule", "players=99"], "players"),
        (["simulate", "palace", "--bots", "lowcard,genius"], "unknown bot 'genius' for palace"),
        (["simulate", "palace", "--bots", "random,random,random"], "names 3 bots for 2 seats"),
        (["simulate", "dice-poker", "--games", "0"], "--games must be at least 1"),
        (["play", "account", "--seat", "5"], "--seat must be 0 to 1"),
        (["play", "account", "--seed", "-3"], "a seed is in [0, 2**64)"),
        (["dance"], "invalid choice: 'dance'"),
        ([], "the following arguments are required"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(args: list[str], message: str) -> None:
    assert_one_line_error(run(*args, code=2), message)


# --- simulate ----------------------------------------------------------------------------


def test_simulate_prints_win_rates_with_intervals_scores_and_lengths() -> None:
    out = run("simulate", "dice-poker", "--games", "12", "--rule", "stages=1").stdout
    assert "Dice poker: 12 games" in out
    assert "95% interval" in out
    assert "greedy" in out
    assert "random" in out
    assert "game length in moves: mean" in out
    assert "\x1b[" not in out, "no progress bar or colour when the output is piped"


def test_simulate_json_is_the_librarys_result() -> None:
    done = run(
        "simulate", "account", "--games", "10", "--seed", "7", "--bots", "bestcard,random", "--json"
    )
    data = json.loads(done.stdout)
    expected = simulate(a.RULES, ["bestcard", "random"], 10, seed=7)
    assert data == json.loads(json.dumps(expected.to_data()))


def test_simulate_gives_the_same_result_with_two_workers() -> None:
    args = ["simulate", "dice-poker", "--games", "16", "--rule", "stages=1", "--json"]
    one = json.loads(run(*args).stdout)
    two = json.loads(run(*args, "--workers", "2").stdout)
    assert one == two


def test_simulate_duplicate_json_is_the_librarys_result() -> None:
    args = ["simulate", "dice-poker", "--games", "8", "--rule", "stages=1", "--duplicate"]
    data = json.loads(run(*args, "--json").stdout)
    assert data["versus_field"][0]["deals"] == 4
    expected = simulate(
        dp.RULES, ["greedy", "random"], 8, seed=0, config=dp.Config(stages=1), duplicate=True
    )
    assert data == json.loads(json.dumps(expected.to_data()))


def test_simulate_duplicate_shows_each_bot_minus_the_field_as_the_library_rows_it() -> None:
    args = ["simulate", "dice-poker", "--games", "8", "--rule", "stages=1", "--duplicate"]
    out = run(*args).stdout
    expected = simulate(
        dp.RULES, ["greedy", "random"], 8, seed=0, config=dp.Config(stages=1), duplicate=True
    )
    assert "Luck controlled over 4 deals: each bot minus the field" in out
    lines = [line.strip("│ ").split("│") for line in out.splitlines()]
    cells = [tuple(cell.strip() for cell in line) for line in lines]
    for row in expected.versus_rows():
        assert row in cells


# --- tournament --------------------------------------------------------------------------


def test_tournament_json_is_the_librarys_result() -> None:
    done = run(
        "tournament", "palace", "--bots", "lowcard,random,random", "--games", "2",
        "--duplicate", "--seed", "4", "--resamples", "50", "--json",
    )  # fmt: skip
    expected = tournament(
        palace.RULES, ["lowcard", "random", "random"], 2, seed=4, duplicate=True, resamples=50
    )
    assert json.loads(done.stdout) == json.loads(json.dumps(expected.to_data()))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tournament", "palace", "--bots", "lowcard,genius"], "unknown bot 'genius' for palace"),
        (["tournament", "palace", "--bots", "lowcard"], "needs at least 2 bots, got 1"),
        (["tournament", "palace", "--bots", "lowcard,random", "--games", "0"], "--games must be"),
        (["tournament", "palace"], "the following arguments are required: --bots"),
    ],
)
def test_bad_tournament_input_is_one_line_on_stderr_and_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop_rules.cli import main

    assert main(args) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("tabletop-rules: error: ")
    assert message in lines[0]


# --- balance -----------------------------------------------------------------------------


@pytest.mark.slow
def test_balance_writes_one_html_page_with_its_figures(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra: pip install -e '.[plot]'")
    out = tmp_path / "report.html"
    args = ["balance", "palace", "--rule", "quad=burn", "--games", "6", "--out", str(out)]
    shown = run(*args).stdout
    assert "Palace: quad=burn against the defaults" in shown
    assert f"wrote {out}" in shown.replace("\n", "")
    page = out.read_text(encoding="utf-8")
    # wins by seat and game lengths; palace's scores only mark who finished: no score plot
    assert page.count('src="data:image/png;base64,') == 2


def test_balance_without_a_house_rule_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop_rules.cli import main

    assert main(["balance", "palace"]) == 2
    assert "name the house rules to weigh against the defaults" in capsys.readouterr().err


# --- replay ------------------------------------------------------------------------------


def finished_record(tmp_path: Path) -> tuple[Path, Match[dp.Config, dp.State, dp.Move]]:
    match = Match(dp.RULES, dp.Config(stages=1, players=1), seed=3)
    while not match.is_over:
        match.play(match.legal_moves[-1])
    path = tmp_path / "game.json"
    path.write_text(match.record.to_json(), encoding="utf-8")
    return path, match


def test_replay_lists_every_move_and_the_winners(tmp_path: Path) -> None:
    path, match = finished_record(tmp_path)
    out = run("replay", str(path)).stdout.splitlines()
    assert out[0] == f"Dice poker, seed 3, {len(match.moves)} moves; house rules players=1 stages=1"
    assert out[1] == f"   1. P0: {dp.format_move(match.moves[0])}"
    assert out[-1] == f"Game over after {len(match.moves)} moves: winners P0."


def test_replay_of_an_edited_record_names_the_move_and_the_rule(tmp_path: Path) -> None:
    path, _match = finished_record(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["moves"][1] = "write poker"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run("replay", str(path), code=2)
    assert_one_line_error(done, "move 2 ('write poker') cannot be played")
    assert done.stdout.splitlines()[1].startswith("   1. P0: ")


def test_replay_of_a_truncated_or_missing_record_is_refused(tmp_path: Path) -> None:
    path, _match = finished_record(tmp_path)
    path.write_text(path.read_text(encoding="utf-8")[:-20], encoding="utf-8")
    assert_one_line_error(run("replay", str(path), code=2), "")
    assert_one_line_error(run("replay", str(tmp_path / "none.json"), code=2), "cannot read")


# --- play --------------------------------------------------------------------------------


def manual_account(*house: str) -> list[str]:
    return ["play", "account", "--seed", "4", "--rule", "auto_chance=false", *house]


def test_play_through_stdin_to_the_end_with_physical_dice() -> None:
    moves = ["place 0", "roll", "die 1", "move 0 right 1", "die 2"]
    done = run(*manual_account("--rule", "max_rounds=1"), stdin="\n".join(moves) + "\n")
    out = done.stdout
    assert out.startswith("The account game, seed 4. Seats: P0 you, P1 bestcard bot.")
    assert "P1 placed marker m0 on column " in out, "the bot's move is told in words"
    assert "outcome> " in out
    assert "Game over: " in out
    assert "pack 35, discard pile 0" in out, "the table is drawn from the person's view"
    assert out.count("outcome> ") == 2, "the person gives the die for both seats"


def test_a_bad_move_re_prompts_with_the_rule_and_the_game_goes_on() -> None:
    moves = ["place 0", "roll", "die 1", "move 0 left 5", "move 0 right 1", "die 2"]
    out = run(*manual_account("--rule", "max_rounds=1"), stdin="\n".join(moves) + "\n").stdout
    assert "Not played: distance 5 exceeds the roll of 1" in out
    assert "Game over: " in out


def test_undo_takes_back_to_the_persons_last_turn_and_quit_leaves_the_game() -> None:
    moves = ["place 0", "undo", "place 1", "quit"]
    out = run(*manual_account(), stdin="\n".join(moves) + "\n").stdout
    assert "Took back 2 moves." in out
    assert "Game left unfinished." in out


def test_undo_at_the_table_refuses_to_take_back_a_roll_whose_dice_were_seen() -> None:
    """Issue 16, point 4: ``undo`` is the fair take-back; a refusal says why, the prompt
    comes back without the table, and the game goes on from where it stood.
    """
    moves = ["roll", "undo", "write chance", "quit"]
    out = run("play", "dice-poker", "--seed", "7", stdin="\n".join(moves) + "\n").stdout
    assert (
        "Not taken back: seat 0 cannot take back move 1 (P0 roll): it drew from the game's "
        "generator (dice, a shuffle)"
    ) in out
    assert "Took back" not in out
    assert "You wrote " in out, "the person's write was played after the refusal"
    assert "P1 threw " in out


def test_play_tells_the_bots_moves_and_draws_as_the_persons_seat_sees_them() -> None:
    """Issue 19: the log is the events' sentences, as they happen: the bot's swap, play
    and draw (its drawn cards counted, not named), and the person's own play and draw.
    """
    out = run("play", "palace", "--seed", "2", stdin="ready\nplay 7D 7S\n").stdout
    lines = out.splitlines()
    assert "P1 put 3C face up and took 4C in hand" in lines
    assert (
        lines.index("P1 plays first") < lines.index("P1 played 4C") < lines.index("P1 drew 1 card")
    )
    assert "move> You played 7D 7S" in lines, "piped, the sentence follows the prompt"
    assert any(re.fullmatch(r"You drew \w+ \w+", line) for line in lines), out
    drawn = [line for line in lines if line.startswith("P1 drew")]
    assert drawn, out
    assert all(re.fullmatch(r"P1 drew \d+ cards?", line) for line in drawn), drawn


def test_a_bots_move_that_shows_nothing_yet_is_printed_in_notation() -> None:
    moves = ["roll", "dice 1 2 3 4 5", "write small_straight"]
    args = ("play", "dice-poker", "--seed", "2", "--rule", "auto_chance=false")
    out = run(*args, stdin="\n".join(moves) + "\n").stdout
    lines = out.splitlines()
    assert "outcome> You threw 1 2 3 4 5 (throw 1)" in lines, "typed dice are told too"
    assert "move> You wrote 15 in small straight (stage 1)" in lines
    assert "P1: roll" in lines, "the bot's roll waits for the person's dice"


def test_input_that_ends_leaves_the_game_unfinished() -> None:
    out = run("play", "palace", "--seed", "1", stdin="ready\n").stdout
    assert "Game left unfinished." in out
    assert "> P0 (you)" in out, "the person's seat is drawn from its own view"


def test_play_in_a_real_terminal() -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the pseudo-terminal
        os.environ["COLUMNS"] = "100"
        os.execv(sys.executable, [*COMMAND, "play", "palace", "--seed", "1"])
    output = b""
    sent = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child has exited and closed the terminal
            break
        if not chunk:
            break
        output += chunk
        if not sent and b"move> " in output:
            os.write(fd, b"play 9 9 9\r")
            os.write(fd, b"quit\r")
            sent = True
    _pid, status = os.waitpid(pid, 0)
    os.close(fd)
    text = output.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "Not played:" in text
    assert "Game left unfinished." in text
    assert "\x1b[" in text, "a terminal gets colour"


def test_python_dash_m_and_the_installed_script_are_the_same_command() -> None:
    version = run("--version").stdout.strip()
    assert version.startswith("tabletop-rules ")
    script = Path(sys.executable).with_name("tabletop-rules")
    if script.exists():
        done = subprocess.run(
            [str(script), "--version"], capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == version


def test_main_is_callable_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop_rules.cli import main

    assert main(["rules", "dice-poker"]) == 0
    assert "throws_per_turn" in capsys.readouterr().out
    assert main(["rules", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


# --- the docs page: every command shown in docs/cli.rst is run, its output checked -----------

DOCS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.rst"
PROMPT = re.compile(r"(?:move|outcome)> ")
PROMPT_LINE = re.compile(r"(?:move|outcome)> (.+)")


@dataclass(frozen=True)
class ShownRun:
    """One ``$ tabletop-rules ...`` command of the docs page and the output shown for it.

    The conventions of ``docs/cli.rst``, in its ``.. code-block:: console`` blocks:

    - A line ``$ tabletop-rules ARGS`` is run as ``python -m tabletop_rules ARGS`` (split as
      the shell splits it) with ``COLUMNS=100``, in a directory shared by the whole page.
    - Its output is every line after it up to the next ``$`` line or the end of the block
      (not up to a blank line: ``play`` draws a blank line before each table); blank lines
      at the end are dropped. Shown and real output must be equal line by line,
      trailing spaces stripped. The real output is stdout followed by stderr; a run that
      writes to stderr must exit with status 2, any other with status 0.
    - Input from a here-document: when the command line ends in ``<<EOF``, the lines up to
      one that reads ``EOF`` are the command's stdin, and the output is what a program
      reading the pipe gets (input is not echoed, so a prompt runs into what follows it).
    - Input typed at a terminal: without ``<<EOF``, stdin is the text after each
      ``move>`` and ``outcome>`` prompt in the shown output, one line per prompt; the real
      output is compared with each line read written after its prompt, as a terminal
      echoes what is typed.
    - Every ``.. code-block:: python`` block of the page is run first, in page order, in
      that same directory: it makes the files the commands read (the record for ``replay``).
    """

    args: tuple[str, ...]
    stdin: str
    typed: tuple[str, ...]
    output: tuple[str, ...]


def docs_blocks() -> list[tuple[str, list[str]]]:
    """The page's code blocks, in order: (language, dedented lines)."""
    lines = DOCS_PAGE.read_text(encoding="utf-8").splitlines()
    blocks: list[tuple[str, list[str]]] = []
    index = 0
    while index < len(lines):
        found = re.fullmatch(r"\.\. code-block:: (\w+)", lines[index].strip())
        index += 1
        if not found:
            continue
        body: list[str] = []
        while index < len(lines) and (not lines[index].strip() or lines[index][:1] == " "):
            body.append(lines[index])
            index += 1
        while body and not body[-1].strip():
            body.pop()
        indent = min(len(line) - len(line.lstrip()) for line in body if line.strip())
        blocks.append((found.group(1), [line[indent:] for line in body]))
    return blocks


def shown_runs() -> list[ShownRun]:
    runs: list[ShownRun] = []
    for language, body in docs_blocks():
        if language != "console":
            continue
        index = 0
        while index < len(body):
            line = body[index]
            index += 1
            if not line.startswith("$ tabletop-rules "):
                continue
            command = line.removeprefix("$ tabletop-rules ")
            stdin: list[str] = []
            here = command.rstrip().endswith("<<EOF")
            if here:
                command = command.rstrip().removesuffix("<<EOF")
                while body[index] != "EOF":
                    stdin.append(body[index])
                    index += 1
                index += 1
            output: list[str] = []
            while index < len(body) and not body[index].startswith("$ "):
                output.append(body[index].rstrip())
                index += 1
            while output and not output[-1]:
                output.pop()
            typed = () if here else typed_lines(output)
            text = "".join(f"{row}\n" for row in stdin) or "".join(f"{t}\n" for t in typed)
            runs.append(ShownRun(tuple(shlex.split(command)), text, typed, tuple(output)))
    return runs


def typed_lines(output: Sequence[str]) -> tuple[str, ...]:
    """What a shown terminal session typed: the text after each prompt."""
    return tuple(found.group(1) for row in output if (found := PROMPT_LINE.fullmatch(row)))


def echoed(output: str, typed: Sequence[str]) -> str:
    """``output`` as a terminal shows it: each typed line after the prompt that read it."""
    lines = iter(typed)

    def echo(prompt: re.Match[str]) -> str:
        line = next(lines, None)
        return prompt.group(0) if line is None else f"{prompt.group(0)}{line}\n"

    return PROMPT.sub(echo, output)


def absolute_path(variable: str) -> str:
    """A search path from the environment with each entry made absolute, for another cwd."""
    entries = os.environ.get(variable, "").split(os.pathsep)
    return os.pathsep.join(str(Path(entry).resolve()) for entry in entries if entry)


@pytest.fixture(scope="module")
def docs_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory where the page's Python blocks have been run."""
    directory = tmp_path_factory.mktemp("docs-cli")
    cwd = Path.cwd()
    os.chdir(directory)
    try:
        for language, body in docs_blocks():
            if language == "python":
                exec(compile("\n".join(body), str(DOCS_PAGE), "exec"), {"__name__": "docs"})
    finally:
        os.chdir(cwd)
    return directory


def test_the_docs_page_shows_commands() -> None:
    runs = shown_runs()
    assert len(runs) >= 8
    commands = {shown.args[0] for shown in runs}
    assert commands == {"play", "simulate", "tournament", "balance", "replay", "rules"}


@pytest.mark.parametrize("shown", shown_runs(), ids=lambda shown: " ".join(shown.args))
def test_the_docs_page_shows_real_output(shown: ShownRun, docs_directory: Path) -> None:
    done = subprocess.run(
        [*COMMAND, *shown.args],
        input=shown.stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=docs_directory,
        env={**os.environ, "COLUMNS": "100", "PYTHONPATH": absolute_path("PYTHONPATH")},
    )
    assert done.returncode == (2 if done.stderr else 0), done.stderr
    real = echoed(done.stdout, shown.typed) + done.stderr
    lines = [line.rstrip() for line in real.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    assert lines == list(shown.output)


# --- input that is not text, files too large (issue 16, points 2 and 6) ------------------


def run_bytes(
    *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the command with raw bytes on its input; its output read as UTF-8."""
    done = subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "100", **(env or {})},
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def test_replay_of_a_file_that_is_not_utf8_is_one_line_and_status_2(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"game": "dice-poker", "note": "café"}'.encode("latin-1"))
    assert_one_line_error(run_bytes("replay", str(path)), "not JSON: 'utf-8' codec can't decode")


def test_play_reading_binary_input_under_strict_utf8_is_one_line_and_status_2() -> None:
    done = run_bytes(
        "play",
        "dice-poker",
        "--seed",
        "1",
        stdin=b"roll\n\xff\xfe\x00binary\n",
        env={"PYTHONIOENCODING": "utf-8:strict"},
    )
    assert_one_line_error(done, "the input is not utf-8 text (invalid start byte)")


def peak_memory_of_replay(path: Path) -> tuple[int, str]:
    """The peak resident memory (KiB) of one ``replay`` of ``path`` in a process of its
    own, and what it wrote on stderr.
    """
    script = (
        "import resource, sys\n"
        "from tabletop_rules.cli import main\n"
        "code = main(['replay', sys.argv[1]])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "COLUMNS": "100"},
    )
    peak, code = done.stdout.split()[-2:]
    assert code == "2", done
    return int(peak), done.stderr


def test_replay_checks_the_size_of_a_file_before_reading_it(tmp_path: Path) -> None:
    """A 300 MB file (sparse: it takes no disk) is refused without being read: the
    command's peak memory is that of refusing a small broken file, not 600 MB more.
    """
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(300 * 2**20)
    small = tmp_path / "small.json"
    small.write_bytes(b"{" * 10)
    huge_peak, refusal = peak_memory_of_replay(huge)
    small_peak, _ = peak_memory_of_replay(small)
    assert f"is {300 * 2**20} bytes, more than {MAX_DOCUMENT_CHARS} bytes" in refusal
    assert huge_peak < 1.5 * small_peak, (huge_peak, small_peak)


# --- help, hint and the table's counting at the prompt (issue 19, point 7) ---------------


def play_in_process(capsys: pytest.CaptureFixture[str], *args: str, typed: str) -> str:
    """``play`` run by ``main`` in this process, ``typed`` its input; what it printed."""
    from tabletop_rules.cli import main

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "100")
        assert main(["play", *args], stdin=io.StringIO(typed)) == 0
    return capsys.readouterr().out


def flat(out: str) -> str:
    """``out`` with its lines joined and its runs of spaces one: help wraps its lines."""
    return " ".join(out.split())


def test_help_explains_dice_pokers_mountain_premium_scratches_and_fences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "dice-poker", "--seed", "2", typed="help\n")
    out = flat(out)
    assert "Dice poker in brief:" in out
    assert "(count - 3) x face" in out
    assert "earns +50, below 0 costs -20" in out
    assert "scratch it for 0" in out
    assert "Fences: throws you do not use are banked" in out
    assert "roll keep 6 6" in out


def test_help_explains_palaces_2_3_10_four_of_a_kind_face_up_and_blind_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "palace", "--seed", "2", typed="help\n")
    out = flat(out)
    assert "2, 3 and 10 go on anything" in out
    assert "a 10 burns the pile" in out
    assert "Four or more of a rank in one play" in out
    assert "your face-up cards go into your hand" in out
    assert "face-down cards blind" in out
    assert "play 7 7: lay two 7s of your own" in out
    assert "blind 0: turn face-down card 0" in out


def test_help_follows_the_house_rules_in_force(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("palace", "--seed", "2", "--rule", "quad=burn", "--rule", "face_up_play=from_table")
    out = play_in_process(capsys, *args, typed="help\n")
    out = flat(out)
    assert "Four or more of a rank on top of the pile burn it" in out
    assert "play your face-up cards from the table" in out
    assert "in one play" not in out


def test_help_explains_the_account_cards_the_ring_and_the_markers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "account", "--seed", "4", typed="help\n")
    out = flat(out)
    assert "as a ring" in out
    assert "B draws the pack top and subtracts it; Z: the account is 0" in out
    assert "markers are m0, m1, ..." in out
    assert "move m0 left 3: move marker m0 three cards left (move 0 left 3 is the same)" in out


def test_help_lists_the_commands_with_undo_as_the_fair_take_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "account", "--seed", "4", typed="help\n")
    lines = out.splitlines()
    start = lines.index("Commands:")
    commands = [line.split()[0] for line in lines[start + 1 :] if line[2:3] not in (" ", "")]
    assert commands[:5] == [
        "help",
        "hint",
        "moves",
        "undo",
        "quit",
    ]
    assert "never a move that showed what was hidden" in flat(out)
    assert "Type a move in notation, or: help, hint, moves, undo, quit." in lines


def test_help_of_a_game_without_summaries_gives_the_commands_and_notation_examples() -> None:
    from tabletop_rules import cli
    from tabletop_rules.testing.variants import variant

    bare = variant(
        dp.RULES,
        rules_summary=lambda config: (),
        notation_summary=lambda config: (),
        hint=lambda seen: (),
    )
    text = cli._help(bare, dp.Config(auto_chance=False))
    assert "in brief" not in text
    assert "for example: roll, write ones, scratch pair, announce ones" in text
    assert "chance outcomes, at outcome>: dice 1" in text
    assert "Commands:" in text  # hint without hints: test_pig's help test, through main


def test_moves_lists_the_legal_moves_again(capsys: pytest.CaptureFixture[str]) -> None:
    out = play_in_process(capsys, "account", "--seed", "4", typed="moves\n")
    assert out.count("place 0   place 1   place 2") == 2


def test_hint_in_dice_poker_gives_what_each_open_box_would_score(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "dice-poker", "--seed", "2", typed="hint\nroll\nhint\n")
    assert "Hints come after a throw" in out
    assert "With 2 2 4 4 5 the boxes you may fill now would score:" in out
    assert "  ones -3, twos -2, threes -9, fours -4, fives -10, sixes -18, pair 8, " in out
    assert "  only scratched, for 0: three_kind, four_kind, full_house," in out


def test_hint_in_palace_gives_the_playable_ranks_and_those_in_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "palace", "--seed", "2", typed="ready\nplay 7D 7S\nhint\n")
    assert "move> Ranks that go on the pile now: 2 3 7 8 9 10 J Q K A." in out
    assert "Of them you can lay: 2 3 K." in out


def test_hint_in_the_account_game_gives_the_landings_after_a_roll(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "account", "--seed", "4", typed="place 0\nroll\nhint\n")
    lines = out.splitlines()
    assert "move> Rolled 3, account 10: distance: card landed on -> account after" in lines
    assert "  m0 left   1: -10 -> 0, 2: -25 -> -15, 3: -1 -> 9" in lines
    assert "  m0 right  1: -25 -> -15, 2: +15 -> 25, 3: +15 -> 25" in lines


def test_the_account_prompt_takes_a_marker_as_the_field_draws_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(
        capsys, "account", "--seed", "4", typed="place 0\nroll\nmove m0 right 3\n"
    )
    assert "to move: P0, round 1 of 30, rolled 3, move m0" in out
    assert "Your marker m0 moved 3 right to +15 (column 3)" in out
    assert "Not played" not in out


def test_refusals_at_the_prompt_count_markers_as_the_field_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "account", "--seed", "4", typed="place 0\nroll\nmove m1 left 1\n")
    assert "Not played: seat 0 owns 1 marker (m0): there is no marker m1" in out


def test_refusals_at_the_prompt_count_stages_as_the_score_sheet_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("dice-poker", "--seed", "2", "--rule", "stage_orders=down")
    out = play_in_process(capsys, *args, typed="roll\nwrite chance\n")
    assert "P0 s1" in out
    assert "to move: P0, stage 1, throw 1 of 3" in out
    assert "Not played: stage 1 is played 'down': only its next box, ONES, may be filled" in out


def test_the_first_line_names_each_seat_as_the_table_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = play_in_process(capsys, "account", "--seat", "1", "--seed", "4", typed="")
    assert out.startswith("The account game, seed 4. Seats: P0 bestcard bot, P1 you.")


def test_the_last_line_gives_each_seats_score_by_its_name_on_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    typed = "place 0\nroll\nmove 0 right 3\n"
    out = play_in_process(capsys, "account", "--seed", "4", "--rule", "max_rounds=1", typed=typed)
    assert out.splitlines()[-1] == "Game over: winner P1. Scores: P0 25, P1 30."


# --- issue 32: the rules table --------------------------------------------------------------


def test_rules_without_a_rule_shows_one_column_of_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 32, point 8: with no ``--rule`` every value is its default, so the table
    shows them once, under "default"; a ``--rule`` brings the value column back.
    """
    from tabletop_rules.cli import main

    assert main(["rules", "palace"]) == 0
    out = capsys.readouterr().out
    (heading,) = (line for line in out.splitlines() if "rule" in line and "┃" in line)
    assert [cell.strip() for cell in heading.strip("┃").split("┃")] == [
        "rule",
        "default",
        "what it changes",
    ]
    players = next(line for line in out.splitlines() if line.startswith("│ players "))
    assert [cell.strip() for cell in players.strip("│").split("│")][:2] == ["players", "2"]
    assert main(["rules", "palace", "--rule", "players=3"]) == 0
    out = capsys.readouterr().out
    (heading,) = (line for line in out.splitlines() if "rule" in line and "┃" in line)
    assert [cell.strip() for cell in heading.strip("┃").split("┃")][:3] == [
        "rule",
        "value",
        "default",
    ]


@pytest.mark.parametrize("argv", ["play palace", b"play", 7, ["play", 7], ("rules", None)])
def test_main_takes_a_list_of_words_as_sys_argv_holds_them(argv: object) -> None:
    from tabletop_rules.cli import main

    with pytest.raises(TypeError, match=r"argv is a list of str, as sys.argv\[1:\] is"):
        main(argv)  # type: ignore[arg-type]
