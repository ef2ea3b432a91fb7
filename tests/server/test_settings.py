"""The server's settings and a match's are checked when made: a value of the wrong type
is a ``TypeError``, one out of its range a ``ConfigError`` naming the field; a worker's
beats must come within its lease, so that the other workers never take it for gone; and
stored match settings out of range fail to load.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

pytest.importorskip("starlette")

from tabletop_rules.errors import ConfigError, InvalidStateError
from tabletop_rules.server import MatchSettings, ServerSettings, create_app
from tabletop_rules.server.messages import ClockRule

COUNTS = ("burst", "matches_per_client", "sockets_per_client")
TIMES = ("messages_per_second", "tick_seconds", "hello_seconds", "lease_seconds", "poll_seconds")
TIMES_FROM_ZERO = ("bot_seconds", "grace_seconds", "down_after")


def _made(**values: Any) -> ServerSettings:
    """Settings of values a type checker would refuse, as a hurried caller gives them."""
    return ServerSettings(**values)


def test_the_defaults_are_valid() -> None:
    settings = ServerSettings()
    assert settings.heartbeat_seconds < settings.lease_seconds


@pytest.mark.parametrize("name", [*COUNTS, "max_message_bytes"])
@pytest.mark.parametrize("value", [1.0, "3", True, None])
def test_a_count_is_a_plain_int(name: str, value: Any) -> None:
    with pytest.raises(ConfigError, match=name):
        _made(**{name: value})


@pytest.mark.parametrize("name", COUNTS)
def test_a_count_is_at_least_one(name: str) -> None:
    assert getattr(_made(**{name: 1}), name) == 1
    with pytest.raises(ConfigError, match=f"{name} must be 1 to 2147483647, got 0"):
        _made(**{name: 0})


def test_a_message_may_hold_at_least_256_bytes() -> None:
    assert ServerSettings(max_message_bytes=256).max_message_bytes == 256
    with pytest.raises(ConfigError, match="max_message_bytes must be 256 to"):
        ServerSettings(max_message_bytes=255)


@pytest.mark.parametrize("name", [*TIMES, *TIMES_FROM_ZERO, "heartbeat_seconds"])
@pytest.mark.parametrize("value", ["1", True, None, 1j])
def test_a_time_is_a_number(name: str, value: Any) -> None:
    with pytest.raises(TypeError, match=f"{name} is a number of seconds"):
        _made(**{name: value})


@pytest.mark.parametrize("name", [*TIMES, "heartbeat_seconds"])
@pytest.mark.parametrize("value", [0, -1.0, math.inf, math.nan])
def test_a_time_is_finite_and_above_zero(name: str, value: float) -> None:
    with pytest.raises(ConfigError, match=f"{name} must be a finite number of seconds above 0"):
        _made(**{name: value})


@pytest.mark.parametrize("name", TIMES_FROM_ZERO)
def test_a_bots_time_a_grace_and_a_downtime_may_be_zero(name: str) -> None:
    assert getattr(_made(**{name: 0}), name) == 0
    for value in (-0.5, math.inf, math.nan):
        with pytest.raises(ConfigError, match=f"{name} must be a finite number of seconds from 0"):
            _made(**{name: value})


def test_the_time_is_read_from_a_function() -> None:
    with pytest.raises(TypeError, match="'now' must be callable"):
        ServerSettings(now=1_000_000.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("beats", "lease"),
    [({"heartbeat_seconds": 10.0}, 10.0), ({"tick_seconds": 2.0}, 1.5), ({}, 0.5)],
)
def test_a_workers_beats_come_within_its_lease(beats: dict[str, float], lease: float) -> None:
    with pytest.raises(ConfigError, match="seen alive more often than its lease_seconds"):
        _made(lease_seconds=lease, **beats)
    quicker = ServerSettings(
        lease_seconds=lease, heartbeat_seconds=lease / 4, tick_seconds=lease / 8
    )
    assert quicker.lease_seconds == lease


def _match(**values: Any) -> MatchSettings:
    return MatchSettings(**values)


@pytest.mark.parametrize(
    ("values", "error", "says"),
    [
        (
            {"spectators": "everyone"},
            ConfigError,
            "spectators must be one of none, public, delayed",
        ),
        ({"timeout": "pass"}, ConfigError, "timeout must be one of bot, forfeit"),
        ({"delay": -1}, ConfigError, "delay must be 0 to 2147483647, got -1"),
        ({"delay": 1.0}, ConfigError, "delay must be a whole number"),
        ({"delay": True}, ConfigError, "delay must be a whole number"),
        ({"spectators": "delayed"}, ConfigError, "at least 1 move late"),
        ({"clock": {"move_seconds": 30, "bank_seconds": 0}}, TypeError, "clock"),
    ],
)
def test_a_matchs_settings_are_checked_when_made(
    values: dict[str, Any], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        _match(**values)


def test_a_delayed_spectator_sees_the_table_some_moves_late() -> None:
    assert _match(spectators="delayed", delay=3).delay == 3


@pytest.mark.parametrize(
    ("move", "bank", "error", "says"),
    [
        (-1, 60, ConfigError, "move_seconds is a number of seconds from 0 to 604800"),
        (30, 7 * 24 * 3600 + 1, ConfigError, "bank_seconds is a number of seconds from 0"),
        (math.nan, 60, ConfigError, "move_seconds is a number of seconds"),
        ("30", 60, TypeError, "move_seconds is a number of seconds"),
        (30, True, TypeError, "bank_seconds is a number of seconds"),
        (0, 0, ConfigError, "a clock gives each move some time"),
    ],
)
def test_a_clock_gives_each_move_some_time_within_a_week(
    move: Any, bank: Any, error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        ClockRule(move_seconds=move, bank_seconds=bank)


def test_a_clocks_seconds_are_kept_as_floats() -> None:
    clock = ClockRule(move_seconds=30, bank_seconds=0)
    assert (clock.move_seconds, clock.bank_seconds) == (30.0, 0.0)
    assert type(clock.move_seconds) is float


def test_stored_settings_out_of_range_fail_to_load_as_invalid_state() -> None:
    good = MatchSettings(clock=ClockRule(move_seconds=30, bank_seconds=60)).to_json()
    assert MatchSettings.from_json(good) == MatchSettings(
        clock=ClockRule(move_seconds=30, bank_seconds=60)
    )
    for bad in (
        {**good, "delay": -2},
        {**good, "spectators": "all"},
        {**good, "clock": {"move_seconds": "x", "bank_seconds": 1}},
        {**good, "clock": {"move_seconds": 0, "bank_seconds": 0}},
    ):
        with pytest.raises(InvalidStateError, match="stored match settings are malformed"):
            MatchSettings.from_json(bad)


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"store": 5}, "a store is a Store, a database URL or None"),
        ({"settings": {"burst": 5}}, "settings are ServerSettings or None"),
        ({"hub": "redis://localhost"}, "a hub is a Hub or None"),
        ({"site": 5}, "a site is a folder's path"),
    ],
)
def test_the_app_refuses_what_is_no_store_settings_hub_or_site(
    arguments: dict[str, Any], says: str
) -> None:
    with pytest.raises(TypeError, match=says):
        create_app(**arguments)
