"""Events in words: the shell's ``describe`` redacts before the game's sentence, refuses
what is no event or seat, falls back to the event's fields, and the conformance check of
the sentences fails on a game that leaks (issue 19, point 1)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop_rules import account, dice_poker, palace
from tabletop_rules.game import Game, event_fields
from tabletop_rules.testing import check_events_described
from tabletop_rules.testing.checks import random_playout
from tabletop_rules.testing.variants import variant

GAMES = (dice_poker, palace, account)
ids = [game.__name__.rsplit(".", 1)[-1] for game in GAMES]


def another_seats_draw() -> tuple[palace.State, palace.Move, palace.Drew]:
    """A palace state and a move of seat 0 in it whose events hold seat 0's draw."""
    playout = random_playout(palace.RULES, palace.Config(), seed=5, chooser_seed=6)
    for state, move in zip(playout.states, playout.moves, strict=False):
        for event in palace.apply_with_events(state, move)[1]:
            if type(event) is palace.Drew and event.cards:
                return state, move, event
    raise AssertionError("no draw in the game")


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_every_game_exports_describe_and_it_is_the_rules_own(game: Any) -> None:
    assert game.describe == game.RULES.describe
    assert "describe" in game.__all__


def test_describe_redacts_before_the_games_sentence() -> None:
    _state, _move, drew = another_seats_draw()
    drawn = " ".join(map(str, drew.cards or ()))
    assert palace.describe(drew, drew.seat) == f"You drew {drawn}"
    other = 1 - drew.seat
    count = len(drew.cards or ())
    cards = "1 card" if count == 1 else f"{count} cards"
    assert palace.describe(drew, other) == f"P{drew.seat} drew {cards}"
    assert palace.describe(drew, None) == palace.describe(drew, other)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_describe_refuses_what_is_no_event_of_the_game(game: Any) -> None:
    with pytest.raises(TypeError, match=r"^expected an? .*, got 'rolled'$"):
        game.describe("rolled", 0)
    other = dice_poker.GameOver((1, 2), frozenset({1}))
    if game is not dice_poker:
        with pytest.raises(TypeError, match=r"^expected an? .*, got GameOver"):
            game.describe(other, 0)


@pytest.mark.parametrize("seat", [-1, "0", 1.0, True])
def test_describe_refuses_what_is_no_seat(seat: object) -> None:
    with pytest.raises(TypeError, match="a seat is a whole number"):
        dice_poker.describe(dice_poker.Announced(0, dice_poker.Box.POKER), seat)  # type: ignore[arg-type]


def test_a_game_without_sentences_tells_the_events_class_and_fields() -> None:
    rules = variant(dice_poker.RULES, event_text=lambda event, seat: event_fields(event))
    event = dice_poker.Announced(1, dice_poker.Box.FULL_HOUSE)
    assert rules.describe(event, 0) == "Announced: seat 1, box full_house"
    assert event_fields(event) == "Announced: seat 1, box full_house"


def test_a_game_without_sentences_tells_the_redacted_events_fields() -> None:
    rules = variant(
        palace.RULES, event_text=lambda event, seat: Game.event_text(palace.RULES, event, seat)
    )
    _state, _move, drew = another_seats_draw()
    count = len(drew.cards or ())
    assert (
        rules.describe(drew, 1 - drew.seat) == f"Drew: seat {drew.seat}, cards None, count {count}"
    )


def test_the_check_passes_for_the_games_own_sentences() -> None:
    state, move, _drew = another_seats_draw()
    check_events_described(palace.RULES, state, move)


def test_the_check_fails_on_a_redact_that_leaves_the_drawn_cards_in() -> None:
    # Sentences over a leaky redact agree with that redact: only the views can tell.
    leaky = variant(palace.RULES, redact=lambda event, seat: event)
    state, move, _drew = another_seats_draw()
    with pytest.raises(AssertionError, match=r"seat None reads 'P0 drew \w+', which names \['"):
        check_events_described(leaky, state, move)


def test_the_check_fails_on_sentences_that_read_the_event_unredacted() -> None:
    from tabletop_rules.palace.table import event_text

    leaky = variant(palace.RULES, describe=event_text)
    state, move, _drew = another_seats_draw()
    with pytest.raises(AssertionError, match=r"but 'P0 drew \d cards?' of the event redacted"):
        check_events_described(leaky, state, move)


def test_the_check_fails_on_an_empty_sentence() -> None:
    silent = variant(dice_poker.RULES, describe=lambda event, seat: "")
    state = dice_poker.new_game(seed=1)
    with pytest.raises(AssertionError, match="not a sentence"):
        check_events_described(silent, state, dice_poker.Roll())
