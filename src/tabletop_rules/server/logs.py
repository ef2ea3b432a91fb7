"""The server's logs, as text for a person or as one JSON object a line for a log store
(``tabletop-rules serve --log-format json``), with the standard library only.

A caller adds fields with ``extra=``: ``log.info("move", extra={"match": id, "seat": 1,
"latency_ms": 3.2})``. Both formats write them; the JSON one as fields of the line, so a
log store can search every line of a match or a worker.

>>> import logging
>>> record = logging.makeLogRecord({
...     "name": "tabletop_rules.server", "levelname": "INFO", "msg": "moved %s", "args": ("roll",),
...     "created": 86400.25, "match": "Qx3v", "seat": 1, "hand": {2, 5},
... })
>>> print(JsonFormatter(fields={"worker": "w1"}).format(record))  # doctest: +NORMALIZE_WHITESPACE
{"time": "1970-01-02T00:00:00.250Z", "level": "INFO", "logger": "tabletop_rules.server",
 "message": "moved roll", "worker": "w1", "match": "Qx3v", "seat": 1, "hand": "{2, 5}"}
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Mapping
from typing import IO, Final, Literal

from ..errors import ConfigError

__all__ = ["LOGGER", "JsonFormatter", "TextFormatter", "configure_logging"]

LOGGER: Final = "tabletop_rules"
"""The logger :func:`configure_logging` installs its handler on: every module's logger of
the library is below it.
"""

_HANDLER_NAME: Final = "tabletop_rules.server.logs"
_STANDARD: Final = frozenset(
    (*vars(logging.LogRecord("", 0, "", 0, "", (), None)), "message", "asctime", "taskName")
)
_CORE: Final = ("time", "level", "logger", "message", "traceback", "stack")


def _repr(value: object) -> str:
    """``repr(value)``, or a placeholder where its ``__repr__`` raises."""
    try:
        return repr(value)
    except Exception:  # a log line must not fail on the value it describes
        return f"<unrepresentable {type(value).__name__}>"


def _message(record: logging.LogRecord) -> str:
    """The record's message, or its template and arguments where they do not fit."""
    try:
        return record.getMessage()
    except Exception:
        return f"{_repr(record.msg)} % {_repr(record.args)}"


def _extras(record: logging.LogRecord) -> dict[str, object]:
    """The fields the caller passed with ``extra=``, in the order given."""
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


def _utc_time(record: logging.LogRecord) -> str:
    """When the record was made: ISO 8601 in UTC, to the millisecond."""
    milliseconds = int(record.created * 1000)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(milliseconds // 1000))
    return f"{stamp}.{milliseconds % 1000:03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (ISO 8601, UTC, milliseconds), ``level``,
    ``logger``, ``message``, then ``fields`` given here (the same on every line, e.g. the
    worker), then the record's ``extra=`` fields, and ``traceback`` (and ``stack``) where
    the record has one.

    It never raises on a field's value: what JSON cannot hold (a set, an object, NaN, a
    dict with keys that are not text) is written as its ``repr``. An extra field named as
    one of the fields above is written as ``extra_<name>``, so it cannot hide them.
    """

    def __init__(self, fields: Mapping[str, object] | None = None) -> None:
        super().__init__()
        self.fields: Final = dict(fields or {})

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, object] = {
            "time": _utc_time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": _message(record),
        }
        for key, value in (*self.fields.items(), *_extras(record).items()):
            line[f"extra_{key}" if key in _CORE else key] = value
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["traceback"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        try:
            return json.dumps(line, default=_repr, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            fitted = {key: _json_or_repr(value) for key, value in line.items()}
            return json.dumps(fitted, default=_repr, allow_nan=False)


def _json_or_repr(value: object) -> object:
    """``value`` where JSON holds it, else its ``repr``."""
    try:
        json.dumps(value, default=_repr, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return _repr(value)
    return value


class TextFormatter(logging.Formatter):
    """A line for a person: the time (UTC), the level, the logger, the message, then each
    extra field as ``name=repr``, and the traceback below where there is one.
    """

    def __init__(self, fields: Mapping[str, object] | None = None) -> None:
        super().__init__()
        self.fields: Final = dict(fields or {})

    def format(self, record: logging.LogRecord) -> str:
        """The record as text."""
        pairs = (*self.fields.items(), *_extras(record).items())
        text = " ".join(
            (
                _utc_time(record),
                record.levelname,
                f"{record.name}:",
                _message(record),
                *(f"{key}={_repr(value)}" for key, value in pairs),
            )
        )
        if record.exc_info:
            text = f"{text}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            text = f"{text}\n{self.formatStack(record.stack_info)}"
        return text


def configure_logging(
    fmt: Literal["text", "json"],
    level: int | str = "INFO",
    *,
    worker: str | None = None,
    stream: IO[str] | None = None,
) -> logging.Handler:
    """Log the library's records (the :data:`LOGGER` logger and those below it) at
    ``level`` and above to ``stream`` (standard error) in the format ``fmt``, each line
    with the ``worker`` field where one is given; and answer the handler.

    One handler is installed: a second call replaces the first's. The root logger is left
    alone (records still propagate to it, so a handler installed there also gets them).
    """
    if not isinstance(fmt, str):
        raise TypeError(f"a log format is text, got {type(fmt).__name__}")
    if fmt not in ("text", "json"):
        raise ConfigError(f"a log format is 'text' or 'json', got {fmt!r}")
    if isinstance(level, str):
        levels = logging.getLevelNamesMapping()
        if level.upper() not in levels:
            raise ConfigError(f"a log level is one of {sorted(levels)}, got {level!r}")
        level = levels[level.upper()]
    elif not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"a log level is a name or a number, got {type(level).__name__}")
    fields = {} if worker is None else {"worker": worker}
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(JsonFormatter(fields) if fmt == "json" else TextFormatter(fields))
    logger = logging.getLogger(LOGGER)
    for old in [old for old in logger.handlers if old.get_name() == _HANDLER_NAME]:
        logger.removeHandler(old)
        old.close()
    logger.addHandler(handler)
    logger.setLevel(level)
    return handler
