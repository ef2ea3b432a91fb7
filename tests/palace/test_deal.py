"""The deal: three face down, three face up, hand_size to the hand, in seat order."""

from __future__ import annotations

from collections import Counter

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError
from tabletop_rules.palace.cards import DECK

from .helpers import cards, deal_order, hand, row


def test_a_given_deal_is_dealt_one_card_at_a_time_in_seat_order() -> None:
    config = p.Config(players=2)
    deck = list(DECK)
    state = p.new_game(config, seed=0, deal=deck)
    # three rounds to the face-down slots, three to the face-up slots, three to the hands
    assert state.face_down == ((deck[0], deck[2], deck[4]), (deck[1], deck[3], deck[5]))
    assert state.face_up == ((deck[6], deck[8], deck[10]), (deck[7], deck[9], deck[11]))
    assert state.hands == ((deck[12], deck[14], deck[16]), (deck[13], deck[15], deck[17]))
    assert state.stock == tuple(deck[18:])  # the rest is the stock, its first card drawn first


def test_the_deal_helper_places_cards_as_written() -> None:
    config = p.Config(players=3)
    order = deal_order(
        config, down=["2C 3C 4C"], up=["", "5D 6D 7D"], hands=["", "", "AS KS QS"], stock="9H"
    )
    state = p.new_game(config, seed=0, deal=order)
    assert state.face_down[0] == row("2C 3C 4C")
    assert state.face_up[1] == row("5D 6D 7D")
    assert state.hands[2] == hand("QS KS AS")
    assert state.stock[0] == cards("9H")[0]


def test_hand_size_cards_go_to_each_hand() -> None:
    state = p.new_game(p.Config(players=3, hand_size=5), seed=1)
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert len(state.stock) == 52 - 3 * 11


def test_a_seed_shuffles_reproducibly() -> None:
    assert p.new_game(seed=5) == p.new_game(seed=5)
    assert p.new_game(seed=5) != p.new_game(seed=6)


def test_no_seed_draws_one_and_keeps_it() -> None:
    state = p.new_game()
    assert p.new_game(seed=state.seed) == state


def test_every_card_of_every_deck_is_dealt() -> None:
    config = p.Config(players=4, decks=3)
    state = p.new_game(config, seed=3)
    counted = Counter(state.stock)
    for seat in range(4):
        counted.update(state.hands[seat])
        counted.update(state.face_up[seat])  # type: ignore[arg-type]
        counted.update(state.face_down[seat])  # type: ignore[arg-type]
    assert counted == Counter(dict.fromkeys(DECK, 3))


@pytest.mark.parametrize(
    "deal",
    [
        list(DECK)[:51],
        [*DECK, DECK[0]],
        [DECK[0], *DECK[:51]],
        list(DECK) * 2,
        ["2C", *DECK[1:]],
        "2C",
        None.__class__,
    ],
)
def test_a_deal_that_is_not_exactly_the_configured_decks_is_refused(deal: object) -> None:
    with pytest.raises(ConfigError):
        p.new_game(seed=0, deal=deal)


def test_a_deal_of_the_wrong_card_count_for_several_decks_is_refused() -> None:
    with pytest.raises(ConfigError, match="2 deck"):
        p.new_game(p.Config(decks=2), seed=0, deal=list(DECK))


def test_a_bad_seed_is_refused() -> None:
    with pytest.raises(ConfigError, match="seed"):
        p.new_game(seed=-1)
    with pytest.raises(ConfigError, match="Config"):
        p.new_game("rules")  # type: ignore[arg-type]


def test_the_game_starts_in_the_swap_phase_with_seat_0() -> None:
    state = p.new_game(seed=0)
    assert state.phase == "swap"
    assert p.current_player(state) == 0
    assert p.chance_probabilities(state) == {}
