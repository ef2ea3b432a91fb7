"""The frame every batched kernel shares: the :class:`~tabletop_rules.batch.Games` record,
the :class:`~tabletop_rules.batch.Engine` that checks what comes in, and the registry
:func:`~tabletop_rules.batch.engine` finds a kernel in.

A kernel subclasses ``Engine`` and writes ``_reset``, ``_step`` (or ``_stepped``, the step
that may also deal the games it ends again), ``_observe`` and ``_state``; the checks at the
entry (shapes, dtypes, sizes, legality) are written here once.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

import attrs
import numpy as np
from numpy.typing import NDArray

from .._messages import short_repr
from ..errors import (
    ConfigError,
    GamePluginError,
    IllegalMoveError,
    InvalidStateError,
    TabletopError,
    UnknownGameError,
)
from ..protocol import Ruleset, game_name, get_ruleset
from ._inputs import (
    beyond_error,
    check_draws_in_range,
    check_one_action_a_list,
    checked_draws,
    checked_listed,
    checked_mask,
)

__all__ = [
    "BACKENDS",
    "MAX_SIZE",
    "NOBODY",
    "Engine",
    "Games",
    "engine",
    "engines",
    "kernel",
    "nth_legal",
    "random_actions",
    "register",
]

MAX_SIZE = 1 << 20
"""The most games one batch holds."""

NOBODY = -2
"""``current_player`` of a game that is over (the rules say ``None``)."""

_Read = TypeVar("_Read", bound=Callable[..., Any])


_Optional = TypeVar("_Optional", NDArray[Any], NDArray[Any] | None)


def _frozen(value: _Optional) -> _Optional:
    if value is not None:
        value.flags.writeable = False
    return value


def _copied(value: object) -> NDArray[Any]:
    """A read-only C-ordered copy of ``value``: the caller's own array stays the caller's."""
    return _frozen(np.array(value, copy=True, order="C"))


def _copied_arrays(arrays: Mapping[str, object]) -> Mapping[str, NDArray[Any]]:
    if not isinstance(arrays, Mapping):
        raise TypeError(f"a Games record's data are arrays by name, got {short_repr(arrays)}")
    return MappingProxyType({name: _copied(value) for name, value in arrays.items()})


def _copied_or_none(value: object) -> NDArray[Any] | None:
    return None if value is None else _copied(value)


Actions = NDArray[np.int64]
"""A step's action of each game, as a kernel is handed them."""
Flags = NDArray[np.bool_]
"""A flag a game: which games play, are over, are dealt again."""
Seeds = NDArray[np.uint64]
"""A seed a game."""

EngineKey = tuple[str, Any]
"""What a record names its engine by: the game's ruleset name and the engine's config."""


@attrs.frozen(eq=False, kw_only=True)
class Games:
    """A batch of games at one moment: arrays with one row per game, read-only.

    Attributes:
        current_player: ``(size,)`` the seat to move, :data:`~tabletop_rules.batch.frame.NOBODY`
            once over.
        legal_mask: ``(size, num_actions)`` the rules' ``legal_mask`` of each game; a
            kernel that gives ``legal_actions`` may leave it to be made on first read.
        scores: ``(size, players)`` the rules' ``score`` of each game.
        over: ``(size,)`` whether each game is over.
        data: The kernel's own arrays (each with the batch axis first), by name.
        legal_actions: ``(size, k)`` each game's legal action numbers ascending, then -1
            (``None`` where the kernel gives the mask alone): what
            :func:`random_actions` and ``step``'s check read when a mask is wide and its
            actions few (palace's 2,762).
        num_actions: The mask's width, given with ``legal_actions`` and no mask.
        made_by: The game and config of the engine that made the record
            (``Engine.key``), set by the engine: any other engine refuses the record.

    A record built here holds read-only copies of the arrays given (the caller's stay
    writable); its lists of legal actions are checked against ``num_actions``, its arrays
    against one another's batch axis. A record pickles.

    """

    current_player: NDArray[np.int64] = attrs.field(converter=_copied)
    scores: NDArray[np.int64] = attrs.field(converter=_copied)
    over: NDArray[np.bool_] = attrs.field(converter=_copied)
    data: Mapping[str, NDArray[Any]] = attrs.field(converter=_copied_arrays)
    legal_actions: NDArray[np.int16] | None = attrs.field(default=None, converter=_copied_or_none)
    num_actions: int | None = None
    _legal_mask: NDArray[np.bool_] | None = attrs.field(
        default=None, alias="legal_mask", converter=_copied_or_none
    )
    made_by: EngineKey | None = None

    def __attrs_post_init__(self) -> None:
        if self._legal_mask is None and (self.legal_actions is None or self.num_actions is None):
            raise TypeError("a Games record takes a legal_mask, or legal_actions and num_actions")
        if self.made_by is not None and (
            type(self.made_by) is not tuple
            or len(self.made_by) != 2
            or type(self.made_by[0]) is not str
        ):
            raise TypeError(f"made_by is (game, config), got {short_repr(self.made_by)}")
        size = self.over.shape[0] if self.over.ndim else -1
        arrays = {"current_player": self.current_player, "scores": self.scores, **self.data}
        if self._legal_mask is not None:
            arrays["legal_mask"] = self._legal_mask
        if self.legal_actions is not None:
            arrays["legal_actions"] = self.legal_actions
        for name, value in arrays.items():
            if value.ndim == 0 or value.shape[0] != size:
                raise InvalidStateError(
                    f"a Games record's arrays have one row a game ({size}); "
                    f"{name} has shape {value.shape}"
                )
        if self.legal_actions is not None:
            self._check_lists()

    def _check_lists(self) -> None:
        """Each list of legal actions ascending within 0 to ``num_actions - 1``, then -1."""
        listed, width = self.legal_actions, self.num_actions
        assert listed is not None
        if type(width) is not int or width < 1:
            raise TypeError(f"num_actions is a whole number 1 or more, got {short_repr(width)}")
        if listed.dtype.kind != "i" or listed.ndim != 2 or not listed.shape[1]:
            raise InvalidStateError(
                "legal_actions are signed integers of shape (games, k), k one at least; got "
                f"{listed.dtype} of shape {listed.shape}"
            )
        held = listed >= 0
        wrong = (listed < -1) | (listed >= width)
        wrong[:, 1:] |= held[:, 1:] & ~held[:, :-1]  # an action after the -1s
        wrong[:, 1:] |= held[:, 1:] & (listed[:, 1:] <= listed[:, :-1])  # not ascending
        if wrong.any():
            game = int(np.flatnonzero(wrong.any(axis=1))[0])
            raise InvalidStateError(
                f"game {game}: legal_actions {listed[game].tolist()} are not its actions "
                f"(0 to {width - 1}) ascending, then -1"
            )

    @classmethod
    def _made(cls, **fields: Any) -> Games:
        """A record of a kernel's new arrays, frozen, not copied nor checked (the entry is)."""
        games: Games = object.__new__(cls)
        put = functools.partial(object.__setattr__, games)
        for name in ("current_player", "scores", "over"):
            put(name, _frozen(fields[name]))
        put("data", MappingProxyType({name: _frozen(a) for name, a in fields["data"].items()}))
        put("legal_actions", _frozen(fields.get("legal_actions")))
        put("num_actions", fields.get("num_actions"))
        put("_legal_mask", _frozen(fields.get("legal_mask")))
        put("made_by", fields.get("made_by"))
        return games

    def __reduce__(self) -> tuple[Callable[..., Games], tuple[()]]:
        """Pickled as its fields; unpickled through the constructor, which copies them."""
        fields = {str(field.alias): getattr(self, field.name) for field in attrs.fields(Games)}
        return functools.partial(Games, **{**fields, "data": dict(self.data)}), ()

    @property
    def legal_mask(self) -> NDArray[np.bool_]:
        """``(size, num_actions)``: each game's ``legal_mask`` (from the lists on first read)."""
        mask = self._legal_mask
        if mask is None:
            assert self.legal_actions is not None
            assert self.num_actions is not None
            mask = _fastest(_listed_mask)(self.legal_actions, self.num_actions)
            object.__setattr__(self, "_legal_mask", _frozen(mask))  # a cache: the same value
        return mask

    @property
    def size(self) -> int:
        """The number of games."""
        return int(self.over.shape[0])


class Engine:
    """A batched kernel of one game under one config: ``size`` games per call.

    >>> import numpy as np
    >>> from tabletop_rules import batch, dice_poker
    >>> engine = batch.engine("dice-poker", dice_poker.Config(), size=3)
    >>> games = engine.reset(np.array([1, 2, 3], dtype=np.uint64))
    >>> games.current_player.tolist(), games.over.tolist()
    ([0, 0, 0], [False, False, False])
    >>> engine.state(games, 1) == dice_poker.new_game(dice_poker.Config(), seed=2)
    True
    """

    game: ClassVar[str]
    """The ruleset name of the game the kernel plays."""

    ruleset: ClassVar[Ruleset[Any, Any, Any] | None] = None
    """The game's ruleset itself, for a game :func:`~tabletop_rules.get_ruleset` may not
    find by name (one of another package, not installed); ``None``: found by :attr:`game`."""

    key: EngineKey
    """What its records name it by (``Games.made_by``): the game's name and the config,
    whose engines share records whatever their backend."""

    def __init__(self, config: Any, size: int) -> None:
        if getattr(type(self), "game", None) is None:
            raise TypeError(
                "Engine is the base of a game's kernel: batch.engine(name, config) makes one"
            )
        self.rules: Ruleset[Any, Any, Any] = self.ruleset or get_ruleset(self.game)
        if type(config) is not self.rules.config_type:
            raise ConfigError(
                f"a {self.rules.title} batch takes a {self.rules.config_type.__name__}, "
                f"got {short_repr(config)}"
            )
        if type(size) is not int or not 1 <= size <= MAX_SIZE:
            raise ConfigError(
                f"size must be a whole number 1 to {MAX_SIZE}, got {short_repr(size)}"
            )
        self.config = config
        self.size = size
        self.key: EngineKey = (self.game, config)
        self.num_actions = self.rules.num_actions(config)
        self.players = self.rules.players(config)
        self._record_layout: dict[str, tuple[np.dtype[Any], tuple[int, ...]]] | None = None
        self._row_starts = np.arange(size, dtype=np.int64) * self.num_actions
        self._prepare()

    def __repr__(self) -> str:
        return f"batch.engine({self.game!r}, {self.config!r}, size={self.size})"

    def reset(self, seeds: NDArray[np.uint64]) -> Games:
        """New games, game ``i`` dealt as ``new_game(config, seed=seeds[i])`` deals it."""
        return self._own(self._reset(self._checked_seeds(seeds)))

    def step(
        self,
        games: Games,
        actions: NDArray[np.integer[Any]],
        *,
        reset: NDArray[np.uint64] | None = None,
    ) -> Games:
        """Every game not over plays its action (``decode``'s numbering); an over game
        ignores its own. With ``reset`` (seeds), a game over after the step starts again
        from its seed there. ``IllegalMoveError`` naming the first game whose action is
        not legal; nothing is played then.
        """
        self._check_games(games)
        actions = self._checked_actions(actions)
        if games.legal_actions is not None:
            legal = _fastest(_lists_hold)(games.legal_actions, actions)
        else:  # a flat take costs half a two-array index
            legal = games.legal_mask.reshape(-1).take(self._row_starts + actions)
        legal |= games.over
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            text = self.rules.action_text(self.config, int(actions[i]))
            raise IllegalMoveError(f"game {i}: action {int(actions[i])} ('{text}') is not legal")
        seeds = None if reset is None else self._checked_seeds(reset)
        played: NDArray[np.int64] = np.where(games.over, 0, actions)
        with _kernel_errors():
            return self._own(self._stepped(games, played, ~games.over, seeds))

    def restart(
        self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_] | None = None
    ) -> Games:
        """``games`` with those ``where`` (by default those over) dealt again, game ``i``
        from ``seeds[i]``; the others as they were.
        """
        self._check_games(games)
        seeds = self._checked_seeds(seeds)
        if where is None:
            where = games.over
        elif not isinstance(where, np.ndarray) or where.dtype != np.bool_:
            raise TypeError(f"where is a NumPy array of bool, got {short_repr(where)}")
        elif where.shape != (self.size,):
            raise ValueError(f"where has shape ({self.size},), got {where.shape}")
        if not where.any():
            return games
        with _kernel_errors():
            return self._own(self._restart(games, seeds, where.copy()))

    def observe(self, games: Games) -> NDArray[np.float32]:
        """``(size, observation size)``: the rules' ``observe`` of each game's view for its
        seat to move (a spectator's view once over).
        """
        self._check_games(games)
        with _kernel_errors():
            return self._observe(games)

    def winners(self, games: Games) -> NDArray[np.bool_]:
        """``(size, players)``: the rules' ``winners`` of each game, seat by seat."""
        self._check_games(games)
        with _kernel_errors():
            return self._winners(games)

    def state(self, games: Games, i: int | np.integer[Any]) -> Any:
        """Game ``i`` as the rules engine's ``State``: equal, by ``==``, to the state the
        same moves reach from the same seed. Never a state the rules' ``check_state``
        refuses: :class:`~tabletop_rules.errors.InvalidStateError` for a record whose game
        ``i`` is none.
        """
        self._check_games(games)
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.size:
            raise IndexError(f"a game index is 0 to {self.size - 1}, got {short_repr(i)}")
        state = self._read_state(games, int(i))
        self.rules.check_state(state)
        return state

    def _read_state(self, games: Games, i: int) -> Any:
        """Game ``i`` as the rules' ``State``, unchecked (the lock-step kit compares it)."""
        with _kernel_errors():
            return self._state(games, i)

    # --- what a kernel writes -------------------------------------------------------

    def _prepare(self) -> None:
        """Tables for the config, made once; ``ConfigError`` naming a field not taken yet."""

    def _check_record(self, games: Games) -> None:
        """``InvalidStateError`` unless the arrays keep the invariants the kernel indexes by
        (the frame has checked the engine, size, names, dtypes and shapes).
        """

    def _reset(self, seeds: NDArray[np.uint64]) -> Games:
        raise NotImplementedError

    def _step(self, games: Games, actions: NDArray[np.int64], playing: NDArray[np.bool_]) -> Games:
        raise NotImplementedError

    def _observe(self, games: Games) -> NDArray[np.float32]:
        raise NotImplementedError

    def _state(self, games: Games, i: int) -> Any:
        raise NotImplementedError

    def _winners(self, games: Games) -> NDArray[np.bool_]:
        """The rules' ``winners`` of each game's state; a kernel may compute it in arrays."""
        won = np.zeros((self.size, self.players), dtype=bool)
        for i in range(self.size):
            for seat in self.rules.winners(self._state(games, i)):
                won[i, seat] = True
        return won

    def _top_scorers(self, games: Games) -> NDArray[np.bool_]:
        """The seats with the top score of each game over (ties share it): a ``_winners``."""
        top = games.scores == games.scores.max(axis=1, keepdims=True)
        won: NDArray[np.bool_] = top & games.over[:, None]
        return won

    def _restart(self, games: Games, seeds: NDArray[np.uint64], where: NDArray[np.bool_]) -> Games:
        """The games ``where`` dealt again, the others as they were: by default a new batch's."""
        fresh = self._reset(seeds)

        def pick(old: NDArray[Any], new: NDArray[Any]) -> NDArray[Any]:
            return np.where(where.reshape((-1,) + (1,) * (old.ndim - 1)), new, old)

        listed = None
        if games.legal_actions is not None and fresh.legal_actions is not None:
            width = max(games.legal_actions.shape[1], fresh.legal_actions.shape[1])
            old, new = (
                np.pad(lists, ((0, 0), (0, width - lists.shape[1])), constant_values=-1)
                for lists in (games.legal_actions, fresh.legal_actions)
            )
            listed = pick(old, new)
        return Games._made(
            current_player=pick(games.current_player, fresh.current_player),
            legal_mask=None if listed is not None else pick(games.legal_mask, fresh.legal_mask),
            legal_actions=listed,
            num_actions=self.num_actions,
            scores=pick(games.scores, fresh.scores),
            over=pick(games.over, fresh.over),
            data={name: pick(value, fresh.data[name]) for name, value in games.data.items()},
        )

    def _stepped(
        self, games: Games, actions: Actions, playing: Flags, seeds: Seeds | None
    ) -> Games:
        """``_step``, then with ``seeds`` a restart of the games it ends; a kernel may write
        this instead, dealing them into the arrays its step has just made.
        """
        after = self._step(games, actions, playing)
        if seeds is None or not after.over.any():
            return after
        return self._restart(after, seeds, after.over)

    # --- the checks at the entry ----------------------------------------------------

    def _checked_seeds(self, seeds: object) -> NDArray[np.uint64]:
        if not isinstance(seeds, np.ndarray):
            raise TypeError(f"seeds are a NumPy array of uint64, got {short_repr(seeds)}")
        if seeds.dtype != np.uint64:
            raise TypeError(f"seeds are uint64, got an array of {seeds.dtype}")
        if seeds.shape != (self.size,):
            raise ValueError(f"seeds have shape ({self.size},), got {seeds.shape}")
        return seeds.copy()  # a kernel may keep it in the read-only Games: not the caller's

    def _checked_actions(self, actions: object) -> NDArray[np.int64]:
        if not isinstance(actions, np.ndarray) or actions.dtype.kind not in "iu":
            raise TypeError(f"actions are a NumPy array of integers, got {short_repr(actions)}")
        if actions.shape != (self.size,):
            raise ValueError(f"actions have shape ({self.size},), got {actions.shape}")
        if actions.size and (actions.min() < 0 or actions.max() >= self.num_actions):
            wrong = int(np.flatnonzero((actions < 0) | (actions >= self.num_actions))[0])
            raise ValueError(
                f"actions are 0 to {self.num_actions - 1}; game {wrong} got {int(actions[wrong])}"
            )
        return actions.astype(np.int64)

    def _own(self, games: Games) -> Games:
        """``games``, a record the kernel just made, named as this engine's."""
        if games.made_by is None:
            object.__setattr__(games, "made_by", self.key)
        return games

    def _check_games(self, games: object) -> None:
        """``TypeError`` for no ``Games``; ``InvalidStateError`` for one another engine (or
        none) made, of another size, or whose arrays are not the kernel's or break its rules.
        """
        if type(games) is not Games:
            raise TypeError(f"expected this engine's Games, got {short_repr(games)}")
        made_by = games.made_by
        if made_by is not self.key and made_by != self.key:
            raise InvalidStateError(
                f"this {self.game} engine plays records of its own config alone; the record was "
                + ("made by no engine" if made_by is None else f"made by a {made_by[0]} engine")
                + ("" if made_by is None or made_by[0] != self.game else " of another config")
            )
        if games.size != self.size:
            raise InvalidStateError(
                f"this engine plays {self.size} games a record, the record holds {games.size}"
            )
        self._check_arrays(games)
        self._check_record(games)

    def _check_arrays(self, games: Games) -> None:
        """The record's arrays: the names, dtypes and shapes the kernel makes."""
        size, layout = self.size, self._record_layout
        if layout is None:
            one = type(self)(self.config, 1)._reset(np.zeros(1, dtype=np.uint64))
            layout = self._record_layout = {
                name: (value.dtype, (size, *value.shape[1:])) for name, value in one.data.items()
            }
        if games.legal_actions is not None and games.num_actions != self.num_actions:
            raise InvalidStateError(  # the lists' dtype and shape are checked as they are made
                f"num_actions is {self.num_actions}, got {short_repr(games.num_actions)}"
            )
        if games.data.keys() != layout.keys():
            raise InvalidStateError(
                f"a {self.game} record's data are {', '.join(sorted(layout))}; "
                f"got {', '.join(sorted(games.data))}"
            )
        given: list[tuple[str, NDArray[Any] | None, Any, tuple[int, ...]]] = [
            ("current_player", games.current_player, np.int64, (size,)),
            ("scores", games.scores, np.int64, (size, self.players)),
            ("over", games.over, np.bool_, (size,)),
            ("legal_mask", games._legal_mask, np.bool_, (size, self.num_actions)),
        ]
        given += [(name, games.data[name], *layout[name]) for name in layout]
        for name, value, dtype, shape in given:
            if value is not None and (value.dtype != dtype or value.shape != shape):
                raise InvalidStateError(
                    f"{name} is {np.dtype(dtype)} of shape {shape} in this engine's records; "
                    f"got {value.dtype} of shape {value.shape}"
                )

    def _check_ranges(self, games: Games, ranges: Mapping[str, tuple[int, int]]) -> None:
        """``InvalidStateError`` naming the first game whose array of ``ranges`` holds a
        value outside its ``(lowest, highest)``: one compiled pass where numba is installed.
        """
        flat = tuple(games.data[name].ravel() for name in ranges)
        bounds = np.array(tuple(ranges.values()), dtype=np.int64)
        outside = _fastest(_first_outside)(flat, bounds)
        if outside >= 0:
            name = tuple(ranges)[outside]
            low, high = ranges[name]
            values = games.data[name]
            wrong = ((values < low) | (values > high)).reshape(values.shape[0], -1)
            game = int(np.flatnonzero(wrong.any(axis=1))[0])
            value = values.reshape(values.shape[0], -1)[game][wrong[game]][0]
            raise InvalidStateError(
                f"game {game}: {name} holds {int(value)}, outside {low} to {high}"
            )

    @staticmethod
    def _refuse(games: Games, wrong: NDArray[np.bool_], what: str) -> None:
        """``InvalidStateError`` naming the first game ``wrong`` and ``what`` is wrong."""
        if wrong.any():
            raise InvalidStateError(f"game {int(np.flatnonzero(wrong)[0])}: {what}")


@contextlib.contextmanager
def _kernel_errors() -> Iterator[None]:
    """A kernel's ``IndexError``, ``KeyError``, ``ArithmeticError`` or ``ValueError`` on a
    record that holds no game, as ``InvalidStateError``: the library's error.
    """
    try:
        yield
    except TabletopError:
        raise
    except (ArithmeticError, IndexError, KeyError, ValueError) as error:
        raise InvalidStateError(f"the record holds no game the kernel can read: {error}") from error


def random_actions(games: Games, generator: np.random.Generator) -> NDArray[np.int64]:
    """A uniformly random legal action for each game (0 for a game over): one draw per
    game, then its legal action of that rank, off ``legal_actions`` or else the masks.

    ``generator.random(size)`` gives a float array of shape ``(size,)``, each draw in
    [0, 1): else ``TypeError`` (not a float array), or
    :class:`~tabletop_rules.errors.IllegalMoveError` naming the first game whose draw is
    NaN, infinite or outside [0, 1) (or the shape), before any action is given.
    """
    if type(games) is not Games:
        raise TypeError(f"random_actions takes a Games record, got {short_repr(games)}")
    draws = generator.random(games.size)
    if games.legal_actions is None:
        return _fastest(nth_legal)(games.legal_mask, draws)
    return _fastest(_nth_listed)(games.legal_actions, draws)


def nth_legal(mask: NDArray[np.bool_], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """For each game (a row of ``mask``) its legal action of rank ``floor(draw * count)``
    ascending, ``count`` its legal actions; 0 for a game with none.

    ``mask`` is a NumPy array of bool, games by actions (one at least): ``TypeError`` for
    another dtype, ``ValueError`` another shape; ``draws`` as :func:`random_actions` takes.
    """
    mask = checked_mask(mask)
    draws = checked_draws(draws, mask.shape[0])
    check_draws_in_range(draws)
    size, width = mask.shape
    legal = _true_places(mask.reshape(-1))  # game by game, each game's actions ascending
    if not legal.size:
        return np.zeros(size, dtype=np.int64)
    first = np.searchsorted(legal, np.arange(size + 1, dtype=np.int64) * width)
    counts = np.diff(first)
    rank = np.minimum((draws * counts).astype(np.int64), np.maximum(counts - 1, 0))
    chosen = np.minimum(first[:-1] + rank, legal.size - 1)
    actions: NDArray[np.int64] = np.where(
        counts > 0, legal[chosen] - np.arange(size, dtype=np.int64) * width, 0
    )
    return actions


def _first_outside(flat: tuple[NDArray[np.integer[Any]], ...], bounds: NDArray[np.int64]) -> int:
    """The place in ``flat`` of the first array with a value outside its ``bounds`` row, or -1."""
    for k, values in enumerate(flat):
        if values.size and (values.min() < bounds[k, 0] or values.max() > bounds[k, 1]):
            return k
    return -1


@functools.cache
def _compiled_masks() -> Any:
    """:mod:`tabletop_rules.batch.compiled.masks`, or ``None`` without numba."""
    try:
        from .compiled import masks
    except ImportError:
        return None
    return masks


def _fastest(numpy_version: _Read) -> _Read:
    """``numpy_version``, or with numba its compiled twin in :mod:`.compiled.masks` (the
    same name, less the underscore): the same values either way.
    """
    compiled = _compiled_masks()
    if compiled is None:
        return numpy_version
    twin: _Read = getattr(compiled, numpy_version.__name__.lstrip("_"))
    return twin


def _nth_listed(listed: NDArray[np.int16], draws: NDArray[np.float64]) -> NDArray[np.int64]:
    """:func:`nth_legal` off each game's list of legal actions (ascending, then -1)."""
    listed = checked_listed(listed)
    draws = checked_draws(draws, listed.shape[0])
    check_draws_in_range(draws)
    if not listed.shape[1]:
        return np.zeros(listed.shape[0], dtype=np.int64)
    counts = (listed >= 0).sum(axis=1)
    rank = np.minimum((draws * counts).astype(np.int64), np.maximum(counts - 1, 0))
    chosen = listed[np.arange(listed.shape[0]), rank].astype(np.int64)
    actions: NDArray[np.int64] = np.where(counts > 0, chosen, 0)
    return actions


def _lists_hold(listed: NDArray[np.int16], actions: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each game's list of legal actions holds its action."""
    listed = checked_listed(listed)
    check_one_action_a_list(listed, actions)
    # cast to the lists' type (five times cheaper than the lists to int64); one it cannot hold
    cast = actions.astype(listed.dtype)
    found: NDArray[np.bool_] = (listed == cast[:, None]).any(axis=1) & (cast == actions)
    return found


def _listed_mask(listed: NDArray[np.int16], width: int) -> NDArray[np.bool_]:
    """``(games, width)``: the mask of the lists; ``InvalidStateError`` for an action beyond."""
    listed = checked_listed(listed)
    mask = np.zeros((listed.shape[0], width), dtype=bool)
    games, places = np.nonzero(listed >= 0)
    actions = listed[games, places]
    if actions.size and actions.max() >= width:
        raise beyond_error(listed, width)
    mask[games, actions] = True
    return mask


def _true_places(flags: NDArray[np.bool_]) -> NDArray[np.int64]:
    """The places of the true flags, ascending, read eight to a 64-bit word: faster than
    ``np.flatnonzero`` for a mask as sparse as palace's, which is used for a dense one.
    """
    whole = flags.size - flags.size % 8
    words = flags[:whole].view(np.uint64)
    nonzero = np.flatnonzero(words != 0)
    if nonzero.size * 32 > words.size:  # one word in 32 not zero: measured the break-even
        return np.flatnonzero(flags).astype(np.int64, copy=False)
    inside = np.flatnonzero(words[nonzero].view(np.uint8))
    places = [8 * nonzero[inside // 8] + inside % 8, whole + np.flatnonzero(flags[whole:])]
    return np.concatenate(places).astype(np.int64, copy=False)


BACKENDS = ("auto", "numpy", "numba")
"""What :func:`~tabletop_rules.batch.engine` may run a game on: ``"numba"``, the built-in
games' one kernel each (the ``batch`` extra); ``"numpy"``, the kernels over plain arrays
other packages register (a :class:`~tabletop_rules.errors.ConfigError` for a built-in
game); ``"auto"``, the game's compiled kernel where it has one, else its NumPy one."""

_KERNELS: dict[str, dict[str, str | Callable[..., Engine]]] = {
    "numpy": {},
    "numba": {
        "dice-poker": "tabletop_rules.dice_poker.batch:DicePokerEngine",
        "palace": "tabletop_rules.palace.batch:PalaceEngine",
        "account": "tabletop_rules.account.batch:AccountEngine",
    },
}
"""The kernels by backend and game: a built-in game's by where it lives, imported on first
use so that importing a game, or :mod:`tabletop_rules.batch`, never imports numba."""

_BUILT_IN: frozenset[str] = frozenset(_KERNELS["numba"])
"""The games whose kernels come with the library: their names cannot be registered."""

_INSTALL = "pip install 'tabletop-rules[batch]'"


def engines(backend: str = "auto") -> tuple[str, ...]:
    """The ruleset names that have a batched kernel on ``backend`` (``"auto"``: any)."""
    backend = _checked_backend(backend, auto=True)
    if backend == "auto":
        return tuple(sorted(_KERNELS["numpy"].keys() | _KERNELS["numba"].keys()))
    return tuple(sorted(_KERNELS[backend]))


def register(name: str, kernel: Callable[..., Engine], *, backend: str = "numpy") -> None:
    """Make ``kernel`` (an :class:`Engine` subclass) the batched kernel of ``name`` on
    ``backend`` (``"numba"`` for a compiled one). A built-in game's name is
    :class:`~tabletop_rules.errors.GamePluginError`: its kernels are the library's.
    """
    if type(name) is not str or not (isinstance(kernel, type) and issubclass(kernel, Engine)):
        raise TypeError(
            f"register() takes a game's name and an Engine subclass, got {short_repr(name)} "
            f"and {short_repr(kernel)}"
        )
    backend = _checked_backend(backend, auto=False)
    if name in _BUILT_IN:
        raise GamePluginError(
            f"{name!r} is a built-in game: its batched kernels cannot be replaced"
        )
    _KERNELS[backend][name] = kernel


def kernel(name: str, backend: str = "auto") -> Callable[..., Engine]:
    """The batched kernel (an :class:`Engine` subclass) registered for the game ``name`` on
    ``backend``; :class:`~tabletop_rules.errors.UnknownGameError` naming those there are,
    :class:`~tabletop_rules.errors.ConfigError` for a backend that cannot run here or a
    game with no kernel on it (a built-in game's one kernel is compiled: ``"numba"``).
    """
    backend = _checked_backend(backend, auto=True)
    name = game_name(name)
    known = engines()
    if type(name) is not str or name not in known:
        raise UnknownGameError(
            f"no batched engine for {short_repr(name)}; there is one for {', '.join(known)}"
        )
    if backend == "auto":  # compiled where it can run, or where the game has no other
        compiled = name in _KERNELS["numba"]
        usable = _numba_installed() or name not in _KERNELS["numpy"]
        backend = "numba" if compiled and usable else "numpy"
    found = _KERNELS[backend].get(name)
    if found is None:
        if name in _BUILT_IN:
            raise ConfigError(
                f"{name} has one batched kernel, compiled by numba (backend 'numba' or "
                f"'auto'); its NumPy kernel is gone"
            )
        raise ConfigError(
            f"{name} has no {backend} kernel; there is one for {', '.join(engines(backend))}"
        )
    if backend == "numba" and not _numba_installed():
        raise ConfigError(f"the batched kernel of {name} needs numba: {_INSTALL}")
    if isinstance(found, str):
        module, _, attribute = found.partition(":")
        found = _KERNELS[backend][name] = getattr(importlib.import_module(module), attribute)
    return found


def engine(name: str, config: Any, size: int, *, backend: str = "auto") -> Engine:
    """The batched kernel of the game ``name`` for ``config``, ``size`` games a call, on
    ``backend`` (one of :data:`~tabletop_rules.batch.frame.BACKENDS`).
    """
    return kernel(name, backend)(config, size)


def _checked_backend(backend: object, *, auto: bool) -> str:
    allowed = BACKENDS if auto else BACKENDS[1:]
    if type(backend) is not str or backend not in allowed:
        raise ConfigError(
            f"backend is one of {', '.join(map(repr, allowed))}, got {short_repr(backend)}"
        )
    return backend


@functools.cache
def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None
