"""The rules of dice poker: the turn, the stage orders, the fences and the end.

A turn is ``Roll()`` (or scratching a poker box at once), then after each throw writing or
scratching a box, or throwing again while throws remain. ``legal_moves`` and the
transition look up the tables built at import.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from fractions import Fraction
from typing import NoReturn

from .._seats import top_seats
from .._slots import replacer
from .._validation import refuse_state
from ..errors import IllegalMoveError
from ..protocol import CHANCE, Seat
from ..rng import Rng
from .config import Config, Deal
from .events import (
    Announced,
    Event,
    FencesChanged,
    GameOver,
    MountainScored,
    Rolled,
    Scratched,
    Wrote,
)
from .moves import (
    BOXES_PER_STAGE,
    DICE_COUNT,
    MOVE_TABLE,
    POKER_BOXES,
    Announce,
    Box,
    Dice,
    Face,
    Move,
    Roll,
    Scratch,
    Write,
)
from .notation import format_move
from .scoring import (
    FITS,
    KEEPS,
    NEEDS,
    OUTCOMES,
    PROBABILITIES,
    THROW_TABLES,
    score_table,
    stage_bonus,
)
from .state import State, View, mountain_total

__all__: list[str] = []

_own = MOVE_TABLE.own
ROLL_ALL = _own(Roll())
_WRITE = tuple(_own(Write(box)) for box in Box)
_SCRATCH = {box: _own(Scratch(box)) for box in POKER_BOXES}
_ANNOUNCE = tuple(_own(Announce(box)) for box in Box)
_POKER_MASK = sum(1 << box for box in POKER_BOXES)
_ALL_BOXES = (1 << BOXES_PER_STAGE) - 1
_KEEP_ROLLS = {dice: tuple(_own(Roll(keep)) for keep in keeps) for dice, keeps in KEEPS.items()}
_KEEP_SETS = {dice: frozenset(keeps) for dice, keeps in KEEPS.items()}
_NO_PROBABILITIES: Mapping[Move, Fraction] = types.MappingProxyType({})
_fills_by_mask: dict[int, tuple[Write | Scratch, ...]] = {}
_replace = replacer(State)


def _fills(writes: int, scratches: int) -> tuple[Write | Scratch, ...]:
    """The writes of the boxes in mask ``writes``, then the scratches of ``scratches``."""
    key = writes | scratches << BOXES_PER_STAGE
    moves = _fills_by_mask.get(key)
    if moves is None:
        moves = _fills_by_mask[key] = (
            *(_WRITE[box] for box in Box if writes >> box & 1),
            *(_SCRATCH[box] for box in POKER_BOXES if scratches >> box & 1),
        )
    return moves


def new_game(config: Config, seed: int, deal: Deal) -> State:
    """A new game: empty sheets, no fences, seat 0 to throw (``seed=None``: a fresh seed,
    kept in the state so that the game replays).
    """
    empty: tuple[None, ...] = (None,) * config.boxes_per_player
    return State(
        config=config,
        seed=seed,
        rng=Rng.from_seed(seed),
        sheets=(empty,) * config.players,
        open_masks=(_ALL_BOXES,) * config.players,
        totals=(0,) * config.players,
        fences=(0,) * config.players,
    )


def is_over(state: State) -> bool:
    """Whether every player has filled every box."""
    if type(state) is not State:
        _refuse(state)
    return state.turns_played == state.config.turns_per_game


def current_player(state: State) -> Seat | None:
    """The seat on turn, ``CHANCE`` while a throw awaits its dice, ``None`` once over."""
    if state.pending_keep is not None:
        return CHANCE
    if state.turns_played == state.config.turns_per_game:
        return None
    return state.turns_played % state.config.players


def score(state: State) -> tuple[int, ...]:
    """Each seat's points: every box written plus each complete mountain's premium or penalty."""
    return state.totals


def max_moves(config: Config) -> int:
    """Per turn every throw (and its outcome), an announcement and the box, plus every
    fence a player can bank, spent.
    """
    turns = config.players * config.boxes_per_player
    fences = turns * config.throws_per_turn if config.fences else 0
    per_throw = 1 if config.auto_chance else 2
    return turns * (config.throws_per_turn * per_throw + 2) + fences * per_throw


def _fillable(order: str, open_mask: int) -> int:
    """The open boxes of ``open_mask`` that the stage order lets the player fill now."""
    if order == "down":
        return open_mask & -open_mask
    if order == "up":
        return 1 << (open_mask.bit_length() - 1) if open_mask else 0
    return open_mask


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move in action-number order: rolls, writes, scratches, announcements;
    at a chance point every distinct outcome of the dice in the air.
    """
    pending = state.pending_keep
    if pending is not None:
        return OUTCOMES[DICE_COUNT - len(pending)]
    config = state.config
    players = config.players
    turns = state.turns_played
    if turns == config.turns_per_game:
        return ()
    seat = turns % players
    stage = turns // players // BOXES_PER_STAGE
    order = config.orders_by_stage[stage]
    fillable = _fillable(order, state.open_masks[seat])
    dice = state.dice
    if not dice:
        return (ROLL_ALL, *_fills(0, fillable & _POKER_MASK))
    if order == "announce":
        if state.announced is None:
            return tuple(_ANNOUNCE[box] for box in Box if fillable >> box & 1)
        fillable = 1 << state.announced
    fills = _fills(fillable & FITS[dice], fillable & _POKER_MASK)
    if state.throws_used < config.throws_allowed(state.fences[seat]):
        return _KEEP_ROLLS[dice] + fills
    return fills


def chance_probabilities(state: State) -> Mapping[Move, Fraction]:
    """Each outcome of the dice in the air with its exact probability (several dice are
    not equally likely); empty but at a chance point.
    """
    pending = state.pending_keep
    if pending is None:
        return _NO_PROBABILITIES
    return PROBABILITIES[DICE_COUNT - len(pending)]


def apply(state: State, move: Move) -> State:
    """The state after ``move``; ``IllegalMoveError`` naming the rule that forbids it."""
    if type(state) is not State:
        _refuse(state)
    return transition(state, move, None)


def _refuse(state: object) -> NoReturn:
    """The ``TypeError`` for what is no State (a View is told what to pass)."""
    refuse_state(state, game="a dice poker", state_type=State, view_type=View)


def why_illegal(state: State, move: Move) -> str:
    """The rule that forbids ``move`` in ``state``, as :func:`transition` words it."""
    try:
        transition(state, move, None)
    except IllegalMoveError as error:
        return str(error)
    raise AssertionError(f"transition accepted {move!r}, which legal_moves does not list")


def transition(state: State, move: Move, events: list[Event] | None) -> State:
    """The kernel's transition; a move not legal raises the error :func:`why_illegal` reads."""
    move = MOVE_TABLE.known(move)  # the listed instance, or why it is no move
    if state.pending_keep is not None:
        if not isinstance(move, Dice):
            raise IllegalMoveError(
                f"the dice are in the air: the next move is their outcome ('dice' and the "
                f"faces thrown), not '{format_move(move)}'"
            )
        return _land(state, move.values, events)
    config = state.config
    players = config.players
    turns = state.turns_played
    if turns == config.turns_per_game:
        raise IllegalMoveError(
            f"the game is over: every box is filled; '{format_move(move)}' is not a move"
        )
    seat = turns % players
    stage = turns // players // BOXES_PER_STAGE
    order = config.orders_by_stage[stage]
    if isinstance(move, Roll):
        return _roll(state, move.keep, seat, order, events)
    if isinstance(move, Dice):
        raise IllegalMoveError(
            f"'{format_move(move)}' is a chance outcome, legal only while dice are in the air"
        )
    box = move.box
    if isinstance(move, Announce) and order != "announce":
        raise IllegalMoveError(
            f"'{format_move(move)}' is played only in 'announce' order; stage {stage} is "
            f"played {order!r}"
        )
    open_mask = state.open_masks[seat]
    if not open_mask >> box & 1:
        raise IllegalMoveError(
            f"{box.name} of stage {stage} is filled already; each box is filled once"
        )
    if order == "down" or order == "up":
        _check_order(order, open_mask, box, stage)
    if isinstance(move, Announce):
        return _announce(state, box, seat, events)
    if order == "announce" and state.dice:
        _check_announced(state, box)
    if isinstance(move, Write):
        return _write(state, box, seat, stage, events)
    return _scratch(state, box, seat, stage, events)


def _check_order(order: str, open_mask: int, box: Box, stage: int) -> None:
    """A stage in ``down`` or ``up`` order fills its next box only."""
    if _fillable(order, open_mask) >> box & 1:
        return
    next_box = Box(_fillable(order, open_mask).bit_length() - 1)
    raise IllegalMoveError(
        f"stage {stage} is played {order!r}: only its next box, {next_box.name}, "
        f"may be filled, not {box.name}"
    )


def _check_announced(state: State, box: Box) -> None:
    """In ``announce`` order, after the first throw the turn ends in the announced box."""
    if state.announced is None:
        raise IllegalMoveError(
            "in 'announce' order the first throw is followed by announcing a box ('announce' "
            "and the box), before anything else"
        )
    if box is not state.announced:
        raise IllegalMoveError(
            f"this turn announced {state.announced.name}: it may only end in that box, "
            f"not {box.name}"
        )


def _roll(
    state: State, keep: tuple[Face, ...], seat: Seat, order: str, events: list[Event] | None
) -> State:
    """Throw the dice not kept; the throw counts now, its dice land now or at the chance point."""
    config = state.config
    throws_used = state.throws_used
    allowed = config.throws_allowed(state.fences[seat])
    if throws_used >= allowed:
        raise IllegalMoveError(
            f"no throws left: this turn allows {allowed} (throws_per_turn "
            f"{config.throws_per_turn} plus fences); write or scratch a box"
        )
    dice = state.dice
    if not dice:
        if keep:
            raise IllegalMoveError(
                f"the first throw of a turn rolls all five dice: it is 'roll', keeping "
                f"nothing, not '{format_move(Roll(keep))}'"
            )
    else:
        if order == "announce" and state.announced is None:
            raise IllegalMoveError(
                "in 'announce' order the first throw is followed by announcing a box "
                "('announce' and the box), not another throw"
            )
        if keep not in _KEEP_SETS[dice]:
            if len(keep) == DICE_COUNT:
                raise IllegalMoveError("keeping all five dice is not a throw: re-roll at least one")
            if len(keep) > DICE_COUNT:
                raise IllegalMoveError(
                    f"a throw keeps at most four of the five dice, not {len(keep)}"
                )
            raise IllegalMoveError(f"cannot keep {list(keep)}: the dice show {list(dice)}")
    if not config.auto_chance:
        return _replace(state, throws_used=throws_used + 1, pending_keep=keep)
    count, throws = THROW_TABLES[DICE_COUNT - len(keep)]
    number, rng = state.rng.below(count)
    thrown = throws[number]
    landed = tuple(sorted(keep + thrown)) if keep else thrown
    if events is not None:
        events.append(Rolled(seat, throws_used + 1, keep, thrown, landed))
    return _replace(state, rng=rng, dice=landed, throws_used=throws_used + 1)


def _land(state: State, thrown: tuple[Face, ...], events: list[Event] | None) -> State:
    """The chance outcome: the thrown dice join the kept ones on the table."""
    keep = state.pending_keep
    assert keep is not None
    if len(thrown) != DICE_COUNT - len(keep):  # its faces are 1 to 6: it is a known move
        raise IllegalMoveError(
            f"{DICE_COUNT - len(keep)} dice are in the air: their outcome is 'dice' and that "
            f"many faces 1 to 6, not '{format_move(Dice(thrown))}'"
        )
    dice = tuple(sorted(keep + thrown))
    if events is not None:
        seat = state.turns_played % state.config.players
        events.append(Rolled(seat, state.throws_used, keep, tuple(sorted(thrown)), dice))
    return _replace(state, dice=dice, pending_keep=None)


def _announce(state: State, box: Box, seat: Seat, events: list[Event] | None) -> State:
    """In ``announce`` order the first throw is followed by naming an open box."""
    if state.throws_used != 1 or state.announced is not None:
        raise IllegalMoveError("a box is announced once per turn, right after the first throw")
    if events is not None:
        events.append(Announced(seat, box))
    return _replace(state, announced=box)


def _write(state: State, box: Box, seat: Seat, stage: int, events: list[Event] | None) -> State:
    """Write the dice in ``box``: a poker box only when they fit it complete."""
    dice = state.dice
    if not dice:
        raise IllegalMoveError(
            "a box is written after a throw; before the first one only 'roll' or scratching a "
            "poker box is allowed"
        )
    if not FITS[dice] >> box & 1:
        raise IllegalMoveError(f"{box.name} needs {NEEDS[box]}; the dice show {list(dice)}")
    scored = score_table(state.config.box_scores)[dice][box]
    if events is not None:
        events.append(Wrote(seat, stage, box, scored))
    return _end_turn(state, box, scored, seat, stage, events)


def _scratch(state: State, box: Box, seat: Seat, stage: int, events: list[Event] | None) -> State:
    """Scratch a poker box: 0 points, before the first throw or after any throw."""
    if not box.is_poker:
        raise IllegalMoveError(
            f"{box.name} is a mountain box: mountain boxes cannot be scratched, they are written"
        )
    if events is not None:
        events.append(Scratched(seat, stage, box))
    return _end_turn(state, box, 0, seat, stage, events)


def _end_turn(
    state: State, box: Box, points: int, seat: Seat, stage: int, events: list[Event] | None
) -> State:
    """Fill the box, settle the fences, and pass the dice to the next seat."""
    config = state.config
    index = BOXES_PER_STAGE * stage + box
    sheet = state.sheets[seat]
    sheet = (*sheet[:index], points, *sheet[index + 1 :])
    sheets = (*state.sheets[:seat], sheet, *state.sheets[seat + 1 :])
    fences = state.fences
    if config.fences:
        bank = fences[seat]
        kept, lost = config.settle_fences(bank, state.throws_used)
        if kept != bank:
            fences = (*fences[:seat], kept, *fences[seat + 1 :])
        if events is not None:
            events.append(FencesChanged(seat, kept - bank, kept, lost))
    open_mask = state.open_masks[seat] & ~(1 << box)
    if not open_mask and stage + 1 < config.stages:
        open_mask = _ALL_BOXES  # the next stage opens
    open_masks = (*state.open_masks[:seat], open_mask, *state.open_masks[seat + 1 :])
    total = state.totals[seat] + points
    mountain = mountain_total(sheet, stage) if box.is_mountain else None
    if mountain is not None:  # this box completed the stage's mountain
        bonus = stage_bonus(mountain, config.premium, config.penalty)
        total += bonus
    totals = (*state.totals[:seat], total, *state.totals[seat + 1 :])
    after = _replace(
        state,
        sheets=sheets,
        open_masks=open_masks,
        totals=totals,
        fences=fences,
        turns_played=state.turns_played + 1,
        dice=(),
        throws_used=0,
        announced=None,
        pending_keep=None,
    )
    if events is not None:
        if mountain is not None:
            events.append(MountainScored(seat, stage, mountain, bonus))
        if after.turns_played == config.turns_per_game:
            events.append(GameOver(after.totals, top_seats(after.totals)))
    return after
