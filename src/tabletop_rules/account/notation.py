"""How the account game's things are written down: the moves' notation (``move 0 left
3``), read and written, and the JSON hooks by which cards travel as their text
(``"+10"``, ``"End"``) and a deck as ``[text, count]`` pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
from cattrs import BaseConverter

from .._validation import move_words
from ..kit import IllegalMoveError, NotationError, short_repr
from .cards import Card
from .config import MAX_MARKERS, Deck
from .moves import DIRECTIONS, MOVE_TABLE, Advance, Buy, Die, Move, Place, Roll

__all__ = ["json_hooks"]  # format_move and read_move: the package exports them

_NOTATION: dict[str, tuple[Callable[..., Move], tuple[str, ...], str]] = {
    "place": (Place, ("a column",), "a column, e.g. 'place 3'"),
    "buy": (Buy, ("a column",), "a column, e.g. 'buy 3'"),
    "roll": (Roll, (), "nothing after it"),
    "move": (
        Advance,
        ("a marker", "a direction", "a distance"),
        "a marker, a direction and a distance, e.g. 'move m0 left 3'",
    ),
    "die": (Die, ("a face",), "the face shown, e.g. 'die 4'"),
}
"""Each verb: its move, what the words after it are (the move's fields, in order) and what
the verb needs, in a message. :func:`format_move` and :func:`read_move` both read it."""

_VERBS = {kind: verb for verb, (kind, _words, _needs) in _NOTATION.items()}

_FORMS = "'place 3', 'buy 5', 'roll', 'move m0 left 3' or 'die 4'"


def format_move(move: Move) -> str:
    """The notation of one of the move table's moves, as the rules name it in messages;
    ``TypeError`` for what is no account move (the game's entry point, so it is total).

    >>> format_move("roll")
    Traceback (most recent call last):
    ...
    TypeError: 'roll' is not an account move
    """
    verb = _VERBS.get(type(move))
    if verb is None:
        raise TypeError(f"{short_repr(move)} is not an account move")
    return " ".join((verb, *map(str, attrs.astuple(move))))


def _word(word: str, what: str, text: str) -> int | str:
    """A word after the verb: a direction as it is, else a number; a marker as the field
    draws it (``m0``) or as its number (``0``).
    """
    if what == "a direction":
        if word in DIRECTIONS:
            return word
        kind = "'left' or 'right'"
    else:
        number = word[1:] if what == "a marker" and word[:1] == "m" else word
        if number.isascii() and number.isdigit() and len(number.lstrip("0")) <= 4:
            if what == "a marker" and int(number) >= MAX_MARKERS:
                raise NotationError(
                    f"a marker is m0 to m{MAX_MARKERS - 1}, not {short_repr(word)}, "
                    f"in {short_repr(text)}"
                )
            return int(number)
        kind = "m0, m1, ... (or its number)" if what == "a marker" else "a number"
    raise NotationError(f"{what} is {kind}, not {short_repr(word)}, in {short_repr(text)}")


def read_move(text: str) -> Move:
    """The move ``text`` names, without checking it against a state;
    :class:`~tabletop_rules.errors.NotationError` for text that names no move. A marker
    is written as the field draws it, ``m1``, or as its number, ``1`` (the form
    :func:`format_move` writes, and records hold).

    >>> read_move("die 4")
    Die(value=4)
    >>> read_move("move m1 right 2") == read_move("move 1 right 2")
    True
    """
    text, words = move_words(text, _FORMS)
    if words[0] not in _NOTATION:
        raise NotationError(f"unknown move {short_repr(text)}: moves are {_FORMS}")
    kind, names, needs = _NOTATION[words[0]]
    if len(words) != 1 + len(names):
        raise NotationError(f"{words[0]!r} needs {needs}; got {short_repr(text)}")
    values = [_word(word, what, text) for word, what in zip(words[1:], names, strict=True)]
    try:
        return MOVE_TABLE.own(kind(*values))
    except IllegalMoveError as error:  # a constructor's range check: no game has the move
        raise NotationError(f"{error}, in {short_repr(text)}") from None


def _card_from_text(value: Any, _kind: Any) -> Card:
    if type(value) is not str:  # Card.parse reads only the spelling str(card) writes
        raise NotationError(f"a card is written as its text, like +10 or End: {short_repr(value)}")
    return Card.parse(value)


def _deck_from_data(value: Any, _kind: Any) -> Deck:
    if not isinstance(value, list | tuple):
        raise TypeError(f"a deck is an array of [card, count] pairs, got {short_repr(value)}")
    pairs: list[tuple[Card, Any]] = []
    for pair in value:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise TypeError(f"a deck entry is a [card, count] pair, got {short_repr(pair)}")
        pairs.append((_card_from_text(pair[0], Card), pair[1]))
    return tuple(pairs)


def json_hooks(converter: Any) -> None:
    """Register the account game's JSON hooks on the shared ``converter``."""
    if not isinstance(converter, BaseConverter):
        raise TypeError(f"json_hooks needs a cattrs converter, got {short_repr(converter)}")
    converter.register_unstructure_hook(Card, str)
    converter.register_structure_hook(Card, _card_from_text)
    converter.register_structure_hook_func(lambda kind: bool(kind == Deck), _deck_from_data)
