"""Every public function and class of the library, handed odd arguments (``None``,
numbers, text, containers, a bare object, another game's values), returns or raises the
library's error or the ``TypeError``/``ValueError``/``KeyError`` that says what it
expected, never an ``AttributeError`` or another exception from deep inside.

The rulesets' own entry points are checked, state by state, by the conformance suite
(``check_entry_points_refuse_odd_arguments``); this covers the rest of the public API.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tabletop_rules import dice_poker, palace
from tabletop_rules.errors import TabletopError

MODULES = (
    "tabletop_rules",
    "tabletop_rules.bots",
    "tabletop_rules.house_rules",
    "tabletop_rules.match",
    "tabletop_rules.messages",
    "tabletop_rules.movetable",
    "tabletop_rules.observation",
    "tabletop_rules.protocol",
    "tabletop_rules.records",
    "tabletop_rules.rng",
    "tabletop_rules.seats",
    "tabletop_rules.serialize",
    "tabletop_rules.simulate",
    "tabletop_rules.validation",
    "tabletop_rules.dice_poker",
    "tabletop_rules.palace",
    "tabletop_rules.account",
)
NOT_CALLED = {"simulate", "simulate_parallel"}  # they start process pools; tested apart

ODD: tuple[object, ...] = (
    None,
    7,
    -1,
    "x",
    (),
    [],
    {},
    object(),
    1.5,
    palace.Config(),
    dice_poker.new_game(seed=1),
)
EXPECTED = (TabletopError, TypeError, ValueError, KeyError)


def public_callables() -> Iterator[tuple[str, Callable[..., Any], int]]:
    """Each public callable once, with its number of required positional arguments (at
    most three: more are built by the games, not typed by hand)."""
    seen: set[int] = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or id(obj) in seen or name in NOT_CALLED:
                continue
            seen.add(id(obj))
            try:
                signature = inspect.signature(obj)
            except (TypeError, ValueError):  # a builtin without a signature
                continue
            required = [
                parameter
                for parameter in signature.parameters.values()
                if parameter.default is parameter.empty
                and parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
            ]
            if len(required) <= 3:
                yield f"{module_name}.{name}", obj, len(required)


CALLABLES = list(public_callables())


def test_the_public_api_is_found() -> None:
    names = {name for name, _, _ in CALLABLES}
    assert {"tabletop_rules.Match", "tabletop_rules.palace.first_player"} <= names
    assert len(names) > 100


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
            function(*arguments)
        except EXPECTED:
            continue
        except Exception as error:
            shown = ", ".join(type(argument).__name__ for argument in arguments)
            pytest.fail(f"{name}({shown}) raised {type(error).__name__}: {error}")
