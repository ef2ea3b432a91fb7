"""What one seat (or a spectator) may know of a game, and the score sheet drawn from it."""

from __future__ import annotations

import attrs

from .._seats import check_seat, top_seats
from .._slots import maker
from .._validation import Fail
from ..protocol import Seat
from ..rng import Rng
from .moves import BOXES_PER_STAGE, MOUNTAIN, Box
from .rules import current_player, legal_moves
from .scoring import stage_bonus
from .state import State, View, check_invariants, fewest_throws, open_mask, sheet_total, stage_total

__all__: list[str] = []

_make_view = maker(View)
_TABLE = ("config", "sheets", "fences", "dice", "throws_used", "announced", "pending_keep")
"""The fields a view copies from its state and :func:`determinize` copies back."""


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    to_move = current_player(state)
    over = state.turns_played == state.config.turns_per_game
    return _make_view(
        **{name: getattr(state, name) for name in _TABLE},
        seat=seat,
        current_player=to_move,
        stage=state.stage,
        throws_allowed=0 if over else state.throws_allowed,
        scores=state.totals,
        winners=top_seats(state.totals) if over else frozenset(),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )


def check_view(seen: View, fail: Fail) -> None:
    """Call ``fail`` unless ``seen`` is what :func:`view` gives of a state the rules can
    reach: its table keeps every invariant, and what it derives follows from it.
    """
    boxes = seen.config.boxes_per_player
    for seat, sheet in enumerate(seen.sheets):
        if len(sheet) != boxes:
            fail(f"seat {seat}'s sheet has {len(sheet)} boxes, not {boxes}")
    try:
        check_seat(seen.seat, seen.config.players)
    except ValueError as error:
        fail(str(error))
    table = determinize(seen, Rng.from_seed(0))
    check_invariants(table, fail)
    if view(table, seen.seat) != seen:
        fail(
            "its scores, stage, throws allowed, winners or legal moves do not follow from its table"
        )


def determinize(seen: View, rng: Rng) -> State:
    """The table ``seen`` shows, with a fresh seed drawn from ``rng`` and a generator as far
    past it as the throws made require: dice poker hides only the generator (the
    :doc:`/tutorial` samples one).
    """
    seed, _ = rng.next_u64()
    table = State(
        **{name: getattr(seen, name) for name in _TABLE},
        seed=seed,
        rng=Rng.from_seed(seed),
        open_masks=tuple(open_mask(sheet) for sheet in seen.sheets),
        totals=tuple(sheet_total(seen.config, sheet) for sheet in seen.sheets),
        turns_played=sum(cell is not None for sheet in seen.sheets for cell in sheet),
    )
    if seen.config.auto_chance:
        table = attrs.evolve(table, rng=table.rng.advanced(max(fewest_throws(table), 0)))
    return table


def display(game: View | State) -> str:
    """Every seat's score sheet as a plain-text table: a row per box, then each stage's mountain
    sum, premium and total, a column per seat and stage; the fences, the scores and who moves
    (the :doc:`/tutorial` draws one). A state is drawn as a spectator sees it.
    """
    seen = view(game, None) if isinstance(game, State) else game
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
            *("" if cell is None else str(cell) for cell in cells),  # an open box is blank
            str(sum(mountain)) if mountain else "",
            str(bonus) if len(mountain) == len(MOUNTAIN) else "",
            str(stage_total(config, seen.sheets[seat], stage)),
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
