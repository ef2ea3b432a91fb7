"""The exception hierarchy: one base, all ValueErrors, each error its own class."""

from __future__ import annotations

import pytest

import tabletop_rules
from tabletop_rules import errors
from tabletop_rules.errors import (
    BotSelectionError,
    ConfigError,
    GamePluginError,
    HouseRulesError,
    IllegalMoveError,
    InvalidConfigError,
    InvalidStateError,
    NotationError,
    SeatError,
    SimulationError,
    TabletopError,
    UnknownGameError,
)

ERRORS = (
    BotSelectionError,
    ConfigError,
    GamePluginError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    SeatError,
    SimulationError,
    UnknownGameError,
)


@pytest.mark.parametrize("error", ERRORS)
def test_every_error_is_a_tabletop_error_and_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, TabletopError)
    assert issubclass(error, ValueError)
    with pytest.raises(TabletopError, match="why"):
        raise error("why")


def test_the_base_is_a_value_error() -> None:
    assert issubclass(TabletopError, ValueError)
    with pytest.raises(ValueError, match="anything"):
        raise TabletopError("anything")


@pytest.mark.parametrize("error", ERRORS)
def test_each_error_can_be_caught_alone(error: type[Exception]) -> None:
    others = tuple(other for other in ERRORS if other is not error)
    assert not issubclass(error, others)
    with pytest.raises(error):
        raise error("caught by its own class")


def test_a_loaded_config_that_breaks_a_rule_is_both_a_load_and_a_config_error() -> None:
    assert issubclass(InvalidConfigError, InvalidStateError)
    assert issubclass(InvalidConfigError, ConfigError)
    with pytest.raises(ConfigError, match="stages"):
        raise InvalidConfigError("stages must be 1 to 10")


def test_the_module_exports_exactly_the_hierarchy() -> None:
    hierarchy = (*ERRORS, HouseRulesError, InvalidConfigError, TabletopError)
    assert set(errors.__all__) == {cls.__name__ for cls in hierarchy}
    for name in errors.__all__:
        assert getattr(tabletop_rules, name) is getattr(errors, name), "re-exported"


def test_a_game_plugin_error_is_a_key_error_whose_text_is_its_message() -> None:
    assert issubclass(GamePluginError, KeyError)
    error = GamePluginError("entry point pig = 'tabletop_pig:RULES' of tabletop-pig 1.0 failed")
    assert str(error) == "entry point pig = 'tabletop_pig:RULES' of tabletop-pig 1.0 failed"


def test_an_unknown_game_is_a_key_error_whose_text_is_its_message() -> None:
    assert issubclass(UnknownGameError, KeyError)
    with pytest.raises(KeyError) as caught:
        raise UnknownGameError("no game named 'chess'")
    assert str(caught.value) == "no game named 'chess'"
