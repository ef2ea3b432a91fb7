"""Helpers for the rule-by-rule dice poker tests: positions built by hand, dice fed in.

Every helper goes through the public API (``apply`` with ``Roll``/``Dice`` outcomes, or a
state checked by ``check_state``), so a position a test starts from is one the rules reach.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Any

import attrs
import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.config import BoxScores
from tabletop_rules.dice_poker.state import Sheet
from tabletop_rules.errors import IllegalMoveError

Dice5 = tuple[int, int, int, int, int]

MOUNTAIN = (dp.Box.ONES, dp.Box.TWOS, dp.Box.THREES, dp.Box.FOURS, dp.Box.FIVES, dp.Box.SIXES)
POKER = (
    dp.Box.PAIR,
    dp.Box.TWO_PAIRS,
    dp.Box.THREE_KIND,
    dp.Box.FOUR_KIND,
    dp.Box.FULL_HOUSE,
    dp.Box.SMALL_STRAIGHT,
    dp.Box.LARGE_STRAIGHT,
    dp.Box.POKER,
    dp.Box.CHANCE,
)
SHEET_ORDER = MOUNTAIN + POKER
"""The fifteen boxes top to bottom, spelled out from the rules page (not from the enum)."""


def manual(**rules: Any) -> dp.Config:
    """A config whose dice are fed by the test: ``auto_chance=False`` plus ``rules``."""
    return dp.Config(auto_chance=False, **rules)


def start(config: dp.Config | None = None, **rules: Any) -> dp.State:
    """A new game with hand-fed dice (``manual(**rules)`` unless ``config`` is given)."""
    return dp.new_game(config if config is not None else manual(**rules), seed=0)


def minus(dice: Iterable[int], keep: Iterable[int]) -> tuple[int, ...]:
    """The dice of ``dice`` not in ``keep`` (as multisets), sorted."""
    rest = Counter(dice)
    rest.subtract(Counter(keep))
    if any(count < 0 for count in rest.values()):
        raise AssertionError(f"cannot keep {tuple(keep)} out of {tuple(dice)}")
    return tuple(sorted(rest.elements()))


def throw(state: dp.State, dice: Sequence[int], keep: Sequence[int] = ()) -> dp.State:
    """Throw keeping ``keep`` so that the table shows ``dice``: Roll(keep), then the outcome."""
    thrown = minus(dice, keep)
    in_air = dp.apply(state, dp.Roll(tuple(keep)))
    assert dp.current_player(in_air) == dp.CHANCE
    landed = dp.apply(in_air, dp.Dice(thrown))
    assert landed.dice == tuple(sorted(dice))
    return landed


def write(state: dp.State, box: dp.Box, dice: Sequence[int] = (1, 2, 3, 4, 6)) -> dp.State:
    """A whole turn: one throw showing ``dice``, then Write(box)."""
    return dp.apply(throw(state, dice), dp.Write(box))


def scratch_at_once(state: dp.State, box: dp.Box) -> dp.State:
    """A whole turn: scratch poker box ``box`` before the first throw."""
    return dp.apply(state, dp.Scratch(box))


def throw_times(state: dp.State, times: int, dice: Sequence[int] = (1, 2, 3, 4, 6)) -> dp.State:
    """``times`` throws in this turn, every one re-rolling the first die shown."""
    state = throw(state, dice)
    for _ in range(times - 1):
        state = throw(state, dice, keep=tuple(sorted(dice))[1:])
    return state


def cell_index(stage: int, box: dp.Box) -> int:
    """The sheet index of ``box`` in ``stage`` (0-based): 15 boxes to a stage."""
    return 15 * stage + SHEET_ORDER.index(box)


def sheet(config: dp.Config, *stages: Mapping[dp.Box, int]) -> Sheet:
    """A sheet whose stage ``i`` has the boxes of ``stages[i]`` filled, the rest open."""
    cells: list[int | None] = [None] * (15 * config.stages)
    for stage, filled in enumerate(stages):
        for box, points in filled.items():
            cells[cell_index(stage, box)] = points
    return tuple(cells)


def position(
    config: dp.Config,
    sheets: Sequence[Sheet],
    fences: Sequence[int] | None = None,
) -> dp.State:
    """A state between turns with the given sheets (and banks), validated by check_state.

    One box is filled per turn, so the turns played are the boxes filled; the seat on turn
    is the next in seat order.
    """
    state = dp.new_game(config, seed=0)
    masks = []
    for cells in sheets:
        filled = sum(cell is not None for cell in cells)
        stage = min(filled // 15, config.stages - 1)
        masks.append(
            sum(
                1 << box
                for index, box in enumerate(SHEET_ORDER)
                if cells[15 * stage + index] is None
            )
        )
    state = attrs.evolve(
        state,
        sheets=tuple(sheets),
        open_masks=tuple(masks),
        totals=tuple(reference_score(config, cells) for cells in sheets),
        fences=tuple(fences) if fences is not None else (0,) * config.players,
        turns_played=sum(cell is not None for cells in sheets for cell in cells),
    )
    dp.check_state(state)
    return state


def full_stage(mountain: int = 0, poker: int = 0) -> dict[dp.Box, int]:
    """Every box of a stage filled: mountain boxes ``mountain`` * face, poker boxes ``poker``."""
    filled = {box: mountain * (index + 1) for index, box in enumerate(MOUNTAIN)}
    filled.update(dict.fromkeys(POKER, poker))
    return filled


def all_but(stage: Mapping[dp.Box, int], *boxes: dp.Box) -> dict[dp.Box, int]:
    """``stage`` with ``boxes`` left open."""
    return {box: points for box, points in stage.items() if box not in boxes}


def assert_illegal(state: dp.State, move: dp.Move, fragment: str) -> None:
    """``apply(state, move)`` raises IllegalMoveError naming ``fragment``; state unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError) as caught:
        dp.apply(state, move)
    assert fragment in str(caught.value), str(caught.value)
    assert move not in dp.legal_moves(state)
    assert state == before


def writes(state: dp.State) -> set[dp.Box]:
    """The boxes a Write is legal for."""
    return {move.box for move in dp.legal_moves(state) if isinstance(move, dp.Write)}


def scratches(state: dp.State) -> set[dp.Box]:
    """The boxes a Scratch is legal for."""
    return {move.box for move in dp.legal_moves(state) if isinstance(move, dp.Scratch)}


def announces(state: dp.State) -> set[dp.Box]:
    """The boxes an Announce is legal for."""
    return {move.box for move in dp.legal_moves(state) if isinstance(move, dp.Announce)}


def rolls(state: dp.State) -> set[dp.Roll]:
    """The legal throws."""
    return {move for move in dp.legal_moves(state) if isinstance(move, dp.Roll)}


def play_out(state: dp.State, choose: Callable[[dp.State], dp.Move]) -> dp.State:
    """Apply ``choose(state)`` until the game is over (at most 10 000 moves)."""
    for _ in range(10_000):
        if dp.is_over(state):
            return state
        state = dp.apply(state, choose(state))
    raise AssertionError("the game did not end")


# --- a reference model, written from the rules page alone --------------------------------


def reference_points(
    box: dp.Box, dice: Sequence[int], fixed: BoxScores | None = None
) -> int | None:
    """What ``dice`` score in ``box`` read literally from the rules page: a mountain box
    ``(count - 3) * face``; a poker box the best subset of the dice that shows what it
    needs; ``None`` when the dice do not fit the poker box.
    """
    fixed = fixed if fixed is not None else BoxScores()
    dice = tuple(sorted(dice))
    if box in MOUNTAIN:
        face = MOUNTAIN.index(box) + 1
        return (dice.count(face) - 3) * face
    if box is dp.Box.CHANCE:
        return sum(dice)
    if box is dp.Box.SMALL_STRAIGHT:
        return fixed.small_straight if dice == (1, 2, 3, 4, 5) else None
    if box is dp.Box.LARGE_STRAIGHT:
        return fixed.large_straight if dice == (2, 3, 4, 5, 6) else None
    if box is dp.Box.POKER:
        return fixed.poker if len(set(dice)) == 1 else None
    if box is dp.Box.FULL_HOUSE:
        return sum(dice) if sorted(Counter(dice).values()) == [2, 3] else None
    best: int | None = None
    size = {dp.Box.PAIR: 2, dp.Box.TWO_PAIRS: 4, dp.Box.THREE_KIND: 3, dp.Box.FOUR_KIND: 4}[box]
    for chosen in combinations(dice, size):
        faces = Counter(chosen)
        if box is dp.Box.TWO_PAIRS:
            shows = len(faces) == 2 and set(faces.values()) == {2}
        else:
            shows = len(faces) == 1
        if shows and (best is None or sum(chosen) > best):
            best = sum(chosen)
    return best


def reference_turn_boxes(state: dp.State) -> list[dp.Box]:
    """The open boxes of the seat on turn that its stage order lets it fill now."""
    config = state.config
    seat = state.turns_played % config.players
    cells = state.sheets[seat]
    stage = sum(cell is not None for cell in cells) // 15
    open_boxes = [box for index, box in enumerate(SHEET_ORDER) if cells[15 * stage + index] is None]
    orders = config.stage_orders
    order = orders[0] if len(orders) == 1 else orders[stage]
    if order == "down":
        return open_boxes[:1]
    if order == "up":
        return open_boxes[-1:]
    return open_boxes


def reference_throws_allowed(config: dp.Config, bank: int) -> int:
    """``throws_per_turn + min(bank, max_fences_per_turn)``; no fences, no extra throws."""
    if not config.fences:
        return config.throws_per_turn
    cap = config.max_fences_per_turn
    return config.throws_per_turn + (bank if cap is None else min(bank, cap))


def reference_legal_moves(state: dp.State) -> set[dp.Move]:
    """The section "What a legal move is" of the rules page, read literally."""
    config = state.config
    if state.pending_keep is not None:
        count = 5 - len(state.pending_keep)
        return {dp.Dice(values) for values in combinations_with_replacement(range(1, 7), count)}
    if state.turns_played == config.players * 15 * config.stages:
        return set()
    boxes = reference_turn_boxes(state)
    seat = state.turns_played % config.players
    cells = state.sheets[seat]
    stage = sum(cell is not None for cell in cells) // 15
    orders = config.stage_orders
    order = orders[0] if len(orders) == 1 else orders[stage]
    moves: set[dp.Move] = set()
    if not state.dice:
        moves.add(dp.Roll())
        moves |= {dp.Scratch(box) for box in boxes if box in POKER}
        return moves
    if order == "announce":
        if state.announced is None:
            moves |= {dp.Announce(box) for box in boxes}
            return moves
        boxes = [state.announced]
    if state.throws_used < reference_throws_allowed(config, state.fences[seat]):
        moves |= {
            dp.Roll(tuple(kept)) for size in range(5) for kept in combinations(state.dice, size)
        }
    moves |= {
        dp.Write(box)
        for box in boxes
        if reference_points(box, state.dice, config.box_scores) is not None
    }
    moves |= {dp.Scratch(box) for box in boxes if box in POKER}
    return moves


def reference_score(config: dp.Config, cells: Sequence[int | None]) -> int:
    """Every box written plus each full mountain's premium (sum > 0) or penalty (sum < 0)."""
    total = 0
    for stage in range(config.stages):
        stage_cells = cells[15 * stage : 15 * stage + 15]
        total += sum(cell for cell in stage_cells if cell is not None)
        mountain = stage_cells[:6]
        if all(cell is not None for cell in mountain):
            mountain_sum = sum(cell for cell in mountain if cell is not None)
            if mountain_sum > 0:
                total += config.premium
            elif mountain_sum < 0:
                total -= config.penalty
    return total
