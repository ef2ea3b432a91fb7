"""Writing a game: one :class:`Declaration` of its facts, one :class:`Kernel` of its own
rules, and :func:`build`, the shell written once, which derives the rest of the
:class:`~tabletop_rules.protocol.GameRules` bundle.

The kernel holds only what is the game's own: its types, ``new_game``, ``legal_moves``,
the ``transition`` (which may assume a legal, listed move and appends its events to a
list when it is given one), ``score``, ``current_player``, ``view``, ``determinize``,
notation, observation, display, the sentences of its events (``describe``) and bots.
:func:`build` derives, with the library's entry guards and error translation:

- ``apply`` / ``apply_with_events``: the state's type is checked first (a view gets a
  ``TypeError`` saying what to pass), the move becomes the instance ``legal_moves``
  lists, or :class:`~tabletop_rules.errors.IllegalMoveError` names the rule
  (``Kernel.why_illegal``); then the transition runs;
- ``canonical`` (the listed move equal to the one given), ``is_over``
  (``current_player`` is ``None``), ``winners`` (the top scores once over),
  ``chance_probabilities`` (uniform over the chance outcomes);
- the action codec from the kernel's :class:`~tabletop_rules.kit.MoveTable`;
- ``parse_move`` (the legal move whose notation the text is), ``redact`` (identity),
  ``describe`` (the kernel's sentence of the event as ``redact`` leaves it for the seat),
  ``check_state`` / ``check_view`` (the kernel's invariants inside
  :func:`~tabletop_rules.kit.run_checks`; a view must be the view of the state
  dealt from it), ``observe`` / ``observation_spec`` from one encoder.

Every derived member can be replaced: ``build(DECLARATION, KERNEL, apply=fast_apply)``
(give the measured reason in a comment on that line). The helpers an author needs are
re-exported here, so a game imports only this module.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from functools import wraps
from types import MappingProxyType
from typing import Any, Final, Literal, NoReturn

import attrs

from ._messages import short_repr, short_text
from ._movetable import MoveTable, check_action
from ._seats import check_on_turn, check_seat, top_seats
from ._slots import maker, replacer
from ._validation import (
    Fail,
    Validator,
    check_dealt_view,
    check_flag,
    check_type,
    check_whole,
    choice,
    flag,
    optional_whole,
    refuse_state,
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
from .observation import Encoder, Features, ObservationSpec, encoded, encoding_spec
from .observation import seats_from as seats_from
from .observation import viewer_features as viewer_features
from .protocol import CHANCE, BotFactory, GameRules, event_fields, register
from .rng import Rng, is_valid_state, resolve_seed

__all__ = [
    "CHANCE",
    "RULES_FUNCTIONS",
    "ChanceMode",
    "ConfigError",
    "Declaration",
    "Encoder",
    "Fail",
    "Features",
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
    "check_flag",
    "check_seat",
    "check_type",
    "check_whole",
    "choice",
    "derived",
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
    "top_seats",
    "unseen_cards",
    "viewer_features",
    "whole",
]

ChanceMode = Literal["deterministic", "explicit"]
"""``"deterministic"``: no chance point after the deal (palace). ``"explicit"``: the
game stops at chance points (``current_player == CHANCE``) whose outcomes are moves."""


@attrs.frozen
class Declaration:
    """A game's facts, stated once (OpenSpiel's ``_GAME_TYPE`` is the model).

    Attributes:
        name: The registry name, lower case with hyphens (``"pig"``).
        title: The name for people (``"Pig"``).
        players: The fewest and most seats, for the config's validator
            (``whole(*DECLARATION.players)``).
        chance_mode: Whether the game has chance points (:data:`ChanceMode`).
        hidden_information: Whether a seat's view hides more than the generator.
        deal_type: The class of a deal's items for a game with a deck, else ``None``.
        format_version: The version of the game's JSON layout.

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


def _repr_display(game: Any) -> str:
    return repr(game)


@attrs.frozen(kw_only=True)
class Kernel:
    """What is really a game's own; :func:`build` derives every other member.

    Required: the types, ``new_game``, ``legal_moves`` (the table's instances, in a
    deterministic order), ``transition(state, move, events)`` (``move`` is a listed legal
    move; append the events to ``events`` unless it is ``None``), ``score``,
    ``current_player``, ``view`` (the view holds ``seat``, ``current_player`` and
    ``legal_moves``), ``determinize``, ``format_move``, ``encode_view`` (an
    :data:`~tabletop_rules.observation.Encoder`), ``check_state(state, fail)`` (the
    invariants; call ``fail(why)``), ``max_moves``, and ``moves``, the
    :class:`~tabletop_rules.kit.MoveTable` of every move in action order (chance
    outcomes, of ``chance_type``, last); ``None`` only for a game that passes its own codec
    members to :func:`build`. Optional: ``why_illegal(state, move) -> str`` names the rule a
    move breaks; ``check_view(view, fail)`` checks what a view holds beyond what its
    state would; ``winners``, ``chance_probabilities``, ``display``, ``json_hooks``,
    ``deck``, ``bots`` (the game's own factories by name), ``read_move(text)`` (the
    game's reader of move text, ``NotationError`` for text naming no move, whatever its
    type: ``parse_move`` then reads the text with it rather than by ``format_move``), and
    ``transition_checks`` (``True`` for a game whose ``transition`` itself refuses every
    move that is not legal, naming the rule: ``apply`` then hands the transition the move
    table's instance of the move without listing the legal moves first, and the
    transition's refusal is ``why_illegal``). A game that does so without a move table
    (or with its own idea of a move's instance) gives ``own_move(move)`` instead: the
    game's own instance of an equal move, else ``move`` itself, or ``IllegalMoveError``
    for what is no move.
    A game whose ``legal_moves`` lists one move per class of equivalent moves (palace:
    which suits of a rank are played) also gives ``canonical(state, move)``, the listed
    move of the class of an accepted one, and may give ``read_move_in(state, text)``, its
    reading of text that names a move by what the state holds (palace's ``play 7 7``): the
    listed move, or ``IllegalMoveError`` naming the rule (a view's text is read in the state
    dealt from it, once ``read_move`` accepted it and the view's seat is on turn). Its
    codec numbers classes: ``action_key(move)`` is the table's move standing for ``move``'s
    class (``IllegalMoveError`` for a move of no class), ``num_actions(config)`` how many of
    the table's numbers a config uses (the table holds the largest config's),
    ``action_text(move)`` the text of a class from the move standing for it
    (``format_move`` by default). ``describe(event, seat)`` tells an event in one
    sentence as ``seat`` sees it; it is handed the event as ``redact`` leaves it for that
    seat, so it cannot name what the seat may not see (without it, the sentence is the
    event's class and fields). ``rules_summary(config)`` and ``notation_summary(config)``
    give the game's rules and notation in a few lines each for a player's help, and
    ``hint(view)`` what the moves open to the view's seat would do now (the terminal's
    ``help`` and ``hint``); a kernel without them has none (``()``).
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
    display: Callable[[Any], str] = _repr_display
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


_NO_CHANCES: Final[Mapping[Any, Fraction]] = MappingProxyType({})

_DERIVED: Final = frozenset(
    {
        "apply", "apply_with_events", "canonical", "is_over", "winners", "score",
        "current_player", "legal_moves", "view", "determinize", "determinize_each",
        "chance_probabilities", "redact", "parse_move", "format_move", "num_actions", "encode",
        "decode", "legal_mask", "chance_offset", "action_text", "observe", "observation_spec",
        "check_state", "check_view", "max_moves", "display", "players", "config_of",
        "seed_of", "deal_of", "deck", "describe",
    }
)  # fmt: skip
"""The members :func:`build` derives and a game may replace by keyword."""


RULES_FUNCTIONS: Final[list[str]] = [
    "action_text", "apply", "apply_with_events", "canonical", "chance_offset",
    "chance_probabilities", "check_state", "check_view", "current_player", "decode", "describe",
    "determinize", "display", "encode", "format_move", "is_over", "legal_mask", "legal_moves",
    "max_moves", "new_game", "num_actions", "observation_spec", "observe", "parse_move",
    "redact", "score", "view", "winners",
]  # fmt: skip
"""The members of a game's ``RULES`` that its package exports as functions of the same
name (``palace.apply is palace.RULES.apply``): a package's ``__init__`` assigns each and
adds them to its ``__all__`` with ``__all__ += kit.RULES_FUNCTIONS``."""


def derived() -> frozenset[str]:
    """The names of the members :func:`build` derives: each can be passed to replace it."""
    return _DERIVED


class _Shell:
    """The members derived from one declaration and kernel (see the module's docstring)."""

    def __init__(self, declaration: Declaration, kernel: Kernel, overrides: dict[str, Any]) -> None:
        self.d = declaration
        self.k = kernel
        self.noun = declaration.noun
        self.a_noun = ("an " if self.noun[:1] in "aeiou" else "a ") + self.noun  # an account
        # The shell's own methods call these guarded members, or the overrides in their place.
        self.legal_moves: Callable[[Any], tuple[Any, ...]] = overrides.get(
            "legal_moves"
        ) or self.guard(kernel.legal_moves)
        self.score: Callable[[Any], tuple[int, ...]] = overrides.get("score") or self.guard(
            kernel.score
        )
        self.current_player: Callable[[Any], int | None] = overrides.get(
            "current_player"
        ) or self.guard(kernel.current_player)
        self._current_player = overrides.get("current_player") or kernel.current_player
        self._specs: dict[Any, ObservationSpec] = {}
        self.own: Callable[[object], Any] | None = kernel.own_move or (
            self.known if kernel.transition_checks else None
        )
        table = kernel.moves
        if table is not None:
            self._numbers = {id(move): number for number, move in enumerate(table.moves)}
            self._ids = table.ids
            first = next(
                (i for i, move in enumerate(table.moves) if type(move) is kernel.chance_type),
                None,
            )
            self.offset = len(table.moves) if first is None else first

    # --- guards -------------------------------------------------------------------

    def expect(
        self, value: Any, kinds: tuple[type[Any], ...], error: type[Exception] = TypeError
    ) -> Any:
        """``value`` when its type is exactly one of ``kinds``; else ``error`` saying what
        was expected, in the game's words (``expected a pig State or View, got 7``).
        """
        if not any(type(value) is kind for kind in kinds):
            names = " or ".join(kind.__name__ for kind in kinds)
            raise error(f"expected {self.a_noun} {names}, got {short_repr(value)}")
        return value

    def max_moves(self, config: Any) -> int:
        return self.k.max_moves(self.expect(config, (self.k.config_type,), ConfigError))

    def deck(self, config: Any) -> tuple[Any, ...]:
        """The cards ``config`` deals, unshuffled (the kernel's ``deck``)."""
        assert self.k.deck is not None
        return self.k.deck(self.expect(config, (self.k.config_type,), ConfigError))

    def new_game(self, config: Any = None, *, seed: int | None = None, deal: Any = None) -> Any:
        config = self.k.config_type() if config is None else config
        if type(config) is not self.k.config_type:  # named as imported: dice_poker.Config
            kind = self.k.config_type
            package = kind.__module__.rsplit(".", 2)[-2:][0]
            raise ConfigError(
                f"expected {self.a_noun} Config ({package}.{kind.__name__}), "
                f"got {short_repr(config)}"
            )
        if self.d.deal_type is None and deal is not None:
            raise ConfigError(f"{self.noun} has no deck to deal: deal must be None")
        return self.k.new_game(config, resolve_seed(seed), deal)

    def refuse(self, state: object) -> NoReturn:
        """The ``TypeError`` for what is no state (a view is told what to pass). The rules
        themselves run unwrapped: a state built by hand is checked with ``check_state`` by
        whoever built it, and a bug surfaces as itself.
        """
        refuse_state(
            state, game=self.a_noun, state_type=self.k.state_type, view_type=self.k.view_type
        )

    def guard(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """``rule(state, ...)`` behind the state's type check and the error translation."""
        state_type = self.k.state_type
        refuse = self.refuse
        if _takes_one(rule):  # a call with *args and **kwargs costs a playout 4% (ab_playout)

            @wraps(rule)
            def guarded_one(state: Any) -> Any:
                if type(state) is not state_type:
                    refuse(state)
                return rule(state)

            return guarded_one

        @wraps(rule)
        def guarded(state: Any, *args: Any, **kwargs: Any) -> Any:
            if type(state) is not state_type:
                refuse(state)
            return rule(state, *args, **kwargs)

        return guarded

    # --- moves ------------------------------------------------------------------

    def known(self, move: object, unlisted: bool = False) -> Any:
        """The table's instance of ``move`` (without a table: ``move``, of a move class);
        else an ``IllegalMoveError``: no state allows it (unless ``unlisted``, where the
        move is returned for ``why_illegal`` to name the rule), or it is no move of the
        game.
        """
        table = self.k.moves
        if self.k.own_move is not None:  # the game's own idea of a move's instance
            return self.k.own_move(move)
        if table is not None:
            try:
                known = table.known(move)
            except TypeError as error:  # a class without validators built Take(count=[])
                raise IllegalMoveError(f"{short_repr(move)} is not a {self.noun} move") from error
            if id(known) not in table.ids and not unlisted:  # in no state's legal moves
                raise IllegalMoveError(f"{short_repr(move)} is not a {self.noun} move")
            return known
        if not any(type(move) is kind for kind in self.k.move_types):
            raise IllegalMoveError(f"{short_repr(move)} is not a {self.noun} move")
        return move

    def listed(self, state: Any, move: object) -> Any:
        """The move ``legal_moves(state)`` lists equal to ``move``, else the rule's refusal."""
        legal = self.legal_moves(state)
        for listed in legal:
            if listed is move:
                return listed
        known = self.known(move, unlisted=self.k.why_illegal is not None)
        try:
            return legal[legal.index(known)]
        except ValueError:
            pass
        raise IllegalMoveError(self.why(state, known))

    def why(self, state: Any, move: Any) -> str:
        """The rule that forbids ``move`` in ``state``."""
        if self.k.why_illegal is not None:
            return self.k.why_illegal(state, move)
        if self.own is not None:
            try:
                self.k.transition(state, move, None)
            except IllegalMoveError as error:
                return str(error)
            raise AssertionError(f"transition accepted {move!r}, which legal_moves does not list")
        text = self.k.format_move(move)
        if self.k.current_player(state) is None:
            return f"the game is over: '{text}' is not a move"
        legal = ", ".join(self.k.format_move(listed) for listed in self.legal_moves(state))
        return f"'{text}' is not legal now; the legal moves are: {legal}"

    def transition(self, state: Any, move: Any, events: list[Any] | None) -> Any:
        if type(state) is not self.k.state_type:
            self.refuse(state)
        own = self.own  # the transition itself names the rule a move breaks
        return self.k.transition(state, own(move) if own else self.listed(state, move), events)

    def apply(self, state: Any, move: Any) -> Any:
        """The state after ``move``, the listed instance of it; ``IllegalMoveError``
        naming the rule otherwise. ``state`` never changes.
        """
        return self.transition(state, move, None)

    def apply_with_events(self, state: Any, move: Any) -> tuple[Any, tuple[Any, ...]]:
        """:meth:`apply`, and the events of the transition in order."""
        events: list[Any] = []
        return self.transition(state, move, events), tuple(events)

    def canonical(self, state: Any, move: Any) -> Any:
        """The move ``legal_moves`` lists equal to ``move``; ``IllegalMoveError`` if none."""
        if type(state) is not self.k.state_type:
            self.refuse(state)
        return self.listed(state, move)

    def is_over(self, state: Any) -> bool:
        """Whether ``current_player(state)`` is ``None``."""
        if type(state) is not self.k.state_type:
            self.refuse(state)
        return self._current_player(state) is None

    def winners(self, state: Any) -> frozenset[int]:
        """The seats with the top score once the game is over; empty until then."""
        return top_seats(self.score(state)) if self.is_over(state) else frozenset()

    def chance_probabilities(self, state: Any) -> Mapping[Any, Fraction]:
        """Each outcome at a chance point, equally likely (read-only); empty elsewhere."""
        if self.d.chance_mode == "deterministic" or self.current_player(state) != CHANCE:
            return _NO_CHANCES
        outcomes = self.legal_moves(state)
        return MappingProxyType(dict.fromkeys(outcomes, Fraction(1, len(outcomes))))

    def view(self, state: Any, seat: int | None) -> Any:
        check_seat(seat, state.config.players)
        return self.k.view(state, seat)

    def determinize(self, seen: Any, rng: Rng) -> Any:
        """A full state consistent with ``seen``, from the kernel's ``determinize``;
        ``InvalidStateError`` for a view that is not the view of the state dealt from it.
        """
        self.expect(rng, (Rng,))
        return self.dealt(seen, rng)

    def determinize_each(self, seen: Any, rngs: Sequence[Rng]) -> tuple[Any, ...]:
        """One state for each of ``rngs``, each the state :meth:`determinize` deals with
        it; ``seen`` and the first deal are checked as :meth:`determinize` checks them,
        the deals after it come from the kernel alone (the same view: nothing new to check).
        """
        rngs = tuple(rngs)
        for rng in rngs:
            self.expect(rng, (Rng,))
        if not rngs:
            self.check_view(seen)
            return ()
        deal = self.k.determinize
        return (self.dealt(seen, rngs[0]), *(deal(seen, rng) for rng in rngs[1:]))

    def redact(self, event: Any, seat: int | None) -> Any:
        """``event`` itself: by default no event hides anything."""
        self.expect(event, self.k.event_types)
        return event

    def describer(self, redact: Callable[[Any, int | None], Any]) -> Callable[[Any, Any], str]:
        """``describe(event, seat)``: the kernel's sentence of ``redact(event, seat)``,
        once the event is one of the game's and the seat a seat or ``None``.
        """
        own, kinds, noun = self.k.describe, self.k.event_types, self.a_noun

        def describe(event: Any, seat: int | None) -> str:
            """``event`` in one sentence as ``seat`` sees it (``None``: a spectator); the
            event is redacted for the seat first.
            """
            if not any(type(event) is kind for kind in kinds):
                raise TypeError(f"expected {noun} event, got {short_repr(event)}")
            if seat is not None and (type(seat) is not int or seat < 0):
                raise TypeError(f"a seat is a whole number from 0 or None, got {short_repr(seat)}")
            seen = redact(event, seat)
            return own(seen, seat) if own is not None else event_fields(seen)

        return describe

    def by_config(self, own: Callable[[Any], tuple[str, ...]]) -> Callable[[Any], tuple[str, ...]]:
        """``own(config)`` once ``config`` is the game's config (``ConfigError`` else)."""

        @wraps(own)
        def lines(config: Any) -> tuple[str, ...]:
            return own(self.expect(config, (self.k.config_type,), ConfigError))

        return lines

    def by_view(self, own: Callable[[Any], tuple[str, ...]]) -> Callable[[Any], tuple[str, ...]]:
        """``own(view)`` once ``view`` is the game's view (``TypeError`` else)."""

        @wraps(own)
        def lines(seen: Any) -> tuple[str, ...]:
            return own(self.expect(seen, (self.k.view_type,)))

        return lines

    def display(self, game: Any) -> str:
        return self.k.display(self.expect(game, (self.k.state_type, self.k.view_type)))

    def format_move(self, move: Any) -> str:
        """The kernel's notation of the table's instance of ``move``: a ``TypeError`` for
        what is no move of the game.
        """
        if not any(type(move) is kind for kind in self.k.move_types):
            raise TypeError(f"not {self.a_noun} move: {short_repr(move)}")
        return self.k.format_move(self.known(move))

    def parse_move(self, game: Any, text: str) -> Any:
        """The legal move of a state or view whose notation is ``text`` (whitespace and
        case aside, or as the kernel's ``read_move`` reads it); ``NotationError`` if it
        names no move, ``IllegalMoveError`` if the move it names is not legal now.
        """
        if type(game) is not self.k.state_type and type(game) is not self.k.view_type:
            raise TypeError(f"parse_move needs {self.a_noun} State or View, got {short_repr(game)}")
        is_view = type(game) is self.k.view_type
        legal = game.legal_moves if is_view else self.legal_moves(game)
        if self.k.read_move_in is not None:  # text naming no move is refused first, then turns
            if self.k.read_move is not None:
                self.k.read_move(text)
            if is_view:
                check_on_turn(game.seat, game.current_player)
            named = self.k.read_move_in(
                self.dealt(game, Rng.from_seed(0)) if is_view else game, text
            )
            for move in legal:
                if move == named:
                    return move
            raise AssertionError(f"read_move_in named {named!r}, which legal_moves does not list")
        if self.k.read_move is not None:  # the game's reader says what is wrong with the text
            named = self.known(self.k.read_move(text), unlisted=self.k.why_illegal is not None)
            for move in legal:
                if move == named:
                    return move
        else:
            if type(text) is not str:
                raise TypeError(f"move text is a str, got {short_repr(text)}")
            words = " ".join(text.split()).lower()
            for move in legal:
                if self.k.format_move(move) == words:
                    return move
            named = None
            if self.k.moves is not None:
                moves = self.k.moves.moves
                named = next((m for m in moves if self.k.format_move(m) == words), None)
            if named is None:
                raise NotationError(f"{short_repr(text)} names no {self.noun} move")
        if is_view:
            check_on_turn(game.seat, game.current_player)
            game = self.dealt(game, Rng.from_seed(0))
        raise IllegalMoveError(self.why(game, named))

    # --- the codec ----------------------------------------------------------------

    def table(self) -> MoveTable[Any]:
        assert self.k.moves is not None
        return self.k.moves

    def size(self, config: Any) -> int:
        own = self.k.num_actions
        return own(config) if own is not None else len(self.table().moves)

    def num_actions(self, config: Any) -> int:
        return self.size(self.expect(config, (self.k.config_type,), ConfigError))

    def chance_offset(self, config: Any) -> int:
        size = self.num_actions(config)
        return size if self.k.chance_type is None else self.offset

    def encode(self, move: Any) -> int:
        """The place in the move table of the move (or of the move standing for its class)."""
        number = self._numbers.get(id(move))
        if number is None:
            key = self.k.action_key
            known = self.table().known(move) if key is None else key(move)
            number = self._numbers.get(id(known))
            if number is None:
                text = short_text(self.k.format_move(known))
                raise IllegalMoveError(f"'{text}' has no action number: no state allows it")
        return number

    def decode(self, state: Any, action: int) -> Any:
        """The legal move numbered ``action``; ``IllegalMoveError`` otherwise."""
        size = self.size(state.config)
        move = self.table().moves[check_action(action, size)]
        key, kind, ids = self.k.action_key, type(move), self._ids
        for listed in self.legal_moves(state):
            if listed is move:
                return listed
            # a move of the class, not the table's own (a play of other suits): its key
            if (
                key is not None
                and type(listed) is kind
                and id(listed) not in ids
                and key(listed) is move
            ):
                return listed
        text = (self.k.action_text or self.k.format_move)(move)
        raise IllegalMoveError(f"action {action} ('{text}') is not legal in this state")

    def legal_mask(self, state: Any) -> tuple[bool, ...]:
        """For each action number, whether its move (or a move of its class) is legal."""
        size = self.size(state.config)
        mask = [False] * size
        for move in self.legal_moves(state):
            mask[self.encode(move)] = True
        return tuple(mask)

    def action_text(self, config: Any, action: int) -> str:
        size = self.num_actions(config)
        text = self.k.action_text or self.k.format_move
        return text(self.table().moves[check_action(action, size)])

    # --- observation and checks -----------------------------------------------------

    def observe(self, seen: Any) -> tuple[float, ...]:
        """``seen`` as numbers, as the kernel's ``encode_view`` writes it."""
        self.expect(seen, (self.k.view_type,))
        return encoded(self.k.encode_view, seen)

    def observation_spec(self, config: Any) -> ObservationSpec:
        self.expect(config, (self.k.config_type,), ConfigError)
        spec = self._specs.get(config)
        if spec is None:
            sample = self.k.view(self.k.new_game(config, 0, None), None)
            if len(self._specs) >= 256:  # a bound on what many configs keep alive
                self._specs.clear()
            spec = self._specs[config] = encoding_spec(self.k.encode_view, sample)
        return spec

    def check_state(self, state: Any) -> None:
        """``InvalidStateError`` unless ``state`` keeps the shell's and the kernel's invariants."""
        self.expect(state, (self.k.state_type,))
        run_checks(f"{self.noun} state", lambda fail: self._check_state(state, fail))

    def _check_state(self, state: Any, fail: Fail) -> None:
        if type(state.config) is not self.k.config_type:
            fail(f"config must be {self.a_noun} Config, got {short_repr(state.config)}")
        self.k.check_state(state, fail)  # before the seed's and rng's: the game's words win
        if type(state.seed) is not int or not 0 <= state.seed < 1 << 64:
            fail(f"seed must be a whole number in [0, 2**64), got {short_repr(state.seed)}")
        rng = getattr(state, "rng", Rng(0))
        if type(rng) is not Rng or not is_valid_state(rng.state):
            fail(f"rng must be an Rng, got {short_repr(rng)}")

    def check_view(self, seen: Any) -> None:
        """``InvalidStateError`` unless ``seen`` is the view of the state dealt from it (also
        for what is no view: a loader's check).
        """
        self.expect(seen, (self.k.view_type,), InvalidStateError)
        self.dealt(seen, Rng.from_seed(0))

    def dealt(self, seen: Any, rng: Rng) -> Any:
        """The state the kernel deals from ``seen`` with ``rng``, once ``seen`` passed the
        kernel's ``check_view`` and is that state's view again (one deal serves both).
        """
        self.expect(seen, (self.k.view_type,))
        own = self.k.check_view
        if own is not None:
            run_checks(f"{self.noun} view", lambda fail: own(seen, fail))
        try:
            dealt = self.k.determinize(seen, rng)
        except TabletopError:
            raise
        except Exception as error:
            why = short_text(error)
            raise InvalidStateError(f"invalid {self.noun} view: {why}") from error
        check_dealt_view(self.noun, seen, dealt, self.k.view, self.check_state)
        return dealt


def _takes_one(rule: Callable[..., Any]) -> bool:
    """Whether ``rule`` takes exactly one positional argument and nothing else."""
    try:
        parameters = list(inspect.signature(rule).parameters.values())
    except (TypeError, ValueError):  # a callable without a signature
        return False
    return len(parameters) == 1 and parameters[0].kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    )


def _named_like(own: Callable[..., Any], method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` as a function named, documented and placed like the kernel's ``own``:
    a pickled ruleset names its game by the module of its ``new_game``.
    """

    def new_game(config: Any = None, *, seed: int | None = None, deal: Any = None) -> Any:
        return method(config, seed=seed, deal=deal)

    for attribute in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(new_game, attribute, getattr(own, attribute))
    # The shared signature in the game's own types, resolved where the game wrote them.
    hints = getattr(own, "__annotations__", {})
    new_game.__annotations__ = {
        "config": f"{hints.get('config', 'Any')} | None",
        "seed": "int | None",
        "deal": hints.get("deal", "None"),
        "return": hints.get("return", "Any"),
    }
    new_game.__signature__ = inspect.signature(new_game)  # type: ignore[attr-defined]
    new_game.__wrapped__ = own  # type: ignore[attr-defined]
    return new_game


def build(declaration: Declaration, kernel: Kernel, **overrides: Any) -> GameRules[Any, Any, Any]:
    """The game's ``RULES``: the kernel's own members, each behind its entry guard, and
    every other member derived. A keyword named after a derived member (:func:`derived`)
    replaces it; any other keyword is a ``TypeError``.
    """
    if type(declaration) is not Declaration or type(kernel) is not Kernel:
        raise TypeError("build() takes a kit.Declaration and a kit.Kernel")
    unknown = sorted(set(overrides) - _DERIVED)
    if unknown:
        raise TypeError(f"build() derives no member named {', '.join(unknown)}")
    codec = ("num_actions", "encode", "decode", "legal_mask", "chance_offset", "action_text")
    if kernel.moves is None and not set(codec) <= set(overrides):
        raise TypeError("a kernel without a move table passes its own codec members to build()")
    explicit = declaration.chance_mode == "explicit"
    if kernel.transition_checks and kernel.moves is None:
        raise TypeError("a kernel whose transition checks its moves has a move table")
    if kernel.moves is not None and explicit != (kernel.chance_type is not None):
        raise TypeError("a kernel names its chance_type exactly when the chance mode is explicit")
    needed = {"seat", "current_player", "legal_moves"}
    missing = needed - {field.name for field in attrs.fields(kernel.view_type)}
    if missing:
        raise TypeError(f"{kernel.view_type.__name__} needs fields {', '.join(sorted(missing))}")
    shell = _Shell(declaration, kernel, overrides)
    guard = shell.guard
    members: dict[str, Any] = {
        "legal_moves": shell.legal_moves,
        "score": shell.score,
        "current_player": shell.current_player,
        "apply": _fast_apply(shell) if shell.own else shell.apply,
        "apply_with_events": shell.apply_with_events,
        "canonical": guard(kernel.canonical) if kernel.canonical else shell.canonical,
        "is_over": _fast_is_over(shell),
        "winners": guard(kernel.winners) if kernel.winners else shell.winners,
        "chance_probabilities": (
            guard(kernel.chance_probabilities)
            if kernel.chance_probabilities
            else guard(shell.chance_probabilities)
        ),
        "view": guard(shell.view),
        "determinize": shell.determinize,
        "determinize_each": shell.determinize_each,
        "redact": shell.redact,
        "format_move": shell.format_move,
        "parse_move": shell.parse_move,
        "observe": shell.observe,
        "observation_spec": shell.observation_spec,
        "check_state": shell.check_state,
        "check_view": shell.check_view,
        "max_moves": shell.max_moves,
        "display": shell.display,
    }
    if kernel.moves is not None:
        members.update(
            num_actions=shell.num_actions,
            encode=shell.encode,
            decode=guard(shell.decode),
            legal_mask=guard(shell.legal_mask),
            chance_offset=shell.chance_offset,
            action_text=shell.action_text,
        )
    if kernel.deck is not None:
        members["deck"] = shell.deck
    for name in ("rules_summary", "notation_summary"):
        own = getattr(kernel, name)
        if own is not None:
            members[name] = shell.by_config(own)
    if kernel.hint is not None:
        members["hint"] = shell.by_view(kernel.hint)
    members.update(overrides)
    if "describe" not in overrides:
        members["describe"] = shell.describer(members["redact"])
    return GameRules(
        name=declaration.name,
        title=declaration.title,
        config_type=kernel.config_type,
        state_type=kernel.state_type,
        move_types=kernel.move_types,
        event_types=kernel.event_types,
        view_type=kernel.view_type,
        new_game=_named_like(kernel.new_game, shell.new_game),
        hidden_information=declaration.hidden_information,
        deal_type=declaration.deal_type,
        format_version=declaration.format_version,
        json_hooks=kernel.json_hooks,
        own_bots=kernel.bots,
        **members,
    )


def _fast_apply(shell: _Shell) -> Callable[[Any, Any], Any]:
    """:meth:`_Shell.apply` for a transition that checks its moves, as one closure over
    what it reads: the account playout's ``apply`` is half the shell's cost this way.
    """
    state_type, refuse, own, rule = shell.k.state_type, shell.refuse, shell.own, shell.k.transition
    assert own is not None
    if shell.k.own_move is None:  # the table's instance: a set look-up for a listed move
        ids, known = shell._ids, shell.known

        def apply(state: Any, move: Any) -> Any:
            if type(state) is not state_type:
                refuse(state)
            if id(move) not in ids:  # not the table's instance: find it, or refuse
                move = known(move)
            return rule(state, move, None)

    else:

        def apply(state: Any, move: Any) -> Any:
            if type(state) is not state_type:
                refuse(state)
            return rule(state, own(move), None)

    apply.__doc__ = _Shell.apply.__doc__
    return apply


def _fast_is_over(shell: _Shell) -> Callable[[Any], bool]:
    """:meth:`_Shell.is_over` as one closure over what it reads (a playout asks it every move)."""
    state_type, refuse, current = shell.k.state_type, shell.refuse, shell._current_player

    def is_over(state: Any) -> bool:
        if type(state) is not state_type:
            refuse(state)
        return current(state) is None

    is_over.__doc__ = _Shell.is_over.__doc__
    return is_over


def unseen_cards(
    deck: Iterable[Any],
    shown: Iterable[Any],
    hidden: int,
    fail: Fail,
    *,
    holds: str = "the deck holds",
    key: Callable[[Any], Any] | None = None,
) -> list[Any]:
    """The cards of ``deck`` that a view does not show, sorted (by ``key``), once the
    ``shown`` cards, each as often as the view shows it, are all cards of the deck and add
    up to it with the ``hidden`` places; ``fail(why)`` otherwise. ``holds`` names the
    deck in the messages (``"2 deck(s) hold"``). What a game's ``determinize`` deals.

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
