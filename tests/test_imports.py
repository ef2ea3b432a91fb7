"""The modules of ``src/tabletop_rules`` import each other without a cycle.

The import graph is read from the source (``ast``), not from a running interpreter, so
every import counts as an edge wherever it is written: at the top of a module, inside a
function, or under ``if TYPE_CHECKING:`` (a type-only import still makes the two modules
depend on each other, and mypy reads it). ``from . import x`` is an edge to the submodule
``x`` where there is one, else to the package; ``from .x import y`` an edge to ``x`` (and
to ``x.y`` when that is a submodule). A module's implicit import of its own parent
package is no edge: Python always runs a package's ``__init__`` first.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "tabletop_rules"


def modules(root: Path = PACKAGE) -> dict[str, tuple[Path, bool]]:
    """Every module under ``root``: its dotted name, its file and whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _imported(
    node: ast.Import | ast.ImportFrom, package: str, known: Mapping[str, object]
) -> Iterator[str]:
    """The modules of ``known`` that one import statement, written in ``package``, names."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    if node.level:
        parts = package.split(".")
        base = ".".join(
            parts[: len(parts) - node.level + 1] + ([node.module] if node.module else [])
        )
    else:
        base = node.module or ""
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        yield submodule if submodule in known else base


def import_graph(root: Path = PACKAGE) -> dict[str, dict[str, int]]:
    """For each module, the modules of the package it imports, each with the line of its
    first import there.
    """
    known = modules(root)
    graph: dict[str, dict[str, int]] = {name: {} for name in known}
    for name, (path, is_package) in known.items():
        package = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in _imported(node, package, known):
                    if target in known and target != name:
                        graph[name].setdefault(target, node.lineno)
    return graph


def cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe(component: list[str], graph: Mapping[str, Mapping[str, int]]) -> str:
    """The imports that hold ``component`` together, one a line."""
    return "\n".join(
        f"  {source} -> {target} (line {line})"
        for source in component
        for target, line in graph[source].items()
        if target in component
    )


def test_src_has_no_circular_imports() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "circular imports in src/:\n" + "\n".join(
        describe(component, graph) for component in found
    )


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "b.py").write_text("def f():\n    from .. import a\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import d\n"
    )
    (package / "d.py").write_text("import pkg.c\n")
    (package / "e.py").write_text("from . import a\n")
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg.sub.b": 1}
    assert graph["pkg.sub.b"] == {"pkg.a": 2}
    assert sorted(map(tuple, cycles(graph))) == [("pkg.a", "pkg.sub.b"), ("pkg.c", "pkg.d")]
