"""Pig's values: its house rules, moves, events, state and view."""

from __future__ import annotations

import attrs

from tabletop_rules import kit

MAX_PLAYERS = 8


@attrs.frozen
class Config:
    """Pig's house rules (every one on the rules page)."""

    players: int = attrs.field(default=2, validator=kit.whole(2, MAX_PLAYERS))
    target: int = attrs.field(default=100, validator=kit.whole(10, 1000))
    max_rounds: int = attrs.field(default=100, validator=kit.whole(1, 1000))
    auto_chance: bool = attrs.field(default=True, validator=kit.flag())


@attrs.frozen
class Roll:
    """Throw the die (its outcome is drawn, or awaited at a chance point)."""


@attrs.frozen
class Hold:
    """Bank the turn total and pass the turn."""


@attrs.frozen
class Die:
    """The die's outcome at a chance point."""

    value: int


@attrs.frozen
class Rolled:
    seat: int
    value: int


@attrs.frozen
class Busted:
    seat: int
    lost: int


@attrs.frozen
class Banked:
    seat: int
    points: int
    score: int


Move = Roll | Hold | Die
Event = Rolled | Busted | Banked

MOVES = kit.MoveTable[Move]("pig", (Roll, Hold, Die), (Roll(), Hold(), *map(Die, range(1, 7))))
ROLL, HOLD, DIES = MOVES.moves[0], MOVES.moves[1], MOVES.moves[2:]


@attrs.frozen
class State:
    """A game of Pig: banked scores, the turn in progress, and the generator."""

    config: Config
    seed: int
    rng: kit.Rng
    scores: tuple[int, ...]
    turn_total: int = 0
    turns_played: int = 0
    rolling: bool = False  # the die is in the air, at a chance point


replace = kit.replacer(State)


@attrs.frozen
class View:
    """What a seat knows: everything but the generator (which would predict the die)."""

    config: Config
    seat: int | None
    scores: tuple[int, ...]
    turn_total: int
    turns_played: int
    rolling: bool
    current_player: int | None
    legal_moves: tuple[Move, ...]
