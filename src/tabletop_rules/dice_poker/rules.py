"""The rules of dice poker: the turn, the stage orders, the fences and the end."""

from __future__ import annotations

import types
from collections.abc import Mapping
from fractions import Fraction
from typing import TypeAlias

from .._messages import short_text
from .._seats import top_seats
from .._slots import replacer
from .._validation import check_type
from ..errors import ConfigError, IllegalMoveError
from ..protocol import CHANCE, Seat
from ..rng import Rng
from . import events, moves, scoring
from .config import Config, Deal
from .events import Announced
from .moves import BOXES_PER_STAGE, DICE_COUNT, MOVE_TABLE, Announce, Box, Dice, Move, Roll, Write
from .notation import format_move
from .scoring import FITS, OUTCOMES, PROBABILITIES, THROW_TABLES, score_table, stage_bonus
from .state import State, mountain_total, refuse

__all__: list[str] = []

_own = MOVE_TABLE.own
ROLL_ALL = _own(Roll())
_WRITE = tuple(_own(Write(box)) for box in Box)
_SCRATCH = {box: _own(moves.Scratch(box)) for box in moves.POKER_BOXES}
_ANNOUNCE = tuple(_own(Announce(box)) for box in Box)
_POKER_MASK = sum(1 << box for box in moves.POKER_BOXES)
_ALL_BOXES = (1 << BOXES_PER_STAGE) - 1
_KEEP_ROLLS = {
    dice: tuple(_own(Roll(keep)) for keep in keeps) for dice, keeps in scoring.KEEPS.items()
}
_KEEP_SETS = {dice: frozenset(keeps) for dice, keeps in scoring.KEEPS.items()}
_NO_PROBABILITIES: Mapping[Move, Fraction] = types.MappingProxyType({})
_fills_by_mask: dict[int, tuple[Write | moves.Scratch, ...]] = {}
_replace = replacer(State)
_Log: TypeAlias = list[events.Event] | None
"""Where a transition appends its events (``None``: it makes none)."""


def _fills(writes: int, scratches: int) -> tuple[Write | moves.Scratch, ...]:
    """The writes of the boxes in mask ``writes``, then the scratches of ``scratches``."""
    key = writes | scratches << BOXES_PER_STAGE
    fills = _fills_by_mask.get(key)
    if fills is None:
        fills = _fills_by_mask[key] = (
            *(write for box, write in enumerate(_WRITE) if writes >> box & 1),
            *(scratch for box, scratch in _SCRATCH.items() if scratches >> box & 1),
        )
    return fills


def new_game(config: Config, seed: int, deal: Deal) -> State:
    """A new game: empty sheets, no fences, seat 0 to throw, the seed kept so the game replays."""
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
        refuse(state)
    return state.turns_played == state.config.turns_per_game


def current_player(state: State) -> Seat | None:
    """The seat on turn, ``CHANCE`` while a throw awaits its dice, ``None`` once over."""
    if type(state) is not State:
        refuse(state)
    if state.pending_keep is not None:
        return CHANCE
    if state.turns_played == state.config.turns_per_game:
        return None
    return state.turns_played % state.config.players


def score(state: State) -> tuple[int, ...]:
    """Each seat's points: every box written plus each complete mountain's premium or penalty."""
    if type(state) is not State:
        refuse(state)
    return state.totals


def max_moves(config: Config) -> int:
    """Per turn each throw and outcome, an announcement and the box; each fence banked, spent."""
    check_type(config, (Config,), ConfigError)
    turns = config.players * config.boxes_per_player
    fences = turns * config.throws_per_turn if config.fences else 0
    per_throw = 1 if config.auto_chance else 2
    return turns * (config.throws_per_turn * per_throw + 2) + fences * per_throw


def fillable_boxes(order: str, open_mask: int) -> int:
    """The open boxes of ``open_mask`` (bit ``box``) that a stage played in ``order`` lets
    the player fill now: the lowest for ``down``, the highest for ``up``, every one else.
    """
    if order == "down":
        return open_mask & -open_mask
    if order == "up":
        return 1 << (open_mask.bit_length() - 1) if open_mask else 0
    return open_mask


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal move, in action-number order; at a chance point, each outcome of the throw."""
    if type(state) is not State:
        refuse(state)
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
    fillable = fillable_boxes(order, state.open_masks[seat])
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
    """Each outcome of the throw with its exact probability (not uniform); empty elsewhere."""
    if type(state) is not State:
        refuse(state)
    pending = state.pending_keep
    return _NO_PROBABILITIES if pending is None else PROBABILITIES[DICE_COUNT - len(pending)]


def _quoted(move: Move) -> str:
    """The move's notation for a message, cut short (it may name a hundred thousand faces)."""
    return short_text(format_move(move))


def transition(state: State, move: Move, events: _Log) -> State:
    """The state after ``move``, its events appended to ``events`` (unless ``None``): the one
    legality path. A move equal to a listed one is that move (one dict look-up); any move
    :func:`legal_moves` does not list raises ``IllegalMoveError`` naming the rule it breaks.
    """
    move = MOVE_TABLE.known(move)  # the listed instance, or why it is no move
    if state.pending_keep is not None:
        if not isinstance(move, Dice):
            raise IllegalMoveError(
                f"the dice are in the air: the next move is their outcome ('dice' and the "
                f"faces thrown), not '{_quoted(move)}'"
            )
        return _land(state, move, events)
    config = state.config
    players = config.players
    turns = state.turns_played
    if turns == config.turns_per_game:
        raise IllegalMoveError(
            f"the game is over: every box is filled; '{_quoted(move)}' is not a move"
        )
    seat = turns % players
    stage = turns // players // BOXES_PER_STAGE
    order = config.orders_by_stage[stage]
    if isinstance(move, Roll):
        return _roll(state, move, seat, order, events)
    if isinstance(move, Dice):
        raise IllegalMoveError(
            f"'{_quoted(move)}' is a chance outcome, legal only while dice are in the air"
        )
    box = move.box
    if isinstance(move, Announce) and order != "announce":
        raise IllegalMoveError(
            f"'{_quoted(move)}' is played only in 'announce' order; stage {stage + 1} is "
            f"played {order!r}"
        )
    open_mask = state.open_masks[seat]
    if not open_mask >> box & 1:
        raise IllegalMoveError(
            f"{box.name} of stage {stage + 1} is filled already; each box is filled once"
        )
    if order == "down" or order == "up":  # such a stage fills its next box only
        fillable = fillable_boxes(order, open_mask)
        if not fillable >> box & 1:
            raise IllegalMoveError(
                f"stage {stage + 1} is played {order!r}: only its next box, "
                f"{Box(fillable.bit_length() - 1).name}, may be filled, not {box.name}"
            )
    if isinstance(move, Announce):
        if state.throws_used != 1 or state.announced is not None:
            raise IllegalMoveError("a box is announced once per turn, right after the first throw")
        if events is not None:
            events.append(Announced(seat, box))
        return _replace(state, announced=box)
    if order == "announce" and state.dice:  # after the first throw, the announced box only
        if state.announced is None:
            raise IllegalMoveError(
                "in 'announce' order the first throw is followed by announcing a box "
                "('announce' and the box), before anything else"
            )
        if box is not state.announced:
            raise IllegalMoveError(
                f"this turn announced {state.announced.name}: it may only end in that box, "
                f"not {box.name}"
            )
    return _fill(state, move, seat, stage, events)


def _roll(state: State, move: Roll, seat: Seat, order: str, log: _Log) -> State:
    """Throw the dice not kept; the throw counts now, its dice land now or at the chance point."""
    keep = move.keep
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
                f"nothing, not '{_quoted(move)}'"
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
    if log is not None:
        log.append(events.Rolled(seat, throws_used + 1, keep, thrown, landed))
    return _replace(state, rng=rng, dice=landed, throws_used=throws_used + 1)


def _land(state: State, move: Dice, log: _Log) -> State:
    """The chance outcome: the thrown dice (sorted, as every Dice) join the kept ones."""
    thrown = move.values
    keep = state.pending_keep
    assert keep is not None
    if len(thrown) != DICE_COUNT - len(keep):  # its faces are 1 to 6: it is a known move
        raise IllegalMoveError(
            f"{DICE_COUNT - len(keep)} dice are in the air: their outcome is 'dice' and that "
            f"many faces 1 to 6, not '{_quoted(move)}'"
        )
    dice = tuple(sorted(keep + thrown))
    if log is not None:
        log.append(events.Rolled(state.seat, state.throws_used, keep, thrown, dice))
    return _replace(state, dice=dice, pending_keep=None)


def _fill(state: State, move: Write | moves.Scratch, seat: Seat, stage: int, log: _Log) -> State:
    """Write the dice in a box or scratch a poker box; settle the fences, pass the dice on."""
    config = state.config
    box = move.box
    dice = state.dice
    if type(move) is Write:
        if not dice:
            raise IllegalMoveError(
                "a box is written after a throw; before the first one only 'roll' or "
                "scratching a poker box is allowed"
            )
        if not FITS[dice] >> box & 1:
            raise IllegalMoveError(
                f"{box.name} needs {scoring.NEEDS[box]}; the dice show {list(dice)}"
            )
        points = score_table(config.box_scores)[dice][box]
    elif box.is_poker:
        points = 0
    else:
        raise IllegalMoveError(
            f"{box.name} is a mountain box: mountain boxes cannot be scratched, they are written"
        )
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
    if log is not None:
        if type(move) is Write:
            log.append(events.Wrote(seat, stage, box, points))
        else:
            log.append(events.Scratched(seat, stage, box))
        if config.fences:
            log.append(events.FencesChanged(seat, kept - bank, kept, lost))
        if mountain is not None:
            log.append(events.MountainScored(seat, stage, mountain, bonus))
        if after.turns_played == config.turns_per_game:
            log.append(events.GameOver(after.totals, top_seats(after.totals)))
    return after
