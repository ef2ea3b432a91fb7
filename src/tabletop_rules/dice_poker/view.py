"""What one seat (or a spectator) may know of a game.

Dice poker hides nothing from the players, but the generator predicts every future throw,
so a :class:`~tabletop_rules.dice_poker.View` carries neither the RNG nor the seed. Every
path out of the library that a client sees goes through
:func:`~tabletop_rules.dice_poker.view`.

>>> from tabletop_rules.dice_poker import new_game, view
>>> seen = view(new_game(seed=5), seat=1)
>>> seen.current_player, seen.stage, seen.throws_allowed, seen.scores
(0, 0, 3, (0, 0))
"""

from __future__ import annotations

import attrs

from ..protocol import Seat
from ..rng import Rng
from ..seats import check_seat, top_seats
from ..slots import maker
from ..validation import Fail
from .rules import current_player, legal_moves
from .state import State, View, fewest_throws, open_mask, sheet_total

__all__: list[str] = []


_make_view = maker(View)


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    to_move = current_player(state)
    over = state.turns_played == state.config.turns_per_game
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
        scores=state.totals,
        winners=top_seats(state.totals) if over else frozenset(),
        legal_moves=legal_moves(state) if seat is not None and seat == to_move else (),
    )


def check_view(seen: View, fail: Fail) -> None:
    """Call ``fail`` unless ``seen``'s seat and sheets fit its table; the shell checks the
    rest on the state :func:`determinize` deals from it.
    """
    boxes = seen.config.boxes_per_player
    for seat, sheet in enumerate(seen.sheets):
        if len(sheet) != boxes:
            fail(f"seat {seat}'s sheet has {len(sheet)} boxes, not {boxes}")
    try:
        check_seat(seen.seat, seen.config.players)
    except ValueError as error:
        fail(str(error))


def determinize(seen: View, rng: Rng) -> State:
    """The table ``seen`` shows, with a fresh seed drawn from ``rng`` and a generator as far
    past it as the throws made require: dice poker hides only the generator.

    >>> from tabletop_rules.dice_poker import Roll, apply, determinize, new_game, view
    >>> state = apply(new_game(seed=5), Roll())
    >>> sampled = determinize(view(state, 1), Rng.from_seed(99))
    >>> view(sampled, 1) == view(state, 1), sampled.seed == state.seed
    (True, False)
    """
    seed, _ = rng.next_u64()
    table = State(
        config=seen.config,
        seed=seed,
        rng=Rng.from_seed(seed),
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
    if seen.config.auto_chance:
        table = attrs.evolve(table, rng=table.rng.advanced(max(fewest_throws(table), 0)))
    return table
