"""Clocks, Board Game Arena's model: a move may take the move time, what it takes beyond
comes out of the seat's bank; a seat out of time has its bot play or forfeits, as the
match chose; a person on turn away past the grace may be claimed from. The server reads
an injected time, so nothing here sleeps.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from .helpers import FakeTime, create, join, party, seated, serving

CLOCK = {"move_seconds": 10, "bank_seconds": 60}


def test_a_move_past_the_move_time_draws_on_the_seats_bank() -> None:
    time = FakeTime()
    with serving(now=time, tick_seconds=0.01) as client:
        match_id = create(client, rules={"stages": "1"}, clock=CLOCK)
        first, _second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, first) as seat:
            assert seat.match["clock"]["left"] == 70
            time.advance(25)
            answer = seat.move("roll")
            time.advance(3)
            seat.send({"type": "sync"})
            later = seat.read()
    assert answer["match"]["clock"]["banks"] == [45, 60]
    assert later["match"]["clock"]["left"] == 52  # 7 s of the move time and the bank


def test_a_seat_out_of_time_forfeits_where_the_match_says_so() -> None:
    time = FakeTime()
    with serving(now=time, tick_seconds=0.01) as client:
        match_id = create(client, rules={"stages": "1"}, clock=CLOCK, timeout="forfeit")
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (_one, two):
            time.advance(71)
            over = two.read_until(lambda message: message["match"]["status"] == "over")
    assert over["match"]["result"] == {"reason": "timeout", "seat": 0, "winners": [1]}


def test_a_seat_out_of_time_has_its_bot_play_the_move_where_the_match_says_so() -> None:
    time = FakeTime()
    with serving(now=time, tick_seconds=0.01) as client:
        match_id = create(client, rules={"stages": "1"}, clock=CLOCK, timeout="bot")
        first, _second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, first) as seat:
            time.advance(71)
            played = seat.read_until(lambda message: message["table"]["version"] == 1)
    assert played["table"]["version"] == 1
    assert played["table"]["log"][0]["seat"] == 0
    assert played["match"]["clock"]["banks"][0] == 0
    assert played["match"]["status"] == "playing"


def test_the_others_may_claim_once_the_seat_on_turn_is_away_past_the_grace() -> None:
    time = FakeTime()
    with serving(now=time, grace_seconds=30) as client:
        match_id = create(client, rules={"stages": "1"})
        first, second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, second) as two:
            with seated(client, match_id, first):
                two.read()
            two.read()  # P0 went away
            time.advance(10)
            two.send({"type": "claim"})
            early = two.read()
            time.advance(25)
            two.send({"type": "sync"})
            claimable = two.read()["match"]["claimable"]
            two.send({"type": "claim"})
            claimed = two.read()
    assert early["type"] == "refused"
    assert "away 10 s of the 30 s grace" in early["reason"]
    assert claimable == [0]
    assert claimed["match"]["result"] == {"reason": "claimed", "seat": 0, "winners": [1]}


def test_a_connected_seat_cannot_be_claimed_from() -> None:
    time = FakeTime()
    with serving(now=time, grace_seconds=30) as client:
        match_id = create(client, rules={"stages": "1"})
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (_one, two):
            time.advance(100)
            two.send({"type": "claim"})
            refused = two.read()
    assert refused["type"] == "refused"
    assert "P0 is connected" in refused["reason"]


def test_a_take_back_gives_back_the_bank_the_moves_taken_back_spent() -> None:
    time = FakeTime()
    rules = {"stages": "1", "stage_orders": '["announce"]'}
    with serving(now=time) as client:
        match_id = create(client, rules=rules, clock=CLOCK, seats=["person", "greedy"])
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            time.advance(25)
            seat.move("roll")
            time.advance(25)
            spent = seat.move("announce pair")["match"]["clock"]["banks"][0]
            seat.send({"type": "takeback", "answer": "propose"})
            taken = seat.read()
    assert spent == 30
    assert taken["table"]["version"] == 1
    assert taken["match"]["clock"]["banks"][0] == 45
