"""Everything the account game says to a person: the field drawn as text (``display``),
each event in a sentence (``event_text``), the rules and the notation in a few lines, and
hints, what each move open now would do (:doc:`/rules/account`). Columns and markers are
counted from 0 as the field is drawn (``m0 on 3``); cards are written as the rules page
writes them (``+10``, ``-25``, ``B``, ``End``); ``P0`` is a marker or the seat of seat 0,
``.`` a place with no card left. Nothing hidden is drawn or told.

>>> from tabletop_rules.account import RULES, Config
>>> RULES.rules_summary(Config(end="finish_round"))[2][-63:]
'Z: the account is 0; End stops the game once the round is over.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby
from typing import Any

import attrs

from .._words import counted, game_over, who, whose
from ..kit import CHANCE, check_type, short_repr
from ..protocol import Seat
from . import events as ev
from .cards import CHARGE, END, ZERO, Card
from .config import Config
from .events import Event
from .moves import DIRECTIONS, Advance, Buy, Direction, Place, Roll
from .notation import format_move
from .state import State, View
from .view import view

__all__ = ["Landing", "landings"]  # the rest reaches users as the package's RULES members


# --- the field -------------------------------------------------------------------------

_WIDTH = 3
"""Characters per column: the longest card text (``+10``, ``End``) and ``P7`` fit."""

_NO_CARD = "."


def display(game: View | State) -> str:
    """The field as plain text: column numbers, the rows top first, a rule, the bottom line
    and the markers under it, then the accounts, the pack and whose move it is.
    ``TypeError`` for anything else (the old name ``account.field_text`` reaches it directly).
    """
    check_type(game, (State, View))
    seen = view(game, None) if isinstance(game, State) else game
    field = seen.field
    rows = [  # the top row first, the bottom line last
        [column[row] if row < len(column) else _NO_CARD for column in field]
        for row in range(seen.config.rows - 1, -1, -1)
    ]
    lines = [
        _line(range(len(field))),
        *map(_line, rows[:-1]),
        "-" * ((_WIDTH + 1) * len(field) - 1),
        _line(rows[-1]),
        *map(_line, _standing(seen)),
        *_accounts(seen),
        f"pack {seen.pack_size}, discard pile {len(seen.discard)}",
        _status(seen),
    ]
    return "\n".join(lines)


def _line(cells: Iterable[object]) -> str:
    return " ".join(str(cell).rjust(_WIDTH) for cell in cells).rstrip()


def _standing(seen: View) -> list[list[str]]:
    stacks: list[list[str]] = [[] for _ in seen.field]
    for seat, owned in enumerate(seen.markers):
        for column in owned:
            stacks[column].append(f"P{seat}")
    depth = max(map(len, stacks), default=0)
    return [
        [stack[level] if level < len(stack) else "" for stack in stacks] for level in range(depth)
    ]


def _accounts(seen: View) -> list[str]:
    width = max(len(str(account)) for account in seen.accounts)
    lines = []
    for seat, (account, owned) in enumerate(zip(seen.accounts, seen.markers, strict=True)):
        text = f"P{seat}: account {str(account).rjust(width)}, {counted(len(owned), 'marker')}"
        places = ", ".join(f"m{marker} on {column}" for marker, column in enumerate(owned))
        lines.append(f"{text} ({places})" if owned else text)
    return lines


def _status(seen: View) -> str:
    if seen.current_player is None:
        names = ", ".join(f"P{seat}" for seat in sorted(seen.winners))
        return f"game over: {'winners' if len(seen.winners) > 1 else 'winner'} {names}"
    seat = seen.on_turn
    owned = seen.markers[seat]
    if seen.phase == "setup":
        return f"to move: P{seat}, setup, place m{len(owned)}"
    config = seen.config
    when = f"round {seen.rounds + 1} of {config.max_rounds}"
    unmoved = [f"m{marker}" for marker in range(len(owned)) if marker not in seen.moved]
    moved = " ".join(f"m{marker}" for marker in seen.moved)
    if seen.current_player == CHANCE:
        status = f"die in the air: P{seat}, {when}"
    elif seen.roll is not None:
        *rest, last = unmoved  # m0, m0 or m1, m0, m1 or m2
        markers = f"{', '.join(rest)} or {last}" if rest else last
        status = f"to move: P{seat}, {when}, rolled {seen.roll}, move {markers}"
    elif moved:
        status = f"to move: P{seat}, {when}, roll (moved: {moved})"
    elif len(owned) < config.max_markers and seen.accounts[seat] >= config.marker_cost:
        status = f"to move: P{seat}, {when}, buy or roll"
    else:
        status = f"to move: P{seat}, {when}, roll"
    if seen.ending:
        status += ", End has scored: last round"
    return status


# --- events ----------------------------------------------------------------------------


def event_text(event: Event, seat: Seat | None) -> str:
    """``event`` in one sentence for ``seat`` (``None``: a spectator): "You" for the
    reader's own seat, ``P1`` for another; every event is public, so every seat reads the
    same facts.

    >>> from tabletop_rules.account import AccountChanged, Card
    >>> event_text(AccountChanged(0, Card.parse("-15"), 101, 86), 1)
    "P0's account: 101 -> 86 (-15)"
    """
    if type(event) not in ev.EVENT_TYPES:
        raise TypeError(f"{short_repr(event)} is not an account game event")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise TypeError(f"a seat is a whole number from 0 or None, got {short_repr(seat)}")
    if isinstance(event, ev.Moved):
        return (
            f"{whose(event.seat, seat)} marker m{event.marker} moved {event.steps} "
            f"{event.direction} to {event.card} (column {event.landed})"
        )
    if isinstance(event, ev.AccountChanged):
        why = "bought a marker" if event.reason == "buy" else str(event.card)
        return f"{whose(event.seat, seat)} account: {event.before} -> {event.after} ({why})"
    if isinstance(event, ev.Rolled):
        return f"{who(event.seat, seat)} rolled a {event.value}"
    if isinstance(event, ev.TurnPassed):
        return "Your turn" if event.seat == seat else f"P{event.seat}'s turn"
    if isinstance(event, ev.Placed):
        return (
            f"{who(event.seat, seat)} placed marker m{event.marker} on column {event.column} "
            f"({event.card})"
        )
    if isinstance(event, ev.Bought):
        return (
            f"{who(event.seat, seat)} bought marker m{event.marker} for {event.cost} and "
            f"placed it on column {event.column} ({event.card})"
        )
    if isinstance(event, ev.Drew):
        text = f"The B drew {event.card} for {who(event.seat, seat, start=False)}"
        passed = list(event.discarded)
        if event.card in passed:  # the charged card is discarded too
            passed.remove(event.card)
        return f"{text}, after {' '.join(map(str, passed))}" if passed else text
    if isinstance(event, ev.Collapsed):
        return f"Column {event.column} collapsed: its {event.card} went to the discard pile"
    if isinstance(event, ev.Reshuffled):
        return f"The discard pile was shuffled into a new pack of {event.cards} cards"
    if isinstance(event, ev.EndHit):
        stops = "the game stops" if event.immediate else "the game stops once the round is over"
        return f"End scored for {who(event.seat, seat, start=False)}: {stops}"
    assert isinstance(event, ev.GameOver)
    text = game_over(event.winners, seat)  # an End that stopped it was told as it scored
    if event.reason == "max_rounds":
        return text.replace("Game over:", "Game over after the last round:", 1)
    return text


# --- the rules and the notation in a few lines -------------------------------------------


def rules_summary(config: Config) -> tuple[str, ...]:
    """The rules that make the account game what it is, under ``config``."""
    end = "End stops the game" + (" once the round is over" if config.end == "finish_round" else "")
    lines = [
        "Only the bottom line is played, as a ring: past one end you go on from the other; "
        "left is towards column 0.",
        f"A turn: buy markers first if you like ({config.marker_cost} each, at most "
        f"{config.max_markers} in all), then roll once per marker and move each 1 to the "
        "number rolled, left or right.",
        "Cards: +N and -N add and subtract; P +100; T +1000; B draws the pack top and "
        f"subtracts it; Z: the account is 0; {end}.",
        "Only the card a marker stops on scores, not those passed over"
        + ("; accounts never fall below 0." if config.floor_at_zero else "."),
    ]
    if config.collapse:
        lines.append(
            "When the last marker leaves a card, it goes and the cards above it drop a row."
        )
    lines.append(
        f"The highest account wins when End scores or after {counted(config.max_rounds, 'round')}; "
        "markers are m0, m1, ... in the order you got them."
    )
    return tuple(lines)


def notation_summary(config: Config) -> tuple[str, ...]:
    """The notation, a form and its example a line."""
    lines = [
        "place 3: put a starting marker on column 3 (setup)",
        "buy 5: buy a marker, before the turn's first roll, and put it on column 5",
        "roll: roll the die for the next marker",
        "move m0 left 3: move marker m0 three cards left (move 0 left 3 is the same)",
    ]
    if not config.auto_chance:
        lines.append("die 4: at outcome>, the face the die shows")
    return tuple(lines)


# --- hints -----------------------------------------------------------------------------


@attrs.frozen
class Landing:
    """``Advance(marker, direction, steps)`` would stop on ``column``, whose bottom card is
    ``card``, and take the account from ``before`` to ``after``: ``None`` for a B, whose
    charge is the card it will draw. ``ends``: the card is End and stops the game (at
    once, or under ``end="finish_round"`` once the round is over).
    """

    marker: int
    direction: Direction
    steps: int
    column: int
    card: Card
    before: int
    after: int | None
    ends: bool = False


def landings(seen: View) -> tuple[Landing, ...]:
    """Every move the number rolled allows the seat on turn, each a :class:`Landing`, in
    the order ``legal_moves`` lists the moves (by marker, left before right, then by
    distance); empty while no roll waits for its move. Moves are counted on the bottom
    line as it is now: a column with no cards left is skipped.

    >>> from tabletop_rules.account import Config, apply, new_game, parse_move, view
    >>> state = new_game(Config(players=1), seed=6)
    >>> for text in ("place 0", "roll"):
    ...     state = apply(state, parse_move(state, text))
    >>> state.roll, [str(cards[0]) for cards in state.field]
    (2, ['+1', '+15', '+10', '+15', '+25', '-15', 'P'])
    >>> for landing in landings(view(state, 0)):
    ...     print(landing.direction, landing.steps, landing.card, landing.before, landing.after)
    left 1 P 1 101
    left 2 -15 1 -14
    right 1 +15 1 16
    right 2 +10 1 11
    """
    roll, seat = check_type(seen, (View,)).roll, seen.current_player
    if roll is None or seat is None or seat < 0:
        return ()
    ring = tuple(column for column, cards in enumerate(seen.field) if cards)
    before = seen.accounts[seat]
    floor = seen.config.floor_at_zero
    found = []
    for marker, start in enumerate(seen.markers[seat]):
        if marker in seen.moved:
            continue
        at = ring.index(start)
        for direction in DIRECTIONS:
            sign = -1 if direction == "left" else 1
            for steps in range(1, roll + 1):
                column = ring[(at + sign * steps) % len(ring)]
                card = seen.field[column][0]
                after = _after(card, before, floor)
                ends = card is END and not seen.ending
                found.append(Landing(marker, direction, steps, column, card, before, after, ends))
    return tuple(found)


def _after(card: Card, before: int, floor: bool) -> int | None:
    """The account after ``card`` scores, ``None`` for B (the draw decides)."""
    if card is CHARGE:
        return None
    after = before if card is END else 0 if card is ZERO else before + card.points
    return max(after, 0) if floor else after


def hint(seen: View) -> tuple[str, ...]:
    """Where each marker not yet moved would land for the number rolled, and what the
    card there would do to the account.
    """
    found = landings(seen)
    if not found:
        return ("Hints come after a roll: where each marker would land, and what it would do.",)
    before = found[0].before
    lines = [f"Rolled {seen.roll}, account {before}: distance: card landed on -> account after"]
    for (marker, direction), moves in groupby(found, lambda land: (land.marker, land.direction)):
        steps = ", ".join(_landing(landing) for landing in moves)
        lines.append(f"  m{marker} {direction.ljust(5)}  {steps}")
    return tuple(lines)


def _landing(landing: Landing) -> str:
    """``2: -15 -> -14``; a B's charge is its draw, an End ends the game."""
    effect = "game over" if landing.ends else "draws" if landing.after is None else landing.after
    return f"{landing.steps}: {landing.card} -> {effect}"


# --- the table drawn as data, for a graphical front end -----------------------------------


def drawn(seen: View, events: Sequence[Event]) -> dict[str, Any]:
    """The table as data (:meth:`~tabletop_rules.game.Game.drawn`): the field's columns
    (bottom card first) with the markers on the bottom line, each column with the moves
    that click on it (place, buy, and after a roll each landing there with what it would
    do); the accounts, the die, the pack. The path of a marker the last move moved is
    given, for a front end to step it along.

    >>> from tabletop_rules.account import Config, RULES, new_game, view
    >>> board = drawn(view(new_game(Config(players=1), seed=6), 0), ())
    >>> board["columns"][0]["cards"][0], board["columns"][0]["place"], board["actions"]
    ('+1', 'place 0', [])
    """
    legal = seen.legal_moves
    by_column: dict[int, dict[str, Any]] = {}
    for move in legal:
        if isinstance(move, Place | Buy):
            kind = "place" if isinstance(move, Place) else "buy"
            by_column.setdefault(move.column, {})[kind] = format_move(move)
    landed: dict[int, list[dict[str, Any]]] = {}
    for move, landing in _open_landings(seen):
        effect = _effect(landing, "ends the game", "pays what B draws")
        arrow = "←" if landing.direction == "left" else "→"
        landed.setdefault(landing.column, []).append(
            {
                "move": format_move(move),
                "marker": landing.marker,
                "text": f"m{landing.marker} {arrow} {landing.steps}",
                "effect": effect,
                "label": f"move m{landing.marker} {landing.direction} {landing.steps} to "
                f"{landing.card}: {effect}",
            }
        )
    markers: dict[int, list[dict[str, Any]]] = {}
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
            "landings": landed.get(column, []),
            **by_column.get(column, {}),
        }
        for column, cards in enumerate(seen.field)
    ]
    moved = next((event for event in events if isinstance(event, ev.Moved)), None)
    path = None
    if moved is not None:
        path = {
            "key": f"{moved.seat}-{moved.marker}",
            "columns": [moved.start, *moved.passed, moved.landed],
        }
    rolled = any(isinstance(event, ev.Rolled) for event in events)
    roll = next((format_move(move) for move in legal if isinstance(move, Roll)), None)
    return {
        "game": "account",
        "rows": seen.config.rows,
        "columns": columns,
        "seats": [
            {
                "seat": seat,
                "name": who(seat, seen.seat),
                "account": seen.accounts[seat],
                "markers": len(seen.markers[seat]),
                "on_turn": seat == seen.on_turn and seen.current_player is not None,
            }
            for seat in range(seen.config.players)
        ],
        "roll": seen.roll,
        "rolled": rolled,
        "path": path,
        "pack": seen.pack_size,
        "discard": len(seen.discard),
        "actions": [] if roll is None else [{"move": roll, "label": "Roll the die"}],
    }


def _open_landings(seen: View) -> list[tuple[Advance, Landing]]:
    """Each move of a marker the seat may make, with its :class:`Landing`."""
    legal = set(seen.legal_moves)
    moves = [(Advance(land.marker, land.direction, land.steps), land) for land in landings(seen)]
    return [(move, landing) for move, landing in moves if move in legal]


def _effect(landing: Landing, ends: str, draws: str) -> str:
    """What ``landing`` does to the account, in words: ``account 1 → 16``."""
    if landing.ends:
        return ends
    if landing.after is None:
        return draws
    return f"account {landing.before} → {landing.after}"


def move_notes(seen: View) -> dict[str, str]:
    """Where each move of a marker open to the seat would land and what it would do to the
    account, by its notation (:meth:`~tabletop_rules.game.Game.move_notes`).

    >>> from tabletop_rules.account import Config, apply, new_game, parse_move, view
    >>> state = new_game(Config(players=1), seed=6)
    >>> for text in ("place 0", "roll"):
    ...     state = apply(state, parse_move(state, text))
    >>> move_notes(view(state, 0))["move 0 right 1"]
    'lands on +15 (column 1): account 1 → 16'
    """
    if seen.seat is None or seen.seat != seen.current_player:
        return {}
    notes: dict[str, str] = {}
    for move, landing in _open_landings(seen):
        effect = _effect(landing, "the game ends", "the account pays what B draws")
        notes[format_move(move)] = f"lands on {landing.card} (column {landing.column}): {effect}"
    return notes
