"""Everything dice poker says to a person: the score sheet drawn as text, each event in one
sentence, the rules and the notation in a few lines, and the hints for a seat at the table.
Stages are counted from 1, as the score sheet draws them (``P0 s1``); dice by their values,
boxes by their names.

>>> from tabletop_rules.dice_poker import Config, Rolled, describe, RULES
>>> describe(Rolled(2, 2, (3, 3), (2, 5, 6), (2, 3, 3, 5, 6)), 0)
'P2 kept 3 3 and threw 2 5 6: 2 3 3 5 6 (throw 2)'
>>> RULES.rules_summary(Config(fences=False, stage_orders=("down",)))[-1][:42]
'Stage orders: stage 1 down, stage 2 down, '
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._messages import short_repr
from .._validation import check_type
from .._words import counted, game_over, who, whose
from ..protocol import Seat
from . import events as ev
from .coach import advice_lines, coach_lines
from .config import Config
from .events import EVENT_TYPES, Event
from .moves import BOXES_PER_STAGE, MOUNTAIN, Announce, Box, Face, Roll, Scratch, Write
from .notation import format_move
from .scoring import points, stage_bonus
from .state import Sheet, State, View, stage_total
from .view import view

__all__ = ["open_box_points"]


def display(game: View | State) -> str:
    """Every seat's score sheet as a plain-text table: a row per box, then each stage's mountain
    sum, premium and total, a column per seat and stage; the fences, the scores and who moves
    (the :doc:`/tutorial` draws one). A state is drawn as a spectator sees it.
    """
    seen = view(game, None) if isinstance(game, State) else game
    config = seen.config
    columns = [(seat, stage) for seat in range(config.players) for stage in range(config.stages)]
    header = ["box", *(f"P{seat} s{stage + 1}" for seat, stage in columns)]
    body = [[str(box)] for box in Box] + [[label] for label in _SUMS]
    for seat, stage in columns:
        base = BOXES_PER_STAGE * stage
        cells = seen.sheets[seat][base : base + BOXES_PER_STAGE]
        column = [
            *("" if cell is None else str(cell) for cell in cells),  # an open box is blank
            *_stage_sums(config, seen.sheets[seat], stage),
        ]
        for row, text in zip(body, column, strict=True):
            row.append(text)
    footer = [  # one value per seat, under its first stage's column
        [name, *(text for value in values for text in (str(value), *[""] * (config.stages - 1)))]
        for name, values in (("fences", seen.fences), ("score", seen.scores))
    ]
    boxes, sums = body[:BOXES_PER_STAGE], body[BOXES_PER_STAGE:]
    table = _render([header, None, *boxes, None, *sums, None, *footer])
    return "\n".join([*table, _status(seen)])


_SUMS = ("mountain", "premium", "total")


def _stage_sums(config: Config, sheet: Sheet, stage: int) -> tuple[str, str, str]:
    """A stage's mountain sum (blank while its mountain is empty), premium (blank until the
    mountain is full) and total, as the sheet draws them.
    """
    base = BOXES_PER_STAGE * stage
    mountain = [cell for cell in sheet[base : base + len(MOUNTAIN)] if cell is not None]
    bonus = stage_bonus(sum(mountain), config.premium, config.penalty)
    return (
        str(sum(mountain)) if mountain else "",
        str(bonus) if len(mountain) == len(MOUNTAIN) else "",
        str(stage_total(config, sheet, stage)),
    )


def _render(rows: list[list[str] | None]) -> list[str]:
    """Rows as aligned text: the first column left, numbers right; ``None`` draws a rule."""
    cells = [row for row in rows if row is not None]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    lines = []
    for row in rows:
        if row is None:
            lines.append("-+-".join("-" * width for width in widths))
            continue
        parts = [row[0].ljust(widths[0])]
        parts += [text.rjust(width) for text, width in zip(row[1:], widths[1:], strict=True)]
        lines.append(" | ".join(parts).rstrip())
    return lines


def _status(seen: View) -> str:
    """Who moves now, or who won."""
    player = seen.current_player
    if player is None:
        names = ", ".join(f"P{seat}" for seat in sorted(seen.winners))
        return f"game over: {'winners' if len(seen.winners) > 1 else 'winner'} {names}"
    if seen.pending_keep is not None:
        kept = " ".join(map(str, seen.pending_keep)) or "nothing"
        return f"dice in the air (kept: {kept})"
    throw = f"throw {seen.throws_used} of {seen.throws_allowed}"
    status = f"to move: P{player}, stage {seen.stage + 1}, {throw}"
    if seen.dice:
        status += f", dice {' '.join(map(str, seen.dice))}"
    if seen.announced is not None:
        status += f", announced {seen.announced}"
    return status


def box_name(box: Box) -> str:
    """A box as the rules page names it in prose: ``full house``, ``threes``."""
    return _NAMES.get(box) or box.name.lower().replace("_", " ")


_NAMES = {Box.THREE_KIND: "three of a kind", Box.FOUR_KIND: "four of a kind"}


def _dice(values: Sequence[Face]) -> str:
    return " ".join(map(str, values))


def event_text(event: Event, seat: Seat | None) -> str:
    """``event`` in one sentence for ``seat`` (``None``: a spectator): "You" for the
    reader's own seat, ``P1`` for another; every event is public, so every seat reads the
    same facts. ``TypeError`` for what is no dice poker event or no seat.
    """
    if type(event) not in EVENT_TYPES:
        raise TypeError(f"{short_repr(event)} is not a dice poker event")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise TypeError(f"a seat is a whole number from 0 or None, got {short_repr(seat)}")
    if isinstance(event, ev.Rolled):
        return _rolled(event, seat)
    if isinstance(event, ev.Announced):
        return f"{who(event.seat, seat)} announced {box_name(event.box)}"
    if isinstance(event, ev.Wrote):
        box, stage = box_name(event.box), event.stage + 1
        return f"{who(event.seat, seat)} wrote {event.points} in {box} (stage {stage})"
    if isinstance(event, ev.Scratched):
        return f"{who(event.seat, seat)} scratched {box_name(event.box)} (stage {event.stage + 1})"
    if isinstance(event, ev.MountainScored):
        return _mountain(event, seat)
    if isinstance(event, ev.FencesChanged):
        return _fences(event, seat)
    assert isinstance(event, ev.GameOver)
    return game_over(event.winners, seat, event.scores)


def _rolled(event: ev.Rolled, seat: Seat | None) -> str:
    thrown = f"{_dice(event.thrown)} (throw {event.throw})"
    if event.throw == 1:
        return f"{who(event.seat, seat)} threw {thrown}"
    if not event.kept:
        return f"{who(event.seat, seat)} kept nothing and threw {thrown}"
    dice = f"{_dice(event.thrown)}: {_dice(event.dice)} (throw {event.throw})"
    return f"{who(event.seat, seat)} kept {_dice(event.kept)} and threw {dice}"


def _mountain(event: ev.MountainScored, seat: Seat | None) -> str:
    stage, total = event.stage + 1, event.mountain_sum
    sums = f"{whose(event.seat, seat)} mountain of stage {stage} sums to {total}"
    if event.bonus > 0:
        return f"{sums}: premium +{event.bonus}"
    if event.bonus < 0:
        return f"{sums}: penalty {event.bonus}"
    return f"{sums}: no premium, no penalty"


def _fences(event: ev.FencesChanged, seat: Seat | None) -> str:
    change, now = event.change, event.fences
    if change > 0:
        text = f"{who(event.seat, seat)} banked {counted(change, 'fence')}, {now} now"
    elif change < 0:
        text = f"{who(event.seat, seat)} spent {counted(-change, 'fence')}, {now} left"
    else:
        text = f"{whose(event.seat, seat)} fences stay at {now}"
    if event.lost:
        text += f" ({event.lost} lost over the cap)"
    return text


def rules_summary(config: Config) -> tuple[str, ...]:
    """The rules that make dice poker dice poker, under ``config``."""
    lines = [
        f"Each player fills {counted(config.stages, 'stage')} of 15 boxes, one box a turn; a "
        f"turn has {counted(config.throws_per_turn, 'throw')}, each re-rolling the dice you "
        "do not keep.",
        "The mountain (ones to sixes) scores (count - 3) x face: three fours 0, one four -8; "
        "it is never scratched.",
        f"A stage whose six mountain boxes sum above 0 earns +{config.premium}, below 0 "
        f"costs -{config.penalty}.",
        "A poker box (pair to chance) is written only when the dice fit it; else scratch it "
        "for 0, also before the first throw.",
    ]
    if config.fences:
        capped = [
            f"at most {limit} {what}"
            for limit, what in (
                (config.max_fences, "banked"),
                (config.max_fences_per_turn, "spent a turn"),
            )
            if limit is not None
        ]
        lines.append(
            "Fences: throws you do not use are banked and buy extra throws in later turns"
            + (f" ({', '.join(capped)})." if capped else ".")
        )
    orders = config.orders_by_stage
    if any(order != "free" for order in orders):
        named = ", ".join(f"stage {stage + 1} {order}" for stage, order in enumerate(orders))
        lines.append(
            f"Stage orders: {named} (down: the next box from ones; up: from chance; "
            "announce: name the box after the first throw)."
        )
    return tuple(lines)


def notation_summary(config: Config) -> tuple[str, ...]:
    """The notation, a form and its example a line."""
    lines = [
        "roll: throw all five dice; roll keep 6 6 (or roll keep 66): keep those, throw the rest",
        "write full_house: fill a box with the dice (write full house, Write Full-House too)",
        "scratch poker: fill a poker box with 0",
    ]
    if "announce" in config.orders_by_stage:
        lines.append("announce four_kind: name the box this turn ends in (announce order)")
    if not config.auto_chance:
        lines.append("dice 2 5 6: at outcome>, the faces the dice thrown show")
    return tuple(lines)


def hint(seen: View) -> tuple[str, ...]:
    """What each box the seat may fill now would score with the dice on the table, then the
    dice coach's advice while a seat is to throw (:func:`~tabletop_rules.dice_poker.coach.coach`).
    """
    player = seen.current_player
    to_throw = player is not None and player >= 0 and seen.pending_keep is None
    return _box_hint(seen) + (advice_lines(seen) if to_throw else ())


def _box_hint(seen: View) -> tuple[str, ...]:
    points = open_box_points(seen)
    if not points:
        return ("Hints come after a throw: what each open box would score with the dice.",)
    legal = set(seen.legal_moves)
    mine = seen.seat == seen.current_player  # another seat's dice: every open box
    scores, scratched = [], []
    for box, value in points.items():
        if value is not None and (not mine or Write(box) in legal):
            scores.append(f"{box} {value}")
        elif not mine or Scratch(box) in legal:
            scratched.append(str(box))
    dice = " ".join(map(str, seen.dice))
    if not scores and not scratched:
        return (f"With {dice} no box may be filled now.",)
    lines = [f"With {dice} the boxes you may fill now would score:"]
    if scores:
        lines.append("  " + ", ".join(scores))
    if scratched:
        lines.append("  only scratched, for 0: " + ", ".join(scratched))
    return tuple(lines)


def open_box_points(seen: View) -> dict[Box, int | None]:
    """For each open box of the stage the seat on turn is filling, in sheet order, the
    points writing it would score now with the dice on the table; ``None`` for a poker box
    the dice do not fit (it can only be scratched, for 0). Empty while no dice lie on the
    table: before the turn's first throw, while dice are in the air, once the game is over.
    Which boxes the stage order allows now is in ``seen.legal_moves``.

    >>> from tabletop_rules.dice_poker import Box, Roll, apply, new_game, view
    >>> state = apply(new_game(seed=42), Roll())
    >>> state.dice
    (1, 2, 3, 5, 5)
    >>> hints = open_box_points(view(state, 1))
    >>> hints[Box.FIVES], hints[Box.PAIR], hints[Box.FULL_HOUSE], hints[Box.CHANCE]
    (-5, 10, None, 16)
    """
    check_type(seen, (View,))
    seat = seen.current_player
    if seat is None or seat < 0 or seen.pending_keep is not None or not seen.dice:
        return {}
    base = BOXES_PER_STAGE * seen.stage
    sheet = seen.sheets[seat]
    scores = seen.config.box_scores
    return {box: points(box, seen.dice, scores) for box in Box if sheet[base + box] is None}


# --- the table drawn as data, for a graphical front end -----------------------------------


def drawn(seen: View, events: Sequence[Event]) -> dict[str, Any]:
    """The table as data (:meth:`~tabletop_rules.game.Game.drawn`): the dice (those the
    last throw rolled marked, for a front end to tumble), the throws and fences, and the
    score sheet as rows of boxes by columns of seat and stage. A box the seat may fill
    carries its moves (write, scratch, announce), what writing it would score now, and
    while throws are left the coach's line: the keep best for that box, its exact chance
    and expected points. The throws the seat may make are listed by the faces they keep.

    >>> from tabletop_rules.dice_poker import RULES, Roll, apply, new_game, view
    >>> state, events = RULES.apply_with_events(new_game(seed=42), Roll())
    >>> board = drawn(view(state, 0), events)
    >>> [die["face"] for die in board["dice"]], board["rolls"]["5 5"]
    ([1, 2, 3, 5, 5], 'roll keep 5 5')
    >>> board["rows"][4]["cells"][0]["moves"][0]
    {'move': 'write fives', 'kind': 'write', 'text': '-5', 'label': 'write fives for -5 points'}
    """
    config = seen.config
    on_turn = seen.seat == seen.current_player
    points = open_box_points(seen) if on_turn else {}
    thinking = on_turn and bool(seen.dice) and seen.pending_keep is None
    coached = coach_lines(seen) if thinking else {}
    rolls: dict[str, str] = {}
    cell_moves: dict[Box, list[dict[str, Any]]] = {}
    for move in seen.legal_moves:
        if isinstance(move, Roll):
            rolls[_dice(move.keep)] = format_move(move)
            continue
        if not isinstance(move, Write | Scratch | Announce):
            continue
        name = box_name(move.box)
        if isinstance(move, Write):
            value = points.get(move.box)
            kind, text = "write", f"{value:+d}" if value else "0"
            label = f"write {name} for {value} points"
        elif isinstance(move, Scratch):
            kind, text, label = "scratch", "✕", f"scratch {name} for 0 points"
        else:
            kind, text, label = "announce", "call", f"announce {name}"
        cell_moves.setdefault(move.box, []).append(
            {"move": format_move(move), "kind": kind, "text": text, "label": label}
        )
    thrown = next((event for event in events if isinstance(event, ev.Rolled)), None)
    kept = list(thrown.kept) if thrown is not None else list(seen.dice)
    dice = []
    for face in seen.dice:
        stayed = face in kept
        if stayed:
            kept.remove(face)
        dice.append({"face": face, "rolled": not stayed})
    columns: list[dict[str, Any]] = [
        {
            "seat": seat,
            "stage": stage,
            "label": f"{who(seat, seen.seat)} s{stage + 1}",
            "current": seat == seen.current_player and stage == seen.stage,
        }
        for seat in range(config.players)
        for stage in range(config.stages)
    ]
    rows = []
    for box in Box:
        cells = []
        for column in columns:
            seat, stage = column["seat"], column["stage"]
            cell: dict[str, Any] = {"value": seen.sheets[seat][BOXES_PER_STAGE * stage + box]}
            if seat == seen.seat and stage == seen.stage and box in cell_moves:
                cell["moves"] = cell_moves[box]
                if box in points:
                    found = points[box]
                    cell["hint"] = (
                        "the dice do not fit: scratch for 0" if found is None else f"scores {found}"
                    )
                if box in coached:
                    cell["coach"] = coached[box]
            cells.append(cell)
        section = "mountain" if box.is_mountain else "poker"
        rows.append({"box": str(box), "label": box_name(box), "section": section, "cells": cells})
    announced = seen.announced
    return {
        "game": "dice-poker",
        "dice": dice,
        "just_thrown": thrown is not None,
        "in_air": seen.pending_keep is not None,
        "throws_used": seen.throws_used,
        "throws_allowed": seen.throws_allowed,
        "announced": None if announced is None else box_name(announced),
        "rolls": rolls,
        "columns": columns,
        "rows": rows,
        "sums": _sums(seen, columns),
        "seats": [
            {
                "seat": seat,
                "name": who(seat, seen.seat),
                "score": seen.scores[seat],
                "fences": seen.fences[seat],
                "on_turn": seat == seen.current_player,
            }
            for seat in range(config.players)
        ],
        "fences": config.fences,
    }


def _sums(seen: View, columns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mountain sum, premium and total under each column of the sheet, a row each."""
    sums = [_stage_sums(seen.config, seen.sheets[col["seat"]], col["stage"]) for col in columns]
    return [{"label": label, "cells": [row[at] for row in sums]} for at, label in enumerate(_SUMS)]


def move_notes(seen: View) -> dict[str, str]:
    """What each write or scratch open to the seat would score now, by its notation
    (:meth:`~tabletop_rules.game.Game.move_notes`); none before a throw.

    >>> from tabletop_rules.dice_poker import Roll, apply, new_game, view
    >>> notes = move_notes(view(apply(new_game(seed=42), Roll()), 0))
    >>> notes["write pair"], notes["scratch pair"], notes["scratch full_house"]
    ('scores 10', '0 instead of 10', '0: the dice do not fit')
    """
    if seen.seat is None or seen.seat != seen.current_player:
        return {}
    legal = set(seen.legal_moves)
    notes: dict[str, str] = {}
    for box, value in open_box_points(seen).items():
        if value is not None and (write := Write(box)) in legal:
            notes[format_move(write)] = f"scores {value}"
        if (scratch := Scratch(box)) in legal:
            notes[format_move(scratch)] = (
                "0: the dice do not fit" if value is None else f"0 instead of {value}"
            )
    return notes
