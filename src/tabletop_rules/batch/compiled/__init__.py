"""What the compiled batched kernels share (``pip install 'tabletop-rules[batch]'``): numba's
:func:`jit`, with its on-disk cache kept to the sources it was compiled from.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast, overload

try:
    import numba
except ImportError as missing:  # the optional `numba` extra
    raise ImportError(
        "the compiled batched kernels need numba: pip install 'tabletop-rules[batch]'"
    ) from missing

__all__ = ["jit"]

F = TypeVar("F", bound=Callable[..., Any])

_STAMP = "tabletop_rules-sources.sha256"
"""The file, beside numba's cache of this package, naming the sources it was compiled from."""


@overload
def jit(function: F) -> F: ...


@overload
def jit(*, inline: bool) -> Callable[[F], F]: ...


def jit(function: F | None = None, *, inline: bool = False) -> Any:
    """``function`` compiled in numba's nopython mode, cached on disk, the GIL released;
    ``jit(inline=True)`` decorates a small helper that numba copies into each caller, for
    a helper called once a game (a call passes every array's fields).
    """
    if function is None:
        return functools.partial(jit, inline=inline)
    compiled = numba.njit(cache=True, nogil=True, inline="always" if inline else "never")(function)
    cache = getattr(compiled, "_cache", None)
    forget_stale_cache(getattr(cache, "_cache_path", None), sources_digest())
    return cast(F, compiled)


@functools.cache
def sources_digest() -> str:
    """A digest of the library's Python sources: numba checks a cached function against
    its own file alone, not the other files' functions and constants compiled into it.
    """
    root = Path(__file__).parents[2]
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def forget_stale_cache(directory: str | None, digest: str) -> None:
    """Remove numba's cached code in ``directory`` unless compiled from the sources of
    ``digest``; best effort, as numba's own cache is.
    """
    if directory is None:
        return
    folder = Path(directory)
    try:
        if (folder / _STAMP).read_text() == digest:
            return
    except OSError:
        pass
    try:
        for stale in folder.glob("*.nb[ic]"):
            stale.unlink(missing_ok=True)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / _STAMP).write_text(digest)
    except OSError:
        pass
