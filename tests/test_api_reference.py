"""The API reference describes every exported name, and its cross-references all resolve.

One in-process Sphinx build (the ``dummy`` builder: it reads and resolves every page but
writes nothing) serves both tests; it takes a few seconds.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import io
import pkgutil
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

import pytest

import tabletop_rules

if TYPE_CHECKING:
    from sphinx.domains.python import PythonDomain

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@dataclass(frozen=True)
class Build:
    """What the documentation build left: the Python objects it describes, and its warnings."""

    described: frozenset[str]
    warnings: str


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """Build the documentation once, nitpicky, with the dummy builder."""
    try:
        from sphinx.application import Sphinx
        from sphinx.util.console import strip_colors
        from sphinx.util.docutils import docutils_namespace, patch_docutils
    except ImportError:  # pragma: no cover - depends on the environment
        pytest.skip("the docs need Sphinx: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("docs")
    log = io.StringIO()
    with patch_docutils(DOCS), docutils_namespace(), warnings.catch_warnings():
        # Sphinx's deprecation warnings about its own calls (napoleon reads autodoc's
        # options through the mapping interface Sphinx 9 deprecates) are not ours to fix.
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"sphinx\.")
        warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module=r"sphinx\.")
        app = Sphinx(
            srcdir=DOCS,
            confdir=DOCS,
            outdir=out / "dummy",
            doctreedir=out / "doctrees",
            buildername="dummy",
            confoverrides={"nitpicky": True},
            status=None,
            warning=log,
            freshenv=True,
        )
        app.build()
    domain = cast("PythonDomain", app.env.get_domain("py"))
    # An aliased entry is a class's canonical name (where it is defined), indexed so
    # that references to it resolve; the description itself is under the other name.
    described = frozenset(name for name, entry in domain.objects.items() if not entry.aliased)
    return Build(described, strip_colors(log.getvalue()))


def public_modules() -> list[ModuleType]:
    """``tabletop_rules`` and each of its modules and packages whose path has no ``_`` part
    (an adapter only where its extra is installed).
    """
    names = [
        info.name
        for info in pkgutil.walk_packages(tabletop_rules.__path__, "tabletop_rules.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    return [tabletop_rules, *(module for name in names if (module := _imported(name)))]


def _imported(name: str) -> ModuleType | None:
    """The module, or ``None`` for an adapter whose framework (an extra) is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        if name.startswith("tabletop_rules.adapters."):
            return None
        raise


@functools.cache
def origin(module_name: str, name: str) -> tuple[str, str]:
    """Where ``module_name.name`` is assigned, following ``from ... import`` lines (a star
    import brings the names of its module's ``__all__``).

    A submodule imported as a name is its own origin: ``(its full name, "")``.
    """
    module = importlib.import_module(module_name)
    for node in ast.parse(inspect.getsource(module)).body:
        if not isinstance(node, ast.ImportFrom):
            continue
        source = importlib.util.resolve_name(
            "." * node.level + (node.module or ""), module.__package__
        )
        for alias in node.names:
            if alias.name == "*" and name in getattr(
                importlib.import_module(source), "__all__", ()
            ):
                return origin(source, name)  # from .moves import *: the names of its __all__
            if (alias.asname or alias.name) == name:
                if node.module is None:  # from . import submodule
                    return f"{source}.{alias.name}", ""
                return origin(source, alias.name)
    return module_name, name


def exporters(module: ModuleType, name: str, modules: list[ModuleType]) -> list[str]:
    """The modules whose ``__all__`` holds what ``module`` exports as ``name``.

    Identity alone would mistake two games' ``MAX_PLAYERS = 4`` for one constant, so the
    name must also come from the same assignment.
    """
    return [
        other.__name__
        for other in modules
        if name in getattr(other, "__all__", ())
        and getattr(other, name) is getattr(module, name)
        and origin(other.__name__, name) == origin(module.__name__, name)
    ]


def test_every_exported_name_is_described(build: Build) -> None:
    modules = public_modules()
    missing = [
        f"{module.__name__}.{name}"
        for module in modules
        for name in module.__all__
        if not any(f"{home}.{name}" in build.described for home in exporters(module, name, modules))
    ]
    assert not missing, "exported but not described in the API reference:\n" + "\n".join(missing)


def test_the_nitpicky_build_has_no_warnings(build: Build) -> None:
    assert not build.warnings, "the nitpicky documentation build warns:\n" + build.warnings
