"""House rules as text, as a command line, a settings form or a config file gives them:
:func:`house_rules` lists a ``Config``'s fields with their defaults and descriptions, and
:func:`configured` builds a validated config from ``key=value`` texts, for any game.

>>> from tabletop_rules import palace
>>> [rule.name for rule in house_rules(palace.Config)][:3]
['players', 'decks', 'hand_size']
>>> configured(palace.Config, ["players=3", "quad=burn"]).quad
'burn'
>>> configured(palace.Config, ["player=3"])
Traceback (most recent call last):
  ...
tabletop_rules.errors.ConfigError: unknown house rule 'player'; the house rules are players, ...

A value is read as JSON within every loader's limits, on every route (the CLI's
``--rule``, the web page's form, the OpenSpiel adapter's parameters):

>>> configured(palace.Config, ["players=" + "[" * 100_000])  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
tabletop_rules.errors.ConfigError: house rule players: a value opening with '[' must be JSON: ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, cast

import attrs

from ._messages import short_repr, short_text
from ._validation import check_type
from .errors import ConfigError, HouseRulesError, InvalidStateError, TabletopError
from .serialize import parse_json, to_data

__all__ = ["HouseRule", "configured", "configured_form", "house_rules", "parse_value", "value_text"]

ConfigT = TypeVar("ConfigT")

_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`")

_JSON_OPENERS = ("[", "{", '"')
"""How a value that can only be JSON opens: no bare-text value of any house rule does."""


@attrs.frozen
class HouseRule:
    """A field of a game's ``Config``: its ``name``, ``default`` (and as text,
    ``default_text``) and ``description``, plain text from the config's docstring.
    """

    name: str
    default: Any
    default_text: str
    description: str


def house_rules(config_type: type[Any]) -> tuple[HouseRule, ...]:
    """The house rules of a game's ``Config`` class, in field order."""
    descriptions = _described_fields(config_type.__doc__ or "")
    default = config_type()
    names = [field.name for field in attrs.fields(config_type) if field.init]
    return tuple(
        HouseRule(
            name, getattr(default, name), value_text(default, name), descriptions.get(name, "")
        )
        for name in names
    )


def configured(
    config_type: type[ConfigT], rules: Iterable[str], base: ConfigT | None = None
) -> ConfigT:
    """``base`` (``None``: ``Config()``) with ``key=value`` house rules (values read by
    :func:`parse_value`, the last for a key winning); :class:`~tabletop_rules.errors.ConfigError`
    naming the house rule for a malformed text, unknown key or refused value, and
    ``TypeError`` for ``rules`` that are not texts or a ``base`` of another type.
    """
    if isinstance(rules, str):
        raise TypeError(f"house rules are an iterable of key=value texts, got {short_repr(rules)}")
    config = config_type() if base is None else check_type(base, (config_type,))
    names = [rule.name for rule in house_rules(config_type)]
    changes: dict[str, Any] = {}
    for text in rules:
        if type(text) is not str:
            raise TypeError(f"a house rule is a key=value text, got {short_repr(text)}")
        key, equals, raw = text.partition("=")
        key = key.strip()
        if not equals or not key:
            raise ConfigError(f"a house rule is written key=value, got {short_repr(text)}")
        if key not in names:
            raise ConfigError(
                f"unknown house rule {short_repr(key)}; the house rules are {', '.join(names)}"
            )
        try:
            value = _tupled(parse_value(raw.strip()))
        except ConfigError as error:
            raise ConfigError(f"house rule {key}: {error}") from None
        current = getattr(config, key)
        if attrs.has(type(current)) and isinstance(value, dict):
            value = _evolved(current, value, key)
        changes[key] = value
    return cast(ConfigT, _evolved(config, changes, None))  # one may bound another


def configured_form(config_type: type[ConfigT], values: Mapping[str, str]) -> ConfigT:
    """The config a form asks for, its house rules as texts by name (``{"players": "3"}``).

    A value is judged alone first, then beside the values that passed alone, so that
    ``players=9`` passes beside ``decks=2`` though nine players are too many for the
    default one deck. :class:`~tabletop_rules.errors.HouseRulesError` gives each refused
    rule's reason by its name, for the form to show beside its field; a
    :class:`~tabletop_rules.errors.ConfigError` says when the rules that pass alone do not
    go together.

    >>> from tabletop_rules import palace
    >>> configured_form(palace.Config, {"players": "9", "decks": "2"}).players
    9
    >>> try:
    ...     configured_form(palace.Config, {"players": "9", "quad": "explode"})
    ... except HouseRulesError as refusal:
    ...     sorted(refusal.fields)
    ['players', 'quad']
    """
    if not isinstance(values, Mapping):
        raise TypeError(f"a form's house rules are texts by name, got {short_repr(values)}")
    for name, value in values.items():
        if type(name) is not str or type(value) is not str:
            raise TypeError(f"a house rule's name and value are texts, got {short_repr(name)}")
    house_rules(config_type)  # refuses what is no game's Config before any rule is read
    texts = {name: f"{name}={value}" for name, value in values.items()}
    alone: dict[str, str] = {}
    for name, text in texts.items():
        try:
            configured(config_type, [text])
        except TabletopError as error:
            alone[name] = str(error)
    try:
        base = configured(config_type, [text for name, text in texts.items() if name not in alone])
    except TabletopError as error:
        raise ConfigError(f"these house rules do not go together: {error}") from None
    fields: dict[str, str] = {}
    for name in alone:
        try:
            base = configured(config_type, [texts[name]], base)
        except TabletopError as error:
            fields[name] = str(error)
    if fields:
        raise HouseRulesError(f"house rules refused: {', '.join(fields)}", fields)
    return base


def parse_value(text: str) -> Any:
    """A house rule's value from text: JSON where the text is JSON (``3``, ``true``,
    ``null``, ``["down", "up"]``, ``{"+1": 8}``), the text itself otherwise (``burn``).

    JSON is read within every loader's limits; a text opening with ``[``, ``{`` or ``"``
    that is not JSON within them gets :class:`~tabletop_rules.errors.ConfigError`.

    >>> parse_value("3"), parse_value("true"), parse_value("finish_round")
    (3, True, 'finish_round')
    >>> parse_value('["down", "up"')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    tabletop_rules.errors.ConfigError: a value opening with '[' must be JSON: Expecting ',' ...
    """
    if type(text) is not str:
        raise TypeError(f"a house rule's value is a str, got {short_repr(text)}")
    try:
        return parse_json(text)
    except InvalidStateError as error:
        opener = text.lstrip()[:1]
        if opener in _JSON_OPENERS:
            reason = short_text(error).removeprefix("not JSON: ")
            raise ConfigError(f"a value opening with {opener!r} must be JSON: {reason}") from None
        return text


def value_text(config: Any, name: str) -> str:
    """House rule ``name`` of ``config`` as :func:`configured` reads it: its JSON, or the
    bare text of a string that reads as itself.

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
    """``attrs.evolve``, failing with a :class:`ConfigError` naming a nested ``field``."""
    try:
        return attrs.evolve(instance, **changes)
    except Exception as error:  # the library's own, or a value the constructor cannot take
        if isinstance(error, TabletopError) and not field:
            raise
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
