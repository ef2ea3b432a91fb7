"""An authoritative game server for every registered game (the ``server`` extra: Starlette,
served by uvicorn): a lobby over HTTP, one WebSocket per client, matches kept in SQLite
for one process, or in Postgres for many workers that tell each other through Redis.

The server alone applies moves. What it sends a seat or a spectator is that seat's
:class:`~tabletop_rules.table.Table`, never more; a seat's token is checked on every
message; a move is committed to the store before it is acknowledged or sent to anyone.
``tabletop-rules serve`` runs it; :doc:`/server` describes the protocol.
"""

from __future__ import annotations

from .app import Server, ServerSettings, create_app
from .messages import RefusedError
from .sqlite import SQLiteStore
from .store import (
    MatchSettings,
    Result,
    StaleError,
    Store,
    StoreUnavailableError,
)
from .stores import open_store

__all__ = [
    "MatchSettings",
    "RefusedError",
    "Result",
    "SQLiteStore",
    "Server",
    "ServerSettings",
    "StaleError",
    "Store",
    "StoreUnavailableError",
    "create_app",
    "open_store",
]
