"""check_state refuses states no play can reach, naming the broken invariant."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import InvalidStateError

from .helpers import cards, hand, position


@pytest.fixture
def state() -> p.State:
    return position(hands=["7C 7H 9S", "AD 4D"], pile="5C 6C", down=["- - -", "8C 8D 8H"])


def broken(state: p.State, **changes: Any) -> p.State:
    bad = attrs.evolve(state)
    for name, value in changes.items():
        object.__setattr__(bad, name, value)
    return bad


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"pile": cards("5C 6C 6C")}, "card conservation"),
        ({"pile": cards("5C")}, "card conservation"),
        ({"hands": (hand("7C 7H 9S"), hand("AD 4D"), ())}, "one entry for each"),
        ({"hands": (cards("9S 7C 7H"), hand("AD 4D"))}, "sorted"),
        ({"known": (hand("AS"), ())}, "known cards"),
        ({"phase": "bidding"}, "phase"),
        ({"pending": "later"}, "pending"),
        ({"seat": 2}, "seat"),
        ({"turns": -1}, "turns"),
        ({"turns": 1000}, "max_turns"),
        ({"finished": (0,)}, "finishing order"),
        ({"pending": "take"}, "no 3 is on top"),
        ({"pending": "replay"}, "empty pile"),
        ({"pending": "extra"}, "four of a kind"),
        ({"swaps": 1}, "swap phase only"),
        ({"seed": -1}, "seed"),
        ({"face_up": ((None, None), (None, None, None))}, "3 slots"),
        ({"hands": ((1, 2), hand("AD 4D"))}, "not one of the deck's cards"),
        ({"config": None}, "palace Config"),
    ],
)
def test_broken_states_are_refused(state: p.State, changes: dict[str, Any], why: str) -> None:
    p.check_state(state)
    with pytest.raises(InvalidStateError, match=why):
        p.check_state(broken(state, **changes))


def test_a_10_on_the_pile_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="10"):
        position(hands=["7C", "AD"], pile="5C 10C")


def test_four_of_a_rank_on_the_pile_under_quad_burn_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="quad='burn'"):
        position(p.Config(quad="burn"), hands=["4C", "AD"], pile="7C 7D 7H 7S")


def test_a_3_on_top_must_be_owed_a_take() -> None:
    with pytest.raises(InvalidStateError, match="3 is on top"):
        position(hands=["4C", "AD"], pile="7C 3C")
    position(hands=["4C", "AD"], pile="7C 3C", pending="take")


def test_an_empty_hand_while_the_stock_lasts_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="refills"):
        position(hands=["", "AD"], down=["4C - -", "- - -"], stock="5D")


def test_face_up_cards_left_beside_an_empty_hand_and_stock_are_refused() -> None:
    with pytest.raises(InvalidStateError, match="go into the hand"):
        position(hands=["", "AD"], up=["4C 5C 6C", "- - -"], down=["7C 8C 9C", "- - -"])


def test_a_face_down_card_turned_before_the_face_up_row_is_gone_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="face-down"):
        position(hands=["4D", "AD"], up=["4C 5C 6C", "- - -"], down=["- 8C 9C", "- - -"])


def test_a_game_over_without_a_reason_is_refused(state: p.State) -> None:
    with pytest.raises(InvalidStateError, match="over"):
        p.check_state(broken(state, phase="over"))


def test_every_new_game_is_valid() -> None:
    for config in (
        p.Config(),
        p.Config.pagat(players=5),
        p.Config(players=29, decks=4, hand_size=1),
    ):
        p.check_state(p.new_game(config, seed=1))
