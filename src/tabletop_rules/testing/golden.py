"""Golden playthroughs for any game: whole seeded games checked in as files.

``<name>.record.json`` (the :class:`~tabletop_rules.records.GameRecord`) and
``<name>.final.json`` (the final state as :func:`~tabletop_rules.serialize.dumps` writes
it) pin a game: a change to the rules, generator, notation, JSON or bots shows as a diff.
Subclass :class:`GoldenSuite` with the ruleset, the folder and the games; pytest runs its
checks once per game::

    class TestPalaceGolden(GoldenSuite):
        ruleset = palace.RULES
        folder = Path(__file__).with_name("golden")
        games = (GoldenGame("default_seed_8", palace.Config(), seed=8, bots=...),)

    if __name__ == "__main__":
        TestPalaceGolden.main()  # python -m tests.palace.test_golden --regenerate
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from ..protocol import Bot, Ruleset
from ..records import GameRecord, replay, replay_states
from ..serialize import dumps, loads
from ..simulate import PlayedGame, play_game

__all__ = ["GoldenGame", "GoldenSuite"]

HASH_SEEDS = ("0", "1", "4242")
"""The ``PYTHONHASHSEED`` values under which the files must come out byte for byte."""


@attrs.frozen
class GoldenGame:
    """One golden game: how to play it again."""

    name: str
    """The files' name."""
    config: Any
    """The house rules."""
    seed: int
    """The game's seed."""
    bots: Callable[[], Sequence[Bot[Any, Any]]]
    """Makes the bots, seat by seat, afresh for each play."""
    chance_seed: int = 0
    """The seed of the chance outcomes when the game stops for them."""
    deal: tuple[Any, ...] | None = None
    """The deck order the game is dealt from, for a game with a deck."""


def pretty(text: str) -> str:
    """JSON laid out one item per line, so that a change reads as a small diff."""
    return json.dumps(json.loads(text), indent=1) + "\n"


class GoldenSuite:
    """Subclass with ``ruleset``, ``folder`` and ``games``; pytest runs each check per game."""

    ruleset: ClassVar[Ruleset[Any, Any, Any]]
    folder: ClassVar[Path]
    games: ClassVar[tuple[GoldenGame, ...]]

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Run each check once per golden game (``name``)."""
        if "name" in metafunc.fixturenames:
            metafunc.parametrize("name", [game.name for game in self.games])

    @classmethod
    def game(cls, name: str) -> GoldenGame:
        """The golden game called ``name``."""
        return next(game for game in cls.games if game.name == name)

    @classmethod
    def play(cls, game: GoldenGame) -> PlayedGame:
        """Play ``game`` again with its bots, seeds and deal."""
        return play_game(
            cls.ruleset,
            game.bots(),
            game.config,
            seed=game.seed,
            deal=game.deal,
            chance_seed=game.chance_seed,
        )

    @classmethod
    def paths(cls, name: str) -> tuple[Path, Path]:
        """The record file and the final-state file of game ``name``."""
        return cls.folder / f"{name}.record.json", cls.folder / f"{name}.final.json"

    @staticmethod
    def texts(played: PlayedGame) -> tuple[str, str]:
        """The two files' text for a game as played."""
        return pretty(played.record.to_json()), pretty(dumps(played.final))

    @classmethod
    def checked_in(cls, name: str) -> tuple[GameRecord, Any]:
        """The record and the final state of game ``name``, read from its files."""
        record_path, final_path = cls.paths(name)
        record = GameRecord.from_json(record_path.read_text(encoding="utf-8"))
        return record, loads(final_path.read_text(encoding="utf-8"), cls.ruleset.state_type)

    @classmethod
    def regenerate(cls) -> None:
        """Rewrite every game's files from a fresh play."""
        cls.folder.mkdir(exist_ok=True)
        for game in cls.games:
            played = cls.play(game)
            for path, text in zip(cls.paths(game.name), cls.texts(played), strict=True):
                path.write_text(text, encoding="utf-8")
            print(
                f"wrote {game.name}: {len(played.moves)} moves, scores {played.score}, "
                f"winners {sorted(played.winners)}"
            )

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> None:
        """A golden test module's command line: ``--regenerate`` rewrites the files, ``--print
        NAME`` writes one game's to standard output (the hash-seed check).
        """
        parser = argparse.ArgumentParser(description=f"{cls.ruleset.title}: golden games")
        parser.add_argument("--regenerate", action="store_true", help="rewrite the files")
        parser.add_argument("--print", metavar="NAME", help="print one game's files")
        args = parser.parse_args(argv)
        if args.print:
            sys.stdout.write("".join(cls.texts(cls.play(cls.game(args.print)))))
        elif args.regenerate:
            cls.regenerate()
        else:
            parser.error("nothing to do: pass --regenerate to rewrite the golden files")

    def test_the_record_replays_to_the_checked_in_final_state(self, name: str) -> None:
        """The record file replays to the final-state file, a finished game."""
        record, final = self.checked_in(name)
        assert self.ruleset.is_over(final)
        assert replay(record) == final

    def test_play_game_still_plays_the_checked_in_moves(self, name: str) -> None:
        """The same bots, seeds and deal play exactly the checked-in moves."""
        record, final = self.checked_in(name)
        again = self.play(self.game(name)).record
        assert (again.config, again.seed, again.deal) == (record.config, record.seed, record.deal)
        for number, (now, then) in enumerate(zip(again.moves, record.moves, strict=False), 1):
            assert now == then, f"move {number} differs: now {now!r}, checked in {then!r}"
        assert len(again.moves) == len(record.moves)
        assert replay(again) == final

    def test_the_golden_files_describe_the_declared_game(self, name: str) -> None:
        """The files hold the game, config, seed and deal the suite declares."""
        record, final = self.checked_in(name)
        game, rules = self.game(name), self.ruleset
        assert record.game == rules.name
        assert record.config == game.config == rules.config_of(final)
        assert record.seed == game.seed == rules.seed_of(final)
        assert record.deal == game.deal == rules.deal_of(final)

    def test_every_replayed_state_is_valid(self, name: str) -> None:
        """Every state of the recorded game passes the game's ``check_state``."""
        record, _final = self.checked_in(name)
        for state in replay_states(record):
            self.ruleset.check_state(state)

    @pytest.mark.parametrize("hash_seed", HASH_SEEDS)
    def test_the_golden_files_are_byte_identical_under_any_hash_seed(
        self, name: str, hash_seed: str
    ) -> None:
        """A fresh process under each ``PYTHONHASHSEED`` writes the files byte for byte."""
        module = type(self).__module__
        script = (
            f"import importlib; importlib.import_module({module!r})"
            f".{type(self).__qualname__}.main(['--print', {name!r}])"
        )
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, sys.path))
        result = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
            timeout=300,
        )
        expected = "".join(path.read_text(encoding="utf-8") for path in self.paths(name))
        assert result.stdout == expected
