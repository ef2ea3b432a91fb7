"""The SQLite store's own points: tokens kept only as hashes, a file in WAL mode that a
second connection reads as the first wrote it, and a file of the first server's schema
brought up to date at open, its matches kept. What every store promises is
test_store_contract.py's.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.records import GameRecord

pytest.importorskip("starlette")

from tabletop_rules.server.sqlite import MIGRATIONS, SQLiteStore
from tabletop_rules.server.store import (
    MatchSettings,
    SeatChange,
    StoredMove,
    hash_token,
    new_token,
)

HEAD = GameRecord("dice-poker", dp.Config(stages=1), 7)


def _with_match(store: SQLiteStore) -> SQLiteStore:
    asyncio.run(
        store.create_match("m", HEAD, MatchSettings(), ("person", "greedy"), creator="a", now=0.0)
    )
    return store


def _move(store: SQLiteStore, number: int, text: str) -> None:
    async def commit() -> None:
        stored = await store.match("m")
        assert stored is not None
        move = StoredMove(number=number, seat=0, move=text, at=float(number), clock=None)
        await store.commit("m", stored.revision, stored.live, worker="w", lease_until=0, move=move)

    asyncio.run(commit())


def test_a_seat_token_is_kept_as_its_hash_and_holds_its_seat_only(
    stores: Callable[..., SQLiteStore],
) -> None:
    store = _with_match(stores())
    token = new_token()
    assert len(token) >= 43
    seat = SeatChange(seat=0, taken=True, name="ann", token_hash=hash_token(token))
    stored = asyncio.run(store.match("m"))
    assert stored is not None
    asyncio.run(store.commit("m", 0, stored.live, worker="w", lease_until=0, seat=seat))
    assert asyncio.run(store.seat_of("m", token)) == 0
    assert asyncio.run(store.seat_of("m", new_token())) is None
    kept = store._db.execute("SELECT token_hash FROM seats WHERE seat = 0").fetchone()[0]
    assert bytes(kept) == hash_token(token)
    assert token.encode() not in bytes(kept)


def test_a_file_store_is_in_wal_mode_and_read_by_a_new_connection(
    tmp_path: Path, stores: Callable[..., SQLiteStore]
) -> None:
    path = tmp_path / "server.db"
    store = _with_match(stores(path))
    _move(store, 1, "roll")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = stores(path)  # the first not closed: what a crashed process leaves
    assert asyncio.run(again.record("m")).moves == ("roll",)
    assert [row.kind for row in asyncio.run(again.seats("m"))] == ["person", "bot"]


def test_a_file_of_the_first_servers_schema_is_migrated_and_keeps_its_matches(
    tmp_path: Path, stores: Callable[..., SQLiteStore]
) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0])
    old.execute(
        "INSERT INTO matches VALUES ('m', 'dice-poker', ?, ?, 'playing', NULL, 0, 0, 'a')",
        (HEAD.to_json(), '{"spectators": "public", "delay": 0, "clock": null, "timeout": "bot"}'),
    )
    old.execute("INSERT INTO seats VALUES ('m', 0, 'person', NULL, 'ann', NULL)")
    old.execute("INSERT INTO seats VALUES ('m', 1, 'bot', 'greedy', '', NULL)")
    old.execute("INSERT INTO moves VALUES ('m', 1, 0, 'roll', 1.0, NULL)")
    old.commit()
    old.close()
    store = stores(path)
    assert store.schema_version == len(MIGRATIONS)
    stored = asyncio.run(store.match("m"))
    assert stored is not None
    assert (stored.status, stored.revision, stored.rewinds) == ("playing", 0, 0)
    assert asyncio.run(store.record("m")).moves == ("roll",)
    _move(store, 2, "roll keep 1")
    assert stores(path).schema_version == len(MIGRATIONS)  # opened again: nothing to run
