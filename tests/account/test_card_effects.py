"""Every card effect, negative accounts and floor_at_zero."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import account as r
from tabletop_rules.account.cards import CARD_ORDER, CARDS, Card
from tabletop_rules.account.config import Config
from tabletop_rules.account.events import AccountChanged, Drew, Reshuffled
from tabletop_rules.account.moves import Advance
from tabletop_rules.account.state import State
from tabletop_rules.rng import Rng

from .helpers import card, game, placed, rolled


def land(state: State, steps: int) -> State:
    """The single player's marker 0 moves ``steps`` to the right."""
    return r.apply(rolled(state, steps), Advance(0, "right", steps))


@pytest.mark.parametrize(
    ("text", "account"),
    [("+1", 1), ("+10", 10), ("+15", 15), ("+25", 25), ("-1", -1), ("-10", -10),
     ("-15", -15), ("-25", -25), ("P", 100), ("T", 1000)],
)  # fmt: skip
def test_number_cards_add_or_subtract_and_p_adds_100_and_t_adds_1000(
    text: str, account: int
) -> None:
    state = placed(game(["Z", text], players=1), 0)
    assert land(state, 1).accounts == (account,)


def test_z_makes_the_account_0() -> None:
    state = placed(game(["T", "Z"], players=1), 0)
    assert land(state, 1).accounts == (0,)
    negative = placed(game(["-25", "Z"], players=1), 0)
    assert land(negative, 1).accounts == (0,)


def test_accounts_start_at_0_and_may_go_negative() -> None:
    state = game(["-25", "-10"], players=2)
    assert state.accounts == (0, 0)
    state = placed(state, 0, 1)
    assert state.accounts == (-25, -10)
    assert land(placed(game(["-25", "-10"], players=1), 0), 1).accounts == (-35,)


def test_house_rule_floor_at_zero_keeps_accounts_at_0_or_more() -> None:
    state = placed(game(["+1", "-25"], players=1, floor_at_zero=True), 0)
    assert land(state, 1).accounts == (0,)


def test_b_draws_the_top_card_and_subtracts_its_absolute_value_into_the_discard() -> None:
    state = placed(game(["+1", "B"], pack=["+25", "-10"], players=1), 0)
    after = land(state, 1)
    assert after.accounts == (1 - 25,)
    assert after.pack == (card("-10"),)
    assert after.discard == (card("+25"),)
    negative = placed(game(["+1", "B"], pack=["-15"], players=1), 0)
    assert land(negative, 1).accounts == (1 - 15,)


def test_b_charges_100_for_p_and_1000_for_t() -> None:
    state = placed(game(["+1", "B"], pack=["P"], players=1), 0)
    assert land(state, 1).accounts == (-99,)
    state = placed(game(["+1", "B"], pack=["T"], players=1), 0)
    assert land(state, 1).accounts == (-999,)


def test_b_discards_a_drawn_b_z_or_end_and_draws_again() -> None:
    state = placed(game(["+1", "B"], pack=["Z", "End", "B", "-25", "+10"], players=1), 0)
    after, events = r.apply_with_events(rolled(state, 1), Advance(0, "right", 1))
    assert after.accounts == (1 - 25,)
    assert after.pack == (card("+10"),)
    assert after.discard == (card("Z"), card("End"), card("B"), card("-25"))
    drew = [e for e in events if isinstance(e, Drew)]
    assert drew == [Drew(0, card("-25"), tuple(map(card, ["-25", "B", "Z", "End"])))]
    assert after.phase == "play"  # a drawn End does not stop the game


def test_when_the_pack_runs_out_the_discard_is_shuffled_with_the_states_rng() -> None:
    state = placed(game(["+1", "B"], pack=["Z", "End", "-10", "+15"], players=1), 0)
    once = land(state, 1)  # draws Z, End, -10
    assert once.pack == (card("+15"),)
    twice = land(once, 2)  # a lap back onto B: draws +15, the pack is empty
    assert twice.pack == ()
    assert twice.accounts == (1 - 10 - 15,)
    thrice_before = rolled(twice, 2)
    expected_pack, expected_rng = thrice_before.rng.shuffled(twice.discard)
    thrice, events = r.apply_with_events(thrice_before, Advance(0, "right", 2))
    assert Reshuffled(4) in events
    (drew,) = [e for e in events if isinstance(e, Drew)]
    drawn = len(drew.discarded)
    assert sorted(drew.discarded, key=lambda c: c.index) == sorted(
        expected_pack[:drawn], key=lambda c: c.index
    )
    assert drew.card == next(c for c in expected_pack if c.valued)
    assert list(drew.discarded) == sorted(drew.discarded, key=lambda c: c.index)
    assert thrice.discard == expected_pack[:drawn]
    assert thrice.pack == expected_pack[drawn:]
    assert thrice.rng == expected_rng
    assert thrice.accounts == (twice.accounts[0] - drew.card.cost,)


def test_the_draws_of_a_b_are_told_as_one_event_without_their_order() -> None:
    state = placed(game(["+1", "B"], pack=["Z", "End", "B", "-25"], players=1), 0)
    other = placed(game(["+1", "B"], pack=["B", "Z", "End", "-25"], players=1), 0)
    _after, events = r.apply_with_events(rolled(state, 1), Advance(0, "right", 1))
    _after, events_again = r.apply_with_events(rolled(other, 1), Advance(0, "right", 1))
    assert [e for e in events if isinstance(e, Drew)] == [
        e for e in events_again if isinstance(e, Drew)
    ]


def test_cards_drawn_before_a_reshuffle_go_into_the_new_pack_unnamed() -> None:
    state = land(placed(game(["+1", "B"], pack=["-10", "Z"], players=1), 0), 1)  # draws -10
    after, events = r.apply_with_events(rolled(state, 2), Advance(0, "right", 2))  # a lap
    assert Reshuffled(2) in events  # Z drawn and discarded, then the pack ran out
    (drew,) = [e for e in events if isinstance(e, Drew)]
    assert drew.card == card("-10")
    assert list(drew.discarded) == sorted(after.discard, key=lambda c: c.index)


def test_b_has_no_further_effect_when_pack_and_discard_are_empty() -> None:
    state = placed(game(["+1", "B"], players=1), 0)
    after = land(state, 1)
    assert after.accounts == (1,)
    assert (after.pack, after.discard) == ((), ())


def test_b_has_no_further_effect_when_pack_and_discard_hold_only_b_z_and_end() -> None:
    state = placed(game(["+1", "B"], pack=["Z", "End", "B"], players=1), 0)
    after = land(state, 1)
    assert after.accounts == (1,)
    assert after.pack == state.pack
    assert after.discard == ()


def test_each_account_change_is_an_event() -> None:
    state = placed(game(["+1", "P"], players=1), 0)
    _after, events = r.apply_with_events(rolled(state, 1), Advance(0, "right", 1))
    assert AccountChanged(0, card("P"), 1, 101) in events


def _draw_card_by_card(
    pack: tuple[Card, ...], discard: tuple[Card, ...], rng: Rng, events: list[object], seat: int
) -> tuple[int, tuple[Card, ...], tuple[Card, ...], Rng]:
    """B as the rules page says it, one card at a time: the reference the rules' own
    drawing (which finds the draws rather than making them) must agree with, draw for
    draw. Returns the charge, the pack, the discard pile and the generator after it.
    """
    if not any(c.valued for c in pack) and not any(c.valued for c in discard):
        return 0, pack, discard, rng
    drawn: list[Card] = []
    while True:
        if not pack:
            pack, rng = rng.shuffled(discard)
            discard = ()
            drawn.clear()
            events.append(Reshuffled(len(pack)))
        top, pack = pack[0], pack[1:]
        discard = (*discard, top)
        drawn.append(top)
        if top.valued:
            events.append(Drew(seat, top, tuple(sorted(drawn, key=CARD_ORDER))))
            return top.cost, pack, discard, rng


_piles = st.lists(st.sampled_from(CARDS), max_size=30).map(tuple)


@settings(max_examples=300, deadline=None)
@given(_piles, _piles, st.integers(0, 2**64 - 1), st.booleans())
def test_b_draws_exactly_as_drawing_card_by_card(
    pack: tuple[Card, ...], discard: tuple[Card, ...], seed: int, with_events: bool
) -> None:
    # A lone marker about to land on B over the given piles (a position built by hand for
    # this rule alone: the piles need not conserve the deck).
    state = State(
        config=Config(players=1, rows=1, columns=2, deck={"B": 1, "+1": 1}),
        seed=0,
        rng=Rng(seed),
        field=((card("B"),), (card("+1"),)),
        pack=pack,
        discard=discard,
        markers=((1,),),
        accounts=(0,),
        phase="play",
        roll=1,
    )
    reference: list[object] = []
    charge, *piles = _draw_card_by_card(pack, discard, Rng(seed), reference, 0)
    move = Advance(0, "left", 1)
    if with_events:
        after, events = r.apply_with_events(state, move)
        assert [e for e in events if type(e) in (Drew, Reshuffled)] == reference
    else:
        after = r.apply(state, move)
    assert after.accounts == (-charge,)
    assert [after.pack, after.discard, after.rng] == piles


def _b_landing(noise: int) -> tuple[State, Advance]:
    """A lone marker about to land on B, over a pack of ``noise`` cards that B draws
    again (B, Z and End) with one +1 at the bottom: the landing draws the whole pack.
    """
    kinds = ("B", "Z", "End")
    pack = [kinds[i % 3] for i in range(noise)] + ["+1"]
    state = placed(game(["B"], pack=pack, players=1, placement_scores=False), 0)
    return rolled(state, 1), Advance(0, "right", 1)


def test_a_b_landing_costs_time_linear_in_the_pack() -> None:
    """A landing that draws through a pack of 296 cards against one of 37 (8x): about 8x
    the time when each draw costs the same, 64x when each copies the pack (as it did).
    Timed in one run, interleaved, best of repeats; the bound is generous.
    """
    small, large = _b_landing(37), _b_landing(296)
    assert r.apply(*large).accounts == (-1,)
    best = {37: float("inf"), 296: float("inf")}
    for _ in range(7):
        for noise, (state, move) in ((37, small), (296, large)):
            start = time.perf_counter()
            for _ in range(50):
                r.apply(state, move)
            best[noise] = min(best[noise], time.perf_counter() - start)
    assert best[296] / best[37] < 20, best
