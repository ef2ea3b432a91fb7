"""The table as plain text for terminals, logs and the docs, from a view or a state (drawn
as a spectator sees it): exactly what the view holds; the layout is on the API page.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..protocol import Seat
from .cards import Card
from .state import MAX_SWAPS, State, View
from .view import view

__all__ = ["PILE_SHOWN", "WIDTH"]

WIDTH = 80
"""The widest line drawn: long card lists wrap onto further lines."""

PILE_SHOWN = 12
"""The pile's cards drawn, counted from the top: the ones under them are counted only."""

_EMPTY = "--"
_HIDDEN = "##"


def display(game: View | State) -> str:
    """The table as lines no wider than :data:`WIDTH` (the layout is on the API page)."""
    seen = view(game, None) if isinstance(game, State) else game
    lines = _seats(seen)
    lines += _pile(seen)
    lines.append(f"stock {seen.stock_size}, burned {len(seen.burned)}")
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
        up = " ".join(
            _EMPTY.rjust(3) if card is None else _card(card) for card in seen.face_up[seat]
        )
        down = " ".join(_HIDDEN if occupied else _EMPTY for occupied in seen.face_down[seat])
        lines.append(
            f"{mark} {_label(seen, seat).ljust(width)}  face up {up}  face down {down}  "
            f"hand {seen.hand_sizes[seat]}"
        )
        if seat == seen.seat and seen.hand:
            lines += _wrap(f"{indent}in hand", list(map(_card, seen.hand)))
        if seen.known[seat]:
            lines += _wrap(f"{indent}known  ", list(map(_card, seen.known[seat])))
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


def _card(card: Card) -> str:
    return str(card).rjust(3)


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
    status = f"to move: P{seat}, turn {seen.turns + 1} of {config.max_turns}"
    if seen.pending == "take":
        status += ", must take the pile (a 3 on top)"
    elif seen.pending == "extra":
        status += ", four of a kind: extra play or end the turn"
    elif seen.pending == "replay":
        status += ", the pile burned: plays again"
    return status
