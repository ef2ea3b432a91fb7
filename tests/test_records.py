"""Game records: built move by move, stored as JSON, replayed exactly; bad records refused."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError, InvalidStateError, NotationError
from tabletop_rules.records import GameRecord, replay, replay_states
from tabletop_rules.serialize import MAX_DOCUMENT_CHARS, to_data
from tabletop_rules.testing import random_playout

from .ids import repr_id


def case_id(value: object) -> str | None:
    """Parametrize ids that show the edited JSON (``data7`` says nothing)."""
    return json.dumps(value) if isinstance(value, dict | list) else None


def recorded_playout(config: dp.Config, seed: int) -> tuple[GameRecord, tuple[dp.State, ...]]:
    playout = random_playout(dp.RULES, config, seed, seed ^ 0xABCDEF)
    record = GameRecord.start(dp.RULES, playout.states[0])
    for move in playout.moves:
        record = record.play(move)
    return record, playout.states


def record_json(**changes: Any) -> str:
    """A good record's JSON with top-level fields replaced (or removed, for ``...``)."""
    data = json.loads(GameRecord.start(dp.RULES, dp.new_game(seed=4)).play("roll").to_json())
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


def test_start_records_the_game_config_and_seed_with_no_moves() -> None:
    config = dp.Config(players=3, stage_orders="down")
    record = GameRecord.start(dp.RULES, dp.new_game(config, seed=123))
    assert record == GameRecord("dice-poker", config, 123, ())
    assert record.ruleset is dp.RULES


def test_play_appends_notation_and_leaves_the_record_unchanged() -> None:
    empty = GameRecord.start(dp.RULES, dp.new_game(seed=9))
    one = empty.play(dp.Roll())
    two = one.play("write chance")
    three = two.play(dp.Scratch(dp.Box.POKER))
    assert empty.moves == ()
    assert one.moves == ("roll",)
    assert two.moves == ("roll", "write chance")
    assert three.moves == ("roll", "write chance", "scratch poker")


def test_to_json_holds_game_version_config_seed_and_moves() -> None:
    config = dp.Config(players=1, max_fences=2)
    record = GameRecord.start(dp.RULES, dp.new_game(config, seed=2**64 - 1)).play("roll")
    data = json.loads(record.to_json())
    assert data == {
        "game": "dice-poker",
        "version": dp.RULES.format_version,
        "config": to_data(config),
        "seed": 2**64 - 1,
        "moves": ["roll"],
    }


@pytest.mark.parametrize(
    "config",
    [
        dp.Config(players=2, stages=1),
        dp.Config(players=3, stages=1, auto_chance=False, stage_orders="announce"),
        dp.Config(players=1, stages=2, stage_orders=("up", "down"), max_fences=1),
    ],
)
def test_a_record_survives_json_and_replays_every_state(config: dp.Config) -> None:
    record, states = recorded_playout(config, seed=21)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert tuple(replay_states(again)) == states
    assert replay(again) == states[-1]
    assert dp.is_over(replay(again))


def test_from_json_accepts_bytes() -> None:
    record = GameRecord.start(dp.RULES, dp.new_game(seed=1)).play("roll")
    assert GameRecord.from_json(record.to_json().encode()) == record


def test_an_empty_record_replays_to_the_new_game() -> None:
    state = dp.new_game(dp.Config(players=4), seed=77)
    record = GameRecord.start(dp.RULES, state)
    assert replay(record) == state
    assert list(replay_states(record)) == [state]


def test_replay_reads_notation_as_people_type_it() -> None:
    state = dp.new_game(seed=9)
    record = GameRecord("dice-poker", state.config, 9, ("ROLL", "write  Chance"))
    expected = dp.apply(dp.apply(state, dp.Roll()), dp.Write(dp.Box.CHANCE))
    assert replay(record) == expected


def test_an_illegal_move_names_its_number() -> None:
    record = GameRecord("dice-poker", dp.Config(), 9, ("roll", "write chance", "write pair"))
    states = replay_states(record)
    assert len([next(states) for _ in range(3)]) == 3, "the legal moves replay first"
    with pytest.raises(InvalidStateError, match=r"move 3 \('write pair'\) cannot be played"):
        next(states)


def test_a_move_filling_a_box_twice_is_refused_by_number() -> None:
    moves = ("roll", "write chance", "roll", "write chance", "roll", "write chance")
    record = GameRecord("dice-poker", dp.Config(), 9, moves)
    with pytest.raises(InvalidStateError, match=r"move 6 .*filled already"):
        replay(record)


@pytest.mark.parametrize(
    ("moves", "number"),
    [
        (("roll", "jump"), 2),
        (("", "roll"), 1),
        (("roll", "write nothing"), 2),
        (("roll", "roll keep 9"), 2),
        (("roll", "dice 1 2 3 4 5"), 2),
    ],
)
def test_unreadable_or_illegal_text_names_the_move(moves: tuple[str, ...], number: int) -> None:
    record = GameRecord("dice-poker", dp.Config(), 3, moves)
    with pytest.raises(InvalidStateError, match=f"move {number} "):
        replay(record)


@pytest.mark.parametrize(("seed", "why"), [(-1, "seed"), (2**64, "seed")])
def test_a_record_that_cannot_start_a_game_is_refused(seed: int, why: str) -> None:
    record = GameRecord("dice-poker", dp.Config(), seed, ())
    with pytest.raises(InvalidStateError, match=f"cannot start a game.*{why}"):
        replay(record)


@pytest.mark.parametrize("text", ["", "{", "[1,", b"\xff", "not json"])
def test_a_record_that_is_not_json_is_refused(text: str | bytes) -> None:
    with pytest.raises(InvalidStateError, match="not JSON"):
        GameRecord.from_json(text)


@pytest.mark.parametrize("text", ["[]", "null", "3", "{}"])
def test_a_record_that_is_no_object_of_the_fields_is_refused(text: str) -> None:
    with pytest.raises(InvalidStateError, match="game, version, config, seed and moves"):
        GameRecord.from_json(text)


@pytest.mark.parametrize("field", ["game", "version", "config", "seed", "moves"])
def test_a_record_missing_a_field_is_refused(field: str) -> None:
    with pytest.raises(InvalidStateError, match="game, version, config, seed and moves"):
        GameRecord.from_json(record_json(**{field: ...}))


CONFIG_DATA = to_data(dp.Config())


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"version": 3}, "record version 3"),
        ({"version": 1}, "record version 1"),
        ({"version": "1"}, "record version '1'"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": None}, "unknown game"),
        ({"game": ["dice-poker"]}, "unknown game"),
        ({"moves": "roll"}, "moves must be a list"),
        ({"moves": ["roll", 3]}, "moves must be a list of move texts"),
        ({"moves": {"0": "roll"}}, "moves must be a list"),
        ({"seed": "4"}, "seed must be an integer"),
        ({"seed": 4.5}, "seed must be an integer"),
        ({"seed": True}, "seed must be an integer"),
        ({"seed": None}, "seed must be an integer"),
        ({"config": {**CONFIG_DATA, "players": 9}}, "players must be 1 to 8"),
        ({"config": "default"}, "malformed dice-poker config"),
        ({"config": []}, "malformed dice-poker config"),
        ({"config": {**CONFIG_DATA, "stage_orders": ["sideways"]}}, "sideways"),
        ({"config": {"players": 2}}, "Config is missing auto_chance"),
    ],
    ids=case_id,
)
def test_a_malformed_record_is_refused(changes: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidStateError, match=fragment):
        GameRecord.from_json(record_json(**changes))


def test_a_good_record_json_loads() -> None:
    # The edits above are to this record; unedited it loads and replays.
    record = GameRecord.from_json(record_json())
    assert record.moves == ("roll",)
    assert replay(record).throws_used == 1


def test_a_record_starts_only_from_a_new_game() -> None:
    under_way = dp.apply(dp.new_game(seed=3), dp.Roll())
    with pytest.raises(ValueError, match="needs a new game"):
        GameRecord.start(dp.RULES, under_way)


def test_a_record_of_a_game_under_way_is_refused_as_a_library_error() -> None:
    under_way = dp.apply(dp.new_game(seed=3), dp.Roll())
    with pytest.raises(InvalidStateError, match="not one already under way"):
        GameRecord.start(dp.RULES, under_way)


# --- hostile input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[" * 100_000, "nests 100000 deep"),
        ('{"seed": ' + "7" * 5_000 + "}", "5000 digits"),
        (" " * (MAX_DOCUMENT_CHARS + 1), "over the limit"),
        ('{"game": "dice-poker", "game": "dice-poker"}', "duplicate key 'game'"),
        (None, "expected JSON text"),
    ],
    ids=["deep", "digits", "size", "duplicate", "none"],
)
def test_from_json_of_hostile_text_is_an_invalid_state_error(text: Any, fragment: str) -> None:
    with pytest.raises(InvalidStateError, match=fragment):
        GameRecord.from_json(text)


def test_a_record_with_an_extra_key_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="and nothing else"):
        GameRecord.from_json(record_json(comment="hi"))


@pytest.mark.parametrize("deal", [None, [], ["10H"]])
def test_a_dice_poker_record_with_a_deal_is_refused(deal: object) -> None:
    with pytest.raises(InvalidStateError, match="has no deal: the game has no deck"):
        GameRecord.from_json(record_json(deal=deal))


def test_a_record_without_a_deal_writes_no_deal_key() -> None:
    assert "deal" not in json.loads(record_json())


def test_replay_of_a_dice_poker_record_given_a_deal_is_refused() -> None:
    record = attrs.evolve(GameRecord.start(dp.RULES, dp.new_game(seed=4)), deal=())
    with pytest.raises(InvalidStateError, match="has no deal: the game has no deck"):
        replay(record)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": ["dice-poker"]}, "unknown game"),
        ({"config": 5}, "needs a Config, got int"),
        ({"config": None}, "needs a Config, got NoneType"),
        ({"seed": -1}, "seed must be an integer"),
        ({"seed": 2.0}, "seed must be an integer"),
        ({"moves": ["roll", 3]}, "moves must be a list of move texts"),
        ({"moves": None}, "moves must be a list of move texts"),
        ({"moves": "roll"}, "moves must be a list of move texts"),
    ],
    ids=repr_id,
)
def test_replay_of_a_record_built_with_odd_fields_is_an_invalid_state_error(
    changes: dict[str, Any], fragment: str
) -> None:
    record = GameRecord.start(dp.RULES, dp.new_game(seed=4)).play("roll")
    record = attrs.evolve(record, **changes)
    with pytest.raises(InvalidStateError, match=f"cannot start a game: .*{fragment}"):
        replay(record)


def test_replay_of_something_that_is_no_record_is_an_invalid_state_error() -> None:
    with pytest.raises(InvalidStateError, match="expected a GameRecord, got dict"):
        replay({"game": "dice-poker"})  # type: ignore[call-overload]


def test_play_checks_each_move_as_it_is_added() -> None:
    record = GameRecord.start(dp.RULES, dp.new_game(seed=9)).play("roll").play("write chance")
    with pytest.raises(IllegalMoveError, match="a box is written after a throw"):
        record.play("write pair")
    with pytest.raises(NotationError):
        record.play("castle kingside")
    assert record.moves == ("roll", "write chance")


def test_play_stores_a_move_in_the_games_notation() -> None:
    record = (
        GameRecord.start(dp.RULES, dp.new_game(seed=9)).play("ROLL").play(dp.Write(dp.Box.CHANCE))
    )
    assert record.moves == ("roll", "write chance")


def test_play_on_a_record_built_by_hand_replays_its_moves_first() -> None:
    record = GameRecord("dice-poker", dp.Config(), 9, ("roll", "write chance"))
    assert record.play("roll").moves == ("roll", "write chance", "roll")
    broken = GameRecord("dice-poker", dp.Config(), 9, ("write chance",))
    with pytest.raises(InvalidStateError, match=r"move 1 \('write chance'\) cannot be played"):
        broken.play("roll")


def test_a_record_grown_by_play_equals_the_same_record_built_by_hand() -> None:
    grown = GameRecord.start(dp.RULES, dp.new_game(seed=9)).play("roll").play("write chance")
    built = GameRecord("dice-poker", dp.Config(), 9, ("roll", "write chance"))
    assert grown == built
    assert hash(grown) == hash(built)
    assert repr(grown) == repr(built)
    assert GameRecord.from_json(grown.to_json()) == grown


def test_replay_with_the_games_rules_is_typed_and_checks_the_game() -> None:
    from typing import assert_type

    from tabletop_rules import palace

    record = GameRecord("dice-poker", dp.Config(), 9, ("roll",))
    state = replay(dp.RULES, record)
    assert_type(state, dp.State)
    assert state == replay(record)
    with pytest.raises(InvalidStateError, match="a dice-poker record cannot be replayed as palace"):
        replay(palace.RULES, record)
    with pytest.raises(InvalidStateError, match="unknown game 3"):
        replay(dp.RULES, attrs.evolve(record, game=3))  # type: ignore[arg-type]
