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

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

from tabletop_rules import palace as p
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import Bot
from tabletop_rules.records import GameRecord, replay, replay_states
from tabletop_rules.serialize import dumps, loads
from tabletop_rules.simulate import PlayedGame, play_game

GOLDEN = Path(__file__).with_name("golden")

Bots = Callable[[], Sequence[Bot[p.View, p.Move]]]

_DEAL_TEXT = (
    "9C 10H QD 4S 8C AS AD 9D 7H 10S 9S 4H 4D 2H 7S 4C QH 2C 2S KH KC 3H 5S 9H 8S 7C "
    "10D 6D 5C QS AH JC JD 10C 8D QC 6S AC KS 3S 6C 8H KD 5D 6H JS 3C 3D 7D 2D 5H JH"
)
GIVEN_DEAL = tuple(map(p.Card.parse, _DEAL_TEXT.split()))
"""A deck order, top card first: seat 0's face-down row is 9C QD 8C, seat 1's 10H 4S AS."""


def random_bots(*seeds: int) -> Bots:
    return lambda: [RandomBot(p.RULES, seed=seed) for seed in seeds]


class Golden(NamedTuple):
    """One golden game: how to play it again."""

    name: str
    config: p.Config
    seed: int
    deal: tuple[p.Card, ...] | None
    bots: Bots


GAMES = (
    Golden("default_seed_8", p.Config(), seed=8, deal=None, bots=random_bots(8, 9)),
    Golden("default_given_deal", p.Config(), seed=0, deal=GIVEN_DEAL, bots=random_bots(105, 106)),
    Golden(
        "pagat_three_players_seed_8",
        p.Config.pagat(players=3),
        seed=8,
        deal=None,
        bots=random_bots(80, 81, 82),
    ),
    Golden(
        "pagat_given_deal", p.Config.pagat(), seed=0, deal=GIVEN_DEAL, bots=random_bots(20, 120)
    ),
    Golden(
        "lowcard_vs_random_seed_2026",
        p.Config(),
        seed=2026,
        deal=None,
        bots=lambda: [p.LowCardBot(), RandomBot(p.RULES, seed=2026)],
    ),
)
NAMES = [game.name for game in GAMES]
BY_NAME = {game.name: game for game in GAMES}


def record_path(name: str) -> Path:
    return GOLDEN / f"{name}.record.json"


def final_path(name: str) -> Path:
    return GOLDEN / f"{name}.final.json"


def play(game: Golden) -> PlayedGame:
    return play_game(p.RULES, game.bots(), game.config, seed=game.seed, deal=game.deal)


def checked_in(name: str) -> tuple[GameRecord, p.State]:
    record = GameRecord.from_json(record_path(name).read_text(encoding="utf-8"))
    final = loads(final_path(name).read_text(encoding="utf-8"), p.State)
    return record, final


def pretty(text: str) -> str:
    """JSON laid out one move or card per line, so a change reads as a small diff."""
    return json.dumps(json.loads(text), indent=1) + "\n"


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for game in GAMES:
        played = play(game)
        record_path(game.name).write_text(pretty(played.record.to_json()), encoding="utf-8")
        final_path(game.name).write_text(pretty(dumps(played.final)), encoding="utf-8")
        print(
            f"wrote {game.name}: {len(played.record.moves)} moves, scores {played.scores}, "
            f"finished {played.final.finished}, winners {sorted(p.winners(played.final))}"
        )


@pytest.mark.parametrize("name", NAMES)
def test_the_record_replays_to_the_checked_in_final_state(name: str) -> None:
    record, final = checked_in(name)
    assert p.is_over(final)
    assert replay(record) == final


@pytest.mark.parametrize("name", NAMES)
def test_play_game_still_plays_the_checked_in_moves(name: str) -> None:
    record, final = checked_in(name)
    played = play(BY_NAME[name])
    assert played.record.config == record.config
    assert played.record.seed == record.seed
    assert played.record.deal == record.deal
    for number, (now, then) in enumerate(zip(played.record.moves, record.moves, strict=False), 1):
        assert now == then, f"move {number} differs: now {now!r}, checked in {then!r}"
    assert len(played.record.moves) == len(record.moves)
    assert played.final == final


@pytest.mark.parametrize("name", NAMES)
def test_the_golden_files_describe_the_declared_game(name: str) -> None:
    record, final = checked_in(name)
    game = BY_NAME[name]
    assert record.game == "palace"
    assert record.config == game.config == final.config
    assert record.seed == game.seed == final.seed
    assert record.deal == game.deal == final.deal


@pytest.mark.parametrize("name", NAMES)
def test_every_replayed_state_is_valid(name: str) -> None:
    record, _final = checked_in(name)
    for state in replay_states(record):
        p.check_state(state)


@pytest.mark.parametrize("name", ["default_given_deal", "pagat_given_deal"])
def test_the_given_deal_is_a_whole_deck_and_the_record_holds_it(name: str) -> None:
    assert sorted(GIVEN_DEAL) == sorted(p.DECK)
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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--regenerate", action="store_true", help="rewrite the golden files")
    args = parser.parse_args(argv)
    if not args.regenerate:
        parser.error("nothing to do: pass --regenerate to rewrite the golden files")
    regenerate()


if __name__ == "__main__":
    main()


HASH_SEED_SCRIPT = """
import sys
from tests.palace.test_golden import BY_NAME, play, pretty
from tabletop_rules.serialize import dumps
played = play(BY_NAME[sys.argv[1]])
sys.stdout.write(pretty(played.record.to_json()) + pretty(dumps(played.final)))
"""


@pytest.mark.parametrize("hash_seed", ["0", "1", "4242"])
@pytest.mark.parametrize("name", NAMES)
def test_the_golden_files_are_byte_identical_under_any_hash_seed(name: str, hash_seed: str) -> None:
    expected = record_path(name).read_text(encoding="utf-8") + final_path(name).read_text(
        encoding="utf-8"
    )
    root = Path(__file__).parents[2]
    environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
    result = subprocess.run(
        [sys.executable, "-c", HASH_SEED_SCRIPT, name],
        capture_output=True,
        text=True,
        cwd=root,
        env=environment,
        check=True,
        timeout=120,
    )
    assert result.stdout == expected
