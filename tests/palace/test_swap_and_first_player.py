"""The swap phase, in seat order, and who plays first."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import assert_illegal, cards, deal_order, hand, play, ready_all, row


def start(config: p.Config | None = None, **placed: list[str]) -> p.State:
    config = config or p.Config()
    return p.new_game(config, seed=0, deal=deal_order(config, **placed))  # type: ignore[arg-type]


def test_each_player_may_exchange_hand_cards_with_their_own_face_up_cards() -> None:
    state = start(up=["4C 5C 6C"], hands=["AS KS QS"])
    state = p.apply(state, p.Swap(cards("AS")[0], cards("5C")[0]))
    assert state.hands[0] == hand("5C QS KS")
    assert state.face_up[0] == row("4C AS 6C")
    assert state.known[0] == hand("5C")  # swapped in from the face-up row: public


def test_as_many_exchanges_as_they_like_then_ready() -> None:
    state = start(up=["4C 5C 6C"], hands=["AS KS QS"])
    for a, b in [("AS", "4C"), ("KS", "5C"), ("QS", "6C"), ("4C", "AS")]:
        state = p.apply(state, p.Swap(cards(a)[0], cards(b)[0]))
    assert state.face_up[0] == row("4C KS QS")
    assert state.known[0] == hand("5C 6C AS")  # 4C left the hand again
    state = p.apply(state, p.Ready())
    assert state.seat == 1
    assert state.phase == "swap"


def test_swaps_are_capped_at_six_per_seat() -> None:
    state = start(up=["4C 5C 6C"], hands=["AS KS QS"])
    for _ in range(3):
        state = p.apply(state, p.Swap(cards("AS")[0], cards("4C")[0]))
        state = p.apply(state, p.Swap(cards("4C")[0], cards("AS")[0]))
    assert p.legal_moves(state) == (p.Ready(),)
    assert_illegal(state, p.Swap(cards("AS")[0], cards("5C")[0]), "at most 6 swaps")


def test_swap_moves_list_every_pair_that_differ() -> None:
    state = start(up=["4C 5C 6C"], hands=["AS KS QS"])
    moves = p.legal_moves(state)
    assert len(moves) == 10
    assert moves[-1] == p.Ready()
    assert moves[0] == p.Swap(cards("QS")[0], cards("4C")[0])


def test_swap_phase_goes_in_seat_order() -> None:
    state = start(p.Config(players=3))
    assert [p.current_player(state)] == [0]
    state = p.apply(state, p.Ready())
    assert p.current_player(state) == 1
    assert_illegal(state, play("2C"), "swap phase")
    state = p.apply(state, p.Ready())
    assert p.current_player(state) == 2


def test_swap_needs_the_cards_to_be_there() -> None:
    state = start(up=["4C 5C 6C"], hands=["AS KS QS"])
    assert_illegal(state, p.Swap(cards("2H")[0], cards("4C")[0]), "holds no 2H")
    assert_illegal(state, p.Swap(cards("AS")[0], cards("2H")[0]), "2H is not in seat 0's face-up")


def test_swaps_happen_once_before_play_starts() -> None:
    state = ready_all(start(up=["4C 5C 6C"], hands=["AS KS QS"]))
    assert state.phase == "play"
    assert_illegal(state, p.Swap(cards("AS")[0], cards("4C")[0]), "swap phase is over")
    assert_illegal(state, p.Ready(), "swap phase is over")


def test_first_player_holds_the_lowest_natural_rank_in_hand_after_the_swaps() -> None:
    config = p.Config(players=3)
    state = start(config, up=["", "4D 8D 8H"], hands=["9C 9D 2S", "JS QS KS", "5C AH AD"])
    assert ready_all(state).seat == 2
    # seat 1 swaps the 4D into its hand and becomes the first player
    state = p.apply(state, p.Ready())
    state = p.apply(state, p.Swap(cards("JS")[0], cards("4D")[0]))
    assert ready_all(state).seat == 1


def test_first_player_ties_go_to_the_lowest_seat() -> None:
    config = p.Config(players=3)
    state = start(config, hands=["9C 9D 2S", "5S QS KS", "5C AH AD"])
    assert ready_all(state).seat == 1


def test_first_player_bonus_cards_are_not_natural() -> None:
    state = start(hands=["2C 3C 10C", "2D 3D 9S"])
    assert ready_all(state).seat == 1


def test_first_player_is_seat_0_when_no_hand_holds_a_natural_card() -> None:
    state = start(hands=["2C 3C 10C", "2D 3D 10D"])
    assert ready_all(state).seat == 0


def test_first_player_house_rule_seat0() -> None:
    state = start(p.Config(first_player="seat0"), hands=["AC AD AH", "4C 4D 4H"])
    assert ready_all(state).seat == 0


def test_the_swap_phase_does_not_count_as_turns() -> None:
    state = start(up=["4C 5C 6C"], hands=["AS KS QS"])
    state = p.apply(state, p.Swap(cards("AS")[0], cards("4C")[0]))
    assert ready_all(state).turns == 0
