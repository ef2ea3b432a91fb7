"""The messages' JSON Schemas, published for clients in other languages, say what the
server reads and writes: a message the server reads is valid under the client schema, one
it refuses for its shape is not, and every frame it sends is valid under its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop_rules.table import TABLE_SCHEMA

pytest.importorskip("jsonschema")
pytest.importorskip("starlette")

import jsonschema

from tabletop_rules.server.messages import (
    MESSAGE_SCHEMA,
    RefusedError,
    read_message,
    server_message_schema,
)
from tabletop_rules.server.sqlite import SQLiteStore
from tabletop_rules.server.store import StoreUnavailableError

from .helpers import create, join, party, serving

READ = [
    {"type": "hello", "token": None},
    {"type": "hello", "token": "abc", "cursor": 12},
    {"type": "move", "move": "roll keep 6 6", "version": 3},
    {"type": "move", "action": 12, "version": 0},
    {"type": "resign"},
    {"type": "takeback", "answer": "decline"},
    {"type": "claim"},
    {"type": "sync"},
]

REFUSED = [
    ["hello"],
    {"type": "shout"},
    {"type": "hello"},
    {"type": "hello", "token": 7},
    {"type": "hello", "token": None, "cursor": -1},
    {"type": "move", "move": "roll"},
    {"type": "move", "version": 0},
    {"type": "move", "move": "roll", "action": 1, "version": 0},
    {"type": "move", "move": "roll", "version": True},
    {"type": "move", "move": "roll", "version": 1.5},
    {"type": "takeback", "answer": "maybe"},
    {"type": "resign", "now": True},
]


@pytest.mark.parametrize("message", READ)
def test_a_message_the_server_reads_is_valid_under_the_client_schema(
    message: dict[str, Any],
) -> None:
    read_message(json.dumps(message))
    jsonschema.Draft202012Validator(MESSAGE_SCHEMA).validate(message)


@pytest.mark.parametrize("message", REFUSED)
def test_a_message_the_server_refuses_for_its_shape_is_invalid_under_the_schema(
    message: object,
) -> None:
    with pytest.raises(RefusedError):
        read_message(json.dumps(message))
    assert not jsonschema.Draft202012Validator(MESSAGE_SCHEMA).is_valid(message)


def test_every_frame_the_server_sends_is_valid_under_its_schema() -> None:
    schema = server_message_schema(dict(TABLE_SCHEMA))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    with serving() as client:
        match_id = create(
            client, rules={"stages": "1"}, clock={"move_seconds": 9, "bank_seconds": 9}
        )
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second, None]) as seats:
            one, two, watcher = seats
            one.move("roll")
            two.read()
            watcher.read()
            refused = two.move("roll")
            one.send({"type": "resign"})
            for seat in seats:
                seat.read()
    frames = [frame for seat in seats for frame in seat.frames]
    assert refused["type"] == "refused"
    assert refused in frames
    for frame in frames:
        validator.validate(frame)
    assert not validator.is_valid({**refused, "secret": 1})
    validator.validate({"type": "error", "reason": "the first message is a hello"})


class _DownWhenTold(SQLiteStore):
    """A store whose commits fail as a database that does not answer, once told to."""

    down = False

    async def commit(self, *args: Any, **kwargs: Any) -> int:
        if self.down:
            raise StoreUnavailableError("the database did not answer; nothing was stored")
        return await super().commit(*args, **kwargs)


def test_a_refusal_to_send_again_is_valid_under_the_server_schema() -> None:
    validator = jsonschema.Draft202012Validator(server_message_schema(TABLE_SCHEMA))
    store = _DownWhenTold()
    with serving(store) as client:
        match_id = create(client)
        first, second = join(client, match_id), join(client, match_id)
        with party(client, match_id, [first, second]) as (one, _two):
            store.down = True
            refused = one.move("roll")
    assert refused["type"] == "refused"
    assert refused["retry"] is True
    validator.validate(refused)
    assert not validator.is_valid({**refused, "retry": "yes"})


STATIC = Path(__file__).resolve().parents[2] / "docs" / "_static"


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("client-messages.schema.json", MESSAGE_SCHEMA),
        ("server-messages.schema.json", server_message_schema(TABLE_SCHEMA)),
    ],
)
def test_the_published_message_schema_files_are_the_servers_schemas(name: str, schema: Any) -> None:
    published = (STATIC / name).read_text(encoding="utf-8")
    assert published == json.dumps(schema, indent=2, sort_keys=True) + "\n"
