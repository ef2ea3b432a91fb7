"""The field as plain text, for terminals, logs and the docs (``P0``: a marker of seat 0;
``.``: no card left). Nothing hidden is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..kit import CHANCE
from .state import State, View
from .view import view

__all__: list[str] = []  # the kernel's display reaches users as the package's display

_WIDTH = 3
"""Characters per column: the longest card text (``+10``, ``End``) and ``P7`` fit."""

_NO_CARD = "."


def display(game: View | State) -> str:
    seen = view(game, None) if isinstance(game, State) else game
    field = seen.field
    rows = [  # the top row first, the bottom line last
        [column[row] if row < len(column) else _NO_CARD for column in field]
        for row in range(seen.config.rows - 1, -1, -1)
    ]
    lines = [
        _line(range(len(field))),
        *map(_line, rows[:-1]),
        "-" * ((_WIDTH + 1) * len(field) - 1),
        _line(rows[-1]),
        *map(_line, _standing(seen)),
        *_accounts(seen),
        f"pack {seen.pack_size}, discard pile {len(seen.discard)}",
        _status(seen),
    ]
    return "\n".join(lines)


def _line(cells: Iterable[object]) -> str:
    return " ".join(str(cell).rjust(_WIDTH) for cell in cells).rstrip()


def _standing(seen: View) -> list[list[str]]:
    stacks: list[list[str]] = [[] for _ in seen.field]
    for seat, owned in enumerate(seen.markers):
        for column in owned:
            stacks[column].append(f"P{seat}")
    depth = max(map(len, stacks), default=0)
    return [
        [stack[level] if level < len(stack) else "" for stack in stacks] for level in range(depth)
    ]


def _accounts(seen: View) -> list[str]:
    width = max(len(str(account)) for account in seen.accounts)
    lines = []
    for seat, (account, owned) in enumerate(zip(seen.accounts, seen.markers, strict=True)):
        plural = "" if len(owned) == 1 else "s"
        text = f"P{seat}: account {str(account).rjust(width)}, {len(owned)} marker{plural}"
        places = ", ".join(f"m{marker} on {column}" for marker, column in enumerate(owned))
        lines.append(f"{text} ({places})" if owned else text)
    return lines


def _markers(names: list[str]) -> str:
    """``m0``, ``m0 or m1``, ``m0, m1 or m2``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _status(seen: View) -> str:
    if seen.current_player is None:
        names = ", ".join(f"P{seat}" for seat in sorted(seen.winners))
        return f"game over: {'winners' if len(seen.winners) > 1 else 'winner'} {names}"
    seat = seen.on_turn
    owned = seen.markers[seat]
    if seen.phase == "setup":
        return f"to move: P{seat}, setup, place m{len(owned)}"
    config = seen.config
    when = f"round {seen.rounds + 1} of {config.max_rounds}"
    unmoved = [f"m{marker}" for marker in range(len(owned)) if marker not in seen.moved]
    moved = " ".join(f"m{marker}" for marker in seen.moved)
    if seen.current_player == CHANCE:
        status = f"die in the air: P{seat}, {when}"
    elif seen.roll is not None:
        status = f"to move: P{seat}, {when}, rolled {seen.roll}, move {_markers(unmoved)}"
    elif moved:
        status = f"to move: P{seat}, {when}, roll (moved: {moved})"
    elif len(owned) < config.max_markers and seen.accounts[seat] >= config.marker_cost:
        status = f"to move: P{seat}, {when}, buy or roll"
    else:
        status = f"to move: P{seat}, {when}, roll"
    if seen.ending:
        status += ", End has scored: last round"
    return status
