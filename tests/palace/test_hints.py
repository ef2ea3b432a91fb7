"""What a move would do in palace: the ranks that may go on the pile now."""

from __future__ import annotations

import attrs

from tabletop_rules import palace as p
from tabletop_rules.palace import Card
from tabletop_rules.palace.state import Pending
from tabletop_rules.palace.table import playable_ranks

ALL = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)


def in_play(pile: str, config: p.Config | None = None, pending: Pending = "none") -> p.State:
    state = p.new_game(config or p.Config(), seed=7)
    return attrs.evolve(
        state, phase="play", pile=tuple(map(Card.parse, pile.split())), pending=pending
    )


def test_natural_ranks_equal_or_higher_and_the_bonus_cards_go_on_the_top() -> None:
    assert playable_ranks(p.view(in_play("4C 9H"), 0)) == (2, 3, 9, 10, 11, 12, 13, 14)


def test_strictly_higher_under_must_beat_higher() -> None:
    state = in_play("9H", p.Config(must_beat="higher"))
    assert playable_ranks(p.view(state, 1)) == (2, 3, 10, 11, 12, 13, 14)


def test_anything_goes_on_an_empty_pile_and_on_a_two() -> None:
    assert playable_ranks(p.view(in_play(""), None)) == ALL
    assert playable_ranks(p.view(in_play("AS 2D"), 0)) == ALL


def test_nothing_is_playable_when_a_three_must_be_taken() -> None:
    assert playable_ranks(p.view(in_play("3C", pending="take"), 0)) == ()


def test_nothing_is_playable_in_the_swap_phase() -> None:
    assert playable_ranks(p.view(p.new_game(seed=7), 0)) == ()


def test_the_ranks_of_the_listed_plays_are_playable() -> None:
    state = p.apply(p.apply(p.new_game(seed=3), p.Ready()), p.Ready())
    for _ in range(6):
        seen = p.view(state, p.current_player(state))
        plays = {move.cards[0].rank for move in seen.legal_moves if type(move) is p.Play}
        assert plays <= set(playable_ranks(seen))
        state = p.apply(state, seen.legal_moves[0])
