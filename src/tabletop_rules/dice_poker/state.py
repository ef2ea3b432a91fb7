"""A dice poker game at one moment, a seat's view of it, and what follows from a sheet
(its open boxes, its mountain, its points, the throws it took).
"""

from __future__ import annotations

from typing import NoReturn

import attrs

from .._validation import refuse_state
from ..protocol import Seat
from ..rng import Rng
from .config import Config
from .moves import BOXES_PER_STAGE, MOUNTAIN, Box, Face, Move
from .scoring import stage_bonus

__all__ = ["FORMAT_VERSION", "Cell", "Sheet", "State", "View"]

Cell = int | None
"""A box on the sheet: the points written in it, or ``None`` while it is open."""

Sheet = tuple[Cell, ...]
"""One player's boxes, stage by stage: cell ``15 * stage + box``."""

FORMAT_VERSION = 2
"""The version of dice poker's JSON layout: 2 since states leave out their derived fields."""


@attrs.frozen
class State:
    """A dice poker game at one moment: build one with :func:`new_game`, advance it with
    :func:`apply`. ``open_masks`` (each seat's open boxes of its stage, bit ``box``) and
    ``totals`` (its score) are derived from ``sheets`` and kept for speed; ``pending_keep``
    holds the dice a throw kept while its outcome is awaited (``auto_chance=False``).
    """

    config: Config
    seed: int
    rng: Rng
    sheets: tuple[Sheet, ...]
    open_masks: tuple[int, ...]
    totals: tuple[int, ...]
    fences: tuple[int, ...]
    turns_played: int = 0
    dice: tuple[Face, ...] = ()
    throws_used: int = 0
    announced: Box | None = None
    pending_keep: tuple[Face, ...] | None = None

    @property
    def seat(self) -> int:
        """The seat whose turn it is (seat 0 again once the game is over)."""
        return self.turns_played % self.config.players

    @property
    def stage(self) -> int:
        """The stage, 0-based, that the seat on turn is filling."""
        return min(
            self.turns_played // self.config.players // BOXES_PER_STAGE, self.config.stages - 1
        )

    @property
    def throws_allowed(self) -> int:
        """Throws this turn allows: ``throws_per_turn`` plus the fences the seat may spend."""
        return self.config.throws_allowed(self.fences[self.seat])

    def cell(self, seat: Seat, stage: int, box: Box) -> Cell:
        """What ``seat`` wrote in ``box`` of ``stage`` (``None`` while open)."""
        return self.sheets[seat][BOXES_PER_STAGE * stage + box]

    def open_boxes(self, seat: Seat, stage: int) -> tuple[Box, ...]:
        """The boxes of ``stage`` that ``seat`` has not filled yet, in sheet order."""
        return tuple(box for box in Box if self.cell(seat, stage, box) is None)


def open_mask(sheet: Sheet) -> int:
    """Bit mask (bit ``box``) of the open boxes in the stage a sheet is filling."""
    filled = sum(cell is not None for cell in sheet)
    base = BOXES_PER_STAGE * min(filled // BOXES_PER_STAGE, len(sheet) // BOXES_PER_STAGE - 1)
    cells = sheet[base : base + BOXES_PER_STAGE]  # none for a sheet too short: check_state says
    return sum(1 << box for box, cell in enumerate(cells) if cell is None)


def mountain_total(sheet: Sheet, stage: int) -> int | None:
    """The sum of a stage's six mountain boxes once all are filled; ``None`` before."""
    base = BOXES_PER_STAGE * stage
    cells = [cell for cell in sheet[base : base + len(MOUNTAIN)] if cell is not None]
    return sum(cells) if len(cells) == len(MOUNTAIN) else None


def stage_total(config: Config, sheet: Sheet, stage: int) -> int:
    """Points of one stage: its boxes, plus the premium or penalty once its mountain is full."""
    base = BOXES_PER_STAGE * stage
    total = sum(filter(None, sheet[base : base + BOXES_PER_STAGE]))  # open boxes are None
    mountain = mountain_total(sheet, stage)
    if mountain is not None:
        total += stage_bonus(mountain, config.premium, config.penalty)
    return total


def sheet_total(config: Config, sheet: Sheet) -> int:
    """A sheet's points: every stage's :func:`stage_total`."""
    stages = range(len(sheet) // BOXES_PER_STAGE)
    return sum(stage_total(config, sheet, stage) for stage in stages)


def thrown_boxes(sheet: Sheet) -> int:
    """The filled boxes of ``sheet`` that needed a throw: every mountain box, every nonzero
    poker box (a poker box holding 0 may have been scratched before the first throw).
    """
    return sum(
        cell is not None and (index % BOXES_PER_STAGE < len(MOUNTAIN) or cell != 0)
        for index, cell in enumerate(sheet)
    )


def fewest_throws(state: State) -> int:
    """The fewest throws ``state``'s game can have made, all seats and turns together."""
    config = state.config
    exact = config.fences and config.max_fences is None  # the bank counts every throw
    return state.throws_used + sum(
        config.throws_per_turn * sum(cell is not None for cell in sheet) - bank
        if exact
        else thrown_boxes(sheet)
        for sheet, bank in zip(state.sheets, state.fences, strict=True)
    )


@attrs.frozen
class View:
    """A seat's knowledge of the game: the table as everyone sees it, without the seed and
    the generator (which predicts every throw), and what follows from it: ``scores``,
    ``winners`` once over, ``throws_allowed`` (0 once over) and the seat's ``legal_moves``
    (empty unless it is on turn). ``seat`` is ``None`` for a spectator.
    """

    seat: Seat | None
    config: Config
    current_player: int | None
    sheets: tuple[Sheet, ...]
    fences: tuple[int, ...]
    stage: int
    dice: tuple[Face, ...]
    throws_used: int
    throws_allowed: int
    announced: Box | None
    pending_keep: tuple[Face, ...] | None
    scores: tuple[int, ...]
    winners: frozenset[Seat]
    legal_moves: tuple[Move, ...]


def refuse(value: object) -> NoReturn:
    """The ``TypeError`` for ``value``, no dice poker State (a view is told what to pass)."""
    refuse_state(value, game="a dice poker", state_type=State, view_type=View)
