"""Properties of every reachable state, over random playouts of random configs."""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import account as r
from tabletop_rules.account import State, check_state
from tabletop_rules.account.cards import CARDS, Card
from tabletop_rules.account.config import Config
from tabletop_rules.account.events import AccountChanged
from tabletop_rules.account.moves import DIRECTIONS, Advance, Buy, Die, Move, Place, Roll
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.protocol import CHANCE
from tabletop_rules.rng import Rng

playout_settings = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
seeds = st.integers(0, 2**64 - 1)


@st.composite
def configs(draw: st.DrawFn, most_players: int = 4, most_columns: int = 6) -> Config:
    """Random house rules on a small field, with a deck that fills it."""
    rows = draw(st.integers(1, 3))
    columns = draw(st.integers(1, most_columns))
    counts = draw(st.lists(st.integers(0, 4), min_size=len(CARDS), max_size=len(CARDS)))
    deck = dict(zip(CARDS, counts, strict=True))
    deck[CARDS[0]] += rows * columns  # enough cards for the field
    max_markers = draw(st.integers(1, 3))
    return Config(
        players=draw(st.integers(1, most_players)),
        deck=deck,
        rows=rows,
        columns=columns,
        starting_markers=draw(st.integers(1, max_markers)),
        max_markers=max_markers,
        marker_cost=draw(st.sampled_from([0, 10, 50, 2000])),
        placement_scores=draw(st.booleans()),
        floor_at_zero=draw(st.booleans()),
        collapse=draw(st.booleans()),
        end=draw(st.sampled_from(["immediate", "finish_round"])),
        max_rounds=draw(st.integers(1, 12)),
        auto_chance=draw(st.booleans()),
    )


def all_cards(state: State) -> Counter[Card]:
    cards: Counter[Card] = Counter(state.pack)
    cards.update(state.discard)
    for column in state.field:
        cards.update(column)
    return cards


def playout(config: Config, seed: int) -> list[State]:
    state = r.new_game(config, seed=seed)
    rng = Rng.from_seed(seed ^ 0x5A5A)
    states = [state]
    while not r.is_over(state):
        moves = r.legal_moves(state)
        assert moves, "a game that is not over always has a move"
        index, rng = rng.below(len(moves))
        state = r.apply(state, moves[index])
        states.append(state)
        assert len(states) <= r.max_moves(config) + 1
    return states


@playout_settings
@given(configs(), seeds)
def test_every_state_is_consistent_and_cards_are_conserved(config: Config, seed: int) -> None:
    deck = Counter(config.deck_cards())
    for state in playout(config, seed):
        check_state(state)
        assert all_cards(state) == deck
        for owned in state.markers:
            assert len(owned) <= config.max_markers
            assert all(state.field[column] for column in owned)
        if config.floor_at_zero:
            assert min(state.accounts) >= 0


@playout_settings
@given(configs(), seeds)
def test_games_end_within_max_moves_and_winners_appear_only_at_the_end(
    config: Config, seed: int
) -> None:
    states = playout(config, seed)
    assert len(states) - 1 <= r.max_moves(config)
    assert all(r.winners(state) == frozenset() for state in states[:-1])
    final = states[-1]
    assert r.winners(final)
    assert max(final.accounts) == max(r.score(final)[seat] for seat in r.winners(final))


@playout_settings
@given(configs(), seeds)
def test_apply_never_mutates_and_each_account_is_the_sum_of_its_events(
    config: Config, seed: int
) -> None:
    state = r.new_game(config, seed=seed)
    rng = Rng.from_seed(seed)
    while not r.is_over(state):
        moves = r.legal_moves(state)
        index, rng = rng.below(len(moves))
        before = copy.deepcopy(state)
        after, events = r.apply_with_events(state, moves[index])
        assert state == before
        assert r.apply(state, moves[index]) == after
        accounts = list(state.accounts)
        for event in events:
            if isinstance(event, AccountChanged):
                assert accounts[event.seat] == event.before
                accounts[event.seat] = event.after
        assert tuple(accounts) == after.accounts  # every change is an event
        state = after


def candidate_moves(config: Config) -> list[Move]:
    moves: list[Move] = [Roll()]
    moves += [Place(column) for column in range(config.columns + 1)]
    moves += [Buy(column) for column in range(config.columns + 1)]
    moves += [Die(value) for value in range(1, 7)]
    moves += [
        Advance(marker, direction, steps)
        for marker in range(config.max_markers + 1)
        for direction in DIRECTIONS
        for steps in range(1, 7)
    ]
    return moves


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs(), seeds)
def test_moves_legal_moves_does_not_list_are_refused_and_listed_ones_accepted(
    config: Config, seed: int
) -> None:
    everything = candidate_moves(config)
    for state in playout(config, seed)[:40]:
        legal = set(r.legal_moves(state))
        assert len(legal) == len(r.legal_moves(state))
        player = r.current_player(state)
        probabilities = r.chance_probabilities(state)
        if player == CHANCE:
            assert set(probabilities) == legal
            assert sum(probabilities.values()) == 1
        else:
            assert probabilities == {}
        for move in everything:
            if move in legal:
                r.apply(state, move)
            else:
                try:
                    r.apply(state, move)
                except IllegalMoveError:
                    continue
                raise AssertionError(f"{move} is accepted but not listed")
