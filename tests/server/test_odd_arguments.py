"""The server's public functions and classes, handed odd arguments, return or raise the
library's error or the ``TypeError``/``ValueError``/``KeyError`` that says what they
expected, as the rest of the library does (``tests/test_odd_arguments.py``): never an
``AttributeError`` from deep inside. Left out: what opens stores, sockets or files, or
sets up the process's logging, given any text (their own tests hand them odd values).
"""

from __future__ import annotations

import importlib
import inspect
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

from ..test_odd_arguments import EXPECTED, ODD, required_arguments

MODULES = (
    "tabletop_rules.server",
    "tabletop_rules.server.client",
    "tabletop_rules.server.messages",
    "tabletop_rules.server.store",
)
LEFT_OUT = {"SQLiteStore", "open_store", "Server", "Store"}


def server_callables() -> Iterator[tuple[str, Callable[..., Any], int]]:
    seen: set[int] = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or id(obj) in seen or name in LEFT_OUT:
                continue
            if inspect.iscoroutinefunction(obj):
                continue
            seen.add(id(obj))
            required = required_arguments(obj)
            if required is not None and required <= 3:
                yield f"{module_name}.{name}", obj, required


CALLABLES = list(server_callables())


def test_the_servers_public_api_is_found() -> None:
    names = {name for name, _, _ in CALLABLES}
    assert {
        "tabletop_rules.server.create_app",
        "tabletop_rules.server.ServerSettings",
        "tabletop_rules.server.client.join_seat",
        "tabletop_rules.server.client.MatchLink",
        "tabletop_rules.server.messages.ClockRule",
        "tabletop_rules.server.messages.read_message",
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
            function(*arguments)
        except EXPECTED:
            continue
        except Exception as error:
            shown = ", ".join(type(argument).__name__ for argument in arguments)
            pytest.fail(f"{name}({shown}) raised {type(error).__name__}: {error}")
