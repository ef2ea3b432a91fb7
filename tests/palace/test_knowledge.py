"""Which hand cards are public, and cards as distinct objects across several decks."""

from __future__ import annotations

from collections import Counter

from tabletop_rules import palace as p

from .helpers import cards, hand, play, position


def test_natural_cards_rank_4_to_ace() -> None:
    for low, high in [("4", "5"), ("9", "J"), ("J", "Q"), ("Q", "K"), ("K", "A")]:
        state = position(hands=[f"{low}D {high}D", "2D"], pile=f"{high}C")
        assert [str(m.cards[0]) for m in p.legal_moves(state) if type(m) is p.Play] == [f"{high}D"]


def test_cards_taken_with_the_pile_are_known_until_they_leave_the_hand() -> None:
    state = position(hands=["4H 5S", "AS KS QS"], pile="6C 9D")
    state = p.apply(state, p.TakePile())
    assert state.known[0] == hand("6C 9D")
    state = p.apply(state, play("KS"))
    state = p.apply(state, p.TakePile())  # seat 0 cannot beat the KS
    assert state.known[0] == hand("6C 9D KS")
    state = p.apply(state, play("QS"))  # seat 1, on the fresh pile
    state = p.apply(state, play("KS"))  # seat 0 plays a known card
    assert state.known[0] == hand("6C 9D")


def test_a_known_card_played_leaves_the_known_cards() -> None:
    state = position(hands=["6C 9D", "AS KS"], known=["9D", ""], pile="5C")
    after = p.apply(state, play("9D"))
    assert after.known[0] == ()


def test_suits_never_change_what_may_be_played_but_every_card_is_distinct() -> None:
    config = p.Config(decks=2)
    state = position(config, hands=["7H 7H 9C", "AS"], known=["7H", ""], pile="5C")
    after = p.apply(state, play("7H"))
    assert after.hands[0] == hand("7H 9C")
    # the public saw one 7H leave: it cannot know whether the known one is still held
    assert after.known[0] == ()
    total = Counter(after.stock + after.pile + after.burned)
    for seat in range(2):
        total.update(after.hands[seat])
    assert total[cards("7H")[0]] == 2
