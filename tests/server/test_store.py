"""The server's SQLite store: moves appended once each, tokens kept only as hashes, and a
file in WAL mode that a second connection reads as the first wrote it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.records import GameRecord

pytest.importorskip("starlette")

from tabletop_rules.server.store import MatchSettings, Store, hash_token, new_token

HEAD = GameRecord("dice-poker", dp.Config(stages=1), 7)


@pytest.fixture
def store(stores: Callable[..., Store]) -> Store:
    """A store in memory holding match ``m``."""
    return _with_match(stores())


def _with_match(store: Store) -> Store:
    store.create_match("m", HEAD, MatchSettings(), ("person", "greedy"), creator="a", now=0.0)
    return store


def test_a_move_is_stored_once_its_number_follows_the_stored_moves(store: Store) -> None:
    store.add_move("m", 1, seat=0, move="roll", now=1.0)
    with pytest.raises(IllegalMoveError, match="answers an old table"):
        store.add_move("m", 1, seat=0, move="write chance", now=2.0)
    with pytest.raises(IllegalMoveError, match="answers an old table"):
        store.add_move("m", 3, seat=0, move="write chance", now=2.0)
    assert store.record("m").moves == ("roll",)


def test_a_seat_token_is_kept_as_its_hash_and_holds_its_seat_only(store: Store) -> None:
    token = new_token()
    assert len(token) >= 43
    assert store.take_seat("m", 0, "ann", token)
    assert not store.take_seat("m", 0, "bob", new_token())
    assert not store.take_seat("m", 1, "bob", new_token())  # a bot's seat
    assert store.seat_of("m", token) == 0
    assert store.seat_of("m", new_token()) is None
    stored = store._db.execute("SELECT token_hash FROM seats WHERE seat = 0").fetchone()[0]
    assert bytes(stored) == hash_token(token)
    assert token.encode() not in bytes(stored)


def test_a_take_back_deletes_the_moves_after_those_kept(store: Store) -> None:
    for number, text in enumerate(("roll", "roll keep 1", "write chance"), 1):
        store.add_move("m", number, seat=0, move=text, now=float(number))
    store.take_back("m", 1)
    assert store.record("m").moves == ("roll",)
    store.add_move("m", 2, seat=0, move="write chance", now=9.0)
    assert store.record("m").moves == ("roll", "write chance")


def test_a_file_store_is_in_wal_mode_and_read_by_a_new_connection(
    tmp_path: Path, stores: Callable[..., Store]
) -> None:
    path = tmp_path / "server.db"
    store = _with_match(stores(path))
    store.add_move("m", 1, seat=0, move="roll", now=1.0)
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = stores(path)  # the first not closed: what a crashed process leaves
    assert again.record("m").moves == ("roll",)
    assert [row.kind for row in again.seats("m")] == ["person", "bot"]
