"""The state of a dice poker game: every player's sheet and fences, and the turn in progress."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NoReturn

import attrs

from ..protocol import Seat
from ..rng import SEED_BITS, Rng, is_valid_state
from ..validation import Fail, run_checks
from .config import Config
from .moves import BOXES_PER_STAGE, DICE_COUNT, MOUNTAIN, Box, Face, Move
from .scoring import possible_points, stage_bonus

__all__ = [
    "Cell",
    "Sheet",
    "State",
    "View",
    "check_invariants",
    "check_table",
    "mountain_total",
    "open_mask",
    "sheet_total",
    "stage_total",
]

Cell = int | None
"""A box on the sheet: the points written in it, or ``None`` while it is open."""

Sheet = tuple[Cell, ...]
"""One player's boxes, stage by stage: cell ``15 * stage + box``."""


@attrs.frozen
class State:
    """A dice poker game at one moment. Build one with :func:`new_game`; advance it with
    :func:`apply`. Fields may be read freely; the functions of the package interpret them.

    Attributes:
        config: The house rules in force.
        seed: The seed the game was started with; with the moves it replays the game.
        rng: The generator that throws the next dice.
        sheets: Each seat's sheet, ``15 * stages`` cells.
        open_masks: For each seat, the boxes of its current stage still open, as a bit
            mask (bit ``box``); derived from ``sheets`` and kept for speed.
        totals: Each seat's score now (:func:`~tabletop_rules.dice_poker.state.sheet_total`
            of its sheet); derived from ``sheets`` and kept for speed, so that views and
            bots read scores for free.
        fences: Each seat's bank of unused throws.
        turns_played: Turns finished, all seats together; seat ``turns_played % players``
            is on turn.
        dice: The dice on the table, sorted; empty before the turn's first throw.
        throws_used: Throws made this turn.
        announced: In ``announce`` order, the box named this turn.
        pending_keep: With ``auto_chance=False``, the dice kept by a throw whose outcome
            (:class:`~tabletop_rules.dice_poker.Dice`) is awaited; otherwise ``None``.

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
        base = BOXES_PER_STAGE * stage
        cells = self.sheets[seat]
        return tuple(box for box in Box if cells[base + box] is None)


def open_mask(sheet: Sheet) -> int:
    """Bit mask (bit ``box``) of the open boxes in the stage a sheet is filling: the
    derived ``State.open_masks`` entry of its seat.
    """
    filled = sum(cell is not None for cell in sheet)
    stage = min(filled // BOXES_PER_STAGE, len(sheet) // BOXES_PER_STAGE - 1)
    base = BOXES_PER_STAGE * stage
    return sum(1 << box for box in Box if sheet[base + box] is None)


def mountain_total(sheet: Sheet, stage: int) -> int | None:
    """The sum of a stage's six mountain boxes once all are filled; ``None`` before."""
    base = BOXES_PER_STAGE * stage
    total = 0
    for cell in sheet[base : base + len(MOUNTAIN)]:
        if cell is None:
            return None
        total += cell
    return total


def sheet_total(config: Config, sheet: Sheet) -> int:
    """A sheet's points: every box written, plus each complete mountain's premium or
    penalty; the derived ``State.totals`` entry of its seat.
    """
    total = sum(filter(None, sheet))  # open boxes are None; a 0 adds nothing
    for stage in range(len(sheet) // BOXES_PER_STAGE):
        mountain = mountain_total(sheet, stage)
        if mountain is not None:
            total += stage_bonus(mountain, config.premium, config.penalty)
    return total


def stage_total(config: Config, sheet: Sheet, stage: int) -> int:
    """Points of one stage: its boxes, plus the premium or penalty once its mountain is full."""
    base = BOXES_PER_STAGE * stage
    total = sum(cell for cell in sheet[base : base + BOXES_PER_STAGE] if cell is not None)
    mountain = mountain_total(sheet, stage)
    if mountain is not None:
        total += stage_bonus(mountain, config.premium, config.penalty)
    return total


def check_state(state: State) -> None:
    """:func:`check_invariants` as a loader runs it: ``InvalidStateError`` for the first
    invariant ``state`` breaks.
    """
    _validate(state, generator=True)


def check_invariants(state: State, fail: Fail) -> None:
    """Call ``fail(why)`` unless ``state`` is one the rules can reach: the kernel's
    ``check_state`` (:func:`~tabletop_rules.dice_poker.check_state` runs it for every
    loader, never on the hot path).

    Besides the shape of every field, the checks that need an argument are these.

    *Stage orders.* A stage played ``down`` fills its boxes top to bottom, so its filled
    boxes are a prefix of the sheet order; ``up`` fills a suffix. ``free`` and
    ``announce`` allow any set.

    *Fences.* A turn changes its seat's bank by ``throws_per_turn - throws_used`` (less
    what ``max_fences`` cuts off), and nothing else does. The only turn that throws nothing
    is a poker box scratched before the first throw, which leaves 0 in that box; every
    other cell (each mountain box, each nonzero poker box) needed a throw. So a seat with
    ``z`` poker boxes holding 0 and ``w`` other filled boxes banks at most
    ``z * throws_per_turn + w * (throws_per_turn - 1)``, and at most ``max_fences``. The
    bound is tight: play scratching those ``z`` boxes at once and writing each other box
    after one lucky throw reaches it.

    *Throws made.* Over a seat's ``n`` finished turns the bank grew by
    ``n * throws_per_turn`` less the throws used (and less any fences lost over the cap),
    so that seat threw at most ``n * throws_per_turn - bank`` times, exactly that many
    when fences are on and uncapped; and at least ``w`` times, one per cell that needed a
    throw. The turn in progress adds ``throws_used``.

    *The generator.* With ``auto_chance`` off the dice come from outside, the generator
    never draws, and it must be ``Rng.from_seed(seed)``; so must a game with no throw
    made yet. With ``auto_chance`` on, each throw draws once from the generator, or again
    when :meth:`~tabletop_rules.rng.Rng.below` rejects a draw, so the draws from the
    seed's generator to the state's (:meth:`~tabletop_rules.rng.Rng.draws_since`, exact)
    are at least the fewest throws made and at most twice the most. A throw of ``c`` dice
    draws below ``6 ** c`` and rejects a draw with probability ``(2 ** 64 mod 6 ** c) /
    2 ** 64``: ``2 ** -62`` for one die, ``2 ** -60`` for two, about ``2 ** -56.7`` for
    three, ``2 ** -54`` for four and ``6208 / 2 ** 64`` (about ``3.4e-16``, below
    ``2 ** -51.4``) for five, the worst. By a union bound ``m`` throws need ``m + 1``
    rejections or more with probability at most ``C(2m, m - 1) p ** (m + 1) <= p * (4p) ** m
    <= p``, so a state reached by play fails this check with probability below
    ``3.4e-16``.
    """
    fewest, most = _check(state, fail)
    _check_generator(state, fewest, most, fail)


def check_table(state: State) -> None:
    """:func:`~tabletop_rules.dice_poker.check_state` without the checks of the generator
    against the seed: for a state built from what a :class:`~tabletop_rules.dice_poker.View`
    shows, which carries neither (the seed and generator must still be 64-bit values).
    """
    _validate(state, generator=False)


def throws_made(state: State) -> tuple[int, int]:
    """The fewest and the most throws ``state``'s game can have made, all seats and the
    turn in progress together, as :func:`check_state` reckons them from the sheets and
    the banks. ``InvalidStateError`` for a state that breaks an invariant.
    """
    return _validate(state, generator=False)


def _validate(state: State, *, generator: bool) -> tuple[int, int]:
    def check(fail: Fail) -> tuple[int, int]:
        if not isinstance(state, State) or not isinstance(state.config, Config):
            fail("expected a dice poker State with a dice poker Config")
        fewest, most = _check(state, fail)
        if generator:
            _check_generator(state, fewest, most, fail)
        return fewest, most

    return run_checks("dice poker state", check)


def _check(state: State, fail: Callable[[str], NoReturn]) -> tuple[int, int]:
    """Every invariant but the generator's; returns the fewest and the most throws the
    game can have made, for :func:`_check_generator`.
    """
    config = state.config
    players = config.players
    if not is_valid_state(state.seed):
        fail(f"seed must be in [0, 2**{SEED_BITS}), got {state.seed!r}")
    if not isinstance(state.rng, Rng) or not is_valid_state(state.rng.state):
        fail(f"rng must hold a state in [0, 2**{SEED_BITS}), got {state.rng!r}")
    if len(state.sheets) != players or len(state.fences) != players:
        fail(f"{players} players need {players} sheets and fence banks")
    boxes = config.boxes_per_player
    total_turns = players * boxes
    if not 0 <= state.turns_played <= total_turns:
        fail(f"turns_played must be 0 to {total_turns}, got {state.turns_played}")
    rounds, seat = divmod(state.turns_played, players)  # seat: the seat on turn
    possible = possible_points(config.box_scores)
    fewest_throws = most_throws = 0  # throws made in the turns finished, all seats
    for player, sheet in enumerate(state.sheets):
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
            box = index % BOXES_PER_STAGE
            if cell is not None and cell not in possible[box]:
                fail(f"{Box(box).name} cannot hold {cell!r}: no throw scores that there")
        for stage in range(config.stages):
            cells = sheet[stage * BOXES_PER_STAGE : (stage + 1) * BOXES_PER_STAGE]
            stage_filled = sum(cell is not None for cell in cells)
            if stage_filled != min(max(filled - stage * BOXES_PER_STAGE, 0), BOXES_PER_STAGE):
                fail(f"seat {player} filled stage {stage} out of sequence")
            _check_order(config.stage_order(stage), cells, player, stage, fail)
        bank = state.fences[player]
        if not isinstance(bank, int) or bank < 0:
            fail(f"seat {player}'s fences must be a whole number >= 0, got {bank!r}")
        if config.max_fences is not None and bank > config.max_fences:
            fail(f"seat {player} has {bank} fences, over the cap max_fences={config.max_fences}")
        if not config.fences and bank:
            fail(f"seat {player} has {bank} fences but fences are off")
        thrown = sum(
            cell is not None and (Box(index % BOXES_PER_STAGE).is_mountain or cell != 0)
            for index, cell in enumerate(sheet)
        )  # cells that needed a throw: every mountain box, every nonzero poker box
        most_banked = config.throws_per_turn * filled - thrown
        if bank > most_banked:
            fail(
                f"seat {player} has {bank} fences but its sheet allows at most {most_banked}: "
                f"{filled - thrown} poker boxes hold 0 (if scratched before throwing, each "
                f"banked {config.throws_per_turn}) and {thrown} boxes needed a throw (each "
                f"banked at most throws_per_turn - 1 = {config.throws_per_turn - 1})"
            )
        fewest_throws += (
            config.throws_per_turn * filled - bank
            if config.fences and config.max_fences is None
            else thrown
        )
        most_throws += config.throws_per_turn * filled - bank
        if len(state.open_masks) != players or state.open_masks[player] != open_mask(sheet):
            fail(f"seat {player}'s open_masks entry does not match its sheet")
        if len(state.totals) != players or state.totals[player] != sheet_total(config, sheet):
            fail(f"seat {player}'s totals entry does not match its sheet")
    over = state.turns_played == total_turns
    if any(not isinstance(face, int) or not 1 <= face <= 6 for face in state.dice):
        fail(f"dice must show 1 to 6, got {state.dice}")
    if state.dice != tuple(sorted(state.dice)) or len(state.dice) not in (0, DICE_COUNT):
        fail(f"dice must be empty or five sorted faces, got {state.dice}")
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
        if state.sheets[seat][BOXES_PER_STAGE * state.stage + state.announced] is not None:
            fail(f"the announced box {state.announced.name} is filled already")
        if not state.dice:
            fail("a box was announced before the first throw landed")
    elif order == "announce" and state.throws_used >= 2:
        fail("in announce order a box must be announced after the first throw")
    return fewest_throws + state.throws_used, most_throws + state.throws_used


def _check_order(
    order: str, cells: Sheet, player: int, stage: int, fail: Callable[[str], NoReturn]
) -> None:
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
            f"seat {player} filled {filled_early.name} of stage {stage} before "
            f"{first_open.name}, but stage {stage} is played {order!r}"
        )


def _check_generator(state: State, fewest: int, most: int, fail: Callable[[str], NoReturn]) -> None:
    """The generator is the seed's, moved by one draw or a little more per throw made
    (``fewest`` to ``most`` throws); see :func:`check_state`.
    """
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


@attrs.frozen
class View:
    """A seat's knowledge of the game: the table as everyone sees it, without the RNG and
    the seed, plus what follows from it (scores, winners, the seat's legal moves).

    Attributes:
        seat: Whose view this is; ``None`` for a spectator.
        config: The house rules in force.
        current_player: As :func:`~tabletop_rules.dice_poker.current_player`.
        sheets: Every seat's sheet (``None`` for an open box).
        fences: Every seat's bank of fences.
        stage: The stage the seat on turn is filling, 0-based.
        dice: The dice on the table, sorted.
        throws_used: Throws made this turn.
        throws_allowed: Throws this turn allows.
        announced: The box announced this turn, if any.
        pending_keep: The dice kept by a throw whose outcome is awaited, if any.
        scores: Every seat's score now.
        winners: The winning seats, once the game is over.
        legal_moves: The moves open to ``seat`` now (empty when it is not on turn).

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
