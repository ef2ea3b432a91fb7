"""The house rules of dice poker, as one validated, frozen :class:`Config`, each field bounded
by a ``MAX_`` constant (the rules page lists them).
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias, get_args

import attrs

from .._messages import short_repr
from .._validation import check_choice, check_flag, optional_whole, whole
from ..errors import ConfigError
from .moves import BOXES_PER_STAGE

__all__ = [
    "MAX_FENCES",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_STAGES",
    "MAX_THROWS_PER_TURN",
    "STAGE_ORDERS",
    "BoxScores",
    "Config",
    "Deal",
    "StageOrder",
]

StageOrder: TypeAlias = Literal["free", "down", "up", "announce"]
"""How the boxes of a stage may be filled: any order, top to bottom, bottom to top, or
announced after the first throw."""

STAGE_ORDERS: tuple[StageOrder, ...] = get_args(StageOrder)
"""Every :data:`StageOrder`, in the order the type lists them."""

MAX_PLAYERS = 8
"""Most seats at the table."""

MAX_THROWS_PER_TURN = 10
"""Most throws a turn allows before fences."""

MAX_STAGES = 10
"""Most stages of fifteen boxes per player."""

MAX_FENCES = 100
"""Largest cap ``max_fences`` and ``max_fences_per_turn`` may set."""

MAX_POINTS = 1000
"""Largest ``premium``, ``penalty`` and fixed score in :class:`BoxScores`."""


@attrs.frozen
class BoxScores:
    """The fixed scores of the boxes that do not count the dice, Yatzy's by default, each 0 to
    :data:`~tabletop_rules.dice_poker.config.MAX_POINTS`.
    """

    small_straight: int = attrs.field(default=15, validator=whole(0, MAX_POINTS))
    large_straight: int = attrs.field(default=20, validator=whole(0, MAX_POINTS))
    poker: int = attrs.field(default=50, validator=whole(0, MAX_POINTS))


def _stage_orders(value: Any) -> tuple[str, ...]:
    """One order as a 1-tuple; a tuple or list as a tuple; nothing else is iterated."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list):
        return tuple(value)
    raise ConfigError(
        f"stage_orders must be a sequence of orders (a tuple or list) or one order, "
        f"got {short_repr(value)}"
    )


DEFAULT_BOX_SCORES = BoxScores()
"""The fixed poker boxes' points by default, Yatzy's (what :class:`Config` plays with)."""


@attrs.frozen
class Config:
    """Dice poker house rules, each field validated (``ConfigError``) and bounded by the
    ``MAX_`` constants above.

    Attributes:
        players: Seats at the table.
        stages: Stages (columns of 15 boxes) each player fills in sequence.
        stage_orders: One order for all stages (a name, or a list of one), or one per stage.
        throws_per_turn: Throws a turn allows before fences.
        fences: Whether unused throws are banked and may be spent later.
        max_fences: Cap on a player's bank, none by default; excess is lost when a turn ends.
        max_fences_per_turn: Cap on the fences one turn may spend, none by default.
        premium: Points added for a stage whose mountain sums above zero.
        penalty: Points taken off for a stage whose mountain sums below zero.
        box_scores: The fixed scores of the straights and of poker.
        auto_chance: Whether the dice are thrown for the players, or each throw waits
            for the faces of physical dice to be given.

    """

    players: int = attrs.field(default=2, validator=whole(1, MAX_PLAYERS))
    throws_per_turn: int = attrs.field(default=3, validator=whole(1, MAX_THROWS_PER_TURN))
    stages: int = attrs.field(default=3, validator=whole(1, MAX_STAGES))
    stage_orders: tuple[StageOrder, ...] = attrs.field(default=("free",), converter=_stage_orders)
    fences: bool = True
    max_fences: int | None = attrs.field(default=None, validator=optional_whole(0, MAX_FENCES))
    max_fences_per_turn: int | None = attrs.field(
        default=None, validator=optional_whole(0, MAX_FENCES)
    )
    premium: int = attrs.field(default=50, validator=whole(0, MAX_POINTS))
    penalty: int = attrs.field(default=20, validator=whole(0, MAX_POINTS))
    box_scores: BoxScores = DEFAULT_BOX_SCORES
    auto_chance: bool = True
    orders_by_stage: tuple[StageOrder, ...] = attrs.field(init=False, eq=False, repr=False)
    """``stage_orders`` spelt out: the order of each stage, 0-based (derived)."""
    turns_per_game: int = attrs.field(init=False, eq=False, repr=False)
    """Turns in a whole game, all seats together: one box each (derived)."""

    @stage_orders.validator
    def _check_stage_orders(self, _attribute: Any, value: tuple[Any, ...]) -> None:
        if len(value) not in (1, self.stages):
            raise ConfigError(
                f"stage_orders needs one order for all stages or one per stage "
                f"({self.stages}), got {len(value)}"
            )
        for order in value:
            check_choice("stage order", order, STAGE_ORDERS)

    def __attrs_post_init__(self) -> None:
        # after every field's validator: a config with several bad fields names the same first
        check_flag("fences", self.fences)
        check_flag("auto_chance", self.auto_chance)
        if not isinstance(self.box_scores, BoxScores):
            raise ConfigError(f"box_scores must be a BoxScores, got {short_repr(self.box_scores)}")
        orders = self.stage_orders * (self.stages if len(self.stage_orders) == 1 else 1)
        object.__setattr__(self, "orders_by_stage", orders)
        object.__setattr__(self, "turns_per_game", self.players * self.boxes_per_player)

    def stage_order(self, stage: int) -> StageOrder:
        """The order in which boxes of ``stage`` (0-based) may be filled."""
        return self.orders_by_stage[stage]

    @property
    def boxes_per_player(self) -> int:
        """Boxes on one player's sheet: 15 per stage (45 with three stages)."""
        return BOXES_PER_STAGE * self.stages

    def throws_allowed(self, bank: int) -> int:
        """Throws a turn allows to a player with ``bank`` fences."""
        if not self.fences:
            return self.throws_per_turn
        cap = self.max_fences_per_turn
        return self.throws_per_turn + (bank if cap is None else min(bank, cap))

    def bank_after_turn(self, bank: int, throws_used: int) -> int:
        """A player's bank once a turn that used ``throws_used`` throws ends."""
        return self.settle_fences(bank, throws_used)[0]

    def settle_fences(self, bank: int, throws_used: int) -> tuple[int, int]:
        """The bank once a turn that used ``throws_used`` throws ends, and the fences lost
        over ``max_fences``: the bank changes by ``throws_per_turn - throws_used``.
        """
        if not self.fences:
            return bank, 0
        earned = bank + self.throws_per_turn - throws_used
        kept = earned if self.max_fences is None else min(earned, self.max_fences)
        return kept, earned - kept


Deal: TypeAlias = None
"""What :func:`~tabletop_rules.dice_poker.new_game` takes as ``deal``: dice poker has no deck,
so only ``None`` (the alias keeps the signature every game's ``new_game`` has)."""
