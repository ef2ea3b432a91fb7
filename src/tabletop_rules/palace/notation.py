"""Short, typable text for palace moves (``play 7H 7S``, ``play 7 7``, ``take``, ``blind 2``,
``swap 4H QS``, ``ready``, ``end``); the table is on the API page.
"""

from __future__ import annotations

from .._messages import short_repr
from ..errors import IllegalMoveError, NotationError
from .cards import RANK_TEXT, Card, Rank
from .moves import END_TURN, MAX_PLAY, READY, TAKE_PILE, Move, Play, PlayBlind, Swap, stand_in
from .rules import _source, canonical, transition
from .state import State

__all__ = ["read_move"]

_RANKS: dict[str, Rank] = {text: rank for rank, text in RANK_TEXT.items()}
_WORDS: dict[str, Move] = {"ready": READY, "take": TAKE_PILE, "end": END_TURN}
_FORMS = "play, take, blind, swap, ready or end"


def _text(text: object) -> str:
    if not isinstance(text, str):
        raise NotationError(f"move text is a string, not {short_repr(text)}")
    return str.__str__(text)  # a plain str, whatever a subclass overrides


def _words(text: str) -> tuple[str, list[str]]:
    words = text.strip().upper().split()
    if not words:
        raise NotationError(f"empty move text: moves are {_FORMS}")
    return words[0].lower(), words[1:]


def _cards(words: list[str], text: str) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(word) for word in words)
    except NotationError as error:
        raise NotationError(f"{error}, in {short_repr(text)}") from None


def _one_rank(ranks: tuple[Rank, ...]) -> Rank:
    if len(ranks) > MAX_PLAY:
        raise IllegalMoveError(
            f"a play lays 1 to {MAX_PLAY} cards (every card of one rank in four decks), "
            f"not {len(ranks)}"
        )
    if len(set(ranks)) > 1:
        written = " ".join(RANK_TEXT[rank] for rank in ranks)
        raise IllegalMoveError(f"a play lays cards of one rank, not {written}")
    return ranks[0]


def _play_words(words: list[str], text: str) -> Play | tuple[Rank, int]:
    """A ``play`` text's cards as a Play, or its ranks as (rank, count)."""
    if not words:
        raise NotationError("'play' needs cards or ranks, e.g. 'play 7H 7S' or 'play 7 7'")
    if all(word in _RANKS for word in words):  # a ranks-only play: 7 7, q q
        return _one_rank(tuple(_RANKS[word] for word in words)), len(words)
    if any(word in _RANKS for word in words):
        raise NotationError(
            f"write a play's ranks only ('play 7 7') or its cards ('play 7H 7S'), "
            f"not both: {short_repr(text)}"
        )
    return Play(_cards(words, text))


def read_move(text: str) -> Move:
    """The move ``text`` names, without a state (``play 7 7`` as the lowest suits, ``7C
    7D``); ``NotationError`` for text that names no move.

    >>> read_move("swap 4h qs")
    Swap(hand_card=Card(rank=4, suit='H'), face_up_card=Card(rank=12, suit='S'))
    """
    text = _text(text)
    verb, rest = _words(text)
    if verb == "play":
        play = _play_words(rest, text)
        return play if isinstance(play, Play) else stand_in(*play)
    return _other(verb, rest, text)


def _other(verb: str, rest: list[str], text: str) -> Move:
    if verb in _WORDS:
        if rest:
            raise NotationError(f"{verb!r} takes nothing after it, got {short_repr(text)}")
        return _WORDS[verb]
    if verb == "blind":
        if len(rest) != 1 or rest[0] not in ("0", "1", "2"):
            raise NotationError(
                f"'blind' needs a face-down slot 0, 1 or 2, e.g. 'blind 2'; got {short_repr(text)}"
            )
        return PlayBlind(int(rest[0]))
    if verb == "swap":
        if len(rest) != 2:
            raise NotationError(
                f"'swap' needs a hand card and a face-up card, e.g. 'swap 4H QS'; "
                f"got {short_repr(text)}"
            )
        hand_card, face_up_card = _cards(rest, text)
        return Swap(hand_card, face_up_card)
    raise NotationError(f"unknown move {short_repr(text)}: moves are {_FORMS}")


def read_move_in(state: State, text: str) -> Move:
    """The listed legal move ``text`` names in ``state`` (``parse_move`` reads with it):
    ``play 7 7`` names the player's own cards; ``IllegalMoveError`` naming the rule.

    >>> from tabletop_rules.palace import Ready, apply, format_move, new_game, parse_move, view
    >>> state = apply(apply(new_game(seed=1), Ready()), Ready())
    >>> format_move(parse_move(view(state, 0), "play 4 4"))
    'play 4D 4S'
    >>> parse_move(view(state, 1), "take")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.IllegalMoveError: seat 1 has no move now: ... another seat is to move (0)
    """
    text = _text(text)
    verb, rest = _words(text)
    if verb != "play":
        return canonical(state, _other(verb, rest, text))
    play = _play_words(rest, text)
    if isinstance(play, Play):
        return canonical(state, play)
    rank, count = play
    if state.phase != "play" or state.pending == "take":
        return canonical(state, stand_in(rank, count))  # refused, naming the rule
    source, where = _source(state, state.seat)
    if where == "face_down":
        return canonical(state, stand_in(rank, count))  # refused, naming the rule
    held = tuple(card for card in source if card.rank == rank)
    if len(held) >= count:
        return canonical(state, Play(held[:count]))
    if held:
        transition(state, Play(held), None)  # a rule against the rank itself is named first
    place = "in hand" if where == "hand" else "in the face-up row"
    have = f"only {len(held)}" if held else "no"
    raise IllegalMoveError(
        f"seat {state.seat} holds {have} {RANK_TEXT[rank]}s {place}, not {count}"
    )
