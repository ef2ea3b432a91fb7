"""Every public function and class of the library, handed odd arguments (``None``,
numbers, text, containers, a bare object, another game's values), returns or raises the
library's error or the ``TypeError``/``ValueError``/``KeyError`` that says what it
expected, never an ``AttributeError`` or another exception from deep inside.

The rulesets' own entry points are checked, state by state, by the conformance suite
(``check_entry_points_refuse_odd_arguments``); this covers the rest of the public API:
the modules below, the optional ones (the adapters, the batched engine, the server)
where their extras are installed, and every public member of the built-in rulesets,
their kernel's included. Left out: what starts process pools or opens stores and files
from any text, and coroutine functions, which their own tests await.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import itertools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tabletop_rules import Match, account, dice_poker, get_ruleset, palace
from tabletop_rules.errors import TabletopError
from tabletop_rules.rng import Rng
from tabletop_rules.testing.checks import ODD_ARGUMENTS

MODULES = (
    "tabletop_rules",
    "tabletop_rules.bots",
    "tabletop_rules.house_rules",
    "tabletop_rules.match",
    "tabletop_rules._messages",
    "tabletop_rules._movetable",
    "tabletop_rules.observation",
    "tabletop_rules.protocol",
    "tabletop_rules.records",
    "tabletop_rules.rng",
    "tabletop_rules._seats",
    "tabletop_rules.serialize",
    "tabletop_rules._slots",
    "tabletop_rules.simulate",
    "tabletop_rules._validation",
    "tabletop_rules.dice_poker",
    "tabletop_rules.palace",
    "tabletop_rules.palace.bots",
    "tabletop_rules.palace.cards",
    "tabletop_rules.palace.config",
    "tabletop_rules.palace.events",
    "tabletop_rules.palace.invariants",
    "tabletop_rules.palace.moves",
    "tabletop_rules.palace.notation",
    "tabletop_rules.palace.observation",
    "tabletop_rules.palace.rules",
    "tabletop_rules.palace.state",
    "tabletop_rules.palace.table",
    "tabletop_rules.palace.view",
    "tabletop_rules.account",
    "tabletop_rules.account.bots",
    "tabletop_rules.account.cards",
    "tabletop_rules.account.config",
    "tabletop_rules.account.events",
    "tabletop_rules.account.invariants",
    "tabletop_rules.account.moves",
    "tabletop_rules.account.notation",
    "tabletop_rules.account.observation",
    "tabletop_rules.account.rules",
    "tabletop_rules.account.state",
    "tabletop_rules.account.table",
    "tabletop_rules.account.view",
    "tabletop_rules.dice_poker.bots",
    "tabletop_rules.dice_poker.coach",
    "tabletop_rules.dice_poker.config",
    "tabletop_rules.dice_poker.events",
    "tabletop_rules.dice_poker.invariants",
    "tabletop_rules.dice_poker.moves",
    "tabletop_rules.dice_poker.notation",
    "tabletop_rules.dice_poker.observation",
    "tabletop_rules.dice_poker.rules",
    "tabletop_rules.dice_poker.scoring",
    "tabletop_rules.dice_poker.state",
    "tabletop_rules.dice_poker.table",
    "tabletop_rules.dice_poker.view",
    "tabletop_rules.errors",
    "tabletop_rules.game",
    "tabletop_rules.playing",
    "tabletop_rules.results",
    "tabletop_rules.search",
    "tabletop_rules.table",
    "tabletop_rules.tournament",
)
OPTIONAL_MODULES = (  # where their extras are installed (.ci/run installs every one)
    "tabletop_rules.adapters.openspiel",
    "tabletop_rules.adapters.pettingzoo",
    "tabletop_rules.batch",
    "tabletop_rules.executors",
    "tabletop_rules.kit",
    "tabletop_rules.observation",
    "tabletop_rules.plugins",
    "tabletop_rules.server",
    "tabletop_rules.server.client",
    "tabletop_rules.server.messages",
    "tabletop_rules.server.store",
    "tabletop_rules.testing.golden",
)
NOT_CALLED = {  # what starts process pools, or opens stores and files from any text
    "simulate",
    "simulate_parallel",
    "tournament",
    "SQLiteStore",
    "Server",
    "Store",
}

ODD: tuple[object, ...] = (*ODD_ARGUMENTS, palace.Config(), dice_poker.new_game(seed=1))
EXPECTED = (TabletopError, TypeError, ValueError, KeyError)


def required_arguments(function: Callable[..., Any]) -> int | None:
    """How many positional arguments ``function`` requires; ``None`` for a builtin
    without a signature."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    return sum(
        parameter.default is parameter.empty
        and parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
        for parameter in signature.parameters.values()
    )


def public_callables() -> Iterator[tuple[str, Callable[..., Any], int]]:
    """Each public callable once, with its number of required positional arguments (at
    most three: more are built by the games, not typed by hand)."""
    seen: set[int] = set()
    for module_name in (*MODULES, *OPTIONAL_MODULES):
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # an optional module without its extra
            assert module_name in OPTIONAL_MODULES
            continue
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or id(obj) in seen or name in NOT_CALLED:
                continue
            if inspect.iscoroutinefunction(obj):  # its own tests await it
                continue
            seen.add(id(obj))
            required = required_arguments(obj)
            if required is not None and required <= 3:
                yield f"{module_name}.{name}", obj, required


CALLABLES = list(public_callables())


def test_the_public_api_is_found() -> None:
    names = {name for name, _, _ in CALLABLES}
    assert {"tabletop_rules.Match", "tabletop_rules.palace.rules.first_player"} <= names
    assert len(names) > 100
    if importlib.util.find_spec("starlette") is not None:  # the server extra
        assert {
            "tabletop_rules.server.create_app",
            "tabletop_rules.server.client.join_seat",
        } <= names


@pytest.mark.parametrize(
    ("name", "function", "arity"), CALLABLES, ids=[name for name, _, _ in CALLABLES]
)
def test_odd_arguments_get_the_librarys_errors(
    name: str, function: Callable[..., Any], arity: int
) -> None:
    combinations = (
        itertools.product(ODD, repeat=arity) if arity <= 2 else ((odd,) * arity for odd in ODD)
    )
    for arguments in combinations:
        try:
            with warnings.catch_warnings():  # a deprecated name must still refuse odd input
                warnings.simplefilter("ignore", DeprecationWarning)
                function(*arguments)
        except EXPECTED:
            continue
        except Exception as error:
            shown = ", ".join(type(argument).__name__ for argument in arguments)
            pytest.fail(f"{name}({shown}) raised {type(error).__name__}: {error}")


def public_methods() -> Iterator[tuple[str, Callable[..., Any], int]]:
    """The public methods of one or two arguments of each built-in game's ruleset (its
    kernel's members too: a caller may reach them), of a match, its record and every bot
    of each game, and of a generator, with their number of arguments."""
    owners: list[tuple[str, object]] = [("Rng", Rng.from_seed(1))]
    for name in ("dice-poker", "palace", "account"):
        rules = get_ruleset(name)
        match = Match(rules, seed=3)
        owners += [(f"RULES[{name}]", rules)]
        owners += [(f"Match[{name}]", match), (f"GameRecord[{name}]", match.record)]
        owners += [(f"{bot}[{name}]", factory(1)) for bot, factory in rules.bots.items()]
    for label, owner in owners:
        for name, method in inspect.getmembers(owner, callable):
            if name.startswith("_"):
                continue
            arity = required_arguments(method)
            if arity in (1, 2):
                yield f"{label}.{name}", method, arity


METHODS = list(public_methods())


@pytest.mark.parametrize(("name", "method", "arity"), METHODS, ids=[name for name, _, _ in METHODS])
def test_odd_arguments_to_methods_get_the_librarys_errors(
    name: str, method: Callable[..., Any], arity: int
) -> None:
    odd = (*ODD, account.new_game(seed=1))
    for arguments in itertools.product(odd, repeat=arity):
        try:
            with warnings.catch_warnings():  # a deprecated name must still refuse odd input
                warnings.simplefilter("ignore", DeprecationWarning)
                method(*arguments)
        except EXPECTED:
            continue
        except Exception as error:
            shown = ", ".join(type(argument).__name__ for argument in arguments)
            pytest.fail(f"{name}({shown}) raised {type(error).__name__}: {error}")
