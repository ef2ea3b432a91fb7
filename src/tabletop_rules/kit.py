"""What a game's author needs, in one module: the :class:`~tabletop_rules.game.Game` base
class, which a game subclasses, and the helpers games are written with. The earlier way, a
:class:`Declaration` and a :class:`Kernel` given to :func:`build`, works for one release,
with a ``DeprecationWarning``.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from ._messages import short_repr, short_text
from ._movetable import MoveTable, check_action
from ._seats import check_seat, top_seats
from ._slots import maker, replacer
from ._validation import (
    Fail,
    Validator,
    check_flag,
    check_type,
    check_whole,
    choice,
    flag,
    optional_whole,
    run_checks,
    whole,
)
from .bots import Unseeded, legal_moves_of
from .errors import (
    ConfigError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    TabletopError,
)
from .game import CHANCE, ChanceMode, Game, exported_functions
from .observation import Encoder, Features, ObservationSpec
from .observation import seats_from as seats_from
from .observation import viewer_features as viewer_features
from .protocol import BotFactory, register
from .rng import Rng, resolve_seed

__all__ = [
    "CHANCE",
    "ChanceMode",
    "ConfigError",
    "Declaration",
    "Encoder",
    "Fail",
    "Features",
    "Game",
    "IllegalMoveError",
    "InvalidStateError",
    "Kernel",
    "MoveTable",
    "NotationError",
    "ObservationSpec",
    "Rng",
    "TabletopError",
    "Unseeded",
    "Validator",
    "build",
    "check_action",
    "check_flag",
    "check_seat",
    "check_type",
    "check_whole",
    "choice",
    "flag",
    "legal_moves_of",
    "maker",
    "optional_whole",
    "register",
    "replacer",
    "resolve_seed",
    "run_checks",
    "seats_from",
    "short_repr",
    "short_text",
    "top_seats",
    "unseen_cards",
    "viewer_features",
    "whole",
]


@attrs.frozen
class Declaration:
    """A game's facts for the deprecated :func:`build`: the class attributes of the same
    names of a :class:`~tabletop_rules.game.Game` subclass (``players`` is its ``seats``).
    """

    name: str = attrs.field(validator=attrs.validators.matches_re(r"[a-z][a-z0-9-]*"))
    title: str
    players: tuple[int, int]
    chance_mode: ChanceMode = "explicit"
    hidden_information: bool = False
    deal_type: type[Any] | None = None
    format_version: int = 1

    def __attrs_post_init__(self) -> None:
        low, high = self.players
        if type(low) is not int or type(high) is not int or not 1 <= low <= high:
            raise ValueError(f"players must be (fewest, most), got {self.players!r}")
        if self.chance_mode not in ("deterministic", "explicit"):
            raise ValueError(f"chance_mode must be deterministic or explicit: {self.chance_mode!r}")

    @property
    def noun(self) -> str:
        """How messages name the game: ``"dice poker"``."""
        return self.name.replace("-", " ")


def _no_hooks(_converter: Any) -> None:
    return None


@attrs.frozen(kw_only=True)
class Kernel:
    """A game's own functions for the deprecated :func:`build`: the methods of a
    :class:`~tabletop_rules.game.Game` subclass, as "Moving from kit.build" in the
    authors' guide maps them.
    """

    config_type: type[Any]
    state_type: type[Any]
    view_type: type[Any]
    move_types: tuple[type[Any], ...]
    event_types: tuple[type[Any], ...]
    new_game: Callable[..., Any]
    legal_moves: Callable[[Any], tuple[Any, ...]]
    transition: Callable[[Any, Any, list[Any] | None], Any]
    score: Callable[[Any], tuple[int, ...]]
    current_player: Callable[[Any], int | None]
    view: Callable[[Any, int | None], Any]
    determinize: Callable[[Any, Rng], Any]
    format_move: Callable[[Any], str]
    encode_view: Encoder
    check_state: Callable[[Any, Fail], None]
    max_moves: Callable[[Any], int]
    moves: MoveTable[Any] | None
    chance_type: type[Any] | None = None
    why_illegal: Callable[[Any, Any], str] | None = None
    check_view: Callable[[Any, Fail], None] | None = None
    winners: Callable[[Any], frozenset[int]] | None = None
    chance_probabilities: Callable[[Any], Mapping[Any, Fraction]] | None = None
    display: Callable[[Any], str] = repr
    json_hooks: Callable[[Any], None] = _no_hooks
    deck: Callable[[Any], tuple[Any, ...]] | None = None
    bots: Mapping[str, BotFactory] = attrs.field(factory=dict)
    read_move: Callable[[Any], Any] | None = None
    transition_checks: bool = False
    own_move: Callable[[object], Any] | None = None
    canonical: Callable[[Any, Any], Any] | None = None
    read_move_in: Callable[[Any, str], Any] | None = None
    action_key: Callable[[object], Any] | None = None
    num_actions: Callable[[Any], int] | None = None
    action_text: Callable[[Any], str] | None = None
    describe: Callable[[Any, int | None], str] | None = None
    rules_summary: Callable[[Any], tuple[str, ...]] | None = None
    notation_summary: Callable[[Any], tuple[str, ...]] | None = None
    hint: Callable[[Any], tuple[str, ...]] | None = None


_FACTS = ("name", "title", "chance_mode", "hidden_information", "deal_type", "format_version")
_TYPES = ("config_type", "state_type", "view_type", "chance_type", "move_types", "event_types")
_TABLE_MEMBERS = {"determinize_each", "players", "config_of", "seed_of", "deal_of", "deck"}
_OVERRIDABLE = frozenset(exported_functions()) - {"new_game", "read_move"} | _TABLE_MEMBERS
"""The members :func:`build` takes a keyword for."""


def _a_state(game: Game[Any, Any, Any], state: Any, *_rest: Any) -> None:
    if type(state) is not game.state_type:
        game.refuse(state)


def _a_seat(game: Game[Any, Any, Any], state: Any, seat: Any) -> None:
    _a_state(game, state)
    check_seat(seat, state.config.players)


def _expects(*kinds: str, error: type[Exception] = TypeError) -> Callable[..., None]:
    """A check that a value is of one of the game's classes named ``kinds``."""
    return lambda game, value: game.expect(value, tuple(getattr(game, k) for k in kinds), error)


_a_config = _expects("config_type", error=ConfigError)
_a_view = _expects("view_type")
_a_table = _expects("state_type", "view_type")


def _a_move(game: Game[Any, Any, Any], move: Any) -> None:
    if not any(type(move) is kind for kind in game.move_types):
        raise TypeError(f"not {game.a_noun} move: {short_repr(move)}")


def _runs(
    field: str, check: Callable[..., None] | None = None, base: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """A member of a kernel's game that runs the kernel's ``field`` once ``check(game,
    *args)`` passes; the base's member ``base`` where the kernel leaves the field ``None``.
    """

    def member(self: _KernelGame, *args: Any) -> Any:
        own = getattr(self.k, field)
        if own is None:
            assert base is not None, field
            return base(self, *args)
        if check is not None:
            check(self, *args)
        return own(*args)

    return member


class _KernelGame(Game[Any, Any, Any, Any, Any]):
    """A game made by the deprecated :func:`build`: the kernel's functions behind the
    :class:`~tabletop_rules.game.Game` members, with the kit's old choice of legality path
    (``why_illegal``, ``transition_checks`` or ``own_move``).
    """

    start = _runs("new_game")
    legal_moves = _runs("legal_moves", _a_state)
    score = _runs("score", _a_state)
    current_player = _runs("current_player", _a_state)
    view = _runs("view", _a_seat)
    redeal = _runs("determinize")
    format_move = _runs("format_move", _a_move)
    encode_view = _runs("encode_view")
    check_invariants = _runs("check_state")
    max_moves = _runs("max_moves", _a_config)
    display = _runs("display", _a_table)
    json_hooks = _runs("json_hooks")
    check_view_invariants = _runs("check_view", base=Game.check_view_invariants)
    winners = _runs("winners", _a_state, Game.winners)
    chance_probabilities = _runs("chance_probabilities", _a_state, Game.chance_probabilities)
    canonical = _runs("canonical", _a_state, Game.canonical)
    event_text = _runs("describe", base=Game.event_text)
    read_move = _runs("read_move", base=Game.read_move)
    read_move_in = _runs("read_move_in", base=Game.read_move_in)
    action_key = _runs("action_key", base=Game.action_key)
    action_notation = _runs("action_text", base=Game.action_notation)
    num_actions = _runs("num_actions", _a_config, Game.num_actions)
    deck = _runs("deck", _a_config, Game.deck)
    rules_summary = _runs("rules_summary", _a_config, Game.rules_summary)
    notation_summary = _runs("notation_summary", _a_config, Game.notation_summary)
    hint = _runs("hint", _a_view, Game.hint)

    def __init__(self, declaration: Declaration, kernel: Kernel) -> None:
        assert kernel.moves is not None
        self.k, self.move_table, self.own_bots = kernel, kernel.moves, kernel.bots
        self.seats = declaration.players
        for source, names in ((declaration, _FACTS), (kernel, _TYPES)):
            vars(self).update({name: getattr(source, name) for name in names})
        super().__init__()

    def __reduce__(self) -> Any:
        """Pickled as a reference to its registry name, found through its kernel's module."""
        value = super().__reduce__()
        return value[0], (self.name, self.k.new_game.__module__)

    def known_move(self, move: object) -> Any:
        if self.k.own_move is not None:
            return self.k.own_move(move)
        if self.k.why_illegal is None:
            return super().known_move(move)
        return self._table_move(move)  # a move no state allows goes on, for why_illegal

    def transition(self, state: Any, move: Any, events: list[Any] | None) -> Any:
        checks = self.k.transition_checks or self.k.own_move is not None
        if not checks and move not in self.k.legal_moves(state):
            raise IllegalMoveError(self._why(state, move))
        return self.k.transition(state, move, events)

    def _why(self, state: Any, move: Any) -> str:
        if self.k.why_illegal is not None:
            return self.k.why_illegal(state, move)
        text = self.k.format_move(move)
        if self.k.current_player(state) is None:
            return f"the game is over: '{text}' is not a move"
        legal = ", ".join(self.k.format_move(listed) for listed in self.k.legal_moves(state))
        return f"'{text}' is not legal now; the legal moves are: {legal}"


def build(declaration: Declaration, kernel: Kernel, **overrides: Any) -> Game[Any, Any, Any]:
    """A :class:`~tabletop_rules.game.Game` that runs ``kernel``'s functions, kept for one
    release (``DeprecationWarning``); a keyword named after a member replaces it.
    """
    warnings.warn(
        "kit.build is deprecated: write the game as a subclass of tabletop_rules.game.Game",
        DeprecationWarning,
        stacklevel=2,
    )
    if type(declaration) is not Declaration or type(kernel) is not Kernel:
        raise TypeError("build() takes a kit.Declaration and a kit.Kernel")
    unknown = sorted(set(overrides) - _OVERRIDABLE)
    if unknown:
        raise TypeError(f"build() derives no member named {', '.join(unknown)}")
    if kernel.moves is None:
        raise TypeError("a kernel without a move table cannot be built; write a Game subclass")
    game = _KernelGame(declaration, kernel)
    vars(game).update(overrides)
    return game


def unseen_cards(
    deck: Iterable[Any],
    shown: Iterable[Any],
    hidden: int,
    fail: Fail,
    *,
    holds: str = "the deck holds",
    key: Callable[[Any], Any] | None = None,
) -> list[Any]:
    """The cards of ``deck`` a view does not show, sorted by ``key``, once the ``shown``
    cards are cards of the deck and add up to it with the ``hidden`` places; else
    ``fail(why)``, naming the deck as ``holds`` (``"2 deck(s) hold"``).

    >>> unseen_cards("AABC", "BA", 2, print)
    ['A', 'C']
    >>> _ = unseen_cards("AABC", "BBA", 1, print)
    cards shown more often than the deck holds them: ['B']
    """
    full, seen = Counter(deck), Counter(shown)
    extra = seen - full
    if extra:
        texts = [str(card) for card in sorted(extra.elements(), key=key)]
        fail(f"cards shown more often than {holds} them: {short_repr(texts)}")
    if seen.total() + hidden != full.total():
        fail(
            f"the counts do not add up: {seen.total()} cards shown and {hidden} hidden, but "
            f"{holds} {full.total()}"
        )
    return sorted((full - seen).elements(), key=key)
