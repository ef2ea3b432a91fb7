"""The spectator policy of each match: none, the spectator's view live, or that view a
number of moves late (all of it once the match is over).
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from .helpers import Seat, create, join, party, serving


def test_a_match_without_spectators_refuses_one() -> None:
    with serving() as client:
        match_id = create(client, rules={"stages": "1"}, spectators="none")
        with client.websocket_connect(f"/ws/{match_id}") as socket:
            watcher = Seat(socket)
            watcher.send({"type": "hello", "token": None, "cursor": 0})
            assert watcher.closed_with_error() == "this match has no spectators"


def test_a_delayed_spectator_sees_the_table_as_it_stood_moves_ago() -> None:
    with serving() as client:
        match_id = create(client, rules={"stages": "1"}, spectators="delayed", delay=2)
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second, None]) as (one, two, watcher):
            versions = []
            for text in ("roll", "write chance", "roll"):
                mover = one if one.table["to_move"] == 0 else two
                mover.move(text)
                (two if mover is one else one).read()
                versions.append(watcher.read()["table"]["version"])
            assert "clock" not in watcher.match
            two.send({"type": "resign"})
            two.read()
            one.read()
            final = watcher.read()
    assert versions == [0, 0, 1]
    assert final["table"]["version"] == 3
    assert final["match"]["result"]["reason"] == "resigned"
