"""Golden playthroughs of the account game: whole games whose every move and final state
are checked in.

For each game in ``GAMES`` the directory ``golden/`` holds ``<name>.record.json`` (the
:class:`~tabletop_rules.records.GameRecord`: config, seed, the deal when the game was
dealt from a given deck order, and every move in notation) and ``<name>.final.json``
(the final state, as ``serialize.dumps`` writes it). The tests check that the record
still replays to that final state, and that ``play_game`` with the same bots, seed and
deal still plays exactly those moves. A change to the rules, the shuffle, the notation,
the JSON layout or the bots shows up here as a diff.

The games: the default rules from a seed (markers bought, stopped at ``max_rounds``) and
from a given deal whose bottom line holds a B and an End (the game stops on End);
``collapse`` with ``end="finish_round"`` for three players; a small deck with manual
dice, two starting markers, cheap markers, no placement scores and accounts floored at
zero, whose pack runs out and is reshuffled. Every seat is a
:class:`~tabletop_rules.bots.RandomBot` with its own seed.

The tests never write these files. After a deliberate change of behaviour, regenerate them
from the repository root and review the diff before committing::

    python -m tests.account.test_golden --regenerate
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tabletop_rules import account as a
from tabletop_rules.account.rules import line
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import Bot
from tabletop_rules.records import GameRecord, replay_states
from tabletop_rules.testing.golden import GoldenGame, GoldenSuite

Bots = Callable[[], Sequence[Bot[a.View, a.Move]]]

_DEAL_TEXT = (
    "+15 -10 B +25 End P -1 -25 +1 -10 -25 +10 B P -15 +1 Z +25 +10 Z +15 +15 +25 -1 -15 "
    "+15 -1 -1 -1 -10 +15 B -25 +15 +10 -25 -15 End +25 -10 -15 -15 B -10 -10 +10 +1 -1 T "
    "-25 -1 -25 +10 +1 +25 +25 +1 +1 +10 -1 P +1 -10 -15 +10 +10 +1 -15 +15 -10"
)
GIVEN_DEAL = tuple(map(a.Card.parse, _DEAL_TEXT.split()))
"""A deck order of the default deck, top card first: the bottom line is its first seven
cards, ``+15 -10 B +25 End P -1``."""

SMALL_DECK = {
    "+1": 2,
    "-1": 2,
    "+10": 3,
    "-10": 3,
    "+15": 2,
    "-15": 2,
    "+25": 2,
    "-25": 2,
    "B": 6,
    "Z": 1,
    "P": 2,
    "T": 1,
    "End": 1,
}
"""Twenty-nine cards, six of them B, for a 2 x 6 field: a pack of seventeen that B
empties."""


def random_bots(*seeds: int) -> Bots:
    return lambda: [RandomBot(a.RULES, seed=seed) for seed in seeds]


GAMES = (
    GoldenGame("default_seed_5", a.Config(), seed=5, bots=random_bots(500, 501)),
    GoldenGame(
        "default_given_deal", a.Config(), seed=0, deal=GIVEN_DEAL, bots=random_bots(37, 137)
    ),
    GoldenGame(
        "collapse_finish_round_seed_340",
        a.Config(players=3, collapse=True, end="finish_round"),
        seed=340,
        bots=random_bots(34000, 34001, 34002),
    ),
    GoldenGame(
        "small_deck_manual_dice_seed_4",
        a.Config(
            deck=SMALL_DECK,
            rows=2,
            columns=6,
            starting_markers=2,
            max_markers=4,
            marker_cost=50,
            placement_scores=False,
            floor_at_zero=True,
            auto_chance=False,
        ),
        seed=4,
        chance_seed=4,
        bots=random_bots(400, 401),
    ),
)


class TestAccountGolden(GoldenSuite):
    ruleset = a.RULES
    folder = Path(__file__).with_name("golden")
    games = GAMES


checked_in = TestAccountGolden.checked_in


def _events(record: GameRecord) -> list[a.events.Event]:
    """Every event of the recorded game, in order."""
    state = a.new_game(record.config, seed=record.seed, deal=record.deal)
    events: list[a.events.Event] = []
    for text in record.moves:
        state, happened = a.apply_with_events(state, a.parse_move(state, text))
        events.extend(happened)
    return events


def _kinds(name: str) -> Counter[str]:
    record, _final = checked_in(name)
    return Counter(type(event).__name__ for event in _events(record))


def test_the_given_deal_is_the_default_deck_and_the_record_holds_it() -> None:
    assert Counter(GIVEN_DEAL) == Counter(a.Config().deck_cards())
    record, final = checked_in("default_given_deal")
    assert record.deal == GIVEN_DEAL
    assert "deal" in json.loads(TestAccountGolden.paths("default_given_deal")[0].read_text())
    assert line(final) == tuple(range(7))
    assert [final.field[column][0] for column in range(7)] == list(GIVEN_DEAL[:7])


def test_the_seeded_default_game_buys_markers_and_stops_at_max_rounds() -> None:
    _record, final = checked_in("default_seed_5")
    kinds = _kinds("default_seed_5")
    assert kinds["Bought"] > 0
    assert final.turns == final.config.max_rounds * final.config.players
    assert max(map(len, final.markers)) > final.config.starting_markers


def test_the_given_deal_game_draws_for_b_and_stops_on_end() -> None:
    _record, final = checked_in("default_given_deal")
    kinds = _kinds("default_given_deal")
    assert kinds["Drew"] > 0
    assert kinds["EndHit"] == 1
    assert final.turns < final.config.max_rounds * final.config.players


def test_the_collapse_game_collapses_cards_and_finishes_the_round_after_end() -> None:
    _record, final = checked_in("collapse_finish_round_seed_340")
    kinds = _kinds("collapse_finish_round_seed_340")
    assert kinds["Collapsed"] > 0
    assert kinds["Bought"] > 0
    assert kinds["EndHit"] >= 1
    assert final.turns % final.config.players == 0  # the round was completed
    assert final.turns < final.config.max_rounds * final.config.players
    field_cards = sum(map(len, final.field))
    assert field_cards == final.config.rows * final.config.columns - kinds["Collapsed"]


def test_the_small_deck_game_reshuffles_the_discard_pile_and_buys_cheap_markers() -> None:
    record, _final = checked_in("small_deck_manual_dice_seed_4")
    kinds = _kinds("small_deck_manual_dice_seed_4")
    assert kinds["Reshuffled"] > 0
    assert kinds["Bought"] > 0
    assert all(min(state.accounts) >= 0 for state in replay_states(record))  # floor_at_zero
    assert sum(text.startswith("die ") for text in record.moves) == kinds["Rolled"]


@pytest.mark.parametrize("name", [game.name for game in GAMES])
def test_the_golden_games_are_over(name: str) -> None:
    _record, final = checked_in(name)
    assert a.is_over(final)
    assert a.winners(final)


if __name__ == "__main__":
    TestAccountGolden.main()
