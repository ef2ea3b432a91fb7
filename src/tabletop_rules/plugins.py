"""Games from other packages, found through the entry-point group ``tabletop_rules.games``.

A distribution that holds a game declares its ruleset in its ``pyproject.toml``, under the
game's registry name::

    [project.entry-points."tabletop_rules.games"]
    pig = "tabletop_pig:RULES"

Installed, ``get_ruleset("pig")`` imports ``tabletop_pig`` (once) and gives its
``RULES``, and ``rulesets()`` lists ``"pig"`` (:mod:`~tabletop_rules.protocol`). The
group is read once per process; :func:`forget` reads it again.

A plugin that cannot be played is never fatal to the others: whatever its import or
ruleset raises (``SystemExit`` too, not ``KeyboardInterrupt``), asking for it raises
:class:`~tabletop_rules.errors.GamePluginError` naming its entry point and distribution,
and ``rulesets()`` leaves it out with a :class:`GamePluginWarning`, as it does an entry
point named as a built-in game.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Collection, Mapping
from importlib import metadata
from types import MappingProxyType
from typing import Any, Final, Protocol, TypeVar, cast

import attrs

from ._messages import short_repr, short_text
from .errors import GamePluginError

__all__ = ["GROUP", "GamePluginWarning", "forget"]

GROUP: Final = "tabletop_rules.games"
"""The entry-point group that names the games of other packages, each a ruleset object."""


class GamePluginWarning(UserWarning):
    """Another package's game left out: it fails to load, or takes a built-in game's name."""


class _Named(Protocol):
    @property
    def name(self) -> str: ...


NamedT = TypeVar("NamedT", bound=_Named)


@attrs.frozen
class _Claim:
    """One entry point of the group, and the distribution that declares it."""

    entry: metadata.EntryPoint = attrs.field(eq=False)
    value: str
    distribution: str

    def __str__(self) -> str:
        return f"entry point {self.entry.name} = {self.value!r} of {self.distribution}"


@attrs.frozen
class _Failure:
    """Why a game cannot be loaded, kept so that each ask raises a fresh error."""

    message: str
    cause: BaseException | None = attrs.field(default=None, eq=False)


_lock = threading.RLock()  # reentrant: a plugin's import may ask for another plugin's game
_claims: dict[str, tuple[_Claim, ...]] | None = None
_outcomes: dict[str, Any] = {}
_games: dict[str, Any] = {}  # the outcomes that are games, read on every dumps
_games_view: Final = MappingProxyType(_games)
_warned: set[str] = set()


def forget() -> None:
    """Forget the group and its games, for the next lookup to read them again (a package
    installed while the program runs); games registered in code stay registered.
    """
    global _claims
    with _lock:
        _claims = None
        _outcomes.clear()
        _games.clear()
        _warned.clear()


def names() -> tuple[str, ...]:
    """The game names the group declares, each once, in the order they were found."""
    return tuple(_read())


def loaded() -> Mapping[str, Any]:
    """The games loaded from the group so far, by name (a live, read-only view)."""
    return _games_view


def load(name: str, check: Callable[[object], NamedT]) -> NamedT | None:
    """The game ``name``, imported and ``check``-ed once (``None`` for no such entry point);
    :class:`~tabletop_rules.errors.GamePluginError`, the same each time, for a failure.
    """
    with _lock:
        if name not in _outcomes:
            claims = _read().get(name)
            if not claims:
                return None
            _outcomes[name] = _load(name, claims, check)
            if not isinstance(_outcomes[name], _Failure):
                _games[name] = _outcomes[name]
        outcome = _outcomes[name]
    if isinstance(outcome, _Failure):
        raise GamePluginError(outcome.message) from outcome.cause
    return cast(NamedT, outcome)


def loadable(check: Callable[[object], NamedT], reserved: Collection[str]) -> tuple[NamedT, ...]:
    """The group's games that load, but ``reserved`` names; a warning for each other."""
    games = []
    for name, claims in _read().items():
        if name in reserved:
            _warn(name, f"{_list(claims)} claims the name of the built-in game {name!r}: ignored")
            continue
        try:
            game = load(name, check)
        except GamePluginError as error:
            _warn(name, f"{error}; the game is left out")
            continue
        if game is not None:
            games.append(game)
    return tuple(games)


def _read() -> dict[str, tuple[_Claim, ...]]:
    global _claims
    with _lock:
        if _claims is None:
            found: dict[str, list[_Claim]] = {}
            for entry in metadata.entry_points(group=GROUP):
                dist = entry.dist
                where = "an unknown distribution" if dist is None else f"{dist.name} {dist.version}"
                claim = _Claim(entry, entry.value, where)
                if claim not in found.setdefault(entry.name, []):
                    found[entry.name].append(claim)
            _claims = {name: tuple(claims) for name, claims in found.items()}
        return _claims


def _load(name: str, claims: tuple[_Claim, ...], check: Callable[[object], NamedT]) -> Any:
    """The checked game of the one claim on ``name``, or the :class:`_Failure` saying why not."""
    if len(claims) > 1:
        return _Failure(
            f"game {name!r} is claimed by {len(claims)} distributions: {_list(claims)}; "
            "uninstall all but one"
        )
    (claim,) = claims
    try:
        value = claim.entry.load()
    except KeyboardInterrupt:
        raise  # the person's, not the plugin's: the game is imported again when next asked
    except BaseException as error:  # any failure of third-party code at import, sys.exit too
        return _Failure(f"{claim} failed to load: {_text(error)}", error)
    try:
        game = check(value)
        named = game.name
        if type(named) is not str or named != name:
            return _Failure(
                f"{claim} names a ruleset called {short_repr(named)}, not {name!r}: "
                "an entry point takes its game's name"
            )
    except TypeError as error:
        return _Failure(f"{claim} names no ruleset: {short_text(error)}", error)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the object's own members raise while they are read
        return _Failure(f"{claim} failed its check as a ruleset: {_text(error)}", error)
    return game


def _text(error: BaseException) -> str:
    """``TypeName: message`` of a plugin's exception, in one line that never raises."""
    return " ".join(f"{type(error).__name__}: {short_text(error)}".split())


def _list(claims: tuple[_Claim, ...]) -> str:
    return " and ".join(map(str, claims))


def _warn(name: str, message: str) -> None:
    with _lock:
        if name in _warned:
            return
        _warned.add(name)
    warnings.warn(message, GamePluginWarning, stacklevel=4)
