"""How palace's moves and cards are written down: the short, typable move text (``play 7H
7S``, ``play 7 7``, ``take``, ``blind 2``, ``swap 4H QS``, ``ready``, ``end``; the table is
on the API page), an action's text, and the JSON hooks (a card as its text).
"""

from __future__ import annotations

from typing import Any

from cattrs import BaseConverter

from .._messages import short_repr
from .._validation import move_words
from ..errors import IllegalMoveError, NotationError
from .cards import RANK_TEXT, Card, Rank, cards_text
from .moves import (
    END_TURN,
    MAX_PLAY,
    MOVE_TYPES,
    READY,
    TAKE_PILE,
    Move,
    Play,
    PlayBlind,
    Swap,
    stand_in,
)

__all__: list[str] = []  # the package exports read_move; the rest serve the game class

_RANKS: dict[str, Rank] = {text: rank for rank, text in RANK_TEXT.items()}
_WORDS: dict[str, Move] = {"ready": READY, "take": TAKE_PILE, "end": END_TURN}
_WRITTEN: dict[type[Any], str] = {type(move): word for word, move in _WORDS.items()}
_FORMS = "play, take, blind, swap, ready or end"


def format_move(move: Move) -> str:
    """The move's notation, a play with its exact cards (``play 7H 7S``); ``TypeError``
    for what is no palace move.
    """
    if not any(type(move) is kind for kind in MOVE_TYPES):  # a subclass is not one
        raise TypeError(f"{short_repr(move)} is not a palace move")
    if isinstance(move, Play):
        return "play " + cards_text(move.cards)
    if isinstance(move, Swap):
        return f"swap {move.hand_card} {move.face_up_card}"
    if isinstance(move, PlayBlind):
        return f"blind {move.slot}"
    return _WRITTEN[type(move)]


def action_text(move: Move) -> str:
    """The notation of the class ``move`` stands for: a play as its ranks only (``play 7
    7``, which :func:`~tabletop_rules.palace.parse_move` reads as the player's own cards).
    """
    if type(move) is Play:
        return "play " + " ".join(RANK_TEXT[card.rank] for card in move.cards)
    return format_move(move)


def read_words(text: object) -> Move | tuple[Rank, int]:
    """The move ``text`` names, or for a ranks-only play (``play 7 7``) its rank and count,
    which only a state turns into cards (:func:`~tabletop_rules.palace.rules.read_move_in`);
    ``NotationError`` for text that names no move.
    """
    text, words = move_words(text, _FORMS, str.upper)
    verb, rest = words[0].lower(), words[1:]
    if verb == "play":
        return _play_words(rest, text)
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


def read_move(text: str) -> Move:
    """The move ``text`` names, without a state (``play 7 7`` as the lowest suits, ``7C
    7D``); ``NotationError`` for text that names no move.

    >>> read_move("swap 4h qs")
    Swap(hand_card=Card(rank=4, suit='H'), face_up_card=Card(rank=12, suit='S'))
    """
    named = read_words(text)
    return stand_in(*named) if isinstance(named, tuple) else named


def _cards(words: list[str], text: str) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(word) for word in words)
    except NotationError as error:
        raise NotationError(f"{error}, in {short_repr(text)}") from None


def _play_words(words: list[str], text: str) -> Play | tuple[Rank, int]:
    """A ``play`` text's cards as a Play, or its ranks (``7 7``, ``Q Q``) as (rank, count)."""
    if not words:
        raise NotationError("'play' needs cards or ranks, e.g. 'play 7H 7S' or 'play 7 7'")
    if all(word in _RANKS for word in words):
        if len(words) > MAX_PLAY:
            raise IllegalMoveError(
                f"a play lays 1 to {MAX_PLAY} cards (every card of one rank in four decks), "
                f"not {len(words)}"
            )
        if len(set(words)) > 1:  # each word is its rank's text
            raise IllegalMoveError(f"a play lays cards of one rank, not {' '.join(words)}")
        return _RANKS[words[0]], len(words)
    if any(word in _RANKS for word in words):
        raise NotationError(
            f"write a play's ranks only ('play 7 7') or its cards ('play 7H 7S'), "
            f"not both: {short_repr(text)}"
        )
    return Play(_cards(words, text))


def _card_from_text(value: Any, _kind: Any) -> Card:
    if type(value) is str:
        card = Card.parse(value)
        if str(card) == value:
            return card
    raise NotationError(f"{short_repr(value)} is not a card as the library writes one, like 10H")


def json_hooks(converter: Any) -> None:
    """Register palace's JSON hooks on a cattrs ``converter``: a card as its text, a swap of two."""
    if not isinstance(converter, BaseConverter):
        raise TypeError(f"json_hooks needs a cattrs converter, got {short_repr(converter)}")
    converter.register_unstructure_hook(Card, str)
    converter.register_structure_hook(Card, _card_from_text)
    read_swap = converter.get_structure_hook(Swap)

    def swap_of_two_cards(value: Any, kind: Any) -> Swap:
        swap: Swap = read_swap(value, kind)
        if swap.hand_card == swap.face_up_card:
            raise IllegalMoveError(
                f"'swap {swap.hand_card} {swap.face_up_card}' is no move any state allows: "
                f"swapping a card for an equal one changes nothing"
            )
        return swap

    converter.register_structure_hook(Swap, swap_of_two_cards)
