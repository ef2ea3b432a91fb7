"""What one seat (or a spectator) may know of a game.

Dice poker hides nothing from the players, but the generator does predict every future
throw, so a :class:`~tabletop_rules.dice_poker.View` carries neither the RNG nor the
seed. Every path out of the library that a client sees goes through
:func:`~tabletop_rules.dice_poker.view`.

>>> from tabletop_rules.dice_poker import new_game
>>> v = view(new_game(seed=5), seat=1)
>>> v.current_player, v.stage, v.throws_allowed, v.scores
(0, 0, 3, (0, 0))
"""

from __future__ import annotations

import attrs

from ..errors import InvalidStateError
from ..protocol import Seat
from ..rng import Rng
from ..seats import check_seat, top_seats
from ..slots import maker
from ..validation import Fail
from .rules import current_player, is_over, legal_moves, score
from .state import State, View, check_table, open_mask, sheet_total, throws_made

__all__ = ["View"]

_make_view = maker(View)
"""A View from every field by keyword, built through the slots
(:func:`tabletop_rules.slots.maker`): a bot makes one per turn."""


def _table(seen: View, seed: int, rng: Rng) -> State:
    """The state whose table ``seen`` shows, with the given seed and generator."""
    return State(
        config=seen.config,
        seed=seed,
        rng=rng,
        sheets=seen.sheets,
        open_masks=tuple(open_mask(sheet) for sheet in seen.sheets),
        totals=tuple(sheet_total(seen.config, sheet) for sheet in seen.sheets),
        fences=seen.fences,
        turns_played=sum(cell is not None for sheet in seen.sheets for cell in sheet),
        dice=seen.dice,
        throws_used=seen.throws_used,
        announced=seen.announced,
        pending_keep=seen.pending_keep,
    )


def check_view(seen: View, fail: Fail) -> None:
    """Call ``fail`` unless ``seen`` is what :func:`view` gives of some state the rules
    can reach: its table keeps every invariant, and what it derives follows from it.
    """
    sheets = seen.sheets
    boxes = seen.config.boxes_per_player
    for seat, sheet in enumerate(sheets):
        if len(sheet) != boxes:
            fail(f"seat {seat}'s sheet has {len(sheet)} boxes, not {boxes}")
    try:
        check_seat(seen.seat, seen.config.players)
        table = _table(seen, 0, Rng.from_seed(0))
        check_table(table)  # a view has no generator to check
        again = view(table, seen.seat)
    except (InvalidStateError, TypeError, ValueError, IndexError) as error:
        fail(str(error).removeprefix("invalid dice poker state: "))
    if again != seen:
        fail(
            "its scores, stage, throws allowed, winners or legal moves do not follow from its table"
        )


def determinize(seen: View, rng: Rng) -> State:
    """A full state consistent with ``seen``: what a seat may know, with everything it
    cannot re-dealt from ``rng``. Dice poker hides only the generator, so this is the
    same table with a fresh seed drawn from ``rng`` and a generator as far past it as the
    throws made require. A search bot samples states with it; ``view`` of the result, for
    the same seat, is ``seen`` again.

    >>> from tabletop_rules.dice_poker import apply, new_game, Roll
    >>> state = apply(new_game(seed=5), Roll())
    >>> seen = view(state, seat=1)
    >>> sampled = determinize(seen, Rng.from_seed(99))
    >>> view(sampled, seat=1) == seen, sampled.seed == state.seed
    (True, False)

    Raises :class:`~tabletop_rules.errors.InvalidStateError` for a view that
    :func:`check_view` refuses.
    """
    seed, _ = rng.next_u64()
    table = _table(seen, seed, Rng.from_seed(seed))
    if seen.config.auto_chance:
        fewest, _most = throws_made(table)
        table = attrs.evolve(table, rng=table.rng.advanced(fewest))
    return table


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    to_move = current_player(state)
    over = is_over(state)
    scores = score(state)
    return _make_view(
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
        scores=scores,
        winners=top_seats(scores) if over else frozenset(),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )
