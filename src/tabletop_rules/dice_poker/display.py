"""The score sheet as plain text, for terminals and logs.

:func:`~tabletop_rules.dice_poker.display` draws every seat's sheet from a
:class:`~tabletop_rules.dice_poker.View` (what a front end holds) or a
:class:`~tabletop_rules.dice_poker.State`: one row per box, named as in the notation, then
each stage's mountain sum, premium and total; one column per seat and stage. Open boxes are
blank; a scratched box shows the 0 it scores.

>>> from tabletop_rules import dice_poker as dp
>>> state = dp.new_game(dp.Config(stages=1), seed=1)
>>> state = dp.apply(dp.apply(state, dp.Roll()), dp.Write(dp.Box.CHANCE))
>>> state = dp.apply(state, dp.Scratch(dp.Box.POKER))
>>> print(display(state))
box            | P0 s1 | P1 s1
---------------+-------+------
ones           |       |
twos           |       |
threes         |       |
fours          |       |
fives          |       |
sixes          |       |
pair           |       |
two_pairs      |       |
three_kind     |       |
four_kind      |       |
full_house     |       |
small_straight |       |
large_straight |       |
poker          |       |     0
chance         |    15 |
---------------+-------+------
mountain       |       |
premium        |       |
total          |    15 |     0
---------------+-------+------
fences         |     2 |     3
score          |    15 |     0
to move: P0, stage 1, throw 0 of 5
"""

from __future__ import annotations

from ..validation import check_type
from .moves import BOXES_PER_STAGE, MOUNTAIN, Box
from .scoring import stage_bonus
from .state import Cell, State, View, stage_total
from .view import view

__all__: list[str] = []


def display(game: View | State) -> str:
    """Every seat's score sheet as a plain-text table, with fences, scores and who moves.

    Args:
        game: A view (any seat's, or a spectator's), or a state, drawn as a spectator
            sees it.

    Returns:
        Lines without trailing spaces, joined by newlines; no final newline.

    """
    seen = view(game, None) if type(game) is State else check_type(game, (State, View))
    config = seen.config
    columns = [(seat, stage) for seat in range(config.players) for stage in range(config.stages)]
    header = ["box", *(f"P{seat} s{stage + 1}" for seat, stage in columns)]
    body = [[str(box)] for box in Box] + [["mountain"], ["premium"], ["total"]]
    for seat, stage in columns:
        base = BOXES_PER_STAGE * stage
        cells = seen.sheets[seat][base : base + BOXES_PER_STAGE]
        mountain = [cell for cell in cells[: len(MOUNTAIN)] if cell is not None]
        bonus = stage_bonus(sum(mountain), config.premium, config.penalty)
        column = [
            *map(_cell, cells),
            _cell(sum(mountain) if mountain else None),
            _cell(bonus if len(mountain) == len(MOUNTAIN) else None),
            str(stage_total(config, seen.sheets[seat], stage)),
        ]
        for row, text in zip(body, column, strict=True):
            row.append(text)
    footer = [
        ["fences", *_per_seat(seen.fences, config.stages)],
        ["score", *_per_seat(seen.scores, config.stages)],
    ]
    boxes, sums = body[:BOXES_PER_STAGE], body[BOXES_PER_STAGE:]
    table = _render([header, None, *boxes, None, *sums, None, *footer])
    return "\n".join([*table, _status(seen)])


def _cell(cell: Cell) -> str:
    """A box as written: its points, or blank while it is open."""
    return "" if cell is None else str(cell)


def _per_seat(values: tuple[int, ...], stages: int) -> list[str]:
    """One value per seat, under the seat's first stage column."""
    return [text for value in values for text in (str(value), *[""] * (stages - 1))]


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
    status = (
        f"to move: P{player}, stage {seen.stage + 1}, "
        f"throw {seen.throws_used} of {seen.throws_allowed}"
    )
    if seen.dice:
        status += f", dice {' '.join(map(str, seen.dice))}"
    if seen.announced is not None:
        status += f", announced {seen.announced}"
    return status
