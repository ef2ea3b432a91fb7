"""Dice poker's events in words: one sentence per event class, "You" for the reader."""

from __future__ import annotations

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker import Box


def test_rolled_on_the_first_throw_tells_the_dice() -> None:
    event = dp.Rolled(2, 1, (), (2, 3, 3, 5, 6), (2, 3, 3, 5, 6))
    assert dp.describe(event, 0) == "P2 threw 2 3 3 5 6 (throw 1)"
    assert dp.describe(event, 2) == "You threw 2 3 3 5 6 (throw 1)"


def test_rolled_later_tells_what_was_kept_thrown_and_shown() -> None:
    event = dp.Rolled(2, 2, (3, 3), (2, 5, 6), (2, 3, 3, 5, 6))
    assert dp.describe(event, None) == "P2 kept 3 3 and threw 2 5 6: 2 3 3 5 6 (throw 2)"
    again = dp.Rolled(0, 3, (), (1, 1, 2, 4, 6), (1, 1, 2, 4, 6))
    assert dp.describe(again, 0) == "You kept nothing and threw 1 1 2 4 6 (throw 3)"


def test_announced_names_the_box_in_words() -> None:
    assert dp.describe(dp.Announced(1, Box.FULL_HOUSE), 0) == "P1 announced full house"
    assert dp.describe(dp.Announced(1, Box.FOUR_KIND), 1) == "You announced four of a kind"


def test_wrote_tells_the_points_box_and_stage_counted_from_one() -> None:
    assert dp.describe(dp.Wrote(0, 0, Box.THREES, -3), 0) == "You wrote -3 in threes (stage 1)"
    assert dp.describe(dp.Wrote(1, 2, Box.PAIR, 12), 0) == "P1 wrote 12 in pair (stage 3)"


def test_scratched_names_the_box() -> None:
    assert dp.describe(dp.Scratched(1, 1, Box.POKER), None) == "P1 scratched poker (stage 2)"


def test_mountain_scored_tells_the_sum_and_the_premium_or_penalty() -> None:
    won = dp.MountainScored(0, 0, 4, 50)
    assert dp.describe(won, 0) == "Your mountain of stage 1 sums to 4: premium +50"
    lost = dp.MountainScored(1, 1, -3, -20)
    assert dp.describe(lost, 0) == "P1's mountain of stage 2 sums to -3: penalty -20"
    even = dp.MountainScored(1, 0, 0, 0)
    assert dp.describe(even, 0) == "P1's mountain of stage 1 sums to 0: no premium, no penalty"


def test_fences_changed_tells_the_change_the_bank_and_what_the_cap_lost() -> None:
    assert dp.describe(dp.FencesChanged(0, 2, 5), 0) == "You banked 2 fences, 5 now"
    assert dp.describe(dp.FencesChanged(1, -1, 0), 0) == "P1 spent 1 fence, 0 left"
    assert dp.describe(dp.FencesChanged(1, 0, 3), 1) == "Your fences stay at 3"
    capped = dp.FencesChanged(0, 1, 4, lost=1)
    assert dp.describe(capped, 1) == "P0 banked 1 fence, 4 now (1 lost over the cap)"


def test_game_over_names_the_winners_and_every_score() -> None:
    over = dp.GameOver((212, 180), frozenset({0}))
    assert dp.describe(over, 1) == "Game over: P0 won (P0 212, you 180)"
    tie = dp.GameOver((90, 90, 40), frozenset({0, 1}))
    assert dp.describe(tie, None) == "Game over: P0 and P1 won (P0 90, P1 90, P2 40)"


def test_every_event_of_a_whole_game_is_told_to_every_seat() -> None:
    match_events: list[dp.Event] = []
    state = dp.new_game(dp.Config(stages=1), seed=3)
    while not dp.is_over(state):
        state, events = dp.apply_with_events(state, dp.legal_moves(state)[-1])
        match_events += events
    kinds = {type(event) for event in match_events}
    assert {dp.Rolled, dp.Wrote, dp.FencesChanged, dp.GameOver} <= kinds
    for event in match_events:
        for seat in (None, 0, 1):
            assert dp.describe(event, seat)
