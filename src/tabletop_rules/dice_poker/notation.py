"""Short, typable text for moves: ``roll``, ``roll keep 6 6``, ``write full_house``,
``scratch poker``, ``announce sixes``, and ``dice 2 5`` for a chance outcome.

>>> format_move(Roll(keep=(6, 6)))
'roll keep 6 6'
>>> from tabletop_rules.dice_poker import new_game
>>> parse_move(new_game(seed=1), "scratch Full House")
Scratch(box=Box.FULL_HOUSE)
"""

from __future__ import annotations

from ..errors import IllegalMoveError, NotationError
from ..messages import short_repr
from ..rng import Rng
from ..seats import check_on_turn
from ..validation import run_checks
from .moves import Announce, Box, Dice, Move, Roll, Scratch, Write, format_move, known_move
from .rules import legal_moves, why_illegal
from .state import State
from .view import View, check_view, determinize

__all__ = ["format_move", "parse_box", "parse_move", "read_move"]

_BOX_VERBS: dict[str, type[Write | Scratch | Announce]] = {
    "write": Write,
    "scratch": Scratch,
    "announce": Announce,
}


def _text(text: object) -> str:
    """``text`` as a plain ``str``; ``NotationError`` for anything that is not a string."""
    if not isinstance(text, str):
        raise NotationError(f"move text is a string, not {short_repr(text)}")
    return str.__str__(text)  # a plain str, whatever a subclass overrides


def parse_box(text: str) -> Box:
    """The box named ``text``: case, spaces and hyphens are forgiven (``"Full house"``)."""
    text = _text(text)
    name = "_".join(text.replace("-", " ").split()).upper()
    try:
        return Box[name]
    except KeyError:
        names = ", ".join(str(box) for box in Box)
        raise NotationError(f"no box named {short_repr(text)}; boxes are {names}") from None


def _faces(words: list[str], text: str) -> tuple[int, ...]:
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
    text = _text(text)
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty move text")
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


def parse_move(state: State | View, text: str) -> Move:
    """The legal move ``text`` names in ``state``, or for the seat of the view ``state``:
    a client that holds only a view parses what its player types.

    Raises :class:`~tabletop_rules.errors.NotationError` for text that names no move and
    :class:`~tabletop_rules.errors.IllegalMoveError` for a move the rules forbid here
    (naming the rule), or for the seat of a view that is not on turn.
    The move returned is the instance :func:`~tabletop_rules.dice_poker.legal_moves` lists.

    >>> from tabletop_rules.dice_poker import new_game, view
    >>> from tabletop_rules.errors import IllegalMoveError
    >>> seen = view(new_game(seed=2), seat=0)
    >>> parse_move(seen, "roll")
    Roll()
    >>> try:
    ...     parse_move(seen, "announce chance")
    ... except IllegalMoveError as error:
    ...     print(error)
    'announce chance' is played only in 'announce' order; stage 0 is played 'free'
    """
    move = known_move(read_move(text))
    table: State
    if isinstance(state, View):
        if move in state.legal_moves:
            return move
        check_on_turn(state.seat, state.current_player)
        run_checks("dice poker view", lambda fail: check_view(state, fail))
        table = determinize(state, _ANY)  # the same table: its rules say what is wrong
    else:
        table = state
    if move not in legal_moves(table):  # refuses what is no State
        raise IllegalMoveError(why_illegal(table, move))
    return move


_ANY = Rng.from_seed(0)
