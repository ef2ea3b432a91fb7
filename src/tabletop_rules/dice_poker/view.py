"""What one seat (or a spectator) may know of a game, and a state dealt from that."""

from __future__ import annotations

import attrs

from .._messages import short_repr
from .._seats import check_seat, top_seats
from .._slots import maker
from .._validation import check_type
from ..protocol import Seat
from ..rng import Rng
from .rules import current_player, legal_moves
from .state import State, View, fewest_throws, open_mask, refuse, sheet_total

__all__: list[str] = []

_make_view = maker(View)
_TABLE = ("config", "sheets", "fences", "dice", "throws_used", "announced", "pending_keep")
"""The fields a view copies from its state and :func:`determinize` copies back."""


def view(state: State, seat: Seat | None) -> View:
    """``seat``'s view of ``state``; ``None`` views as a spectator."""
    if type(state) is not State:
        refuse(state)
    check_seat(seat, state.config.players)
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


def determinize(seen: View, rng: Rng) -> State:
    """The table ``seen`` shows, with a fresh seed drawn from ``rng`` and a generator as far
    past it as the throws made require: dice poker hides only the generator (the
    :doc:`/tutorial` samples one). ``TypeError`` for what is no view or no :class:`Rng`.
    """
    check_type(seen, (View,))
    if type(rng) is not Rng:
        raise TypeError(f"rng must be an Rng, got {short_repr(rng)}")
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
