"""Dice poker's faces to the outside: move notation, the action codec, views and events."""

from __future__ import annotations

import re
from itertools import combinations_with_replacement

import attrs
import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.moves import NUM_ACTIONS, POKER_BOXES
from tabletop_rules.dice_poker.notation import parse_box
from tabletop_rules.dice_poker.state import Sheet
from tabletop_rules.errors import IllegalMoveError, NotationError, SeatError
from tabletop_rules.serialize import dumps, to_data

from .helpers import reference_score

Box = dp.Box
MANUAL = dp.Config(auto_chance=False)


def thrown(dice: tuple[int, ...], config: dp.Config = MANUAL) -> dp.State:
    """A new game whose first throw showed ``dice`` (supplied as the chance outcome)."""
    state = dp.apply(dp.new_game(config, seed=1), dp.Roll())
    return dp.apply(state, dp.Dice(dice))


def in_the_air(keep: tuple[int, ...]) -> dp.State:
    """Seat 0 threw 1 2 3 4 6 and re-threw all but ``keep``: a chance point."""
    state = dp.apply(thrown((1, 2, 3, 4, 6)), dp.Roll(keep))
    assert dp.current_player(state) == dp.CHANCE
    return state


def last_turn(sheets: tuple[Sheet, ...]) -> dp.State:
    """A two-player, one-stage game of manual dice (max_fences=1) in which only seat 1's
    SIXES is still open, and seat 1 has thrown 1 6 6 6 6.
    """
    config = dp.Config(players=2, stages=1, max_fences=1, auto_chance=False)
    state = attrs.evolve(
        dp.new_game(config, seed=4),
        sheets=sheets,
        open_masks=(0, 1 << Box.SIXES),
        totals=tuple(reference_score(config, sheet) for sheet in sheets),
        turns_played=29,
    )
    dp.check_state(state)
    return dp.apply(dp.apply(state, dp.Roll()), dp.Dice((1, 6, 6, 6, 6)))


# --- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (dp.Roll(), "roll"),
        (dp.Roll(keep=(6, 6)), "roll keep 6 6"),
        (dp.Roll(keep=(6, 1, 3)), "roll keep 1 3 6"),
        (dp.Write(Box.FULL_HOUSE), "write full_house"),
        (dp.Write(Box.ONES), "write ones"),
        (dp.Scratch(Box.POKER), "scratch poker"),
        (dp.Scratch(Box.SMALL_STRAIGHT), "scratch small_straight"),
        (dp.Announce(Box.SIXES), "announce sixes"),
        (dp.Dice((2, 5)), "dice 2 5"),
        (dp.Dice((6, 1, 1, 3, 2)), "dice 1 1 2 3 6"),
    ],
)
def test_format_move_writes_short_notation(move: dp.Move, text: str) -> None:
    assert dp.format_move(move) == text
    assert dp.read_move(text) == move


def test_format_move_refuses_what_is_not_a_move() -> None:
    with pytest.raises(TypeError, match="not a dice poker move"):
        dp.format_move("roll")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("state", "text", "move"),
    [
        (dp.new_game(seed=1), "roll", dp.Roll()),
        (dp.new_game(seed=1), "  ROLL ", dp.Roll()),
        (thrown((3, 3, 6, 6, 6)), "roll keep 6 6", dp.Roll(keep=(6, 6))),
        (thrown((3, 3, 6, 6, 6)), "roll keep 66", dp.Roll(keep=(6, 6))),
        (thrown((3, 3, 6, 6, 6)), "roll keep 6 3 6", dp.Roll(keep=(3, 6, 6))),
        (thrown((3, 3, 6, 6, 6)), "write full_house", dp.Write(Box.FULL_HOUSE)),
        (thrown((3, 3, 6, 6, 6)), "write Full House", dp.Write(Box.FULL_HOUSE)),
        (thrown((3, 3, 6, 6, 6)), "write full-house", dp.Write(Box.FULL_HOUSE)),
        (thrown((3, 3, 6, 6, 6)), "write ones", dp.Write(Box.ONES)),
        (dp.new_game(seed=1), "scratch poker", dp.Scratch(Box.POKER)),
        (dp.new_game(seed=1), "Scratch Two Pairs", dp.Scratch(Box.TWO_PAIRS)),
        (
            thrown((1, 2, 3, 6, 6), dp.Config(stage_orders="announce", auto_chance=False)),
            "announce sixes",
            dp.Announce(Box.SIXES),
        ),
        (in_the_air((1, 2, 3)), "dice 2 5", dp.Dice((2, 5))),
        (in_the_air((1, 2, 3)), "dice 5 2", dp.Dice((2, 5))),
        (in_the_air(()), "dice 6 6 6 6 6", dp.Dice((6, 6, 6, 6, 6))),
    ],
)
def test_parse_move_reads_the_legal_move_named(state: dp.State, text: str, move: dp.Move) -> None:
    before = dumps(state)
    assert dp.parse_move(state, text) == move
    assert move in dp.legal_moves(state)
    assert dumps(state) == before, "parsing changes nothing"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty move text"),
        ("   ", "empty move text"),
        ("jump", "unknown move 'jump'"),
        ("rol", "unknown move"),
        ("keep 6 6", "unknown move"),
        ("write", "'write' needs a box"),
        ("scratch", "'scratch' needs a box"),
        ("announce", "'announce' needs a box"),
        ("write nothing", "no box named 'nothing'"),
        ("write full houses", "no box named"),
        ("scratch sevens", "no box named 'sevens'"),
        ("roll keep", "expected 'roll' or 'roll keep <faces>'"),
        ("roll 6 6", "expected 'roll' or 'roll keep <faces>'"),
        ("roll keep 7", "faces are numbers 1 to 6"),
        ("roll keep 0 6", "faces are numbers 1 to 6"),
        ("roll keep 6 x", "faces are numbers 1 to 6"),
        ("roll keep 67", "faces are numbers 1 to 6"),
        ("dice", "'dice' needs the faces"),
        ("dice 2 9", "faces are numbers 1 to 6"),
        ("dice -1", "faces are numbers 1 to 6"),
    ],
)
def test_text_that_names_no_move_raises_notation_error(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        dp.read_move(text)
    with pytest.raises(NotationError, match=fragment):
        dp.parse_move(thrown((3, 3, 6, 6, 6)), text)


@pytest.mark.parametrize(
    ("state", "text", "fragment"),
    [
        (dp.new_game(seed=1), "write chance", "a box is written after a throw"),
        (dp.new_game(seed=1), "roll keep 6", "first throw of a turn rolls all five dice"),
        (dp.new_game(seed=1), "scratch ones", "mountain boxes cannot be scratched"),
        (
            dp.new_game(seed=1),
            "announce sixes",
            "'announce sixes' is played only in 'announce' order",
        ),
        (dp.new_game(seed=1), "dice 2 5", "legal only while dice are in the air"),
        (thrown((3, 3, 6, 6, 6)), "write poker", "POKER needs five dice alike"),
        (thrown((3, 3, 6, 6, 6)), "roll keep 1", "cannot keep"),
        (thrown((3, 3, 6, 6, 6)), "roll keep 3 3 6 6 6", "keeping all five dice is not a throw"),
        (in_the_air((1, 2, 3)), "write chance", "the dice are in the air"),
        (in_the_air((1, 2, 3)), "dice 1 2 3", "2 dice are in the air"),
    ],
)
def test_text_that_names_an_illegal_move_raises_illegal_move_error(
    state: dp.State, text: str, fragment: str
) -> None:
    with pytest.raises(IllegalMoveError, match=fragment):
        dp.parse_move(state, text)


def test_every_legal_move_formats_and_parses_back() -> None:
    states = [
        dp.new_game(seed=1),
        thrown((3, 3, 6, 6, 6)),
        in_the_air(()),
        in_the_air((1, 2, 3, 4)),
        thrown((1, 1, 2, 2, 5), dp.Config(stage_orders="announce", auto_chance=False)),
    ]
    for state in states:
        for move in dp.legal_moves(state):
            assert dp.parse_move(state, dp.format_move(move)) == move


def test_parse_box_forgives_case_spaces_and_hyphens() -> None:
    assert parse_box("Small Straight") is Box.SMALL_STRAIGHT
    assert parse_box("large-straight") is Box.LARGE_STRAIGHT
    assert parse_box("  THREE_KIND ") is Box.THREE_KIND
    with pytest.raises(NotationError, match="boxes are ones, twos"):
        parse_box("yahtzee")


# --- codec ----------------------------------------------------------------------------------


def every_move() -> list[dp.Move]:
    """Every move any state can allow, built from the rules page, not from the codec."""
    faces = range(1, 7)
    return [
        *(
            dp.Roll(keep)
            for size in range(5)
            for keep in combinations_with_replacement(faces, size)
        ),
        *(dp.Write(box) for box in Box),
        *(dp.Scratch(box) for box in POKER_BOXES),
        *(dp.Announce(box) for box in Box),
        *(
            dp.Dice(values)
            for size in range(1, 6)
            for values in combinations_with_replacement(faces, size)
        ),
    ]


@pytest.mark.parametrize("config", [dp.Config(), dp.Config(players=8, stages=1), MANUAL])
def test_there_are_710_actions_in_every_config(config: dp.Config) -> None:
    assert dp.num_actions(config) == 710
    assert NUM_ACTIONS == 710
    assert len(every_move()) == 710


def test_encode_numbers_every_move_once_in_legal_move_order() -> None:
    numbers = [dp.encode(move) for move in every_move()]
    assert numbers == list(range(710))
    assert dp.encode(dp.Roll()) == 0
    assert dp.encode(dp.Write(Box.ONES)) == 210
    assert dp.encode(dp.Scratch(Box.PAIR)) == 225
    assert dp.encode(dp.Announce(Box.ONES)) == 234
    assert dp.encode(dp.Dice((1,))) == 249


CODEC_STATES = {
    "new game": dp.new_game(seed=1),
    "after a throw": thrown((3, 3, 6, 6, 6)),
    "five dice in the air": in_the_air(()),
    "two dice in the air": in_the_air((1, 2, 3)),
    "announce after throw 1": thrown(
        (1, 1, 2, 2, 5), dp.Config(stage_orders="announce", auto_chance=False)
    ),
    "down order after a throw": thrown(
        (1, 1, 2, 2, 5), dp.Config(stage_orders="down", auto_chance=False)
    ),
}


@pytest.mark.parametrize("name", CODEC_STATES)
def test_encode_and_decode_round_trip_over_the_legal_moves(name: str) -> None:
    state = CODEC_STATES[name]
    legal = dp.legal_moves(state)
    numbers = [dp.encode(move) for move in legal]
    assert numbers == sorted(numbers), "legal moves come in action order"
    assert [dp.decode(state, number) for number in numbers] == list(legal)


@pytest.mark.parametrize("name", CODEC_STATES)
def test_legal_mask_marks_exactly_the_legal_moves(name: str) -> None:
    state = CODEC_STATES[name]
    mask = dp.legal_mask(state)
    assert len(mask) == 710
    assert {number for number in range(710) if mask[number]} == {
        dp.encode(move) for move in dp.legal_moves(state)
    }


def test_the_chance_point_allows_every_outcome_of_the_dice_in_the_air() -> None:
    assert sum(dp.legal_mask(in_the_air(()))) == 252
    assert sum(dp.legal_mask(in_the_air((1, 2, 3)))) == 21
    assert sum(dp.legal_mask(in_the_air((1, 2, 3, 4)))) == 6


@pytest.mark.parametrize(
    ("name", "move"),
    [
        ("new game", dp.Write(Box.CHANCE)),
        ("new game", dp.Dice((1, 2, 3, 4, 5))),
        ("after a throw", dp.Write(Box.POKER)),
        ("after a throw", dp.Roll(keep=(1,))),
        ("five dice in the air", dp.Dice((1, 2))),
        ("two dice in the air", dp.Roll()),
        ("announce after throw 1", dp.Write(Box.PAIR)),
        ("down order after a throw", dp.Write(Box.TWOS)),
    ],
)
def test_decode_of_an_illegal_action_raises(name: str, move: dp.Move) -> None:
    action = dp.encode(move)
    message = f"action {action} ('{dp.format_move(move)}') is not legal in this state"
    with pytest.raises(IllegalMoveError, match=f"^{re.escape(message)}$"):
        dp.decode(CODEC_STATES[name], action)


@pytest.mark.parametrize("action", [-1, 710, 10**6])
def test_decode_of_an_action_outside_the_space_raises(action: int) -> None:
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        dp.decode(dp.new_game(seed=1), action)


@pytest.mark.parametrize("action", [True, 0.0, "0", None])
def test_decode_of_something_that_is_no_action_number_raises(action: object) -> None:
    with pytest.raises(IllegalMoveError, match="an action is a whole number"):
        dp.decode(dp.new_game(seed=1), action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (dp.Roll(keep=(1, 1, 1, 1, 1)), "roll keep 1 1 1 1 1"),
        (dp.Roll(keep=(6,) * 6), "roll keep 6 6 6 6 6 6"),
        (dp.Dice(()), "dice"),
        (dp.Dice((2,) * 6), "dice 2 2 2 2 2 2"),
    ],
)
def test_encode_refuses_what_no_state_allows(move: dp.Move, text: str) -> None:
    with pytest.raises(ValueError, match=f"^'{text}' has no action number: no state allows it$"):
        dp.encode(move)


# --- view -----------------------------------------------------------------------------------


def test_a_view_carries_neither_the_generator_nor_the_seed() -> None:
    state = thrown((1, 2, 3, 4, 6))
    names = {field.name for field in attrs.fields(dp.View)}
    assert not names & {"rng", "seed"}
    for seat in (None, 0, 1):
        data = to_data(dp.view(state, seat))
        assert "rng" not in data
        assert "seed" not in data


def test_a_view_does_not_change_with_the_generator() -> None:
    state = dp.apply(dp.new_game(seed=1), dp.Roll())
    reseeded = attrs.evolve(state, seed=2, rng=dp.new_game(seed=2).rng)
    for seat in (None, 0, 1):
        assert dp.view(state, seat) == dp.view(reseeded, seat)


def test_only_the_seat_on_turn_sees_legal_moves() -> None:
    state = thrown((3, 3, 6, 6, 6))
    assert dp.view(state, 0).legal_moves == dp.legal_moves(state)
    assert dp.view(state, 1).legal_moves == ()
    assert dp.view(state, None).legal_moves == ()
    after = dp.apply(state, dp.Write(Box.FULL_HOUSE))
    assert dp.view(after, 0).legal_moves == ()
    assert dp.view(after, 1).legal_moves == dp.legal_moves(after)


def test_no_seat_sees_legal_moves_at_a_chance_point() -> None:
    state = in_the_air((1, 2, 3))
    for seat in (None, 0, 1):
        view = dp.view(state, seat)
        assert view.legal_moves == ()
        assert view.current_player == dp.CHANCE
        assert view.pending_keep == (1, 2, 3)


def test_a_spectator_sees_the_table_without_moves() -> None:
    state = thrown((3, 3, 6, 6, 6))
    spectator = dp.view(state, None)
    seated = dp.view(state, 0)
    assert spectator.seat is None
    assert attrs.evolve(spectator, seat=0, legal_moves=seated.legal_moves) == seated


def test_a_view_shows_the_public_state() -> None:
    state = dp.apply(thrown((3, 3, 6, 6, 6)), dp.Write(Box.FULL_HOUSE))
    state = dp.apply(state, dp.Roll())
    state = dp.apply(state, dp.Dice((1, 1, 1, 2, 2)))
    view = dp.view(state, 1)
    assert view.seat == 1
    assert view.config == state.config
    assert view.current_player == 1
    assert view.sheets == state.sheets
    assert view.fences == (2, 0)
    assert view.stage == 0
    assert view.dice == (1, 1, 1, 2, 2)
    assert view.throws_used == 1
    assert view.throws_allowed == 3
    assert view.announced is None
    assert view.pending_keep is None
    assert view.scores == (24, 0)
    assert view.winners == frozenset()


@pytest.mark.parametrize("seat", [-1, 2, 8])
def test_a_view_for_a_seat_not_at_the_table_raises(seat: int) -> None:
    with pytest.raises(SeatError, match="seat must be 0 to 1 or None"):
        dp.view(dp.new_game(seed=1), seat)


# --- events ---------------------------------------------------------------------------------


def test_a_throw_yields_rolled() -> None:
    state, events = dp.apply_with_events(dp.new_game(seed=1), dp.Roll())
    assert events == (dp.Rolled(0, 1, (), state.dice, state.dice),)
    again, events = dp.apply_with_events(state, dp.Roll(keep=state.dice[:2]))
    (rolled,) = events
    assert isinstance(rolled, dp.Rolled)
    assert rolled.seat == 0
    assert rolled.throw == 2
    assert rolled.kept == state.dice[:2]
    assert len(rolled.thrown) == 3
    assert rolled.dice == again.dice == tuple(sorted(rolled.kept + rolled.thrown))


def test_manual_dice_roll_when_their_outcome_lands() -> None:
    state = thrown((1, 2, 3, 4, 6))
    waiting, events = dp.apply_with_events(state, dp.Roll(keep=(1, 2, 3)))
    assert events == ()
    landed, events = dp.apply_with_events(waiting, dp.Dice((5, 4)))
    assert events == (dp.Rolled(0, 2, (1, 2, 3), (4, 5), (1, 2, 3, 4, 5)),)
    assert landed.dice == (1, 2, 3, 4, 5)


def test_writing_yields_wrote_then_fences_changed() -> None:
    state = thrown((3, 3, 6, 6, 6))
    _after, events = dp.apply_with_events(state, dp.Write(Box.FULL_HOUSE))
    assert events == (dp.Wrote(0, 0, Box.FULL_HOUSE, 24), dp.FencesChanged(0, 2, 2, 0))


def test_scratching_before_the_first_throw_yields_scratched_and_three_fences() -> None:
    _after, events = dp.apply_with_events(dp.new_game(seed=1), dp.Scratch(Box.POKER))
    assert events == (dp.Scratched(0, 0, Box.POKER), dp.FencesChanged(0, 3, 3, 0))


def test_fences_over_the_cap_are_reported_lost() -> None:
    config = dp.Config(max_fences=1, auto_chance=False)
    _after, events = dp.apply_with_events(thrown((3, 3, 6, 6, 6), config), dp.Write(Box.CHANCE))
    assert events == (dp.Wrote(0, 0, Box.CHANCE, 24), dp.FencesChanged(0, 1, 1, lost=1))


def test_spending_fences_yields_a_negative_change() -> None:
    state = dp.new_game(MANUAL, seed=1)
    for _seat in range(2):  # each seat scratches before throwing: +3 fences
        state = dp.apply(state, dp.Scratch(Box.POKER))
    state = dp.apply(dp.apply(state, dp.Roll()), dp.Dice((3, 3, 6, 6, 6)))
    for _throw in range(4):
        state = dp.apply(dp.apply(state, dp.Roll((3, 3, 6, 6))), dp.Dice((6,)))
    assert (state.fences, state.throws_used) == ((3, 3), 5)
    _after, events = dp.apply_with_events(state, dp.Write(Box.CHANCE))
    assert events[-1] == dp.FencesChanged(0, -2, 1, 0)


def test_no_fence_events_when_fences_are_off() -> None:
    state = thrown((3, 3, 6, 6, 6), dp.Config(fences=False, auto_chance=False))
    _after, events = dp.apply_with_events(state, dp.Write(Box.CHANCE))
    assert events == (dp.Wrote(0, 0, Box.CHANCE, 24),)


def test_announcing_yields_announced() -> None:
    state = thrown((1, 2, 3, 6, 6), dp.Config(stage_orders="announce", auto_chance=False))
    after, events = dp.apply_with_events(state, dp.Announce(Box.SIXES))
    assert events == (dp.Announced(0, Box.SIXES),)
    assert after.announced is Box.SIXES


def test_the_last_box_yields_wrote_fences_mountain_and_game_over_in_order() -> None:
    full = (2, 2, 3, 4, 5, 6, 8, 10, 9, 8, 20, 15, 20, 0, 22)  # 134, mountain +22
    last = (-3, -6, 0, 0, 0, None, 12, 14, 18, 24, 28, 0, 0, 50, 25)  # 162, mountain -9
    final, events = dp.apply_with_events(last_turn((full, last)), dp.Write(Box.SIXES))
    # Four sixes in SIXES: +6, so seat 1's mountain ends at -3: the penalty of 20.
    assert events == (
        dp.Wrote(1, 0, Box.SIXES, 6),
        dp.FencesChanged(1, 1, 1, lost=1),
        dp.MountainScored(1, 0, -3, -20),
        dp.GameOver((134 + 50, 162 + 6 - 20), frozenset({0})),
    )
    assert dp.score(final) == (184, 148)
    assert dp.is_over(final)


def test_equal_top_scores_share_the_win_in_game_over() -> None:
    full = (0, 0, 0, 0, 0, 6, 8, 10, 9, 8, 20, 15, 20, 0, 22)
    last = (*full[:5], None, *full[6:])
    _final, events = dp.apply_with_events(last_turn((full, last)), dp.Write(Box.SIXES))
    assert events[-2:] == (
        dp.MountainScored(1, 0, 6, 50),
        dp.GameOver((sum(full) + 50, sum(full) + 50), frozenset({0, 1})),
    )


def test_a_view_of_a_finished_game_names_the_winners() -> None:
    full = (0, 0, 0, 0, 0, 6, 8, 10, 9, 8, 20, 15, 20, 0, 22)
    last = (*full[:5], None, *full[6:])
    final = dp.apply(last_turn((full, last)), dp.Write(Box.SIXES))
    view = dp.view(final, None)
    assert view.current_player is None
    assert view.throws_allowed == 0
    assert view.dice == ()
    assert view.winners == frozenset({0, 1})


def test_events_are_public_so_redact_returns_them_unchanged() -> None:
    event = dp.Rolled(0, 1, (), (1, 2, 3, 4, 5), (1, 2, 3, 4, 5))
    for seat in (None, 0, 1):
        assert dp.redact(event, seat) is event


def test_format_move_of_a_move_subclass_is_a_type_error() -> None:
    @attrs.frozen
    class Shout(dp.Write):
        pass

    with pytest.raises(TypeError, match="not a dice poker move"):
        dp.format_move(Shout(dp.Box.CHANCE))
