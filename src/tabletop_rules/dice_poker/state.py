"""A dice poker game at one moment, a seat's view of it, their invariants, and their JSON form
(which leaves out the derived ``open_masks`` and ``totals``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
from cattrs.gen import make_dict_unstructure_fn, override

from .._validation import Fail
from ..protocol import Seat
from ..rng import SEED_BITS, Rng, is_valid_state
from .config import Config
from .moves import BOXES_PER_STAGE, DICE_COUNT, MOUNTAIN, Box, Face, Move
from .scoring import possible_points, stage_bonus

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


def _thrown(sheet: Sheet) -> int:
    """The cells that needed a throw: every mountain box, every nonzero poker box."""
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
        else _thrown(sheet)
        for sheet, bank in zip(state.sheets, state.fences, strict=True)
    )


def check_invariants(state: State, fail: Fail) -> None:
    """Call ``fail(why)`` unless the rules can reach ``state``: besides the fields' shapes, the
    stage orders, the fences its sheet can have banked, and a generator between the fewest
    throws made and twice the most draws past the seed's (:meth:`Rng.below
    <tabletop_rules.rng.Rng.below>` redraws with probability under ``2 ** -51.4``, so a
    state reached by play fails with probability below ``3.4e-16``).
    """
    if not is_valid_state(state.seed):
        fail(f"seed must be in [0, 2**{SEED_BITS}), got {state.seed!r}")
    if not isinstance(state.rng, Rng) or not is_valid_state(state.rng.state):
        fail(f"rng must hold a state in [0, 2**{SEED_BITS}), got {state.rng!r}")
    config = state.config
    players = config.players
    if len(state.sheets) != players or len(state.fences) != players:
        fail(f"{players} players need {players} sheets and fence banks")
    boxes = config.boxes_per_player
    if not 0 <= state.turns_played <= config.turns_per_game:
        fail(f"turns_played must be 0 to {config.turns_per_game}, got {state.turns_played}")
    rounds, seat = divmod(state.turns_played, players)  # seat: the seat on turn
    possible = possible_points(config.box_scores)
    most_throws = state.throws_used
    for player, (sheet, bank) in enumerate(zip(state.sheets, state.fences, strict=True)):
        if len(sheet) != boxes:
            fail(f"seat {player}'s sheet has {len(sheet)} boxes, not {boxes}")
        filled = sum(cell is not None for cell in sheet)
        expected = rounds + (player < seat)
        if filled != expected:
            fail(
                f"seat {player} has filled {filled} boxes after {state.turns_played} turns; "
                f"one box is filled per turn, so {expected}"
            )
        for index, cell in enumerate(sheet):
            box = Box(index % BOXES_PER_STAGE)
            if cell is not None and cell not in possible[box]:
                fail(f"{box.name} cannot hold {cell!r}: no throw scores that there")
        for stage in range(config.stages):
            base = stage * BOXES_PER_STAGE
            cells = sheet[base : base + BOXES_PER_STAGE]
            stage_filled = min(max(filled - base, 0), BOXES_PER_STAGE)
            if sum(cell is not None for cell in cells) != stage_filled:
                fail(f"seat {player} filled stage {stage + 1} out of sequence")
            _check_order(config.stage_order(stage), cells, player, stage, fail)
        if not isinstance(bank, int) or bank < 0:
            fail(f"seat {player}'s fences must be a whole number >= 0, got {bank!r}")
        if config.max_fences is not None and bank > config.max_fences:
            fail(f"seat {player} has {bank} fences, over the cap max_fences={config.max_fences}")
        if not config.fences and bank:
            fail(f"seat {player} has {bank} fences but fences are off")
        thrown = _thrown(sheet)
        most_banked = config.throws_per_turn * filled - thrown
        if bank > most_banked:
            fail(
                f"seat {player} has {bank} fences but its sheet allows at most {most_banked}: "
                f"{filled - thrown} poker boxes hold 0 (if scratched before throwing, each "
                f"banked {config.throws_per_turn}) and {thrown} boxes needed a throw (each "
                f"banked at most throws_per_turn - 1 = {config.throws_per_turn - 1})"
            )
        most_throws += config.throws_per_turn * filled - bank
        if len(state.open_masks) != players or state.open_masks[player] != open_mask(sheet):
            fail(f"seat {player}'s open_masks entry does not match its sheet")
        if len(state.totals) != players or state.totals[player] != sheet_total(config, sheet):
            fail(f"seat {player}'s totals entry does not match its sheet")
    _check_turn(state, fail)
    _check_generator(state, fewest_throws(state), most_throws, fail)


def _check_turn(state: State, fail: Fail) -> None:
    """The dice, the throws and the announcement of the turn in progress."""
    config = state.config
    if any(not isinstance(face, int) or not 1 <= face <= 6 for face in state.dice):
        fail(f"dice must show 1 to 6, got {state.dice}")
    if state.dice != tuple(sorted(state.dice)) or len(state.dice) not in (0, DICE_COUNT):
        fail(f"dice must be empty or five sorted faces, got {state.dice}")
    over = state.turns_played == config.turns_per_game
    if over and (state.dice or state.throws_used or state.pending_keep is not None):
        fail("the game is over but a turn is in progress")
    allowed = state.throws_allowed if not over else 0
    if not 0 <= state.throws_used <= allowed:
        fail(
            f"throws_used must be 0 to {allowed} (throws_per_turn + fences), "
            f"got {state.throws_used}"
        )
    pending = state.pending_keep
    if pending is not None:
        if config.auto_chance:
            fail("a throw awaits its dice, but auto_chance is on")
        if state.throws_used == 0 or len(pending) >= DICE_COUNT:
            fail(f"pending_keep {pending} is not what a throw can keep")
        if any(not 1 <= face <= 6 for face in pending) or pending != tuple(sorted(pending)):
            fail(f"pending_keep must be sorted faces 1 to 6, got {pending}")
        if bool(state.dice) != (state.throws_used > 1):
            fail(
                "while a throw is in the air the table shows the throw before it: no dice "
                "after throw 1, five dice after later throws"
            )
        if state.throws_used == 1 and pending:
            fail(f"pending_keep {pending}: the first throw of a turn rolls all five dice")
        if state.dice and Counter(pending) - Counter(state.dice):
            fail(f"pending_keep {pending} keeps dice that are not on the table {state.dice}")
    elif bool(state.dice) != bool(state.throws_used):
        fail("dice are on the table exactly when the turn has thrown")
    order = config.stage_order(state.stage)
    if state.announced is not None:
        if order != "announce":
            fail(f"a box was announced in {order!r} order")
        if state.cell(state.seat, state.stage, state.announced) is not None:
            fail(f"the announced box {state.announced.name} is filled already")
        if not state.dice:
            fail("a box was announced before the first throw landed")
    elif order == "announce" and state.throws_used >= 2:
        fail("in announce order a box must be announced after the first throw")


def _check_order(order: str, cells: Sheet, player: int, stage: int, fail: Fail) -> None:
    """A stage played ``down`` has a prefix of its boxes filled, one played ``up`` a suffix."""
    if order not in ("down", "up"):
        return
    boxes = list(Box) if order == "down" else list(reversed(Box))
    first_open = next((box for box in boxes if cells[box] is None), None)
    if first_open is None:
        return
    later = boxes[boxes.index(first_open) + 1 :]
    filled_early = next((box for box in later if cells[box] is not None), None)
    if filled_early is not None:
        fail(
            f"seat {player} filled {filled_early.name} of stage {stage + 1} before "
            f"{first_open.name}, but stage {stage + 1} is played {order!r}"
        )


def _check_generator(state: State, fewest: int, most: int, fail: Fail) -> None:
    """The generator is the seed's, moved by one draw or a little more per throw made."""
    seeded = Rng.from_seed(state.seed)
    if not state.config.auto_chance:
        if state.rng != seeded:
            fail(
                f"with auto_chance off the dice are given as moves and the generator never "
                f"draws, so it must be the seed's, Rng(state={state.seed}), not {state.rng!r}"
            )
        return
    if state.turns_played == 0 and state.throws_used == 0 and state.rng != seeded:
        fail(
            f"no throw has been made yet, so the generator must be the seed's, "
            f"Rng(state={state.seed}), not {state.rng!r}"
        )
    draws = state.rng.draws_since(state.seed)
    if draws < fewest:
        fail(
            f"the generator is {draws} draws past the seed's, but the game has made at least "
            f"{fewest} throws and each throw draws at least once"
        )
    if draws > 2 * most:
        fail(
            f"the generator is {draws} draws past the seed's, more than twice the {most} "
            f"throws the game can have made (a draw is rejected with probability under 2**-51)"
        )


def json_hooks(converter: Any) -> None:
    """Register on the shared converter a ``State`` without ``open_masks`` and ``totals``."""
    omit = override(omit=True)
    unstructure = make_dict_unstructure_fn(State, converter, open_masks=omit, totals=omit)
    structure_base = converter.get_structure_hook(State)

    def structure(value: Any, kind: type[State]) -> State:
        if isinstance(value, dict) and not value.keys() & {"open_masks", "totals"}:
            state: State = structure_base({**value, "open_masks": (), "totals": ()}, kind)
            masks = tuple(open_mask(sheet) for sheet in state.sheets)
            totals = tuple(sheet_total(state.config, sheet) for sheet in state.sheets)
            return attrs.evolve(state, open_masks=masks, totals=totals)
        return structure_base(value, kind)  # type: ignore[no-any-return]

    converter.register_unstructure_hook(State, unstructure)
    converter.register_structure_hook(State, structure)


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
