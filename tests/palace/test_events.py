"""Events: what each transition did, in order, built only when asked for."""

from __future__ import annotations

from tabletop_rules import palace as p

from .helpers import cards, deal_order, play, position


def test_a_play_that_burns_refills_and_replays_reports_each_step() -> None:
    state = position(hands=["10C 9S 9D", "AD"], pile="KC", stock="4H 5H")
    after, events = p.apply_with_events(state, play("10C"))
    assert events == (
        p.Played(0, cards("10C"), "hand"),
        p.Burned(cards("KC 10C")),
        p.Drew(0, cards("4H")),
    )
    assert after == p.apply(state, play("10C"))


def test_taking_face_up_cards_finishing_and_game_over_are_reported() -> None:
    state = position(
        p.Config(players=3),
        hands=["9C", "AD", "KD"],
        up=["4C 5C 6C", *["- - -"] * 2],
        down=["7C 7D 7H", *["- - -"] * 2],
    )
    _after, events = p.apply_with_events(state, play("9C"))
    assert events == (
        p.Played(0, cards("9C"), "hand"),
        p.TookFaceUp(0, cards("4C 5C 6C")),
        p.TurnPassed(1, 1, False),
    )
    state = position(p.Config(players=3), hands=["9C", "AD", "KD"])
    _after, events = p.apply_with_events(state, play("9C"))
    assert events[-2:] == (p.Finished(0, 0, 2), p.GameOver("finished", (2, 0, 0), frozenset({0})))


def test_a_blind_card_that_cannot_be_played_is_reported_with_its_slot() -> None:
    state = position(hands=["", "AD"], down=["4C - -", "- - -"], pile="9S")
    _after, events = p.apply_with_events(state, p.PlayBlind(0))
    assert events == (
        p.TurnedBlind(0, 0, cards("4C")[0]),
        p.TookPile(0, cards("9S 4C")),
        p.TurnPassed(1, 1, False),
    )


def test_the_swap_phase_reports_swaps_ready_and_the_first_player() -> None:
    config = p.Config()
    state = p.new_game(
        config, seed=0, deal=deal_order(config, up=["4C 5C 6C"], hands=["AS KS QS", "8D 9D JD"])
    )
    state, events = p.apply_with_events(state, p.Swap(cards("AS")[0], cards("4C")[0]))
    assert events == (p.Swapped(0, cards("AS")[0], cards("4C")[0]),)
    state, events = p.apply_with_events(state, p.Ready())
    assert events == (p.Readied(0),)
    state, events = p.apply_with_events(state, p.Ready())
    assert events == (p.Readied(1), p.Started(0))


def test_a_3_is_reported_as_a_take_owed() -> None:
    state = position(hands=["3C 9S", "AD 2D"], pile="KC")
    _after, events = p.apply_with_events(state, play("3C"))
    assert events[-1] == p.TurnPassed(1, 1, True)
