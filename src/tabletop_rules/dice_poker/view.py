"""What one seat (or a spectator) may know of a game.

Dice poker hides nothing from the players, but the generator does predict every future
throw, so a :class:`View` carries neither the RNG nor the seed. Every path out of the
library that a client sees goes through :func:`view`.

>>> from tabletop_rules.dice_poker import new_game
>>> v = view(new_game(seed=5), seat=1)
>>> v.current_player, v.stage, v.throws_allowed, v.scores
(0, 0, 3, (0, 0))
"""

from __future__ import annotations

import attrs

from ..errors import InvalidStateError
from ..messages import short_repr
from ..protocol import Seat
from ..rng import Rng
from .config import Config
from .moves import Box, Face, Move
from .rules import current_player, is_over, legal_moves, score, winners
from .state import Sheet, State, check_table, open_mask

__all__ = ["View", "check_view", "view"]


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


def check_view(seen: View) -> None:
    """Raise :class:`~tabletop_rules.errors.InvalidStateError` unless ``seen`` is what
    :func:`view` gives of some state the rules can reach: loaders of views use it.
    """
    sheets = seen.sheets
    boxes = seen.config.boxes_per_player
    for seat, sheet in enumerate(sheets):
        if len(sheet) != boxes:
            raise InvalidStateError(
                f"invalid dice poker view: seat {seat}'s sheet has {len(sheet)} boxes, not {boxes}"
            )
    try:
        table = State(
            config=seen.config,
            seed=0,
            rng=Rng.from_seed(0),
            sheets=sheets,
            open_masks=tuple(open_mask(sheet) for sheet in sheets),
            fences=seen.fences,
            turns_played=sum(cell is not None for sheet in sheets for cell in sheet),
            dice=seen.dice,
            throws_used=seen.throws_used,
            announced=seen.announced,
            pending_keep=seen.pending_keep,
        )
        check_table(table)  # a view has no generator to check
        again = view(table, seen.seat)
    except (InvalidStateError, TypeError, ValueError, IndexError) as error:
        why = str(error).removeprefix("invalid dice poker state: ")
        raise InvalidStateError(f"invalid dice poker view: {why}") from error
    if again != seen:
        raise InvalidStateError(
            "invalid dice poker view: its scores, stage, throws allowed, winners or legal "
            "moves do not follow from its table"
        )


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.config.players
    ):
        raise ValueError(
            f"seat must be 0 to {state.config.players - 1} or None, got {short_repr(seat)}"
        )
    to_move = current_player(state)
    over = is_over(state)
    return View(
        seat=seat,
        config=state.config,
        current_player=to_move,
        sheets=state.sheets,
        fences=state.fences,
        stage=state.stage,
        dice=state.dice,
        throws_used=state.throws_used,
        throws_allowed=0 if over else state.throws_allowed,
        announced=state.announced,
        pending_keep=state.pending_keep,
        scores=score(state),
        winners=winners(state),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )
