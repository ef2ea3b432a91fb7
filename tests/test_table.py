"""The table a seat sees (issue 34, point 1): one value per seat, its JSON and schema, and
nothing in it that the seat's view does not hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules import CHANCE, Match, account, dice_poker, get_ruleset, palace
from tabletop_rules.errors import InvalidStateError, SeatError
from tabletop_rules.rng import Rng
from tabletop_rules.table import TABLE_SCHEMA, LogEntry, Table, game_entry, seat_table
from tabletop_rules.testing.checks import check_tables_hide_secrets, random_playout
from tabletop_rules.testing.variants import variant

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("dice-poker", "palace", "account")
_seeds = st.integers(0, 2**64 - 1)


def _random_match(data: st.DataObject) -> tuple[Match[Any, Any, Any], int | None]:
    """A match of a random game stopped at a random move, and a random seat or a spectator."""
    rules = get_ruleset(data.draw(st.sampled_from(GAMES), label="game"))
    fewest, most = rules.seats
    players = data.draw(st.integers(fewest, min(most, 3)), label="players")
    config = rules.config_type(players=players)
    playout = random_playout(rules, config, data.draw(_seeds), data.draw(_seeds))
    end = data.draw(st.integers(0, len(playout.moves)), label="moves")
    match = Match.from_record(rules, playout.record(rules, end))
    return match, data.draw(st.sampled_from((None, *range(players))), label="seat")


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_table_survives_its_json_for_random_states_of_every_game(data: st.DataObject) -> None:
    match, seat = _random_match(data)
    since = data.draw(st.integers(0, len(match.moves) + 3), label="since")
    table = seat_table(match, seat, since=since)
    text = json.dumps(table.to_json())
    assert Table.from_json(json.loads(text)) == table
    assert Table.from_json(json.loads(text)).to_json() == json.loads(text)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_the_json_of_a_table_validates_against_the_schema(data: st.DataObject) -> None:
    match, seat = _random_match(data)
    jsonschema.Draft202012Validator(TABLE_SCHEMA).validate(seat_table(match, seat).to_json())


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_seats_table_is_the_same_when_what_its_view_hides_is_dealt_again(
    data: st.DataObject,
) -> None:
    """The leak property: for every seat and a spectator, the table built from a state
    re-dealt from the seat's view is the one built from the game's state, and the log's
    last move is named alike for every move the seat cannot tell from it."""
    match, _seat = _random_match(data)
    check_tables_hide_secrets(match.rules, match, Rng.from_seed(data.draw(_seeds)))


def test_the_leak_check_catches_a_score_read_off_hidden_cards() -> None:
    leaky = variant(
        palace.RULES, score=lambda state: tuple(sum(c.rank for c in h) for h in state.hands)
    )
    match = Match(leaky, seed=1)
    with pytest.raises(AssertionError, match="table shows in scores what its view hides"):
        check_tables_hide_secrets(leaky, match)


def _offered(drawn: Any) -> set[str]:
    """Every move a drawn table offers to click: under ``move``, ``take``, ``place``,
    ``buy``, and the throws listed under ``rolls``."""
    if isinstance(drawn, list):
        return set().union(*map(_offered, drawn))
    if not isinstance(drawn, dict):
        return set()
    found = {
        value
        for key, value in drawn.items()
        if key in ("move", "take", "place", "buy") and isinstance(value, str)
    }
    found |= set(drawn.get("rolls", {}).values())
    return found.union(*map(_offered, drawn.values()))


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_move_a_drawn_table_offers_is_one_of_the_seats_moves(data: st.DataObject) -> None:
    match, seat = _random_match(data)
    table = seat_table(match, seat)
    assert table.drawn is not None
    assert table.drawn["game"] == table.game
    assert _offered(table.drawn) <= set(table.moves)
    assert set(table.move_notes) <= set(table.moves)
    if table.moves and table.to_move not in (None, CHANCE):
        assert _offered(table.drawn), "the seat to move has something to click"


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(TABLE_SCHEMA)


def test_the_published_schema_file_is_table_schema() -> None:
    published = (ROOT / "docs" / "_static" / "table.schema.json").read_text(encoding="utf-8")
    assert published == json.dumps(TABLE_SCHEMA, indent=2, sort_keys=True) + "\n"


def test_a_cursor_past_the_moves_after_a_take_back_is_clipped() -> None:
    match = Match(dice_poker.RULES, dice_poker.Config(stages=1, stage_orders="announce"), seed=7)
    match.play("roll")
    match.play("announce pair")
    assert [entry.move for entry in seat_table(match, 1, since=1).log] == ["announce pair"]
    match.take_back(0)
    table = seat_table(match, 1, since=2)
    assert (table.version, table.log_from, table.log) == (1, 1, ())
    assert seat_table(match, 1, since=0).log == (
        LogEntry(number=1, seat=0, move="roll", events=("P0 threw 1 2 2 3 3 (throw 1)",)),
    )


def test_moves_notes_and_hints_are_empty_when_the_seat_is_not_to_move() -> None:
    match = Match(account.RULES, seed=6)
    mover = match.current_player
    assert mover is not None
    other = 1 - mover
    table = seat_table(match, other)
    assert (table.moves, table.actions, dict(table.move_notes), table.hints) == ((), (), {}, ())
    own = seat_table(match, mover)
    assert own.moves == tuple(map(account.format_move, match.legal_moves))
    assert own.actions == tuple(map(account.encode, match.legal_moves))


def test_a_spectators_table_has_no_moves() -> None:
    match = Match(palace.RULES, seed=3)
    match.play("ready")
    table = seat_table(match, None)
    assert table.seat is None
    assert table.to_move == match.current_player
    assert (table.moves, table.actions, dict(table.move_notes), table.hints) == ((), (), {}, ())
    assert table.view["hand"] == []  # a spectator holds no hand


def test_at_a_chance_point_no_seat_has_moves_and_chance_is_to_move() -> None:
    match = Match(dice_poker.RULES, dice_poker.Config(auto_chance=False), seed=1)
    match.play("roll")
    assert match.current_player == CHANCE
    tables = [seat_table(match, seat) for seat in (None, 0, 1)]
    assert all(table.to_move == CHANCE and table.moves == () for table in tables)


def test_the_log_tells_each_seat_the_events_as_it_may_know_them() -> None:
    match = Match(palace.RULES, seed=1)
    match.play("ready")
    match.play("ready")
    match.play("play 4 4")
    mine, theirs = seat_table(match, 0).log[-1], seat_table(match, 1).log[-1]
    assert (mine.seat, mine.move) == (theirs.seat, theirs.move) == (0, "play 4D 4S")
    assert mine.events == tuple(palace.describe(event, 0) for event in match.move_events[-1])
    assert theirs.events == tuple(palace.describe(event, 1) for event in match.move_events[-1])
    assert mine.events != theirs.events  # the card drawn is named to its drawer only


def test_seat_table_refuses_what_is_no_match_no_seat_or_no_cursor() -> None:
    match = Match(palace.RULES, seed=1)
    with pytest.raises(TypeError, match="seat_table needs a Match"):
        seat_table(palace.new_game(seed=1), 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="since is a whole number"):
        seat_table(match, 0, since=-1)
    with pytest.raises(SeatError):
        seat_table(match, 2)


def _document() -> dict[str, Any]:
    match = Match(dice_poker.RULES, seed=7)
    match.play("roll")
    return seat_table(match, 0).to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("hints"), "missing hints"),
        (lambda d: d.update(extra=1), "unknown extra"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d.update(seat=5), "seat is a seat from 0 to 1 or null"),
        (lambda d: d.update(version=-1), "version is a whole number from 0"),
        (lambda d: d.update(actions=[0]), "action number from 0 for each move"),
        (lambda d: d.update(moves=[1, 2]), "moves is an array of texts"),
        (lambda d: d.update(log_from=2), "log_from is at most the version, 1"),
        (lambda d: d.update(log=[]), "log is moves 1 to 1"),
        (lambda d: d["log"][0].update(number=2), "move 1 next"),
        (lambda d: d.update(over=True), "over is true exactly when no seat is to move"),
        (lambda d: d.update(winners=[1, 0]), "winners is seats, sorted, each once"),
        (lambda d: d.update(scores=[0]), "a score for each of 2 seats"),
        (lambda d: d.update(seat=None), "the view is seat 0's, the table a spectator's"),
        (lambda d: d["view"].update(dice=[7, 7, 7, 7, 7]), "dice poker view"),
        (lambda d: d.update(drawn={1: 2}), "drawn has a key that is not text"),
        (lambda d: d.update(drawn=[1, 2]), "drawn is an object or null"),
    ],
)
def test_a_malformed_table_document_is_refused_saying_what_is_wrong(
    change: Any, message: str
) -> None:
    document = _document()
    change(document)
    with pytest.raises(InvalidStateError, match=message):
        Table.from_json(document)


def test_a_table_document_that_is_no_object_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="a table is a JSON object"):
        Table.from_json("{}")


def test_a_game_entry_tells_a_form_how_to_ask_for_each_house_rule() -> None:
    entry = game_entry(dice_poker.RULES)
    kinds = {rule["name"]: rule["kind"] for rule in entry["rules"]}
    assert kinds["auto_chance"] == "bool"
    assert kinds["stages"] == "number"
    assert kinds["box_scores"] == "text"
    assert entry["players"] == dice_poker.RULES.players(dice_poker.Config())
    assert entry["best_bot"] in entry["bots"]
    assert json.loads(json.dumps(entry)) == entry
    with pytest.raises(TypeError):
        game_entry("dice-poker")  # type: ignore[arg-type]
