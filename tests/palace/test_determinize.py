"""Determinization: states re-dealt from a view are valid, seen the same by the view's
seat, and differ where the seat cannot see; and the deal a state keeps.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules import palace as p
from tabletop_rules.errors import InvalidStateError
from tabletop_rules.palace.cards import DECK
from tabletop_rules.rng import Rng
from tabletop_rules.testing import check_errors_hide_secrets

from .helpers import deal_order, ready_all
from .test_properties import all_cards, configs, playout, playout_settings, seeds, unlisted_moves


def hidden_part(state: p.State, seat: int | None) -> tuple[object, ...]:
    """What ``seat`` cannot see: the other hands, the face-down rows and the stock."""
    return (
        tuple(held for s, held in enumerate(state.hands) if s != seat),
        state.face_down,
        state.stock,
    )


@playout_settings
@given(configs(), seeds, seeds, st.integers(0, 2**16), seeds)
def test_the_view_of_a_determinized_view_is_the_view(
    config: p.Config, seed: int, chooser: int, pick: int, rng_seed: int
) -> None:
    steps = playout(config, seed, chooser)
    full = Counter(dict.fromkeys(DECK, config.decks))
    for state, _move in (steps[0], steps[pick % len(steps)], steps[-1]):
        for number, seat in enumerate((None, *range(config.players))):
            seen = p.view(state, seat)
            p.check_view(seen)
            sampled = p.determinize(seen, Rng.from_seed(rng_seed).advanced(number))
            p.check_state(sampled)
            assert all_cards(sampled) == full
            assert p.view(sampled, seat) == seen
            assert repr(p.view(sampled, seat)) == repr(seen)
            assert sampled.deal is not None  # a deal it agrees with: check_state above
            assert p.legal_moves(sampled) == p.legal_moves(state) or seat != state.seat


@playout_settings
@given(configs(), seeds, seeds, st.integers(0, 2**16))
def test_errors_name_nothing_the_seat_on_turn_cannot_see(
    config: p.Config, seed: int, chooser: int, pick: int
) -> None:
    steps = playout(config, seed, chooser)
    for state, _move in steps[pick % len(steps) :: 7]:
        check_errors_hide_secrets(_Rules(), state, unlisted_moves(state))  # type: ignore[arg-type]


class _Rules:
    """What ``check_errors_hide_secrets`` reads of a ruleset, until palace has its
    ``RULES`` (``check_view_hides_secrets`` also needs palace's JSON hooks: the property
    above checks its value and ``repr`` parts).
    """

    view = staticmethod(p.view)
    determinize = staticmethod(p.determinize)
    check_state = staticmethod(p.check_state)
    apply = staticmethod(p.apply)
    current_player = staticmethod(p.current_player)

    @staticmethod
    def players(config: p.Config) -> int:
        return config.players

    @staticmethod
    def config_of(state: p.State) -> p.Config:
        return state.config


@playout_settings
@given(configs(), seeds, seeds, st.integers(0, 2**16))
def test_two_generators_deal_the_hidden_cards_differently(
    config: p.Config, seed: int, chooser: int, pick: int
) -> None:
    steps = playout(config, seed, chooser)
    state = steps[pick % len(steps)][0]
    for seat in (None, *range(config.players)):
        seen = p.view(state, seat)
        hidden = seen.stock_size + sum(map(sum, seen.face_down))
        hidden += sum(
            size - len(known)
            for s, (size, known) in enumerate(zip(seen.hand_sizes, seen.known, strict=True))
            if s != seat
        )
        if hidden < 8:  # too few to be sure that four deals differ
            continue
        deals = {hidden_part(p.determinize(seen, Rng.from_seed(n)), seat) for n in range(4)}
        assert len(deals) > 1, f"seat {seat}: four generators dealt the same hidden cards"


def test_determinize_is_reproducible_from_its_generator() -> None:
    state = ready_all(p.new_game(seed=3))
    seen = p.view(state, 0)
    assert p.determinize(seen, Rng.from_seed(5)) == p.determinize(seen, Rng.from_seed(5))
    assert p.determinize(seen, Rng.from_seed(5)).seed != p.determinize(seen, Rng.from_seed(6)).seed


def test_determinize_keeps_what_the_seat_sees_and_redeals_the_rest() -> None:
    state = ready_all(p.new_game(seed=3))
    sampled = p.determinize(p.view(state, 1), Rng.from_seed(8))
    assert sampled.hands[1] == state.hands[1]
    assert sampled.face_up == state.face_up
    assert len(sampled.stock) == len(state.stock)
    assert (sampled.stock, sampled.face_down) != (state.stock, state.face_down)


def test_a_spectators_determinization_redeals_every_hand() -> None:
    state = ready_all(p.new_game(seed=3))
    seen = p.view(state, None)
    sampled = [p.determinize(seen, Rng.from_seed(n)) for n in range(4)]
    assert all(p.view(s, None) == seen for s in sampled)
    assert len({s.hands for s in sampled}) > 1


def test_determinize_refuses_a_view_that_does_not_add_up() -> None:
    seen = p.view(p.new_game(seed=3), 0)
    with pytest.raises(InvalidStateError, match="counts do not add up"):
        p.determinize(attrs.evolve(seen, stock_size=0), Rng.from_seed(1))


# --- the deal a state keeps -----------------------------------------------------------------


def test_a_state_keeps_the_deal_it_was_given_through_every_move() -> None:
    config = p.Config()
    deal = deal_order(config, hands=["4C 5C 6C"])
    state = p.new_game(config, seed=1, deal=deal)
    assert state.deal == tuple(deal)
    state = ready_all(state)
    state = p.apply(state, p.legal_moves(state)[0])
    assert state.deal == tuple(deal)
    p.check_state(state)


def test_a_seeded_game_keeps_no_deal() -> None:
    assert p.new_game(seed=1).deal is None
    assert ready_all(p.new_game(seed=1)).deal is None


def test_check_state_refuses_a_deal_that_is_not_the_configured_decks() -> None:
    state = p.new_game(seed=1)
    deck = list(DECK)
    with pytest.raises(InvalidStateError, match="the deal must be exactly the configured 1 deck"):
        p.check_state(attrs.evolve(state, deal=tuple(deck[:-1] + deck[:1])))
    with pytest.raises(InvalidStateError, match="the deal must be a tuple of cards"):
        p.check_state(attrs.evolve(state, deal=deck))  # type: ignore[arg-type]
