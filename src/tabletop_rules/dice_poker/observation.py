"""Dice poker views as numbers, one length per config, for
:func:`~tabletop_rules.dice_poker.observe`; the layout is on the API page.
"""

from __future__ import annotations

from functools import lru_cache

from .._messages import short_repr
from .._validation import check_type
from ..observation import Features, seats_from, viewer_features
from ..protocol import CHANCE
from .config import Config
from .moves import BOXES_PER_STAGE, DICE_COUNT, Box
from .scoring import possible_points
from .state import View

__all__: list[str] = []

_FACES = tuple(str(face) for face in range(1, 7))
_BOXES = tuple(str(box) for box in Box)


def _face_counts(dice: tuple[int, ...]) -> list[int]:
    return [dice.count(face) for face in range(1, 7)]


@lru_cache(maxsize=64)
def _bounds(config: Config) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]:
    """Per box its least and greatest points (0 included: an open box shows 0); the
    bank's and the throws' caps; the least and greatest score of a sheet.
    """
    possible = possible_points(config.box_scores)
    lows = tuple(min(*values, 0) for values in possible)
    highs = tuple(max(*values, 0) for values in possible)
    bank = config.throws_per_turn * config.boxes_per_player  # every turn banks them all
    bank = 0 if not config.fences else bank if config.max_fences is None else config.max_fences
    least = config.stages * (sum(lows) - config.penalty)
    most = config.stages * (sum(highs) + config.premium)
    return lows, highs, bank, config.throws_allowed(bank), least, most


def encode_view(seen: View, features: Features) -> None:
    """Write ``seen`` into ``features`` as the module's table lays it out; ``TypeError``
    for what is no view or no :class:`~tabletop_rules.observation.Features`.
    """
    check_type(seen, (View,))
    if type(features) is not Features:
        raise TypeError(f"features must be a Features, got {short_repr(features)}")
    config = seen.config
    lows, highs, bank, throws, least, most = _bounds(config)
    order = seats_from(seen.seat, config.players)
    viewer_features(features, seen.seat, config.players)
    to_move = seen.current_player
    relative = None if to_move is None or to_move == CHANCE else order.index(to_move)
    labels = tuple(f"P{number}" for number in range(config.players))
    features.one_hot("to_move[", labels, relative)
    features.flag("to_move[chance]", to_move == CHANCE)
    features.flag("over", to_move is None)
    features.one_hot("stage[", tuple(map(str, range(config.stages))), seen.stage)
    columns = [  # each seat's number from the viewer, each of its stages, the stage's boxes
        (number, stage, seen.sheets[seat][BOXES_PER_STAGE * stage : BOXES_PER_STAGE * (stage + 1)])
        for number, seat in enumerate(order)
        for stage in range(config.stages)
    ]
    for number, stage, cells in columns:
        filled = [cell is not None for cell in cells]
        features.counts(f"filled[P{number},s{stage},", _BOXES, filled, [1] * BOXES_PER_STAGE)
    for number, stage, cells in columns:
        points = [cell or 0 for cell in cells]
        features.group(f"sheet[P{number},s{stage},", _BOXES, points, lows, highs)
    for number, seat in enumerate(order):
        features.scalar(f"fences[P{number}]", seen.fences[seat], 0, bank)
    for number, seat in enumerate(order):
        features.scalar(f"score[P{number}]", seen.scores[seat], least, most)
    features.scalar("throws_used", seen.throws_used, 0, throws)
    features.scalar("throws_allowed", seen.throws_allowed, 0, throws)
    features.counts("dice[", _FACES, _face_counts(seen.dice), [DICE_COUNT] * 6)
    pending = seen.pending_keep
    features.flag("pending", pending is not None)
    features.counts("pending_keep[", _FACES, _face_counts(pending or ()), [DICE_COUNT - 1] * 6)
    announced = seen.announced
    features.one_hot("announced[", _BOXES, None if announced is None else int(announced))
