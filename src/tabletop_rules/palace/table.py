"""Everything palace says to a person: the table drawn as text, the events in words, the
rules and the notation in a few lines, and the hints (which ranks go on the pile now).

The table is plain text drawn from a view, or a state as a spectator sees it (the layout
is on the API page). An event is one sentence as a seat reads it, redacted for that seat:
"You" for the reader, ``P1`` for another; cards as ``7H``, ranks by their names (``J``).

>>> from tabletop_rules.palace import Card, Drew, describe
>>> drew = Drew(1, (Card.parse("7H"), Card.parse("QS")))
>>> describe(drew, 1), describe(drew, 0)
('You drew 7H QS', 'P1 drew 2 cards')

The summaries are the rules page ``rules/palace`` under the house rules in force, in a few
lines for the terminal's ``help`` and ``hint``; face-down slots count from 0, left to right.

>>> from tabletop_rules.palace import RULES, Config
>>> RULES.rules_summary(Config(quad="burn"))[2]
'Four or more of a rank on top of the pile burn it, and whoever completed them plays again.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._validation import check_type
from .._words import counted, game_over, ordinal, verb, who
from ..protocol import Seat
from . import events as ev
from .cards import RANK_TEXT, RANKS, Card, Rank, cards_text, top_run
from .config import Config
from .events import Event, check_event
from .moves import EndTurn, Play, PlayBlind, Ready, Swap, TakePile
from .notation import format_move
from .rules import ALLOWED
from .state import MAX_SWAPS, State, View
from .view import view

__all__ = ["PILE_SHOWN", "WIDTH", "playable_ranks"]


WIDTH = 80
"""The widest line drawn: long card lists wrap onto further lines."""

PILE_SHOWN = 12
"""The pile's cards drawn, counted from the top: the ones under them are counted only."""

_EMPTY = "--"
_HIDDEN = "##"


def display(game: View | State) -> str:
    """The table as lines no wider than :data:`~tabletop_rules.palace.table.WIDTH`."""
    seen = view(game, None) if isinstance(game, State) else game
    lines = [*_seats(seen), *_pile(seen), f"stock {seen.stock_size}, burned {len(seen.burned)}"]
    if seen.finished:
        lines += _wrap("finished:", [f"P{seat}" for seat in seen.finished], ", ")
    if seen.phase == "over":
        scores = [f"P{seat} {points}" for seat, points in enumerate(seen.scores)]
        lines += _wrap("scores:", scores, ", ")
    lines.append(_status(seen))
    return "\n".join(lines)


def _label(seen: View, seat: Seat) -> str:
    return f"P{seat} (you)" if seat == seen.seat else f"P{seat}"


def _seats(seen: View) -> list[str]:
    """Each seat's rows and hand size, then the viewer's hand and its known cards."""
    players = seen.config.players
    width = max(len(_label(seen, seat)) for seat in range(players))
    indent = " " * (2 + width + 2)
    lines = []
    for seat in range(players):
        mark = ">" if seat == seen.current_player else " "
        up = " ".join(str(card or _EMPTY).rjust(3) for card in seen.face_up[seat])
        down = " ".join(_HIDDEN if occupied else _EMPTY for occupied in seen.face_down[seat])
        lines.append(
            f"{mark} {_label(seen, seat).ljust(width)}  face up {up}  face down {down}  "
            f"hand {seen.hand_sizes[seat]}"
        )
        if seat == seen.seat and seen.hand:
            lines += _wrap(f"{indent}in hand", [str(card).rjust(3) for card in seen.hand])
        if seen.known[seat]:
            lines += _wrap(f"{indent}known  ", [str(card).rjust(3) for card in seen.known[seat]])
    return lines


def _pile(seen: View) -> list[str]:
    """The pile's size and its top ``PILE_SHOWN`` cards, the top one last."""
    pile = seen.pile
    if not pile:
        return ["pile empty"]
    shown = [str(card) for card in pile[-PILE_SHOWN:]]
    under = len(pile) - len(shown)
    head = f"pile {len(pile)}, top last:"
    return _wrap(f"{head} ({under} more)" if under else head, shown)


def _wrap(head: str, words: Sequence[str], separator: str = " ") -> list[str]:
    """``head`` then ``words``, as many to a line as ``WIDTH`` allows, aligned under the first."""
    comma = separator.rstrip()
    items = [word + comma for word in words[:-1]] + list(words[-1:])
    indent = " " * (len(head) + 1)
    lines = [head]
    for item in items:
        if lines[-1] != head and len(lines[-1]) + 1 + len(item) > WIDTH:
            lines.append(indent + item)
        else:
            lines[-1] += " " + item
    return lines


def _status(seen: View) -> str:
    """Who moves now and what they owe or may do, or who won."""
    config = seen.config
    if seen.current_player is None:
        limit = f", turn limit {config.max_turns} reached" if seen.turns >= config.max_turns else ""
        winner = ", ".join(f"winner P{seat}" for seat in seen.winners) or "no winner"
        return f"game over{limit}: {winner}"
    seat = seen.on_turn
    if seen.phase == "swap":
        return f"to move: P{seat}, swap phase, {seen.swaps} of {MAX_SWAPS} swaps made"
    return f"to move: P{seat}, turn {seen.turns + 1} of {config.max_turns}{_OWED[seen.pending]}"


_OWED = {
    "none": "",
    "take": ", must take the pile (a 3 on top)",
    "extra": ", four of a kind: extra play or end the turn",
    "replay": ", the pile burned: plays again",
}


_FACES = {11: "jacks", 12: "queens", 13: "kings", 14: "aces"}
_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def ranks_text(rank: Rank, count: int) -> str:
    """``Four 7s``, ``Five aces``: a run of one rank by its name."""
    number = _COUNTS[count] if count < len(_COUNTS) else str(count)
    return f"{number.capitalize()} {_FACES.get(rank, RANK_TEXT[rank] + 's')}"


def event_text(event: Event, seat: Seat | None) -> str:
    """``event``, redacted for ``seat`` (``None``: a spectator), in one sentence."""
    check_event(event, seat)
    actor = who(event.seat, seat) if hasattr(event, "seat") else ""
    if isinstance(event, ev.Played):
        played = f"{actor} played {cards_text(event.cards)}"
        if event.source == "face_down":
            return f"{played} blind, from face-down slot {event.slot}"
        return played + (" from the face-up row" if event.source == "face_up" else "")
    if isinstance(event, ev.Drew):
        drawn = counted(event.count, "card") if event.cards is None else cards_text(event.cards)
        return f"{actor} drew {drawn}"
    if isinstance(event, ev.TurnPassed):
        turn = f"Turn {event.turns + 1}"
        if event.must_take:
            taker = who(event.seat, seat, start=False)
            return f"{turn}: {taker} must take the pile (a 3 is on top)"
        return f"{turn}: your move" if event.seat == seat else f"{turn}: P{event.seat} to play"
    if isinstance(event, ev.Burned):
        top, pile = event.cards[-1].rank, counted(len(event.cards), "card")
        burner = "The 10" if top == 10 else ranks_text(top, top_run(event.cards))
        return f"{burner} burned the pile ({pile})"
    if isinstance(event, ev.Swapped):
        return f"{actor} put {event.hand_card} face up and took {event.face_up_card} in hand"
    if isinstance(event, ev.Readied):
        return f"{actor} {verb(event.seat, seat, 'are', 'is')} ready"
    if isinstance(event, ev.Started):
        return f"{actor} {verb(event.seat, seat, 'play', 'plays')} first"
    if isinstance(event, ev.TurnedBlind):
        return f"{actor} turned {event.card} from face-down slot {event.slot} and cannot play it"
    if isinstance(event, ev.TookFaceUp):
        return f"{actor} took the face-up cards {cards_text(sorted(event.cards))} in hand"
    if isinstance(event, ev.TookPile):
        return f"{actor} took the pile ({counted(len(event.cards), 'card')})"
    if isinstance(event, ev.EndedTurn):
        return f"{actor} ended the turn after four of a kind"
    if isinstance(event, ev.Finished):
        return f"{actor} went out {ordinal(event.place)}"
    assert isinstance(event, ev.GameOver)
    text = game_over(event.winners, seat, event.scores)
    if event.reason == "max_turns":
        return text.replace("Game over:", "Game over at the turn limit:", 1)
    return text


def rules_summary(config: Config) -> tuple[str, ...]:
    """The rules that make palace palace, under ``config``."""
    beat = "higher than" if config.must_beat == "higher" else "equal or higher than"
    take = "Cannot play? Take the pile (take)"
    if config.voluntary_pickup:
        take += "; you may also take it at the start of your turn when you could play"
    return (
        f"Play one or more cards of one rank on the pile: {beat} its top card (4 low ... A high).",
        "2, 3 and 10 go on anything, anything goes on a 2; a 3 left on top makes the next "
        "player take the pile; a 10 burns the pile and you play again.",
        "Four or more of a rank on top of the pile burn it, and whoever completed them plays again."
        if config.quad == "burn"
        else "Four or more of a rank in one play: lay another set on them, or end the turn.",
        f"{take}. While the stock lasts you draw up to {config.hand_size} in hand.",
        "Hand and stock gone: play your face-up cards from the table."
        if config.face_up_play == "from_table"
        else "Hand and stock gone: your face-up cards go into your hand.",
        "Then play your face-down cards blind, one a turn; one that cannot go on the pile "
        "is taken with it.",
        "Before play, swap hand cards with your face-up cards as you like, then ready.",
        "The first out wins; play goes on, and the last holding cards loses."
        if config.play_until == "last"
        else "The first player with no cards left wins.",
    )


def notation_summary(_config: Config) -> tuple[str, ...]:
    """The notation, a form and its example a line."""
    return (
        "play 7H 7S: lay those cards (rank 2-10, J, Q, K, A; suit C, D, H, S)",
        "play 7 7: lay two 7s of your own, whichever suits",
        "take: take the pile; end: end the turn after a four of a kind",
        "blind 0: turn face-down card 0 and play it (0, 1, 2 from the left, as drawn)",
        "swap 4H QS: your hand card 4H for your face-up QS (swap phase); ready: done swapping",
    )


def hint(seen: View) -> tuple[str, ...]:
    """The ranks that go on the pile now, and which of them the seat can lay."""
    if seen.phase == "swap":
        return ("Swap phase: swap hand and face-up cards, then ready; nothing is played yet.",)
    if seen.pending == "take" and seen.current_player is not None:
        return ("A 3 is on top: the seat on turn must take the pile.",)
    ranks = playable_ranks(seen)
    if not ranks:
        return ("The game is over.",) if seen.current_player is None else ()
    lines = [f"Ranks that go on the pile now: {' '.join(RANK_TEXT[rank] for rank in ranks)}."]
    if seen.seat is None or seen.seat != seen.current_player:
        return tuple(lines)
    yours = sorted({move.cards[0].rank for move in seen.legal_moves if isinstance(move, Play)})
    if yours:
        lines.append(f"Of them you can lay: {' '.join(RANK_TEXT[rank] for rank in yours)}.")
    elif any(isinstance(move, PlayBlind) for move in seen.legal_moves):
        lines.append("You play blind: turn a face-down card (blind 0, 1 or 2).")
    elif TakePile() in seen.legal_moves:
        lines.append("You hold none of them: take the pile (take).")
    return tuple(lines)


def playable_ranks(seen: View) -> tuple[Rank, ...]:
    """The ranks that may go on the pile now, lowest first, for every seat alike: what the
    top card and ``must_beat`` allow. Empty when no card may be played: in the swap phase,
    when a 3 makes the seat on turn take the pile, once the game is over.

    >>> from tabletop_rules.palace import Card, Config, new_game, view
    >>> import attrs
    >>> state = attrs.evolve(new_game(seed=7), phase="play", pile=(Card.parse("JH"),))
    >>> playable_ranks(view(state, 0))
    (2, 3, 10, 11, 12, 13, 14)
    >>> strict = attrs.evolve(state, config=Config(must_beat="higher"))
    >>> playable_ranks(view(strict, None))
    (2, 3, 10, 12, 13, 14)
    """
    check_type(seen, (View,))
    if seen.phase != "play" or seen.pending == "take" or seen.current_player is None:
        return ()
    allowed = ALLOWED[seen.config.must_beat == "higher"][seen.pile[-1].rank if seen.pile else 0]
    return tuple(rank for rank in RANKS if allowed[rank])


# --- the table drawn as data, for a graphical front end -----------------------------------

_PILE_DRAWN = 5
"""The pile's cards :func:`drawn` gives, from the top: the ones under them are counted."""

_RANK_WORDS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def drawn(seen: View, _events: Sequence[Event]) -> dict[str, Any]:
    """The table as data (:meth:`~tabletop_rules.game.Game.drawn`): every seat's face-up
    row over its face-down backs, its hand (the seat's own cards, the others' counted) and
    its known cards; the pile's top cards, the stock and the burned cards counted. The
    seat's plays are listed per rank, each with the places of the hand (or face-up row)
    it lays, so a front end selects cards and composes no text.

    >>> from tabletop_rules.palace import RULES, new_game, view
    >>> board = drawn(view(new_game(seed=1), 0), ())
    >>> board["phase"], board["actions"]
    ('swap', [{'move': 'ready', 'label': 'Ready: start playing'}])
    >>> board["hand"][0]
    {'text': '4D', 'rank': '4', 'suit': 'D', 'symbol': '♦', 'label': 'four of diamonds'}
    """
    legal = seen.legal_moves
    words = {type(move): format_move(move) for move in legal}
    source = "hand" if seen.hand else "face_up"
    mine = seen.seat
    row = seen.face_up[mine] if mine is not None else ()
    plays: dict[str, list[dict[str, Any]]] = {}
    for move in legal:
        if isinstance(move, Play):
            places = _places(move.cards, seen.hand or row)
            entry = {"count": len(move.cards), "move": format_move(move), "places": places}
            plays.setdefault(RANK_TEXT[move.rank], []).append(entry)
    swaps = [
        {
            "hand": seen.hand.index(move.hand_card),
            "up": row.index(move.face_up_card),
            "move": format_move(move),
        }
        for move in legal
        if isinstance(move, Swap)
    ]
    blind = {move.slot: format_move(move) for move in legal if isinstance(move, PlayBlind)}
    seats = [
        {
            "seat": seat,
            "name": who(seat, mine),
            "you": seat == mine,
            "on_turn": seat == seen.current_player,
            "finished": seat in seen.finished,
            "hand_size": seen.hand_sizes[seat],
            "face_up": [None if card is None else _card_face(card) for card in seen.face_up[seat]],
            "face_down": [
                {"present": present, "move": blind.get(slot) if seat == mine else None}
                for slot, present in enumerate(seen.face_down[seat])
            ],
            "known": [_card_face(card) for card in seen.known[seat]],
        }
        for seat in range(seen.config.players)
    ]
    actions = [
        {"move": words[kind], "label": label}
        for kind, label in (
            (Ready, "Ready: start playing"),
            (TakePile, "Take the pile"),
            (EndTurn, "End the turn"),
        )
        if kind in words
    ]
    return {
        "game": "palace",
        "phase": seen.phase,
        "seats": seats,
        "hand": [_card_face(card) for card in seen.hand],
        "play_from": source,
        "plays": plays,
        "swaps": swaps,
        "swaps_made": seen.swaps,
        "pile": {
            "size": len(seen.pile),
            "top": [_card_face(card) for card in seen.pile[-_PILE_DRAWN:]],
            "take": words.get(TakePile),
        },
        "stock": seen.stock_size,
        "burned": len(seen.burned),
        "actions": actions,
    }


def _card_face(card: Card) -> dict[str, str]:
    """A card as :func:`drawn` gives it: its text, rank, suit, suit symbol and name.

    >>> _card_face(Card.parse("QH"))["label"]
    'queen of hearts'
    """
    return {
        "text": str(card),
        "rank": RANK_TEXT[card.rank],
        "suit": card.suit,
        "symbol": _SUIT_SYMBOLS[card.suit],
        "label": f"{_RANK_WORDS[card.rank]} of {_SUIT_WORDS[card.suit]}",
    }


def _places(cards: tuple[Card, ...], among: Sequence[Card | None]) -> list[int]:
    """Where ``cards`` lie in ``among`` (a hand or a face-up row), equal cards at their
    first free places.
    """
    places: list[int] = []
    for card in cards:
        places.append(next(i for i, spot in enumerate(among) if spot == card and i not in places))
    return sorted(places)
