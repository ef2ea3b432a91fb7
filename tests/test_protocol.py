"""The registry of games, and the Game contract that dice poker's RULES keeps."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import tabletop_rules
from tabletop_rules import CHANCE, dice_poker, protocol
from tabletop_rules.errors import GamePluginError, TabletopError, UnknownGameError
from tabletop_rules.game import Game, exported_functions
from tabletop_rules.protocol import Ruleset, get_ruleset, register, registered, rulesets
from tabletop_rules.testing.variants import variant

PIG = Path(__file__).parents[1] / "examples" / "pig" / "src"
DicePokerRules = Ruleset[dice_poker.Config, dice_poker.State, dice_poker.Move]


@pytest.fixture
def private_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a test register games without leaving them behind for other tests."""
    monkeypatch.setattr(protocol, "_registered", dict(protocol._registered))


def play_first_turn(rules: DicePokerRules, seed: int) -> dice_poker.State:
    """Generic code written against the protocol only: mypy checks RULES fits it."""
    state = rules.new_game(rules.config_type(players=1), seed=seed)
    state = rules.apply(state, rules.legal_moves(state)[0])
    writes = [
        move for move in rules.legal_moves(state) if rules.format_move(move) == "write chance"
    ]
    return rules.apply(state, writes[0])


def test_get_ruleset_finds_dice_poker() -> None:
    assert get_ruleset("dice-poker") is dice_poker.RULES
    assert tabletop_rules.get_ruleset("dice-poker") is dice_poker.RULES


def test_an_unknown_game_raises_key_error_naming_the_known_games() -> None:
    with pytest.raises(KeyError, match=r"no game named 'checkers'.*known: .*dice-poker"):
        get_ruleset("checkers")


def test_rulesets_lists_dice_poker_sorted() -> None:
    names = rulesets()
    assert "dice-poker" in names
    assert list(names) == sorted(names)
    assert len(set(names)) == len(names)


def test_dice_poker_is_registered_once_imported() -> None:
    assert dice_poker.RULES in registered()


def test_registering_the_same_ruleset_again_changes_nothing(private_registry: None) -> None:
    before = registered()
    register(dice_poker.RULES)
    assert registered() == before
    assert get_ruleset("dice-poker") is dice_poker.RULES


def test_another_ruleset_cannot_take_a_registered_name(private_registry: None) -> None:
    impostor = variant(dice_poker.RULES, title="Not dice poker")
    with pytest.raises(ValueError, match="'dice-poker' is registered already"):
        register(impostor)
    assert get_ruleset("dice-poker") is dice_poker.RULES


def test_a_third_party_game_registers_under_its_own_name(private_registry: None) -> None:
    toy = variant(dice_poker.RULES, name="dice-poker-variant")
    register(toy)
    assert get_ruleset("dice-poker-variant") is toy
    assert "dice-poker-variant" in rulesets()
    assert get_ruleset("dice-poker") is dice_poker.RULES


def test_rules_satisfy_the_protocol_when_used_through_it() -> None:
    state = play_first_turn(dice_poker.RULES, seed=9)
    assert state.turns_played == 1
    assert state.sheets[0][dice_poker.Box.CHANCE] == sum(
        dice_poker.apply(
            dice_poker.new_game(dice_poker.Config(players=1), seed=9), dice_poker.Roll()
        ).dice
    )


def test_rules_are_a_game_and_ruleset_is_its_old_name() -> None:
    assert isinstance(dice_poker.RULES, Game)
    assert Ruleset is Game
    assert {"new_game", "apply", "check_state", "legal_mask"} <= set(exported_functions())


def test_rules_bundle_the_package_functions() -> None:
    rules: Any = dice_poker.RULES
    for name in ("new_game", "legal_moves", "apply", "score", "view", "encode", "check_state"):
        assert getattr(rules, name) == getattr(dice_poker, name), name
    assert rules.name == "dice-poker"
    assert rules.title == "Dice poker"
    assert rules.config_type is dice_poker.Config
    assert rules.state_type is dice_poker.State
    assert rules.view_type is dice_poker.View
    assert set(rules.move_types) == {
        dice_poker.Roll,
        dice_poker.Write,
        dice_poker.Scratch,
        dice_poker.Announce,
        dice_poker.Dice,
    }


def test_chance_is_a_player_number_no_seat_can_have() -> None:
    assert CHANCE == -1
    assert dice_poker.CHANCE == CHANCE


def test_every_game_encodes_views_and_names_its_action_numbers() -> None:
    for name in ("dice-poker", "palace", "account"):
        rules = get_ruleset(name)
        config = rules.config_type()
        spec = rules.observation_spec(config)
        assert isinstance(spec, tabletop_rules.ObservationSpec)
        observed = rules.observe(rules.view(rules.new_game(config, seed=1), 0))
        assert spec.contains(observed)
        offset = rules.chance_offset(config)
        assert 0 < offset <= rules.num_actions(config)
        assert isinstance(rules.action_text(config, 0), str)


NOT_STATES: list[object] = [None, 7, "state", object(), dice_poker.Config()]


@pytest.mark.parametrize("name", ["dice-poker", "palace", "account"])
@pytest.mark.parametrize("seat", [0, None])
@pytest.mark.parametrize("thing", NOT_STATES, ids=lambda thing: type(thing).__name__)
def test_view_of_what_is_no_state_is_a_type_error_naming_the_game(
    name: str, seat: int | None, thing: object
) -> None:
    with pytest.raises(TypeError, match=r"expected an? [a-z ]+ State, got "):
        get_ruleset(name).view(thing, seat)


@pytest.mark.parametrize(("name", "other"), [("palace", "dice-poker"), ("dice-poker", "account")])
def test_view_of_another_games_state_is_a_type_error(name: str, other: str) -> None:
    state = get_ruleset(other).new_game(seed=1)
    with pytest.raises(TypeError, match=r"expected an? [a-z ]+ State, got "):
        get_ruleset(name).view(state, 0)


def test_an_unknown_game_is_a_tabletop_error_and_still_a_key_error() -> None:
    with pytest.raises(TabletopError) as caught:
        get_ruleset("chess")
    assert type(caught.value) is UnknownGameError
    assert isinstance(caught.value, KeyError)
    assert isinstance(caught.value, ValueError)
    # its text is the message, not KeyError's quoted repr of it
    assert str(caught.value).startswith("no game named 'chess'; known: ")
    assert pickle.loads(pickle.dumps(caught.value)).args == caught.value.args


def test_a_game_offers_the_random_bot_however_the_package_is_entered() -> None:
    # game does not import the bots (they build on it); the package imports them, so a
    # game of another package, with no built-in game imported, still offers "random".
    program = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(PIG)!r})
        from tabletop_pig import RULES
        assert not any(name.startswith("tabletop_rules.dice_poker") for name in sys.modules)
        print(sorted(RULES.bots), type(RULES.bots["random"](3)).__name__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.split() == ["['hold20',", "'random']", "RandomBot"]


def test_a_built_in_game_is_found_by_its_packages_spelling_too() -> None:
    for package, name in (("dice_poker", "dice-poker"), ("palace", "palace")):
        assert get_ruleset(package) is get_ruleset(name)


def test_a_name_spelling_a_built_in_game_with_underscores_is_reserved() -> None:
    imposter = variant(dice_poker.RULES, name="dice_poker")
    with pytest.raises(GamePluginError, match="'dice_poker' is the built-in game 'dice-poker'"):
        register(imposter)
