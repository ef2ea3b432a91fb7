"""Each game's rules, notation and hints in a few lines for a player at the table
(issue 19, point 7): what ``help`` and ``hint`` at the ``play`` prompt print.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tabletop_rules import account as a
from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError
from tabletop_rules.game import Game

GAMES = (dp, p, a)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.RULES.name)
def test_every_game_gives_a_few_lines_of_rules_and_of_notation(game: object) -> None:
    rules = game.RULES  # type: ignore[attr-defined]
    config = rules.config_type()
    assert 3 <= len(rules.rules_summary(config)) <= 9
    assert 3 <= len(rules.notation_summary(config)) <= 6
    assert all(len(line) < 160 for line in rules.rules_summary(config))


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.RULES.name)
def test_a_summary_takes_only_the_games_own_config(game: object) -> None:
    rules = game.RULES  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="expected"):
        rules.rules_summary(dp.Config() if game is not dp else p.Config())
    with pytest.raises(ConfigError, match="expected"):
        rules.notation_summary(None)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.RULES.name)
def test_a_hint_takes_a_view_not_a_state(game: object) -> None:
    rules = game.RULES  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="View"):
        rules.hint(rules.new_game(seed=1))


def test_dice_pokers_summary_names_the_stage_orders_counted_from_1() -> None:
    config = dp.Config(stages=2, stage_orders=("down", "announce"))
    lines = dp.RULES.rules_summary(config)
    assert "Stage orders: stage 1 down, stage 2 announce" in lines[-1]
    assert any("announce four_kind" in line for line in dp.RULES.notation_summary(config))


def test_dice_pokers_summary_leaves_out_fences_when_they_are_off() -> None:
    assert not any("Fences" in line for line in dp.RULES.rules_summary(dp.Config(fences=False)))
    capped = dp.RULES.rules_summary(dp.Config(max_fences=4, max_fences_per_turn=2))
    assert "(at most 4 banked, at most 2 spent a turn)" in capped[-1]


def test_physical_dice_add_the_outcome_to_the_notation() -> None:
    assert "dice 2 5 6" in dp.RULES.notation_summary(dp.Config(auto_chance=False))[-1]
    assert "die 4" in a.RULES.notation_summary(a.Config(auto_chance=False))[-1]


def test_the_account_summary_follows_collapse_floor_and_end() -> None:
    lines = a.RULES.rules_summary(a.Config(collapse=True, floor_at_zero=True, end="finish_round"))
    text = " ".join(lines)
    assert "the cards above it drop a row" in text
    assert "accounts never fall below 0" in text
    assert "End stops the game once the round is over" in text


def test_a_palace_hint_says_a_3_on_top_makes_the_seat_take_the_pile() -> None:
    state = attrs.evolve(p.new_game(seed=7), phase="play", pending="take")
    assert p.RULES.hint(p.view(state, 0)) == (
        "A 3 is on top: the seat on turn must take the pile.",
    )


def test_a_palace_hint_in_the_swap_phase_says_nothing_is_played_yet() -> None:
    assert "Swap phase" in p.RULES.hint(p.view(p.new_game(seed=7), 0))[0]


def test_a_hint_for_another_seats_dice_scores_every_open_box() -> None:
    state = dp.apply(dp.new_game(seed=42), dp.Roll())
    lines = dp.RULES.hint(dp.view(state, 1))
    assert lines[1].startswith("  ones -2, twos -4,")
    assert "poker" in lines[2]


def test_an_account_hint_names_a_landing_that_ends_the_game_or_draws() -> None:
    cards = [a.Card.parse(text) for text in ("+10", "End", "B", "+10")]
    config = a.Config(players=1, rows=1, columns=3, deck={"+10": 2, "End": 1, "B": 1})
    state = a.new_game(attrs.evolve(config, auto_chance=False), seed=1, deal=cards)
    for move in (a.Place(0), a.Roll(), a.Die(2)):
        state = a.apply(state, move)
    assert a.RULES.hint(a.view(state, 0)) == (
        "Rolled 2, account 10: distance: card landed on -> account after",
        "  m0 left   1: B -> draws, 2: End -> game over",
        "  m0 right  1: End -> game over, 2: B -> draws",
    )


def test_a_game_without_a_guide_has_nothing_to_say() -> None:
    plain: Any = type("Plain", (type(a.RULES),), {"hint": Game.hint})
    seen = a.view(a.new_game(seed=7), 0)
    assert plain().hint(seen) == ()
    assert a.RULES.hint(seen)[0].startswith("Hints come after a roll")
