"""Account-game views as numbers: :func:`encode_view`, which the shell's
:func:`~tabletop_rules.account.observe` and :func:`~tabletop_rules.account.observation_spec`
read.

The encoding is read from a :class:`~tabletop_rules.account.View` only, for a seat or a
spectator, and has the same length for every view of a config. Values are whole numbers
as floats (counts and flags), except the accounts, which have no bound: each is given
twice, clipped to ``±ACCOUNT_CLIP`` (100,000) and as ``sign(a) x log10(1 + |a|)`` clipped
to ``±LOG_CLIP`` (9). Per-seat fields list the seats in turn order *from the viewer*
(:func:`~tabletop_rules.observation.seats_from`): ``P0`` is the viewer (seat 0 for a
spectator), ``P1`` the next seat after it, and so on. Kinds are the thirteen card texts
of :data:`~tabletop_rules.account.cards.KINDS`. Field by field, in order:

===================================  ===========  ===========================================
names                                count        value
===================================  ===========  ===========================================
``viewer[spectator]``                1            1 for a spectator's view
``viewer[S0]`` …                     players      the viewer's absolute seat, one-hot
``phase[setup]`` … ``phase[over]``   3            the phase, one-hot
``on_turn[P0]`` …                    players      the seat placing or on turn, relative
``awaiting_die``                     1            1 while a roll waits for its die
``field[c0,r0,+1]`` …                columns x    the card at column ``c``, row ``r`` (row 0
                                     rows x 14    the bottom card), one-hot over the 13 kinds
                                                  and ``empty``
``marker[P0,m0,c0]`` …               players x    where the seat's marker ``m`` stands,
                                     max_markers  one-hot over the columns (all 0 while the
                                     x columns    seat has no marker ``m``)
``markers[P0]`` …                    players      how many markers the seat owns
``account[P0]`` …                    players      the account, clipped to ``±ACCOUNT_CLIP``
``account_log[P0]`` …                players      signed ``log10(1 + |account|)``, clipped
``rounds``                           1            rounds completed, 0 to ``max_rounds``
``roll[1]`` … ``roll[6]``            6            the roll awaiting a move, one-hot
``moved[m0]`` …                      max_markers  1 for each marker the seat on turn moved
                                                  this turn
``ending``                           1            1 once End has scored (``finish_round``)
``pack_size``                        1            cards in the pack, 0 to the deck's size
``discard[+1]`` …                    13           cards of each kind on the discard pile, 0
                                                  to the deck's count of the kind
===================================  ===========  ===========================================

The default config (two players, a field of 5 x 7, three markers each) makes 572
elements:

>>> from tabletop_rules.account import Config, new_game, observation_spec, observe, view
>>> spec = observation_spec(Config())
>>> spec.size, spec.names[6:9]
(572, ('on_turn[P0]', 'on_turn[P1]', 'awaiting_die'))
>>> seen = dict(zip(spec.names, observe(view(new_game(seed=7), 1))))
>>> seen["phase[setup]"], seen["on_turn[P1]"], seen["pack_size"]
(1.0, 1.0, 35.0)
"""

from __future__ import annotations

import math

from ..observation import Features, seats_from, viewer_features
from ..protocol import CHANCE
from .cards import KINDS
from .moves import SIDES
from .state import PHASES
from .view import View

__all__ = ["ACCOUNT_CLIP", "LOG_CLIP", "encode_view"]

ACCOUNT_CLIP = 100_000
"""An account is observed clipped to ``-ACCOUNT_CLIP`` to ``ACCOUNT_CLIP``."""

LOG_CLIP = 9.0
"""An account's signed ``log10(1 + |account|)`` is observed clipped to ``±LOG_CLIP``."""

_CELL = (*KINDS, "empty")
_EMPTY = len(KINDS)
_ROLLS = tuple(str(face) for face in range(1, SIDES + 1))


def _signed_log(value: int) -> float:
    magnitude = min(math.log10(1 + abs(value)), LOG_CLIP)
    return -magnitude if value < 0 else magnitude


def encode_view(seen: View, features: Features) -> None:
    """Write ``seen`` into ``features``, laid out as the module's table says."""
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
        features.scalar(
            f"account_log[P{number}]", _signed_log(seen.accounts[seat]), -LOG_CLIP, LOG_CLIP
        )
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
