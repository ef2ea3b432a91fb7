"""How dice poker is written down: short, typable text for moves (``roll``, ``roll keep 6 6``,
``write full_house``, ``dice 2 5``; :func:`~tabletop_rules.dice_poker.read_move` forgives
case, spaces, hyphens and run-together faces) and the JSON form of a state, which leaves out
the derived ``open_masks`` and ``totals``.
"""

from __future__ import annotations

from typing import Any

import attrs
from cattrs import BaseConverter
from cattrs.gen import make_dict_unstructure_fn, override

from .._messages import short_repr
from .._validation import move_text, move_words
from ..errors import NotationError
from .moves import Announce, Box, Dice, Move, Roll, Scratch, Write
from .state import State, open_mask, sheet_total

__all__ = ["json_hooks", "parse_box"]

_BOX_VERBS: dict[str, type[Write | Scratch | Announce]] = {
    kind.__name__.lower(): kind for kind in (Write, Scratch, Announce)
}


def format_move(move: Move) -> str:
    """The notation of a move of the table, as ``read_move`` reads it back; ``TypeError``
    for what is no dice poker move (a subclass of one included).
    """
    if type(move) is Roll:
        return "roll keep " + " ".join(map(str, move.keep)) if move.keep else "roll"
    if type(move) is Dice:
        return " ".join(("dice", *map(str, move.values)))
    if type(move) is Write or type(move) is Scratch or type(move) is Announce:
        return f"{type(move).__name__.lower()} {move.box}"
    raise TypeError(f"{short_repr(move)} is not a dice poker move")


def parse_box(text: str) -> Box:
    """The box named ``text``: case, spaces and hyphens are forgiven (``"Full house"``)."""
    text = move_text(text)
    name = "_".join(text.replace("-", " ").split()).upper()
    try:
        return Box[name]
    except KeyError:
        names = ", ".join(str(box) for box in Box)
        raise NotationError(f"no box named {short_repr(text)}; boxes are {names}") from None


def _faces(words: list[str], text: str) -> tuple[int, ...]:
    """The faces ``words`` name: ``["6", "6"]`` or ``["66"]``."""
    if len(words) == 1 and len(words[0]) > 1 and words[0].isdigit():
        words = list(words[0])  # "roll keep 66" as well as "roll keep 6 6"
    try:
        faces = tuple(int(word) for word in words)
    except ValueError:
        raise NotationError(f"faces are numbers 1 to 6, in {short_repr(text)}") from None
    if not all(1 <= face <= 6 for face in faces):
        raise NotationError(f"faces are numbers 1 to 6, in {short_repr(text)}")
    return faces


def read_move(text: str) -> Move:
    """The move ``text`` names, without checking it against a state."""
    text, words = move_words(text)
    verb, rest = words[0], words[1:]
    if verb == "roll":
        if not rest:
            return Roll()
        if rest[0] != "keep" or len(rest) == 1:
            raise NotationError(f"expected 'roll' or 'roll keep <faces>', got {short_repr(text)}")
        return Roll(_faces(rest[1:], text))
    if verb in _BOX_VERBS:
        if not rest:
            raise NotationError(f"{verb!r} needs a box, e.g. '{verb} chance'")
        return _BOX_VERBS[verb](parse_box(" ".join(rest)))
    if verb == "dice":
        if not rest:
            raise NotationError("'dice' needs the faces thrown, e.g. 'dice 2 5'")
        return Dice(_faces(rest, text))
    raise NotationError(
        f"unknown move {short_repr(text)}: moves start with roll, write, scratch, announce or dice"
    )


def json_hooks(converter: Any) -> None:
    """Register on the shared converter a ``State`` without ``open_masks`` and ``totals``;
    ``TypeError`` for what is no cattrs converter.
    """
    if not isinstance(converter, BaseConverter):
        raise TypeError(f"converter must be a cattrs converter, got {short_repr(converter)}")
    omit = override(omit=True)
    unstructure = make_dict_unstructure_fn(State, converter, open_masks=omit, totals=omit)
    structure_base = converter.get_structure_hook(State)

    def structure(value: Any, kind: type[State]) -> State:
        if isinstance(value, dict) and not value.keys() & {"open_masks", "totals"}:
            state: State = structure_base({**value, "open_masks": (), "totals": ()}, kind)
            masks = tuple(open_mask(sheet) for sheet in state.sheets)
            totals = tuple(sheet_total(state.config, sheet) for sheet in state.sheets)
            return attrs.evolve(state, open_masks=masks, totals=totals)
        return structure_base(value, kind)  # type: ignore[no-any-return]

    converter.register_unstructure_hook(State, unstructure)
    converter.register_structure_hook(State, structure)
