"""Playing one game with bots, and the seeds and seats of a run's games, so that any game
of a run can be played again alone.

>>> from tabletop_rules import dice_poker as dp
>>> from tabletop_rules.bots import RandomBot
>>> game = play_game(dp.RULES, [dp.GreedyBot(), RandomBot(dp.RULES, seed=1)], seed=7)
>>> dp.is_over(game.final), len(game.record.moves) > 90
(True, True)

:func:`~tabletop_rules.simulate.simulate` plays many games this way;
:mod:`tabletop_rules.executors` sends them to workers.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, TypeAlias, TypeVar

import attrs

from .errors import BotSelectionError, ConfigError
from .protocol import CHANCE, Bot, BotFactory, Ruleset, Seat, check_ruleset
from .records import GameRecord
from .rng import Rng, derived_seed, sample_outcome

__all__ = [
    "BotChoice",
    "PlayedGame",
    "bot_factory",
    "bot_names",
    "check_whole_deals",
    "game_seed",
    "play_game",
    "seat_bot",
    "seating",
    "simulated_game",
]

ConfigT = TypeVar("ConfigT")

BotChoice: TypeAlias = str | BotFactory
"""A bot for :func:`~tabletop_rules.simulate.simulate`: a name of the ruleset's ``bots``
(``"random"``, ``"greedy"``…) or a :data:`~tabletop_rules.protocol.BotFactory` of your own."""


@attrs.frozen
class PlayedGame:
    """A finished game: how it started, every move (chance outcomes included) and where it
    ended; :attr:`record` is its replayable :class:`~tabletop_rules.records.GameRecord`.
    """

    ruleset: Ruleset[Any, Any, Any]
    config: Any
    seed: int
    moves: tuple[Any, ...]
    final: Any
    deal: tuple[Any, ...] | None = None
    chance_moves: int = 0
    """How many of ``moves`` are chance outcomes (drawn with ``auto_chance`` off)."""

    @property
    def record(self) -> GameRecord:
        """The game as a record, its moves in notation (formatted on each access)."""
        moves = tuple(map(self.ruleset.format_move, self.moves))
        return GameRecord(self.ruleset.name, self.config, self.seed, moves, self.deal)

    @property
    def score(self) -> tuple[int, ...]:
        """Each seat's final score, ``score(final)``, named as ``Match.score`` is."""
        return tuple(self.ruleset.score(self.final))

    @property
    def scores(self) -> tuple[int, ...]:
        """Deprecated name of :attr:`score`, kept for one release; warns ``DeprecationWarning``."""
        warnings.warn(
            "PlayedGame.scores is deprecated: use PlayedGame.score, as Match.score",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.score

    @property
    def winners(self) -> frozenset[Seat]:
        """The winning seats."""
        return frozenset(self.ruleset.winners(self.final))


def play_game(
    ruleset: Ruleset[Any, Any, Any],
    bots: Sequence[Bot[Any, Any]],
    config: Any = None,
    *,
    seed: int | None = None,
    deal: Any = None,
    chance_seed: int = 0,
) -> PlayedGame:
    """Play one game to the end, seat ``i`` moved by ``bots[i]``, which sees only
    ``view(state, i)``. ``deal`` fixes a deck's order, as in ``new_game``; a game with
    explicit chance draws its outcomes from a generator seeded with ``chance_seed``.
    ``BotSelectionError`` unless there is one bot a seat.
    """
    check_ruleset(ruleset)
    start = state = ruleset.new_game(config, seed=seed, deal=deal)
    players = ruleset.players(ruleset.config_of(state))
    if len(bots) != players:
        raise BotSelectionError(f"{players} seats need {players} bots, got {len(bots)}")
    chance = Rng.from_seed(chance_seed)
    moves: list[Any] = []
    chance_moves = 0
    apply, current_player, is_over = ruleset.apply, ruleset.current_player, ruleset.is_over
    view = ruleset.view
    while not is_over(state):
        player = current_player(state)
        assert player is not None, "only a finished game has no player to move"
        if player == CHANCE:
            move, chance = sample_outcome(ruleset.chance_probabilities(state), chance)
            chance_moves += 1
        else:
            move = bots[player].choose(view(state, player))
        state = apply(state, move)
        moves.append(move)
    config, seed = ruleset.config_of(start), ruleset.seed_of(start)
    deal = ruleset.deal_of(start)
    return PlayedGame(ruleset, config, seed, tuple(moves), state, deal, chance_moves)


def seat_bot(factory: BotFactory, game_seed: int, seat: Seat) -> Bot[Any, Any]:
    """The bot ``factory`` makes for ``seat`` of the game with seed ``game_seed``, seeded
    with ``derived_seed(game_seed, 1 + seat)`` as every front end seats its bots.
    """
    return factory(derived_seed(game_seed, 1 + seat))


def seating(index: int, bots: int, *, rotate: bool = True) -> tuple[int, ...]:
    """Which bot (its position in the bots given) sits at each seat in game ``index``:
    rotated by ``index``, so that over ``bots`` games each bot takes each seat once, or
    with ``rotate`` false in the given order every game.

    >>> seating(0, 3), seating(1, 3), seating(1, 3, rotate=False)
    ((0, 1, 2), (1, 2, 0), (0, 1, 2))
    """
    shift = index % bots if rotate else 0
    return tuple((seat + shift) % bots for seat in range(bots))


def bot_factory(rules: Ruleset[Any, Any, Any], choice: BotChoice) -> BotFactory:
    """The factory ``choice`` names in ``rules.bots``, or ``choice`` itself if no name;
    :class:`~tabletop_rules.errors.BotSelectionError` listing the game's bots for another.
    """
    rules = check_ruleset(rules)
    if not isinstance(choice, str):
        return choice
    try:
        return rules.bots[choice]
    except KeyError:
        known = ", ".join(rules.bots)
        raise BotSelectionError(
            f"{rules.name} has no bot named {choice!r}; its bots: {known}"
        ) from None


def simulated_game(
    rules: Ruleset[ConfigT, Any, Any],
    bots: Sequence[BotChoice],
    index: int,
    *,
    seed: int,
    config: ConfigT | None = None,
    rotate: bool = True,
    duplicate: bool = False,
) -> PlayedGame:
    """Game ``index`` of ``simulate(rules, bots, …)`` with the same arguments played again
    alone, with every move: to look at a game a :class:`~tabletop_rules.errors.SimulationError`
    names. Its seed is ``g = game_seed(seed, index, len(bots), duplicate)``, its chance
    outcomes (``auto_chance`` off) come from ``derived_seed(g, 0)``, and the bots sit as
    :func:`seating` says, each made by :func:`seat_bot`.

    >>> from tabletop_rules import dice_poker as dp
    >>> from tabletop_rules.simulate import simulate
    >>> one = dp.Config(stages=1)
    >>> game = simulated_game(dp.RULES, ["greedy", "random"], 3, seed=1, config=one)
    >>> result = simulate(dp.RULES, ["greedy", "random"], 4, seed=1, config=one)
    >>> game.score == result.games[3].scores, game.seed == result.games[3].seed
    (True, True)
    """
    factories = tuple(bot_factory(rules, choice) for choice in bots)
    played_seed = game_seed(seed, index, len(factories), duplicate)
    seats = seating(index, len(factories), rotate=rotate or duplicate)
    players = [seat_bot(factories[bot], played_seed, seat) for seat, bot in enumerate(seats)]
    chance_seed = derived_seed(played_seed, 0)
    return play_game(rules, players, config, seed=played_seed, chance_seed=chance_seed)


def game_seed(seed: int, index: int, bots: int, duplicate: bool = False) -> int:
    """The seed of game ``index`` of a run with seed ``seed`` and ``bots`` bots,
    ``derived_seed(seed, index)``; with ``duplicate`` its deal's, ``derived_seed(seed,
    index // bots)``, the same for the game of each rotation of the seats.

    >>> [game_seed(1, index, 2, duplicate=True) == derived_seed(1, 0) for index in range(3)]
    [True, True, False]
    """
    return derived_seed(seed, index // bots if duplicate else index)


def _factory_name(factory: BotFactory) -> str:
    """The name of a factory's function or class, or of one it wraps (``Unseeded``, ``partial``)."""
    for named in (factory, getattr(factory, "make", None), getattr(factory, "func", None)):
        name = getattr(named, "__name__", None)
        if isinstance(name, str):
            return name
    return repr(factory)


def bot_names(rules: Ruleset[Any, Any, Any], choices: tuple[BotChoice, ...]) -> tuple[str, ...]:
    """Each bot's name in a run's results, its name or its factory's, repeats numbered;
    :class:`~tabletop_rules.errors.BotSelectionError` for a name the game has no bot for.

    >>> from tabletop_rules import dice_poker as dp
    >>> bot_names(dp.RULES, ("random", "greedy", "random"))
    ('random', 'greedy', 'random #2')
    """
    rules = check_ruleset(rules)
    names: list[str] = []
    for choice in choices:
        factory = bot_factory(rules, choice)
        name = choice if isinstance(choice, str) else _factory_name(factory)
        repeats = sum(1 for earlier in names if earlier.split(" #")[0] == name)
        names.append(f"{name} #{repeats + 1}" if repeats else name)
    return tuple(names)


def check_whole_deals(games: int, players: int, duplicate: bool) -> None:
    """Raise :class:`~tabletop_rules.errors.ConfigError`, before any game is played, when a
    ``duplicate`` run of ``games`` is no whole number of deals of ``players`` games each.
    """
    if duplicate and games % players:
        raise ConfigError(
            f"duplicate play plays each deal once per rotation of the {players} seats: "
            f"games must be a multiple of {players}, got {games}"
        )
