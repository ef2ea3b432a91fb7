"""The registry of games and the :class:`Bot` protocol.

:func:`get_ruleset` finds a game (a :class:`~tabletop_rules.game.Game`) by name, and a
game's ``bots`` make its bots by name (``"random"`` for every game):

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
import warnings
from collections.abc import Callable, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final

from . import game, plugins
from ._messages import short_repr
from .errors import GamePluginError, UnknownGameError
from .game import (
    CHANCE,
    Bot,
    BotFactory,
    Game,
    Seat,
    event_fields,
    exported_functions,
)

__all__ = [
    "BUILT_IN_GAMES",
    "CHANCE",
    "Bot",
    "BotFactory",
    "Ruleset",
    "Seat",
    "check_ruleset",
    "event_fields",
    "game_name",
    "game_names",
    "get_ruleset",
    "is_registered",
    "register",
    "registered",
    "registered_game",
    "rulesets",
]

Ruleset = Game
"""The name generic code used for a game's rules before :class:`~tabletop_rules.game.Game`;
the same class, kept for a release."""


_BUILTIN: Final[Mapping[str, str]] = {
    "account": "tabletop_rules.account",
    "dice-poker": "tabletop_rules.dice_poker",
    "palace": "tabletop_rules.palace",
}
BUILT_IN_GAMES: Final[Mapping[str, str]] = MappingProxyType(_BUILTIN)
"""The library's own games: each name, held for it in the registry, and the module whose
``RULES`` it is."""
_registered: dict[str, Game[Any, Any, Any]] = {}


def check_ruleset(value: object) -> Ruleset[Any, Any, Any]:
    """``value`` if it is a :class:`~tabletop_rules.game.Game`; else ``TypeError`` saying
    where rulesets come from.

    >>> check_ruleset("palace")
    Traceback (most recent call last):
    ...
    TypeError: expected a ruleset (get_ruleset(name), or a game's RULES), got 'palace'
    """
    if not isinstance(value, Game):
        raise TypeError(
            f"expected a ruleset (get_ruleset(name), or a game's RULES), got {short_repr(value)}"
        )
    return value


def register(ruleset: Ruleset[Any, Any, Any]) -> None:
    """Make ``ruleset`` findable by :func:`get_ruleset` under its name (a game of another
    package is found through its entry point; it registers too where its states should
    serialize before it is looked up). Raises
    :class:`~tabletop_rules.errors.GamePluginError` when another ruleset has the name, or
    for a built-in game's name (imported or not) unless ``ruleset`` is that game's ``RULES``.
    """
    check_ruleset(ruleset)
    name = ruleset.name
    if name != game_name(name):
        raise GamePluginError(
            f"the name {name!r} is the built-in game {game_name(name)!r} spelled with "
            "underscores, reserved for it; register the game under a name of its own"
        )
    existing = _find(name)
    if name in _BUILTIN and ruleset is not getattr(sys.modules.get(_BUILTIN[name]), "RULES", None):
        taken = f"a ruleset named {name!r} is registered already: " if existing is not None else ""
        raise GamePluginError(
            f"{taken}the name {name!r} is reserved for the built-in game of "
            f"{_BUILTIN[name]}; register the game under a name of its own"
        )
    if existing is not None and existing is not ruleset:
        raise GamePluginError(f"a ruleset named {name!r} is registered already")
    _registered[name] = ruleset


def get_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset registered as ``name``: built-in games load on first use, and games of
    other packages through the entry-point group :data:`~tabletop_rules.plugins.GROUP`.
    Raises :class:`~tabletop_rules.errors.UnknownGameError` naming the known games, or
    :class:`~tabletop_rules.errors.GamePluginError` naming the entry point that fails.

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
    """``name``, or the built-in game's name it spells with underscores (``"dice_poker"``
    for ``"dice-poker"``): every function that takes a game's name takes either spelling.
    """
    if type(name) is str and "_" in name and name.replace("_", "-") in _BUILTIN:
        return name.replace("_", "-")
    return name


def is_registered(game: Game[Any, Any, Any]) -> bool:
    """Whether ``game`` is what :func:`get_ruleset` gives for its name (only such pickles)."""
    return _find(check_ruleset(game).name) is game


def _find(name: str) -> Ruleset[Any, Any, Any] | None:
    """The ruleset known as ``name`` now (a built-in name never from the entry points)."""
    ruleset = _registered.get(name)
    if ruleset is None and name not in _BUILTIN:
        ruleset = plugins.loaded().get(name)
    return ruleset


def registered_game(name: str, module: str) -> Game[Any, Any, Any]:
    """The game a pickled :class:`~tabletop_rules.game.Game` names, importing ``module``
    (which registers it) where the name is not known yet.
    """
    if type(name) is not str or type(module) is not str:
        raise TypeError(f"a game's name and module are str, got {short_repr((name, module))}")
    if name not in _registered and name not in _BUILTIN:
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise UnknownGameError(
                f"no game named {name!r}: {short_repr(module)} does not import"
            ) from error
    return get_ruleset(name)


def registered() -> tuple[Ruleset[Any, Any, Any], ...]:
    """The rulesets registered so far: built-in games once imported, games of other
    packages once loaded through their entry points.
    """
    found = plugins.loaded().items()
    others = (ruleset for name, ruleset in found if name not in {*_BUILTIN, *_registered})
    return (*_registered.values(), *others)


def rulesets() -> tuple[str, ...]:
    """The names of every game :func:`get_ruleset` gives, sorted; one of another package that
    does not load is left out, with a :class:`~tabletop_rules.plugins.GamePluginWarning`.
    """
    found = plugins.loadable(check_ruleset, reserved=_BUILTIN)
    return tuple(sorted({*_BUILTIN, *_registered, *(ruleset.name for ruleset in found)}))


def game_names() -> tuple[str, ...]:
    """Every name a game may be asked for by, sorted, importing no game (for a program's start,
    as the command line's help): one may still fail to load, unlike in :func:`rulesets`.
    """
    return tuple(sorted({*_BUILTIN, *_registered, *plugins.names()}))


def _game_exports() -> tuple[str, ...]:
    names = ("CHANCE", "RULES", "MAX_PLAYERS", "Config", "State", "View", "Move", "Event", "Deal")
    return names + exported_functions()


def _guide_lines(ruleset: Game[Any, Any, Any], member: str, value: object) -> tuple[str, ...]:
    if member not in ("rules_summary", "notation_summary", "hint"):
        raise ValueError(f"no guide member {member!r}")
    return tuple(getattr(ruleset, member)(value))


_DEPRECATED: Final[dict[str, tuple[str, Callable[[], Any]]]] = {
    "GAME_EXPORTS": ("game.exported_functions()", _game_exports),
    "guide_lines": ("the game's rules_summary, notation_summary and hint", lambda: _guide_lines),
    "determinize_each_of": ("the game's determinize_each", lambda: attrgetter("determinize_each")),
}


def __getattr__(name: str) -> Any:
    """The names this module had before :class:`~tabletop_rules.game.Game`, for one
    release, each with a ``DeprecationWarning`` saying what replaces it.
    """
    if name not in _DEPRECATED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    instead, value = _DEPRECATED[name]
    warnings.warn(
        f"tabletop_rules.protocol.{name} is deprecated: use {instead}",
        DeprecationWarning,
        stacklevel=2,
    )
    return value()


game.use_registry(_find, registered_game)
