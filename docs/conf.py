"""Sphinx configuration of the tabletop_rules documentation."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
from pathlib import Path
from typing import Any, TypeVar, cast

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import PycodeError
from sphinx.ext import napoleon
from sphinx.pycode import ModuleAnalyzer

import tabletop_rules

project = "tabletop_rules"
author = "tabletop_rules developers"
copyright = "2026, tabletop_rules developers"
release = tabletop_rules.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]

exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"tabletop_rules {release}"

# autodoc: members in source order, type hints in the signatures.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"

# napoleon: the docstrings are Google style. Their "Attributes:" sections become
# :ivar: fields, so attrs fields are not described twice.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True

# doctest: the narrative pages use explicit ``.. doctest::`` blocks. Docstring examples
# pulled in by autodoc are run by pytest (--doctest-modules) in each module's namespace,
# so the doctest builder leaves plain ``>>>`` blocks alone.
doctest_test_doctest_blocks = ""


# nitpicky (-n): every cross-reference must resolve, except these.
#
# Type variables: autodoc writes them in signatures as references (``StateT`` as
# ``tabletop_rules.protocol.StateT``), but a TypeVar is no object to describe, so each
# TypeVar of the package is ignored by its exact name, found by importing the modules.
# External modules: the builds run without network, so intersphinx cannot fetch the
# standard library's or third-party inventories; references into these modules (from
# signatures and docstrings) stay plain text. Only the modules the package uses are listed,
# so a broken reference to anything else still fails the build.
_EXTERNAL_MODULES = (
    "_asyncio",  # asyncio's Task is written in C and named there
    "_pytest",  # pytest's hooks annotate with its private module's classes
    "collections.abc",
    "concurrent.futures",
    "fractions",
    "gymnasium",
    "hypothesis",
    "json",
    "logging",  # the server's log formatters and handler
    "matplotlib",
    "numpy",
    "os",  # os.PathLike, where a path may be given
    "pathlib",
    "pettingzoo",
    "rich",  # the terminal of `tabletop-rules join` prints with its Console
    "secrets",
)


def _type_variables() -> list[tuple[str, str]]:
    names = [
        info.name
        for info in pkgutil.walk_packages(tabletop_rules.__path__, "tabletop_rules.")
        if not info.name.endswith(".__main__")  # importing it would run the program
    ]
    found: set[str] = set()
    for name in ["tabletop_rules", *names]:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional dependency is missing; autodoc will say so
            continue
        for value in vars(module).values():
            if isinstance(value, TypeVar):  # written in full, or bare inside a type alias
                found.update((f"{value.__module__}.{value.__name__}", value.__name__))
    return [("py:class", target) for target in sorted(found)]


nitpick_ignore = _type_variables()
nitpick_ignore_regex = [(r"py:.*", re.escape(module) + r"(\..+)?") for module in _EXTERNAL_MODULES]


# One description per object. Packages re-export their submodules' names; each name is
# described once, in the first of these modules that exports it (the name users import
# and the docstrings' cross-references use), and skipped elsewhere. autodoc does not tell
# the skip hook whose members it lists, so the module whose docstring was read last is
# remembered: autodoc reads a module's docstring before its members.
_HOMES = (
    "tabletop_rules.errors",
    "tabletop_rules.rng",
    "tabletop_rules.protocol",
    "tabletop_rules.observation",
    "tabletop_rules.serialize",
    "tabletop_rules.records",
    "tabletop_rules.match",
    "tabletop_rules.house_rules",
    "tabletop_rules.bots",
    "tabletop_rules.simulate",
    "tabletop_rules.testing",
    "tabletop_rules.dice_poker",
    "tabletop_rules.palace",
    "tabletop_rules.account",
)
_current_module = [""]


def _describes(module_name: str, name: str, obj: object) -> bool:
    """Whether autodoc finds a description of ``name`` in ``module_name``: a class, function
    or module carries its own docstring; a constant or type alias only the docstring
    written under its assignment, so a package that merely re-exports one is no home.
    """
    if inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
        return True
    try:
        docs = ModuleAnalyzer.for_module(module_name).find_attr_docs()
    except PycodeError:
        return False
    return ("", name) in docs


def _home(name: str, obj: object) -> str | None:
    for module_name in _HOMES:
        module = importlib.import_module(module_name)
        if (
            name in getattr(module, "__all__", ())
            and getattr(module, name) is obj
            and _describes(module_name, name, obj)
        ):
            return module_name
    return None


def _prose_attributes(
    app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]
) -> None:
    # Napoleon reads the first line of an attribute's or property's docstring as
    # "type: description" when it has a colon ("Throws this turn allows: ..."). Every such
    # docstring here is prose, so napoleon reads them as it reads a function's.
    kind = "function" if what in ("attribute", "data", "property") else what
    napoleon._process_docstring(app, cast(Any, kind), name, obj, options, lines)


def _remember_module(
    app: Sphinx, what: str, name: str, obj: object, options: Any, lines: list[str]
) -> None:
    if what == "module":
        _current_module[0] = name


def _skip_described_elsewhere(
    app: Sphinx, what: str, name: str, obj: object, skip: bool, options: Any
) -> bool | None:
    if what != "module":
        return None
    home = _home(name, obj)
    return True if home is not None and home != _current_module[0] else None


# The web page's screenshots (web.rst). The browser tests save fresh ones in the git-ignored
# build/screenshots/web/ (running the tests never rewrites a tracked file); a figure shows
# the fresh one where it exists, and the committed copy in _static/web/ otherwise, so the
# docs build without a browser too.
_DOCS = Path(__file__).resolve().parent
FRESH_SCREENSHOTS = _DOCS.parent / "build" / "screenshots" / "web"
_SCREENSHOT_FIGURE = re.compile(r"^(\.\. figure:: )(_static/web/([\w-]+\.png))$", re.MULTILINE)


def screenshot_path(match: re.Match[str]) -> str:
    """The figure line of a screenshot, pointing at the fresh one where the tests saved it."""
    fresh = FRESH_SCREENSHOTS / match.group(3)
    shown = Path(os.path.relpath(fresh, _DOCS)).as_posix() if fresh.is_file() else match.group(2)
    return match.group(1) + shown


def _fresh_screenshots(app: Sphinx, docname: str, source: list[str]) -> None:
    source[0] = _SCREENSHOT_FIGURE.sub(screenshot_path, source[0])


def _reread_screenshot_pages(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    # A screenshot saved since the last build changes which file a page shows, though
    # neither the page nor the file it showed changed: read the pages that show one again.
    return [
        docname
        for path, (docnames, _) in env.images.items()
        if path.startswith(("_static/web/", "../build/screenshots/"))
        for docname in docnames
    ]


def setup(app: Sphinx) -> None:
    """Put napoleon behind _prose_attributes, skip members described elsewhere, and show
    the freshest screenshots.
    """
    app.connect("source-read", _fresh_screenshots)
    app.connect("env-get-outdated", _reread_screenshot_pages)
    for listener in list(app.events.listeners["autodoc-process-docstring"]):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)
            app.connect("autodoc-process-docstring", _prose_attributes, listener.priority)
    app.connect("autodoc-process-docstring", _remember_module)
    app.connect("autodoc-skip-member", _skip_described_elsewhere)
