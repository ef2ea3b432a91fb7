"""The house rules of dice poker, as one validated, frozen :class:`Config`.

``Config()`` is the seed's game: two players, three throws a turn, three stages played in
free order, fences on and uncapped, +50 premium and -20 penalty, Yatzy scores.

>>> Config(players=3, stage_orders=("down", "free", "announce")).stage_order(2)
'announce'
>>> Config(players=9)
Traceback (most recent call last):
...
tabletop_rules.errors.ConfigError: players must be 1 to 8, got 9
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias, get_args

import attrs

from ..errors import ConfigError
from .moves import BOXES_PER_STAGE

__all__ = ["MAX_PLAYERS", "STAGE_ORDERS", "BoxScores", "Config", "StageOrder"]

StageOrder: TypeAlias = Literal["free", "down", "up", "announce"]
"""How the boxes of a stage may be filled: any order, top to bottom, bottom to top, or
announced after the first throw."""

STAGE_ORDERS: tuple[StageOrder, ...] = get_args(StageOrder)

MAX_PLAYERS = 8


def _whole(name: str, value: Any, low: int, high: int | None = None) -> None:
    """Raise ConfigError unless ``value`` is an int in ``[low, high]``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{name} must be a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise ConfigError(f"{name} must be {bound}, got {value}")


def _check_whole(low: int, high: int | None = None) -> Any:
    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        _whole(attribute.name, value, low, high)

    return check


def _check_optional_whole(low: int) -> Any:
    def check(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is not None:
            _whole(attribute.name, value, low)

    return check


@attrs.frozen
class BoxScores:
    """The fixed scores of the three boxes that do not count the dice (Yatzy by default)."""

    small_straight: int = attrs.field(default=15, validator=_check_whole(0))
    large_straight: int = attrs.field(default=20, validator=_check_whole(0))
    poker: int = attrs.field(default=50, validator=_check_whole(0))


def _stage_orders(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    try:
        return tuple(value)
    except TypeError:
        raise ConfigError(f"stage_orders must be a sequence of orders, got {value!r}") from None


@attrs.frozen
class Config:
    """Dice poker house rules. Every field is validated; a bad value raises ``ConfigError``.

    Attributes:
        players: Seats at the table, 1 to 8.
        throws_per_turn: Throws a turn allows before fences, at least 1.
        stages: Stages (columns of 15 boxes) each player fills in sequence, at least 1.
        stage_orders: One order for every stage, or one per stage: ``"free"``,
            ``"down"``, ``"up"`` or ``"announce"``. A single string means one for all.
        fences: Whether unused throws are banked and may be spent later.
        max_fences: Cap on a player's bank; excess is lost when a turn ends. ``None``: no cap.
        max_fences_per_turn: Cap on the fences one turn may spend. ``None``: no cap.
        premium: Points added for a stage whose mountain sums above zero.
        penalty: Points taken off for a stage whose mountain sums below zero.
        box_scores: Fixed scores of SMALL_STRAIGHT, LARGE_STRAIGHT and POKER.
        auto_chance: Throw the dice from the state's generator; ``False`` stops at
            each throw for a :class:`~tabletop_rules.dice_poker.Dice` outcome.

    """

    players: int = attrs.field(default=2, validator=_check_whole(1, MAX_PLAYERS))
    throws_per_turn: int = attrs.field(default=3, validator=_check_whole(1))
    stages: int = attrs.field(default=3, validator=_check_whole(1))
    stage_orders: tuple[StageOrder, ...] = attrs.field(default=("free",), converter=_stage_orders)
    fences: bool = True
    max_fences: int | None = attrs.field(default=None, validator=_check_optional_whole(0))
    max_fences_per_turn: int | None = attrs.field(default=None, validator=_check_optional_whole(0))
    premium: int = attrs.field(default=50, validator=_check_whole(0))
    penalty: int = attrs.field(default=20, validator=_check_whole(0))
    box_scores: BoxScores = BoxScores()
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
            if order not in STAGE_ORDERS:
                raise ConfigError(
                    f"stage order must be one of {', '.join(STAGE_ORDERS)}, got {order!r}"
                )

    def __attrs_post_init__(self) -> None:
        for name in ("fences", "auto_chance"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if not isinstance(self.box_scores, BoxScores):
            raise ConfigError(f"box_scores must be a BoxScores, got {self.box_scores!r}")
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
        spendable = (
            bank if self.max_fences_per_turn is None else min(bank, self.max_fences_per_turn)
        )
        return self.throws_per_turn + spendable

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
