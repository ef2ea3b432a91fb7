"""Versioned JSON: round trips of every kind of object, the envelope, and refusal of bad input.

Bad states are made the way a corrupted or hand-edited file would be: dump a good state,
edit the parsed JSON, dump it again. Each must fail to load with ``InvalidStateError``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules import serialize
from tabletop_rules.dice_poker.config import BoxScores
from tabletop_rules.dice_poker.moves import POKER_BOXES
from tabletop_rules.errors import ConfigError, InvalidConfigError, InvalidStateError
from tabletop_rules.records import GameRecord
from tabletop_rules.serialize import (
    MAX_DEPTH,
    MAX_DOCUMENT_CHARS,
    MAX_INT_DIGITS,
    dumps,
    from_data,
    loads,
    parse_json,
    to_data,
)
from tabletop_rules.testing import random_playout
from tabletop_rules.testing.fuzz import hostile_json

from .ids import repr_id

Box = dp.Box
Data = dict[str, Any]


def case_id(value: object) -> str | None:
    """Parametrize ids that show the edited JSON (``data7`` says nothing)."""
    return json.dumps(value) if isinstance(value, dict | list) else None


def play(state: dp.State, *texts: str) -> dp.State:
    for text in texts:
        state = dp.apply(state, dp.parse_move(state, text))
    return state


def base_state() -> dp.State:
    """Two players, two turns played: seat 0 wrote FOURS (-8), seat 1 wrote CHANCE (19);
    seat 0 has thrown once and shows 2 2 3 3 4; each bank holds 2 fences.
    """
    state = play(dp.new_game(seed=5), "roll", "write fours", "roll", "write chance", "roll")
    assert state.sheets[0][Box.FOURS] == -8
    assert state.sheets[1][Box.CHANCE] == 19
    assert state.dice == (2, 2, 3, 3, 4)
    assert state.fences == (2, 2)
    return state


def edited(obj: Any, edit: Callable[[Data], object]) -> str:
    """``obj`` dumped, its data edited in place by ``edit``, and dumped again."""
    envelope = json.loads(dumps(obj))
    edit(envelope["data"])
    return json.dumps(envelope)


def envelope_edited(obj: Any, edit: Callable[[Data], object]) -> str:
    envelope = json.loads(dumps(obj))
    edit(envelope)
    return json.dumps(envelope)


def playout_states(config: dp.Config, seed: int) -> tuple[dp.State, ...]:
    return random_playout(dp.RULES, config, seed, seed + 1).states


# --- round trips ----------------------------------------------------------------------------

CONFIGS = [
    dp.Config(),
    dp.Config(players=1, stages=1),
    dp.Config(
        players=3,
        throws_per_turn=2,
        stages=2,
        stage_orders=("announce", "up"),
        fences=True,
        max_fences=4,
        max_fences_per_turn=2,
        premium=35,
        penalty=0,
        box_scores=BoxScores(small_straight=25, large_straight=30, poker=100),
        auto_chance=False,
    ),
    dp.Config(fences=False, stage_orders="down"),
]


@pytest.mark.parametrize("config", CONFIGS)
def test_configs_round_trip(config: dp.Config) -> None:
    assert loads(dumps(config)) == config
    assert loads(dumps(config), dp.Config) == config


@pytest.mark.parametrize("config", CONFIGS[1:])
def test_states_round_trip_at_every_point_of_a_game(config: dp.Config) -> None:
    states = playout_states(config, seed=31)
    assert dp.is_over(states[-1])
    for state in states:
        assert loads(dumps(state)) == state


def test_a_new_game_round_trips_with_its_seed_and_generator() -> None:
    state = dp.new_game(seed=2**64 - 1)
    again = loads(dumps(state), dp.State)
    assert again == state
    assert again.seed == 2**64 - 1
    assert again.rng == state.rng


def test_a_state_waiting_for_chance_round_trips() -> None:
    config = dp.Config(auto_chance=False)
    first = play(dp.new_game(config, seed=3), "roll")
    assert dp.current_player(first) == dp.CHANCE
    assert first.pending_keep == ()
    assert loads(dumps(first)) == first
    later = play(first, "dice 1 2 4 6 6", "roll keep 6 6")
    assert dp.current_player(later) == dp.CHANCE
    assert later.pending_keep == (6, 6)
    assert later.dice == (1, 2, 4, 6, 6)
    assert loads(dumps(later)) == later


def test_a_state_with_an_announced_box_round_trips() -> None:
    state = play(dp.new_game(dp.Config(stage_orders="announce"), seed=8), "roll", "announce poker")
    assert state.announced is Box.POKER
    assert loads(dumps(state)) == state


def test_a_finished_game_round_trips() -> None:
    final = playout_states(dp.Config(players=2, stages=1), seed=77)[-1]
    assert dp.is_over(final)
    again = loads(dumps(final), dp.State)
    assert again == final
    assert dp.winners(again) == dp.winners(final)


MOVES: list[dp.Move] = [
    dp.Roll(),
    dp.Roll(keep=(6, 6)),
    dp.Roll(keep=(1, 2, 3, 4)),
    *(dp.Write(box) for box in Box),
    *(dp.Scratch(box) for box in POKER_BOXES),
    *(dp.Announce(box) for box in Box),
    dp.Dice((3,)),
    dp.Dice((1, 2, 4, 6, 6)),
]


@pytest.mark.parametrize("move", MOVES, ids=repr_id)
def test_every_move_round_trips(move: dp.Move) -> None:
    assert loads(dumps(move)) == move
    assert type(loads(dumps(move))) is type(move)


def test_moves_travel_tagged_with_their_type() -> None:
    assert to_data(dp.Roll(keep=(6, 6))) == {"keep": [6, 6], "type": "roll"}
    assert to_data(dp.Write(Box.FULL_HOUSE)) == {"box": "full_house", "type": "write"}
    assert to_data(dp.Scratch(Box.POKER)) == {"box": "poker", "type": "scratch"}
    assert to_data(dp.Announce(Box.SIXES)) == {"box": "sixes", "type": "announce"}
    assert to_data(dp.Dice((2, 5))) == {"values": [2, 5], "type": "dice"}


def events_of_a_rich_game() -> list[Any]:
    """Events of a game that rolls, announces, writes, scratches, completes mountains,
    loses fences over the cap and ends.
    """
    config = dp.Config(players=2, stages=1, stage_orders="announce", max_fences=1)
    playout = random_playout(dp.RULES, config, 12, 13)
    events: list[Any] = []
    for state, move in zip(playout.states, playout.moves, strict=False):
        events.extend(dp.apply_with_events(state, move)[1])
    return events


def test_every_event_type_round_trips() -> None:
    events = events_of_a_rich_game()
    assert {type(event) for event in events} == set(dp.RULES.event_types)
    assert any(isinstance(e, dp.FencesChanged) and e.lost for e in events)
    for event in events:
        assert loads(dumps(event)) == event


def test_views_round_trip_for_every_seat_and_spectators() -> None:
    config = dp.Config(players=3, auto_chance=False, stages=1)
    for state in playout_states(config, seed=4)[::7]:
        for seat in (None, 0, 1, 2):
            view = dp.view(state, seat)
            assert loads(dumps(view)) == view
            assert loads(dumps(view), dp.View) == view


# --- the envelope ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "kind"),
    [
        (dp.Config(), "config"),
        (dp.new_game(seed=1), "state"),
        (dp.Roll(), "move"),
        (dp.Dice((1,)), "move"),
        (dp.Wrote(0, 0, Box.ONES, -2), "event"),
        (dp.view(dp.new_game(seed=1), None), "view"),
    ],
)
def test_the_envelope_names_game_version_and_kind(obj: Any, kind: str) -> None:
    envelope = json.loads(dumps(obj))
    assert set(envelope) == {"game", "version", "kind", "data"}
    assert envelope["game"] == "dice-poker"
    assert envelope["version"] == dp.RULES.format_version == 2
    assert envelope["kind"] == kind
    assert envelope["data"] == to_data(obj)


def test_loads_accepts_bytes() -> None:
    assert loads(dumps(dp.Roll()).encode()) == dp.Roll()


def test_from_data_builds_the_object_to_data_wrote() -> None:
    state = base_state()
    assert from_data(to_data(state), dp.State) == state
    # The game's union of moves takes any move; one move class takes only its own.
    move: object = from_data(to_data(dp.Scratch(Box.PAIR)), dp.Move)  # type: ignore[arg-type]
    assert move == dp.Scratch(Box.PAIR)
    with pytest.raises(InvalidStateError, match="expected a dice-poker Roll, the data holds a"):
        from_data(to_data(dp.Scratch(Box.PAIR)), dp.Roll)


def test_from_data_takes_the_event_union_and_refuses_a_move_for_an_event() -> None:
    event = dp.Wrote(0, 0, Box.ONES, -2)
    assert from_data(to_data(event), dp.Event) == event  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="malformed dice-poker event"):
        from_data(to_data(dp.Roll()), dp.Event)  # type: ignore[arg-type]


def test_loads_pins_a_union_of_moves() -> None:
    assert loads(dumps(dp.Roll()), dp.Move) == dp.Roll()
    with pytest.raises(InvalidStateError, match="expected a Roll or Write"):
        loads(dumps(dp.Scratch(Box.PAIR)), dp.Roll | dp.Write)


def test_sets_are_written_sorted() -> None:
    text = dumps(dp.GameOver((5, 5, 5), frozenset({2, 0, 1})))
    assert '"winners": [0, 1, 2]' in text


def test_a_game_record_round_trips_through_dumps_and_loads() -> None:
    record = GameRecord.start(dp.RULES, dp.new_game(seed=4)).play("roll").play("write chance")
    text = dumps(record)
    assert json.loads(text)["kind"] == "record"
    assert loads(text) == record
    assert loads(text, GameRecord) == record


def test_a_record_in_an_envelope_with_an_extra_key_is_refused() -> None:
    record = GameRecord.start(dp.RULES, dp.new_game(seed=4))
    text = envelope_edited(record, lambda envelope: envelope["data"].update(comment=None))
    with pytest.raises(InvalidStateError, match="and nothing else"):
        loads(text)


def test_a_state_travels_without_its_derived_open_masks_and_totals() -> None:
    state = base_state()
    data = json.loads(dumps(state))["data"]
    assert not data.keys() & {"open_masks", "totals"}
    derived = {"open_masks": list(state.open_masks), "totals": list(state.totals)}
    with pytest.raises(InvalidStateError, match="loading takes only what dumps writes"):
        from_data({**data, **derived}, dp.State)
    with pytest.raises(InvalidStateError, match="State is missing totals"):
        from_data({**data, "open_masks": derived["open_masks"]}, dp.State)


def test_the_class_asked_for_must_match_the_json() -> None:
    with pytest.raises(InvalidStateError, match="expected a Roll"):
        loads(dumps(dp.Write(Box.ONES)), dp.Roll)
    with pytest.raises(InvalidStateError, match="expected a State"):
        loads(dumps(dp.Config()), dp.State)


def test_an_object_of_no_game_cannot_be_dumped() -> None:
    with pytest.raises(TypeError, match="no registered game"):
        dumps(object())


# --- bad input: the envelope ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "{", "not json", '{"game": "dice-poker",', b"\xff\xfe\x00", "[1, 2"]
)
def test_malformed_json_is_refused(text: str | bytes) -> None:
    with pytest.raises(InvalidStateError, match="not JSON"):
        loads(text)


@pytest.mark.parametrize("text", ["[]", "null", "42", '"state"', "{}"])
def test_json_that_is_no_envelope_is_refused(text: str) -> None:
    with pytest.raises(InvalidStateError, match="game, version, kind and data"):
        loads(text)


@pytest.mark.parametrize("field", ["game", "version", "kind", "data"])
def test_an_envelope_missing_a_field_is_refused(field: str) -> None:
    text = envelope_edited(dp.Roll(), lambda envelope: envelope.pop(field))
    with pytest.raises(InvalidStateError, match="game, version, kind and data"):
        loads(text)


@pytest.mark.parametrize("version", [0, 1, 3, -1, "2", None, [2]])
def test_another_version_is_refused(version: object) -> None:
    text = envelope_edited(base_state(), lambda envelope: envelope.update(version=version))
    with pytest.raises(InvalidStateError, match="version"):
        loads(text)


@pytest.mark.parametrize("game", ["chess", "Dice-Poker", "", None, ["dice-poker"]])
def test_an_unknown_game_is_refused(game: object) -> None:
    text = envelope_edited(dp.Roll(), lambda envelope: envelope.update(game=game))
    with pytest.raises(InvalidStateError, match="unknown game"):
        loads(text)


@pytest.mark.parametrize("kind", ["ruleset", "records", "State", "", None, ["state"]])
def test_an_unknown_kind_is_refused(kind: object) -> None:
    text = envelope_edited(base_state(), lambda envelope: envelope.update(kind=kind))
    with pytest.raises(InvalidStateError, match="unknown kind"):
        loads(text)


def test_data_of_another_kind_is_refused() -> None:
    text = envelope_edited(dp.Config(), lambda envelope: envelope.update(kind="state"))
    with pytest.raises(InvalidStateError, match="malformed dice-poker state"):
        loads(text)


# --- bad input: moves, events, configs ------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"box": "full_house"}, "malformed dice-poker move"),
        ({"type": "jump", "box": "chance"}, "malformed dice-poker move"),
        ({"type": "rolled", "seat": 0}, "malformed dice-poker move"),
        ({"type": "write"}, "malformed dice-poker move"),
        ({"type": "write", "box": "full_hut"}, "'full_hut' is not a Box"),
        ({"type": "write", "box": "seven"}, "'seven' is not a Box"),
        ({"type": "scratch", "box": 3}, "3 is not a Box"),
        ({"type": "roll", "keep": "66"}, "malformed dice-poker move"),
        ({"type": "dice", "values": [2, 5.5]}, "malformed dice-poker move"),
        ([], "malformed dice-poker move"),
        ("roll", "malformed dice-poker move"),
    ],
    ids=case_id,
)
def test_a_malformed_move_is_refused(data: object, fragment: str) -> None:
    text = envelope_edited(dp.Roll(), lambda envelope: envelope.update(data=data))
    with pytest.raises(InvalidStateError, match=fragment):
        loads(text)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"type": "scratch", "box": "ones"}, "no state allows it"),
        ({"type": "roll", "keep": [6, 6, 6, 6, 6, 6]}, "no state allows it"),
        ({"type": "roll", "keep": [1, 1, 1, 1, 1]}, "no state allows it"),
        ({"type": "dice", "values": []}, "no state allows it"),
        ({"type": "dice", "values": [0, 3]}, "a die shows a whole number from 1 to 6"),
        ({"type": "dice", "values": [True]}, "malformed dice-poker move"),
    ],
    ids=case_id,
)
def test_a_move_that_no_state_allows_is_refused(data: object, fragment: str) -> None:
    text = envelope_edited(dp.Roll(), lambda envelope: envelope.update(data=data))
    with pytest.raises(InvalidStateError, match=fragment):
        loads(text)


def a_view() -> dp.View:
    return dp.view(play(base_state(), "roll"), 0)


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda data: data.update(seat=42), "seat must be 0 to 1 or None"),
        (lambda data: data.update(dice=[9, 9, 9, 9, 9]), "dice must show 1 to 6"),
        (lambda data: data.update(dice=[1, 2, 3]), "five sorted faces"),
        (lambda data: data.update(sheets=[[1], [None]]), "sheet has 1 boxes"),
        (lambda data: data.update(fences=[-1, 0]), "fences must be a whole number >= 0"),
        (lambda data: data.update(scores=[100, 0]), r"field scores does not follow"),
        (lambda data: data.update(winners=[0]), r"field winners does not follow"),
        (lambda data: data.update(throws_allowed=9), r"field throws_allowed does not follow"),
        (lambda data: data.update(legal_moves=[]), r"field legal_moves does not follow"),
        (lambda data: data.update(current_player=1), r"field current_player does not follow"),
    ],
    ids=[
        "seat-off-the-table",
        "dice-off-the-die",
        "three-dice",
        "short-sheets",
        "negative-fences",
        "scores",
        "winners-before-the-end",
        "throws-allowed",
        "legal-moves",
        "current-player",
    ],
)
def test_a_view_that_is_no_view_of_a_reachable_state_is_refused(
    edit: Callable[[Data], object], fragment: str
) -> None:
    with pytest.raises(InvalidStateError, match=fragment):
        loads(edited(a_view(), edit))


def test_every_view_of_a_played_game_loads() -> None:
    for state in playout_states(dp.Config(players=3, auto_chance=False), seed=4):
        for seat in (None, 0, 1, 2):
            assert loads(dumps(dp.view(state, seat))) == dp.view(state, seat)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "wrote", "seat": 0, "stage": 0, "box": "ones"},
        {"type": "wrote", "seat": 0, "stage": 0, "box": "ones", "points": 1.5},
        {"type": "game_over", "scores": [1, 2], "winners": "0"},
        {"type": "write", "box": "ones"},
    ],
    ids=case_id,
)
def test_a_malformed_event_is_refused(data: object) -> None:
    text = envelope_edited(
        dp.Wrote(0, 0, Box.ONES, -2), lambda envelope: envelope.update(data=data)
    )
    with pytest.raises(InvalidStateError, match="malformed dice-poker event"):
        loads(text)


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        ({"players": 9}, "players must be 1 to 8"),
        ({"players": 0}, "players must be 1 to 8"),
        ({"throws_per_turn": 0}, "throws_per_turn"),
        ({"stage_orders": ["sideways"]}, "sideways"),
        ({"stage_orders": ["up", "down"]}, "stage_orders"),
        ({"max_fences": -1}, "max_fences"),
        ({"premium": -5}, "premium"),
        ({"players": 2.5}, "malformed dice-poker config"),
        ({"players": "2"}, "malformed dice-poker config"),
        ({"fences": 1}, "malformed dice-poker config"),
    ],
    ids=case_id,
)
def test_a_bad_config_is_refused(edit: Data, fragment: str) -> None:
    with pytest.raises(InvalidStateError, match=fragment):
        loads(edited(dp.Config(), lambda data: data.update(edit)))


@pytest.mark.parametrize("data", ["free", [], [2, 3], None, 2], ids=case_id)
def test_a_config_that_is_no_object_is_refused(data: object) -> None:
    text = envelope_edited(dp.Config(), lambda envelope: envelope.update(data=data))
    with pytest.raises(InvalidStateError, match="malformed dice-poker config"):
        loads(text)


# --- bad input: states ----------------------------------------------------------------------


def test_the_base_state_loads() -> None:
    # The edits below are to this state; unedited it is fine.
    state = base_state()
    assert loads(edited(state, lambda data: None)) == state


@pytest.mark.parametrize("field", ["config", "seed", "rng", "sheets", "fences", "turns_played"])
def test_a_state_missing_a_field_is_refused(field: str) -> None:
    with pytest.raises(InvalidStateError, match=r"dice.poker state"):
        loads(edited(base_state(), lambda data: data.pop(field)))


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        ({"turns_played": 2.5}, "malformed dice-poker state"),
        ({"throws_used": True}, "malformed dice-poker state"),
        ({"dice": "22334"}, "malformed dice-poker state"),
        ({"announced": "full_hut"}, "'full_hut' is not a Box"),
        ({"announced": 3}, "3 is not a Box"),
        ({"rng": 5}, "malformed dice-poker state"),
        ({"rng": {"state": 5.5}}, "malformed dice-poker state"),
        ({"sheets": "none"}, "malformed dice-poker state"),
    ],
    ids=case_id,
)
def test_a_state_with_a_field_of_the_wrong_type_is_refused(edit: Data, fragment: str) -> None:
    with pytest.raises(InvalidStateError, match=fragment):
        loads(edited(base_state(), lambda data: data.update(edit)))


def test_a_float_in_a_sheet_is_refused() -> None:
    def edit(data: Data) -> None:
        data["sheets"][1][Box.CHANCE] = 19.0

    with pytest.raises(InvalidStateError, match="malformed dice-poker state"):
        loads(edited(base_state(), edit))


def set_cell(seat: int, index: int, value: object) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data["sheets"][seat][index] = value

    return edit


def set_item(field: str, index: int, value: object) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data[field][index] = value

    return edit


def update(**changes: object) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data.update(changes)

    return edit


def update_config(**changes: object) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        data["config"].update(changes)

    return edit


def refill(seat: int, old: Box, new: Box, value: int) -> Callable[[Data], None]:
    """Seat ``seat`` filled ``new`` with ``value`` instead of ``old`` (stage 1)."""

    def edit(data: Data) -> None:
        data["sheets"][seat][old] = None
        data["sheets"][seat][new] = value

    return edit


def combine(*edits: Callable[[Data], None]) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        for one in edits:
            one(data)

    return edit


# Each: an edit of base_state()'s JSON that no game can reach, and what the error must say.
BROKEN_INVARIANTS: dict[str, tuple[Callable[[Data], None], str]] = {
    "a box filled twice in one turn": (set_cell(0, Box.PAIR, 4), "one box is filled per turn"),
    "a turn that filled no box": (set_cell(1, Box.CHANCE, None), "one box is filled per turn"),
    "more boxes than turns": (
        combine(set_cell(1, Box.PAIR, 4), set_cell(1, Box.ONES, -3)),
        "one box is filled per turn",
    ),
    "a box of the next stage filled early": (
        combine(set_cell(0, Box.FOURS, None), set_cell(0, 15 + Box.FOURS, -8)),
        "out of sequence",
    ),
    "a die showing 0": (update(dice=[0, 2, 3, 3, 4]), "dice must show 1 to 6"),
    "a die showing 7": (update(dice=[2, 2, 3, 3, 7]), "dice must show 1 to 6"),
    "unsorted dice": (update(dice=[4, 3, 3, 2, 2]), "sorted"),
    "four dice": (update(dice=[2, 2, 3, 3]), "five sorted faces"),
    "six dice": (update(dice=[2, 2, 3, 3, 4, 4]), "five sorted faces"),
    "fences over max_fences": (update_config(max_fences=1), "over the cap max_fences=1"),
    "negative fences": (set_item("fences", 1, -1), "whole number >= 0"),
    "fences while fences are off": (update_config(fences=False), "fences are off"),
    "seven in FOURS": (set_cell(0, Box.FOURS, 7), "FOURS cannot hold 7"),
    "six fours in FOURS": (set_cell(0, Box.FOURS, 12), "FOURS cannot hold 12"),
    "minus sixteen in FOURS": (set_cell(0, Box.FOURS, -16), "FOURS cannot hold -16"),
    "a negative poker box": (set_cell(1, Box.CHANCE, -5), "CHANCE cannot hold -5"),
    "turns_played below zero": (update(turns_played=-1), "turns_played must be 0 to 90"),
    "turns_played past the end": (update(turns_played=91), "turns_played must be 0 to 90"),
    "a sheet too short": (set_item("sheets", 1, [None] * 14 + [19]), "sheet has 15 boxes"),
    "a sheet for a third player": (
        update(sheets=[[None] * 45] * 3),
        "2 players need 2 sheets and fence banks",
    ),
    "throws beyond the turn's allowance": (update(throws_used=6), "throws_used must be 0 to 5"),
    "dice without a throw": (update(throws_used=0), "dice are on the table exactly when"),
    "a throw without dice": (update(dice=[]), "dice are on the table exactly when"),
    "a pending throw with auto_chance on": (update(pending_keep=[2, 2]), "auto_chance is on"),
    "a box announced in free order": (update(announced="pair"), "announced in 'free' order"),
    "a seed beyond 64 bits": (update(seed=2**64), r"seed must be in \[0, 2\*\*64\)"),
    "a negative seed": (update(seed=-1), r"seed must be in \[0, 2\*\*64\)"),
    "a generator state beyond 64 bits": (update(rng={"state": 2**64}), "rng must hold a state"),
    "a negative generator state": (update(rng={"state": -1}), "rng must hold a state"),
}


@pytest.mark.parametrize(
    "open_masks",
    [
        (2**15 - 1, 2**15 - 1 - (1 << Box.CHANCE)),
        (32759,),
        (2**15 - 1 - (1 << Box.FOURS), 2**15 - 1),
    ],
    ids=["a full stage", "a seat missing", "the filled box open"],
)
def test_a_state_whose_open_masks_do_not_match_its_sheets_is_refused(
    open_masks: tuple[int, ...],
) -> None:
    # open_masks is derived and never travels in JSON; check_state still holds it true.
    state = attrs.evolve(base_state(), open_masks=open_masks)
    with pytest.raises(InvalidStateError, match="open_masks"):
        dp.check_state(state)


@pytest.mark.parametrize("case", BROKEN_INVARIANTS)
def test_a_state_that_breaks_an_invariant_is_refused(case: str) -> None:
    edit, fragment = BROKEN_INVARIANTS[case]
    with pytest.raises(InvalidStateError, match=fragment):
        loads(edited(base_state(), edit))


def chance_state() -> dp.State:
    """Seat 0 of a manual-dice game has thrown twice, keeping 6 6 of 1 2 4 6 6."""
    config = dp.Config(auto_chance=False)
    return play(dp.new_game(config, seed=3), "roll", "dice 1 2 4 6 6", "roll keep 6 6")


BROKEN_CHANCE_INVARIANTS: dict[str, tuple[Callable[[Data], None], str]] = {
    "keeping dice that are not on the table": (
        update(pending_keep=[5, 5]),
        "keeps dice that are not on the table",
    ),
    "keeping five dice": (update(pending_keep=[1, 2, 4, 6, 6]), "not what a throw can keep"),
    "keeping unsorted dice": (update(pending_keep=[6, 2]), "sorted faces"),
    "keeping a seven": (update(pending_keep=[6, 7]), "faces 1 to 6"),
    "a pending throw before any throw": (
        update(throws_used=0, dice=[]),
        "not what a throw can keep",
    ),
    "a second throw with no dice on the table": (
        update(dice=[]),
        "the table shows the throw before it",
    ),
}


def test_the_chance_state_loads() -> None:
    state = chance_state()
    assert loads(edited(state, lambda data: None)) == state


@pytest.mark.parametrize("case", BROKEN_CHANCE_INVARIANTS)
def test_a_pending_throw_that_breaks_an_invariant_is_refused(case: str) -> None:
    edit, fragment = BROKEN_CHANCE_INVARIANTS[case]
    with pytest.raises(InvalidStateError, match=fragment):
        loads(edited(chance_state(), edit))


def test_a_finished_game_with_dice_on_the_table_is_refused() -> None:
    final = playout_states(dp.Config(players=1, stages=1), seed=5)[-1]
    text = edited(final, update(dice=[1, 2, 3, 4, 5], throws_used=1))
    with pytest.raises(InvalidStateError, match="the game is over but a turn is in progress"):
        loads(text)


def test_an_announce_turn_that_threw_again_without_announcing_is_refused() -> None:
    state = play(dp.new_game(dp.Config(stage_orders="announce"), seed=8), "roll", "announce poker")
    state = play(state, "roll")
    text = edited(state, update(announced=None))
    with pytest.raises(InvalidStateError, match="must be announced after the first throw"):
        loads(text)


# Reachable states obey these too, so a loader that "validates every invariant" must refuse
# them: no roll of five dice scores these points in these boxes, and no bank can grow past
# throws_per_turn fences for each turn its seat has finished.
UNREACHABLE_VALUES: dict[str, tuple[Callable[[Data], None], str]] = {
    "CHANCE holding 4 (five dice sum to 5..30)": (set_cell(1, Box.CHANCE, 4), "CHANCE"),
    "CHANCE holding 31": (set_cell(1, Box.CHANCE, 31), "CHANCE"),
    "PAIR holding 7 (a pair sums to an even number)": (
        refill(1, Box.CHANCE, Box.PAIR, 7),
        "PAIR",
    ),
    "POKER holding 30 with poker worth 50": (
        refill(1, Box.CHANCE, Box.POKER, 30),
        "POKER",
    ),
    "SMALL_STRAIGHT holding 14": (
        refill(1, Box.CHANCE, Box.SMALL_STRAIGHT, 14),
        "SMALL_STRAIGHT",
    ),
    "a bank of 100 after one turn of three throws": (set_item("fences", 1, 100), "fences"),
}


def test_another_box_with_a_reachable_score_loads() -> None:
    # The edit the cases below build on is sound by itself: 3 3 3 5 5 is a full house of 19.
    state = loads(edited(base_state(), refill(1, Box.CHANCE, Box.FULL_HOUSE, 19)), dp.State)
    assert state.sheets[1][Box.FULL_HOUSE] == 19


@pytest.mark.parametrize("case", UNREACHABLE_VALUES)
def test_a_state_with_unreachable_values_is_refused(case: str) -> None:
    edit, fragment = UNREACHABLE_VALUES[case]
    with pytest.raises(InvalidStateError, match=fragment):
        loads(edited(base_state(), edit))


def test_a_first_throw_in_the_air_that_kept_dice_is_refused() -> None:
    # The first throw of a turn rolls all five dice, so nothing can be kept yet.
    state = play(dp.new_game(dp.Config(auto_chance=False), seed=3), "roll")
    assert state.pending_keep == ()
    with pytest.raises(InvalidStateError, match="pending_keep"):
        loads(edited(state, update(pending_keep=[6, 6])))


# --- hostile input: limits, exact names, exact keys, threads ----------------------------------


@pytest.mark.parametrize("text", ["[" * 100_000, "{" * 100_000, '{"a":' * 50_000, "[" * 33])
def test_deep_nesting_is_refused_before_parsing(text: str) -> None:
    with pytest.raises(InvalidStateError, match=r"nests \d+ deep, over the limit of 32"):
        loads(text)


def test_nesting_up_to_the_limit_parses() -> None:
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    value = parse_json(deepest)
    for _ in range(MAX_DEPTH - 1):
        (value,) = value
    assert value == []


def test_brackets_inside_strings_are_no_nesting() -> None:
    assert parse_json(json.dumps({"a": "[" * 1000})) == {"a": "[" * 1000}
    assert parse_json(json.dumps(['"[[[' + "\\" * 3])) == ['"[[[' + "\\" * 3]


@pytest.mark.parametrize("digits", [21, 5_000, 100_000])
def test_a_number_of_thousands_of_digits_is_refused(digits: int) -> None:
    with pytest.raises(InvalidStateError, match=f"{digits} digits is over the limit of 20"):
        loads('{"game": "dice-poker", "version": ' + "9" * digits + "}")


def test_a_twenty_digit_seed_still_loads() -> None:
    state = dp.new_game(seed=2**64 - 1)
    assert len(str(state.seed)) == MAX_INT_DIGITS
    assert loads(dumps(state)) == state


def test_a_document_over_the_size_limit_is_refused_unread() -> None:
    text = " " * (MAX_DOCUMENT_CHARS + 1)
    with pytest.raises(InvalidStateError, match="over the limit of 16777216"):
        loads(text)
    with pytest.raises(InvalidStateError, match="over the limit"):
        loads(text.encode())


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_no_json_numbers(constant: str) -> None:
    text = edited(dp.new_game(seed=1), lambda data: data.update(turns_played=0))
    with pytest.raises(InvalidStateError, match=f"{constant} is no JSON number"):
        loads(text.replace('"turns_played": 0', f'"turns_played": {constant}'))


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" * 400 + ".0"])
def test_a_number_too_large_for_a_float_is_no_json_number(number: str) -> None:
    with pytest.raises(InvalidStateError, match="too large for a number"):
        parse_json(f"[{number}]")


@pytest.mark.parametrize("text", [None, 42, ["json"], {"game": "dice-poker"}, memoryview(b"{}")])
def test_text_that_is_no_string_is_refused(text: Any) -> None:
    with pytest.raises(InvalidStateError, match="expected JSON text"):
        loads(text)


@pytest.mark.parametrize(
    "name",
    [
        "FIVES",
        "Fives",
        "fiVes",
        "\ufb01ves",
        "\uff46\uff49\uff56\uff45\uff53",
        " fives",
        "fives\u200b",
    ],
)
def test_an_enum_name_in_any_other_spelling_is_refused(name: str) -> None:
    text = envelope_edited(dp.Write(Box.FIVES), lambda envelope: envelope["data"].update(box=name))
    with pytest.raises(InvalidStateError, match="is not a Box"):
        loads(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"game": "dice-poker", "game": "dice-poker", "version": 2, "kind": "move", '
        '"data": {"box": "pair", "type": "write"}}',
        '{"game": "dice-poker", "version": 2, "kind": "move", '
        '"data": {"box": "poker", "box": "pair", "type": "write"}}',
        '{"game": "dice-poker", "version": 2, "kind": "move", '
        '"data": {"box": "pair", "type": "write", "type": "scratch"}}',
    ],
)
def test_duplicate_keys_are_refused(text: str) -> None:
    with pytest.raises(InvalidStateError, match="duplicate key"):
        loads(text)


def test_an_extra_key_in_the_envelope_is_refused() -> None:
    text = envelope_edited(dp.Roll(), lambda envelope: envelope.update(comment="hi"))
    with pytest.raises(InvalidStateError, match="game, version, kind and data, no more"):
        loads(text)


@pytest.mark.parametrize("obj", [dp.Roll(), dp.new_game(seed=1), dp.Config()], ids=repr_id)
def test_an_extra_key_in_the_data_is_refused(obj: Any) -> None:
    with pytest.raises(InvalidStateError, match="Extra fields in constructor"):
        loads(edited(obj, lambda data: data.update(comment="hi")))


@pytest.mark.parametrize("field", [field.name for field in attrs.fields(dp.Config)[:11]])
def test_config_data_with_a_field_missing_is_refused(field: str) -> None:
    with pytest.raises(InvalidStateError, match=f"Config is missing {field}"):
        loads(edited(dp.Config(), lambda data: data.pop(field)))


@pytest.mark.parametrize(
    ("data", "missing"),
    [
        ({"type": "roll"}, "Roll is missing keep"),
        ({"type": "fences_changed", "seat": 0, "change": 1, "fences": 1}, "missing lost"),
        ({"small_straight": 15, "large_straight": 20}, "missing poker"),
    ],
    ids=case_id,
)
def test_moves_events_and_nested_data_with_a_field_missing_are_refused(
    data: Data, missing: str
) -> None:
    if "type" in data:
        kind = "event" if data["type"] == "fences_changed" else "move"
        text = json.dumps({"game": "dice-poker", "version": 2, "kind": kind, "data": data})
    else:
        text = edited(dp.Config(), lambda config: config.update(box_scores=data))
    with pytest.raises(InvalidStateError, match=missing):
        loads(text)


def test_a_loaded_config_over_a_bound_is_a_config_error_too() -> None:
    text = edited(dp.Config(), lambda data: data.update(players=9))
    with pytest.raises(InvalidConfigError, match="players must be 1 to 8"):
        loads(text)
    with pytest.raises(ConfigError, match="players must be 1 to 8"):
        loads(text)


RACE = """
import sys, threading
sys.setswitchinterval(1e-6)
from tabletop_rules.serialize import loads
TEXT = {text!r}
barrier = threading.Barrier(16)
errors = []
def load():
    barrier.wait()
    try:
        loads(TEXT)
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=load) for _ in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors)
"""


def test_sixteen_threads_loading_a_move_in_a_fresh_process_all_succeed() -> None:
    # Before the fix, 14 of 15 threads failed in most such processes.
    script = RACE.format(text=dumps(dp.Write(Box.FULL_HOUSE)))
    runs = [
        subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    for run in runs:
        output, _ = run.communicate(timeout=60)
        assert run.returncode == 0
        assert output.strip() == "[]"


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"type": "roll", "keep": [6, 2]}, r"keep is \[6, 2\], which dumps writes as \[2, 6\]"),
        ({"type": "dice", "values": [5, 1, 3]}, r"values is \[5, 1, 3\]"),
    ],
    ids=case_id,
)
def test_a_move_not_in_the_form_dumps_writes_is_refused(data: Data, fragment: str) -> None:
    text = envelope_edited(dp.Roll(), lambda envelope: envelope.update(data=data))
    with pytest.raises(InvalidStateError, match=fragment):
        loads(text)


def test_stage_orders_as_a_bare_string_is_refused_on_load() -> None:
    # Config(stage_orders="down") is fine in code; JSON holds the list dumps writes.
    text = edited(dp.Config(), lambda data: data.update(stage_orders="down"))
    with pytest.raises(InvalidStateError, match="expected an array, got 'down'"):
        loads(text)


def test_from_data_takes_tuples_for_arrays() -> None:
    assert from_data({"keep": (2, 6), "type": "roll"}, dp.Roll) == dp.Roll(keep=(2, 6))


class HostileValue:
    """A value whose __eq__, __hash__ and __repr__ raise, as Python data may hold."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    ("data", "cls"),
    [
        ({"box": "pair", "type": HostileValue()}, dp.Write),
        ({"box": HostileValue(), "type": "write"}, dp.Write),
        ({"keep": [HostileValue()], "type": "roll"}, dp.Roll),
        (HostileValue(), dp.Roll),
        ({**to_data(dp.Config()), "stage_orders": [HostileValue()]}, dp.Config),
        ({**to_data(dp.new_game(seed=1)), "seed": 10**5000}, dp.State),
        ({**to_data(dp.new_game(seed=1)), "fences": [10**5000, 0]}, dp.State),
        ({**to_data(dp.new_game(seed=1)), "turns_played": -(10**30)}, dp.State),
    ],
    ids=["hostile-tag", "hostile-box", "hostile-face", "hostile-data", "hostile-order",
         "huge-seed", "huge-bank", "huge-negative"],
)  # fmt: skip
def test_from_data_of_python_data_holding_odd_objects_is_an_invalid_state_error(
    data: Any, cls: type[Any]
) -> None:
    with pytest.raises(InvalidStateError):
        from_data(data, cls)


def test_from_data_holds_integers_to_the_json_digit_limit() -> None:
    with pytest.raises(InvalidStateError, match="has more than 20 digits"):
        from_data({**to_data(dp.new_game(seed=1)), "turns_played": 10**20}, dp.State)


@pytest.mark.parametrize("field", ["seed", "turns_played", "throws_used"])
def test_check_state_of_a_hand_built_state_with_an_int_too_long_to_print(field: str) -> None:
    changes: dict[str, Any] = {field: 10**5000}
    state = attrs.evolve(dp.new_game(seed=1), **changes)
    with pytest.raises(InvalidStateError, match="invalid dice poker state"):
        dp.check_state(state)


def test_a_fixed_length_tuple_is_structured_item_by_item_against_its_types() -> None:
    # tuple[str, int] reads ["a", 1]: each value against its own type, in order.
    assert serialize.converter.structure(["a", 1], tuple[str, int]) == ("a", 1)
    with pytest.raises(ValueError, match="expected 2 items"):
        serialize.converter.structure(["a"], tuple[str, int])


# --- the pre-scan: linear time, little memory (issue 16, point 1) --------------------------


def _parse_seconds(text: str) -> float:
    """The processor time ``parse_json(text)`` takes in this thread."""
    start = time.thread_time()
    with contextlib.suppress(InvalidStateError):
        parse_json(text)
    return time.thread_time() - start


def _growth(small: str, large: str, bound: float) -> float:
    """How many times longer ``parse_json`` takes on ``large`` than on ``small``: fastest
    of 3 against fastest of up to 5, stopping once under ``bound``; no garbage collection.
    """
    gc.disable()
    try:
        fastest = min(_parse_seconds(small) for _ in range(3))
        slowest = math.inf
        for _ in range(5):
            slowest = min(slowest, _parse_seconds(large))
            if slowest < bound * fastest:
                break
    finally:
        gc.enable()
    return slowest / fastest


def test_json_prescan_is_linear_in_escaped_quotes() -> None:
    # The old pre-scan's regex read an unterminated string of escaped quotes again from
    # each quote in it: 16,000 of them took seconds, 32 times the text 1,000 times as long.
    small, large = ('"' + '\\"' * count for count in (512, 512 * 32))
    assert _growth(small, large, 32**1.5) < 32**1.5


@pytest.mark.parametrize("shape", sorted(hostile_json(8)))
def test_json_prescan_is_linear_for_every_hostile_shape(shape: str) -> None:
    small, large = hostile_json(1024)[shape], hostile_json(1024 * 32)[shape]
    assert _growth(small, large, 32**1.5) < 32**1.5


def _reference_depth(text: str) -> int:
    """The deepest nesting of ``text`` read one character at a time: a quote after an odd
    run of backslashes is escaped, every other quote opens or closes a string, and only
    brackets outside strings count.
    """
    depth = deepest = backslashes = 0
    inside = False
    for char in text:
        if char == "\\":
            backslashes += 1
            continue
        escaped, backslashes = backslashes % 2 == 1, 0
        if char == '"' and not escaped:
            inside = not inside
        elif not inside and char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif not inside and char in "]}":
            depth -= 1
    return deepest


_PIECES = st.one_of(
    st.sampled_from(["[", "]", "{", "}", '"', "\\", ",", ":", "1", "a", '{"a":', "[]", "é"]),
    st.builds(
        lambda piece, count: piece * count,
        st.sampled_from(["[", "]", "{", "}", '\\"', "\\", '"', "[]"]),
        st.integers(0, 80),
    ),
)


@given(
    text=st.lists(_PIECES, max_size=40).map("".join),
    window=st.sampled_from([1, 2, 3, 7, 64, 1 << 16]),
    as_bytes=st.booleans(),
)
def test_the_depth_check_counts_exactly_the_brackets_outside_strings(
    text: str, window: int, as_bytes: bool
) -> None:
    # Small windows make every string and every run of brackets cross window edges.
    expected = _reference_depth(text)
    document: str | bytes = text.encode() if as_bytes else text
    default, serialize._WINDOW = serialize._WINDOW, window
    try:
        refusal = _refusal(document)
    finally:
        serialize._WINDOW = default
    nests = f"the document nests {expected} deep" in (refusal or "")
    assert nests == (expected > MAX_DEPTH), refusal


def _refusal(document: str | bytes) -> str | None:
    """What ``parse_json`` says against ``document``, or ``None`` if it reads it."""
    try:
        parse_json(document)
    except InvalidStateError as error:
        return str(error)
    return None


def _peak_memory(text: str) -> int:
    """The most memory ``parse_json(text)`` holds at once, beyond the text."""
    tracemalloc.start()
    try:
        with contextlib.suppress(InvalidStateError):
            parse_json(text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_depth_check_takes_about_one_copy_of_the_text() -> None:
    # Refused for its depth, so only the pre-scan runs. The old one kept every small
    # value between brackets as a string of its own: 25 bytes a character.
    text = "[" * (MAX_DEPTH + 1) + "{}," * 400_000 + "{}"
    assert _peak_memory(text) < 2 * len(text)


@pytest.mark.parametrize("shape", sorted(hostile_json(8)))
def test_a_document_takes_at_most_the_documented_memory_a_character(shape: str) -> None:
    # The docs of MAX_DOCUMENT_CHARS say: at most 48 bytes a character, at any size.
    text = hostile_json(1 << 17)[shape]
    assert _peak_memory(text) < 48 * len(text)


def test_loads_reads_a_record_where_only_serialize_was_imported() -> None:
    # serialize does not import records (records builds on it); the package imports
    # records, so a fresh program that imports only serialize still reads a record.
    text = dumps(GameRecord("dice-poker", dp.Config(), 9, ("roll",)))
    program = (
        "from tabletop_rules.serialize import dumps, loads\n"
        f"record = loads({text!r})\n"
        f"print(type(record).__name__, dumps(record) == {text!r})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["GameRecord", "True"]
