"""The Python side of the web page: one game against bots, spoken in JSON.

The page's JavaScript calls the functions below (through Pyodide) with JSON text and
gets JSON text back. The :class:`~tabletop_rules.Match` and the bots live here, on the
Python side; what goes to the page is the person's seat's table
(:func:`~tabletop_rules.table.seat_table`): its view drawn by the game (as text and as
data), its legal moves in notation, and the events as that seat may see them. So a hidden
card of another seat never reaches the page's JavaScript. This module adds only the
page's glue: the form, the bots' seats, the undo button and the saved record.

Every answer is an object with ``ok``. A refusal (``ok: false``) carries the library's
message in ``error``, and for house rules the field it is about in ``fields``; the game
in play is then untouched. Nothing here ever answers with a Python traceback.

The seed is kept here too until the game is over: it fixes the deal and every die, so
a page that showed it would show what is hidden. Only the record, which the person asks
for to save the game, holds it.

The module needs only the standard library and ``tabletop_rules``, so it runs, and is
tested, on CPython just as in the browser:

>>> import json
>>> answer = json.loads(start('{"game": "dice-poker", "seed": "7"}'))
>>> answer["ok"], answer["game"]["moves"][:2]
(True, ['roll', 'scratch pair'])
>>> print(json.loads(play("jump"))["error"])
unknown move 'jump': moves start with roll, write, scratch, announce or dice
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

import attrs

from tabletop_rules import CHANCE, Match, TabletopError, get_ruleset, rulesets
from tabletop_rules._messages import short_repr
from tabletop_rules.bots import own_bot_name
from tabletop_rules.errors import ConfigError, HouseRulesError
from tabletop_rules.house_rules import configured_form
from tabletop_rules.protocol import Bot, Ruleset
from tabletop_rules.records import GameRecord
from tabletop_rules.serialize import parse_json
from tabletop_rules.simulate import seat_bot
from tabletop_rules.table import Table as SeatTable
from tabletop_rules.table import game_entry, seat_table

__all__ = ["bot", "catalogue", "load", "play", "record", "start", "state", "undo"]

PERSON = "you"
"""The seat choice that is the person at the page; every other choice names a bot."""

BOTS = ("all", "none")
"""How many bots' moves a call plays after the person's: ``all`` up to the person's next
decision, or ``none``, for a page that paces them one at a time with :func:`bot`."""

MOVE_BUTTONS = 60
"""Most legal moves drawn as buttons; the rest are counted, and may still be typed."""

Answer = dict[str, Any]


class RefusedError(Exception):
    """A request the page cannot act on, with the message to show and the form fields
    it is about.
    """

    def __init__(self, message: str, fields: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.fields = fields or {}


@attrs.define
class Table:
    """The game in play: the match, the person's seat (``None``: everyone is a bot and
    the page watches as a spectator) and the bots at the other seats.
    """

    match: Match[Any, Any, Any]
    person: int | None
    seats: tuple[str, ...]
    bots: dict[int, Bot[Any, Any]]
    log: list[Answer] = attrs.Factory(list)
    """The log sent so far; each answer adds the moves since, from the seat's table."""


_table: Table | None = None


def _answers(function: Callable[..., Answer]) -> Callable[..., str]:
    """``function`` as the page calls it: its answer as JSON, and any failure as an
    answer with ``ok: false`` and a one-line message, never a traceback.
    """

    def answered(*args: Any) -> str:
        try:
            answer = {"ok": True, **function(*args)}
        except RefusedError as refusal:
            answer = {"ok": False, "error": str(refusal), "fields": refusal.fields}
        except TabletopError as error:
            answer = {"ok": False, "error": str(error), "fields": {}}
        except Exception as error:  # a bug: the console gets the traceback, not the player
            traceback.print_exc(file=sys.stderr)
            message = f"the page hit a bug ({type(error).__name__}); the game is unchanged"
            answer = {"ok": False, "error": message, "fields": {}}
        return json.dumps(answer, ensure_ascii=False)

    answered.__doc__ = function.__doc__
    answered.__name__ = function.__name__
    return answered


# --- what the page offers ----------------------------------------------------------------


@_answers
def catalogue() -> Answer:
    """The games, each with its house rules as form fields and its bots."""
    return {"games": [game_entry(get_ruleset(name)) for name in rulesets()]}


# --- starting, playing, undoing ----------------------------------------------------------


@_answers
def start(request: str) -> Answer:
    """Start a game from ``{"game", "rules": {name: text}, "seats": [...], "seed",
    "bots"}``; each part but ``game`` may be left out. A refused house rule is reported
    under its field's name, and no game starts. ``bots`` (:data:`BOTS`, ``all`` by
    default) says whether the bots seated before the person move at once.
    """
    global _table
    asked = _object(request, "the request")
    rules = _ruleset(asked.get("game"))
    config = _config(rules, asked.get("rules", {}))
    players = rules.players(config)
    seats = _seats(rules, asked.get("seats"), players)
    seed = _seed(asked.get("seed"))
    bots = _bots(asked.get("bots", "all"))
    table = _seated(Match(rules, config, seed=seed), seats)
    _advance(table, bots)
    _table = table
    return {"game": _game(table)}


@_answers
def play(text: str, bots: str = "all") -> Answer:
    """Play the move ``text`` (notation) for the person, or a chance outcome the person
    enters, then the bots' moves up to the person's next decision (``bots="none"``: no
    bot's move; the page paces them with :func:`bot`).
    """
    table = _current()
    match = table.match
    player = match.current_player
    if player is None:
        raise RefusedError("the game is over")
    if player != CHANCE and player != table.person:
        raise RefusedError(f"it is P{player}'s turn, not yours")
    move = _text(text, "a move")
    how_many = _bots(bots)
    played = len(match.moves)
    try:
        match.play(move, seat=None if player == CHANCE else table.person)
        _advance(table, how_many)
    except Exception:  # the game is left as it was, even when a bot fails
        while len(match.moves) > played:
            match.undo()
        raise
    return {"game": _game(table)}


@_answers
def bot() -> Answer:
    """Play the move of the bot on turn, one move, for a page that paces the bots so a
    person can follow them; the game unchanged when no bot is on turn (the answer's
    ``bot_turn`` says when one is). A bot that fails plays nothing.
    """
    table = _current()
    match = table.match
    player = match.current_player
    if player in table.bots:
        assert player is not None
        match.play(table.bots[player].choose(match.view(player)), seat=player)
    return {"game": _game(table)}


@_answers
def undo() -> Answer:
    """Take back moves up to the person's last decision, the bots' replies included, by
    the fair take-back: refused, saying why, when one of them showed something hidden
    (a roll, a drawn card, a bot's card), since the person would play on knowing it.
    """
    table = _current()
    if table.person is None:
        raise RefusedError("a game between bots has no move of yours to take back")
    table.match.take_back(table.person)
    return {"game": _game(table)}


@_answers
def state() -> Answer:
    """The game in play, as the person sees it."""
    return {"game": _game(_current())}


# --- records -----------------------------------------------------------------------------


@_answers
def record() -> Answer:
    """The game so far as a record (JSON text), to save in a file. It holds the seed,
    and so the whole deal: the page asks for it only when the person saves.
    """
    table = _current()
    return {"record": table.match.record.to_json(), "name": f"{table.match.rules.name}.json"}


@_answers
def load(text: str, bots: str = "all") -> Answer:
    """Replace the game with the one a saved record describes, the person keeping their
    seat (seat 0 if the table is smaller). A record that fails to load leaves the game
    in play untouched, and the answer carries the loader's message. ``bots`` as for
    :func:`play`.
    """
    global _table
    how_many = _bots(bots)
    match = Match.from_record(GameRecord.from_json(_text(text, "a record")))
    players = match.rules.players(match.config)
    person = 0 if _table is None or _table.person is None else _table.person
    person = person if person < players else 0
    bot = own_bot_name(match.rules)
    seats = tuple(PERSON if seat == person else bot for seat in range(players))
    table = _seated(match, seats)
    _advance(table, how_many)
    _table = table
    return {"game": _game(table)}


# --- the pieces --------------------------------------------------------------------------


def _text(value: object, what: str) -> str:
    """``value``, which the page sends as text; anything else is refused, unread (a
    structure nested deep enough would break ``str``).
    """
    if not isinstance(value, str):
        raise RefusedError(f"{what} is text, got {type(value).__name__}")
    return value


def _object(text: object, what: str) -> dict[str, Any]:
    """The JSON object ``text`` holds, read by the library's own guarded parser: a
    document too long or nested too deep is refused before it is parsed.
    """
    try:
        value = parse_json(_text(text, what))
    except TabletopError as error:
        if str(error).startswith("not JSON"):
            raise RefusedError(f"{what} is not JSON") from None
        raise RefusedError(f"{what} is refused: {error}") from None
    if not isinstance(value, dict):
        raise RefusedError(f"{what} is not a JSON object")
    return value


def _ruleset(name: Any) -> Ruleset[Any, Any, Any]:
    if not isinstance(name, str) or name not in rulesets():
        raise RefusedError(f"unknown game {name!r}; the games are {', '.join(rulesets())}")
    return get_ruleset(name)


def _config(rules: Ruleset[Any, Any, Any], values: Any) -> Any:
    """The config the form asks for, each refused value reported beside its field
    (:func:`~tabletop_rules.house_rules.configured_form`).
    """
    if not isinstance(values, dict):
        raise RefusedError("the house rules are a JSON object of texts")
    texts = {str(name): str(value) for name, value in values.items()}
    try:
        return configured_form(rules.config_type, texts)
    except HouseRulesError as refusal:
        message = "a house rule is refused; nothing was started"
        raise RefusedError(message, dict(refusal.fields)) from None
    except ConfigError as error:
        raise RefusedError(str(error)) from None


def _seats(rules: Ruleset[Any, Any, Any], seats: Any, players: int) -> tuple[str, ...]:
    if seats is None:
        return (PERSON, *[own_bot_name(rules)] * (players - 1))
    if not isinstance(seats, list) or len(seats) != players:
        message = f"choose who plays each of the {players} seats"
        raise RefusedError(message, {"seats": "one per seat"})
    for choice in seats:
        if not isinstance(choice, str) or (choice != PERSON and choice not in rules.bots):
            raise RefusedError(
                f"unknown bot {short_repr(choice)}; the bots are {', '.join(rules.bots)}",
                {"seats": f"{PERSON!r} or a bot's name"},
            )
    if seats.count(PERSON) > 1:
        raise RefusedError("the page plays one seat: choose bots for the others")
    return tuple(seats)


def _seed(text: Any) -> int | None:
    if text is None or str(text).strip() == "":
        return None
    try:
        seed = int(str(text).strip())
    except ValueError:
        raise RefusedError(
            f"a seed is a whole number, got {text!r}", {"seed": "a whole number"}
        ) from None
    if not 0 <= seed < 2**64:
        raise RefusedError(f"a seed is in [0, 2**64), got {seed}", {"seed": "0 to 2**64 - 1"})
    return seed


def _seated(match: Match[Any, Any, Any], seats: tuple[str, ...]) -> Table:
    """The match with its seats taken: the person's, and a bot at each other seat, each
    seeded from the game's seed as the command line seeds them.
    """
    bots = {
        seat: seat_bot(match.rules.bots[name], match.seed, seat)
        for seat, name in enumerate(seats)
        if name != PERSON
    }
    person = seats.index(PERSON) if PERSON in seats else None
    return Table(match, person, seats, bots)


def _current() -> Table:
    if _table is None:
        raise RefusedError("no game has started")
    return _table


def _bots(value: Any) -> str:
    if value not in BOTS:
        raise RefusedError(f"bots is one of {', '.join(BOTS)}, got {short_repr(value)}")
    return str(value)


def _advance(table: Table, bots: str = "all") -> None:
    """Play the bots' moves until the person decides, a chance outcome is to be entered
    (physical dice), or the game ends; none with ``bots="none"``.
    """
    if bots == "none":
        return
    match = table.match
    while (player := match.current_player) in table.bots:
        assert player is not None
        match.play(table.bots[player].choose(match.view(player)), seat=player)


def _game(table: Table) -> Answer:
    """The game as the person may see it: their seat's table
    (:func:`~tabletop_rules.table.seat_table`), which holds nothing of another seat's
    view, with what the page adds: the seats' players, the guide, the undo button, and
    at a chance point the outcomes the person enters (physical dice).
    """
    match, person = table.match, table.person
    rules = match.rules
    seen = seat_table(match, person, since=len(table.log))
    del table.log[seen.log_from :]  # a take-back: the log is replaced from log_from on
    table.log.extend(
        {
            "number": entry.number,
            "who": _who(table, entry.seat),
            "move": entry.move,
            "events": list(entry.events),
        }
        for entry in seen.log
    )
    chance = seen.to_move == CHANCE
    moves = [rules.format_move(move) for move in match.legal_moves] if chance else seen.moves
    refusal = _undo_refusal(table)
    return {
        "name": seen.game,
        "title": seen.title,
        "seed": match.seed if seen.over else None,
        "seat": person,
        "seats": [_seat_label(choice) for choice in table.seats],
        "table": seen.display,
        "board": seen.drawn,
        "guide": {
            "rules": list(rules.rules_summary(match.config)),
            "notation": list(rules.notation_summary(match.config)),
        },
        "hints": list(seen.hints),
        "move_hints": dict(seen.move_notes),
        "to_move": _to_move(table, seen.to_move),
        "bot_turn": seen.to_move in table.bots,
        "chance": chance,
        "moves": list(moves[:MOVE_BUTTONS]),
        "more_moves": max(0, len(moves) - MOVE_BUTTONS),
        "log": table.log,
        "over": seen.over,
        "result": _result(table, seen) if seen.over else None,
        "score": list(seen.scores),
        "can_undo": refusal is None,
        "undo_refusal": refusal,
    }


def _undo_refusal(table: Table) -> str | None:
    """Why the person's undo would be refused now; ``None`` when it would take back."""
    if table.person is None:
        return "a game between bots has no move of yours to take back"
    try:
        table.match.verify_take_back(table.person)
    except TabletopError as refusal:
        return str(refusal)
    return None


def _seat_label(choice: str) -> str:
    return PERSON if choice == PERSON else f"{choice} bot"


def _to_move(table: Table, player: int | None) -> str | None:
    if player is None:
        return None
    if player == CHANCE:
        return "the dice: enter what they show"
    if player == table.person:
        return PERSON
    return f"P{player} ({table.seats[player]} bot)"


def _result(table: Table, seen: SeatTable) -> str:
    winners = seen.winners
    scores = ", ".join(f"P{seat} {score}" for seat, score in enumerate(seen.scores))
    if not winners:
        return f"Game over: no winner. Scores: {scores}."
    if table.person in winners:
        who = "You win" if len(winners) == 1 else "You share the win"
    else:
        who = "Winner " + ", ".join(f"P{seat}" for seat in winners)
    return f"Game over. {who}. Scores: {scores}."


def _who(table: Table, player: int) -> str:
    if player == CHANCE:
        return "chance"
    return PERSON if player == table.person else f"P{player}"
