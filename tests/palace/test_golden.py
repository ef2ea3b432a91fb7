"""Golden playthroughs of palace: whole games whose every move and final state are checked in.

For each game in ``GAMES`` the directory ``golden/`` holds ``<name>.record.json`` (the
:class:`~tabletop_rules.records.GameRecord`: config, seed, the deal when the game was
dealt from a given deck order, and every move in notation) and ``<name>.final.json``
(the final state, as ``serialize.dumps`` writes it). The tests check that the record
still replays to that final state, and that ``play_game`` with the same bots, seed and
deal still plays exactly those moves. A change to the rules, the shuffle, the notation,
the JSON layout or the bots shows up here as a diff.

The games: the default rules from a seed and from a given deal (written out below, top
card first); the pagat preset from a seed (three players) and from the same given deal.
Every seat is a :class:`~tabletop_rules.bots.RandomBot` with its own seed; a fifth game
pits :class:`~tabletop_rules.palace.LowCardBot` against one, so a change to the heuristic
bot shows up here too.

The tests never write these files. After a deliberate change of behaviour, regenerate them
from the repository root and review the diff before committing::

    python -m tests.palace.test_golden --regenerate
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from tabletop_rules import palace as p
from tabletop_rules.bots import RandomBot
from tabletop_rules.palace.cards import DECK
from tabletop_rules.protocol import Bot
from tabletop_rules.records import GameRecord, replay_states
from tabletop_rules.testing.golden import GoldenGame, GoldenSuite

Bots = Callable[[], Sequence[Bot[p.View, p.Move]]]

_DEAL_TEXT = (
    "9C 10H QD 4S 8C AS AD 9D 7H 10S 9S 4H 4D 2H 7S 4C QH 2C 2S KH KC 3H 5S 9H 8S 7C "
    "10D 6D 5C QS AH JC JD 10C 8D QC 6S AC KS 3S 6C 8H KD 5D 6H JS 3C 3D 7D 2D 5H JH"
)
GIVEN_DEAL = tuple(map(p.Card.parse, _DEAL_TEXT.split()))
"""A deck order, top card first: seat 0's face-down row is 9C QD 8C, seat 1's 10H 4S AS."""


def random_bots(*seeds: int) -> Bots:
    return lambda: [RandomBot(p.RULES, seed=seed) for seed in seeds]


GAMES = (
    GoldenGame("default_seed_8", p.Config(), seed=8, deal=None, bots=random_bots(8, 9)),
    GoldenGame(
        "default_given_deal", p.Config(), seed=0, deal=GIVEN_DEAL, bots=random_bots(105, 106)
    ),
    GoldenGame(
        "pagat_three_players_seed_8",
        p.Config.pagat(players=3),
        seed=8,
        deal=None,
        bots=random_bots(80, 81, 82),
    ),
    GoldenGame(
        "pagat_given_deal", p.Config.pagat(), seed=0, deal=GIVEN_DEAL, bots=random_bots(20, 120)
    ),
    GoldenGame(
        "lowcard_vs_random_seed_2026",
        p.Config(),
        seed=2026,
        deal=None,
        bots=lambda: [p.LowCardBot(), RandomBot(p.RULES, seed=2026)],
    ),
)


class TestPalaceGolden(GoldenSuite):
    ruleset = p.RULES
    folder = Path(__file__).with_name("golden")
    games = GAMES


NAMES = [game.name for game in GAMES]
checked_in = TestPalaceGolden.checked_in


def record_path(name: str) -> Path:
    return TestPalaceGolden.paths(name)[0]


@pytest.mark.parametrize("name", ["default_given_deal", "pagat_given_deal"])
def test_the_given_deal_is_a_whole_deck_and_the_record_holds_it(name: str) -> None:
    assert sorted(GIVEN_DEAL) == sorted(DECK)
    record, final = checked_in(name)
    assert record.deal == GIVEN_DEAL
    start = p.new_game(record.config, seed=record.seed, deal=record.deal)
    assert start.face_down[0] == (GIVEN_DEAL[0], GIVEN_DEAL[2], GIVEN_DEAL[4])
    assert "deal" in json.loads(record_path(name).read_text(encoding="utf-8"))
    assert final.deal == GIVEN_DEAL


def _events(record: GameRecord) -> list[p.Event]:
    """Every event of the recorded game, in order."""
    state = p.new_game(record.config, seed=record.seed, deal=record.deal)
    events: list[p.Event] = []
    for text in record.moves:
        state, happened = p.apply_with_events(state, p.parse_move(state, text))
        events.extend(happened)
    return events


def test_the_golden_games_end_with_a_finisher_not_at_the_turn_limit() -> None:
    for name in NAMES:
        _record, final = checked_in(name)
        assert final.turns < final.config.max_turns, name
        assert p.winners(final) == frozenset(final.finished[:1]), name
        assert final.finished, name


def test_the_default_games_cover_the_seed_rules() -> None:
    for name in ("default_seed_8", "default_given_deal"):  # random play reaches every rule
        record, final = checked_in(name)
        events = _events(record)
        kinds = {type(event) for event in events}
        assert {p.Swapped, p.Burned, p.TookPile, p.TookFaceUp, p.Drew} <= kinds, name
        assert any(type(e) is p.Played and e.source == "face_down" for e in events), name
        assert any(type(e) is p.Played and len(e.cards) >= 4 for e in events), name
        assert len(final.finished) == 1, name  # play_until="first_out"


@pytest.mark.parametrize("name", ["pagat_three_players_seed_8", "pagat_given_deal"])
def test_the_pagat_games_cover_the_house_rules_they_are_named_for(name: str) -> None:
    record, final = checked_in(name)
    events = _events(record)
    assert any(type(e) is p.Played and e.source == "face_up" for e in events)  # from_table
    assert any(type(e) is p.Burned and e.cards[-1].rank != 10 for e in events)  # quad="burn"
    assert not any(type(e) is p.EndedTurn for e in events)
    states = list(replay_states(record))
    assert any(
        type(move) is p.TakePile and before.phase == "play" and p.legal_moves(before) != (move,)
        for before, move in zip(states, (p.read_move(text) for text in record.moves), strict=False)
    )  # voluntary_pickup: taken while a play was open
    players = final.config.players
    assert len(final.finished) == players - 1  # play_until="last": the last holder loses
    assert p.score(final)[(set(range(players)) - set(final.finished)).pop()] == 0


if __name__ == "__main__":
    TestPalaceGolden.main()
