"""Whole games of every game played over the server's sockets by two people while a
spectator watches: the record the server gives replays to the same end, and every table
sent held the view of its seat, no more.
"""

from __future__ import annotations

import json
import random

import pytest

from tabletop_rules import get_ruleset
from tabletop_rules.records import GameRecord, replay_states
from tabletop_rules.serialize import to_data

pytest.importorskip("starlette")

from .helpers import create, join, party, play_random, serving

GAMES = [("dice-poker", {"stages": "1"}), ("palace", {}), ("account", {})]


@pytest.mark.parametrize(("game", "rules"), GAMES, ids=[game for game, _rules in GAMES])
def test_a_whole_game_over_the_server_replays_from_its_record(
    game: str, rules: dict[str, str]
) -> None:
    with serving() as client:
        match_id = create(client, game, rules=rules)
        tokens = [join(client, match_id), join(client, match_id)]
        with party(client, match_id, [*tokens, None]) as (first, second, watcher):
            play_random({0: first, 1: second}, random.Random(game), [watcher])
        answer = client.get(f"/api/matches/{match_id}/record")
    assert answer.status_code == 200
    record = GameRecord.from_json(answer.text)
    states = list(replay_states(record))
    rules_ = get_ruleset(game)
    final = states[-1]
    assert rules_.is_over(final)
    assert len(record.moves) == first.table["version"]
    for seat in (first, second, watcher):
        assert seat.table["over"]
        assert seat.match["status"] == "over"
        assert seat.table["scores"] == list(rules_.score(final))
        assert seat.table["winners"] == sorted(rules_.winners(final))
        assert seat.match["result"]["reason"] == "played"
    # every frame to every seat and the spectator: that seat's view at that version, no more
    for who, seat in ((0, first), (1, second), (None, watcher)):
        for frame in seat.frames:
            table = frame["table"]
            assert table["seat"] == who
            seen = rules_.view(states[table["version"]], who)
            assert table["view"] == json.loads(json.dumps(to_data(seen)))
