"""Structure-aware fuzzing of every loader, and odd objects for ``apply``.

A hostile client sends JSON that is almost right (a key repeated, a number huge or ``NaN``,
a name in another Unicode spelling, arrays nested a hundred thousand deep):
:func:`~tabletop_rules.testing.mutated_json` makes such documents from valid ones, and
:func:`~tabletop_rules.testing.odd_moves` objects that are no move, or moves of other points
of the game. Whatever the input, a loader or ``apply`` gives a valid value or raises the
library's own error. A move changed around its constructor's checks
(``object.__setattr__``) is outside the contract, as every frozen value is, and is not made.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st

from ..errors import IllegalMoveError, TabletopError
from ..protocol import Ruleset
from ..records import GameRecord, replay_states
from ..serialize import MAX_DEPTH, dumps, kind_of, loads, ruleset_of, to_data

__all__ = [
    "Pairs",
    "Raw",
    "check_apply_total",
    "check_loaded",
    "check_loading_is_linear",
    "check_loads_total",
    "check_move_functions_total",
    "check_move_loads_back",
    "check_record_total",
    "hostile_json",
    "mutated_json",
    "odd_moves",
    "repeated_items",
    "write_json",
]

Rules = Ruleset[Any, Any, Any]


@attrs.frozen
class Raw:
    """A JSON token written as it is: ``NaN``, a number of 5,000 digits, deep nesting."""

    text: str


@attrs.frozen
class Pairs:
    """A JSON object written key by key, so that a key can appear twice."""

    items: tuple[tuple[str, Any], ...]


def write_json(value: Any) -> str:
    """``value`` as JSON text, :class:`Raw` tokens and :class:`Pairs` objects included.

    >>> write_json(Pairs((("a", 1), ("a", [Raw("NaN")]))))
    '{"a": 1, "a": [NaN]}'
    """
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs):
        return "{" + ", ".join(f"{json.dumps(k)}: {write_json(v)}" for k, v in value.items) + "}"
    if isinstance(value, dict):
        return write_json(Pairs(tuple(value.items())))
    if isinstance(value, list | tuple):
        return "[" + ", ".join(write_json(item) for item in value) + "]"
    return json.dumps(value)


# --- what mutations put in ------------------------------------------------------------

_ODD_NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    1,
    2**31,
    2**53 + 1,
    2**63,
    2**64,
    -(2**64),
    10**20,
    True,
    False,
    1.5,
    -0.0,
    1e308,
    *map(Raw, ("NaN", "Infinity", "-Infinity", "1e999", "9" * 5_000, "-" + "9" * 25, "3.0")),
)
_ODD_STRINGS: tuple[Any, ...] = (
    "",
    " ",
    "null",
    "0",
    "\x00",
    "\u200b",
    "\ud800",
    "\u202e",
    "\u0130",
    "\ufb01ves",
    "\uff46\uff49\uff56\uff45\uff53",
    "x" * 10_000,
)
_ODD_CONTAINERS: tuple[Any, ...] = (
    [],
    {},
    None,
    [None],
    [[[]]],
    {"type": None},
    *map(Raw, ("[" * 40 + "]" * 40, "[" * 1_000 + "]" * 1_000, "[" * 100_000, "{" * 50_000)),
)
_ODD_VALUES = _ODD_NUMBERS + _ODD_STRINGS + _ODD_CONTAINERS
_FULLWIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}

Path = tuple[Any, ...]


def json_paths(value: Any, path: Path = ()) -> list[Path]:
    """Every node of a JSON value, as the keys and indexes that lead to it."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += json_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += json_paths(item, (*path, index))
    return found


def json_node(value: Any, path: Path) -> Any:
    """The node of a JSON value at ``path`` (one of :func:`json_paths`)."""
    for step in path:
        value = value[step]
    return value


def json_replaced(value: Any, path: Path, new: Any) -> Any:
    """``value`` with the node at ``path`` replaced by ``new`` (copies along the path)."""
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, step: json_replaced(value[step], rest, new)}
    copy = list(value)
    copy[step] = json_replaced(value[step], rest, new)
    return copy


@st.composite
def _mutate(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one node changed: replaced, retyped, nudged, or edited inside."""
    path = draw(st.sampled_from(json_paths(value)))
    node = json_node(value, path)
    odd = draw(st.sampled_from(_ODD_VALUES))
    choices: list[Any] = [odd, [node], {"value": node}]
    if isinstance(node, bool):
        choices += [not node, int(node), str(node).lower()]
    elif isinstance(node, int):
        choices += [node + 1, node - 1, -node - 1, node * 2**40, float(node), str(node)]
    elif isinstance(node, str):
        choices += [
            node.upper(),
            node.title(),
            node.replace("fi", "\ufb01"),
            node.translate(_FULLWIDTH),
            node + "\u200b",
            " " + node,
            node[:-1],
            node * 2,
            [node],
        ]
    elif isinstance(node, list):
        choices += [[], node[::-1], [*node, odd], [*node, *node[-1:]], node[1:], node[:-1]]
    elif isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        without = {name: item for name, item in node.items() if name != key}
        choices += [
            without,
            {**node, "unknown": odd},
            {**without, key.upper(): node[key]},
            Pairs((*node.items(), (key, odd))),
            Pairs(((key, odd), *node.items())),
        ]
    return json_replaced(value, path, draw(st.sampled_from(choices)))


@st.composite
def mutated_json(draw: st.DrawFn, text: str) -> str:
    """JSON texts made from ``text`` by 1-3 mutations, now and then cut short or buried deep."""
    value: Any = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        if isinstance(value, Pairs):  # a duplicated key at the top: nothing left to walk
            break
        value = draw(_mutate(value))
    written = write_json(value)
    edit = draw(st.integers(0, 9))
    if edit == 0:  # cut short
        written = written[: draw(st.integers(0, max(len(written) - 1, 0)))]
    elif edit == 1:  # buried deep
        depth = draw(st.sampled_from((33, 1_000, 100_000)))
        written = "[" * depth + written + "]" * depth
    return written


# --- odd objects for apply ---------------------------------------------------------------


class _Hostile:
    """An object that fails at everything a careless check might ask of it."""

    def __hash__(self) -> int:
        raise RuntimeError("hostile __hash__")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile __eq__")

    def __repr__(self) -> str:
        raise RuntimeError("hostile __repr__")

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("hostile __lt__")

    def __index__(self) -> int:
        raise RuntimeError("hostile __index__")


_ODD_OBJECTS: tuple[Any, ...] = (
    None,
    0,
    -1,
    99,
    2**70,
    2.5,
    math.nan,
    math.inf,
    True,
    "",
    "roll",
    b"\x00",
    (),
    (None,),
    (2.5,),
    (6.0, 6.0),
    (1, 2, 3, 4, 5, 6, 7),
    tuple(range(-3, 10)),
    [],
    [6, 6],
    {},
    {6: 6},
    frozenset({1}),
    object(),
    object,
    _Hostile(),
    (_Hostile(),),
)


@st.composite
def odd_moves(draw: st.DrawFn, moves: Sequence[Any]) -> Any:
    """Objects that are no move (``None``, numbers, text, containers, a move's class, one
    whose ``__hash__`` and ``__repr__`` raise), now and then one of ``moves``, of any state.
    """
    # drawn by index: sampled_from would hash them, and some odd objects refuse
    if not moves or draw(st.integers(0, 3)):
        moves = _ODD_OBJECTS + tuple({type(move): None for move in moves})
    return moves[draw(st.integers(0, len(moves) - 1))]


# --- the checks ----------------------------------------------------------------------------


_Errors = tuple[type[Exception], ...]


def outcome_of(what: str, run: Callable[[], Any], errors: _Errors = (TabletopError,)) -> Any:
    """``run()``'s value or its error of ``errors``; another exception fails, naming ``what``."""
    try:
        return run()
    except errors as error:
        return error
    except Exception as error:
        names = " or ".join(kind.__name__ for kind in errors)
        raise AssertionError(
            f"{what} raised {type(error).__name__}, not {names}: {error}"
        ) from error


def expect_refusal(what: str, run: Callable[[], Any], error: type[Exception]) -> None:
    """``run()`` raises ``error``; a value or another exception fails, naming ``what``."""
    got = outcome_of(what, run, (error,))
    assert isinstance(got, error), f"{what} gave {got!r:.60}, not {error.__name__}"


def _shown(subject: object) -> str:
    """Text (to 300 characters) as it is, another object (whose repr may raise) by type."""
    shown = repr(subject) if isinstance(subject, str | bytes) else type(subject).__name__
    return shown if len(shown) <= 300 else shown[:300] + "..."


def _check_plays_on(rules: Rules, state: Any) -> None:
    """A state passes ``check_state`` and works: turn functions, views and its moves."""
    rules.check_state(state)
    rules.is_over(state)
    rules.current_player(state)
    rules.chance_probabilities(state)
    moves = rules.legal_moves(state)
    for move in moves[:3] + moves[-2:]:
        rules.check_state(rules.apply(state, move))
    for seat in (None, *range(len(rules.score(state)))):
        rules.check_view(rules.view(state, seat))
    assert loads(dumps(state)) == state, "the state does not round-trip"


def check_loaded(rules: Rules, obj: Any) -> None:
    """``obj``, which a loader accepted, passes the game's checks and works."""
    assert ruleset_of(type(obj)).name == rules.name, f"{type(obj).__name__} of another game"
    kind = kind_of(rules, type(obj))
    assert loads(dumps(obj)) == obj, f"the loaded {kind} does not round-trip"
    if kind == "state":
        _check_plays_on(rules, obj)
    elif kind == "config":
        _check_plays_on(rules, rules.new_game(obj, seed=0))
    elif kind == "view":
        rules.check_view(obj)
    elif kind == "move":
        rules.encode(obj)


def _pairs(text: str) -> Any:
    """JSON text as data with objects as key-sorted pairs: repeated keys show, order does not."""
    return json.loads(text, object_pairs_hook=lambda pairs: sorted(pairs, key=lambda p: p[0]))


def _check_written_so(text: str, written: str) -> None:
    """An accepted document is the one the library writes, but for spacing and key order."""
    assert _pairs(text) == _pairs(written), (
        f"a loader accepted {text[:300]!r}, which the library would write as {written[:300]!r}"
    )


def check_loads_total(rules: Rules, text: str) -> None:
    """``loads(text)`` raises a ``TabletopError`` or gives a value that passes
    :func:`check_loaded` and that ``dumps`` writes as ``text`` (spacing and key order aside).
    """
    obj = outcome_of(f"loads of {_shown(text)}", lambda: loads(text))
    if not isinstance(obj, TabletopError):
        check_loaded(rules, obj)
        _check_written_so(text, dumps(obj))


def check_record_total(rules: Rules, text: str) -> None:
    """``GameRecord.from_json(text)`` and replay raise a TabletopError or give valid states."""
    states = outcome_of(
        f"GameRecord.from_json and replay of {_shown(text)}",
        lambda: list(replay_states(GameRecord.from_json(text))),
    )
    if not isinstance(states, TabletopError):
        _check_written_so(text, GameRecord.from_json(text).to_json())
        for state in states:
            rules.check_state(state)


def check_apply_total(rules: Rules, state: Any, move: Any) -> None:
    """``apply(state, move)`` of any object: a valid state that plays on, or IllegalMoveError."""
    snapshot = to_data(state)
    after = outcome_of(
        f"apply of {_shown(move)}", lambda: rules.apply(state, move), (IllegalMoveError,)
    )
    if isinstance(after, IllegalMoveError):
        assert str(after), "an IllegalMoveError says why"
    else:
        _check_plays_on(rules, after)
    assert to_data(state) == snapshot, "apply changed its argument"


# --- odd moves for the notation and the codec --------------------------------------------


def check_move_functions_total(rules: Rules, state: Any, move: Any) -> None:
    """``format_move``, ``encode`` and ``canonical`` of any object give a value or raise
    ``TypeError`` or the library's error; where ``canonical`` lists the move, its text parses
    to that move and ``encode`` numbers both alike; where it refuses, ``parse_move`` does.
    """

    def total(what: str, run: Callable[[], Any]) -> tuple[bool, Any]:
        got = outcome_of(f"{what} of {_shown(move)}", run, (TabletopError, TypeError))
        return not isinstance(got, TabletopError | TypeError), got

    formatted, text = total("format_move", lambda: rules.format_move(move))
    encoded, number = total("encode", lambda: rules.encode(move))
    legal, listed = total("canonical", lambda: rules.canonical(state, move))
    if formatted:
        assert type(text) is str, f"format_move gave {text!r}"
        assert text, "format_move gave no text"
    if encoded:
        size = rules.num_actions(rules.config_of(state))
        assert type(number) is int, f"encode gave {number!r}"
        assert 0 <= number < size, f"encode gave {number}, outside 0..{size - 1}"
    if legal:
        assert any(listed is move for move in rules.legal_moves(state)), (
            f"canonical gave {listed!r}, which legal_moves does not list"
        )
        assert formatted, f"format_move refused a move canonical accepts: {text}"
        assert rules.parse_move(state, text) == listed, f"{text!r} does not parse to {listed!r}"
        assert not encoded or number == rules.encode(listed), (
            f"encode numbers {text!r} {number}, its listed move {rules.encode(listed)}"
        )
    elif formatted:
        parsed, named = total("parse_move", lambda: rules.parse_move(state, text))
        assert not parsed, f"{text!r} parses to {named!r}, a move canonical refuses"


# --- moves read from JSON: refused, or moves the game writes and reads back ---------------


@st.composite
def repeated_items(draw: st.DrawFn, text: str) -> str:
    """JSON texts made from the valid ``text`` by repeating an item of one of its arrays
    once to a hundred times: a play of sixteen copies of a card, a roll keeping six dice.
    """
    value: Any = json.loads(text)
    arrays = [path for path in json_paths(value) if isinstance(json_node(value, path), list)]
    arrays = [path for path in arrays if json_node(value, path)]
    if not arrays:
        return text
    path = draw(st.sampled_from(arrays))
    node = json_node(value, path)
    item = node[draw(st.integers(0, len(node) - 1))]
    times = draw(st.sampled_from((1, 2, 3, 4, 5, 6, 15, 16, 17, 100)))
    return write_json(json_replaced(value, path, [*node, *[item] * times]))


def check_move_loads_back(rules: Rules, state: Any, text: str) -> None:
    """``loads(text)`` raises a ``TabletopError`` or gives a move that passes
    :func:`~tabletop_rules.testing.check_loaded`, loads back with the same number and text,
    and that ``apply`` in ``state`` takes or refuses with ``IllegalMoveError``.
    """
    move = outcome_of(f"loads of {_shown(text)}", lambda: loads(text))
    if isinstance(move, TabletopError):
        return
    assert kind_of(rules, type(move)) == "move", f"a move document loaded a {type(move)}"
    check_loaded(rules, move)
    written = rules.format_move(move)
    assert isinstance(written, str), "format_move writes a move as text"
    assert written, "format_move writes a move as some text"
    again = loads(dumps(move))  # equal: check_loaded holds the round trip
    assert rules.encode(again) == rules.encode(move), "the move's number changed on reload"
    assert rules.format_move(again) == written, "the move's text changed on reload"
    check_apply_total(rules, state, move)


# --- loading time --------------------------------------------------------------------------


def hostile_json(size: int) -> dict[str, str]:
    """Texts of about ``size`` characters that are hardest on a JSON reader, by name.

    >>> hostile_json(12)["many empty objects"]
    '[{},{},{},{},{}]'
    """
    half, third = size // 2, size // 3
    peak = MAX_DEPTH - 1
    mountain = "[" * peak + "]" * peak
    return {
        "an unterminated string of escaped quotes": '"' + '\\"' * half,
        "a string of escaped quotes": '["' + '\\"' * half + '"]',
        "an unterminated string of backslashes": '"' + "\\" * size,
        "quotes": '"' * size,
        "nesting to the limit, then shallow": "[" * peak + "[]," * third + "[]" + "]" * peak,
        "nesting to the limit again and again": "[" + ",".join([mountain] * (size // 64)) + "]",
        "nesting over the limit": "[" * size,
        "many empty objects": "[" + "{}," * third + "{}]",
        "many empty strings": "[" + '"",' * third + '""]',
        "many small numbers": "[" + "0," * half + "0]",
    }


def _embedded(document: str, shape: str) -> str:
    """The JSON object ``document`` with ``shape`` as its last key's value (``data``, ``moves``)."""
    data = json.loads(document)
    key = list(data)[-1]
    marker = "\x00shape\x00"
    return json.dumps({**data, key: marker}).replace(json.dumps(marker), shape)


def _seconds(load: Callable[[str], Any], text: str) -> float:
    """This thread's CPU time for ``load(text)``: other processes of a busy machine do not count."""
    start = time.thread_time()
    with contextlib.suppress(TabletopError):
        load(text)
    return time.thread_time() - start


def _growth(load: Callable[[str], Any], small: str, large: str, bound: float) -> float:
    """How many times longer ``load`` takes on ``large`` than ``small``: best of 3 against
    best of up to 5 (stopping once under ``bound``), the garbage collector off as in timeit.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        fastest = min(_seconds(load, small) for _ in range(3))
        slowest = math.inf
        for _ in range(5):
            slowest = min(slowest, _seconds(load, large))
            if slowest < bound * fastest:
                break
    finally:
        if collecting:
            gc.enable()
    return slowest / fastest


def check_loading_is_linear(
    rules: Rules, documents: Sequence[str], size: int = 1024, factor: int = 32
) -> None:
    """Loading time is linear in the text's size: each :func:`hostile_json` shape, alone
    and as the last value of each of ``documents`` (JSON objects of the game: a state's
    envelope, a record), read by ``loads`` and ``GameRecord.from_json``, takes less than
    ``factor ** 1.5`` times as long at ``factor`` times ``size`` characters: between
    linear (``factor``) and quadratic (``factor ** 2``), room for caches and a busy machine.
    """
    bound = factor**1.5
    smalls, larges = hostile_json(size), hostile_json(size * factor)
    for name, small_shape in smalls.items():
        places = {"alone": (small_shape, larges[name])}
        for number, document in enumerate(documents):
            pair = (_embedded(document, small_shape), _embedded(document, larges[name]))
            places[f"in document {number}"] = pair
        for place, (small, large) in places.items():
            for load in (loads, GameRecord.from_json):
                growth = _growth(load, small, large, bound)
                assert growth < bound, (
                    f"{rules.name}: {load.__qualname__} took {growth:.0f} times as long on "
                    f"{len(large)} characters as on {len(small)} of {name} ({place}): not linear"
                )
