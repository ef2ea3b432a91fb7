"""Every card effect, negative accounts and floor_at_zero."""

from __future__ import annotations

import pytest

from tabletop_rules.account import rules as r
from tabletop_rules.account.events import AccountChanged, Drew, Reshuffled
from tabletop_rules.account.moves import Advance
from tabletop_rules.account.state import State

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
    drawn = [(str(e.card), e.charged) for e in events if isinstance(e, Drew)]
    assert drawn == [("Z", False), ("End", False), ("B", False), ("-25", True)]
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
    drawn = [e.card for e in events if isinstance(e, Drew)]
    assert tuple(drawn) == expected_pack[: len(drawn)]
    assert drawn[-1].valued
    assert thrice.pack == expected_pack[len(drawn) :]
    assert thrice.rng == expected_rng
    assert thrice.accounts == (twice.accounts[0] - drawn[-1].cost,)


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
