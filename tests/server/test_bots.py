"""Bots as seats, played by the server off its event loop, and chance outcomes drawn from
the game's seed where a game leaves them to the table, so the record replays.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tabletop_rules import CHANCE, Match, get_ruleset
from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.records import GameRecord
from tabletop_rules.rng import Rng, derived_seed, sample_outcome

pytest.importorskip("starlette")

from tabletop_rules.server import SQLiteStore

from .helpers import create, join, seated, seeded, serving, sync


def test_a_person_plays_a_whole_game_against_a_bot_seat() -> None:
    with serving() as client:
        match_id = create(client, rules={"stages": "1"}, seats=["person", "greedy"])
        token = join(client, match_id)
        rng = random.Random(3)
        with seated(client, match_id, token) as seat:
            answered = -1
            while seat.match["status"] != "over":
                version = seat.table["version"]
                if seat.table["to_move"] == 0 and version > answered:
                    move = rng.choice(seat.table["moves"])
                    seat.send({"type": "move", "move": move, "version": version})
                    answered = version
                seat.read()
        record = GameRecord.from_json(client.get(f"/api/matches/{match_id}/record").text)
    match = Match.from_record(record)
    assert match.is_over
    assert seat.table["winners"] == sorted(match.winners)
    movers = {entry["seat"] for frame in seat.frames for entry in frame["table"]["log"]}
    assert movers == {0, 1}


def test_a_match_of_bots_alone_plays_itself_out_for_its_spectators() -> None:
    with serving() as client:
        match_id = create(client, rules={"stages": "1"}, seats=["greedy", "random"])
        with seated(client, match_id, None) as watcher:
            watcher.read_until(lambda message: message["match"]["status"] == "over")
    assert watcher.table["over"]
    assert watcher.match["result"]["reason"] == "played"


def test_chance_outcomes_are_drawn_from_the_games_seed_so_the_record_replays(
    stores: Callable[..., SQLiteStore],
) -> None:
    store = stores()
    config = dp.Config(stages=1, auto_chance=False)
    match_id = seeded(store, "dice-poker", 11, ("person", "greedy"), config)
    with serving(store) as client:
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            seat.move("roll")  # the dice are thrown: chance (the server) says how they fall
            seat.read_until(lambda message: message["table"]["to_move"] == 0)
            seat.move("write chance")
            seat.read_until(lambda message: message["table"]["to_move"] == 0)  # the bot's turn
    record = sync(store).record(match_id)
    rules = get_ruleset("dice-poker")
    match = Match(rules, config, seed=11)
    chance_points = 0
    for text in record.moves:
        if match.current_player == CHANCE:
            seed = derived_seed(11, len(match.moves))
            drawn = sample_outcome(rules.chance_probabilities(match.state), Rng.from_seed(seed))
            assert rules.format_move(drawn[0]) == text
            chance_points += 1
        match.play(text)
    assert chance_points >= 2
    assert Match.from_record(record).record == record


def test_a_bot_past_its_time_budget_gives_way_to_a_seeded_random_move(
    caplog: pytest.LogCaptureFixture, stores: Callable[..., SQLiteStore]
) -> None:
    store = stores()
    match_id = seeded(store, "account", 5, ("person", "search"))
    with serving(store, bot_seconds=0) as client:
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            seat.move("place 4")
            seat.read_until(lambda message: message["table"]["version"] == 2)
    rules = get_ruleset("account")
    match = Match(rules, seed=5)
    match.play("place 4")
    seed = derived_seed(derived_seed(5, 1), 0)
    expected = RandomBot(rules, seed).choose(match.view(1))
    assert sync(store).record(match_id).moves[1] == rules.format_move(expected)
    assert "bot search gave no move in time" in caplog.text
