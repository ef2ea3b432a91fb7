"""check_state refuses states no play can reach, naming the broken invariant."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import InvalidStateError
from tabletop_rules.palace.invariants import fitting_deal
from tabletop_rules.rng import Rng
from tabletop_rules.serialize import dumps, loads

from .helpers import cards, deal_order, hand, position, ready_all


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


# --- agreement with the deal (issue 16, point 10) -------------------------------------------


def _loads_data(data: dict[str, Any]) -> object:
    return loads(json.dumps({"game": "palace", "version": 1, "kind": "state", "data": data}))


def _data(state: p.State) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(state))["data"]
    return data


def _played(state: p.State, moves: int) -> p.State:
    """``state`` after Ready from every seat and ``moves`` first listed moves."""
    state = ready_all(state)
    for _ in range(moves):
        state = p.apply(state, p.legal_moves(state)[0])
    return state


@pytest.mark.parametrize(
    "start",
    [
        p.new_game(seed=8),
        _played(p.new_game(seed=8), 4),
        p.new_game(seed=3, deal=deal_order(p.Config(), hands=["4C 5C 6C"])),
        _played(p.new_game(p.Config(decks=2, players=3), seed=5), 6),
    ],
)
def test_loads_refuses_a_face_down_card_swapped_with_the_stock(start: p.State) -> None:
    data = _data(start)
    assert _loads_data(data) == start
    down, stock = data["face_down"], data["stock"]
    assert down[0][0] != stock[0], "the example needs two different cards"
    down[0][0], stock[0] = stock[0], down[0][0]
    with pytest.raises(InvalidStateError, match=r"seat 0's face-down slot 0 holds .* never moves"):
        _loads_data(data)


def test_loads_refuses_a_stock_out_of_the_order_it_was_dealt_in() -> None:
    data = _data(_played(p.new_game(seed=8), 2))
    data["stock"][0], data["stock"][1] = data["stock"][1], data["stock"][0]
    with pytest.raises(InvalidStateError, match="only shrinks from the top"):
        _loads_data(data)


def test_loads_refuses_a_swap_phase_seat_with_known_hand_cards_and_no_swap() -> None:
    start = p.new_game(seed=8)
    for seat in (0, 1):  # seat 0 is on turn and has not swapped, seat 1's turn has not come
        data = _data(start)
        data["known"][seat] = data["hands"][seat][:1]
        with pytest.raises(InvalidStateError, match=f"seat {seat} has swapped nothing yet"):
            _loads_data(data)
    hand_card, up_card = start.hands[0][0], start.face_up[0][0]
    swapped = p.apply(start, p.Swap(hand_card, up_card))
    assert swapped.known[0] == (up_card,)
    assert _loads_data(_data(swapped)) == swapped
    readied = p.apply(swapped, p.Ready())
    data = _data(readied)  # seat 0 swapped before seat 1's turn: it keeps its known card
    assert _loads_data(data) == readied
    data["known"][1] = data["hands"][1][:1]
    with pytest.raises(InvalidStateError, match="seat 1 has swapped nothing yet"):
        _loads_data(data)


def test_loads_refuses_a_swap_phase_exchange_no_swap_made() -> None:
    start = p.new_game(seed=8)
    hand_card, up_card = start.hands[1][0], start.face_up[1][0]
    assert up_card is not None
    data = _data(p.apply(start, p.Ready()))  # seat 1 on turn, no swap made yet
    data["hands"][1] = [str(card) for card in sorted([up_card, *start.hands[1][1:]])]
    data["face_up"][1][0] = str(hand_card)
    with pytest.raises(InvalidStateError, match="seat 1 has swapped nothing yet, so it holds"):
        _loads_data(data)
    data["known"][1] = [str(up_card)]
    data["swaps"] = 1  # now it is the state the swap reaches
    assert _loads_data(data) == p.apply(p.apply(start, p.Ready()), p.Swap(hand_card, up_card))
    data["known"][1] = []  # the card swapped in was seen by all
    with pytest.raises(InvalidStateError, match="not known"):
        _loads_data(data)


def test_loads_refuses_more_known_hand_cards_than_swaps_made() -> None:
    start = p.new_game(p.Config(hand_size=3), seed=8)
    state = p.apply(start, p.Swap(start.hands[0][0], start.face_up[0][0]))
    data = _data(state)
    data["known"][0] = [str(card) for card in state.hands[0][:2]]
    with pytest.raises(InvalidStateError, match=r"2 known hand cards .* it made 1"):
        _loads_data(data)


def test_loads_refuses_a_swap_phase_hand_of_cards_dealt_elsewhere() -> None:
    start = p.new_game(seed=8)
    data = _data(start)
    mine, theirs = data["hands"][0][0], data["hands"][1][0]
    data["hands"][0][0], data["hands"][1][0] = theirs, mine
    data["hands"] = [sorted(held, key=lambda text: p.Card.parse(text)) for held in data["hands"]]
    with pytest.raises(InvalidStateError, match="in the swap phase seat 0 holds the cards"):
        _loads_data(data)


def test_loads_refuses_a_face_up_card_that_arrived_after_the_swaps() -> None:
    state = _played(p.new_game(seed=8), 2)
    data = _data(state)
    seat = next(s for s in (0, 1) if state.face_up[s][0] is not None and state.hands[1 - s])
    other = state.hands[1 - seat]
    data["face_up"][seat][0], theirs = str(other[0]), state.face_up[seat][0]
    assert theirs is not None
    data["hands"][1 - seat] = [str(card) for card in sorted((theirs, *other[1:]))]
    data["known"][1 - seat] = []
    with pytest.raises(InvalidStateError, match="face-up cards only leave the row"):
        _loads_data(data)


def test_determinized_states_carry_a_deal_they_agree_with() -> None:
    for config, seed, moves in ((p.Config(), 8, 0), (p.Config(), 8, 9), (p.Config.pagat(), 2, 30)):
        start = p.new_game(config, seed=seed)
        states = [start, p.apply(start, p.Swap(start.hands[0][0], start.face_up[0][0]))]
        states.append(_played(start, moves))
        for state in states:
            for seat in (None, 0, 1):
                sampled = p.determinize(p.view(state, seat), Rng.from_seed(seed + moves))
                assert sampled.deal is not None
                assert sampled.deal == fitting_deal(sampled)
                p.check_state(sampled)
                assert loads(dumps(sampled)) == sampled
                assert p.view(sampled, seat) == p.view(state, seat)
                data = _data(sampled)
                down, stock = data["face_down"], data["stock"]
                slot = next(i for i, card in enumerate(down[0]) if card is not None)
                if stock and stock[0] != down[0][slot]:
                    down[0][slot], stock[0] = stock[0], down[0][slot]
                    with pytest.raises(InvalidStateError, match="never moves"):
                        _loads_data(data)
    sampled = p.determinize(p.view(p.new_game(seed=8), 0), Rng.from_seed(1))
    assert p.new_game(seed=sampled.seed, deal=sampled.deal) == sampled  # a new game, as dealt


def test_fitting_deal_gives_a_set_up_position_a_deal_and_refuses_a_broken_state(
    state: p.State,
) -> None:
    bare = attrs.evolve(state, deal=None)
    with pytest.raises(InvalidStateError, match="face-down slot"):
        p.check_state(bare)  # seed 0's shuffle put other cards there
    p.check_state(attrs.evolve(bare, deal=fitting_deal(bare)))
    with pytest.raises(InvalidStateError, match="card conservation"):
        fitting_deal(broken(bare, pile=cards("5C")))
    with pytest.raises(InvalidStateError, match="palace State"):
        fitting_deal("state")  # type: ignore[arg-type]


def test_a_view_whose_cards_are_not_one_deck_is_refused_not_a_stop_iteration() -> None:
    """A spectator's view with a face-down slot emptied before play and one more card in
    the stock: the counts add up, but determinize (which check_view runs) finds a place in
    the deal that no moved card can fill.
    """
    state = p.new_game(p.Config(players=3, hand_size=1), seed=1)
    text = dumps(p.view(state, None))
    edited = text.replace('"face_down": [[true, true, true]', '"face_down": [[false, true, true]')
    edited = edited.replace('"stock_size": 31', '"stock_size": 32')
    assert edited.count("false, true, true") == 1
    assert '"stock_size": 32' in edited
    with pytest.raises(InvalidStateError):
        loads(edited)
