"""The ``tabletop-rules`` command (the ``cli`` extra, with `rich
<https://rich.readthedocs.io>`_; also ``python -m tabletop_rules``): play a game in the
terminal, simulate many, replay a record, list a game's house rules, for every registered
game, other packages' too, importing only the game it names.

Bad input (an unknown game, bot or house rule, a malformed value, a broken record, a game
whose package does not load) prints one line on stderr and exits with status 2; such a
game is left out of the list with a one-line warning.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import sqlite3
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Any, NoReturn, TypeVar

from . import __version__
from ._messages import short_repr
from .bots import own_bot_name
from .errors import ConfigError, IllegalMoveError, TabletopError, UnknownGameError
from .house_rules import configured, house_rules, value_text
from .match import Match
from .plugins import GamePluginWarning
from .protocol import CHANCE, Bot, Ruleset, game_names, get_ruleset, rulesets
from .records import GameRecord, replay_steps
from .results import VERSUS_HEADINGS
from .serialize import MAX_DOCUMENT_CHARS
from .simulate import (
    MAX_GAMES,
    SimulationResult,
    seat_bot,
    simulate,
    simulated_game,
    task_count,
    useful_workers,
)
from .tournament import MAX_RESAMPLES, SEAT_HEADINGS, TournamentResult, tournament

try:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from rich.table import Table
    from rich.text import Text
except ImportError:  # the module imports without the extra; main() says what to install
    HAS_RICH = False
else:
    HAS_RICH = True

__all__ = ["main"]

Result = TypeVar("Result", SimulationResult, TournamentResult)

MOVES_SHOWN = 60
"""Legal moves listed at a prompt; the rest are counted (any may still be typed)."""

COMMANDS: dict[str, str] = {
    "help": "this help",
    "hint": "what your moves would do now, where the game gives hints",
    "moves": "your moves again",
    "undo": "take back your last move and the bots' since; never a move that showed "
    "what was hidden (dice, a card drawn or turned), yours or a bot's",
    "quit": "leave the game unfinished (also exit, or the end of the input)",
}
"""The words the ``play`` prompt takes besides moves, and what each does."""

WORKERS_HELP = "worker processes, no more than the cores and the tasks (default 1)"
"""The help of ``--workers``: a pool larger than either has nothing for the rest to do."""

SERVER_DB = "tabletop-rules.sqlite"
"""Where ``serve`` keeps its matches unless ``--db`` says otherwise."""

EXAMPLES_SHOWN = 8
"""Verbs shown with an example in ``help`` for a game with no notation summary."""


class UsageError(Exception):
    """Input to the command that it cannot act on: one line for stderr."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line and status 2, like the command's own."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def main(argv: Sequence[str] | None = None, *, stdin: IO[str] | None = None) -> int:
    """Run the command with ``argv`` (``sys.argv[1:]`` when ``None``); the exit status."""
    if argv is not None and (
        not isinstance(argv, list | tuple) or not all(type(word) is str for word in argv)
    ):
        raise TypeError(f"argv is a list of str, as sys.argv[1:] is; got {short_repr(argv)}")
    if not HAS_RICH:
        sys.stderr.write(
            "tabletop-rules: error: the command line needs the cli extra: "
            "pip install 'tabletop-rules[cli]'\n"
        )
        return 2
    console = Console(highlight=False, soft_wrap=True)
    errors = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        with _plugin_warnings(errors):
            args = _parser().parse_args(argv)
            command: Callable[[argparse.Namespace, Console, IO[str]], int] = args.command
            return command(args, console, stdin if stdin is not None else sys.stdin)
    except (UsageError, TabletopError) as error:
        errors.print(Text(f"tabletop-rules: error: {error}"))
        return 2
    except KeyboardInterrupt:
        errors.print(Text("tabletop-rules: interrupted"))
        return 130


@contextmanager
def _plugin_warnings(errors: Console) -> Iterator[None]:
    """Another package's game left out of the list as one stderr line, like an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", GamePluginWarning)  # each is warned once anyway
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], *args: Any, **kw: Any) -> None:
            if issubclass(category, GamePluginWarning):
                errors.print(Text(f"tabletop-rules: warning: {message}"))
            else:
                shown(message, category, *args, **kw)

        warnings.showwarning = show
        yield


@contextmanager
def _extra(extra: str, needs: str) -> Iterator[None]:
    """The imports of a command that needs ``extra``: missing, a usage error saying so."""
    try:
        yield
    except ImportError:
        raise UsageError(f"{needs}: pip install 'tabletop-rules[{extra}]'") from None


def _parser() -> _Parser:
    parser = _Parser(
        prog="tabletop-rules",
        description="Play, simulate and replay dice poker, palace and the account game.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, parser_class=_Parser)
    # Names only: a game is loaded when its command runs, so no other package's game is
    # imported to start, and one that fails to import stops nothing but its own commands.
    games = f"the game: {', '.join(game_names())}"
    rule_help = "a house rule (repeatable); 'tabletop-rules rules GAME' lists them"

    def command(name: str, help_text: str, run: Callable[..., int], rule: str = "") -> _Parser:
        """A subcommand that runs ``run``; with ``rule``, the help of its ``--rule``."""
        sub: _Parser = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(command=run)
        if rule:
            sub.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help=rule)
        return sub

    def game_command(
        name: str, help_text: str, run: Callable[..., int], bots: str, required: bool = False
    ) -> _Parser:
        """A command that plays a game: its ``game``, ``--rule`` and ``--bots``."""
        sub = command(name, help_text, run, rule_help)
        sub.add_argument("game", help=games)
        sub.add_argument("--bots", default=None, required=required, help=bots)
        return sub

    def many_games(
        name: str,
        help_text: str,
        run: Callable[..., int],
        bots: str,
        games: str,
        seed: str,
        default: int = 100,
    ) -> _Parser:
        """A command that plays many games: also ``--games``, ``--seed``, ``--workers``."""
        sub = game_command(name, help_text, run, bots, required=name == "tournament")
        sub.add_argument("--games", type=int, default=default, help=f"{games} (default {default})")
        sub.add_argument("--seed", type=_seed, default=0, help=f"{seed} (default 0)")
        sub.add_argument("--workers", type=int, default=1, help=WORKERS_HELP)
        return sub

    play = game_command(
        "play",
        "play a game in the terminal against bots",
        _play,
        "the other seats' bots, comma-separated: one per seat, or one for all "
        "(default: the game's own bot)",
    )
    your_seat = "your seat, from 0 as the table names it: P0 (default 0)"
    play.add_argument("--seat", type=int, default=0, help=your_seat)
    seed_help = "the game's seed (default: a fresh one, shown)"
    play.add_argument("--seed", type=_seed, default=None, help=seed_help)

    sim = many_games(
        "simulate",
        "play many games between bots and sum them up",
        _simulate,
        "the bots, comma-separated: one per seat, or one for all; rotated through the "
        "seats (default: the game's own bot against random)",
        f"how many games, at most {MAX_GAMES:,}",
        "the run's seed",
    )
    sim.add_argument("--json", action="store_true", help="print the result as JSON")
    sim.add_argument(
        "--batched",
        action="store_true",
        help="random bots on the compiled batched engine, 4,096 games a batch (the batch extra)",
    )
    sim.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per rotation of the seats and report each bot's "
        "luck-controlled difference from the field (--games: a multiple of the seats)",
    )

    tour = many_games(
        "tournament",
        "rate bots in a round robin: Bradley-Terry ratings with intervals",
        _tournament,
        "the bots, comma-separated, at least one per seat: every table of the game's "
        "player count plays",
        f"games per table, at most {MAX_GAMES:,} over all the tables",
        "the tournament's seed",
    )
    tour.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per rotation of the seats; the bootstrap resamples deals",
    )
    resamples = f"bootstrap resamples, at most {MAX_RESAMPLES:,} (default 1000)"
    tour.add_argument("--resamples", type=int, default=1000, help=resamples)
    tour.add_argument("--json", action="store_true", help="print the result as JSON")

    weigh = many_games(
        "balance",
        "weigh house rules against the defaults: an HTML page with figures (the plot extra)",
        _balance,
        "the bots, comma-separated: one per seat, or one for all (default: the game's "
        "own bot at every seat)",
        f"games under each set of rules, at most {MAX_GAMES:,}",
        "the runs' seed",
        default=200,
    )
    out = "the page to write (default balance.html)"
    weigh.add_argument("--out", type=Path, default=Path("balance.html"), help=out)

    show = command("replay", "replay a game record move by move", _replay)
    record_help = "a game record file (JSON), as Match.record.to_json() writes"
    show.add_argument("record", type=Path, help=record_help)
    show.add_argument("--tables", action="store_true", help="draw the table after every move")
    show.add_argument("--step", action="store_true", help="wait for Enter after every move")

    serve = command(
        "serve",
        "run the game server: a lobby over HTTP, a WebSocket per player (the server extra)",
        _serve,
    )
    db_help = (
        f"where the matches are kept: an SQLite file (default {SERVER_DB}; :memory: keeps "
        "none; or sqlite:///PATH), or postgresql://... shared by many workers (the cluster extra)"
    )
    serve.add_argument("--db", default=SERVER_DB, metavar="URL", help=db_help)
    redis_help = "redis://HOST:PORT: tell the other workers of each change (the cluster extra)"
    serve.add_argument("--redis", metavar="URL", help=redis_help)
    worker_help = "this worker's name among those sharing the database (default HOST:PORT)"
    serve.add_argument("--worker-id", metavar="ID", help=worker_help)
    serve.add_argument(
        "--log-format", choices=("text", "json"), default="text", help="json: one object a line"
    )
    lease_help = (
        "how long a worker holds a match after changing it, and how long a silent worker "
        "may be gone before another takes up its bots and clocks (default 10)"
    )
    serve.add_argument("--lease-seconds", type=float, default=10.0, metavar="S", help=lease_help)
    forwarded_help = (
        "the load balancers' addresses (comma-separated, or *) whose X-Forwarded-For is "
        "trusted, so that the limits per client count each client, not the balancer "
        "(default: the FORWARDED_ALLOW_IPS environment variable, else 127.0.0.1)"
    )
    serve.add_argument("--forwarded-allow-ips", metavar="ADDRESSES", help=forwarded_help)
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    site_help = "a folder of static files served at / beside the API: the web page, built"
    serve.add_argument("--site", type=Path, metavar="DIR", help=site_help)

    join = command(
        "join",
        "play a seat of a server's match in the terminal, or watch it (the server extra)",
        _join,
    )
    join.add_argument(
        "url", help="the match's link: http://HOST:PORT/?match=ID or .../api/matches/ID"
    )
    join.add_argument("--name", default="", help="the name the other seats see")
    seat_help = "the seat to take, from 0 (default: the first free one)"
    join.add_argument("--seat", type=int, default=None, help=seat_help)
    join.add_argument("--token", default=None, help="play the seat this token holds")
    join.add_argument("--watch", action="store_true", help="watch as a spectator")

    rule_values = "show the values with this house rule set (repeatable)"
    rules = command(
        "rules", "list the games, or a game's house rules and bots", _rules, rule_values
    )
    rules.add_argument("game", nargs="?", help="the game (all games when left out)")
    return parser


def _seed(text: str) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text!r}") from None
    if not 0 <= seed < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is in [0, 2**64), got {seed}")
    return seed


def _game(args: argparse.Namespace) -> tuple[Ruleset[Any, Any, Any], Any]:
    """The game the command names, and its config under the command's ``--rule``."""
    try:
        rules = get_ruleset(args.game)
    except UnknownGameError:  # a game that does not load: GamePluginError says why
        games = ", ".join(rulesets())
        raise UsageError(f"unknown game {args.game!r}; the games are {games}") from None
    return rules, configured(rules.config_type, args.rule)


def _bot_names(rules: Ruleset[Any, Any, Any], text: str | None, seats: int | None) -> list[str]:
    """The bots ``--bots`` names, each one of the game's: one per seat or one for all
    (``None``: any number of seats); not given, the game's own bot.
    """
    names = [own_bot_name(rules)] if text is None else [name.strip() for name in text.split(",")]
    if seats is not None:
        if len(names) == 1:
            names *= seats
        if len(names) != seats:
            raise UsageError(f"--bots names {len(names)} bots for {seats} seats")
    for name in names:
        if name not in rules.bots:
            raise UsageError(
                f"unknown bot {name!r} for {rules.name}; its bots are {', '.join(rules.bots)}"
            )
    return names


def _play(args: argparse.Namespace, console: Console, stdin: IO[str]) -> int:
    rules, config = _game(args)
    players = rules.players(config)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be 0 to {players - 1}, got {args.seat}")
    others = [seat for seat in range(players) if seat != args.seat]
    names = _bot_names(rules, args.bots, len(others))
    match = Match(rules, config, seed=args.seed)
    seated = dict(zip(others, names, strict=True))
    bots: dict[int, Bot[Any, Any]] = {
        seat: seat_bot(rules.bots[name], match.seed, seat) for seat, name in seated.items()
    }
    cast_list = ", ".join(
        f"P{seat} " + (f"{seated[seat]} bot" if seat in seated else "you")
        for seat in range(players)
    )
    console.print(Text(f"{rules.title}, seed {match.seed}. Seats: {cast_list}.", style="bold"))
    console.print(Text(f"Type a move in notation, or: {', '.join(COMMANDS)}."))
    person = args.seat
    while not match.is_over:
        player = match.current_player
        if player in bots:
            move = bots[player].choose(match.view(player))
            told = [rules.describe(event, person) for event in match.play(move, seat=player)]
            # A move with no events (a roll that waits for the person's dice) in notation.
            _tell(console, told or [f"P{player}: {rules.format_move(move)}"])
            continue
        if not _prompt(console, stdin, match, person, chance=player == CHANCE):
            console.print("Game left unfinished.")
            return 0
    console.print()
    console.print(Text(rules.display(match.view(None))))
    console.print(Text(_result_line(match), style="bold"))
    return 0


def _prompt(
    console: Console, stdin: IO[str], match: Match[Any, Any, Any], person: int, chance: bool
) -> bool:
    """Ask for a move (or chance outcome) until one is played; ``False`` for quitting."""
    rules = match.rules
    console.print()
    console.print(Text(rules.display(match.view(person))))
    legal = [rules.format_move(move) for move in match.legal_moves]
    title = "Outcomes (type what the dice show)" if chance else "Your moves"
    console.print(Text(f"{title}:", style="bold"))
    console.print(Text(_columns(legal, console.width)))
    shown: dict[str, Callable[[], str]] = {
        "help": lambda: _help(rules, match.config, console.width),
        "moves": lambda: _columns(legal, console.width),
        "hint": lambda: (
            "\n".join(rules.hint(match.view(person))) or f"{rules.title} gives no hints here."
        ),
    }
    while True:
        console.print(Text("outcome> " if chance else "move> ", style="bold"), end="")
        line = _read_line(stdin)
        if not line:
            console.print()
            return False
        text = line.strip()
        if not text:
            continue
        if text in ("quit", "exit"):
            return False
        if text in shown:
            console.print(Text(shown[text]()))
            continue
        if text == "undo":
            if _undo(console, match, person):
                return True
            continue
        try:
            events = match.play(text) if chance else match.play(text, seat=person)
        except TabletopError as error:
            console.print(Text(f"Not played: {error}", style="red"))
            continue
        _tell(console, [rules.describe(event, person) for event in events])
        return True


def _tell(console: Console, lines: Sequence[str]) -> None:
    """A move's events as the person's seat reads them, a sentence a line."""
    for line in lines:
        console.print(Text(line, style="cyan"))


def _read_line(stdin: IO[str]) -> str:
    """The next input line, ``""`` at its end; :class:`UsageError` for undecodable bytes."""
    try:
        return stdin.readline()
    except UnicodeDecodeError as error:
        encoding = getattr(stdin, "encoding", None) or error.encoding
        raise UsageError(f"the input is not {encoding} text ({error.reason})") from None


def _undo(console: Console, match: Match[Any, Any, Any], person: int) -> bool:
    """Take back moves to the person's last turn, fairly; whether any was taken back."""
    if person not in map(match.rules.current_player, match.history[:-1]):
        console.print(Text("Nothing to take back.", style="yellow"))
        return False
    try:
        undone = len(match.take_back(person))
    except IllegalMoveError as refusal:
        console.print(Text(f"Not taken back: {refusal}", style="yellow"))
        return False
    console.print(Text(f"Took back {undone} move{'s' if undone > 1 else ''}.", style="yellow"))
    return True


def _help(rules: Ruleset[Any, Any, Any], config: Any, width: int = 100) -> str:
    """``help`` at the prompt, fitting ``width``: rules in brief, notation and commands."""
    lines: list[str] = []
    fit = max(width, 40)

    def item(text: str, indent: str = "    ") -> list[str]:
        return textwrap.wrap(text, fit, initial_indent="  ", subsequent_indent=indent)

    summary = rules.rules_summary(config)
    if summary:
        lines.append(f"{rules.title} in brief:")
        lines += [row for line in summary for row in item(line)]
    notation = rules.notation_summary(config) or _examples(rules, config)
    lines.append("Moves are typed in notation:")
    lines += [row for line in notation for row in item(line)]
    names = max(map(len, COMMANDS))
    lines.append("Commands:")
    for name, does in COMMANDS.items():
        lines += item(f"{name.ljust(names)}  {does}", " " * (names + 4))
    return "\n".join(lines)


def _examples(rules: Ruleset[Any, Any, Any], config: Any) -> tuple[str, ...]:
    """One action text of each verb (at most :data:`EXAMPLES_SHOWN`), in action order."""
    firsts: dict[str, tuple[int, str]] = {}  # each verb's first action and its text
    for action in range(rules.num_actions(config)):
        if len(firsts) >= EXAMPLES_SHOWN:
            break
        text = rules.action_text(config, action)
        firsts.setdefault((text.split() or [text])[0], (action, text))
    chance = rules.chance_offset(config)
    players = [text for action, text in firsts.values() if action < chance]
    outcomes = [text for action, text in firsts.values() if action >= chance]
    lines = [f"for example: {', '.join(players)}"] if players else []
    if outcomes:
        lines.append(f"chance outcomes, at outcome>: {', '.join(outcomes)}")
    return tuple(lines)


def _columns(items: Sequence[str], width: int) -> str:
    """At most :data:`MOVES_SHOWN` moves in lines that fit ``width``, each move whole."""
    shown = list(items[:MOVES_SHOWN])
    if len(items) > MOVES_SHOWN:
        shown.append(f"... and {len(items) - MOVES_SHOWN} more")
    lines: list[str] = []
    line = ""
    for item in shown:
        if line and len(line) + 3 + len(item) > max(width, 40):
            lines.append(line)
            line = item
        else:
            line = f"{line}   {item}" if line else item
    lines.append(line)
    return "\n".join(lines)


def _result_line(match: Match[Any, Any, Any]) -> str:
    """Who won, and each seat's score named as the table names the seat."""
    scores = ", ".join(f"P{seat} {points}" for seat, points in enumerate(match.score))
    names = ", ".join(f"P{seat}" for seat in sorted(match.winners))
    won = f"winner{'s' * (len(match.winners) > 1)} {names}" if names else "no winner"
    return f"Game over: {won}. Scores: {scores}."


def _simulate(args: argparse.Namespace, console: Console, _stdin: IO[str]) -> int:
    rules, config = _game(args)
    players = rules.players(config)
    names = _bot_names(rules, args.bots, players)
    if args.bots is None:  # the game's own bot against random; batched, random alone
        names = ["random" if seat or args.batched else name for seat, name in enumerate(names)]
    _check_counts(args, players, games=MAX_GAMES, workers=None)
    tasks = task_count(args.games, batched=args.batched)
    result = _run_games(simulate, args, console, tasks, rules, names, config, batched=args.batched)
    if not args.json:
        console.print(_result_table(rules, result))
        length = result.length
        console.print(
            Text(
                f"{result.games_played} games, seed {result.seed}; game length in moves: "
                f"mean {length.mean:.1f}, min {length.min}, max {length.max}"
            )
        )
        shortest = _shortest_game(rules, result, names, config, batched=args.batched)
        if shortest:
            console.print(Text(shortest))
        if result.versus_field:
            console.print(_duplicate_table(result))
    return 0


SHORT_GAME = 4
"""A shortest game under the mean length over this is told in words."""


def _shortest_game(
    rules: Ruleset[Any, Any, Any],
    result: SimulationResult,
    names: Sequence[str],
    config: Any,
    *,
    batched: bool,
) -> str:
    """A line on the run's shortest game where under :data:`SHORT_GAME` of the mean, else
    ``""``: played again, its last move told, so the table's ``min`` is no mystery (a
    batched run's game, its moves drawn by NumPy, is only named).
    """
    length = result.length
    if length.min * SHORT_GAME > length.mean:
        return ""
    game = min(result.games, key=lambda one: one.moves)
    moves = f"{game.moves} move{'' if game.moves == 1 else 's'}"
    seated = ", ".join(f"P{seat} {result.bots[bot].name}" for seat, bot in enumerate(game.seating))
    line = f"The shortest game, game {game.index} (seed {game.seed}; {seated}), took {moves}"
    if batched:
        return f"{line}."
    played = simulated_game(
        rules,
        names,
        game.index,
        seed=result.seed,
        config=config,
        rotate=result.rotate,
        duplicate=result.duplicate,
    )
    *_, (_move, _state, events) = replay_steps(played.record)
    told = "; ".join(rules.describe(event, None) for event in events)
    return f"{line}; its last move: {told}."


def _check_counts(args: argparse.Namespace, deals_of: int = 0, **most: int | None) -> None:
    """Each option in ``most`` is at least 1 and at most its cap (``None``: none); with
    ``--duplicate``, which plays each deal once per rotation of ``deals_of`` seats, whole deals.
    """
    for option, cap in most.items():
        value = getattr(args, option)
        if value < 1:
            raise UsageError(f"--{option} must be at least 1, got {value}")
        if cap is not None and value > cap:
            name = {"games": "MAX_GAMES", "resamples": "MAX_RESAMPLES"}[option]
            raise UsageError(f"--{option} must be at most {cap:,} ({name}), got {value}")
    if deals_of and args.duplicate and args.games % deals_of:
        raise UsageError(
            f"--duplicate plays each deal once per rotation of the {deals_of} seats: "
            f"--games must be a multiple of {deals_of}, got {args.games}"
        )


def _duplicate_table(result: SimulationResult) -> Table:
    title = f"Luck controlled over {result.versus_field[0].deals} deals: each bot minus the field"
    return _figures(title, VERSUS_HEADINGS, result.versus_rows())


def _figures(
    title: str,
    headings: Sequence[str],
    rows: Iterable[Sequence[str]] = (),
    caption: str | None = None,
) -> Table:
    """A table of figures: the first column left-aligned, the figures right-aligned."""
    table = Table(title=title, caption=caption)
    for number, heading in enumerate(headings):
        table.add_column(heading, justify="right" if number else "left")
    for row in rows:
        table.add_row(*row)
    return table


def _tournament(args: argparse.Namespace, console: Console, _stdin: IO[str]) -> int:
    rules, config = _game(args)
    names = _bot_names(rules, args.bots, None)
    seats = rules.players(config)
    _check_counts(args, seats, games=MAX_GAMES, workers=None, resamples=MAX_RESAMPLES)
    tasks = math.comb(len(names), seats) * task_count(args.games)
    result = _run_games(
        tournament, args, console, tasks, rules, names, config, resamples=args.resamples
    )
    if args.json:
        return 0
    tables = len(result.tables)
    how = "each deal once per rotation of the seats" if result.duplicate else "seats rotated"
    title = (
        f"{rules.title}: {result.games_played} games, {tables} table"
        f"{'s' * (tables != 1)} of {seats}, {how}"
    )
    console.print(_figures(title, result.rating_headings(), result.rating_rows()))
    console.print(_figures("Wins by seat", SEAT_HEADINGS, result.seat_rows()))
    length = result.length
    console.print(
        Text(
            f"Ratings: Bradley-Terry, Elo scale (400 points = 10:1 odds), mean 0; "
            f"95% intervals from {result.resamples} bootstrap resamples of the "
            f"{'deals' if result.duplicate else 'games'}, seed {result.seed}.\n"
            f"Game length in moves: mean {length.mean:.1f}, sd {length.stdev:.1f}, "
            f"min {length.min}, median {length.quartiles[1]:g}, max {length.max}"
        )
    )
    return 0


def _run_games(
    run: Callable[..., Result],
    args: argparse.Namespace,
    console: Console,
    tasks: int,
    rules: Ruleset[Any, Any, Any],
    names: list[str],
    config: Any,
    **options: Any,
) -> Result:
    """``run`` (``simulate`` or ``tournament``) with the command's options, on workers."""
    with _workers(console, args.workers, tasks, not args.json) as (executor, progress):
        result = run(
            rules,
            names,
            args.games,
            seed=args.seed,
            config=config,
            duplicate=args.duplicate,
            executor=executor,
            progress=progress,
            **options,
        )
    if args.json:
        console.print_json(json.dumps(result.to_data()))
    return result


@contextmanager
def _workers(
    console: Console, workers: int, tasks: int, shown: bool
) -> Iterator[tuple[ProcessPoolExecutor | None, Callable[[int, int], None] | None]]:
    """A pool of ``workers`` (no more than cores and ``tasks``) and a terminal's progress bar."""
    workers = useful_workers(workers, tasks)
    with ExitStack() as stack:
        pool = stack.enter_context(ProcessPoolExecutor(workers)) if workers > 1 else None
        if not (shown and console.is_terminal):
            yield pool, None
            return
        columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        bar = stack.enter_context(Progress(*columns, console=console, transient=True))
        task = bar.add_task("games", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield pool, advance


def _result_table(rules: Ruleset[Any, Any, Any], result: SimulationResult) -> Table:
    """Each bot's figures; its mean score and spread only where scores count points."""
    points = not result.scores_say_only_who_won
    caption = None if points else "No mean score: these games' scores only say who won."
    headings = ("bot", "games", "wins", "win rate", "95% interval")
    rows = []
    for stats in result.bots:
        low, high = stats.win_interval
        row = [stats.name, str(stats.games), f"{stats.wins:g}", f"{stats.win_rate:.1%}"]
        row.append(f"{low:.1%} - {high:.1%}")
        if points:
            row += [f"{stats.score_mean:.1f}", f"{stats.score_stdev:.1f}"]
        rows.append(row)
    title = f"{rules.title}: {result.games_played} games"
    return _figures(title, (*headings, *(("mean score", "sd") if points else ())), rows, caption)


def _balance(args: argparse.Namespace, console: Console, _stdin: IO[str]) -> int:
    rules, config = _game(args)
    if not args.rule:
        raise UsageError("name the house rules to weigh against the defaults: --rule KEY=VALUE")
    players = rules.players(config)
    names = _bot_names(rules, args.bots, players)
    _check_counts(args, games=MAX_GAMES, workers=None)
    _check_writable(args.out)
    with _extra("plot", "balance draws figures with matplotlib"):
        from .plots import balance_report
    with _workers(console, args.workers, task_count(args.games), True) as (executor, progress):
        report = balance_report(
            rules,
            args.rule,
            args.games,
            seed=args.seed,
            bots=names,
            executor=executor,
            progress=progress,
        )
    try:
        written = report.write(args.out)
    except OSError as error:
        raise UsageError(f"cannot write {args.out}: {error.strerror or error}") from None
    weighed = " ".join(report.rules)
    title = f"{rules.title}: {weighed} against the defaults"
    console.print(_figures(title, ("", "defaults", weighed), report.summary()))
    console.print(Text(f"{args.games} games under each, seed {args.seed}; wrote {written}"))
    return 0


def _check_writable(path: Path) -> None:
    """Refuse, before any game is played, an ``--out`` where the page cannot be written."""
    if path.is_dir():
        raise UsageError(f"cannot write {path}: it is a directory; name the page's file")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: there is no directory {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"cannot write {path}: permission denied")


def _replay(args: argparse.Namespace, console: Console, stdin: IO[str]) -> int:
    record = GameRecord.from_json(_record_bytes(args.record))
    rules = record.ruleset
    changed = [
        f"{rule.name}={value_text(record.config, rule.name)}"
        for rule in house_rules(rules.config_type)
        if getattr(record.config, rule.name) != rule.default
    ]
    houses = f"; house rules {' '.join(changed)}" if changed else ""
    header = f"{rules.title}, seed {record.seed}, {len(record.moves)} moves{houses}"
    console.print(Text(header, style="bold"))
    steps = replay_steps(record, events=False)
    _nothing, before, _none = next(steps)
    number = 0
    for number, (move, state, _events) in enumerate(steps, 1):
        player = rules.current_player(before)
        who = "chance" if player == CHANCE else f"P{player}"
        console.print(Text(f"{number:>4}. {who}: {rules.format_move(move)}"))
        if args.tables:
            console.print(Text(rules.display(rules.view(state, None))))
        before = state
        if args.step and number < len(record.moves) and not _read_line(stdin):
            break
    console.print(Text(rules.display(rules.view(before, None))))
    moves = f"{number} move{'' if number == 1 else 's'}"
    if rules.is_over(before):
        winners = ", ".join(f"P{seat}" for seat in sorted(rules.winners(before))) or "none"
        console.print(Text(f"Game over after {moves}: winners {winners}.", style="bold"))
    elif number < len(record.moves):
        console.print(Text(f"Stopped after move {number} of {len(record.moves)}."))
    else:
        console.print(Text(f"The record ends after {moves}; the game is not over."))
    return 0


def _record_bytes(path: Path) -> bytes:
    """The record file's bytes: over :data:`~tabletop_rules.serialize.MAX_DOCUMENT_CHARS`
    refused, reading no more than one byte past it (a pipe has no size).
    """
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_DOCUMENT_CHARS:
                raise UsageError(f"{path} is {size} bytes, more than {_LIMIT}")
            data = file.read(MAX_DOCUMENT_CHARS + 1)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_DOCUMENT_CHARS:
        raise UsageError(f"{path} holds more than {_LIMIT}")
    return data


_LIMIT = f"{MAX_DOCUMENT_CHARS} bytes, the limit for a record (MAX_DOCUMENT_CHARS)"


def _serve(args: argparse.Namespace, console: Console, _stdin: IO[str]) -> int:
    """Serve matches until interrupted, kept where ``--db`` says."""
    with _extra("server", "serve runs on Starlette and uvicorn"):
        import uvicorn

        from .server import ServerSettings, create_app
        from .server.hub import open_hub
        from .server.logs import configure_logging
        from .server.messages import MAX_MESSAGE_BYTES
        from .server.sqlite import SQLiteStore
        from .server.store import Store
        from .server.stores import open_store_url
    if not 0 < args.port < 65536:
        raise UsageError(f"--port is 1 to 65535, got {args.port}")
    if args.site is not None and not args.site.is_dir():
        raise UsageError(f"--site is a folder (examples/web/make_site.py builds one): {args.site}")
    if not 0.5 <= args.lease_seconds <= 3600:
        raise UsageError(f"--lease-seconds is 0.5 to 3600, got {args.lease_seconds:g}")
    worker = args.worker_id or f"{socket.gethostname()}:{args.port}"
    try:
        kind, target = open_store_url(args.db)
        hub = open_hub(args.redis, worker)
    except ConfigError as error:
        raise UsageError(str(error)) from None
    store: Store | str = args.db
    if kind == "sqlite":
        try:
            store = SQLiteStore(target)
        except sqlite3.Error as error:
            raise UsageError(f"cannot keep matches in {target}: {error}") from None
    configure_logging(args.log_format, worker=worker)
    shown = "postgresql://…" if kind == "postgresql" else target  # never a password
    console.print(
        Text(f"serving on http://{args.host}:{args.port} as {worker}, matches kept in {shown}")
    )
    uvicorn.run(
        create_app(
            store,
            # beats well within the lease, so a live worker is never taken for gone
            ServerSettings(
                lease_seconds=args.lease_seconds, heartbeat_seconds=min(1.0, args.lease_seconds / 4)
            ),
            site=args.site,
            hub=hub,
            worker=worker,
        ),
        host=args.host,
        port=args.port,
        forwarded_allow_ips=args.forwarded_allow_ips,
        ws_max_size=2 * MAX_MESSAGE_BYTES,  # the app refuses over its limit, and says so
        log_level="info",
        timeout_graceful_shutdown=10,
    )
    if isinstance(store, SQLiteStore):
        asyncio.run(store.close())
    return 0


def _join(args: argparse.Namespace, console: Console, stdin: IO[str]) -> int:
    """Play (or watch) a seat of the match at ``args.url`` until it is over or left."""
    with _extra("server", "join talks to the server with websockets and httpx"):
        import httpx  # noqa: F401
        import websockets  # noqa: F401

        from .server.terminal import play_seat
    if args.watch and (args.seat is not None or args.token is not None):
        raise UsageError("--watch takes no seat: leave out --seat and --token")
    if args.seat is not None and args.seat < 0:
        raise UsageError(f"--seat is a seat from 0, got {args.seat}")
    return play_seat(
        args.url,
        console=console,
        stdin=stdin,
        name=args.name,
        seat=args.seat,
        token=args.token,
        watch=args.watch,
    )


def _rules(args: argparse.Namespace, console: Console, _stdin: IO[str]) -> int:
    if args.game is None:
        table = Table("game", "title", "bots", title="Games")
        for rules in map(get_ruleset, rulesets()):
            table.add_row(rules.name, rules.title, ", ".join(rules.bots))
        console.print(table)
        return 0
    rules, config = _game(args)
    table = Table(title=f"{rules.title}: house rules", show_lines=False)
    # With no --rule every value is its default: one column of them, not two equal ones.
    shown = ("rule", "value", "default") if args.rule else ("rule", "default")
    for heading in (*shown, "what it changes"):
        table.add_column(heading, overflow="fold")
    for rule in house_rules(rules.config_type):
        cells: list[str | Text] = [rule.name, rule.default_text, rule.description]
        if args.rule:
            value = value_text(config, rule.name)
            cells.insert(1, Text(value, style="bold" if value != rule.default_text else ""))
        table.add_row(*cells)
    console.print(table)
    console.print(Text(f"Bots: {', '.join(rules.bots)}. Set a rule with --rule KEY=VALUE."))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
