"""The server's logs: one JSON object a line with the caller's fields, never failing on a
value; one handler on the library's logger however often it is configured.
"""

from __future__ import annotations

import io
import json
import logging
import math
import re
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")  # the server package imports its app

from tabletop_rules.errors import ConfigError
from tabletop_rules.server.logs import LOGGER, JsonFormatter, TextFormatter, configure_logging

log = logging.getLogger("tabletop_rules.server.test_logs")


@pytest.fixture(autouse=True)
def library_logger() -> Iterator[logging.Logger]:
    """The library's logger, given back as it was: its handlers and level."""
    logger = logging.getLogger(LOGGER)
    handlers, level = list(logger.handlers), logger.level
    yield logger
    for handler in logger.handlers:
        if handler not in handlers:
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(level)


def json_lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


class Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_a_json_line_carries_the_extra_fields_and_a_traceback() -> None:
    stream = io.StringIO()
    configure_logging("json", worker="w1", stream=stream)
    fields = {"match": "Qx3v7TkP0aZe", "seat": 1, "event": "move", "latency_ms": 2.5}
    try:
        raise ZeroDivisionError("a test's failure")
    except ZeroDivisionError:
        log.exception("the move %s failed", "roll", extra=fields)
    (line,) = json_lines(stream)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", str(line["time"]))
    assert line["level"] == "ERROR"
    assert line["logger"] == "tabletop_rules.server.test_logs"
    assert line["message"] == "the move roll failed"
    assert line["worker"] == "w1"
    assert {key: line[key] for key in fields} == fields
    traceback = str(line["traceback"])
    assert traceback.startswith("Traceback (most recent call last):")
    assert traceback.endswith("ZeroDivisionError: a test's failure")


def test_a_json_line_is_written_in_utc_to_the_millisecond() -> None:
    record = logging.makeLogRecord({"msg": "hello", "created": 1_765_000_000.0421})
    line = json.loads(JsonFormatter().format(record))
    assert line["time"] == "2025-12-06T05:46:40.042Z"


def test_a_non_json_extra_is_written_as_its_repr() -> None:
    loop: dict[str, object] = {}
    loop["self"] = loop
    odd = {
        "hand": {3, 5},
        "when": 1j,
        "ratio": math.nan,
        "by_pair": {(0, 1): "pair"},
        "loop": loop,
        "nested": {"seats": [1, 2], "bot": object},
        "broken": Unprintable(),
    }
    record = logging.makeLogRecord({"msg": "odd values", **odd})
    line = json.loads(JsonFormatter().format(record))
    assert line["hand"] == "{3, 5}"
    assert line["when"] == "1j"
    assert line["ratio"] == "nan"
    assert line["by_pair"] == "{(0, 1): 'pair'}"
    assert line["loop"] == "{'self': {...}}"
    assert line["nested"] == {"seats": [1, 2], "bot": "<class 'object'>"}
    assert line["broken"] == "<unrepresentable Unprintable>"
    assert line["message"] == "odd values"


def test_a_message_whose_arguments_do_not_fit_is_still_written() -> None:
    record = logging.makeLogRecord({"msg": "seat %d of %s", "args": ("two",)})
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "'seat %d of %s' % ('two',)"


def test_an_extra_named_as_a_core_field_cannot_hide_it() -> None:
    record = logging.makeLogRecord({"msg": "real", "levelname": "INFO", "level": "fake"})
    line = json.loads(JsonFormatter().format(record))
    assert (line["level"], line["extra_level"]) == ("INFO", "fake")


def test_the_text_format_writes_the_extra_fields_as_name_and_repr() -> None:
    stream = io.StringIO()
    configure_logging("text", worker="w1", stream=stream)
    log.warning("a store error", extra={"match": "Qx3v", "seat": 0})
    text = stream.getvalue()
    assert re.fullmatch(
        r"\S+Z WARNING tabletop_rules\.server\.test_logs: a store error"
        r" worker='w1' match='Qx3v' seat=0\n",
        text,
    )
    assert TextFormatter().format(logging.makeLogRecord({"msg": "x", "odd": Unprintable()}))


def test_configure_twice_installs_one_handler(library_logger: logging.Logger) -> None:
    before = len(library_logger.handlers)
    first, second = io.StringIO(), io.StringIO()
    configure_logging("text", stream=first)
    configure_logging("json", "DEBUG", stream=second)
    assert len(library_logger.handlers) == before + 1
    assert library_logger.level == logging.DEBUG
    log.debug("once", extra={"event": "check"})
    assert first.getvalue() == ""
    assert json_lines(second)[0]["event"] == "check"


def test_configure_leaves_the_root_logger_alone() -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging("json", stream=io.StringIO())
    assert (root.handlers, root.level) == (handlers, level)


def test_records_below_the_level_are_not_written() -> None:
    stream = io.StringIO()
    configure_logging("json", "warning", stream=stream)
    log.info("quiet")
    log.warning("loud")
    assert [line["message"] for line in json_lines(stream)] == ["loud"]


def test_an_unknown_format_or_level_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="a log format is 'text' or 'json', got 'xml'"):
        configure_logging("xml")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"a log level is one of .*'INFO'.*, got 'LOUD'"):
        configure_logging("json", "LOUD")
    with pytest.raises(TypeError, match="a log level is a name or a number, got float"):
        configure_logging("json", 2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a log format is text, got NoneType"):
        configure_logging(None)  # type: ignore[arg-type]
