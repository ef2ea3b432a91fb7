"""The WebSocket protocol: hello with a token or as a spectator, moves with the version
they answer, refusals with the rule's reason and a fresh table, reconnection by cursor,
and hostile messages refused with nothing changed while the server serves the others.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.websockets import WebSocketDisconnect

from tabletop_rules.server import SQLiteStore
from tabletop_rules.server.room import Client

from .helpers import FakeTime, Seat, create, join, party, seated, serving, sync


def _two_people(client: object, **body: object) -> tuple[str, str, str]:
    match_id = create(client, rules={"stages": "1"}, **body)  # type: ignore[arg-type]
    return match_id, join(client, match_id), join(client, match_id)  # type: ignore[arg-type]


def test_hello_with_a_token_gives_the_seats_table() -> None:
    with serving() as client:
        match_id, first, _second = _two_people(client)
        with seated(client, match_id, first) as seat:
            table = seat.table
    assert table["seat"] == 0
    assert table["version"] == 0
    assert "roll" in table["moves"]
    assert seat.match["status"] == "playing"


def test_a_move_is_played_and_every_client_gets_its_own_table() -> None:
    with serving() as client:
        match_id, first, second = _two_people(client)
        with party(client, match_id, [first, second, None]) as (one, two, watcher):
            answer = one.move("roll")
            two.read()
            watcher.read()
    assert answer["type"] == "table"
    assert [entry["move"] for entry in answer["table"]["log"]] == ["roll"]
    assert (one.table["seat"], two.table["seat"], watcher.table["seat"]) == (0, 1, None)
    assert two.table["version"] == watcher.table["version"] == 1
    assert two.table["moves"] == []
    assert watcher.table["log"][0]["events"][0].startswith("P0 threw")


def test_a_move_by_action_number_is_played() -> None:
    with serving() as client:
        match_id, first, _second = _two_people(client)
        with seated(client, match_id, first) as seat:
            action = seat.table["actions"][seat.table["moves"].index("roll")]
            seat.send({"type": "move", "action": action, "version": 0})
            answer = seat.read()
    assert answer["table"]["log"][0]["move"] == "roll"


def test_a_stale_move_is_refused_with_a_fresh_table_and_nothing_played() -> None:
    with serving() as client:
        match_id, first, _second = _two_people(client)
        with seated(client, match_id, first) as seat:
            seat.move("roll")
            seat.send({"type": "move", "move": "roll", "version": 0})  # replayed
            answer = seat.read()
    assert answer["type"] == "refused"
    assert "version 0" in answer["reason"]
    assert answer["table"]["version"] == 1


def test_an_illegal_move_is_refused_with_the_rules_reason() -> None:
    with serving() as client:
        match_id, first, _second = _two_people(client)
        with seated(client, match_id, first) as seat:
            answer = seat.move("write chance")
            nonsense = seat.move("jump")
    assert answer["type"] == "refused"
    assert "a box is written after a throw" in answer["reason"]
    assert nonsense["type"] == "refused"
    assert answer["table"]["version"] == nonsense["table"]["version"] == 0


def test_a_move_out_of_turn_is_refused() -> None:
    with serving() as client:
        match_id, _first, second = _two_people(client)
        with seated(client, match_id, second) as seat:
            answer = seat.move("roll")
    assert answer["type"] == "refused"
    assert "not your turn" in answer["reason"]
    assert answer["table"]["version"] == 0


def test_a_token_acts_for_its_own_seat_of_its_own_match_only() -> None:
    with serving() as client:
        match_id, _first, second = _two_people(client)
        other_id, other_first, _other_second = _two_people(client)
        with client.websocket_connect(f"/ws/{match_id}") as socket:
            stranger = Seat(socket)
            stranger.send({"type": "hello", "token": other_first, "cursor": 0})
            reason = stranger.closed_with_error()
        with client.websocket_connect(f"/ws/{match_id}") as socket:
            forged = Seat(socket)
            last = "A" if second[-1] != "A" else "B"
            forged.send({"type": "hello", "token": second[:-1] + last, "cursor": 0})
            forged_reason = forged.closed_with_error()
        with seated(client, match_id, second) as seat:
            refused = seat.move("roll")  # seat 1's token cannot play seat 0's turn
        with seated(client, other_id, other_first) as seat:
            played = seat.move("roll")
    assert reason == forged_reason == "the token holds no seat of this match"
    assert refused["type"] == "refused"
    assert played["table"]["version"] == 1


def test_a_spectator_cannot_move() -> None:
    with serving() as client:
        match_id, _first, _second = _two_people(client)
        with seated(client, match_id, None) as watcher:
            answer = watcher.move("roll")
    assert answer["type"] == "refused"
    assert "spectator" in answer["reason"]


def test_a_client_that_comes_back_gets_the_moves_it_missed_by_cursor() -> None:
    with serving() as client:
        match_id, first, second = _two_people(client)
        with seated(client, match_id, second) as seat:
            seen = seat.table["version"]
        with seated(client, match_id, first) as seat:
            seat.move("roll")
            seat.move("write chance")
        with seated(client, match_id, second, cursor=seen) as seat:
            table = seat.table
    assert table["log_from"] == 0
    assert [entry["move"] for entry in table["log"]] == ["roll", "write chance"]
    assert table["to_move"] == 1


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("{not json", "not JSON"),
        ('["hello"]', "a JSON object"),
        ('{"type": "shout"}', "unknown message type"),
        ('{"type": "move", "move": "roll"}', "needs version"),
        ('{"type": "move", "move": ["roll"], "version": 0}', "move must be text"),
        ('{"type": "move", "move": "roll", "version": true}', "version must be a whole number"),
        ('{"type": "move", "move": "roll", "action": 1, "version": 0}', "not both"),
        ('{"type": "resign", "please": 1}', "no field please"),
        ('{"type": "move", "move": "' + "x" * 5000 + '", "version": 0}', "over the limit"),
        ('{"type": "hello", "token": null}', "said only once"),
    ],
)
def test_a_malformed_message_closes_its_socket_and_changes_nothing(
    message: str, reason: str
) -> None:
    with serving() as client:
        match_id, first, second = _two_people(client)
        with seated(client, match_id, second) as other:
            with client.websocket_connect(f"/ws/{match_id}") as socket:
                hostile = Seat(socket)
                hostile.hello(first)
                other.read()  # its arrival
                socket.send_text(message)
                if "said only once" in reason:
                    refused = hostile.read()
                    assert reason in refused["reason"]
                    return
                assert reason in hostile.closed_with_error()
            other.read()  # its departure
            other.send({"type": "sync"})
            assert other.read()["table"]["version"] == 0  # nothing played; still served


def test_a_first_message_that_is_no_hello_closes_the_socket() -> None:
    with serving() as client:
        match_id, _first, _second = _two_people(client)
        with client.websocket_connect(f"/ws/{match_id}") as socket:
            socket.send_json({"type": "move", "move": "roll", "version": 0})
            assert Seat(socket).closed_with_error() == "the first message is a hello"


def test_a_binary_message_closes_the_socket() -> None:
    with serving() as client:
        match_id, first, _second = _two_people(client)
        with seated(client, match_id, first) as seat:
            seat.socket.send_bytes(b"{}")
            assert "not binary" in seat.closed_with_error()


def test_a_flood_of_messages_closes_the_socket_and_others_are_still_served() -> None:
    with serving(messages_per_second=1, burst=5, now=FakeTime()) as client:
        match_id, first, second = _two_people(client)
        with seated(client, match_id, second) as other:
            with client.websocket_connect(f"/ws/{match_id}") as socket:
                flood = Seat(socket)
                flood.hello(first)
                other.read()
                for _ in range(10):
                    socket.send_json({"type": "sync"})
                answers = _until_closed(socket)
            assert answers[-1]["type"] == "error"
            assert "too many messages" in answers[-1]["reason"]
            assert [answer["type"] for answer in answers] == ["table"] * 5 + ["error"]
            other.read()
            other.send({"type": "sync"})
            assert other.read()["type"] == "table"


def test_a_client_slow_to_take_its_table_holds_up_no_other() -> None:
    """Tables go to every client at once: a client whose socket is stuck is still being
    sent its table (not yet dropped) when the others have theirs.
    """
    release = threading.Event()
    sent: list[dict[str, Any]] = []

    async def stuck(message: dict[str, Any]) -> None:
        sent.append(message)
        while not release.is_set():
            await asyncio.sleep(0.01)

    with serving() as client:
        match_id, first, second = _two_people(client)
        with party(client, match_id, [first, second]) as (one, two):
            room = client.app.state.server.rooms[match_id]  # type: ignore[attr-defined]
            slow = Client(stuck, None, room.version)
            room.clients.insert(0, slow)  # served first
            try:
                one.move("roll")
                two.read()
                assert len(sent) == 1
                assert not slow.closed
            finally:
                release.set()


def _until_closed(socket: Any) -> list[dict[str, Any]]:
    """Every message the socket gets until the server closes it."""
    answers = []
    while True:
        try:
            answers.append(socket.receive_json())
        except WebSocketDisconnect:
            return answers


def test_a_match_that_does_not_exist_closes_the_socket() -> None:
    with serving() as client, client.websocket_connect("/ws/nothing") as socket:
        socket.send_json({"type": "hello", "token": None, "cursor": 0})
        assert Seat(socket).closed_with_error() == "no match 'nothing'"


def test_moves_wait_until_every_persons_seat_is_taken() -> None:
    with serving() as client:
        match_id = create(client)
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            answer = seat.move("roll")
    assert answer["type"] == "refused"
    assert "waits for people at seats 1" in answer["reason"]
    assert answer["table"]["moves"] == []


def test_resigning_ends_the_match_and_the_others_win() -> None:
    with serving() as client:
        match_id, first, second = _two_people(client)
        with party(client, match_id, [first, second]) as (one, two):
            one.send({"type": "resign"})
            one.read()
            two.read()
            after = one.move("roll")
    assert two.match["result"] == {"reason": "resigned", "seat": 0, "winners": [1]}
    assert two.match["status"] == "over"
    assert after["type"] == "refused"
    assert after["reason"] == "the match is over"
    assert one.table["moves"] == []  # the game's turn stood at seat 0, but the match is over


def test_a_socket_whose_seat_was_left_can_no_longer_act_for_it() -> None:
    with serving() as client:
        match_id = create(client, rules={"stages": "1"})
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            headers = {"Authorization": f"Bearer {token}"}
            client.post(f"/api/matches/{match_id}/leave", headers=headers)
            newcomer = join(client, match_id)
            join(client, match_id)
            seat.send({"type": "sync"})
            reason = seat.closed_with_error()
        with seated(client, match_id, newcomer) as seat:
            table = seat.table
    assert reason == "the token no longer holds a seat of this match"
    assert table["seat"] == 0


def test_a_socket_that_says_no_hello_in_time_is_closed() -> None:
    with serving(hello_seconds=0.05) as client:
        match_id, _first, _second = _two_people(client)
        with client.websocket_connect(f"/ws/{match_id}") as socket:
            assert Seat(socket).closed_with_error() == "no hello in time"


@pytest.mark.one_worker  # the limit is each worker's
def test_a_client_may_hold_only_so_many_sockets_open() -> None:
    with serving(sockets_per_client=2) as client:
        match_id, first, second = _two_people(client)
        with party(client, match_id, [first, second]) as (one, _two):
            with client.websocket_connect(f"/ws/{match_id}") as socket:
                reason = Seat(socket).closed_with_error()
            one.send({"type": "sync"})
            assert one.read()["type"] == "table"
        with seated(client, match_id, None) as watcher:  # the sockets closed are counted out
            assert watcher.table["seat"] is None
    assert reason == "a client may hold 2 sockets open; close one first"


@pytest.mark.one_worker  # it breaks the SQLite store's commit
def test_a_move_the_store_cannot_commit_is_neither_acknowledged_nor_played(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    stores: Callable[..., SQLiteStore],
) -> None:
    store = stores()
    with serving(store) as client:
        match_id, first, second = _two_people(client)
        with seated(client, match_id, second) as other:
            with seated(client, match_id, first) as seat:
                other.read()

                async def failing(*args: object, **kwargs: object) -> int:
                    raise sqlite3.OperationalError("disk I/O error")

                monkeypatch.setattr(store, "commit", failing)
                seat.send({"type": "move", "move": "roll", "version": 0})
                reason = seat.closed_with_error()
            monkeypatch.undo()
            departed = other.read()  # the failed socket's departure, and no move
        with seated(client, match_id, first) as seat:
            table = seat.table
    assert reason.startswith("the server hit a bug")
    assert departed["table"]["version"] == 0
    assert table["version"] == 0
    assert sync(store).record(match_id).moves == ()
    assert "disk I/O error" in caplog.text
