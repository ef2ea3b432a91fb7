"""Account-game views as numbers for :func:`~tabletop_rules.account.observe` (the layout
is in the API reference).
"""

from __future__ import annotations

import math

from ..kit import CHANCE, Features, check_type, seats_from, short_repr, viewer_features
from .cards import KINDS
from .moves import SIDES
from .state import PHASES, View

__all__ = ["ACCOUNT_CLIP", "LOG_CLIP"]

ACCOUNT_CLIP = 100_000
"""An account is observed clipped to ``-ACCOUNT_CLIP`` to ``ACCOUNT_CLIP``."""

LOG_CLIP = 9.0
"""An account's signed ``log10(1 + |account|)`` is observed clipped to ``±LOG_CLIP``."""

_CELL = (*KINDS, "empty")
_EMPTY = len(KINDS)
_ROLLS = tuple(str(face) for face in range(1, SIDES + 1))


def encode_view(seen: View, features: Features) -> None:
    """Write ``seen`` into ``features``; ``TypeError`` for what is no view or no
    :class:`~tabletop_rules.observation.Features`.
    """
    check_type(seen, (View,))
    if type(features) is not Features:
        raise TypeError(f"features must be a Features, got {short_repr(features)}")
    config = seen.config
    players = config.players
    order = seats_from(seen.seat, players)
    labels = tuple(f"P{number}" for number in range(players))
    columns = tuple(f"c{column}" for column in range(config.columns))
    viewer_features(features, seen.seat, players)
    features.one_hot("phase[", PHASES, PHASES.index(seen.phase))
    features.one_hot("on_turn[", labels, order.index(seen.on_turn))
    features.flag("awaiting_die", seen.current_player == CHANCE)
    for column in range(config.columns):
        cards = seen.field[column]
        for row in range(config.rows):
            kind = cards[row].index if row < len(cards) else _EMPTY
            features.one_hot(f"field[c{column},r{row},", _CELL, kind)
    for number, seat in enumerate(order):
        markers = seen.markers[seat]
        for marker in range(config.max_markers):
            at = markers[marker] if marker < len(markers) else None
            features.one_hot(f"marker[P{number},m{marker},", columns, at)
    for number, seat in enumerate(order):
        features.scalar(f"markers[P{number}]", len(seen.markers[seat]), 0, config.max_markers)
    for number, seat in enumerate(order):
        account = seen.accounts[seat]
        clipped = max(-ACCOUNT_CLIP, min(account, ACCOUNT_CLIP))
        features.scalar(f"account[P{number}]", clipped, -ACCOUNT_CLIP, ACCOUNT_CLIP)
    for number, seat in enumerate(order):
        account = seen.accounts[seat]
        signed_log = math.copysign(min(math.log10(1 + abs(account)), LOG_CLIP), account)
        features.scalar(f"account_log[P{number}]", signed_log, -LOG_CLIP, LOG_CLIP)
    features.scalar("rounds", seen.rounds, 0, config.max_rounds)
    features.one_hot("roll[", _ROLLS, None if seen.roll is None else seen.roll - 1)
    moved = set(seen.moved)
    features.counts(
        "moved[m",
        tuple(map(str, range(config.max_markers))),
        [marker in moved for marker in range(config.max_markers)],
        [1] * config.max_markers,
    )
    features.flag("ending", seen.ending)
    features.scalar("pack_size", seen.pack_size, 0, config.deck_size)
    discard = [0] * len(KINDS)
    for card in seen.discard:
        discard[card.index] += 1
    features.counts("discard[", KINDS, discard, [count for _card, count in config.deck])
