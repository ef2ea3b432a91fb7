"""Properties of every reachable palace state, over random playouts of random configs."""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import palace as p
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.palace.cards import DECK
from tabletop_rules.rng import Rng

playout_settings = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
seeds = st.integers(0, 2**64 - 1)


@st.composite
def configs(draw: st.DrawFn) -> p.Config:
    decks = draw(st.integers(1, 2))
    hand_size = draw(st.integers(1, 5))
    players = draw(st.integers(2, min(4, 52 * decks // (6 + hand_size))))
    return p.Config(
        players=players,
        decks=decks,
        hand_size=hand_size,
        must_beat=draw(st.sampled_from(["equal_or_higher", "higher"])),
        quad=draw(st.sampled_from(["extra_play", "burn"])),
        face_up_play=draw(st.sampled_from(["take_into_hand", "from_table"])),
        voluntary_pickup=draw(st.booleans()),
        first_player=draw(st.sampled_from(["lowest_card", "seat0"])),
        play_until=draw(st.sampled_from(["first_out", "last"])),
        max_turns=draw(st.integers(1, 300)),
    )


def all_cards(state: p.State) -> Counter[p.Card]:
    counted = Counter(state.stock) + Counter(state.pile) + Counter(state.burned)
    for seat in range(state.config.players):
        counted.update(state.hands[seat])
        counted.update(card for card in state.face_up[seat] if card is not None)
        counted.update(card for card in state.face_down[seat] if card is not None)
    return counted


def playout(config: p.Config, seed: int, chooser: int) -> list[tuple[p.State, p.Move]]:
    """Random legal moves until the game is over; every (state, move) pair on the way."""
    state = p.new_game(config, seed=seed)
    rng = Rng.from_seed(chooser)
    steps: list[tuple[p.State, p.Move]] = []
    while not p.is_over(state):
        moves = p.legal_moves(state)
        assert moves, "a game not over has a legal move"
        index, rng = rng.below(len(moves))
        steps.append((state, moves[index]))
        state = p.apply(state, moves[index])
        assert len(steps) <= p.max_moves(config), "the game outlived max_moves"
    steps.append((state, p.Ready()))
    return steps


@playout_settings
@given(configs(), seeds, seeds)
def test_random_playouts_conserve_cards_and_keep_every_invariant(
    config: p.Config, seed: int, chooser: int
) -> None:
    full = Counter(dict.fromkeys(DECK, config.decks))
    for state, _move in playout(config, seed, chooser):
        p.check_state(state)
        assert all_cards(state) == full
        assert p.current_player(state) == (None if p.is_over(state) else state.seat)
        for seat in range(config.players):
            assert not Counter(state.known[seat]) - Counter(state.hands[seat])


@playout_settings
@given(configs(), seeds, seeds)
def test_games_end_within_max_moves_with_consistent_results(
    config: p.Config, seed: int, chooser: int
) -> None:
    steps = playout(config, seed, chooser)
    final = steps[-1][0]
    assert len(steps) - 1 <= p.max_moves(config)
    assert p.is_over(final)
    scores = p.score(final)
    assert p.winners(final) == frozenset(final.finished[:1])
    assert sorted(scores, reverse=True)[: len(final.finished)] == [
        config.players - 1 - place for place in range(len(final.finished))
    ]
    if not final.finished:
        assert final.turns == config.max_turns


@playout_settings
@given(configs(), seeds, seeds)
def test_apply_never_changes_its_argument_and_events_match(
    config: p.Config, seed: int, chooser: int
) -> None:
    for state, move in playout(config, seed, chooser)[:-1]:
        before = copy.deepcopy(state)
        after, _events = p.apply_with_events(state, move)
        assert state == before
        assert p.apply(state, move) == after


def unlisted_moves(state: p.State) -> list[p.Move]:
    """Moves of every class, many not listed; plays of cards the seat plays from included."""
    seat = state.seat
    up = [card for card in state.face_up[seat] if card is not None]
    held = source(state)
    moves: list[p.Move] = [p.Ready(), p.TakePile(), p.EndTurn()]
    moves += [p.PlayBlind(slot) for slot in range(3)]
    moves += [p.Play((card,)) for card in held[:6]]
    moves += [p.Play((card,)) for card in DECK[::7]]
    if len(held) >= 2:
        moves.append(p.Play(tuple(held[:2])))
    moves += [p.Play((card,)) for card in up]  # from the table: legal only as the source
    moves += [p.Swap(a, b) for a in state.hands[seat][:2] for b in (*up[:2], *DECK[::13])]
    return moves


def source(state: p.State) -> list[p.Card]:
    """The cards the seat on turn plays from: its hand, or its face-up row from the table."""
    seat = state.seat
    up = [card for card in state.face_up[seat] if card is not None]
    return list(state.hands[seat]) or (up if state.config.face_up_play == "from_table" else [])


def equivalent_to_listed(state: p.State, move: p.Move, listed: tuple[p.Move, ...]) -> bool:
    """Listed, or a play of cards the seat plays from of a listed play's rank and count."""
    if type(move) is not p.Play:
        return move in listed
    if Counter(move.cards) - Counter(source(state)):
        return False
    if len({card.rank for card in move.cards}) != 1:  # a play lays cards of one rank
        return False
    return any(
        type(other) is p.Play
        and len(other.cards) == len(move.cards)
        and other.cards[0].rank == move.cards[0].rank
        for other in listed
    )


@playout_settings
@given(configs(), seeds, seeds)
def test_moves_not_listed_are_refused_and_equivalent_plays_accepted(
    config: p.Config, seed: int, chooser: int
) -> None:
    for state, _move in playout(config, seed, chooser)[::5]:
        listed = p.legal_moves(state)
        for move in unlisted_moves(state):
            if equivalent_to_listed(state, move, listed):
                after = p.apply(state, move)  # held cards of a listed class: accepted
                p.check_state(after)
                if type(move) is p.Play:
                    assert Counter(after.pile + after.burned) - Counter(
                        state.pile + state.burned
                    ) == Counter(move.cards)
            else:
                try:
                    p.apply(state, move)
                except IllegalMoveError:
                    continue
                raise AssertionError(f"{move!r} is not listed but was accepted")


@playout_settings
@given(configs(), seeds, seeds)
def test_every_listed_move_applies_and_lists_are_deterministic(
    config: p.Config, seed: int, chooser: int
) -> None:
    for state, _move in playout(config, seed, chooser)[::3]:
        listed = p.legal_moves(state)
        assert listed == p.legal_moves(state)
        assert len(set(listed)) == len(listed)
        for move in listed:
            p.check_state(p.apply(state, move))
