"""House rules: every field of the rules page's table, validated, and the pagat preset."""

from __future__ import annotations

import pytest

from tabletop_rules import palace as p
from tabletop_rules.errors import ConfigError


def test_defaults_are_the_seed_rules() -> None:
    config = p.Config()
    assert (config.players, config.decks, config.hand_size) == (2, 1, 3)
    assert config.must_beat == "equal_or_higher"
    assert config.quad == "extra_play"
    assert config.face_up_play == "take_into_hand"
    assert config.voluntary_pickup is False
    assert config.first_player == "lowest_card"
    assert config.play_until == "first_out"
    assert config.max_turns == 1000


def test_pagat_preset() -> None:
    config = p.Config.pagat()
    assert config == p.Config(
        quad="burn", face_up_play="from_table", voluntary_pickup=True, play_until="last"
    )
    assert p.Config.pagat(players=4).players == 4


def test_as_many_players_as_the_decks_can_deal() -> None:
    assert p.Config(players=5).players == 5
    with pytest.raises(ConfigError, match=r"6 players need 6 x \(6 \+ hand_size 3\) = 54"):
        p.Config(players=6)
    assert p.Config(players=11, decks=2).players == 11
    with pytest.raises(ConfigError):
        p.Config(players=5, hand_size=5)
    assert p.Config(players=29, decks=4, hand_size=1).players == 29


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("players", 1),
        ("players", 30),
        ("players", 2.0),
        ("players", True),
        ("decks", 0),
        ("decks", 5),
        ("hand_size", 0),
        ("hand_size", 10),
        ("max_turns", 0),
        ("max_turns", 100_001),
        ("max_turns", "5"),
    ],
)
def test_numbers_are_whole_and_bounded(field: str, bad: object) -> None:
    with pytest.raises(ConfigError, match=field):
        p.Config(**{field: bad})  # type: ignore[arg-type]


class Text(str):
    pass


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        ("must_beat", "higher", "lower"),
        ("quad", "burn", "none"),
        ("face_up_play", "from_table", "from_hand"),
        ("first_player", "seat0", "seat1"),
        ("play_until", "last", "first"),
    ],
)
def test_choices_are_the_listed_strings(field: str, good: str, bad: str) -> None:
    assert getattr(p.Config(**{field: good}), field) == good  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=field):
        p.Config(**{field: bad})  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=field):
        p.Config(**{field: Text(good)})  # type: ignore[arg-type]


def test_voluntary_pickup_is_a_bool() -> None:
    assert p.Config(voluntary_pickup=True).voluntary_pickup
    with pytest.raises(ConfigError, match="voluntary_pickup"):
        p.Config(voluntary_pickup=1)  # type: ignore[arg-type]


def test_messages_quote_values_briefly() -> None:
    with pytest.raises(ConfigError) as error:
        p.Config(max_turns=10**5000)
    assert len(str(error.value)) < 200
    with pytest.raises(ConfigError) as error:
        p.Config(quad="x" * 10_000)  # type: ignore[arg-type]
    assert len(str(error.value)) < 200
