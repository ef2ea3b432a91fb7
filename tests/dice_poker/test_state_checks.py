"""Loading refuses dice poker states that break a rule only their history could show: the
stage orders, the fences a sheet can have banked, and where the generator stands.

Each bad state is made the way a hand-edited file would be: a state reached by play is
dumped, its JSON edited, and loaded again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.config import BoxScores, StageOrder
from tabletop_rules.errors import InvalidStateError
from tabletop_rules.rng import Rng
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.testing import Playout, random_playout

from .strategies import configs

Box = dp.Box
Data = dict[str, Any]
GAMMA = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1
PER_STAGE = 15


def play(state: dp.State, *texts: str) -> dp.State:
    for text in texts:
        state = dp.apply(state, dp.parse_move(state, text))
    return state


def edited(state: dp.State, edit: Callable[[Data], object]) -> str:
    """``state`` dumped, its data edited in place by ``edit``, and dumped again."""
    envelope = json.loads(dumps(state))
    edit(envelope["data"])
    return json.dumps(envelope)


def refused(text: str, fragment: str) -> None:
    with pytest.raises(InvalidStateError, match=fragment):
        loads(text)


def move_cell(seat: int, old: int, new: int, value: int) -> Callable[[Data], None]:
    """Seat ``seat`` filled cell ``new`` with ``value`` instead of cell ``old`` (same stage)."""

    def edit(data: Data) -> None:
        data["sheets"][seat][old] = None
        data["sheets"][seat][new] = value

    return edit


def set_bank(seat: int, bank: int) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data["fences"][seat] = bank

    return edit


def set_rng(state: int) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data["rng"] = {"state": state}

    return edit


def fill_at_once(state: dp.State, box: Box) -> dp.State:
    """One turn that fills ``box`` as cheaply as the rules allow: a poker box scratched
    before the first throw, a mountain box written after one throw of 1 2 3 4 6.
    """
    name = box.name.lower()
    if box.is_poker:
        return play(state, f"scratch {name}")
    state = play(state, "roll", "dice 1 2 3 4 6")
    if state.config.stage_order(state.stage) == "announce":
        state = play(state, f"announce {name}")
    return play(state, f"write {name}")


def manual(**rules: Any) -> dp.Config:
    return dp.Config(auto_chance=False, **rules)


# --- stage orders ---------------------------------------------------------------------------


def test_a_down_stage_with_chance_filled_before_ones_does_not_load() -> None:
    state = play(dp.new_game(manual(stage_orders="down"), seed=1), "roll", "dice 1 2 3 4 6")
    state = play(state, "write ones")
    assert loads(dumps(state)) == state
    refused(
        edited(state, move_cell(0, Box.ONES, Box.CHANCE, 16)),
        "seat 0 filled CHANCE of stage 1 before ONES, but stage 1 is played 'down'",
    )


def test_an_up_stage_with_ones_filled_before_chance_does_not_load() -> None:
    state = play(dp.new_game(manual(stage_orders="up"), seed=1), "roll", "dice 1 2 3 4 6")
    state = play(state, "write chance")
    assert loads(dumps(state)) == state
    refused(
        edited(state, move_cell(0, Box.CHANCE, Box.ONES, -2)),
        "seat 0 filled ONES of stage 1 before CHANCE, but stage 1 is played 'up'",
    )


def second_stage_begun(order: StageOrder) -> dp.State:
    """One player, stage 1 free and full, stage 2 in ``order`` with three boxes filled."""
    state = dp.new_game(manual(players=1, stages=2, stage_orders=("free", order)), seed=2)
    for box in Box:
        state = fill_at_once(state, box)
    ends = (Box.ONES, Box.TWOS, Box.THREES) if order != "up" else (Box.CHANCE, Box.POKER)
    for box in ends:
        state = fill_at_once(state, box)
    return state


def test_a_down_stage_in_progress_with_a_gap_does_not_load() -> None:
    state = second_stage_begun("down")
    assert loads(dumps(state)) == state
    refused(
        edited(state, move_cell(0, PER_STAGE + Box.THREES, PER_STAGE + Box.FOURS, -8)),
        "seat 0 filled FOURS of stage 2 before THREES, but stage 2 is played 'down'",
    )


def test_an_up_stage_in_progress_with_a_gap_does_not_load() -> None:
    state = second_stage_begun("up")
    assert loads(dumps(state)) == state
    refused(
        edited(state, move_cell(0, PER_STAGE + Box.POKER, PER_STAGE + Box.SMALL_STRAIGHT, 0)),
        "seat 0 filled SMALL_STRAIGHT of stage 2 before POKER, but stage 2 is played 'up'",
    )


@pytest.mark.parametrize("order", ["free", "announce"])
def test_free_and_announce_stages_load_with_any_boxes_filled(order: StageOrder) -> None:
    state = second_stage_begun(order)
    text = edited(state, move_cell(0, PER_STAGE + Box.THREES, PER_STAGE + Box.FOURS, -8))
    moved = loads(text, dp.State)
    assert moved.cell(0, 1, Box.FOURS) == -8
    assert moved.cell(0, 1, Box.THREES) is None


# --- fences ---------------------------------------------------------------------------------


def test_more_fences_than_the_sheet_allows_do_not_load() -> None:
    # Writing CHANCE took a throw, so the turn banked at most 3 - 1 = 2 fences; the old
    # bound, throws_per_turn per turn, let 3 through.
    state = play(dp.new_game(manual(), seed=1), "roll", "dice 1 2 3 4 6", "write chance")
    assert state.fences == (2, 0)
    refused(edited(state, set_bank(0, 3)), "seat 0 has 3 fences but its sheet allows at most 2")


def test_a_zero_in_a_mountain_box_was_thrown_so_it_banks_at_most_one_less() -> None:
    state = play(dp.new_game(manual(), seed=1), "roll", "dice 3 3 3 4 6", "write threes")
    assert state.cell(0, 0, Box.THREES) == 0
    refused(edited(state, set_bank(0, 3)), "seat 0 has 3 fences but its sheet allows at most 2")


def test_a_zero_in_a_poker_box_may_have_been_scratched_before_the_first_throw() -> None:
    scratched = play(dp.new_game(manual(), seed=1), "scratch pair")
    assert scratched.fences == (3, 0)
    assert loads(dumps(scratched)) == scratched
    refused(edited(scratched, set_bank(0, 4)), "seat 0 has 4 fences but its sheet allows at most 3")
    # A straight written for 0 points after a throw cannot be told from one scratched at once.
    config = manual(box_scores=BoxScores(small_straight=0))
    written = play(dp.new_game(config, seed=1), "roll", "dice 1 2 3 4 5", "write small_straight")
    assert written.fences == (2, 0)
    assert loads(edited(written, set_bank(0, 3))) == attrs.evolve(written, fences=(3, 0))


def test_the_fence_bound_is_what_the_cheapest_play_banks() -> None:
    state = second_stage_begun("down")  # 9 scratched at once, 9 written after one throw
    assert state.fences == (9 * 3 + 9 * 2,)
    refused(edited(state, set_bank(0, 46)), "has 46 fences but its sheet allows at most 45")


def test_the_fence_bound_counts_a_seat_s_turns_not_the_game_s() -> None:
    state = play(dp.new_game(manual(players=3), seed=1), "scratch pair", "scratch pair")
    assert loads(dumps(state)) == state
    refused(edited(state, set_bank(2, 1)), "seat 2 has 1 fences but its sheet allows at most 0")


# --- the generator --------------------------------------------------------------------------


def test_a_new_game_whose_generator_is_not_its_seeds_does_not_load() -> None:
    state = dp.new_game(seed=5)
    assert loads(dumps(state)) == state
    refused(
        edited(state, set_rng(6)),
        r"no throw has been made yet, so the generator must be the seed's, Rng\(state=5\)",
    )
    _value, one_draw = Rng.from_seed(5).next_u64()
    refused(edited(state, set_rng(one_draw.state)), "no throw has been made yet")


def test_a_manual_dice_game_whose_generator_moved_does_not_load() -> None:
    state = play(dp.new_game(manual(), seed=5), "roll", "dice 1 2 3 4 6", "write chance", "roll")
    assert state.rng == Rng.from_seed(5)
    assert loads(dumps(state)) == state
    _value, moved = Rng.from_seed(5).next_u64()
    refused(
        edited(state, set_rng(moved.state)),
        "with auto_chance off the dice are given as moves and the generator never draws",
    )


def auto_game() -> dp.State:
    """Default rules, dice from the generator: two turns of one throw, then a throw."""
    state = play(dp.new_game(seed=5), "roll", "write chance", "roll", "write chance", "roll")
    assert state.rng.draws_since(5) == 3
    return state


def test_an_auto_dice_game_whose_generator_lags_its_throws_does_not_load() -> None:
    state = auto_game()
    assert loads(dumps(state)) == state
    refused(
        edited(state, set_rng(5)),
        "the generator is 0 draws past the seed's, but the game has made at least 3 throws",
    )


def test_with_uncapped_fences_every_throw_made_is_counted() -> None:
    # The sheet alone proves two throws, the dice on the table a third; but the banks say
    # each finished turn threw exactly once, so two draws are one too few.
    state = auto_game()
    two_draws = (5 + 2 * GAMMA) & MASK
    refused(edited(state, set_rng(two_draws)), "at least 3 throws")


def test_with_capped_fences_the_sheet_proves_the_throws() -> None:
    # A cap may have cut fences off, so the banks prove nothing: one throw per cell that
    # needed one, plus the throws of this turn.
    config = dp.Config(max_fences=1)
    state = play(dp.new_game(config, seed=5), "roll", "write chance", "scratch pair", "roll")
    assert state.rng.draws_since(5) == 2
    refused(edited(state, set_rng((5 + GAMMA) & MASK)), "at least 2 throws")


def test_an_auto_dice_game_whose_generator_ran_ahead_does_not_load() -> None:
    state = auto_game()
    refused(edited(state, set_rng(state.rng.state ^ 1)), "more than twice the 3 throws")
    seven_draws = (5 + 7 * GAMMA) & MASK
    refused(edited(state, set_rng(seven_draws)), "the generator is 7 draws past the seed's")


def test_a_game_whose_seed_was_changed_does_not_load() -> None:
    # The record replays from the seed: a seed that does not lead to the generator lies.
    def reseed(data: Data) -> None:
        data["seed"] = 6

    refused(edited(auto_game(), reseed), "draws past the seed's, more than twice")
    manual_game = play(dp.new_game(manual(), seed=5), "roll", "dice 1 2 3 4 6", "write chance")
    refused(edited(manual_game, reseed), r"must be the seed's, Rng\(state=6\)")


def test_a_generator_a_few_rejected_draws_ahead_still_loads() -> None:
    # Rng.below may reject a draw and draw again: up to one extra draw per throw passes.
    state = auto_game()
    six_draws = (5 + 6 * GAMMA) & MASK
    assert loads(edited(state, set_rng(six_draws))) == attrs.evolve(state, rng=Rng(six_draws))


def test_a_view_of_an_auto_dice_game_still_loads() -> None:
    # A view carries no generator, so loading it checks the table alone.
    state = auto_game()
    for seat in (None, 0, 1):
        seen = dp.view(state, seat)
        assert loads(dumps(seen)) == seen


def test_check_view_skips_only_the_generator() -> None:
    state = attrs.evolve(auto_game(), rng=Rng.from_seed(5))
    dp.check_view(dp.view(state, None))
    with pytest.raises(InvalidStateError, match="generator"):
        dp.check_state(state)
    with pytest.raises(InvalidStateError, match="fences"):
        dp.check_view(dp.view(attrs.evolve(state, fences=(3, 2)), None))


# --- every state reached by play loads ---------------------------------------------------


@st.composite
def checked_configs(draw: st.DrawFn) -> dp.Config:
    """Configs that reach the new checks: down and up stages, capped and uncapped fences,
    fences off, manual dice."""
    config = draw(configs(max_players=3))
    orders = st.sampled_from(("down", "up", "free", "announce"))
    stage_orders = tuple(draw(orders) for _ in range(config.stages))
    return attrs.evolve(
        config,
        stage_orders=stage_orders,
        fences=draw(st.booleans()),
        max_fences=draw(st.none() | st.integers(0, 5)),
        auto_chance=draw(st.booleans()),
    )


@st.composite
def playouts(draw: st.DrawFn) -> Playout:
    seeds = st.integers(0, 2**64 - 1)
    return random_playout(dp.RULES, draw(checked_configs()), draw(seeds), draw(seeds))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(playouts())
def test_every_state_reached_by_play_passes_every_check(playout: Playout) -> None:
    config = playout.states[0].config
    throws = 0
    for index, state in enumerate(playout.states):
        dp.check_state(state)
        # One draw per throw (a rejection has probability below 2**-51), none by hand.
        assert state.rng.draws_since(state.seed) == (throws if config.auto_chance else 0)
        if index < len(playout.moves):
            throws += isinstance(playout.moves[index], dp.Roll)
    final = playout.states[-1]
    assert loads(dumps(final)) == final


@pytest.mark.parametrize("orders", [("down",), ("up",), ("down", "up")])
@pytest.mark.parametrize("max_fences", [None, 0, 2])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_states_of_down_and_up_games_load(
    orders: tuple[StageOrder, ...], max_fences: int | None, auto_chance: bool
) -> None:
    config = dp.Config(
        players=2,
        stages=len(orders),
        stage_orders=orders,
        max_fences=max_fences,
        auto_chance=auto_chance,
    )
    for state in random_playout(dp.RULES, config, 11, 12).states:
        assert loads(dumps(state)) == state


def test_a_state_whose_totals_do_not_match_its_sheets_is_refused() -> None:
    # totals is derived and never travels in JSON; check_state still holds it true.
    state = dp.apply(dp.apply(dp.new_game(seed=5), dp.Roll()), dp.Write(dp.Box.CHANCE))
    wrong = attrs.evolve(state, totals=(state.totals[0] + 1, state.totals[1]))
    with pytest.raises(InvalidStateError, match="seat 0's totals entry does not match"):
        dp.check_state(wrong)
