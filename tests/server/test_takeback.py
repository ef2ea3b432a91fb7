"""Take-backs between people: a seat proposes, every other person whose move it would take
back accepts (or one declines), never across a move that showed what was hidden; against
bots alone no one is asked.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tabletop_rules import account
from tabletop_rules import dice_poker as dp

pytest.importorskip("starlette")

from tabletop_rules.server import SQLiteStore

from .helpers import join, party, seated, seeded, serving, sync


def _account_after_two_places(store: SQLiteStore) -> str:
    return seeded(store, "account", 5)


def test_a_take_back_of_anothers_move_waits_for_that_persons_consent(
    stores: Callable[..., SQLiteStore],
) -> None:
    store = stores()
    match_id = _account_after_two_places(store)
    with serving(store) as client:
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (one, two):
            one.move("place 4")
            two.read()
            two.move("place 2")
            one.read()
            one.send({"type": "takeback", "answer": "propose"})
            proposed = one.read()
            two.read()
            two.send({"type": "takeback", "answer": "accept"})
            taken = two.read()
            one.read()
    assert proposed["match"]["takeback"] == {
        "by": 0,
        "version": 2,
        "waiting": [1],
        "accepted": [],
    }
    assert proposed["table"]["version"] == 2
    assert taken["table"]["version"] == 0
    assert taken["match"]["takeback"] is None
    assert sync(store).record(match_id).moves == ()


def test_a_declined_take_back_changes_nothing(stores: Callable[..., SQLiteStore]) -> None:
    store = stores()
    match_id = _account_after_two_places(store)
    with serving(store) as client:
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (one, two):
            one.move("place 4")
            two.read()
            two.move("place 2")
            one.read()
            one.send({"type": "takeback", "answer": "propose"})
            one.read()
            two.read()
            one.send({"type": "takeback", "answer": "accept"})  # not the proposer's to accept
            refused = one.read()
            two.send({"type": "takeback", "answer": "decline"})
            declined = two.read()
    assert refused["type"] == "refused"
    assert "no take-back awaits your answer" in refused["reason"]
    assert declined["match"]["takeback"] is None
    assert declined["table"]["version"] == 2
    assert sync(store).record(match_id).moves == ("place 4", "place 2")


def test_a_move_played_meanwhile_cancels_the_proposal(stores: Callable[..., SQLiteStore]) -> None:
    store = stores()
    match_id = _account_after_two_places(store)
    with serving(store) as client:
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (one, two):
            one.move("place 4")
            two.read()
            two.move("place 2")
            one.read()
            one.send({"type": "takeback", "answer": "propose"})
            one.read()
            two.read()
            moved = one.move("roll")
            two.read()
            two.send({"type": "takeback", "answer": "accept"})
            late = two.read()
    assert moved["match"]["takeback"] is None
    assert late["type"] == "refused"
    assert sync(store).record(match_id).moves == ("place 4", "place 2", "roll")


def test_a_take_back_never_crosses_a_move_that_showed_what_was_hidden(
    stores: Callable[..., SQLiteStore],
) -> None:
    store = stores()
    match_id = seeded(store, "dice-poker", 7, config=dp.Config(stages=1))
    with serving(store) as client:
        first, _second = join(client, match_id), join(client, match_id)
        with seated(client, match_id, first) as seat:
            seat.move("roll")
            seat.send({"type": "takeback", "answer": "propose"})
            refused = seat.read()
    assert refused["type"] == "refused"
    assert "a fair take-back never crosses" in refused["reason"]
    assert sync(store).record(match_id).moves == ("roll",)


def test_a_take_back_against_bots_only_needs_no_consent(stores: Callable[..., SQLiteStore]) -> None:
    store = stores()
    config = dp.Config(stages=1, stage_orders="announce")
    match_id = seeded(store, "dice-poker", 7, ("person", "greedy"), config)
    with serving(store) as client:
        token = join(client, match_id)
        with seated(client, match_id, token) as seat:
            seat.move("roll")
            seat.move("announce pair")
            seat.send({"type": "takeback", "answer": "propose"})
            taken = seat.read()
    assert taken["type"] == "table"
    assert taken["table"]["version"] == 1
    assert taken["table"]["log_from"] == 1
    assert sync(store).record(match_id).moves == ("roll",)


def test_every_other_person_whose_move_it_takes_back_must_accept(
    stores: Callable[..., SQLiteStore],
) -> None:
    store = stores()
    match_id = seeded(store, "account", 5, ("person",) * 3, account.Config(players=3))
    with serving(store) as client:
        tokens = [join(client, match_id) for _ in range(3)]
        with party(client, match_id, tokens) as seats:
            for mover in seats:
                mover.move("place 0")
                for other in seats:
                    if other is not mover:
                        other.read()
            seats[0].send({"type": "takeback", "answer": "propose"})
            for seat in seats:
                seat.read()
            seats[1].send({"type": "takeback", "answer": "accept"})
            for seat in seats:
                halfway = seat.read()
            seats[2].send({"type": "takeback", "answer": "accept"})
            for seat in seats:
                taken = seat.read()
    assert halfway["match"]["takeback"]["waiting"] == [2]
    assert halfway["match"]["takeback"]["accepted"] == [1]
    assert halfway["table"]["version"] == 3
    assert taken["table"]["version"] == 0
    assert sync(store).record(match_id).moves == ()
