"""Names a module no longer exports, still found for one release with a warning."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["moved_names"]


def moved_names(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``'s names that moved: ``where`` maps each to
    ``"submodule"`` (same name there) or ``"submodule.new_name"``. Each access warns
    ``DeprecationWarning`` saying where to import it from.

    >>> found = moved_names("tabletop_rules", {"short": "_messages.short_repr"})
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     found("short")("x" * 3)
    "'xxx'"
    >>> str(caught[0].message)
    'tabletop_rules.short moved: use tabletop_rules._messages.short_repr'
    """

    def moved(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, new_name = where[name].partition(".")
        path = f"{package}.{module}"
        warnings.warn(
            f"{package}.{name} moved: use {path}.{new_name or name}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(path), new_name or name)

    return moved
