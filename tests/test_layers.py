"""The layers of ``src/tabletop_rules`` run one way, read from the source (``ast``): no
module imports another module's private name, the search stands below the games' bots and
on nothing that plays many games, the games stand below everything that plays them, and
the randomness, the errors and the observation helpers below every game.

Every import counts wherever it is written (at the top, inside a function, under
``if TYPE_CHECKING:``), and a layer holds for what a module reaches through other modules
too, not only for what it imports itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

from .test_imports import PACKAGE, import_graph, modules

GAMES = ("palace", "dice_poker", "account")
"""The game packages of the library."""

PLAYING_MANY = ("simulate", "playing", "executors", "results", "tournament")
"""The modules that play games with bots and sum them up."""

ABOVE_THE_GAMES = (*PLAYING_MANY, "match", "cli", "adapters", "plots")
"""What plays, shows or wraps a game: no game depends on it."""

BELOW_THE_GAMES = ("rng", "errors", "observation")
"""What every game stands on and which knows no game."""

PENDING: Mapping[str, frozenset[str]] = {}
"""Private names still imported across modules while other work of issue 33 moves them,
by importing module; this list only shrinks."""


def is_private(name: str) -> bool:
    """Whether ``name`` is private by the leading underscore (a dunder is not)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(root: Path = PACKAGE) -> Iterator[tuple[str, int, str]]:
    """Each import of a private name across modules under ``root``: the importing module,
    the line, and the statement's words (``from .x import _y``, ``import a._b``).
    """
    for name, (path, _is_package) in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                source = "." * node.level + (node.module or "")
                for alias in node.names:
                    if is_private(alias.name):
                        yield name, node.lineno, f"from {source} import {alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if any(map(is_private, alias.name.split(".")[1:])):
                        yield name, node.lineno, f"import {alias.name}"


def imported_name(words: str) -> str:
    """The name an import statement's words bring in: ``_y`` of ``from .x import _y``."""
    return words.rsplit(" ", 1)[-1].rsplit(".", 1)[-1]


def reached(graph: Mapping[str, Mapping[str, int]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through other modules."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def under(module: str, tops: tuple[str, ...]) -> bool:
    """Whether ``module`` is one of the package's ``tops`` or inside one."""
    parts = module.split(".")
    return len(parts) > 1 and parts[1] in tops


def test_no_module_imports_another_modules_private_name() -> None:
    found = [
        f"  {module} (line {line}): {words}"
        for module, line, words in private_imports()
        if imported_name(words) not in PENDING.get(module, frozenset())
    ]
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_the_private_import_finder_finds_each_form(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from . import __version__\n")
    (package / "a.py").write_text("from .b import _hidden, shown\n")
    (package / "b.py").write_text("def f():\n    import pkg.sub._inner\n")
    (package / "sub" / "__init__.py").write_text("from ..a import _x as y\n")
    (package / "sub" / "_inner.py").write_text("from .._messages import short\n")
    assert sorted(private_imports(package)) == [
        ("pkg.a", 1, "from .b import _hidden"),
        ("pkg.b", 2, "import pkg.sub._inner"),
        ("pkg.sub", 1, "from ..a import _x"),
    ]


def test_the_search_stands_on_the_game_contract_not_on_what_plays_many_games() -> None:
    graph = import_graph()
    reaches = reached(graph, "tabletop_rules.search")
    assert not [module for module in reaches if under(module, (*ABOVE_THE_GAMES, *GAMES))]


def test_no_game_depends_on_what_plays_shows_or_wraps_it() -> None:
    graph = import_graph()
    found = [
        f"  {module} -> {target}"
        for module in graph
        if under(module, GAMES)
        for target in sorted(reached(graph, module))
        if under(target, ABOVE_THE_GAMES)
    ]
    assert not found, "a game imports what stands above the games:\n" + "\n".join(found)


def test_randomness_errors_and_observation_know_no_game() -> None:
    graph = import_graph()
    for low in BELOW_THE_GAMES:
        module = f"tabletop_rules.{low}"
        games = sorted(target for target in reached(graph, module) if under(target, GAMES))
        assert not games, f"{module} reaches the games: {games}"


def test_each_layer_list_names_modules_that_exist() -> None:
    tops = {name.split(".")[1] for name in modules() if "." in name}
    missing = {*GAMES, *ABOVE_THE_GAMES, *BELOW_THE_GAMES, "search"} - tops
    assert not missing, f"the layers name modules src/ does not have: {sorted(missing)}"
