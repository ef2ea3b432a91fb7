"""Match clocks, Board Game Arena's model: each move may take a fixed time, and what a
seat takes beyond it comes out of the seat's bank for the whole match. A seat whose move
time and bank are both spent has timed out.

Clocks are values: a move gives the clocks after it, so the server stores them with the
move and a restarted server finds them as they were.

>>> from tabletop_rules.server.messages import ClockRule
>>> clocks = Clocks.start(ClockRule(move_seconds=10, bank_seconds=60), players=2, now=0.0)
>>> clocks.left(0, now=25.0)
45.0
>>> clocks.after_move(0, now=25.0).banks
(45.0, 60.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from .._seats import Seat
from ..errors import InvalidStateError
from .messages import ClockRule

__all__ = ["Clocks", "TimeSource"]

TimeSource = Callable[[], float]
"""Where the server reads the time, in seconds (``time.time``; tests pass their own)."""


@attrs.frozen(kw_only=True)
class Clocks:
    """The clock ``rule``, each seat's ``banks`` of seconds left, and when (``started``)
    the move now awaited began.
    """

    rule: ClockRule
    banks: tuple[float, ...]
    started: float

    @classmethod
    def start(cls, rule: ClockRule, *, players: int, now: float) -> Clocks:
        """Full banks, the first move begun at ``now``."""
        return cls(rule=rule, banks=(rule.bank_seconds,) * players, started=now)

    def deadline(self, seat: Seat) -> float:
        """When ``seat``, on turn, runs out of time."""
        return self.started + self.rule.move_seconds + self.banks[seat]

    def left(self, seat: Seat, *, now: float) -> float:
        """The seconds ``seat``, on turn, has left (never below 0)."""
        return max(0.0, self.deadline(seat) - now)

    def after_move(self, seat: Seat | None, *, now: float) -> Clocks:
        """The clocks once ``seat`` (``None``: a bot or chance, not timed) has moved at
        ``now``: what it took beyond the move time comes out of its bank.
        """
        banks = self.banks
        if seat is not None:
            over = max(0.0, now - self.started - self.rule.move_seconds)
            banks = (*banks[:seat], max(0.0, banks[seat] - over), *banks[seat + 1 :])
        return attrs.evolve(self, banks=banks, started=now)

    def restarted(self, *, now: float) -> Clocks:
        """The clocks with the awaited move begun again at ``now``: the banks as they were
        (a server that was down never charges a seat for the time it was down).
        """
        return attrs.evolve(self, started=now)

    def to_json(self) -> dict[str, Any]:
        """The banks and start, as stored with each move."""
        return {"banks": list(self.banks), "started": self.started}

    def with_stored(self, data: object) -> Clocks:
        """These clocks' rule with the banks and start :meth:`to_json` stored."""
        if (
            type(data) is not dict
            or data.keys() != {"banks", "started"}
            or type(data["banks"]) is not list
            or len(data["banks"]) != len(self.banks)
            or not all(type(bank) in (int, float) for bank in (*data["banks"], data["started"]))
        ):
            raise InvalidStateError(f"stored clocks are malformed: {data!r:.120}")
        return attrs.evolve(
            self, banks=tuple(map(float, data["banks"])), started=float(data["started"])
        )
