"""The palace action codec: the layout, round trips, the mask, and odd actions refused."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.palace.cards import DECK, SUITS
from tabletop_rules.palace.moves import PLAY_BASE, SWAP_BASE
from tabletop_rules.testing.checks import check_codec

from .helpers import cards, play, position
from .test_properties import configs, playout, playout_settings, seeds

RULES: Any = SimpleNamespace(
    num_actions=p.num_actions,
    config_of=lambda state: state.config,
    legal_mask=p.legal_mask,
    legal_moves=p.legal_moves,
    encode=p.encode,
    decode=p.decode,
)


def sevens() -> p.State:
    return position(hands=["7C 7H 7S 9D", "4C"], pile="5D")


@pytest.mark.parametrize(("decks", "size"), [(1, 2762), (2, 2814), (3, 2866), (4, 2918)])
def test_num_actions_is_fixed_per_number_of_decks(decks: int, size: int) -> None:
    assert p.num_actions(p.Config(decks=decks)) == size


def test_the_layout_is_pinned() -> None:
    assert p.encode(p.Ready()) == 0
    assert p.encode(p.TakePile()) == 1
    assert p.encode(p.EndTurn()) == 2
    assert [p.encode(p.PlayBlind(slot)) for slot in range(3)] == [3, 4, 5]
    assert SWAP_BASE == 6
    assert PLAY_BASE == 2710
    assert p.encode(p.Swap(*cards("2C 2D"))) == 7
    assert p.encode(p.Swap(*cards("AS AH"))) == SWAP_BASE + 52 * 51 + 50
    assert p.encode(play("2C")) == 2710
    assert p.encode(play("AS")) == 2722
    assert p.encode(play("2C 2D")) == 2723
    assert p.encode(play(" ".join(["AC AD AH AS"] * 4))) == 2710 + 13 * 15 + 12 == 2917


def test_plays_of_one_rank_and_count_share_a_number() -> None:
    assert p.encode(play("7H 7S")) == p.encode(play("7C 7D")) == 2710 + 13 + 5
    assert p.encode(play("7H")) != p.encode(play("7H 7S"))


def _of_rank(rank: int, count: int) -> p.Play:
    """A play of ``count`` cards of ``rank`` that four decks hold: suits in turn."""
    return p.Play(tuple(p.Card(rank, SUITS[index % 4]) for index in range(count)))


def test_every_number_is_one_class() -> None:
    numbers = {p.encode(p.Swap(a, b)) for a in DECK for b in DECK}
    numbers |= {p.encode(_of_rank(card.rank, count)) for card in DECK for count in range(1, 17)}
    numbers |= {p.encode(move) for move in (p.Ready(), p.TakePile(), p.EndTurn())}
    numbers |= {p.encode(p.PlayBlind(slot)) for slot in range(3)}
    assert numbers == set(range(p.num_actions(p.Config(decks=4))))


def test_decode_gives_the_listed_move_of_the_class() -> None:
    state = sevens()
    two = p.decode(state, p.encode(play("7H 7S")))
    assert two == play("7C 7H")
    assert any(two is move for move in p.legal_moves(state))
    mask = p.legal_mask(state)
    assert len(mask) == 2762
    assert [n for n, legal in enumerate(mask) if legal] == sorted(
        p.encode(move) for move in p.legal_moves(state)
    )


def test_encode_refuses_what_no_state_allows() -> None:
    message = r"^'play 7H 8S' has no action number: a play lays cards of one rank$"
    with pytest.raises(IllegalMoveError, match=message):
        p.encode(play("7H 8S"))
    with pytest.raises(IllegalMoveError, match="is not a palace move"):
        p.encode("take")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (True, "an action is a whole number"),
        (False, "an action is a whole number"),
        (1.0, "an action is a whole number"),
        ("1", "an action is a whole number"),
        (None, "an action is a whole number"),
        (-1, r"outside the action space 0\.\.2761"),
        (2762, r"outside the action space 0\.\.2761"),
        (2**200, "outside the action space"),
        (2, r"action 2 \('end'\) is not legal in this state"),
        (2710 + 13 * 3 + 5, "is not legal in this state"),  # four 7s: seat 0 holds three
    ],
)
def test_odd_actions_are_refused(action: object, match: str) -> None:
    with pytest.raises(IllegalMoveError, match=match):
        p.decode(sevens(), action)  # type: ignore[arg-type]


def test_a_state_that_is_no_state_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="expected a palace State"):
        p.decode("state", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a palace State"):
        p.legal_mask("state")  # type: ignore[arg-type]


def test_a_finished_game_has_an_empty_mask() -> None:
    state = playout(p.Config(), 5, 6)[-1][0]
    assert p.is_over(state)
    assert not any(p.legal_mask(state))
    with pytest.raises(IllegalMoveError, match="not legal"):
        p.decode(state, 0)


@playout_settings
@given(configs(), seeds, seeds)
def test_codec_round_trips_and_masks_over_random_games(
    config: p.Config, seed: int, chooser: int
) -> None:
    steps = playout(config, seed, chooser)
    for state, _move in steps[::8]:  # check_codec lists the legal moves per decode: slow
        check_codec(RULES, state)
    for state, move in steps:
        for listed in p.legal_moves(state):
            assert p.decode(state, p.encode(listed)) is listed
        if not p.is_over(state):
            assert p.decode(state, p.encode(move)) is p.canonical(state, move)
