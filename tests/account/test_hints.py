"""What a move would do in the account game: each marker's landing card for each direction
and distance of the roll, and what it would do to the account."""

from __future__ import annotations

import attrs

from tabletop_rules import account as a
from tabletop_rules.account import Card
from tabletop_rules.account.table import landings


def rolled(bottom: str, value: int, config: a.Config, start: int = 0, account: int = 0) -> a.View:
    """A one-player game whose bottom line is ``bottom``, the marker on ``start``, the
    die showing ``value``.
    """
    state = a.new_game(config, seed=3)
    field = tuple(
        (Card.parse(text), *column[1:])
        for text, column in zip(bottom.split(), state.field, strict=True)
    )
    state = attrs.evolve(
        state,
        field=field,
        phase="play",
        markers=((start,),),
        accounts=(account,),
        roll=value,
    )
    return a.view(state, 0)


ONE = a.Config(players=1, columns=5)


def test_every_marker_direction_and_distance_lands_on_a_card_of_the_ring() -> None:
    seen = rolled("+10 -15 Z P +1", 2, ONE)
    found = [(x.direction, x.steps, x.column, str(x.card)) for x in landings(seen)]
    assert found == [
        ("left", 1, 4, "+1"),
        ("left", 2, 3, "P"),
        ("right", 1, 1, "-15"),
        ("right", 2, 2, "Z"),
    ]


def test_the_landings_are_the_legal_moves_in_their_order() -> None:
    seen = rolled("+10 -15 Z P +1", 6, ONE)
    moves = [a.Advance(x.marker, x.direction, x.steps) for x in landings(seen)]
    assert tuple(moves) == seen.legal_moves


def test_a_card_changes_the_account_as_it_would_score() -> None:
    landed = {str(x.card): x for x in landings(rolled("+10 -15 Z P +1", 2, ONE, account=7))}
    assert (landed["-15"].before, landed["-15"].after) == (7, -8)
    assert landed["Z"].after == 0
    assert landed["P"].after == 107


def test_the_floor_at_zero_stops_an_account_going_negative() -> None:
    floored = attrs.evolve(ONE, floor_at_zero=True)
    landed = {str(x.card): x for x in landings(rolled("+10 -15 Z P +1", 1, floored, account=7))}
    assert landed["-15"].after == 0


def test_b_has_no_known_effect_and_end_stops_the_game() -> None:
    landed = {str(x.card): x for x in landings(rolled("+10 B End P +1", 2, ONE, account=5))}
    assert landed["B"].after is None
    assert landed["End"].ends
    assert landed["End"].after == 5
    assert not landed["B"].ends


def test_a_lap_or_more_wraps_round_the_ring() -> None:
    seen = rolled("+10 -15 Z", 6, a.Config(players=1, columns=3))
    assert [x.column for x in landings(seen) if x.direction == "right"] == [1, 2, 0, 1, 2, 0]


def test_no_roll_gives_no_landings() -> None:
    assert landings(a.view(a.new_game(seed=1), 0)) == ()
