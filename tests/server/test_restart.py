"""A new server on the same SQLite file resumes every match exactly: the moves, the seats'
tokens, the clocks' banks, and the bots' turns; a client comes back with its token and
cursor and finishes the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop_rules import Match
from tabletop_rules.records import GameRecord

pytest.importorskip("starlette")

from tabletop_rules.server import SQLiteStore

from .helpers import FakeTime, create, join, party, play_random, seated, seeded, serving, sync


def test_a_restarted_server_resumes_a_match_and_its_clocks_exactly(
    tmp_path: Path, stores: Callable[..., SQLiteStore]
) -> None:
    path = tmp_path / "server.db"
    time = FakeTime()
    clock = {"move_seconds": 10, "bank_seconds": 60}
    with serving(stores(path), now=time) as client:
        match_id = create(client, rules={"stages": "1"}, clock=clock)
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (one, two):
            time.advance(30)
            one.move("roll")
            two.read()
            before = one.table
            banks = one.match["clock"]["banks"]
    # the first server is gone without closing its store, as a killed process leaves it
    time.advance(500)  # time the server was down is charged to no one
    with serving(stores(path), now=time) as client:
        with party(client, match_id, [first, second]) as (one, two):
            assert one.table["view"] == before["view"]
            assert one.match["clock"]["banks"] == banks == [40, 60]
            assert one.match["clock"]["left"] == 50
            play_random({0: one, 1: two}, random.Random(5))
        record = GameRecord.from_json(client.get(f"/api/matches/{match_id}/record").text)
    assert Match.from_record(record).is_over
    assert record.moves[0] == "roll"
    assert sync(stores(path)).record(match_id) == record


def test_a_client_back_after_a_restart_gets_the_moves_since_its_cursor(
    tmp_path: Path, stores: Callable[..., SQLiteStore]
) -> None:
    path = tmp_path / "server.db"
    with serving(stores(path)) as client:
        match_id = create(client, rules={"stages": "1"})
        first, second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, first) as one:
            one.move("roll")
            cursor = one.table["version"]
            one.move("write chance")
        with seated(client, match_id, second) as two:
            two.move("roll")
    with serving(stores(path)) as client, seated(client, match_id, first, cursor) as one:
        table = one.table
    assert table["log_from"] == 1
    assert [entry["move"] for entry in table["log"]] == ["write chance", "roll"]


def test_a_restarted_server_plays_on_the_bots_whose_turn_it_was(
    tmp_path: Path, stores: Callable[..., SQLiteStore]
) -> None:
    path = tmp_path / "server.db"
    match_id = seeded(stores(path), "dice-poker", 3, ("greedy", "random"))
    with serving(stores(path)) as client, seated(client, match_id, None) as watcher:
        watcher.read_until(lambda message: message["match"]["status"] == "over")
    assert Match.from_record(sync(stores(path)).record(match_id)).is_over
