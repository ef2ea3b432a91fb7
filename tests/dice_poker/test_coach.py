"""The dice coach: exact chances per box and keep, the turn's advice, and CoachBot, which
plays by it and beats GreedyBot clearly."""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.coach import (
    HORIZON,
    Values,
    advice_lines,
    box_chances,
    coach,
    coach_lines,
)
from tabletop_rules.dice_poker.config import MAX_STAGES, MAX_THROWS_PER_TURN, BoxScores
from tabletop_rules.dice_poker.scoring import ALL_THROWS, KEEPS, PROBABILITIES, points
from tabletop_rules.errors import ConfigError, IllegalMoveError
from tabletop_rules.protocol import Bot
from tabletop_rules.rng import Rng
from tabletop_rules.simulate import play_game, simulate

from .strategies import configs

Box = dp.Box


def test_four_sixes_kept_with_one_throw_left_make_poker_one_time_in_six() -> None:
    assert box_chances(Box.POKER, (6, 6, 6, 6), 1) == (Fraction(1, 6), Fraction(50, 6))


def test_five_alike_within_three_throws_with_the_best_keeps_is_the_published_4_603_percent() -> (
    None
):
    chance, _ = box_chances(Box.POKER, (), 3)
    assert chance == Fraction(2783176, 60466176)  # 0.04603, the published Yahtzee figure
    assert round(float(chance), 5) == 0.04603


def test_a_mountain_box_is_made_by_three_of_its_face_and_expects_its_score() -> None:
    # two fives kept, three dice thrown once: at least one five among them
    assert box_chances(Box.FIVES, (5, 5), 1) == (
        1 - Fraction(5, 6) ** 3,
        5 * (2 + Fraction(3, 6) - 3),  # (count - 3) * face, count = 2 + fives thrown
    )


def _face_made(kept: int, throws: int) -> tuple[Fraction, Fraction]:
    """With ``kept`` dice of a face kept and every other die thrown again until it shows it:
    the chance of three or more of the face, and the expected count less three. Each die not
    kept shows the face by the last throw with chance ``1 - (5/6) ** throws``, alone."""
    shows = 1 - Fraction(5, 6) ** throws
    rest = 5 - kept
    made = sum(
        (
            comb(rest, more) * shows**more * (1 - shows) ** (rest - more)
            for more in range(max(3 - kept, 0), rest + 1)
        ),
        Fraction(0),
    )
    return made, kept + rest * shows - 3


@pytest.mark.parametrize("box", [box for box in Box if box.is_mountain])
def test_a_mountain_box_is_made_as_the_binomial_chances_of_its_face_say(box: dp.Box) -> None:
    """Keeping every die of the face is the best play for its box, so each die thrown is a
    trial that succeeds with ``1 - (5/6) ** throws``: the coach agrees to the last digit."""
    for kept in range(5):
        for throws in (1, 2, 3, 6):
            made, count = _face_made(kept, throws)
            assert box_chances(box, (box.face,) * kept, throws) == (made, box.face * count)


def test_a_box_of_fixed_score_expects_its_score_times_its_chance() -> None:
    scores = BoxScores(small_straight=7, large_straight=0, poker=999)
    for keep, throws in [((), 3), ((2, 3, 4), 2), ((6, 6), 4)]:
        for box, score in [(Box.SMALL_STRAIGHT, 7), (Box.LARGE_STRAIGHT, 0), (Box.POKER, 999)]:
            chance, points = box_chances(box, keep, throws, scores)
            assert chance == box_chances(box, keep, throws)[0]
            assert points == score * chance


def test_the_coach_recursing_once_per_throw_left_is_gone_past_its_horizon() -> None:
    """Point 7: past ``HORIZON`` throws the chances are those of ``HORIZON`` throws, at most
    the true ones and short of them by under 0.004% of the box's best score (checked on the
    mountain boxes against their binomial closed form, and against the limits, 1 and the
    best score, for every box and keep)."""
    horizon = HORIZON
    far = 5 * horizon
    for box in (Box.ONES, Box.SIXES):
        made, count = _face_made(1, far)
        chance, worth = box_chances(box, (box.face,), far)
        assert (chance, worth) == box_chances(box, (box.face,), horizon)
        assert made - Fraction(4, 100_000) < chance < made
        assert box.face * count - Fraction(4, 100_000) * 2 * box.face < worth < box.face * count
    best = {box: max(points(box, dice) or 0 for dice in ALL_THROWS) for box in Box}
    for box in Box:
        for keep in {kept for dice in ALL_THROWS for kept in KEEPS[dice]}:
            chance, worth = box_chances(box, keep, far)
            assert 1 - Fraction(4, 100_000) < chance <= 1
            assert best[box] * (1 - Fraction(4, 100_000)) < worth <= best[box]


def _most_banked(order: str, open_boxes: int) -> dp.State:
    """Point 7's table: the house rules' most throws, stages and one seat, fences on and
    uncapped; every mountain box written after one throw (banking 9), every poker box
    scratched before throwing (banking 10), till the last stage's ``open_boxes`` boxes (the
    last of them POKER) are open: the most throws a turn can allow there."""
    config = dp.Config(
        players=1,
        throws_per_turn=MAX_THROWS_PER_TURN,
        stages=MAX_STAGES,
        stage_orders=order,
    )
    state = dp.new_game(config, seed=7)
    while state.turns_played < config.boxes_per_player - open_boxes:
        boxes = state.open_boxes(0, state.stage)
        box = next((box for box in boxes if box is not Box.POKER), Box.POKER)
        if box.is_mountain:
            state = dp.apply(state, dp.Roll())
            if order == "announce":
                state = dp.apply(state, dp.Announce(box))
            state = dp.apply(state, dp.Write(box))
        else:
            state = dp.apply(state, dp.Scratch(box))
    dp.check_state(state)
    return state


@pytest.mark.parametrize(
    ("order", "open_boxes", "throws"),
    [("free", 15, 1306), ("announce", 15, 1306), ("free", 1, 1440)],
)
def test_the_coach_answers_at_once_however_many_throws_the_house_rules_allow(
    order: str, open_boxes: int, throws: int
) -> None:
    """Point 7: a turn of 1,306 throws with the whole last stage open (1,440 for its last
    box) once raised ``RecursionError``; now the coach, the hint, the bot and the score
    sheet's lines each answer within a second of processor time (they take a few tenths),
    before the first throw, after it, and 300 throws into the turn."""
    state = _most_banked(order, open_boxes)
    assert state.throws_allowed == throws
    bot = dp.CoachBot()
    for step in range(3):
        seen = dp.view(state, 0)
        for consumer in (coach, dp.RULES.hint, bot.choose, coach_lines, advice_lines):
            started = time.process_time()  # the work done, whatever else shares the cores
            consumer(seen)
            assert time.process_time() - started < 1.0, consumer
        advice = coach(seen)
        assert advice.throws_left == throws - state.throws_used
        assert advice.move in dp.legal_moves(state)
        assert bot.choose(seen) == advice.move
        if step == 0:
            state = dp.apply(state, dp.Roll())
        else:
            if order == "announce" and step == 1:
                state = dp.apply(state, dp.Announce(advice.boxes[0]))
            for _ in range(300):
                state = dp.apply(state, dp.Roll())


def test_a_straight_one_die_short_is_made_one_time_in_six() -> None:
    assert box_chances(Box.SMALL_STRAIGHT, (1, 2, 3, 4), 1) == (Fraction(1, 6), Fraction(15, 6))


def test_chance_is_always_made() -> None:
    assert box_chances(Box.CHANCE, (), 1) == (Fraction(1), Fraction(35, 2))


def test_box_chances_refuse_what_no_throw_keeps() -> None:
    with pytest.raises(IllegalMoveError, match="keeps 0 to 4 dice"):
        box_chances(Box.PAIR, (6, 6, 6, 6, 6), 1)
    with pytest.raises(IllegalMoveError, match="throw left"):
        box_chances(Box.PAIR, (6,), 0)
    with pytest.raises(TypeError):
        box_chances(6, (6,), 1)  # type: ignore[arg-type]


throws = st.sampled_from(ALL_THROWS)


@st.composite
def kept(draw: st.DrawFn) -> tuple[int, ...]:
    return draw(st.sampled_from(KEEPS[draw(throws)]))


@given(box=st.sampled_from(list(Box)), keep=kept(), left=st.integers(1, 4))
def test_chances_are_probabilities_and_grow_with_the_throws_left(
    box: dp.Box, keep: tuple[int, ...], left: int
) -> None:
    chance, expected = box_chances(box, keep, left)
    more_chance, more_expected = box_chances(box, keep, left + 1)
    assert 0 <= chance <= more_chance <= 1
    assert expected <= more_expected


@given(box=st.sampled_from(list(Box)), keep=kept())
def test_one_throw_left_sums_the_outcomes_of_the_dice_thrown(
    box: dp.Box, keep: tuple[int, ...]
) -> None:
    made = scored = Fraction(0)
    for outcome, chance in PROBABILITIES[5 - len(keep)].items():
        dice = tuple(sorted(keep + outcome.values))  # type: ignore[union-attr]
        value = points(box, dice)
        fits = dice.count(box.face) >= 3 if box.is_mountain else value is not None
        made += chance * fits
        scored += chance * (value or 0)
    assert box_chances(box, keep, 1) == (made, scored)


def _after_first_turns(config: dp.Config) -> dp.State:
    """Seat 0 writes chance after one throw (banking 2 fences), seat 1 likewise, and seat 0
    throws again."""
    state = dp.new_game(config, seed=5)
    for _ in range(2):
        state = dp.apply(dp.apply(state, dp.Roll()), dp.Write(Box.CHANCE))
    return dp.apply(state, dp.Roll())


def test_fences_extend_the_throws_the_coach_counts() -> None:
    banked = coach(dp.view(_after_first_turns(dp.Config()), 0))
    plain = coach(dp.view(_after_first_turns(dp.Config(fences=False)), 0))
    assert (banked.throws_left, plain.throws_left) == (4, 2)
    keep = banked.keeps[0].keep
    poker = [advice.boxes.index(Box.POKER) for advice in (banked, plain)]
    far = next(k for k in banked.keeps if k.keep == keep).boxes[poker[0]]
    near = next(k for k in plain.keeps if k.keep == keep).boxes[poker[1]]
    assert far.chance == box_chances(Box.POKER, keep, 4)[0] > near.chance


@pytest.mark.parametrize(("order", "box"), [("down", Box.ONES), ("up", Box.CHANCE)])
def test_stage_orders_leave_the_coach_only_the_box_they_allow(order: str, box: dp.Box) -> None:
    state = dp.apply(dp.new_game(dp.Config(stage_orders=order), seed=3), dp.Roll())
    advice = coach(dp.view(state, 0))
    assert advice.boxes == (box,)
    assert all(len(keep.boxes) == 1 and keep.boxes[0].box is box for keep in advice.keeps)
    assert advice.move in dp.legal_moves(state)


def test_in_announce_order_the_coach_names_a_box_after_the_first_throw() -> None:
    state = dp.apply(dp.new_game(dp.Config(stage_orders="announce"), seed=3), dp.Roll())
    advice = coach(dp.view(state, 0))
    assert isinstance(advice.move, dp.Announce)
    assert {fill.move for fill in advice.fills} == set(dp.legal_moves(state))
    announced = dp.apply(state, advice.move)
    assert coach(dp.view(announced, 0)).boxes == (advice.move.box,)


def test_the_advice_plays_its_best_option_and_lists_them_best_first() -> None:
    state = dp.apply(dp.new_game(seed=42), dp.Roll())
    advice = coach(dp.view(state, 1))  # any seat's view advises the seat on turn
    values = [keep.value for keep in advice.keeps]
    assert values == sorted(values, reverse=True)
    assert advice.value == max(values[0], advice.fills[0].value)
    assert advice.move in dp.legal_moves(state)
    legal = set(dp.legal_moves(state))
    assert {keep.move for keep in advice.keeps} == {
        move for move in legal if isinstance(move, dp.Roll)
    }
    # a poker box the dice fit is written, not scratched: writing never scores less
    assert {fill.move for fill in advice.fills} <= legal
    assert {fill.move.box for fill in advice.fills} == set(advice.boxes)  # type: ignore[union-attr]


def test_the_coach_refuses_a_finished_game_and_dice_in_the_air() -> None:
    final = play_game(dp.RULES, [dp.GreedyBot()], dp.Config(players=1, stages=1), seed=1).final
    with pytest.raises(IllegalMoveError, match="seat on turn"):
        coach(dp.view(final, 0))
    waiting = dp.apply(dp.new_game(dp.Config(auto_chance=False), seed=1), dp.Roll())
    with pytest.raises(IllegalMoveError, match="seat on turn"):
        coach(dp.view(waiting, 0))
    with pytest.raises(TypeError):
        coach(dp.new_game(seed=1))  # type: ignore[arg-type]


def test_coach_lines_give_each_box_its_best_keep_chance_and_points() -> None:
    seen = dp.view(dp.apply(dp.new_game(seed=42), dp.Roll()), 0)
    lines = coach_lines(seen)
    assert list(lines) == list(Box)
    assert lines[Box.PAIR] == "keep 5 5: 100% made, 10.4 points"


def test_the_terminal_hint_shows_the_coach_advice() -> None:
    seen = dp.view(dp.apply(dp.new_game(seed=42), dp.Roll()), 0)
    lines = dp.RULES.hint(seen)
    assert "Coach (2 throws left): roll keep 5 5." in lines
    assert lines[lines.index("Coach (2 throws left): roll keep 5 5.") + 1].startswith(
        "  keep 5 5: worth +"
    )


def test_the_coach_bot_is_registered_by_name() -> None:
    assert isinstance(dp.RULES.bots["coach"](0), dp.CoachBot)


def test_the_coach_bot_reads_only_the_view() -> None:
    """Views of states that differ only in what a view hides (seed, generator) get the same
    move, at every decision of a game."""
    bot = dp.CoachBot()
    state = dp.new_game(seed=11)
    for step in range(60):
        seat = dp.current_player(state)
        assert seat is not None
        assert seat >= 0
        seen = dp.view(state, seat)
        other = dp.determinize(seen, Rng.from_seed(step))
        assert other.rng != state.rng
        move = bot.choose(seen)
        assert bot.choose(dp.view(other, seat)) == move
        state = dp.apply(state, move)


def test_the_coach_bot_is_reproducible() -> None:
    bots = [dp.CoachBot(), dp.CoachBot()]
    config = dp.Config(stages=1)
    assert play_game(dp.RULES, bots, config, seed=17) == play_game(dp.RULES, bots, config, seed=17)


def test_the_coach_bot_refuses_a_state_and_a_seat_not_on_turn() -> None:
    with pytest.raises(TypeError, match="view"):
        dp.CoachBot().choose(dp.new_game(seed=1))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError):
        dp.CoachBot().choose(dp.view(dp.new_game(seed=1), 1))
    with pytest.raises(TypeError):
        dp.CoachBot(values=1.5)  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None)
@given(config=configs(max_players=2, max_stages=1), seed=st.integers(0, 2**32))
def test_the_coach_bot_plays_legal_moves_under_every_house_rule(
    config: dp.Config, seed: int
) -> None:
    """The first 40 decisions of a game, chance outcomes drawn from a seeded generator."""
    bot: Bot[dp.View, dp.Move] = dp.CoachBot()
    state = dp.new_game(config, seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(40):
        if dp.is_over(state):
            break
        seat = dp.current_player(state)
        if seat == dp.CHANCE:
            outcomes = dp.legal_moves(state)
            number, rng = rng.below(len(outcomes))
            state = dp.apply(state, outcomes[number])
            continue
        assert seat is not None
        move = bot.choose(dp.view(state, seat))
        assert move in dp.legal_moves(state)
        state = dp.apply(state, move)


@pytest.mark.slow
def test_the_coach_bot_beats_the_greedy_bot_by_10_points_a_game() -> None:
    """50 deals of the standard rules, each played once per seating (``simulate``'s
    duplicate play): the coach's mean margin a game is at least 10 points and its 95%
    interval excludes 0. ``benchmarks/coach_margin.py`` measures 1,000 seeds (docs/bots)."""
    result = simulate(dp.RULES, ["coach", "greedy"], 100, seed=0, duplicate=True)
    margin = result.versus_field[0].score_difference
    assert (result.versus_field[0].name, margin.samples) == ("coach", 50)
    assert margin.mean >= 10, margin
    assert margin.low > 0, margin


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"fence": "1"}, "finite numbers"),
        ({"fence": float("nan")}, "finite numbers"),
        ({"poker_pars": (1.0,)}, "9 pars"),
        ({"mountain_counts": ((1.0, 0, 0, 0, 0, 0),) * 5}, "6 tuples"),
        ({"mountain_counts": ((0.5, 0, 0, 0, 0, 0),) * 6}, "sum to 1"),
    ],
)
def test_values_refuse_what_is_not_a_worth(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Values(**fields)  # type: ignore[arg-type]


def test_a_mountain_box_is_worth_its_mean_score() -> None:
    certain_three = ((0.0, 0.0, 0.0, 1.0, 0.0, 0.0),) * 6
    assert Values(mountain_counts=certain_three).par(Box.SIXES) == 0
    assert Values().par(Box.PAIR) == Values().poker_pars[0]


def test_in_announce_order_a_last_open_box_is_thrown_for() -> None:
    """Before the first throw with one box open, the turn's worth comes from that box."""
    config = dp.Config(players=1, stages=1, stage_orders="announce")
    state = dp.new_game(config, seed=2)
    bot = dp.CoachBot()
    while not dp.is_over(state):
        state = dp.apply(state, bot.choose(dp.view(state, 0)))
    assert all(cell is not None for cell in state.sheets[0])
