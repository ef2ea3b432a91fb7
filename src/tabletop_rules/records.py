"""Game records: ``{game, version, config, seed, moves}``, enough to replay a game exactly.

Moves are stored in each game's text notation, like a chess game in PGN, so a record reads
as well as it replays.

>>> from tabletop_rules import dice_poker as dp
>>> state = dp.new_game(seed=9)
>>> record = GameRecord.start(dp.RULES, state)
>>> for text in ("roll", "write chance"):
...     record = record.play(text)
>>> record.moves
('roll', 'write chance')
>>> final = replay(GameRecord.from_json(record.to_json()))
>>> final == dp.apply(dp.apply(state, dp.Roll()), dp.Write(dp.Box.CHANCE))
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import attrs

from .errors import InvalidStateError, TabletopError
from .protocol import Ruleset, get_ruleset
from .rng import is_valid_state
from .serialize import FORMAT_VERSION, from_data, to_data

__all__ = ["GameRecord", "replay", "replay_states"]


@attrs.frozen
class GameRecord:
    """A game as its setup and moves. ``moves`` are in the game's notation.

    Attributes:
        game: The registry name of the game, e.g. ``"dice-poker"``.
        config: The game's ``Config``.
        seed: The seed the game started from.
        moves: Every move in order, chance outcomes included, as notation text.

    """

    game: str
    config: Any
    seed: int
    moves: tuple[str, ...] = ()

    @classmethod
    def start(cls, ruleset: Ruleset[Any, Any, Any], state: Any) -> GameRecord:
        """An empty record of the game that ``state``, a new game, begins.

        ``ValueError`` if ``state`` is not the new game of its config and seed: the moves
        that led to it would be missing from the record.
        """
        if ruleset.new_game(state.config, seed=state.seed) != state:
            raise ValueError("GameRecord.start needs a new game, not one already under way")
        return cls(ruleset.name, state.config, state.seed)

    @property
    def ruleset(self) -> Ruleset[Any, Any, Any]:
        """The game's ruleset."""
        return get_ruleset(self.game)

    def play(self, move: Any) -> GameRecord:
        """This record with ``move`` (a move object or its notation) appended; not checked."""
        text = move if isinstance(move, str) else self.ruleset.format_move(move)
        return attrs.evolve(self, moves=(*self.moves, text))

    def to_json(self) -> str:
        """The record as JSON: ``{"game", "version", "config", "seed", "moves"}``."""
        return json.dumps(
            {
                "game": self.game,
                "version": FORMAT_VERSION,
                "config": to_data(self.config),
                "seed": self.seed,
                "moves": list(self.moves),
            }
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """The record :meth:`to_json` wrote; ``InvalidStateError`` if it is malformed."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise InvalidStateError(f"not JSON: {error}") from error
        if (
            not isinstance(data, dict)
            or {"game", "version", "config", "seed", "moves"} - data.keys()
        ):
            raise InvalidStateError("a game record has game, version, config, seed and moves")
        if type(data["version"]) is not int or data["version"] != FORMAT_VERSION:
            raise InvalidStateError(f"record version {data['version']!r} is not {FORMAT_VERSION}")
        try:
            ruleset = get_ruleset(data["game"])
        except (KeyError, TypeError) as error:
            raise InvalidStateError(f"unknown game {data['game']!r}") from error
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
            raise InvalidStateError("moves must be a list of move texts")
        seed = data["seed"]
        if not is_valid_state(seed):
            raise InvalidStateError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        config = from_data(data["config"], ruleset.config_type)
        return cls(ruleset.name, config, seed, tuple(moves))


def replay_states(record: GameRecord) -> Iterator[Any]:
    """Every state of the recorded game, the new game first.

    Raises :class:`~tabletop_rules.errors.InvalidStateError` naming the first move that
    cannot be read or played.
    """
    ruleset = record.ruleset
    try:
        state = ruleset.new_game(record.config, seed=record.seed)
    except TabletopError as error:
        raise InvalidStateError(f"the record cannot start a game: {error}") from error
    yield state
    for number, text in enumerate(record.moves, 1):
        try:
            move = ruleset.parse_move(state, text)
            state = ruleset.apply(state, move)
        except TabletopError as error:
            raise InvalidStateError(
                f"move {number} ({text!r}) cannot be played: {error}"
            ) from error
        yield state


def replay(record: GameRecord) -> Any:
    """The state the recorded game reached."""
    state = None
    for state in replay_states(record):  # noqa: B007
        pass
    return state
