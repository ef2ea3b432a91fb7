"""Playing whole games with bots, reproducibly: :func:`play_game` plays one to the end.

>>> from tabletop_rules import dice_poker as dp
>>> from tabletop_rules.bots import RandomBot
>>> game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=1)], seed=7)
>>> dp.is_over(game.final), len(game.record.moves) > 90
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import lcm
from typing import Any

import attrs

from .protocol import CHANCE, Bot, Ruleset, Seat
from .records import GameRecord
from .rng import Rng

__all__ = ["PlayedGame", "play_game", "sample_outcome"]


@attrs.frozen
class PlayedGame:
    """A finished game: how it started, every move (chance outcomes included) and where
    it ended. :attr:`record` writes it down as a replayable
    :class:`~tabletop_rules.records.GameRecord`.
    """

    ruleset: Ruleset[Any, Any, Any]
    config: Any
    seed: int
    moves: tuple[Any, ...]
    final: Any
    deal: tuple[Any, ...] | None = None

    @property
    def record(self) -> GameRecord:
        """The game as a record, its moves in notation (formatted on each access)."""
        moves = tuple(map(self.ruleset.format_move, self.moves))
        return GameRecord(self.ruleset.name, self.config, self.seed, moves, self.deal)

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's final score."""
        return tuple(self.ruleset.score(self.final))

    @property
    def winners(self) -> frozenset[Seat]:
        """The winning seats."""
        return frozenset(self.ruleset.winners(self.final))


def sample_outcome(probabilities: Mapping[Any, Fraction], rng: Rng) -> tuple[Any, Rng]:
    """One chance outcome drawn exactly by its probability, and the next generator."""
    denominator = lcm(*(chance.denominator for chance in probabilities.values()))
    if denominator > 1 << 64:
        raise ValueError("chance probabilities finer than 2**-64 cannot be sampled exactly")
    pick, rng = rng.below(denominator)
    for outcome, chance in probabilities.items():
        pick -= chance.numerator * (denominator // chance.denominator)
        if pick < 0:
            return outcome, rng
    raise ValueError("chance probabilities sum to less than 1")


def play_game(
    ruleset: Ruleset[Any, Any, Any],
    bots: Sequence[Bot[Any, Any]],
    config: Any = None,
    *,
    seed: int | None = None,
    deal: Any = None,
    chance_seed: int = 0,
) -> PlayedGame:
    """Play one game to the end, seat ``i`` moved by ``bots[i]``, which sees only its
    view of the game, ``view(state, i)``.

    ``deal`` (for a game with a deck) fixes the deck order, as in ``new_game``. With
    ``auto_chance=False`` the chance outcomes are drawn from a generator seeded with
    ``chance_seed``, so the game is still reproducible.
    """
    start = state = ruleset.new_game(config, seed=seed, deal=deal)
    players = ruleset.players(ruleset.config_of(state))
    if len(bots) != players:
        raise ValueError(f"{players} seats need {players} bots")
    chance = Rng.from_seed(chance_seed)
    moves: list[Any] = []
    apply, current_player, is_over = ruleset.apply, ruleset.current_player, ruleset.is_over
    view = ruleset.view
    while not is_over(state):
        player = current_player(state)
        assert player is not None, "only a finished game has no player to move"
        if player == CHANCE:
            move, chance = sample_outcome(ruleset.chance_probabilities(state), chance)
        else:
            move = bots[player].choose(view(state, player))
        state = apply(state, move)
        moves.append(move)
    config, seed = ruleset.config_of(start), ruleset.seed_of(start)
    return PlayedGame(ruleset, config, seed, tuple(moves), state, ruleset.deal_of(start))
