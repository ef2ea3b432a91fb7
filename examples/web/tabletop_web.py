"""The Python side of the web page: one game against bots, spoken in JSON.

The page's JavaScript calls the functions below (through Pyodide) with JSON text and
gets JSON text back. The :class:`~tabletop_rules.Match` and the bots live here, on the
Python side; what goes to the page is built from the person's seat only: its view drawn
by the game's own display, its legal moves in notation, and the events as that seat may
see them. So a hidden card of another seat never reaches the page's JavaScript.

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
import typing
from collections.abc import Callable, Iterable
from typing import Any, Literal, get_args, get_origin

import attrs

from tabletop_rules import CHANCE, Match, TabletopError, account, get_ruleset, palace, rulesets
from tabletop_rules import dice_poker as dp
from tabletop_rules._messages import short_repr
from tabletop_rules.account import table as account_table
from tabletop_rules.bots import own_bot_name
from tabletop_rules.dice_poker.coach import coach_lines
from tabletop_rules.dice_poker.moves import BOXES_PER_STAGE, MOUNTAIN
from tabletop_rules.dice_poker.table import open_box_points
from tabletop_rules.house_rules import configured, house_rules
from tabletop_rules.palace.table import playable_ranks
from tabletop_rules.protocol import Bot, Ruleset
from tabletop_rules.records import GameRecord
from tabletop_rules.serialize import parse_json
from tabletop_rules.simulate import seat_bot

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
    return {"games": [_game_entry(get_ruleset(name)) for name in rulesets()]}


def _game_entry(rules: Ruleset[Any, Any, Any]) -> Answer:
    hints = typing.get_type_hints(rules.config_type)
    return {
        "name": rules.name,
        "title": rules.title,
        "bots": list(rules.bots),
        "best_bot": own_bot_name(rules),
        "players": rules.players(rules.config_type()),
        "rules": [
            {
                "name": rule.name,
                "default": rule.default_text,
                "description": rule.description,
                **_input_kind(hints[rule.name]),
            }
            for rule in house_rules(rules.config_type)
        ],
    }


def _input_kind(hint: Any) -> Answer:
    """How the form asks for a value of type ``hint``: a checkbox, a list of choices, a
    number or text (JSON for the structured ones).
    """
    if hint is bool:
        return {"kind": "bool"}
    if get_origin(hint) is Literal:
        return {"kind": "choice", "choices": [str(choice) for choice in get_args(hint)]}
    if hint is int:
        return {"kind": "number"}
    return {"kind": "text"}


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
    del table.log[len(table.match.moves) :]
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
    """The config the form asks for, each refused value reported beside its field.

    A value is judged alone first, then against the values that passed alone, so that
    ``players=9`` passes beside ``decks=2`` though nine players are too many for the
    default one deck.
    """
    if not isinstance(values, dict):
        raise RefusedError("the house rules are a JSON object of texts")
    texts = {str(name): f"{name}={value}" for name, value in values.items()}
    config_type = rules.config_type
    alone: dict[str, str] = {}
    for name, text in texts.items():
        try:
            configured(config_type, [text])
        except TabletopError as error:
            alone[name] = str(error)
    try:
        base = configured(config_type, [text for name, text in texts.items() if name not in alone])
    except TabletopError as error:
        raise RefusedError(f"these house rules do not go together: {error}") from None
    fields: dict[str, str] = {}
    for name in alone:
        try:
            base = configured(config_type, [texts[name]], base)
        except TabletopError as error:
            fields[name] = str(error)
    if fields:
        raise RefusedError("a house rule is refused; nothing was started", fields)
    return base


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
    """The game as the person may see it: nothing here comes from another seat's view."""
    match, person = table.match, table.person
    rules = match.rules
    player = match.current_player
    chance = player == CHANCE
    moves = (
        [rules.format_move(move) for move in match.legal_moves]
        if (chance or (player is not None and player == person))
        else []
    )
    _extend_log(table)
    refusal = _undo_refusal(table)
    seen = match.view(person)
    hints, move_hints = _hints(rules, seen) if moves and not chance else ([], {})
    return {
        "name": rules.name,
        "title": rules.title,
        "seed": match.seed if match.is_over else None,
        "seat": person,
        "seats": [_seat_label(choice) for choice in table.seats],
        "table": rules.display(seen),
        "board": _board(table, seen),
        "guide": {
            "rules": list(rules.rules_summary(match.config)),
            "notation": list(rules.notation_summary(match.config)),
        },
        "hints": hints,
        "move_hints": move_hints,
        "to_move": _to_move(table, player),
        "bot_turn": player in table.bots,
        "chance": chance,
        "moves": moves[:MOVE_BUTTONS],
        "more_moves": max(0, len(moves) - MOVE_BUTTONS),
        "log": table.log,
        "over": match.is_over,
        "result": _result(table) if match.is_over else None,
        "score": list(match.score),
        "can_undo": refusal is None,
        "undo_refusal": refusal,
    }


def _hints(rules: Ruleset[Any, Any, Any], seen: Any) -> tuple[list[str], dict[str, str]]:
    """What the person's moves would do now, read off the person's own view: lines for
    the page, and a note for a move's button by its notation. Dice poker tells what each
    open box would score, palace the ranks that go on the pile, the account game where
    each marker would land; another game gives its guide's ``hint`` lines.
    """
    if isinstance(seen, dp.View):
        return _dice_poker_hints(rules, seen)
    if isinstance(seen, palace.View):
        return _palace_hints(seen), {}
    if isinstance(seen, account.View):
        return _account_hints(rules, seen)
    return list(rules.hint(seen)), {}


def _dice_poker_hints(
    rules: Ruleset[Any, Any, Any], seen: dp.View
) -> tuple[list[str], dict[str, str]]:
    points = open_box_points(seen)
    if not points:
        return [], {}
    legal = set(seen.legal_moves)
    notes: dict[str, str] = {}
    scores: list[str] = []
    unfit: list[str] = []
    for box, value in points.items():
        if value is not None and (write := dp.Write(box)) in legal:
            notes[rules.format_move(write)] = f"scores {value}"
            scores.append(f"{box} {value}")
        if (scratch := dp.Scratch(box)) in legal:
            notes[rules.format_move(scratch)] = (
                "0: the dice do not fit" if value is None else f"0 instead of {value}"
            )
            if value is None:
                unfit.append(str(box))
    dice = " ".join(map(str, seen.dice))
    lines = [f"With {dice} the boxes you may write now would score: {', '.join(scores)}."]
    if not scores:
        lines = [f"With {dice} no box may be written now."]
    if unfit:
        lines.append(f"The dice fit none of {', '.join(unfit)}: those only scratched, for 0.")
    return lines, notes


_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


def _rank_names(ranks: Iterable[int]) -> str:
    return " ".join(_RANK_NAMES.get(rank, str(rank)) for rank in ranks)


def _palace_hints(seen: palace.View) -> list[str]:
    ranks = playable_ranks(seen)
    if not ranks:
        return []
    lines = [f"Ranks that go on the pile now: {_rank_names(ranks)}."]
    yours = {move.cards[0].rank for move in seen.legal_moves if isinstance(move, palace.Play)}
    if yours:
        lines.append(f"Of them you can lay: {_rank_names(sorted(yours))}.")
    return lines


def _account_hints(
    rules: Ruleset[Any, Any, Any], seen: account.View
) -> tuple[list[str], dict[str, str]]:
    found = account_table.landings(seen)
    if not found:
        return [], {}
    legal = set(seen.legal_moves)
    notes: dict[str, str] = {}
    for landing in found:
        move = account.Advance(landing.marker, landing.direction, landing.steps)
        if move not in legal:
            continue
        if landing.ends:
            effect = "the game ends"
        elif landing.after is None:
            effect = "the account pays what B draws"
        else:
            effect = f"account {landing.before} → {landing.after}"
        notes[rules.format_move(move)] = (
            f"lands on {landing.card} (column {landing.column}): {effect}"
        )
    return [f"You rolled {seen.roll}; your account is {found[0].before}."], notes


# --- the table drawn: structured, from the person's view only -----------------------------

_RANK_WORDS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_PILE_DRAWN = 5
"""The pile's cards drawn, from the top: the rest are counted."""


def _board(table: Table, seen: Any) -> Answer | None:
    """The table as structured data for the page to draw, read off the person's view
    (``seen``) and the events of the last move as the person's seat sees them. Every
    clickable thing carries the notation of the move it makes, or the page composes the
    text from selections listed here as legal; the page itself knows no rules. ``None``
    for a game the page has no drawing for: it shows the text display alone.
    """
    last = _last_events(table)
    if isinstance(seen, palace.View):
        return _palace_board(seen)
    if isinstance(seen, dp.View):
        return _dice_poker_board(table.match.rules, seen, last)
    if isinstance(seen, account.View):
        return _account_board(table.match.rules, seen, last)
    return None


def _last_events(table: Table) -> list[Any]:
    """The last move's events, each redacted for the person's seat."""
    match = table.match
    if not match.move_events:
        return []
    return [match.rules.redact(event, table.person) for event in match.move_events[-1]]


def _name(seen: Any, seat: int) -> str:
    return "You" if seat == seen.seat else f"P{seat}"


def _card_face(card: palace.Card) -> Answer:
    rank = palace.cards.RANK_TEXT[card.rank]
    return {
        "text": str(card),
        "rank": rank,
        "suit": card.suit,
        "symbol": _SUIT_SYMBOLS[card.suit],
        "label": f"{_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}",
    }


def _palace_board(seen: palace.View) -> Answer:
    """Palace: every seat's face-up row over its face-down backs, its hand (the person's
    cards, the others' counted) and its known cards; the pile's top cards, the stock and
    the burned cards counted. The person's plays are listed per rank, each with the
    hand (or face-up) places it lays, so the page selects cards and composes no text.
    """
    notation = palace.RULES.format_move
    legal = seen.legal_moves
    words = {type(move): notation(move) for move in legal}
    source = "hand" if seen.hand else "face_up"
    mine = seen.seat
    row = seen.face_up[mine] if mine is not None else ()
    plays: dict[str, list[Answer]] = {}
    for move in legal:
        if isinstance(move, palace.Play):
            places = _places(move.cards, seen.hand if source == "hand" else row)
            entry = {"count": len(move.cards), "move": notation(move), "places": places}
            plays.setdefault(palace.cards.RANK_TEXT[move.rank], []).append(entry)
    swaps = [
        {
            "hand": seen.hand.index(move.hand_card),
            "up": row.index(move.face_up_card),
            "move": notation(move),
        }
        for move in legal
        if isinstance(move, palace.Swap)
    ]
    blind = {move.slot: notation(move) for move in legal if isinstance(move, palace.PlayBlind)}
    seats = [
        {
            "seat": seat,
            "name": _name(seen, seat),
            "you": seat == mine,
            "on_turn": seat == seen.current_player,
            "finished": seat in seen.finished,
            "hand_size": seen.hand_sizes[seat],
            "face_up": [None if card is None else _card_face(card) for card in seen.face_up[seat]],
            "face_down": [
                {"present": present, "move": blind.get(slot) if seat == mine else None}
                for slot, present in enumerate(seen.face_down[seat])
            ],
            "known": [_card_face(card) for card in seen.known[seat]],
        }
        for seat in range(seen.config.players)
    ]
    actions = [
        {"move": words[kind], "label": label}
        for kind, label in (
            (palace.Ready, "Ready: start playing"),
            (palace.TakePile, "Take the pile"),
            (palace.EndTurn, "End the turn"),
        )
        if kind in words
    ]
    return {
        "game": "palace",
        "phase": seen.phase,
        "seats": seats,
        "hand": [_card_face(card) for card in seen.hand],
        "play_from": source,
        "plays": plays,
        "swaps": swaps,
        "swaps_made": seen.swaps,
        "pile": {
            "size": len(seen.pile),
            "top": [_card_face(card) for card in seen.pile[-_PILE_DRAWN:]],
            "take": words.get(palace.TakePile),
        },
        "stock": seen.stock_size,
        "burned": len(seen.burned),
        "actions": actions,
    }


def _places(cards: tuple[palace.Card, ...], among: Iterable[palace.Card | None]) -> list[int]:
    """Where ``cards`` lie in ``among`` (a hand or a face-up row), equal cards at their
    first free places.
    """
    places: list[int] = []
    spots = list(among)
    for card in cards:
        place = next(i for i, spot in enumerate(spots) if spot == card and i not in places)
        places.append(place)
    return sorted(places)


_BOX_LABELS = {
    dp.Box.TWO_PAIRS: "two pairs",
    dp.Box.THREE_KIND: "three of a kind",
    dp.Box.FOUR_KIND: "four of a kind",
    dp.Box.FULL_HOUSE: "full house",
    dp.Box.SMALL_STRAIGHT: "small straight",
    dp.Box.LARGE_STRAIGHT: "large straight",
}


def _dice_poker_board(rules: Ruleset[Any, Any, Any], seen: dp.View, last: list[Any]) -> Answer:
    """Dice poker: the dice (those the last throw rolled marked, for the page to
    tumble), the throws and fences, and the score sheet as rows of boxes by columns of
    seat and stage. A box the person may fill carries its moves (write, scratch,
    announce), a hint: what writing it would score now, and while throws are left the
    coach's line: the keep best for that box, its exact chance and expected points. The
    throws the person may make are listed by the faces they keep, so the page composes
    no text.
    """
    notation = rules.format_move
    config = seen.config
    on_turn = seen.seat == seen.current_player
    points = open_box_points(seen) if on_turn else {}
    thinking = on_turn and bool(seen.dice) and seen.pending_keep is None
    coached = coach_lines(seen) if thinking else {}
    rolls: dict[str, str] = {}
    cell_moves: dict[dp.Box, list[Answer]] = {}
    for move in seen.legal_moves:
        if isinstance(move, dp.Roll):
            rolls[" ".join(map(str, move.keep))] = notation(move)
            continue
        if not isinstance(move, (dp.Write, dp.Scratch, dp.Announce)):
            continue
        box = move.box
        name = _BOX_LABELS.get(box, str(box))
        value = points.get(box)
        if isinstance(move, dp.Write):
            kind, text, label = "write", f"{value:+d}" if value else "0", f"write {name}"
            label += f" for {value} points"
        elif isinstance(move, dp.Scratch):
            kind, text, label = "scratch", "✕", f"scratch {name} for 0 points"
        else:
            kind, text, label = "announce", "call", f"announce {name}"
        cell_moves.setdefault(box, []).append(
            {"move": notation(move), "kind": kind, "text": text, "label": label}
        )
    thrown = next((event for event in last if isinstance(event, dp.Rolled)), None)
    kept = list(thrown.kept) if thrown is not None else list(seen.dice)
    dice = []
    for face in seen.dice:
        stayed = face in kept
        if stayed:
            kept.remove(face)
        dice.append({"face": face, "rolled": not stayed})
    columns: list[Answer] = [
        {
            "seat": seat,
            "stage": stage,
            "label": f"{_name(seen, seat)} s{stage + 1}",
            "current": seat == seen.current_player and stage == seen.stage,
        }
        for seat in range(config.players)
        for stage in range(config.stages)
    ]
    mine, announced = seen.seat, seen.announced
    rows = []
    for box in dp.Box:
        cells = []
        for column in columns:
            seat, stage = column["seat"], column["stage"]
            value = seen.sheets[seat][BOXES_PER_STAGE * stage + box]
            cell: Answer = {"value": value}
            if seat == mine and stage == seen.stage and box in cell_moves:
                cell["moves"] = cell_moves[box]
                found = points.get(box, "absent")
                if found is None:
                    cell["hint"] = "the dice do not fit: scratch for 0"
                elif found != "absent":
                    cell["hint"] = f"scores {found}"
                if box in coached:
                    cell["coach"] = coached[box]
            cells.append(cell)
        label = _BOX_LABELS.get(box, str(box))
        section = "mountain" if box.is_mountain else "poker"
        rows.append({"box": str(box), "label": label, "section": section, "cells": cells})
    return {
        "game": "dice-poker",
        "dice": dice,
        "just_thrown": thrown is not None,
        "in_air": seen.pending_keep is not None,
        "throws_used": seen.throws_used,
        "throws_allowed": seen.throws_allowed,
        "announced": None if announced is None else _BOX_LABELS.get(announced, str(announced)),
        "rolls": rolls,
        "columns": columns,
        "rows": rows,
        "sums": _dice_poker_sums(seen, columns),
        "seats": [
            {
                "seat": seat,
                "name": _name(seen, seat),
                "score": seen.scores[seat],
                "fences": seen.fences[seat],
                "on_turn": seat == seen.current_player,
            }
            for seat in range(config.players)
        ],
        "fences": config.fences,
    }


def _dice_poker_sums(seen: dp.View, columns: list[Answer]) -> list[Answer]:
    config = seen.config
    mountain, premium, total = [], [], []
    for column in columns:
        sheet = seen.sheets[column["seat"]]
        base = BOXES_PER_STAGE * column["stage"]
        cells = [cell for cell in sheet[base : base + len(MOUNTAIN)] if cell is not None]
        full = len(cells) == len(MOUNTAIN)
        mountain.append(str(sum(cells)) if cells else "")
        bonus = dp.scoring.stage_bonus(sum(cells), config.premium, config.penalty)
        premium.append(str(bonus) if full else "")
        total.append(str(dp.state.stage_total(config, sheet, column["stage"])))
    return [
        {"label": "mountain", "cells": mountain},
        {"label": "premium", "cells": premium},
        {"label": "total", "cells": total},
    ]


def _account_board(rules: Ruleset[Any, Any, Any], seen: account.View, last: list[Any]) -> Answer:
    """The account game: the field's columns (bottom card first) with the markers on the
    bottom line, each column with the moves that click on it (place, buy, and after a
    roll each landing there with what it would do); the accounts, the die, the pack.
    The path of a marker that just moved is given for the page to step it along.
    """
    notation = rules.format_move
    legal = seen.legal_moves
    by_column: dict[int, dict[str, Any]] = {}
    for move in legal:
        if isinstance(move, (account.Place, account.Buy)):
            kind = "place" if isinstance(move, account.Place) else "buy"
            by_column.setdefault(move.column, {})[kind] = notation(move)
    landings: dict[int, list[Answer]] = {}
    for landing in account_table.landings(seen):
        move = account.Advance(landing.marker, landing.direction, landing.steps)
        if move not in legal:
            continue
        if landing.ends:
            effect = "ends the game"
        elif landing.after is None:
            effect = "pays what B draws"
        else:
            effect = f"account {landing.before} → {landing.after}"
        arrow = "←" if landing.direction == "left" else "→"
        landings.setdefault(landing.column, []).append(
            {
                "move": notation(move),
                "marker": landing.marker,
                "text": f"m{landing.marker} {arrow} {landing.steps}",
                "effect": effect,
                "label": f"move m{landing.marker} {landing.direction} {landing.steps} to "
                f"{landing.card}: {effect}",
            }
        )
    markers: dict[int, list[Answer]] = {}
    for seat, owned in enumerate(seen.markers):
        for marker, column in enumerate(owned):
            markers.setdefault(column, []).append(
                {
                    "seat": seat,
                    "marker": marker,
                    "key": f"{seat}-{marker}",
                    "text": f"P{seat} m{marker}" if seat != seen.seat else f"m{marker}",
                    "you": seat == seen.seat,
                    "moved": seat == seen.on_turn and marker in seen.moved,
                }
            )
    columns = [
        {
            "column": column,
            "cards": [str(card) for card in cards],
            "markers": markers.get(column, []),
            "landings": landings.get(column, []),
            **by_column.get(column, {}),
        }
        for column, cards in enumerate(seen.field)
    ]
    moved = next((event for event in last if isinstance(event, account.Moved)), None)
    path = None
    if moved is not None:
        path = {
            "key": f"{moved.seat}-{moved.marker}",
            "columns": [moved.start, *moved.passed, moved.landed],
        }
    rolled = next((event for event in last if isinstance(event, account.Rolled)), None)
    words = {type(move): notation(move) for move in legal}
    roll = words.get(account.Roll)
    actions = [] if roll is None else [{"move": roll, "label": "Roll the die"}]
    return {
        "game": "account",
        "rows": seen.config.rows,
        "columns": columns,
        "seats": [
            {
                "seat": seat,
                "name": _name(seen, seat),
                "account": seen.accounts[seat],
                "markers": len(seen.markers[seat]),
                "on_turn": seat == seen.on_turn and seen.current_player is not None,
            }
            for seat in range(seen.config.players)
        ],
        "roll": seen.roll,
        "rolled": rolled is not None,
        "path": path,
        "pack": seen.pack_size,
        "discard": len(seen.discard),
        "actions": actions,
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


def _result(table: Table) -> str:
    match = table.match
    winners = sorted(match.winners)
    scores = ", ".join(f"P{seat} {score}" for seat, score in enumerate(match.score))
    if not winners:
        return f"Game over: no winner. Scores: {scores}."
    if table.person in winners:
        who = "You win" if len(winners) == 1 else "You share the win"
    else:
        who = "Winner " + ", ".join(f"P{seat}" for seat in winners)
    return f"Game over. {who}. Scores: {scores}."


def _extend_log(table: Table) -> None:
    """One log entry per move not yet logged: who moved, the move, and its events told
    in the game's own sentences as the person's seat sees them (``describe`` redacts
    each event for that seat first, so a sentence never names a card the seat may not
    see).
    """
    match = table.match
    rules = match.rules
    history, moves, move_events = match.history, match.moves, match.move_events
    for index in range(len(table.log), len(moves)):
        player = rules.current_player(history[index])
        events = move_events[index]
        table.log.append(
            {
                "number": index + 1,
                "who": "chance" if player == CHANCE else _who(table, player),
                "move": rules.format_move(moves[index]),
                "events": [rules.describe(event, table.person) for event in events],
            }
        )


def _who(table: Table, player: int | None) -> str:
    return PERSON if player == table.person else f"P{player}"
