"""Nothing the server sends a seat or a spectator holds what its view does not: over random
games of every game, every frame sent to every client (tables, refusals, the match beside
them, take-back proposals, clocks) and the lobby's answers are checked against that
client's views; and a token acts for its own seat of its own match only.
"""

from __future__ import annotations

import json
import random
import re
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tabletop_rules import Match, get_ruleset
from tabletop_rules.errors import TabletopError
from tabletop_rules.game import CHANCE
from tabletop_rules.rng import Rng
from tabletop_rules.serialize import to_data
from tabletop_rules.table import seat_table, state_table
from tabletop_rules.testing.checks import json_texts

from ..web.helpers import cards_in

pytest.importorskip("starlette")

with warnings.catch_warnings():  # the test client's own notice that httpx will change
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from tabletop_rules.server import ServerSettings, create_app

from .helpers import FakeTime, Json, Seat

GAMES = ("palace", "dice-poker", "account")
RULES: dict[str, dict[str, str]] = {
    "palace": {"max_turns": "60"},
    "dice-poker": {"stages": "1", "throws_per_turn": "2"},
    "account": {"max_rounds": "8"},
}
"""House rules that keep a random game short enough for the quick tier."""

STEPS = 400
"""At most this many messages a game; the game is resigned if it is not over by then."""

WORD = re.compile(r"[^\s\"'()\[\]{},.:;!?]+")
"""A word of a frame's text, as cards and dice travel (``7H``, ``+25``)."""


@attrs.frozen
class Sent:
    """One frame the server sent: to the client that said hello with ``token`` (``None``:
    a spectator), the match as it stood then (its states, moves, events and status).
    """

    token: str | None
    text: str
    history: tuple[Any, ...]
    moves: tuple[Any, ...]
    events: tuple[tuple[Any, ...], ...]


class Tap:
    """The app behind a tap that keeps every WebSocket frame the server sends, with the
    match of its room as it stands at the moment of sending (the room's lock is held).
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sent: list[Sent] = []
        self.heard: list[tuple[int, str | None, str]] = []
        """Each message a client sent: how many frames had been sent then, its token, its text."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        said: dict[str, str | None] = {}
        rooms = self.app.state.server.rooms
        match_id = scope["path"].rsplit("/", 1)[-1]

        async def heard() -> Any:
            message = await receive()
            if message["type"] == "websocket.receive" and message.get("text"):
                if not said:
                    said["token"] = json.loads(message["text"]).get("token")
                self.heard.append((len(self.sent), said["token"], message["text"]))
            return message

        async def told(message: Any) -> None:
            room = rooms.get(match_id)
            if message["type"] == "websocket.send" and room is not None:
                match = room.match
                self.sent.append(
                    Sent(
                        token=said.get("token"),
                        text=message["text"],
                        history=match.history,
                        moves=match.moves,
                        events=match.move_events,
                    )
                )
            await send(message)

        await self.app(scope, heard, told)


@contextmanager
def tapped(**settings: Any) -> Iterator[tuple[TestClient, Tap]]:
    """A test client of a new app behind a :class:`Tap`."""
    app = create_app(
        None, ServerSettings(**{"messages_per_second": 1e6, "burst": 10**6, **settings})
    )
    tap = Tap(app)
    with TestClient(tap) as client:
        yield client, tap


def _numbers(value: Any) -> set[int]:
    """Every large whole number of ``value``'s JSON data: seeds and generator states."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return set().union(*map(_numbers, value))
    return {value} if type(value) is int and abs(value) >= 10**9 else set()


def _words(text: str) -> set[str]:
    return set(WORD.findall(text)) | cards_in(text)


class Judge:
    """What each client may know, gathered frame by frame, and the checks of a frame;
    ``sent`` are all the frames of the game, whose states make what may be secret.
    """

    def __init__(self, game: str, tokens: dict[str | None, int | None], sent: list[Sent]) -> None:
        self.rules = get_ruleset(game)
        self.seats = tokens
        self.known: dict[int | None, tuple[set[str], set[int], set[int]]] = {
            seat: (set(), set(), set()) for seat in tokens.values()
        }
        self.matches: dict[int | None, Match[Any, Any, Any]] = {}
        self.config = self.rules.config_of(sent[0].history[0])
        states = {id(state): state for frame in sent for state in frame.history}
        self.texts: set[str] = set()  # what some state held and a spectator did not see
        self.numbers: set[int] = set()
        for state in states.values():
            data, public = to_data(state), to_data(self.rules.view(state, None))
            self.texts |= json_texts(data) - json_texts(public)
            self.numbers |= _numbers(data) - _numbers(public)

    def _learn(self, seat: int | None, states: tuple[Any, ...]) -> tuple[set[str], set[int]]:
        """What ``seat``'s views of ``states`` and of those it was sent before show."""
        texts, numbers, seen = self.known[seat]
        for state in states:
            if id(state) not in seen:
                seen.add(id(state))
                data = to_data(self.rules.view(state, seat))
                texts |= json_texts(data)
                numbers |= _numbers(data)
        return texts, numbers

    def _match(self, seat: int | None, sent: Sent, version: int) -> Match[Any, Any, Any]:
        """A match of ``sent``'s first ``version`` moves, kept per seat and played on."""
        match, moves = self.matches.get(seat), sent.moves[:version]
        if match is None or match.moves != moves[: len(match.moves)]:
            record = Match(self.rules, self.rules.config_of(sent.history[0])).record
            head = attrs.evolve(record, seed=self.rules.seed_of(sent.history[0]), moves=())
            match = self.matches[seat] = Match.from_record(self.rules, head)
            assert match.history[0] == sent.history[0]
        for move in moves[len(match.moves) :]:
            match.play(move)
        return match

    def hear(self, token: str | None, text: str) -> None:
        """The client of ``token`` sent ``text``: what a move of it names, the client knows
        (a refusal may say it back).
        """
        message, rules = json.loads(text), self.rules
        if message.get("type") != "move":
            return
        named = message.get("move")
        if named is None:
            config = self.config
            if message["action"] >= rules.num_actions(config):
                return
            named = rules.action_text(config, message["action"])
        self.known[self.seats[token]][0].update(_words(named))

    def check(self, sent: Sent, secrets: tuple[str, ...]) -> None:
        """``sent`` holds nothing its client's views up to its table's version do not."""
        rules, frame = self.rules, json.loads(sent.text)
        seat = self.seats[sent.token]
        for secret in secrets:
            assert secret not in sent.text, f"a frame to seat {seat} holds a token or seed"
        table = frame.get("table")
        version = len(sent.moves) if table is None else table["version"]
        known, shown = self._learn(seat, sent.history[: version + 1])
        leaked = (_words(sent.text) & self.texts) - known
        assert not leaked, f"a {frame['type']} frame to seat {seat} names {sorted(leaked)}"
        for number in self.numbers - shown:
            assert str(number) not in sent.text, f"a frame to seat {seat} holds {number}"
        if table is None:
            return
        assert table["seat"] == seat
        state = sent.history[version]
        last = sent.events[version - 1] if version else ()
        redealt = rules.determinize(rules.view(state, seat), Rng.from_seed(version))
        again = state_table(rules, redealt, seat, events=last, version=version).to_json()
        if frame["match"]["status"] != "playing":
            again.update(moves=[], actions=[], move_notes={}, hints=[])
        for name in ("log", "log_from"):
            del again[name]
        assert {k: v for k, v in table.items() if k not in again} == {
            "log": table["log"],
            "log_from": table["log_from"],
        }
        assert {k: table[k] for k in again} == again, (
            f"seat {seat}'s table at version {version} differs from one of a state re-dealt "
            "from its view"
        )
        match = self._match(seat, sent, version)
        logged = seat_table(match, seat, since=table["log_from"]).to_json()["log"]
        assert table["log"] == logged


def _refusal(
    rules: Any, match: Match[Any, Any, Any], seat: int | None, message: Json, version: int
) -> str | None:
    """The reason the server should give ``seat`` for ``message`` (``None``: none), from
    what the seat may know alone.
    """
    if message["type"] != "move":
        return None
    if seat is None:
        return "a spectator watches: it cannot move, resign or claim"
    if message["version"] != version:
        return (
            f"the move answers the table of version {message['version']}, but the game is "
            f"at version {version}: nothing was played"
        )
    player = match.current_player
    if player != seat:
        whose = {None: "nobody is", CHANCE: "chance is"}.get(player, f"P{player} is")
        return f"it is not your turn: {whose} to move"
    seen = match.view(seat)
    try:
        if "move" in message:
            rules.parse_move(seen, message["move"])
        else:  # the number read in a state re-dealt from the view, not in the true one
            rules.decode(rules.determinize(seen, Rng.from_seed(version)), message["action"])
    except TabletopError as error:
        return str(error)
    return None


def _play(
    client: TestClient,
    tap: Tap,
    game: str,
    rng: random.Random,
    people: int,
    spectators: str,
) -> None:
    """A random game of ``people`` seats, perhaps a bot's, and a spectator, with refused
    messages, take-backs and perhaps a resignation between the moves; every frame is then
    judged.
    """
    seats = ["person"] * people
    if rng.random() < 0.5:
        seats.insert(rng.randrange(people + 1), "random")
    rules_asked = {**RULES.get(game, {}), "players": str(len(seats))}
    if game == "dice-poker" and rng.random() < 0.5:
        rules_asked["auto_chance"] = "false"
    body = {"game": game, "rules": rules_asked, "seats": seats, "spectators": spectators}
    body["clock"] = {"move_seconds": 30, "bank_seconds": 300}
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 201, answer.json()
    match_id = answer.json()["match"]["id"]
    room = tap.app.state.server.rooms[match_id]
    rules = get_ruleset(game)
    tokens: dict[str | None, int | None] = {None: None}
    seen: dict[int | None, set[str]] = {}
    people_at = [seat for seat, kind in enumerate(seats) if kind == "person"]
    with ExitStack() as stack:
        clients: list[tuple[int | None, Seat]] = []

        tokens_of: dict[int | None, str | None] = {None: None}

        def drain() -> None:
            """Wait for the server to be done (its lock free, its bots and chance played),
            then read every frame sent.
            """
            deadline = time.monotonic() + 10
            while (
                room.lock.locked()
                or room._bots is not None
                or (room.status == "playing" and room.match.current_player not in people_at)
            ):
                assert time.monotonic() < deadline, "the server's own move never came"
                time.sleep(0.002)
            for seat, other in clients:
                token = tokens_of[seat]
                sent = sum(1 for frame in tap.sent if frame.token == token)
                while len(other.frames) < sent:
                    assert "table" in other.read()

        def arrive(token: str | None, seat: int | None) -> None:
            socket = stack.enter_context(client.websocket_connect(f"/ws/{match_id}"))
            clients.append((seat, Seat(socket)))
            clients[-1][1].send({"type": "hello", "token": token, "cursor": 0})
            clients[-1][1].read()  # its first table, sent once the hello was heard
            tokens_of[seat] = token
            seen[seat] = set()
            drain()

        for seat in people_at:
            joined = client.post(f"/api/matches/{match_id}/join", json={"seat": seat})
            tokens[joined.json()["token"]] = seat
            drain()
            arrive(joined.json()["token"], seat)
        arrive(None, None)
        by_seat = dict(clients)
        for _step in range(STEPS):
            if room.status != "playing":
                break
            if rng.random() < 0.001:  # a person leaves the lobby: it resigns
                token = tokens_of[rng.choice(people_at)]
                headers = {"Authorization": f"Bearer {token}"}
                assert client.post(f"/api/matches/{match_id}/leave", headers=headers).is_success
                drain()
                continue
            sender, message = _message(rng, room, by_seat, seen)
            expected = _refusal(rules, room.match, sender, message, room.version)
            mover = by_seat[sender]
            mover.send(message)
            answer = mover.read()  # nothing else was under way: the first frame answers
            drain()
            if answer["type"] == "refused":
                assert expected is None or answer["reason"] == expected, answer["reason"]
                continue
            assert expected is None, f"{message} was not refused: {expected}; {answer}"
            for who, other in clients:
                if who is not None:
                    seen[who] |= set(other.table["moves"])
            if rng.random() < 0.1:
                lobby = client.get(f"/api/matches/{match_id}")
                _check_lobby(lobby.text, room, tokens)
        else:
            by_seat[0].send({"type": "resign"})
            drain()
        assert len(tap.sent) == sum(len(other.frames) for _seat, other in clients)
    judge = Judge(game, tokens, tap.sent)
    secrets = (*filter(None, tokens), str(room.match.seed))
    heard = iter(tap.heard)
    said = next(heard, None)
    for number, sent in enumerate(tap.sent):  # those sent as the sockets closed too
        while said is not None and said[0] <= number:
            judge.hear(said[1], said[2])
            said = next(heard, None)
        judge.check(sent, secrets)


def _message(
    rng: random.Random, room: Any, clients: dict[int | None, Seat], seen: dict[int | None, set[str]]
) -> tuple[int | None, Json]:
    """A message from a random client: mostly the move of the seat on turn, else one the
    server refuses or a take-back, a claim or a sync.
    """
    player = room.match.current_player
    roll = rng.random()
    if player in clients and roll < 0.75:
        table = clients[player].table
        if rng.random() < 0.05:  # any number, legal or not, in the action space or past it
            most = room.rules.num_actions(room.rules.config_of(room.match.state)) + 2
            return player, {"type": "move", "action": rng.randrange(most), "version": room.version}
        if rng.random() < 0.5:
            return player, {
                "type": "move",
                "move": rng.choice(table["moves"]),
                "version": room.version,
            }
        return player, {
            "type": "move",
            "action": rng.choice(table["actions"]),
            "version": room.version,
        }
    sender = rng.choice(list(clients))
    table = clients[sender].table
    if roll < 0.82:
        old = sorted(seen[sender]) or ["pass"]
        return sender, {"type": "move", "move": rng.choice(old), "version": table["version"]}
    if roll < 0.86:
        moves = table["moves"] or ["pass"]
        version = rng.choice([v for v in (table["version"] - 1, table["version"] + 1) if v >= 0])
        return sender, {"type": "move", "move": rng.choice(moves), "version": version}
    if roll < 0.94 and sender is not None:
        if room.proposal is not None and rng.random() < 0.8:
            return sender, {"type": "takeback", "answer": rng.choice(["accept", "decline"])}
        return sender, {"type": "takeback", "answer": "propose"}
    if roll < 0.96:
        return sender, {"type": "claim"}
    if roll < 0.993 or sender is None:
        return sender, {"type": "sync"}
    return sender, {"type": "resign"}


def _check_lobby(text: str, room: Any, tokens: dict[str | None, int | None]) -> None:
    """The lobby's answer about a match in play names no card nor seed a spectator's
    views do not show, and no token.
    """
    rules = room.rules
    shown: set[str] = set()
    every: set[str] = set()
    for state in room.match.history:
        shown |= json_texts(to_data(rules.view(state, None)))
        every |= json_texts(to_data(state))
    leaked = (_words(text) & every) - shown
    assert not leaked, f"the lobby names {sorted(leaked)}"
    assert str(room.match.seed) not in text
    for token in filter(None, tokens):
        assert token not in text


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a whole game shrinks too slowly
)
@given(
    seed=st.integers(0, 2**32),
    people=st.integers(2, 3),
    spectators=st.sampled_from(["public", "delayed"]),
)
def test_no_frame_to_a_client_holds_what_its_view_does_not(
    game: str, seed: int, people: int, spectators: str
) -> None:
    with tapped(now=FakeTime()) as (client, tap):
        _play(client, tap, game, random.Random(seed), people, spectators)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_token_acts_for_its_own_seat_of_its_own_match_only(data: st.DataObject) -> None:
    games = data.draw(st.lists(st.sampled_from(GAMES), min_size=2, max_size=2), label="games")
    with tapped(now=FakeTime()) as (client, tap):
        rooms, tokens = [], []
        for game in games:
            people = data.draw(st.integers(2, 3), label="people")
            rules = {**RULES.get(game, {}), "players": str(people)}
            answer = client.post("/api/matches", json={"game": game, "rules": rules})
            match_id = answer.json()["match"]["id"]
            rooms.append(tap.app.state.server.rooms[match_id])
            tokens.append(
                [
                    client.post(f"/api/matches/{match_id}/join", json={}).json()["token"]
                    for _seat in range(people)
                ]
            )
        for _step in range(6):
            owner = data.draw(st.integers(0, 1), label="the token's match")
            seat = data.draw(st.integers(0, len(tokens[owner]) - 1), label="the token's seat")
            target = data.draw(st.integers(0, 1), label="the match it is used on")
            token, room = tokens[owner][seat], rooms[target]
            before = room.match.moves
            headers = {"Authorization": f"Bearer {token}"}
            if target != owner:
                left = client.post(f"/api/matches/{room.id}/leave", headers=headers)
                assert left.status_code == 403, left.json()
            with client.websocket_connect(f"/ws/{room.id}") as socket:
                socket.send_json({"type": "hello", "token": token, "cursor": 0})
                first = socket.receive_json()
                if target != owner:
                    assert first == {
                        "type": "error",
                        "reason": "the token holds no seat of this match",
                    }
                    assert room.match.moves == before
                    continue
                assert first["table"]["seat"] == seat
                player = room.match.current_player
                if player == CHANCE:
                    continue
                legal = room.match.view(player).legal_moves
                if not legal:  # the match's random deal ended it (account's End card, say)
                    continue
                # an index, not sampled_from(legal): what is drawn must not hang on the deal
                pick = data.draw(st.integers(0, 2**16), label="move")
                text = room.rules.format_move(legal[pick % len(legal)])
                socket.send_json({"type": "move", "move": text, "version": room.version})
                answer = socket.receive_json()
            if player == seat:
                assert answer["type"] == "table"
                assert len(room.match.moves) == len(before) + 1
            else:
                assert answer["type"] == "refused"
                assert answer["reason"] == f"it is not your turn: P{player} is to move"
                assert room.match.moves == before
