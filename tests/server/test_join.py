"""``tabletop-rules join``: the terminal plays a seat of a real server's match (uvicorn on
a free port, in a thread of this process) over a real WebSocket, its input typed by a
person who plays the first legal move, as the server's store says the game stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import math
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")
pytest.importorskip("rich")


from tabletop_rules import Match, get_ruleset
from tabletop_rules.cli import main
from tabletop_rules.errors import ConfigError
from tabletop_rules.server import SQLiteStore
from tabletop_rules.server.client import (
    AsyncConnection,
    ClientError,
    Connection,
    ConnectionLostError,
    MatchLink,
    SavedSeat,
    SavedSeats,
    SeatState,
    config_dir,
    join_seat,
    match_info,
)
from tabletop_rules.table import seat_table

from .helpers import Serving, free_port, seeded, sync

LINK = MatchLink.parse("http://127.0.0.1:9/?match=m1")
"""A link to a server that is not there (nothing listens on port 9)."""

SHORT = {"stages": "1"}
"""Dice poker's rules for a short game: one stage of the sheet."""


@pytest.fixture(autouse=True)
def _own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test keeps its seats in a config folder of its own."""
    for name in ("XDG_CONFIG_HOME", "APPDATA", "HOME"):  # Linux, Windows, macOS
        monkeypatch.setenv(name, str(tmp_path / "config"))


@contextmanager
def running(store: SQLiteStore) -> Iterator[str]:
    """A real server on ``store`` on a free port while the block runs; its base URL."""
    serving = Serving(store, free_port())
    try:
        yield serving.base
    finally:
        serving.stop()


def create(base: str, game: str, seats: Sequence[str], rules: dict[str, str] | None = None) -> str:
    """A new match's id, made in the lobby as the web page makes one."""
    import httpx

    body = {"game": game, "seats": list(seats), "rules": rules or {}}
    answer = httpx.post(f"{base}/api/matches", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["match"]["id"])


class Person:
    """Input typed by a person: ``script`` first, then (up to ``moves`` of them) the first
    legal move of ``seat`` as the store says the game stands; then the end of the input.
    """

    def __init__(
        self,
        store: SQLiteStore,
        match_id: str,
        seat: int,
        script: Sequence[str] = (),
        moves: int = 10**6,
    ) -> None:
        self.store, self.match_id, self.seat = store, match_id, seat
        self.script = list(script)
        self.moves = moves
        self.typed: list[str] = []

    def match(self) -> Match[Any, Any, Any]:
        record = sync(self.store).record(self.match_id)
        return Match.from_record(get_ruleset(record.game), record)

    def readline(self) -> str:
        if self.script:
            line = self.script.pop(0)
        else:
            match = self.match()
            if self.moves <= 0 or match.is_over or match.current_player != self.seat:
                return ""
            self.moves -= 1
            line = match.rules.format_move(match.legal_moves[0])
        self.typed.append(line)
        return line + "\n"


def join(url: str, person: Any, *options: str) -> int:
    return main(["join", url, *options], stdin=person)


def test_a_server_run_by_the_tests_leaves_the_logging_handlers_of_the_process_open(
    tmp_path: Path,
) -> None:
    """uvicorn's own logging config closes every handler in the process; absl's (imported
    with OpenSpiel) holds the stderr pytest captured at its import, and closing it broke
    every later test of the worker.
    """
    handler = logging.FileHandler(tmp_path / "log.txt")
    store = SQLiteStore()
    try:
        with running(store) as base:
            create(base, "dice-poker", ["person", "greedy"], SHORT)
        assert handler.stream is not None, "the handler was closed"
        assert not handler.stream.closed
    finally:
        handler.close()
        sync(store).close()


def test_join_plays_a_whole_game_of_dice_poker_against_a_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        person = Person(store, match_id, 0)
        assert join(f"{base}/?match={match_id}", person, "--name", "Ann") == 0
        match = person.match()
    out = capsys.readouterr().out
    assert match.is_over
    assert sync(store).match(match_id).status == "over"
    assert f"Took seat P0 of match {match_id}." in out
    assert "Seats: P0 Ann (you), P1 greedy bot." in out
    assert "Your moves:" in out
    assert seat_table(match, 0).display in out
    assert "Game over: winner" in out
    movers = [match.rules.current_player(state) for state in match.history[:-1]]
    assert len(person.typed) > 10
    assert movers.count(0) == len(person.typed)  # every line typed was played, once


def test_join_reconnects_when_the_server_restarts_and_plays_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store, port = SQLiteStore(), free_port()
    servers = [Serving(store, port)]
    match_id = create(servers[0].base, "dice-poker", ["person", "greedy"], SHORT)

    class Restarting(Person):
        def readline(self) -> str:
            if len(self.typed) == 3 and len(servers) == 1:  # mid-game, the server restarts
                servers[0].stop()
                time.sleep(0.5)  # a moment down: the terminal's first tries fail
                servers.append(Serving(store, port))
            return super().readline()

    person = Restarting(store, match_id, 0)
    try:
        assert join(f"{servers[0].base}/?match={match_id}", person) == 0
    finally:
        servers[-1].stop()
    out = capsys.readouterr().out
    match = person.match()
    assert len(servers) == 2
    assert match.is_over
    assert "was lost" in out
    assert "reconnecting…" in out
    assert "Back at the table." in out
    assert "Game over: winner" in out
    movers = [match.rules.current_player(state) for state in match.history[:-1]]
    assert movers.count(0) == len(person.typed)  # every line typed was played, once


def test_a_refused_move_shows_the_servers_reason_and_the_game_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        person = Person(store, match_id, 0, script=["scratch nothing"], moves=3)
        assert join(f"{base}/api/matches/{match_id}", person) == 0
        played = person.match().moves
    out = capsys.readouterr().out
    assert "Not played: " in out
    assert "nothing" in out.split("Not played: ", 1)[1].splitlines()[0]  # the rule's reason
    assert len(played) >= 3  # the three moves after the refusal were played
    assert "Left the table; your seat stays yours" in out


def test_join_tells_a_timed_seat_its_time_left(capsys: pytest.CaptureFixture[str]) -> None:
    import httpx

    store = SQLiteStore()
    with running(store) as base:
        clock = {"move_seconds": 30, "bank_seconds": 60}
        body = {"game": "dice-poker", "seats": ["person", "greedy"], "clock": clock}
        match_id = httpx.post(f"{base}/api/matches", json=body).json()["match"]["id"]
        assert join(f"{base}/?match={match_id}", Person(store, match_id, 0, moves=0)) == 0
    left = re.search(
        r"You have (\d+) s for this move, your bank included\.", capsys.readouterr().out
    )
    assert left is not None
    assert 80 <= int(left.group(1)) <= 90


def test_rerunning_join_comes_back_to_the_same_seat(capsys: pytest.CaptureFixture[str]) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(
            base, "dice-poker", ["greedy", "person", "person"], {**SHORT, "players": "3"}
        )
        other = join_seat(MatchLink.parse(f"{base}/?match={match_id}"), seat=2)
        url = f"{base}/?match={match_id}"
        assert join(url, Person(store, match_id, 1, moves=2)) == 0
        first = capsys.readouterr().out
        kept = SavedSeats().get(MatchLink.parse(url))
        assert kept is not None
        assert kept.seat == 1
        assert join(url, Person(store, match_id, 1, moves=1)) == 0
        second = capsys.readouterr().out
    assert "Took seat P1" in first
    assert "Back at seat P1" in second
    assert "Took seat" not in second
    rows = sync(store).seats(match_id)
    assert [row.taken for row in rows] == [False, True, True]  # no seat taken twice
    assert other.seat == 2
    again = SavedSeats().get(MatchLink.parse(url))
    assert again is not None
    assert again.token == kept.token
    assert again.cursor >= kept.cursor
    if os.name == "posix":
        assert (config_dir() / "seats.json").stat().st_mode & 0o077 == 0  # the user's alone


def test_undo_against_bots_takes_back_without_asking(capsys: pytest.CaptureFixture[str]) -> None:
    store = SQLiteStore()
    # A known deal (the lobby never takes a seed): places that turn no card, so fair to undo.
    match_id = seeded(store, "account", 5, seats=("person", "bestcard"))
    with running(store) as base:
        person = Person(store, match_id, 0, script=["place 4", "undo"], moves=0)
        assert join(f"{base}/?match={match_id}", person) == 0
        left = person.match().moves
    out = capsys.readouterr().out
    assert "Took back 2 moves." in out  # the person's place and the bot's, nobody asked
    assert left == ()
    assert "undo" in out.split("Type a move in notation, or: ", 1)[1].splitlines()[0]


def test_undo_across_a_throw_is_refused_with_the_fair_rules_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        person = Person(store, match_id, 0, script=["roll", "undo"], moves=0)
        assert join(f"{base}/?match={match_id}", person) == 0
        left = person.match().moves
    out = capsys.readouterr().out
    refusal = out.split("Not taken back: ", 1)[1].splitlines()[0]
    assert "a fair take-back never crosses a move that showed what was hidden" in refusal
    assert len(left) == 1  # the throw stands


def test_undo_is_offered_only_where_no_one_need_consent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "account", ["person", "person"])
        link = MatchLink.parse(f"{base}/?match={match_id}")
        join_seat(link, seat=1)
        person = Person(store, match_id, 0, script=["undo"], moves=0)
        assert join(f"{base}/?match={match_id}", person, "--seat", "0") == 0
    out = capsys.readouterr().out
    offered = out.split("Type a move in notation, or: ", 1)[1].splitlines()[0]
    assert "takeback" in offered
    assert "undo" not in offered
    assert "undo takes back without asking only against bots" in out


def test_watch_shows_a_spectators_table(capsys: pytest.CaptureFixture[str]) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        person = Person(store, match_id, 0, moves=2)
        assert join(f"{base}/?match={match_id}", person) == 0
        capsys.readouterr()
        spectator = Person(store, match_id, -1, moves=0)
        assert (
            join(f"ws://127.0.0.1:{base.rsplit(':', 1)[1]}/ws/{match_id}", spectator, "--watch")
            == 0
        )
        match = person.match()
    out = capsys.readouterr().out
    assert f"Dice poker, match {match_id}: watching." in out
    assert seat_table(match, None).display in out
    assert "Stopped watching." in out
    assert SavedSeats().get(MatchLink.parse(f"{base}/?match={match_id}")) is not None  # P0's


def test_a_kept_token_that_holds_no_seat_is_forgotten(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        url = f"{base}/?match={match_id}"
        link = MatchLink.parse(url)
        SavedSeats().put(link, SavedSeat(seat=0, token="x" * 43))  # a seat since left, say
        assert join(url, "", "--token", "y" * 43) == 2  # a token given is not the kept one
        given = capsys.readouterr().err
        assert SavedSeats().get(link) is not None
        assert join(url, "") == 2
        kept = capsys.readouterr().err
        assert SavedSeats().get(link) is None
        assert join(url, Person(store, match_id, 0, moves=0)) == 0
    assert "the token holds no seat of this match" in given
    assert "forgotten" not in given
    assert "the seat kept for it is forgotten: join again to take a free seat" in kept
    assert "Took seat P0" in capsys.readouterr().out


def test_a_match_with_no_free_seat_is_refused_with_the_advice_to_watch(
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        join_seat(MatchLink.parse(f"{base}/?match={match_id}"))
        assert join(f"{base}/?match={match_id}", "") == 2
    error = capsys.readouterr().err
    assert "the match has no free seat: it has started; watch the match with --watch" in error


def test_join_without_the_server_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "websockets", None)  # import websockets now fails
    assert main(["join", "http://127.0.0.1:1/?match=abc"]) == 2
    assert "pip install 'tabletop-rules[server]'" in capsys.readouterr().err


def test_a_link_that_names_no_match_is_refused() -> None:
    with pytest.raises(ClientError, match="names no match"):
        MatchLink.parse("http://127.0.0.1:8000/lobby")
    with pytest.raises(ClientError, match="a match link looks like"):
        MatchLink.parse("127.0.0.1:8000/?match=abc")
    assert MatchLink.parse("http://h:1/site/#match=a-b_c").match == "a-b_c"


def test_join_takes_the_seat_or_watches_as_the_pages_share_link_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    link = MatchLink.parse("http://h:1/?match=abc&seat=1")
    assert (link.match, link.seat, link.watch) == ("abc", 1, False)
    assert MatchLink.parse("http://h:1/?match=abc&watch").watch
    with pytest.raises(ClientError, match="seat is a number"):
        MatchLink.parse("http://h:1/?match=abc&seat=-1")
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "person"], SHORT)
        nobody = Person(store, match_id, 1, moves=0)
        assert join(f"{base}/?match={match_id}&seat=1", nobody) == 0
        assert join(f"{base}/?match={match_id}&watch", nobody) == 0
    out = capsys.readouterr().out
    assert f"Took seat P1 of match {match_id}." in out
    assert f"Dice poker, match {match_id}: watching." in out
    assert [row.taken for row in sync(store).seats(match_id)] == [False, True]


def test_the_client_keeps_its_cursor_and_sends_moves_with_the_version() -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        seating = join_seat(MatchLink.parse(f"{base}/?match={match_id}"))
        connection, first = Connection.open(seating.link, seating.token)
        with connection:
            assert first.table.seat == 0
            assert connection.state.to_move
            connection.send(connection.state.move("roll"))
            update = connection.receive(10)
            assert update is not None
            assert update.kind == "table"
            assert [entry.move for entry in update.new] == ["roll"]
            assert connection.state.cursor == update.table.version == 1
            connection.send({**connection.state.move("roll"), "version": 0})  # stale
            refused = connection.receive(10)
    assert refused is not None
    assert refused.kind == "refused"
    assert "version 0" in (refused.reason or "")


def _played_twice(connection: Connection) -> int:
    """Play the first legal move twice from ``connection``; the version after."""
    for _ in range(2):
        table = connection.state.table
        assert table is not None
        connection.send(connection.state.move(table.moves[0]))
        assert connection.receive(10) is not None
    return connection.state.cursor


def test_the_client_reconnects_after_a_restart_by_its_cursor() -> None:
    store, port = SQLiteStore(), free_port()
    first_server = Serving(store, port)
    match_id = create(first_server.base, "dice-poker", ["person", "greedy"], SHORT)
    link = MatchLink.parse(f"{first_server.base}/?match={match_id}")
    connection, _first = Connection.open(link, join_seat(link).token)
    cursor = _played_twice(connection)
    first_server.stop()
    with pytest.raises(ConnectionLostError, match="was lost"):
        connection.receive(10)
    with pytest.raises(ConnectionLostError, match="cannot reach"):
        connection.reconnect()
    second_server = Serving(store, port)
    try:
        with connection:
            update = connection.reconnect()
            assert (update.table.log_from, update.new, update.taken_back) == (cursor, (), 0)
            assert len(connection.state.log) == cursor  # the log read before is kept
            move = update.table.moves[0]
            connection.send(connection.state.move(move))
            played = connection.receive(10)
    finally:
        second_server.stop()
    assert played is not None
    assert [entry.move for entry in played.new] == [move]
    assert len(sync(store).record(match_id).moves) >= cursor + 1


def test_the_async_client_reconnects_after_a_restart_by_its_cursor() -> None:
    store, port = SQLiteStore(), free_port()
    first_server = Serving(store, port)
    match_id = create(first_server.base, "dice-poker", ["person", "greedy"], SHORT)
    link = MatchLink.parse(f"{first_server.base}/?match={match_id}")
    token = join_seat(link).token

    async def restarted() -> tuple[Any, Any]:
        connection, first = await AsyncConnection.open(link, token)
        await asyncio.to_thread(first_server.stop)
        with pytest.raises(ConnectionLostError, match="was lost"):
            await _read_all(connection)
        second_server = await asyncio.to_thread(Serving, store, port)
        try:
            return first, await connection.reconnect()
        finally:
            await connection.close()
            await asyncio.to_thread(second_server.stop)

    first, update = asyncio.run(restarted())
    assert update.table.log_from == first.table.version == 0
    assert update.new == ()


async def _read_all(connection: AsyncConnection) -> None:
    while True:
        await connection.receive()


def test_a_hello_refused_for_good_is_no_lost_connection() -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        link = MatchLink.parse(f"{base}/?match={match_id}")
        with pytest.raises(ClientError, match="holds no seat") as refused:
            Connection.open(link, "a-forged-token")
    assert not isinstance(refused.value, ConnectionLostError)


class Typist:
    """Input typed by a person who reads the screen: each line once ``output`` shows its
    cue (after the previous cue).
    """

    def __init__(self, output: io.StringIO, cues: Sequence[tuple[str, str]]) -> None:
        self.output, self.cues, self.seen = output, list(cues), 0

    def readline(self) -> str:
        if not self.cues:
            return ""
        cue, line = self.cues.pop(0)
        deadline = time.monotonic() + 10
        while (found := self.output.getvalue().find(cue, self.seen)) < 0:
            if time.monotonic() > deadline:
                return ""
            time.sleep(0.01)
        self.seen = found + len(cue)
        return line + "\n"


def test_a_take_back_another_person_proposes_is_accepted_at_the_prompt() -> None:
    store = SQLiteStore()
    match_id = seeded(store, "account", 5)
    with running(store) as base:
        link = MatchLink.parse(f"{base}/?match={match_id}")
        other = join_seat(link, seat=0)

        def proposer() -> None:
            connection, _first = Connection.open(link, other.token)
            with connection:
                while not connection.state.to_move:  # until P1 comes and the match starts
                    connection.receive(10)
                connection.send(connection.state.move("place 4"))
                while connection.state.cursor != 2:
                    connection.receive(10)
                connection.send({"type": "takeback", "answer": "propose"})
                while connection.state.cursor != 0:
                    connection.receive(10)

        thread = threading.Thread(target=proposer)
        thread.start()
        output = io.StringIO()
        cues = [
            ("Your moves:", "place 2"),
            ("Type accept or decline.", "accept"),
            ("Took back 2 moves.", "quit"),
        ]
        with contextlib.redirect_stdout(output):
            status = join(link.api_url, Typist(output, cues), "--seat", "1")
        thread.join(10)
    shown = output.getvalue()
    assert status == 0
    assert "P0 proposes to take back their last turn; waiting for P1." in shown
    assert "Took back 2 moves." in shown
    assert sync(store).record(match_id).moves == ()


def test_the_async_client_plays_and_reads_its_tables() -> None:
    store = SQLiteStore()
    with running(store) as base:
        match_id = create(base, "dice-poker", ["person", "greedy"], SHORT)
        seating = join_seat(MatchLink.parse(f"{base}/?match={match_id}"))

        async def play() -> list[str]:
            connection, first = await AsyncConnection.open(seating.link, seating.token)
            try:
                await connection.send(connection.state.move(first.table.moves[0]))
                update = await connection.receive()
            finally:
                await connection.close()
            return [entry.move for entry in update.new]

        played = asyncio.run(play())
    assert played == [
        sync(store).record(match_id).moves[0]
    ]  # the move sent, as the server logged it


def test_the_clients_arguments_are_checked_before_any_socket_opens() -> None:
    link = LINK
    with pytest.raises(ConfigError, match="a cursor counts moves from 0, got -1"):
        SeatState("token", -1)
    with pytest.raises(TypeError, match="a cursor is a whole number"):
        SeatState("token", 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a token is text or None"):
        SeatState(42)  # type: ignore[arg-type]
    for timeout, error in ((0, ConfigError), (-1.0, ConfigError), (math.inf, ConfigError)):
        with pytest.raises(error, match="timeout must be a finite number of seconds above 0"):
            Connection.open(link, None, timeout=timeout)
    with pytest.raises(TypeError, match="timeout is a number of seconds"):
        Connection.open(link, None, timeout="5")  # type: ignore[arg-type]
    held = Connection(link, None, SeatState(None))
    with pytest.raises(ConfigError, match="timeout must be"):
        held.reconnect(timeout=0)
    with pytest.raises(ConfigError, match="timeout must be"):
        asyncio.run(AsyncConnection(link, None, SeatState(None)).reconnect(timeout=-1))


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda: join_seat("http://x/?match=a"), "a link is a MatchLink"),  # type: ignore[arg-type]
        (lambda: match_info("http://x/?match=a"), "a link is a MatchLink"),  # type: ignore[arg-type]
        (lambda: Connection.open("http://x/?match=a", None), "a link is a MatchLink"),  # type: ignore[arg-type]
        (lambda: join_seat(LINK, seat="1"), "a seat is a whole number or None"),  # type: ignore[arg-type]
        (lambda: join_seat(LINK, name=5), "a name is text"),  # type: ignore[arg-type]
        (lambda: MatchLink(base=5, match="m1"), "a server's base URL is text"),  # type: ignore[arg-type]
        (lambda: MatchLink(base="http://h:1", match=None), "a match id is text"),  # type: ignore[arg-type]
        (lambda: MatchLink(base="http://h:1", match="m1", seat=True), "a seat is a whole"),
        (lambda: SavedSeats(5).get(LINK), "a path is a str or a path"),  # type: ignore[arg-type]
        (lambda: SavedSeats().get("m1"), "a link is a MatchLink"),  # type: ignore[arg-type]
        (lambda: SavedSeats().put(LINK, 5), "what is kept is a SavedSeat"),  # type: ignore[arg-type]
    ],
)
def test_a_client_call_with_an_argument_of_the_wrong_type_is_a_type_error(
    call: Callable[[], object], says: str
) -> None:
    with pytest.raises(TypeError, match=says):
        call()


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"base": "ftp://h:1", "match": "m1"}, "a base URL is http"),
        ({"base": "http://h:1/", "match": "m1"}, "a base URL is http"),
        ({"base": "http://h:1", "match": "m 1"}, "a match id is letters, digits"),
        ({"base": "http://h:1", "match": "m1", "seat": -1}, "a seat is a number from 0"),
    ],
)
def test_a_match_link_made_by_hand_is_checked_as_parse_checks_it(
    values: dict[str, Any], says: str
) -> None:
    with pytest.raises(ClientError, match=says):
        MatchLink(**values)
    assert MatchLink(base="http://h:1/games", match="m1", seat=2).api_url == (
        "http://h:1/games/api/matches/m1"
    )
