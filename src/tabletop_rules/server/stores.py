"""The stores the server keeps its matches in, chosen by URL: SQLite for one process (a
file, or memory for tests) and Postgres for many workers.
"""

from __future__ import annotations

from ..errors import ConfigError
from .sqlite import SQLiteStore
from .store import Store

__all__ = ["open_store", "open_store_url"]


def open_store_url(url: str) -> tuple[str, str]:
    """The kind of store a URL names (``"sqlite"`` or ``"postgresql"``) and what the store
    opens: the file (``:memory:``) or the Postgres URL. As in SQLAlchemy, ``sqlite:///``
    is followed by a relative path and ``sqlite:////`` by an absolute one; a bare path is
    an SQLite file.

    >>> open_store_url("sqlite:////var/lib/tabletop/matches.db")
    ('sqlite', '/var/lib/tabletop/matches.db')
    >>> open_store_url("sqlite:///matches.db")
    ('sqlite', 'matches.db')
    >>> open_store_url("matches.db")
    ('sqlite', 'matches.db')
    >>> open_store_url("postgresql://game@db/tabletop")
    ('postgresql', 'postgresql://game@db/tabletop')
    """
    if not isinstance(url, str):
        raise TypeError(f"a store URL is a str, got {type(url).__name__}")
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "sqlite", url
    if scheme == "sqlite":
        path = rest[1:] if rest.startswith("/") else rest
        return "sqlite", path or ":memory:"
    if scheme in ("postgresql", "postgres"):
        return "postgresql", url
    raise ConfigError(
        f"a store is sqlite:///PATH, sqlite://:memory:, a path or postgresql://...; got "
        f"{url[:60]!r}"
    )


async def open_store(url: str) -> Store:
    """Open the store ``url`` names (:func:`open_store_url`) and bring its schema up to date."""
    kind, target = open_store_url(url)
    if kind == "sqlite":
        return SQLiteStore(target)
    from .postgres import PostgresStore  # psycopg: the cluster extra, imported when asked

    return await PostgresStore.open(target)
