"""The end: finishing, the finishing order, score, winners and the turn limit."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import events_of, play, position


def test_a_player_with_no_cards_anywhere_has_finished_and_first_out_wins() -> None:
    state = position(p.Config(players=3), hands=["9C", "AD", "KD"], pile="5C")
    after, events = events_of(state, play("9C"))
    assert events == ["Played", "Finished", "GameOver"]
    assert p.is_over(after)
    assert p.current_player(after) is None
    assert p.winners(after) == {0}
    assert p.score(after) == (2, 0, 0)
    assert p.legal_moves(after) == ()


def test_a_player_with_face_down_cards_has_not_finished() -> None:
    state = position(hands=["9C", "AD"], down=["- 4C -", "- - -"], pile="5C")
    after = p.apply(state, play("9C"))
    assert not p.is_over(after)
    assert after.finished == ()


def test_play_until_last_records_the_finishing_order_and_the_last_loses() -> None:
    config = p.Config(players=3, play_until="last")
    state = position(config, hands=["9C", "AD KS", "KD"], pile="5C")
    after, events = events_of(state, play("9C"))
    assert events == ["Played", "Finished", "TurnPassed"]
    assert not p.is_over(after)
    assert after.seat == 1
    assert after.finished == (0,)
    assert p.winners(after) == frozenset()  # empty until the game is over
    after = p.apply(after, play("KS"))
    after = p.apply(after, play("KD"))  # seat 2 finishes second; seat 1 alone holds cards
    assert p.is_over(after)
    assert after.finished == (0, 2)
    assert p.winners(after) == {0}  # the first to finish
    assert p.score(after) == (2, 0, 1)  # players still holding cards when each finished


def test_finished_players_are_skipped() -> None:
    config = p.Config(players=3, play_until="last")
    state = position(config, hands=["9C 9D", "", "KD KH"], pile="5C", finished=(1,))
    assert p.apply(state, play("9C")).seat == 2


def test_score_is_0_for_a_seat_still_holding_cards() -> None:
    state = position(hands=["9C", "AD"], pile="5C")
    assert p.score(state) == (0, 0)


def test_every_passing_of_the_turn_counts_and_the_limit_ends_the_game() -> None:
    state = position(p.Config(max_turns=3), hands=["9C 9D", "4D"], pile="5C", turns=1)
    after = p.apply(state, play("9C"))
    assert after.turns == 2
    assert not p.is_over(after)
    after, events = events_of(after, p.TakePile())
    assert events == ["TookPile", "GameOver"]
    assert p.is_over(after)
    assert after.turns == 3
    assert p.winners(after) == frozenset()  # nobody finished, nobody wins
    assert p.score(after) == (0, 0)


def test_a_turn_lost_to_a_3_counts() -> None:
    state = position(p.Config(max_turns=2), hands=["3C 9D", "AD"], pile="5C")
    after = p.apply(p.apply(state, play("3C")), p.TakePile())
    assert p.is_over(after)


def test_at_the_limit_seats_that_finished_keep_their_scores() -> None:
    config = p.Config(players=3, play_until="last", max_turns=2)
    state = position(config, hands=["9C", "AD KS", "KD KH"], pile="5C", turns=1)
    after = p.apply(state, play("9C"))
    assert p.is_over(after)
    assert p.score(after) == (2, 0, 0)
    assert p.winners(after) == {0}


def test_max_moves_is_generous() -> None:
    assert p.max_moves(p.Config()) == 2 * 7 + 1000 * 53
