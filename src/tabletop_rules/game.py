"""The :class:`Game` base class: the one statement of what a game is and what every game has.

A game is a subclass: its facts are class attributes, its kernel the abstract methods, and
it inherits every other member, overriding one only where it knows better. Its package's
``RULES`` is one instance, whose methods are the package's functions
(``palace.apply == palace.RULES.apply``). A game's own functions bound as public members
(``legal_moves``, ``view`` …) are total themselves: ``TypeError`` for a value of the wrong
type (:meth:`Game.refuse` for what is no state), ``ConfigError`` for another game's config.
Where the base checks the arguments around the game's part, that part has its own name:
``start`` of :meth:`~Game.new_game`, ``redeal`` of :meth:`~Game.determinize`,
``check_invariants`` of :meth:`~Game.check_state`, ``encode_view`` of :meth:`~Game.observe`,
``event_text`` of :meth:`~Game.describe`.

>>> from tabletop_rules import palace
>>> isinstance(palace.RULES, Game)
True
>>> palace.RULES.name, palace.RULES.seats[0]
('palace', 2)
>>> "apply" in exported_functions() and "transition" not in exported_functions()
True
"""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import partial, wraps
from pickle import PicklingError
from types import FunctionType, MappingProxyType
from typing import (
    Any,
    Final,
    Generic,
    Literal,
    NoReturn,
    Protocol,
    TypeAlias,
    TypeVar,
    get_args,
    get_origin,
    get_type_hints,
)

import attrs
from typing_extensions import TypeVar as DefaultedTypeVar

from ._messages import short_repr, short_text
from ._movetable import MoveTable, check_action
from ._seats import Seat, check_on_turn, top_seats
from ._validation import Fail, check_dealt_view, check_type, refuse_state, run_checks
from .errors import (
    ConfigError,
    GamePluginError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    TabletopError,
)
from .observation import Features, ObservationSpec, encoded, encoding_spec
from .rng import Rng, is_valid_state, resolve_seed

__all__ = [
    "CHANCE",
    "Bot",
    "BotFactory",
    "ChanceMode",
    "Game",
    "Seat",
    "event_fields",
    "exported",
    "exported_functions",
    "exported_names",
    "guard_config",
    "guard_drawn",
    "guard_table",
    "guard_view",
    "share_bot",
    "use_registry",
]

CHANCE: Final = -1
"""The "player" who moves at a chance point: :meth:`Game.current_player` returns it there."""

ChanceMode = Literal["deterministic", "explicit"]
"""``"deterministic"``: no chance point after the deal (palace). ``"explicit"``: the
game stops at chance points (``current_player == CHANCE``) whose outcomes are moves."""

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
ViewT = DefaultedTypeVar("ViewT", default=Any)
EventT = DefaultedTypeVar("EventT", default=Any)
Method = TypeVar("Method", bound=Callable[..., Any])
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
MoveT_co = TypeVar("MoveT_co", covariant=True)


class Bot(Protocol[ViewT_contra, MoveT_co]):
    """A player: sees its seat's view, never the state, and picks one of its ``legal_moves``."""

    def choose(self, view: ViewT_contra) -> MoveT_co:
        """The move to play, one of ``view.legal_moves``."""
        ...


BotFactory: TypeAlias = Callable[[int], Bot[Any, Any]]
"""Makes a new bot for one game from a seed: a class or a module-level function, so that it
pickles (:class:`~tabletop_rules.bots.Unseeded` adapts a bot class without a seed)."""


_REGISTRY: dict[str, Callable[..., Any]] = {}
"""How a pickled game is found by name, given through :func:`use_registry`."""


def use_registry(
    find: Callable[[str], Game[Any, Any, Any] | None],
    load: Callable[[str, str], Game[Any, Any, Any]],
) -> None:
    """Let games pickle as their names (called by :mod:`tabletop_rules.protocol`):
    ``find(name)`` is the game registered now, ``load(name, module)`` the game a pickle names.
    The registry is given once: :class:`~tabletop_rules.errors.GamePluginError` for another.
    """
    if not (callable(find) and callable(load)):
        raise TypeError(f"a registry is two functions, got {short_repr(find)}, {short_repr(load)}")
    given: dict[str, Callable[..., Any]] = {"find": find, "load": load}
    if _REGISTRY and given != _REGISTRY:
        raise GamePluginError(
            "games pickle through tabletop_rules.protocol's registry, given already"
        )
    _REGISTRY.update(given)


_NO_CHANCES: Final[Mapping[Any, Fraction]] = MappingProxyType({})
_NO_NOTES: Final[Mapping[str, str]] = MappingProxyType({})


def exported(method: Method) -> Method:
    """Mark ``method`` of :class:`Game` as exported by every game package."""
    if not callable(method):
        raise TypeError(f"only a method is exported, got {type(method).__name__}")
    method.__tabletop_exported__ = True  # type: ignore[attr-defined]
    return method


_SHARED_BOTS: dict[str, Callable[[Game[Any, Any, Any], int], Bot[Any, Any]]] = {}
_BOT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def share_bot(name: str, make: Callable[[Game[Any, Any, Any], int], Bot[Any, Any]]) -> None:
    """Offer ``make`` in every game's :attr:`Game.bots` as ``name`` (how
    :mod:`tabletop_rules.bots`, which builds on this module, gives every game ``"random"``).
    ``name`` is a bot's name (lowercase letters, digits, ``_`` and ``-``; not ``"person"``,
    which a server's seat reads as a person), and a name shared already stays its first
    maker's: :class:`~tabletop_rules.errors.GamePluginError` for another.
    """
    if type(name) is not str:
        raise TypeError(f"a bot's name is text, got {short_repr(name)}")
    if not callable(make):
        raise TypeError(
            f"a shared bot is made by a function of a game and a seed, got {short_repr(make)}"
        )
    if not _BOT_NAME.fullmatch(name) or name == "person":
        raise ConfigError(
            "a bot's name is lowercase letters, digits, _ and - (not 'person'), "
            f"got {short_repr(name)}"
        )
    if _SHARED_BOTS.setdefault(name, make) is not make:
        raise GamePluginError(f"every game's bot {name!r} is shared already by another maker")


def event_fields(event: object) -> str:
    """An event told by its class and fields: ``"Rolled: seat 0, value 3"``."""
    kind = type(event)
    if not attrs.has(kind):
        return kind.__name__
    fields = ", ".join(
        f"{field.name.replace('_', ' ')} {getattr(event, field.name)!s}"
        for field in attrs.fields(kind)
    )
    return f"{kind.__name__}: {fields}" if fields else kind.__name__


class Game(abc.ABC, Generic[ConfigT, StateT, MoveT, ViewT, EventT]):
    """One game's rules: its facts, its kernel and every member derived from them, generic in
    its ``Config``, ``State``, ``Move``, ``View``, ``Event`` types (any: ``Game[Any, Any, Any]``).
    """

    # --- facts ------------------------------------------------------------------------

    name: str
    """The registry name, lower case with hyphens: ``"dice-poker"``."""
    title: str
    """The game's name for people: ``"Dice poker"``."""
    seats: tuple[int, int]
    """The fewest and the most seats a config may set."""
    chance_mode: ChanceMode = "explicit"
    """Whether the game has chance points after the deal (:data:`ChanceMode`)."""
    hidden_information: bool = False
    """Whether a seat's view hides part of the state beyond the generator (others' cards)."""
    deal_type: type[Any] | None = None
    """The class of a ``deal``'s items (a card); ``None`` for a game without a deck."""
    format_version: int = 1
    """The version of the game's JSON layout; loaders refuse any other."""
    config_type: type[ConfigT]
    """The game's frozen ``Config`` class: its house rules."""
    state_type: type[StateT]
    """The game's frozen ``State`` class."""
    view_type: type[ViewT]
    """The game's frozen ``View`` class, with ``seat``, ``current_player`` and ``legal_moves``."""
    move_types: tuple[type[Any], ...]
    """Every move class of the game, chance outcomes included."""
    event_types: tuple[type[Any], ...]
    """Every event class of the game."""
    chance_type: type[Any] | None = None
    """The class of the chance outcomes, for a game with chance points."""
    move_table: MoveTable[MoveT]
    """Every move some state allows, each built once, in action order (chance outcomes last)."""
    own_bots: Mapping[str, BotFactory] = MappingProxyType({})
    """The game's own bots by name; :attr:`bots` adds those every game has."""

    def __init__(self) -> None:
        seats: Any = self.seats
        if (
            type(seats) is not tuple
            or len(seats) != 2
            or not all(type(number) is int for number in seats)
            or not 1 <= seats[0] <= seats[1]
        ):
            raise TypeError(f"seats must be (fewest, most), got {short_repr(seats)}")
        if self.chance_mode not in ("deterministic", "explicit"):
            raise TypeError(f"chance_mode must be deterministic or explicit: {self.chance_mode!r}")
        if (self.chance_mode == "explicit") != (self.chance_type is not None):
            raise TypeError("a game names its chance_type exactly when its chance mode is explicit")
        view_type: Any = self.view_type
        missing = {"seat", "current_player", "legal_moves"} - set(attrs.fields_dict(view_type))
        if missing:
            raise TypeError(f"{self.view_type.__name__} needs fields {', '.join(sorted(missing))}")
        self.noun = self.name.replace("-", " ")
        """How messages name the game: ``"dice poker"``."""
        self.a_noun = ("an " if self.noun[:1] in "aeiou" else "a ") + self.noun
        table = self.move_table.moves
        self._move_ids = self.move_table.ids
        self._numbers = {id(move): number for number, move in enumerate(table)}
        first = next((i for i, move in enumerate(table) if type(move) is self.chance_type), None)
        self._chance_offset = len(table) if first is None else first
        self._classes = type(self).action_key.__code__ is not Game.action_key.__code__
        self._specs: dict[Any, ObservationSpec] = {}
        self._by_text: dict[str, MoveT] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _show_own_types(cls)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def __reduce__(self) -> tuple[Callable[[str, str], Game[Any, Any, Any]], tuple[str, str]]:
        """A game pickles as its registry name, for worker processes, which find it with
        :func:`~tabletop_rules.protocol.get_ruleset` (importing the game's module first).
        """
        if _REGISTRY["find"](self.name) is not self:
            raise PicklingError(f"only a registered game can be pickled; register {self.name!r}")
        return _REGISTRY["load"], (self.name, type(self).__module__)

    # --- the kernel: what every game writes -------------------------------------------

    @abc.abstractmethod
    def start(self, config: ConfigT, seed: int, deal: Any) -> StateT:
        """The first state under ``config`` from ``seed``, dealt from ``deal`` if given (the
        game checks it); :meth:`new_game` checks the config and draws the seed first.
        """

    @exported
    @abc.abstractmethod
    def legal_moves(self, state: StateT) -> tuple[MoveT, ...]:
        """Every legal move, in a deterministic order; the outcomes at a chance point."""

    @abc.abstractmethod
    def transition(self, state: StateT, move: MoveT, events: list[EventT] | None) -> StateT:
        """The state after ``move`` (the table's instance, or the game's own equal one), its
        events appended to ``events`` unless ``None``; ``IllegalMoveError`` naming the rule
        for a move not legal in ``state``: the one place legality is decided.
        """

    @exported
    @abc.abstractmethod
    def score(self, state: StateT) -> tuple[int, ...]:
        """Each seat's score now; higher is better."""

    @exported
    @abc.abstractmethod
    def current_player(self, state: StateT) -> Seat | None:
        """The seat to move, :data:`CHANCE` at a chance point, ``None`` once over."""

    @exported
    @abc.abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> ViewT:
        """What ``seat`` (``None``: a spectator) may know of ``state``, with its moves."""

    @abc.abstractmethod
    def redeal(self, seen: ViewT, rng: Rng) -> StateT:
        """A full state whose view for ``seen.seat`` is ``seen``, all it hides dealt from
        ``rng`` (:meth:`determinize` checks the view and the result).
        """

    @exported
    @abc.abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The move's short text notation (``TypeError`` for what is no move)."""

    @abc.abstractmethod
    def encode_view(self, seen: ViewT, features: Features) -> None:
        """Write ``seen`` into ``features``, for :meth:`observe` and :meth:`observation_spec`."""

    @abc.abstractmethod
    def check_invariants(self, state: StateT, fail: Fail) -> None:
        """Call ``fail(why)`` for an invariant ``state`` breaks (run by :meth:`check_state`)."""

    @exported
    @abc.abstractmethod
    def max_moves(self, config: ConfigT) -> int:
        """An upper bound on the moves of one game, chance outcomes included."""

    # --- entry guards -----------------------------------------------------------------

    def expect(
        self, value: Any, kinds: tuple[type[Any], ...], error: type[Exception] = TypeError
    ) -> Any:
        """``value`` when its type is exactly one of ``kinds``; else ``error`` in the game's
        words (``expected a pig State or View, got 7``).
        """
        return check_type(value, kinds, error, self.a_noun)

    def refuse(self, state: object) -> NoReturn:
        """The ``TypeError`` for what is no state of the game (a view is told what to pass)."""
        refuse_state(state, game=self.a_noun, state_type=self.state_type, view_type=self.view_type)

    def known_move(self, move: object) -> MoveT:
        """The move table's instance of ``move``; ``IllegalMoveError`` for what is no move
        any state allows. A game whose moves are not all in its table gives its own.
        """
        known = self._table_move(move)
        if id(known) not in self._move_ids:
            raise IllegalMoveError(f"{short_repr(move)} is not {self.a_noun} move")
        return known

    def _table_move(self, move: object) -> MoveT:
        """The table's instance of ``move``, else ``move`` itself if it is of a move class."""
        try:
            return self.move_table.known(move)
        except TypeError as error:  # a class without validators built Take(count=[])
            raise IllegalMoveError(f"{short_repr(move)} is not {self.a_noun} move") from error

    # --- playing ----------------------------------------------------------------------

    @exported
    def new_game(
        self, config: ConfigT | None = None, *, seed: int | None = None, deal: Any = None
    ) -> StateT:
        """A new game under ``config`` (``None``: the default house rules); ``seed=None``
        draws a fresh seed, kept in the state. A game with a deck takes a ``deal`` (its order).
        """
        config = self.config_type() if config is None else config
        if type(config) is not self.config_type:
            kind = self.config_type
            package = kind.__module__.rsplit(".", 2)[-2:][0]
            raise ConfigError(
                f"expected {self.a_noun} Config ({package}.{kind.__name__}), "
                f"got {short_repr(config)}"
            )
        if self.deal_type is None and deal is not None:
            raise ConfigError(f"{self.noun} has no deck to deal: deal must be None")
        return self.start(config, resolve_seed(seed), deal)

    @exported
    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``; ``IllegalMoveError`` naming the rule otherwise.
        ``state`` never changes.
        """
        if type(state) is not self.state_type:
            self.refuse(state)
        if id(move) not in self._move_ids:  # not the table's instance: find it, or refuse
            move = self.known_move(move)
        return self.transition(state, move, None)

    @exported
    def apply_with_events(self, state: StateT, move: MoveT) -> tuple[StateT, tuple[EventT, ...]]:
        """:meth:`apply`, and the events of the transition in order."""
        if type(state) is not self.state_type:
            self.refuse(state)
        events: list[EventT] = []
        after = self.transition(state, self.known_move(move), events)
        return after, tuple(events)

    @exported
    def canonical(self, state: StateT, move: MoveT) -> MoveT:
        """The move :meth:`legal_moves` lists equal to ``move``; ``IllegalMoveError``
        naming the rule when none is. A game where equivalent moves differ gives its own.
        """
        if type(state) is not self.state_type:
            self.refuse(state)
        return self._listed(state, self.known_move(move))

    def _listed(self, state: StateT, move: MoveT) -> MoveT:
        """The listed move equal to ``move``, else the transition's refusal of it."""
        for listed in self.legal_moves(state):
            if listed == move:
                return listed
        self.transition(state, move, None)
        raise AssertionError(f"transition accepted {move!r}, which legal_moves does not list")

    @exported
    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended: :meth:`current_player` is ``None``."""
        return self.current_player(state) is None

    @exported
    def winners(self, state: StateT) -> frozenset[Seat]:
        """The seats with the top score once the game is over; empty until then."""
        return top_seats(self.score(state)) if self.is_over(state) else frozenset()

    @exported
    def chance_probabilities(self, state: StateT) -> Mapping[MoveT, Fraction]:
        """Each outcome at a chance point with its exact chance (read-only; by default equal
        chances); empty elsewhere.
        """
        if self.current_player(state) != CHANCE:
            return _NO_CHANCES
        outcomes = self.legal_moves(state)
        return MappingProxyType(dict.fromkeys(outcomes, Fraction(1, len(outcomes))))

    # --- what a seat knows --------------------------------------------------------------

    @exported
    def determinize(self, seen: ViewT, rng: Rng) -> StateT:
        """A full state consistent with ``seen``, all its seat cannot see dealt again from
        ``rng`` (``view(determinize(v, rng), v.seat) == v``); else ``InvalidStateError``.
        """
        self.expect(rng, (Rng,))
        return self._dealt(seen, rng)

    def determinize_each(self, seen: ViewT, rngs: Sequence[Rng]) -> tuple[StateT, ...]:
        """What :meth:`determinize` deals with each of ``rngs``, the view checked once."""
        rngs = tuple(self.expect(rng, (Rng,)) for rng in rngs)
        if not rngs:
            self.check_view(seen)
            return ()
        return (self._dealt(seen, rngs[0]), *(self.redeal(seen, rng) for rng in rngs[1:]))

    def _dealt(self, seen: ViewT, rng: Rng) -> StateT:
        """The state :meth:`redeal` deals from ``seen``, once ``seen`` passed
        :meth:`check_view_invariants` and is that state's view again.
        """
        self.expect(seen, (self.view_type,))
        run_checks(f"{self.noun} view", lambda fail: self.check_view_invariants(seen, fail))
        try:
            dealt = self.redeal(seen, rng)
        except TabletopError:
            raise
        except Exception as error:
            raise InvalidStateError(f"invalid {self.noun} view: {short_text(error)}") from error
        check_dealt_view(self.noun, seen, dealt, self.view, self.check_state)
        return dealt

    @exported
    def redact(self, event: EventT, seat: Seat | None) -> EventT:
        """``event`` as ``seat`` may see it; by default no event hides anything."""
        self.expect(event, self.event_types)
        return event

    @exported
    def describe(self, event: EventT, seat: Seat | None) -> str:
        """``event`` in one sentence as ``seat`` (``None``: a spectator) may see it, redacted
        first: ``"You played 7H 7S"``.
        """
        self.expect(event, self.event_types)
        if seat is not None and (type(seat) is not int or seat < 0):
            raise TypeError(f"a seat is a whole number from 0 or None, got {short_repr(seat)}")
        return self.event_text(self.redact(event, seat), seat)

    def event_text(self, event: EventT, seat: Seat | None) -> str:
        """The sentence of an event already redacted for ``seat`` (:func:`event_fields`)."""
        return event_fields(event)

    # --- notation -------------------------------------------------------------------------

    @exported
    def read_move(self, text: str) -> MoveT:
        """The move ``text`` (by default a :meth:`format_move`) names whatever the state,
        whitespace and case aside; ``NotationError`` for text naming no move.
        """
        if type(text) is not str:
            raise TypeError(f"move text is a str, got {short_repr(text)}")
        by_text = self._by_text
        if by_text is None:
            by_text = {_words(self.format_move(m)): m for m in self.move_table.moves}
            self._by_text = by_text
        move = by_text.get(_words(text))
        if move is None:
            raise NotationError(f"{short_repr(text)} names no {self.noun} move")
        return move

    def read_move_in(self, state: StateT, text: str) -> MoveT:
        """The legal move of ``state`` that ``text`` names; ``IllegalMoveError`` naming
        the rule when it is not legal. A game whose text reads the state gives its own.
        """
        return self._listed(state, self.known_move(self.read_move(text)))

    @exported
    def parse_move(self, game: StateT | ViewT, text: str) -> MoveT:
        """The legal move of a state, or of a view's seat, that ``text`` names: ``NotationError``
        if it names no move, ``IllegalMoveError`` naming the rule if it is not legal now.
        """
        if type(game) is self.view_type:
            named = self.read_move(text)  # text naming no move is refused first
            legal: tuple[MoveT, ...] = game.legal_moves  # type: ignore[attr-defined]
            for move in legal:
                if move == named:
                    return move
            check_on_turn(game.seat, game.current_player)  # type: ignore[attr-defined]
            named = self.read_move_in(self._dealt(game, Rng.from_seed(0)), text)
            return next((move for move in legal if move == named), named)
        if type(game) is not self.state_type:
            raise TypeError(f"parse_move needs {self.a_noun} State or View, got {short_repr(game)}")
        return self.read_move_in(game, text)

    # --- the action codec -----------------------------------------------------------------

    @exported
    def num_actions(self, config: ConfigT) -> int:
        """The size of the action space under ``config``, chance outcomes included."""
        self.expect(config, (self.config_type,), ConfigError)
        return len(self.move_table.moves)

    @exported
    def chance_offset(self, config: ConfigT) -> int:
        """The number of the first chance outcome, every player move below it
        (:meth:`num_actions` for a game without chance points).
        """
        size = self.num_actions(config)
        return size if self.chance_type is None else self._chance_offset

    def action_key(self, move: object) -> MoveT:
        """The table's move that numbers ``move`` (itself, unless the codec numbers classes)."""
        return self._table_move(move)

    def action_notation(self, move: MoveT) -> str:
        """The text of the action a table move numbers (by default :meth:`format_move`)."""
        return self.format_move(move)

    @exported
    def encode(self, move: MoveT) -> int:
        """The move's action number (that of its class, where moves are numbered by class)."""
        number = self._numbers.get(id(move))
        if number is None:
            known = self.action_key(move)
            number = self._numbers.get(id(known))
            if number is None:
                text = short_text(self.format_move(known))
                raise IllegalMoveError(f"'{text}' has no action number: no state allows it")
        return number

    @exported
    def decode(self, state: StateT, action: int) -> MoveT:
        """The legal move numbered ``action`` in ``state``; ``IllegalMoveError`` otherwise."""
        if type(state) is not self.state_type:
            self.refuse(state)
        size = self.num_actions(state.config)  # type: ignore[attr-defined]
        move = self.move_table.moves[check_action(action, size)]
        ids, classes = self._move_ids, self._classes
        for listed in self.legal_moves(state):
            # or a move of the class that is not the table's own (a play of other suits)
            if listed is move or (
                classes and id(listed) not in ids and self.action_key(listed) is move
            ):
                return listed
        text = self.action_notation(move)
        raise IllegalMoveError(f"action {action} ('{text}') is not legal in this state")

    @exported
    def legal_mask(self, state: StateT) -> tuple[bool, ...]:
        """For each action number, whether its move (or a move of its class) is legal."""
        if type(state) is not self.state_type:
            self.refuse(state)
        mask = [False] * self.num_actions(state.config)  # type: ignore[attr-defined]
        for move in self.legal_moves(state):
            mask[self.encode(move)] = True
        return tuple(mask)

    @exported
    def action_text(self, config: ConfigT, action: int) -> str:
        """The notation of the move (or class) numbered ``action``, without a state."""
        size = self.num_actions(config)
        return self.action_notation(self.move_table.moves[check_action(action, size)])

    # --- observation and checks ---------------------------------------------------------

    @exported
    def observe(self, seen: ViewT) -> tuple[float, ...]:
        """``seen`` as a flat tuple of floats within :meth:`observation_spec`'s bounds."""
        self.expect(seen, (self.view_type,))
        return encoded(self.encode_view, seen)

    @exported
    def observation_spec(self, config: ConfigT) -> ObservationSpec:
        """The size, bounds and names of :meth:`observe`'s numbers under ``config``."""
        self.expect(config, (self.config_type,), ConfigError)
        spec = self._specs.get(config)
        if spec is None:
            sample = self.view(self.start(config, 0, None), None)
            if len(self._specs) >= 256:  # a bound on what many configs keep alive
                self._specs.clear()
            spec = self._specs[config] = encoding_spec(self.encode_view, sample)
        return spec

    @exported
    def check_state(self, state: StateT) -> None:
        """``InvalidStateError`` unless ``state`` keeps every invariant of the game."""
        self.expect(state, (self.state_type,))
        run_checks(f"{self.noun} state", lambda fail: self._check_state(state, fail))

    def _check_state(self, state: Any, fail: Fail) -> None:
        if type(state.config) is not self.config_type:
            fail(f"config must be {self.a_noun} Config, got {short_repr(state.config)}")
        self.check_invariants(state, fail)  # before the seed's and rng's: the game's words win
        if type(state.seed) is not int or not 0 <= state.seed < 1 << 64:
            fail(f"seed must be a whole number in [0, 2**64), got {short_repr(state.seed)}")
        rng = getattr(state, "rng", Rng(0))
        if type(rng) is not Rng or not is_valid_state(rng.state):
            fail(f"rng must be an Rng, got {short_repr(rng)}")

    @exported
    def check_view(self, seen: ViewT) -> None:
        """``InvalidStateError`` unless ``seen`` (any value) is the view of the state it deals."""
        self.expect(seen, (self.view_type,), InvalidStateError)
        self._dealt(seen, Rng.from_seed(0))

    def check_view_invariants(self, seen: ViewT, fail: Fail) -> None:
        """Call ``fail(why)`` for what a view holds beyond its state (counts that do not add up)."""

    # --- the rest of the table ------------------------------------------------------------

    def players(self, config: ConfigT) -> int:
        """The number of seats ``config`` sets at the table."""
        return self.expect(config, (self.config_type,), ConfigError).players  # type: ignore[no-any-return]

    def config_of(self, state: StateT) -> ConfigT:
        """The house rules in force in ``state``."""
        return self.expect(state, (self.state_type,)).config  # type: ignore[no-any-return]

    def seed_of(self, state: StateT) -> int:
        """The seed ``state``'s game started from."""
        return self.expect(state, (self.state_type,)).seed  # type: ignore[no-any-return]

    def deal_of(self, state: StateT) -> tuple[Any, ...] | None:
        """The deck order given to ``new_game`` for ``state``'s game, else ``None``."""
        checked = self.expect(state, (self.state_type,))
        return None if self.deal_type is None else checked.deal

    def deck(self, config: ConfigT) -> tuple[Any, ...]:
        """Every card of ``config``'s deck in a fixed order; ``()`` without a deck."""
        self.expect(config, (self.config_type,), ConfigError)
        return ()

    @exported
    def display(self, game: StateT | ViewT) -> str:
        """The table as plain text, a state as a spectator sees it (by default a ``repr``)."""
        return repr(self.expect(game, (self.state_type, self.view_type)))

    def json_hooks(self, converter: Any) -> None:
        """Register the game's own hooks on the shared cattrs ``converter`` (cards as text)."""

    def rules_summary(self, config: ConfigT) -> tuple[str, ...]:
        """The rules under ``config`` in a few lines (the terminal's ``help``); by default none."""
        self.expect(config, (self.config_type,), ConfigError)
        return ()

    def notation_summary(self, config: ConfigT) -> tuple[str, ...]:
        """The move notation under ``config``, a form and an example a line; by default none."""
        self.expect(config, (self.config_type,), ConfigError)
        return ()

    def hint(self, seen: ViewT) -> tuple[str, ...]:
        """What the moves open to ``seen``'s seat would do, in a few lines; by default none."""
        self.expect(seen, (self.view_type,))
        return ()

    def drawn(self, seen: ViewT, events: Sequence[EventT]) -> Mapping[str, Any] | None:
        """``seen`` drawn as JSON data for a graphical front end (cards, dice, the sheet),
        each clickable part carrying the notation of the move it makes; ``events`` are the
        last move's, redacted for the seat. By default ``None``: a front end shows
        :meth:`display` alone (:mod:`tabletop_rules.table` carries it to clients).
        """
        self.expect(seen, (self.view_type,))
        for event in events:
            self.expect(event, self.event_types)
        return None

    def move_notes(self, seen: ViewT) -> Mapping[str, str]:
        """A note on what some of ``seen``'s legal moves would do, by their notation (for a
        move's button); by default none.
        """
        self.expect(seen, (self.view_type,))
        return _NO_NOTES

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """The bots by name, each a factory from a seed: ``"random"``, then the game's own."""
        shared = {name: partial(make, self) for name, make in _SHARED_BOTS.items()}
        return MappingProxyType({**shared, **self.own_bots})


Rule = TypeVar("Rule")


def _guarded(
    rule: Callable[[Any], Rule],
    kinds: Callable[[Game[Any, Any, Any]], tuple[type[Any], ...]],
    error: type[Exception] = TypeError,
) -> Any:
    """``rule(value)`` as a :class:`Game` method, named as ``rule``, refusing other kinds."""

    @wraps(rule)
    def method(self: Game[Any, Any, Any], value: Any) -> Rule:
        return rule(self.expect(value, kinds(self), error))

    return method


def guard_config(rule: Callable[[Any], Rule]) -> Any:
    """``rule(config)`` as a Game method refusing another game's config (``ConfigError``)."""
    return _guarded(rule, lambda game: (game.config_type,), ConfigError)


def guard_view(rule: Callable[[Any], Rule]) -> Any:
    """``rule(view)`` as a Game method refusing what is no view of the game (``TypeError``)."""
    return _guarded(rule, lambda game: (game.view_type,))


def guard_table(rule: Callable[[Any], Rule]) -> Any:
    """``rule(game)`` as a Game method refusing what is no state or view of it (``TypeError``)."""
    return _guarded(rule, lambda game: (game.state_type, game.view_type))


def guard_drawn(rule: Callable[[Any, Sequence[Any]], Rule]) -> Any:
    """``rule(view, events)`` as a Game method (:meth:`Game.drawn`) refusing what is no
    view or event of the game (``TypeError``).
    """

    @wraps(rule)
    def method(self: Game[Any, Any, Any], seen: Any, events: Sequence[Any]) -> Rule:
        self.expect(seen, (self.view_type,))
        events = tuple(events)
        for event in events:
            self.expect(event, self.event_types)
        return rule(seen, events)

    return method


_TYPE_VARIABLES = ("ConfigT", "StateT", "MoveT", "ViewT", "EventT")


def _show_own_types(cls: type[Game[Any, Any, Any]]) -> None:
    """Give a game class a copy of each inherited method typed with the base's type
    variables, annotated with the game's own types, so ``help()`` and the API pages show
    ``apply(state: State, ...)``. A copy shares the method's code: no call costs more.
    """
    args = next((get_args(b) for b in cls.__orig_bases__ if get_origin(b) is Game), ())  # type: ignore[attr-defined]
    own = {
        name: arg
        for name, arg in zip(_TYPE_VARIABLES, args, strict=False)
        if not isinstance(arg, TypeVar)
    }
    if not own:
        return
    for name, method in vars(Game).items():
        if type(method) is not FunctionType or getattr(cls, name) is not method:
            continue
        if not any(
            variable in str(hint) for hint in method.__annotations__.values() for variable in own
        ):
            continue
        copy = FunctionType(
            method.__code__, method.__globals__, name, method.__defaults__, method.__closure__
        )
        copy.__kwdefaults__, copy.__doc__ = method.__kwdefaults__, method.__doc__
        copy.__dict__.update(method.__dict__)
        copy.__qualname__ = f"{cls.__qualname__}.{name}"
        copy.__annotations__ = get_type_hints(method, localns=own)
        setattr(cls, name, copy)


def _words(text: str) -> str:
    """``text`` as notation is compared: lower case, words one space apart."""
    return " ".join(text.split()).lower()


def exported_functions() -> tuple[str, ...]:
    """The methods of :class:`Game` marked :func:`exported`: every game package exports
    them as functions of the same name.

    >>> exported_functions()[:4]
    ('action_text', 'apply', 'apply_with_events', 'canonical')
    """
    members = vars(Game).items()
    return tuple(sorted(n for n, m in members if getattr(m, "__tabletop_exported__", False)))


def exported_names() -> tuple[str, ...]:
    """The names every game package exports alike (its move, event, card and bot classes aside)."""
    return ("CHANCE", "RULES", "Config", "State", "View", "Move", "Event", *exported_functions())
