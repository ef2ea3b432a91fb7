"""The lobby's HTTP routes: the games, creating a match with house rules checked, the open
matches, joining, leaving and the record; every refusal a JSON error with a 4xx status.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from tabletop_rules.records import GameRecord

pytest.importorskip("starlette")

from .helpers import create, join, serving


def test_the_games_route_lists_every_registered_game_with_rules_and_bots() -> None:
    with serving() as client:
        games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    assert {"account", "dice-poker", "palace"} <= games.keys()
    palace = games["palace"]
    assert palace["players"] == 2
    assert "lowcard" in palace["bots"]
    assert [rule["name"] for rule in palace["rules"]][:2] == ["players", "decks"]


def test_a_match_is_created_with_its_house_rules_and_seats() -> None:
    with serving() as client:
        answer = client.post(
            "/api/matches",
            json={"game": "palace", "rules": {"quad": "burn"}, "seats": ["person", "lowcard"]},
        )
        assert answer.status_code == 201
        match = answer.json()["match"]
    assert match["status"] == "open"
    assert [seat["kind"] for seat in match["seats"]] == ["person", "bot"]
    assert match["seats"][1]["bot"] == "lowcard"
    assert match["settings"]["spectators"] == "public"


def test_a_refused_house_rule_is_named_in_a_json_error() -> None:
    with serving() as client:
        answer = client.post(
            "/api/matches", json={"game": "palace", "rules": {"quad": "explode", "decks": "1"}}
        )
    assert answer.status_code == 400
    assert "quad" in answer.json()["fields"]
    assert "no match was created" in answer.json()["error"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 404, "no game named 'chess'"),
        ({"game": "palace", "seats": ["person"]}, 400, "2 seats"),
        ({"game": "palace", "seats": ["person", "deep blue"]}, 400, "a seat is 'person' or a bot"),
        ({"game": "palace", "spectators": "all"}, 400, "spectators is one of"),
        ({"game": "palace", "clock": {"move_seconds": -1, "bank_seconds": 1}}, 400, "move_sec"),
        ({"game": "palace", "seed": 7}, 400, "no setting seed"),
        ({"game": ["palace"]}, 400, "game must be text"),
    ],
)
def test_a_malformed_create_request_is_refused_with_the_reason(
    body: dict[str, object], status: int, words: str
) -> None:
    with serving() as client:
        answer = client.post("/api/matches", json=body)
        assert client.get("/api/matches").json()["matches"] == []
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_a_body_that_is_not_json_or_too_long_is_refused() -> None:
    with serving() as client:
        broken = client.post("/api/matches", content=b"{game")
        huge = client.post("/api/matches", content=b" " * 20_000)
    assert broken.status_code == 400
    assert broken.json()["error"].startswith("the message is not JSON: Expecting")
    assert huge.status_code == 413


def test_open_matches_are_listed_until_their_seats_are_taken() -> None:
    with serving() as client:
        match_id = create(client, seats=["person", "greedy"])
        listed = [match["id"] for match in client.get("/api/matches").json()["matches"]]
        join(client, match_id, name="ann")
        after = client.get("/api/matches").json()["matches"]
        shown = client.get(f"/api/matches/{match_id}").json()["match"]
    assert listed == [match_id]
    assert after == []
    assert shown["status"] == "playing"
    assert shown["seats"][0]["name"] == "ann"


def test_joining_gives_a_free_seat_and_its_token_and_refuses_a_taken_one() -> None:
    with serving() as client:
        match_id = create(client)
        first = client.post(f"/api/matches/{match_id}/join", json={"seat": 1}).json()
        taken = client.post(f"/api/matches/{match_id}/join", json={"seat": 1})
        second = client.post(f"/api/matches/{match_id}/join", json={}).json()
        full = client.post(f"/api/matches/{match_id}/join", json={})
        missing = client.post("/api/matches/nothing/join", json={})
    assert (first["seat"], second["seat"]) == (1, 0)
    assert first["token"] != second["token"]
    assert taken.status_code == 409
    assert full.status_code == 409
    assert missing.status_code == 404


def test_leaving_before_the_start_frees_the_seat_and_needs_the_token() -> None:
    with serving() as client:
        match_id = create(client)
        token = join(client, match_id)
        anonymous = client.post(f"/api/matches/{match_id}/leave")
        stranger = client.post(
            f"/api/matches/{match_id}/leave", headers={"Authorization": "Bearer nobody"}
        )
        left = client.post(
            f"/api/matches/{match_id}/leave", headers={"Authorization": f"Bearer {token}"}
        )
    assert anonymous.status_code == 401
    assert stranger.status_code == 403
    assert left.status_code == 200
    assert not left.json()["match"]["seats"][0]["taken"]


def test_leaving_a_match_under_way_resigns_and_shows_the_record() -> None:
    with serving() as client:
        match_id = create(client)
        token = join(client, match_id)
        join(client, match_id)
        hidden = client.get(f"/api/matches/{match_id}/record")
        client.post(f"/api/matches/{match_id}/leave", headers={"Authorization": f"Bearer {token}"})
        match = client.get(f"/api/matches/{match_id}").json()["match"]
        record = client.get(f"/api/matches/{match_id}/record")
    assert hidden.status_code == 409
    assert match["result"] == {"reason": "resigned", "seat": 0, "winners": [1]}
    assert GameRecord.from_json(record.text).game == "dice-poker"


def test_a_client_may_have_only_so_many_matches_not_yet_over() -> None:
    with serving(matches_per_client=2) as client:
        create(client)
        create(client)
        third = client.post("/api/matches", json={"game": "dice-poker"})
    assert third.status_code == 429


def test_an_unknown_route_answers_json() -> None:
    with serving() as client:
        answer = client.get("/api/nothing")
    assert answer.status_code == 404
    assert answer.json() == {"error": "not found", "fields": {}}


def test_the_lobby_tells_no_clock_of_a_match_that_cannot_be_watched_live() -> None:
    clock = {"move_seconds": 10, "bank_seconds": 60}
    with serving() as client:
        live = create(client, clock=clock)
        late = create(client, clock=clock, spectators="delayed", delay=2)
        hidden = create(client, clock=clock, spectators="none")
        shown = {
            match_id: client.get(f"/api/matches/{match_id}").json()["match"]
            for match_id in (live, late, hidden)
        }
    assert "clock" in shown[live]
    assert "clock" not in shown[late]
    assert "clock" not in shown[hidden]


def test_a_finished_match_with_nobody_watching_leaves_memory() -> None:
    with serving() as client:
        match_id = create(client)
        token = join(client, match_id)
        join(client, match_id)
        headers = {"Authorization": f"Bearer {token}"}
        client.post(f"/api/matches/{match_id}/leave", headers=headers)
        rooms = client.app.state.server.rooms  # type: ignore[attr-defined]
        gone = _eventually(lambda: match_id not in rooms)  # on two workers, once told
        shown = client.get(f"/api/matches/{match_id}").json()["match"]  # loaded again
    assert gone
    assert shown["status"] == "over"


def _eventually(test: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Whether ``test`` passes within ``seconds``."""
    end = time.monotonic() + seconds
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True
