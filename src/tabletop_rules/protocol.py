"""The shape every game shares: the :class:`Ruleset` and :class:`Bot` protocols, and the registry.

Generic code (bots, simulation, the conformance suite, serialization) is written once
against :class:`Ruleset`; each game package bundles its functions into a ``RULES`` object
that satisfies it. :func:`get_ruleset` finds a game by name, and a ruleset's ``bots``
make its bots by name (``"random"`` for every game):

>>> from tabletop_rules import get_ruleset
>>> rules = get_ruleset("dice-poker")
>>> state = rules.new_game(seed=1)
>>> rules.current_player(state)
0
>>> "dice-poker" in rulesets()
True
>>> sorted(rules.bots)
['coach', 'greedy', 'random']
>>> rules.bots["random"](seed=3)
RandomBot('dice-poker')
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import partial
from pickle import PicklingError
from types import MappingProxyType
from typing import Any, Final, Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

import attrs
from typing_extensions import TypeVar as DefaultedTypeVar

from . import plugins
from ._messages import short_repr
from ._validation import check_type
from .errors import ConfigError, GamePluginError, UnknownGameError
from .observation import ObservationSpec
from .rng import Rng

__all__ = [
    "CHANCE",
    "GAME_EXPORTS",
    "Bot",
    "BotFactory",
    "GameRules",
    "NewGame",
    "Ruleset",
    "Seat",
    "ViewOf",
    "check_ruleset",
    "event_fields",
    "get_ruleset",
    "guide_lines",
    "register",
    "registered",
    "rulesets",
]

Seat: TypeAlias = int
"""A player's seat, 0-based in seat order."""

CHANCE: Final = -1
"""The "player" who moves at a chance point: :meth:`Ruleset.current_player` returns it there."""

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
ViewT = DefaultedTypeVar("ViewT", default=Any)
EventT = DefaultedTypeVar("EventT", default=Any)
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
MoveT_co = TypeVar("MoveT_co", covariant=True)
ConfigT_contra = TypeVar("ConfigT_contra", contravariant=True)
StateT_contra = TypeVar("StateT_contra", contravariant=True)
StateT_co = TypeVar("StateT_co", covariant=True)
ViewT_co = TypeVar("ViewT_co", covariant=True)
DealT_contra = TypeVar("DealT_contra", contravariant=True)


@runtime_checkable
class Ruleset(Protocol[ConfigT, StateT, MoveT, ViewT, EventT]):
    """One game's rules, bundled: what generic code needs to play, check and store it.

    Each game package's ``RULES`` satisfies this protocol; the module-level functions of
    the package are the same functions. Its type parameters are the game's ``Config``,
    ``State``, ``Move``, ``View`` and ``Event`` types; code that serves any game writes
    ``Ruleset[Any, Any, Any]`` (the view and event types default to ``Any``).
    """

    @property
    def name(self) -> str:
        """The registry name, e.g. ``"dice-poker"``."""
        ...

    @property
    def title(self) -> str:
        """The game's name for people, e.g. ``"Dice poker"``."""
        ...

    @property
    def config_type(self) -> type[ConfigT]:
        """The game's frozen ``Config`` class."""
        ...

    @property
    def state_type(self) -> type[StateT]:
        """The game's frozen ``State`` class."""
        ...

    @property
    def move_types(self) -> tuple[type[Any], ...]:
        """Every frozen move class of the game, chance outcomes included."""
        ...

    @property
    def event_types(self) -> tuple[type[Any], ...]:
        """Every frozen event class of the game."""
        ...

    @property
    def hidden_information(self) -> bool:
        """Whether a seat's view hides part of the state from it beyond the generator
        (cards in other hands, a face-down row, a stock).
        """
        ...

    def players(self, config: ConfigT) -> int:
        """The number of seats that ``config`` sets at the table."""
        ...

    def config_of(self, state: StateT) -> ConfigT:
        """The house rules in force in ``state``."""
        ...

    def seed_of(self, state: StateT) -> int:
        """The seed ``state``'s game started from: with its config, and its deal where it
        has one, ``new_game`` starts the same game again.
        """
        ...

    @property
    def deal_type(self) -> type[Any] | None:
        """The class of a deal's items (a card), for a game whose ``new_game`` takes a
        ``deal``; ``None`` for a game without a deck.
        """
        ...

    def deal_of(self, state: StateT) -> tuple[Any, ...] | None:
        """The deck order ``state``'s game was dealt from when it was given to
        ``new_game`` as ``deal``; ``None`` when the seed shuffled it, or there is no deck.
        """
        ...

    def deck(self, config: ConfigT) -> tuple[Any, ...]:
        """Every card of ``config``'s deck in a fixed order, before any shuffle (each order
        of it is a ``deal``); ``()`` for a game without a deck.
        """
        ...

    @property
    def format_version(self) -> int:
        """The version of the game's JSON layout; loaders refuse any other."""
        ...

    def json_hooks(self, converter: Any) -> None:
        """Register the game's own hooks on the shared cattrs ``converter`` (called once,
        before the game's first dump or load): cards as text, derived fields left out.
        """
        ...

    @property
    def view_type(self) -> type[ViewT]:
        """The game's frozen ``View`` class."""
        ...

    def new_game(
        self, config: ConfigT | None = None, *, seed: int | None = None, deal: Any = None
    ) -> StateT:
        """A new game; ``seed=None`` draws a fresh seed and keeps it in the state."""
        ...

    def legal_moves(self, state: StateT) -> tuple[MoveT, ...]:
        """Every legal move in a deterministic order; the outcomes at a chance point."""
        ...

    def chance_probabilities(self, state: StateT) -> Mapping[MoveT, Fraction]:
        """Exact probabilities of the outcomes at a chance point; empty elsewhere."""
        ...

    def apply(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``; raises ``IllegalMoveError`` and leaves ``state`` as it was."""
        ...

    def canonical(self, state: StateT, move: MoveT) -> MoveT:
        """The move of :meth:`legal_moves` equivalent to ``move`` (the same for a game
        where no two moves are equivalent); ``IllegalMoveError`` when none is.
        """
        ...

    def apply_with_events(self, state: StateT, move: MoveT) -> tuple[StateT, tuple[EventT, ...]]:
        """:meth:`apply`, and the events of the transition, in order."""
        ...

    def score(self, state: StateT) -> tuple[int, ...]:
        """Each seat's score now; higher is better."""
        ...

    def current_player(self, state: StateT) -> Seat | None:
        """The seat to move, :data:`CHANCE` at a chance point, ``None`` when over."""
        ...

    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended."""
        ...

    def winners(self, state: StateT) -> frozenset[Seat]:
        """The winning seats; empty until the game is over."""
        ...

    def view(self, state: StateT, seat: Seat | None) -> ViewT:
        """What ``seat`` may know of ``state`` (``None``: a spectator)."""
        ...

    def determinize(self, view: ViewT, rng: Rng) -> StateT:
        """A full state consistent with ``view``, everything its seat cannot see re-dealt
        from ``rng``: ``view(determinize(v, rng), v.seat) == v``.
        """
        ...

    def redact(self, event: EventT, seat: Seat | None) -> EventT:
        """``event`` as ``seat`` may see it."""
        ...

    def describe(self, event: EventT, seat: Seat | None) -> str:
        """``event`` in one plain English sentence as ``seat`` sees it (``None``: a
        spectator): ``"You played 7H 7S"``, ``"P1 drew 2 cards"``. The event is redacted
        for ``seat`` first, so the sentence never names what the seat may not see.
        """
        ...

    def format_move(self, move: MoveT) -> str:
        """The move's short text notation."""
        ...

    def display(self, game: StateT | ViewT) -> str:
        """The table as plain text for terminals and logs: a view as its seat sees it, a
        state as a spectator sees it (never more).
        """
        ...

    def parse_move(self, state: StateT | ViewT, text: str) -> MoveT:
        """The legal move that ``text`` names in ``state``, or for the seat of a view."""
        ...

    def num_actions(self, config: ConfigT) -> int:
        """The size of the action space, chance outcomes included."""
        ...

    def encode(self, move: MoveT) -> int:
        """The move's action number."""
        ...

    def decode(self, state: StateT, action: int) -> MoveT:
        """The legal move with action number ``action`` in ``state``."""
        ...

    def legal_mask(self, state: StateT) -> tuple[bool, ...]:
        """For each action number, whether it is legal in ``state``."""
        ...

    def chance_offset(self, config: ConfigT) -> int:
        """The number of the first chance outcome: outcomes are numbered from here to
        :meth:`num_actions`, every player move below it (:meth:`num_actions` itself for a
        game without chance points).
        """
        ...

    def action_text(self, config: ConfigT, action: int) -> str:
        """The notation of the move (or class of equivalent moves) numbered ``action``,
        without a state; :meth:`parse_move` reads it back, in a state where it is legal,
        to the listed move. Raises :class:`~tabletop_rules.errors.IllegalMoveError` for
        an action that is not a whole number within :meth:`num_actions`.
        """
        ...

    def observation_spec(self, config: ConfigT) -> ObservationSpec:
        """The size, bounds and names of :meth:`observe`'s numbers under ``config``."""
        ...

    def observe(self, view: ViewT) -> tuple[float, ...]:
        """``view`` as a flat tuple of floats, from the view alone: as long as
        :meth:`observation_spec` says, each element within its bounds.
        """
        ...

    def max_moves(self, config: ConfigT) -> int:
        """An upper bound on the moves of one game, chance outcomes included."""
        ...

    def check_state(self, state: StateT) -> None:
        """Raise ``InvalidStateError`` unless ``state`` keeps every invariant of the game."""
        ...

    def check_view(self, view: ViewT) -> None:
        """Raise ``InvalidStateError`` unless ``view`` is internally consistent: counts add
        up, no card is in two places, what it derives follows from what it shows. With
        hidden cards, whether some reachable state has this view cannot be decided; a
        game without them (dice poker) may check that too.
        """
        ...

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """The game's bots by the names people type (``--bots random,greedy``), each a
        factory that makes a new bot for one game from a seed: ``"random"``
        (:class:`~tabletop_rules.bots.RandomBot`) for every game, and the game's own.
        """
        ...


class Bot(Protocol[ViewT_contra, MoveT_co]):
    """A player: picks one of the legal moves of its seat's view.

    Bots see views, never states: a view holds what its seat may know (never another
    seat's hidden cards, nor the generator that predicts the dice) and, in
    ``legal_moves``, the moves open to that seat. Every game's view has ``seat``,
    ``current_player`` and ``legal_moves`` fields.
    """

    def choose(self, view: ViewT_contra) -> MoveT_co:
        """The move to play, one of ``view.legal_moves``."""
        ...


class NewGame(Protocol[ConfigT_contra, StateT_co, DealT_contra]):
    """A game's ``new_game(config=None, *, seed=None, deal=None)``, typed once for every
    game; ``DealT`` is the game's ``Deal`` (``None`` for a game without a deck).
    """

    def __call__(
        self,
        config: ConfigT_contra | None = None,
        *,
        seed: int | None = None,
        deal: DealT_contra = ...,
    ) -> StateT_co:
        """A new game of ``config`` (the defaults for ``None``), dealt from ``seed`` or ``deal``."""
        ...


class ViewOf(Protocol[StateT_contra, ViewT_co]):
    """A game's ``view(state, seat)``, typed once for every game."""

    def __call__(self, state: StateT_contra, seat: Seat | None) -> ViewT_co:
        """What ``seat`` may know of ``state`` (``None``: a spectator)."""
        ...


BotFactory: TypeAlias = Callable[[int], Bot[Any, Any]]
"""Makes a new bot for one game from a seed (a bot that draws no random numbers ignores
it). A class or a module-level function, so that it pickles and can be sent to worker
processes; :class:`~tabletop_rules.bots.Unseeded` adapts a bot class without a seed."""


_SHARED_BOTS: dict[str, Callable[[Ruleset[Any, Any, Any], int], Bot[Any, Any]]] = {}
"""The bots that play any game, by name: each makes a bot from a ruleset and a seed."""


def _share_bot(name: str, make: Callable[[Ruleset[Any, Any, Any], int], Bot[Any, Any]]) -> None:
    """Offer ``make`` in every :class:`GameRules`' :attr:`~GameRules.bots` as ``name``.

    :mod:`tabletop_rules.bots` shares its :class:`~tabletop_rules.bots.RandomBot` so, as
    ``"random"``: this module, which the bots build on, does not import them. The package
    imports :mod:`tabletop_rules.bots` before any ruleset can be made.
    """
    _SHARED_BOTS[name] = make


def _frozen_bots(bots: Mapping[str, BotFactory]) -> Mapping[str, BotFactory]:
    return MappingProxyType(dict(bots))


@attrs.frozen
class _FieldReader:
    """Reads one field of a config or state (``None`` for no field) once its type is
    checked, so that what is no config or state gets the library's error: the default of
    :class:`GameRules`' ``players``, ``config_of``, ``seed_of`` and ``deal_of``.
    """

    kind: type[Any]
    field: str | None
    error: type[Exception] = TypeError

    def __call__(self, value: object) -> Any:
        checked = check_type(value, (self.kind,), self.error)
        return None if self.field is None else getattr(checked, self.field)


def event_fields(event: object) -> str:
    """An event told by its class and fields, ``"Rolled: seat 0, value 3"``: the sentence
    of a game that writes none of its own.
    """
    kind = type(event)
    if not attrs.has(kind):
        return kind.__name__
    fields = ", ".join(
        f"{field.name.replace('_', ' ')} {getattr(event, field.name)!s}"
        for field in attrs.fields(kind)
    )
    return f"{kind.__name__}: {fields}" if fields else kind.__name__


@attrs.frozen
class _EventFields:
    """The default of :class:`GameRules`' ``describe``: :func:`event_fields` of the event
    as ``redact`` leaves it for the seat.
    """

    redact: Callable[[Any, int | None], Any]

    def __call__(self, event: Any, seat: Seat | None) -> str:
        return event_fields(self.redact(event, seat))


@attrs.frozen
class _EachDealt:
    """The default of :class:`GameRules`' ``determinize_each``: ``determinize`` once for
    each generator.
    """

    determinize: Callable[[Any, Rng], Any]

    def __call__(self, seen: Any, rngs: Sequence[Rng]) -> tuple[Any, ...]:
        return tuple(self.determinize(seen, rng) for rng in rngs)


def determinize_each_of(ruleset: Any) -> Callable[[Any, Sequence[Rng]], Sequence[Any]]:
    """``ruleset``'s ``determinize_each``, or one that calls its ``determinize`` once a
    generator, for a hand-written ruleset that has none: how the search and the
    conformance suite deal their guesses.
    """
    each: Any = getattr(ruleset, "determinize_each", None)
    return _EachDealt(ruleset.determinize) if each is None else each


def _no_lines(_value: object) -> tuple[str, ...]:
    """The default of :class:`GameRules`' ``rules_summary``, ``notation_summary`` and
    ``hint``: a game that gives none has nothing to say.
    """
    return ()


def guide_lines(ruleset: object, member: str, value: object) -> tuple[str, ...]:
    """``ruleset.<member>(value)`` for ``member`` one of :class:`GameRules`' optional
    ``rules_summary``, ``notation_summary`` and ``hint``; ``()`` for a ruleset without it
    (one written by hand against :class:`Ruleset`, which does not require them).

    >>> from tabletop_rules import get_ruleset
    >>> palace = get_ruleset("palace")
    >>> guide_lines(palace, "notation_summary", palace.config_type())[1]
    'play 7 7: lay two 7s of your own, whichever suits'
    >>> guide_lines(object(), "hint", None)
    ()
    """
    if member not in ("rules_summary", "notation_summary", "hint"):
        raise ValueError(f"no guide member {member!r}")
    own = getattr(ruleset, member, None)
    if own is None:
        return ()
    return tuple(str(line) for line in own(value))


@attrs.frozen
class GameRules(Generic[ConfigT, StateT, MoveT, ViewT, EventT]):
    """The concrete :class:`Ruleset` a game package builds from its functions."""

    name: str
    title: str
    config_type: type[ConfigT]
    state_type: type[StateT]
    move_types: tuple[type[Any], ...]
    event_types: tuple[type[Any], ...]
    view_type: type[ViewT]
    new_game: NewGame[ConfigT, StateT, Any]
    legal_moves: Callable[[StateT], tuple[MoveT, ...]]
    chance_probabilities: Callable[[StateT], Mapping[MoveT, Fraction]]
    apply: Callable[[StateT, MoveT], StateT]
    apply_with_events: Callable[[StateT, MoveT], tuple[StateT, tuple[EventT, ...]]]
    canonical: Callable[[StateT, MoveT], MoveT]
    score: Callable[[StateT], tuple[int, ...]]
    current_player: Callable[[StateT], int | None]
    is_over: Callable[[StateT], bool]
    winners: Callable[[StateT], frozenset[Seat]]
    view: ViewOf[StateT, ViewT]
    determinize: Callable[[ViewT, Rng], StateT]
    redact: Callable[[EventT, int | None], EventT]
    format_move: Callable[[MoveT], str]
    parse_move: Callable[[StateT | ViewT, str], MoveT]
    num_actions: Callable[[ConfigT], int]
    encode: Callable[[MoveT], int]
    decode: Callable[[StateT, int], MoveT]
    legal_mask: Callable[[StateT], tuple[bool, ...]]
    max_moves: Callable[[ConfigT], int]
    check_state: Callable[[StateT], None]
    check_view: Callable[[ViewT], None]
    chance_offset: Callable[[ConfigT], int]
    action_text: Callable[[ConfigT, int], str]
    observation_spec: Callable[[ConfigT], ObservationSpec]
    observe: Callable[[ViewT], tuple[float, ...]]
    hidden_information: bool = False
    deal_type: type[Any] | None = None
    players: Callable[[ConfigT], int] = attrs.field(
        default=attrs.Factory(
            lambda rules: _FieldReader(rules.config_type, "players", ConfigError), takes_self=True
        )
    )
    """Seats at the table; by default the config's ``players``."""
    config_of: Callable[[StateT], ConfigT] = attrs.field(
        default=attrs.Factory(
            lambda rules: _FieldReader(rules.state_type, "config"), takes_self=True
        )
    )
    """A state's config; by default its ``config``."""
    seed_of: Callable[[StateT], int] = attrs.field(
        default=attrs.Factory(lambda rules: _FieldReader(rules.state_type, "seed"), takes_self=True)
    )
    """A state's seed; by default its ``seed``."""
    deal_of: Callable[[StateT], tuple[Any, ...] | None] = attrs.field(
        default=attrs.Factory(
            lambda rules: _FieldReader(
                rules.state_type, None if rules.deal_type is None else "deal"
            ),
            takes_self=True,
        )
    )
    """The deal a state's game was started from: by default its ``deal`` for a game with a
    ``deal_type``, ``None`` for one without."""
    deck: Callable[[ConfigT], tuple[Any, ...]] = attrs.field(default=lambda _config: ())
    """A config's deck, unshuffled; by default none, ``()``."""
    format_version: int = 1
    json_hooks: Callable[[Any], None] = attrs.field(default=lambda _converter: None)
    """Registers the game's own JSON hooks; by default it has none."""
    determinize_each: Callable[[ViewT, Sequence[Rng]], tuple[StateT, ...]] = attrs.field(
        default=attrs.Factory(lambda rules: _EachDealt(rules.determinize), takes_self=True)
    )
    """One full state for each generator of a sequence, each the state ``determinize``
    deals from the view with it: a search's guesses. By default ``determinize`` for each;
    a game built by :func:`~tabletop_rules.kit.build` checks the view once, with the
    first deal, so the guesses cost only their dealing."""
    display: Callable[[Any], str] = attrs.field(default=lambda game: repr(game))
    """Draws a view or a state as text; by default its ``repr``."""
    describe: Callable[[EventT, int | None], str] = attrs.field(
        default=attrs.Factory(lambda rules: _EventFields(rules.redact), takes_self=True)
    )
    """Tells an event in words as a seat sees it; by default the redacted event's class
    and fields."""
    rules_summary: Callable[[ConfigT], tuple[str, ...]] = attrs.field(default=_no_lines)
    """The game's own rules under a config's house rules, in a few lines for a player at
    the table (the terminal's ``help``): what is special (a 10 burns the pile), not the
    whole rules page; by default none, ``()``. Generic code reads it with
    :func:`guide_lines`, so a hand-written ruleset need not have it."""
    notation_summary: Callable[[ConfigT], tuple[str, ...]] = attrs.field(default=_no_lines)
    """The game's move notation under a config, a form with an example a line (``play 7
    7``: two 7s of your own); by default none, ``()``: the terminal then shows examples
    from :meth:`~Ruleset.action_text`."""
    hint: Callable[[ViewT], tuple[str, ...]] = attrs.field(default=_no_lines)
    """What the moves open to a view's seat would do now, in a few lines (the terminal's
    ``hint``; each game's ``hints`` module holds the numbers); by default none, ``()``."""
    own_bots: Mapping[str, BotFactory] = attrs.field(
        factory=dict, converter=_frozen_bots, hash=False
    )
    """The game's own bots by name; :attr:`bots` adds ``"random"``, which every game has."""

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """``"random"`` (a :class:`~tabletop_rules.bots.RandomBot` of this game), then the
        game's :attr:`own_bots`.
        """
        shared = {name: partial(make, self) for name, make in _SHARED_BOTS.items()}
        return MappingProxyType({**shared, **self.own_bots})

    def __repr__(self) -> str:
        return f"<GameRules {self.name!r}>"

    def __reduce__(self) -> tuple[Callable[[str, str], Ruleset[Any, Any, Any]], tuple[str, str]]:
        """A ruleset pickles as a reference, its registry name, so that it can be sent to a
        worker process (with a bot factory, or a simulation's games). The receiving
        process finds it with :func:`get_ruleset`, after importing the module of its
        ``new_game`` when the name is not registered there yet (a third-party game).
        """
        if _find(self.name) is not self:
            raise PicklingError(
                f"only a registered ruleset can be pickled; register {self.name!r} first"
            )
        return _registered_ruleset, (self.name, self.new_game.__module__)


_BUILTIN: Final[Mapping[str, str]] = {
    "account": "tabletop_rules.account",
    "dice-poker": "tabletop_rules.dice_poker",
    "palace": "tabletop_rules.palace",
}
BUILT_IN_GAMES: Final[Mapping[str, str]] = MappingProxyType(_BUILTIN)
"""The library's own games: each name, held for it in the registry, and the module whose
``RULES`` it is."""
_registered: dict[str, Ruleset[Any, Any, Any]] = {}


def check_ruleset(value: object) -> Ruleset[Any, Any, Any]:
    """``value`` if it has every member of :class:`Ruleset`; else ``TypeError`` saying
    where rulesets come from. The guard of the functions that take a ruleset.

    >>> check_ruleset("palace")
    Traceback (most recent call last):
    ...
    TypeError: expected a ruleset (get_ruleset(name), or a game's RULES), got 'palace'
    """
    if type(value) is not GameRules and not isinstance(value, Ruleset):
        raise TypeError(
            f"expected a ruleset (get_ruleset(name), or a game's RULES), got {short_repr(value)}"
        )
    return value


def register(ruleset: Ruleset[Any, Any, Any]) -> None:
    """Make ``ruleset`` findable by :func:`get_ruleset` under its name.

    Built-in games register themselves when imported. A game of another package is found
    without this call through its entry point (:mod:`~tabletop_rules.plugins`); it calls
    it too (once, at import) where its states should serialize before it is looked up by
    name, as the built-in games' do.

    Raises :class:`~tabletop_rules.errors.GamePluginError` when another ruleset has the
    name, and for a built-in game's name (``"palace"``) unless ``ruleset`` is the
    ``RULES`` of that game's own module: the names are reserved whether or not the
    built-in game is imported yet.
    """
    check_ruleset(ruleset)
    name = ruleset.name
    if name != game_name(name):
        raise GamePluginError(
            f"the name {name!r} is the built-in game {game_name(name)!r} spelled with "
            "underscores, reserved for it; register the game under a name of its own"
        )
    existing = _find(name)
    if name in _BUILTIN and ruleset is not _builtin_rules(name):
        taken = f"a ruleset named {name!r} is registered already: " if existing is not None else ""
        raise GamePluginError(
            f"{taken}the name {name!r} is reserved for the built-in game of "
            f"{_BUILTIN[name]}; register the game under a name of its own"
        )
    if existing is not None and existing is not ruleset:
        raise GamePluginError(f"a ruleset named {name!r} is registered already")
    _registered[name] = ruleset


def _builtin_rules(name: str) -> object:
    """The ``RULES`` of the built-in game ``name``'s module, once that module has set it
    (also while it is still importing, as it registers at its end); else ``None``.
    """
    return getattr(sys.modules.get(_BUILTIN[name]), "RULES", None)


def get_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset registered as ``name``: built-in games load on first use, and games of
    other packages through the entry-point group :data:`~tabletop_rules.plugins.GROUP`.

    Raises :class:`~tabletop_rules.errors.UnknownGameError` (a ``KeyError`` too) naming
    the known games when there is none, and
    :class:`~tabletop_rules.errors.GamePluginError` (an ``UnknownGameError`` too) naming the
    entry point and its distribution when another package's game cannot be loaded:

    >>> get_ruleset("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.UnknownGameError: no game named 'chess'; known: account, dice-poker, ...

    A built-in game is found by its package's spelling too:

    >>> get_ruleset("dice_poker") is get_ruleset("dice-poker")
    True
    """
    name = game_name(name)
    ruleset = _find(name)
    if ruleset is not None:
        return ruleset
    if name in _BUILTIN:
        module = importlib.import_module(_BUILTIN[name])
        register(module.RULES)
        return _registered[name]
    if type(name) is str:
        ruleset = plugins.load(name, check_ruleset)
        if ruleset is not None:
            return ruleset
    raise UnknownGameError(f"no game named {name!r}; known: {', '.join(rulesets())}")


def game_name(name: object) -> Any:
    """``name``, or the built-in game's name it spells with underscores (``"dice_poker"``,
    as its package is named, for ``"dice-poker"``): every function that takes a game's
    name takes either spelling.
    """
    if type(name) is str and "_" in name and name.replace("_", "-") in _BUILTIN:
        return name.replace("_", "-")
    return name


def _find(name: str) -> Ruleset[Any, Any, Any] | None:
    """The ruleset known as ``name`` now, registered or loaded through its entry point
    (built-in names are never taken from the group); ``None`` when there is none yet.
    """
    ruleset = _registered.get(name)
    if ruleset is None and name not in _BUILTIN:
        ruleset = plugins.loaded().get(name)
    return ruleset


def _registered_ruleset(name: str, module: str) -> Ruleset[Any, Any, Any]:
    """The ruleset a pickled :class:`GameRules` names, importing ``module`` (which
    registers it) when the name is not known in this process yet.
    """
    if name not in _registered and name not in _BUILTIN:
        importlib.import_module(module)
    return get_ruleset(name)


def registered() -> tuple[Ruleset[Any, Any, Any], ...]:
    """The rulesets registered so far: built-in games once imported, games of other
    packages once loaded through their entry points.
    """
    found = plugins.loaded()
    if not found:
        return tuple(_registered.values())
    return (
        *_registered.values(),
        *(ruleset for name, ruleset in found.items() if name not in {*_BUILTIN, *_registered}),
    )


def rulesets() -> tuple[str, ...]:
    """The names of every game :func:`get_ruleset` gives, sorted: the built-in ones, those
    registered, and those of other packages that load through their entry points (each
    one that does not is left out, with a :class:`~tabletop_rules.plugins.GamePluginWarning`).
    """
    found = plugins.loadable(check_ruleset, reserved=_BUILTIN)
    return tuple(sorted({*_BUILTIN, *_registered, *(ruleset.name for ruleset in found)}))


def game_names() -> tuple[str, ...]:
    """Every name a game may be asked for by, sorted, with no game imported: the built-in
    ones, those registered, and those other packages declare (:func:`plugins.names
    <tabletop_rules.plugins.names>`), each of which may still fail when asked for. For a
    program's start, such as the command line's help; :func:`rulesets` lists only the
    games that load.
    """
    return tuple(sorted({*_BUILTIN, *_registered, *plugins.names()}))


GAME_EXPORTS: Final[tuple[str, ...]] = (
    "CHANCE",
    "RULES",
    "MAX_PLAYERS",
    "Config",
    "State",
    "View",
    "Move",
    "Event",
    "Deal",
    "MOVE_TYPES",
    "EVENT_TYPES",
    "new_game",
    "legal_moves",
    "chance_probabilities",
    "apply",
    "apply_with_events",
    "canonical",
    "score",
    "current_player",
    "is_over",
    "winners",
    "view",
    "determinize",
    "redact",
    "describe",
    "check_state",
    "check_view",
    "format_move",
    "parse_move",
    "read_move",
    "num_actions",
    "encode",
    "decode",
    "legal_mask",
    "action_text",
    "chance_offset",
    "max_moves",
    "observe",
    "observation_spec",
    "display",
)
"""The names every built-in game package exports, with the same meaning and signature in
each (``display(view_or_state) -> str`` draws the table; ``Deal`` is the type of
``new_game``'s ``deal``), besides its move and event classes (those of ``RULES.move_types``
and ``RULES.event_types``, by class name). Generic code may rely on them."""
