"""What a move would do, read off a view for hints and previews: the ranks that may go on
the pile now.
"""

from __future__ import annotations

from .._validation import check_type
from .cards import RANKS, Rank
from .rules import ALLOWED
from .state import View

__all__ = ["playable_ranks"]


def playable_ranks(seen: View) -> tuple[Rank, ...]:
    """The ranks that may go on the pile now, lowest first: what the pile's top card and
    ``must_beat`` allow (anything on an empty pile or a 2; the bonus cards 2, 3 and 10 on
    anything). Empty when no card may be played: in the swap phase, when a 3 makes the
    seat on turn take the pile, once the game is over. It is the same for every seat;
    the viewer's own cards that fit are those of its hand of these ranks.

    >>> from tabletop_rules.palace import Card, Config, new_game, view
    >>> import attrs
    >>> state = attrs.evolve(new_game(seed=7), phase="play", pile=(Card.parse("JH"),))
    >>> playable_ranks(view(state, 0))
    (2, 3, 10, 11, 12, 13, 14)
    >>> strict = attrs.evolve(state, config=Config(must_beat="higher"))
    >>> playable_ranks(view(strict, None))
    (2, 3, 10, 12, 13, 14)
    """
    check_type(seen, (View,))
    if seen.phase != "play" or seen.pending == "take" or seen.current_player is None:
        return ()
    allowed = ALLOWED[seen.config.must_beat == "higher"][seen.pile[-1].rank if seen.pile else 0]
    return tuple(rank for rank in RANKS if allowed[rank])
