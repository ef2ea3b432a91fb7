"""House rules as text: what a command line, a settings form or a config file gives.

Every game's house rules are the fields of its frozen ``Config``. :func:`house_rules`
lists them with their defaults and the descriptions of the config's docstring, and
:func:`configured` builds a validated config from ``key=value`` texts, so a front end
needs no code of its own per game:

>>> from tabletop_rules import palace
>>> [rule.name for rule in house_rules(palace.Config)][:3]
['players', 'decks', 'hand_size']
>>> configured(palace.Config, ["players=3", "quad=burn"]).quad
'burn'
>>> configured(palace.Config, ["player=3"])
Traceback (most recent call last):
  ...
tabletop_rules.errors.ConfigError: unknown house rule 'player'; the house rules are players, ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, TypeVar

import attrs

from .errors import ConfigError, TabletopError
from .messages import short_repr, short_text
from .serialize import to_data

__all__ = ["HouseRule", "configured", "house_rules", "parse_value", "value_text"]

ConfigT = TypeVar("ConfigT")

_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`")


@attrs.frozen
class HouseRule:
    """One house rule: a field of a game's ``Config``.

    Attributes:
        name: The field's name, as ``key=value`` texts and JSON write it.
        default: Its value in the game's default ``Config()``.
        default_text: That value as text (:func:`value_text`).
        description: What it changes, from the config's docstring, as plain text.

    """

    name: str
    default: Any
    default_text: str
    description: str


def house_rules(config_type: type[Any]) -> tuple[HouseRule, ...]:
    """The house rules of a game's ``Config`` class, in field order."""
    descriptions = _described_fields(config_type.__doc__ or "")
    default = config_type()
    return tuple(
        HouseRule(
            field.name,
            getattr(default, field.name),
            value_text(default, field.name),
            descriptions.get(field.name, ""),
        )
        for field in attrs.fields(config_type)
        if field.init
    )


def configured(
    config_type: type[ConfigT], rules: Iterable[str], base: ConfigT | None = None
) -> ConfigT:
    """``base`` (the default ``Config()`` when ``None``) with house rules given as
    ``key=value`` texts; each value is read by :func:`parse_value`, and a later text
    for the same key wins.

    Raises :class:`~tabletop_rules.errors.ConfigError` for a text that is not
    ``key=value``, a key that names no house rule, or a value the config refuses.
    """
    config = config_type() if base is None else base
    names = [rule.name for rule in house_rules(config_type)]
    changes: dict[str, Any] = {}
    for text in rules:
        key, equals, raw = str(text).partition("=")
        key = key.strip()
        if not equals or not key:
            raise ConfigError(f"a house rule is written key=value, got {short_repr(text)}")
        if key not in names:
            raise ConfigError(
                f"unknown house rule {short_repr(key)}; the house rules are {', '.join(names)}"
            )
        value = _tupled(parse_value(raw.strip()))
        current = getattr(config, key)
        if attrs.has(type(current)) and isinstance(value, dict):
            value = _evolved(current, value, key)
        changes[key] = value
    configured_config: ConfigT = _evolved(config, changes, None)  # one may bound another
    return configured_config


def parse_value(text: str) -> Any:
    """A house rule's value from text: JSON where the text is JSON (``3``, ``true``,
    ``null``, ``["down", "up"]``, ``{"+1": 8}``), the text itself otherwise (``burn``).

    >>> parse_value("3"), parse_value("true"), parse_value("finish_round")
    (3, True, 'finish_round')
    """
    try:
        return json.loads(text)
    except ValueError:
        return text


def value_text(config: Any, name: str) -> str:
    """The value of house rule ``name`` in ``config`` as :func:`configured` reads it
    back: its JSON, or the bare text of a string that reads as itself.

    >>> from tabletop_rules import dice_poker as dp
    >>> value_text(dp.Config(), "stage_orders"), value_text(dp.Config(), "max_fences")
    ('["free"]', 'null')
    """
    value = to_data(config)[name]
    if isinstance(value, str) and parse_value(value) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def _tupled(value: Any) -> Any:
    """JSON arrays as tuples, as frozen configs hold them."""
    return tuple(map(_tupled, value)) if isinstance(value, list) else value


def _evolved(instance: Any, changes: dict[str, Any], field: str | None) -> Any:
    """``attrs.evolve``, every failure a :class:`ConfigError` naming the house rule."""
    try:
        return attrs.evolve(instance, **changes)
    except TabletopError:
        raise
    except Exception as error:  # a value of the wrong shape for the constructor
        where = f"house rule {field}: " if field else ""
        raise ConfigError(f"{where}{short_text(error)}") from error


def _described_fields(doc: str) -> dict[str, str]:
    """The ``Attributes:`` section of a Google-style docstring, as plain text by name."""
    found: dict[str, str] = {}
    lines = iter(doc.splitlines())
    for line in lines:
        if line.strip() == "Attributes:":
            break
    name = None
    indent = None
    for line in lines:
        stripped = line.strip()
        if not stripped:
            if found:
                break
            continue
        depth = len(line) - len(line.lstrip())
        if indent is None:
            indent = depth
        if depth == indent and ":" in stripped:
            name, _colon, rest = stripped.partition(":")
            found[name] = rest.strip()
        elif depth > indent and name is not None:
            found[name] += " " + stripped
        else:
            break
    return {key: _plain(text) for key, text in found.items()}


def _plain(text: str) -> str:
    """The text with its reStructuredText roles and literals made plain."""
    return _ROLE.sub(r"\1", text).replace("``", "")
