"""Search that sees only what a seat sees: single-observer information-set Monte Carlo
tree search (SO-ISMCTS; Cowling, Powley and Whitehouse, 2012) over any
:class:`~tabletop_rules.protocol.Ruleset`.

Each iteration guesses a full state from the bot's view (``determinize`` and its own
generator) and walks one tree of the seat's information set with it: moves chosen by UCB
among those the guess allows (counting each move's *availability*), chance drawn by its
probabilities, one node added, a rollout, every seat's reward backed up to its moves.

>>> from tabletop_rules import get_ruleset
>>> rules = get_ruleset("account")
>>> state = rules.new_game(seed=4)
>>> bot = SearchBot(rules, seed=1, iterations=50)
>>> move = bot.choose(rules.view(state, 0))
>>> move in rules.legal_moves(state)
True
>>> SearchBot(rules, seed=1, iterations=50).choose(rules.view(state, 0)) == move
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import exp, log, sqrt
from time import perf_counter
from typing import Any, Generic, Literal, TypeAlias, TypeVar, cast, overload

import attrs

from ._messages import short_repr
from ._validation import Validator, flag
from ._validation import choice as literal_choice
from .bots import legal_moves_of
from .errors import ConfigError
from .protocol import CHANCE, Ruleset, check_ruleset
from .rng import Rng, sample_outcome

__all__ = [
    "RolloutPolicy",
    "ScoreShares",
    "SearchBot",
    "SearchNode",
    "SearchOptions",
    "Value",
    "random_rollout",
    "win_shares",
]

MoveT = TypeVar("MoveT")

RolloutPolicy: TypeAlias = Callable[[Any, tuple[Any, ...], Rng], tuple[Any, Rng]]
"""Picks a rollout's move: given a full state (one of the bot's own guesses, never the
real game), its legal moves and a generator, one of those moves and the next generator."""

Value: TypeAlias = Callable[[Any], Sequence[float]]
"""Each seat's reward in ``[0, 1]`` for a state: what a won game is worth, 1, to a loser 0."""


def random_rollout(_state: Any, moves: tuple[Any, ...], rng: Rng) -> tuple[Any, Rng]:
    """A uniformly random legal move: the rollout of a game that supplies none."""
    if not isinstance(rng, Rng):
        raise TypeError(f"a rollout draws from an Rng, got {short_repr(rng)}")
    index, rng = rng.below(len(moves))
    return moves[index], rng


def win_shares(ruleset: Ruleset[Any, Any, Any], state: Any) -> tuple[float, ...]:
    """Each seat's reward for a finished game: the winners share 1 (with none, every seat).

    >>> from tabletop_rules import get_ruleset
    >>> rules = get_ruleset("palace")
    >>> win_shares(rules, rules.new_game(seed=1))
    (0.5, 0.5)
    """
    ruleset = check_ruleset(ruleset)
    players = ruleset.players(ruleset.config_of(state))
    winners = ruleset.winners(state) or range(players)
    return tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(players))


@attrs.frozen
class ScoreShares:
    """A :data:`Value` from the scores alone, for any game: a softmax of each seat's
    score over ``scale`` (two seats ``scale`` points apart get about 0.73 and 0.27).

    >>> from tabletop_rules import get_ruleset
    >>> rules = get_ruleset("account")
    >>> ScoreShares(rules, 100.0)(rules.new_game(seed=1))
    (0.5, 0.5)
    """

    ruleset: Ruleset[Any, Any, Any]
    scale: float

    def __call__(self, state: Any) -> tuple[float, ...]:
        """Each seat's share of the softmax of the scores of ``state``."""
        scores = self.ruleset.score(state)
        top = max(scores)
        weights = [exp((score - top) / self.scale) for score in scores]
        total = sum(weights)
        return tuple(weight / total for weight in weights)


class SearchNode:
    """A node of the information-set tree, reached by a move of ``seat`` (``None`` at the
    root): its ``visits``, ``avails`` (how often its move was open when a sibling was
    chosen), the ``reward`` ``seat`` got through it, and ``children`` by action number.
    """

    __slots__ = ("avails", "children", "reward", "seat", "visits")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.children: dict[int, SearchNode] = {}
        self.visits = 0
        self.avails = 1
        self.reward = 0.0


_MOST_DEALT_AT_ONCE = 64
"""The most guesses a search with a time budget deals between two looks at the clock."""


def _option(what: str, takes: Callable[[Any], bool]) -> Validator:
    """A validator: ``ConfigError`` naming the option and ``what`` it is unless ``takes(value)``."""

    def check(_options: Any, field: attrs.Attribute[Any], value: Any) -> None:
        if not takes(value):
            raise ConfigError(f"{field.name} is {what}, got {short_repr(value)}")

    return check


def _whole_or_none(low: int) -> Validator:
    """``None``, or a plain ``int`` from ``low``."""
    return _option(
        f"a whole number from {low} or None", lambda v: v is None or (type(v) is int and v >= low)
    )


_FROM_ZERO = _option("a number from 0", lambda v: type(v) in (int, float) and v >= 0)  # nan: no
_POSITIVE_OR_NONE = _option(
    "a positive number or None", lambda v: v is None or (type(v) in (int, float) and v > 0)
)


def _function_or_none(what: str) -> Validator:
    """``None``, or a callable (``what`` it should be)."""
    return _option(what, lambda v: v is None or callable(v))


@attrs.frozen(kw_only=True)
class SearchOptions:
    """How a :class:`SearchBot` searches, as one frozen value validated when it is built
    (a bad option raises ``ConfigError`` naming it), so one value can seat many bots.

    >>> SearchOptions(iterations=0)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: iterations is a whole number from 1 or None, got 0
    >>> SearchOptions(guesses=16, paired=True).iterations
    1000

    Attributes:
        iterations: Iterations per move (each one guess, one path, one rollout).
        seconds: A time budget per move, alone or with ``iterations`` (whichever ends
            first); the moves then depend on the machine's speed.
        exploration: The UCB constant; rewards lie in ``[0, 1]``.
        rollout: Picks each rollout move from the bot's own guessed state
            (:data:`RolloutPolicy`; ``None``: :func:`random_rollout`).
        value: Each seat's reward (:data:`Value`) where ``rollout_moves`` stops a rollout.
        rollout_moves: Moves before a rollout asks ``value``; ``None``: to the end, scored
            by :func:`win_shares`.
        guesses: States dealt from the view per move by ``determinize_each`` (which checks
            the view once) and taken in turn; ``None``: each iteration deals its own.
        others: A model of the other seats (:data:`RolloutPolicy`) that plays their moves,
            so that the tree holds only the searching seat's moves and chance.
        paired: Each root move's n-th visit plays the n-th guess (common random numbers);
            needs ``guesses``.
        choice: ``"visits"``, the most visited root move (the robust default), or
            ``"mean"``, the best mean reward among those visited.
        baseline: A bot's ``choose`` whose move is kept unless the search's move looks
            more than ``margin`` better in mean reward.
        margin: That lead; needs ``baseline``.
        name: How the bot shows itself (its ``repr``).

    """

    iterations: int | None = attrs.field(default=1000, validator=_whole_or_none(1))
    seconds: float | None = attrs.field(default=None, validator=_POSITIVE_OR_NONE)
    exploration: float = attrs.field(default=0.7, validator=_FROM_ZERO)
    rollout: RolloutPolicy | None = attrs.field(
        default=None, validator=_function_or_none("a rollout policy")
    )
    value: Value | None = attrs.field(
        default=None, validator=_function_or_none("a function of a state (each seat's reward)")
    )
    rollout_moves: int | None = attrs.field(default=None, validator=_whole_or_none(0))
    guesses: int | None = attrs.field(default=None, validator=_whole_or_none(1))
    others: RolloutPolicy | None = attrs.field(
        default=None, validator=_function_or_none("a rollout policy")
    )
    paired: bool = attrs.field(default=False, validator=flag())
    choice: Literal["visits", "mean"] = attrs.field(
        default="visits", validator=literal_choice(Literal["visits", "mean"])
    )
    baseline: Callable[[Any], Any] | None = attrs.field(
        default=None, validator=_function_or_none("a bot's choose (view to move)")
    )
    margin: float = attrs.field(default=0.0, validator=_FROM_ZERO)
    name: str = "SearchBot"

    def __attrs_post_init__(self) -> None:
        """The options that need another: a budget, and what each needs beside it."""
        if self.iterations is None and self.seconds is None:
            raise ConfigError("a search needs a budget: iterations, seconds or both")
        if self.rollout_moves is not None and self.value is None:
            raise ConfigError("rollout_moves needs a value to score where rollouts stop")
        if self.margin and self.baseline is None:
            raise ConfigError("margin needs a baseline whose move it keeps")
        if self.paired and self.guesses is None:
            raise ConfigError("paired needs guesses, the deals its moves share")


OptionT = TypeVar("OptionT")


class _Option(Generic[OptionT]):
    """A :class:`SearchBot`'s option as its attribute; assigned, new validated options."""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self._field = name

    @overload
    def __get__(self, bot: None, owner: type[Any]) -> _Option[OptionT]: ...
    @overload
    def __get__(self, bot: SearchBot[Any], owner: type[Any]) -> OptionT: ...
    def __get__(self, bot: SearchBot[Any] | None, owner: type[Any]) -> Any:
        return self if bot is None else getattr(bot.options, self._field)

    def __set__(self, bot: SearchBot[Any], value: OptionT) -> None:
        changed: dict[str, Any] = {self._field: value}
        bot.options = attrs.evolve(bot.options, **changed)


class SearchBot(Generic[MoveT]):
    """SO-ISMCTS for the seat of the view it is handed; any game, no game's own code.

    ``seed`` seeds the bot's own generator, which deals every guess and draws every random
    choice: the same seed and views give the same moves (with ``iterations`` and no
    ``seconds``). ``options``, a :class:`SearchOptions`, or its fields as keywords
    (``SearchBot(rules, iterations=50)``; not both, ``TypeError``), are also the bot's
    attributes (``bot.iterations``): assigning one gives the bot new options, validated
    alike. The bot keeps its generator between moves, so it is not a value.
    """

    iterations: _Option[int | None] = _Option()
    seconds: _Option[float | None] = _Option()
    exploration: _Option[float] = _Option()
    rollout: _Option[RolloutPolicy | None] = _Option()
    value: _Option[Value | None] = _Option()
    rollout_moves: _Option[int | None] = _Option()
    guesses: _Option[int | None] = _Option()
    others: _Option[RolloutPolicy | None] = _Option()
    paired: _Option[bool] = _Option()
    choice: _Option[Literal["visits", "mean"]] = _Option()
    baseline: _Option[Callable[[Any], Any] | None] = _Option()
    margin: _Option[float] = _Option()
    name: _Option[str] = _Option()

    def __init__(
        self,
        ruleset: Ruleset[Any, Any, MoveT],
        seed: int = 0,
        *,
        options: SearchOptions | None = None,
        **keywords: Any,
    ) -> None:
        self.ruleset = check_ruleset(ruleset)
        if options is None:
            options = SearchOptions(**keywords)
        elif keywords:
            raise TypeError(
                f"SearchBot takes options or its fields as keywords, not both: got options "
                f"and {', '.join(sorted(keywords))}"
            )
        self.options = options
        self._seat: int | None = None
        self._rng = Rng.from_seed(seed)
        self._codes: dict[int, tuple[Any, int]] = {}
        self._deal_each = ruleset.determinize_each

    @property
    def options(self) -> SearchOptions:
        """How the bot searches; assigning new options makes the next move use them."""
        return self._options

    @options.setter
    def options(self, options: SearchOptions) -> None:
        if type(options) is not SearchOptions:
            raise TypeError(f"options must be a SearchOptions, got {short_repr(options)}")
        self._options = options
        # What every iteration reads, as plain attributes rather than through descriptors.
        self._exploration = float(options.exploration)
        self._policy = random_rollout if options.rollout is None else options.rollout
        self._value = options.value
        self._rollout_moves = options.rollout_moves
        self._others = options.others

    def __repr__(self) -> str:
        options = self.options
        budget = ", ".join(
            f"{name}={getattr(options, name)}"
            for name in ("iterations", "seconds")
            if getattr(options, name) is not None
        )
        return f"{options.name}({self.ruleset.name!r}, {budget})"

    def choose(self, view: Any) -> MoveT:
        """The move the search visited most or with the best mean reward (``choice``; the
        first among equals), or the baseline's unless that looks ``margin`` better.
        """
        moves = legal_moves_of(view)
        if len(moves) == 1:
            return cast(MoveT, moves[0])
        children = self.search(view).children
        encode, options = self.ruleset.encode, self.options

        def mean(move: Any) -> float:
            node = children.get(encode(move))
            return node.reward / node.visits if node is not None and node.visits else -1.0

        def visits(move: Any) -> int:
            node = children.get(encode(move))
            return 0 if node is None else node.visits

        best = max(moves, key=mean if options.choice == "mean" else visits)
        if options.baseline is None:
            return cast(MoveT, best)
        kept = options.baseline(view)
        if not visits(kept) or mean(best) - mean(kept) > options.margin:
            return cast(MoveT, best)
        return cast(MoveT, kept)

    def search(self, view: Any) -> SearchNode:
        """The tree of the budget's iterations from ``view``, children keyed by action number
        (``TypeError`` for no view, :class:`~tabletop_rules.errors.IllegalMoveError` where
        its seat has no move, as :meth:`choose`).
        """
        legal_moves_of(view)
        determinize = self.ruleset.determinize
        iterate = self._iterate
        root = SearchNode(None)
        self._seat = view.seat
        rng = self._rng
        options = self.options
        count, seconds, guesses_asked = options.iterations, options.seconds, options.guesses
        deadline = None if seconds is None else perf_counter() + seconds
        self._codes.clear()
        seeds: list[Rng] = []
        if guesses_asked is not None:
            for _guess in range(guesses_asked if count is None else min(guesses_asked, count)):
                seed, rng = rng.next_u64()
                seeds.append(Rng(seed))
        deal_each = self._deal_each
        dealt: list[Any] = list(deal_each(view, seeds)) if deadline is None and seeds else []

        def guess(number: int) -> Any:
            """The ``number``-th guess (modulo their number): with a time budget dealt when
            first asked for, in doubling blocks, so that the clock is read between them.
            """
            at = number % len(seeds)
            while len(dealt) <= at:
                block = max(1, min(len(dealt), _MOST_DEALT_AT_ONCE))
                dealt.extend(deal_each(view, seeds[len(dealt) : len(dealt) + block]))
            return dealt[at]

        done = 0
        moves = legal_moves_of(view) if options.paired else ()
        while count is None or done < count:
            if deadline is not None and done and perf_counter() >= deadline:
                break
            first = None
            if not seeds:
                seed, rng = rng.next_u64()
                state = determinize(view, Rng(seed))
            elif moves:
                first, rng = self._select(root, moves, rng, self._seat)
                state = guess(root.children[first[1]].visits)
            else:
                state = guess(done)
            rng = iterate(root, state, rng, first, moves)
            done += 1
        self._rng = rng
        return root

    def _select(
        self, node: SearchNode, moves: Sequence[Any], rng: Rng, seat: int | None
    ) -> tuple[tuple[int, int, bool], Rng]:
        """The index, action number and newness of the move to try at ``node``: an untried
        one at random (its child added), else the best by UCB, counting availabilities.
        """
        known = self._codes  # each move's action number, by the move (kept alive by it)
        encode, children = self.ruleset.encode, node.children
        codes = []
        for move in moves:
            entry = known.get(id(move))
            if entry is None:
                entry = known[id(move)] = (move, encode(move))
            codes.append(entry[1])
        untried = [index for index, code in enumerate(codes) if code not in children]
        if untried:
            pick, rng = rng.below(len(untried))
            index = untried[pick]
            children[codes[index]] = SearchNode(seat)
            return (index, codes[index], True), rng
        exploration = self._exploration
        best = -1.0
        index = 0
        for at, code in enumerate(codes):
            option = children[code]
            score = option.reward / option.visits + exploration * sqrt(
                log(option.avails) / option.visits
            )
            option.avails += 1
            if score > best:
                best, index = score, at
        return (index, codes[index], False), rng

    def _iterate(
        self,
        root: SearchNode,
        state: Any,
        rng: Rng,
        first: tuple[int, int, bool] | None = None,
        root_moves: Sequence[Any] = (),
    ) -> Rng:
        """One iteration from ``state``: select (from ``first`` if chosen), expand, roll out."""
        rules = self.ruleset
        current_player, legal_moves = rules.current_player, rules.legal_moves
        apply, encode = rules.apply, rules.encode
        others, seat = self._others, self._seat
        node, path, new = root, [root], False
        if first is not None:
            index, code, new = first
            node = root.children[code]
            path.append(node)
            state = apply(state, root_moves[index])
        player = current_player(state)
        while not new and player is not None:
            moves = legal_moves(state)
            child: SearchNode | None
            if player == CHANCE:
                move, rng = sample_outcome(rules.chance_probabilities(state), rng)
                code = encode(move)
                child = node.children.get(code)
                if child is None:
                    child = node.children[code] = SearchNode(CHANCE)
            elif others is not None and player != seat:
                move, rng = others(state, moves, rng)
                child = None  # the model's move: no node of its own
            else:
                (index, code, new), rng = self._select(node, moves, rng, player)
                move, child = moves[index], node.children[code]
            state = apply(state, move)
            if child is not None:
                node = child
                path.append(child)
            player = current_player(state)
        rewards, rng = self._rollout(state, rng)
        for visited in path:  # every node of the path gets its seat's reward
            visited.visits += 1
            if visited.seat is not None and visited.seat >= 0:
                visited.reward += rewards[visited.seat]
        return rng

    def _rollout(self, state: Any, rng: Rng) -> tuple[Sequence[float], Rng]:
        """Each seat's reward at the rollout's end, or ``value``'s where it is stopped."""
        rules = self.ruleset
        current_player, legal_moves, apply = rules.current_player, rules.legal_moves, rules.apply
        policy = self._policy
        left = -1 if self._rollout_moves is None else self._rollout_moves
        player = current_player(state)
        while player is not None:
            if not left:
                assert self._value is not None, "rollout_moves comes with a value"
                return self._value(state), rng
            moves = legal_moves(state)
            if player == CHANCE:
                move, rng = sample_outcome(rules.chance_probabilities(state), rng)
            else:
                move, rng = policy(state, moves, rng)
            state = apply(state, move)
            player = current_player(state)
            left -= 1
        return win_shares(rules, state), rng
