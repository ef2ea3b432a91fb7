"""Positions built from given deals, for the rule tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tabletop_rules import account as r
from tabletop_rules.account.cards import Card
from tabletop_rules.account.config import Config
from tabletop_rules.account.moves import Die, Move, Place, Roll
from tabletop_rules.account.state import State


def game(
    bottom: list[str],
    above: list[list[str]] | None = None,
    pack: list[str] | None = None,
    **house: Any,
) -> State:
    """A new game whose bottom line is ``bottom`` (column 0 first), whose rows above are
    ``above`` (the row just above the bottom line first), whose pack is ``pack`` (top
    first), and whose deck is exactly those cards. ``auto_chance`` is off unless given,
    so tests choose the rolls with ``Die``.
    """
    above = above or []
    pack = pack or []
    deal = [*bottom, *(card for row in above for card in row), *pack]
    house.setdefault("auto_chance", False)
    config = Config(
        rows=1 + len(above),
        columns=len(bottom),
        deck=dict(Counter(deal)),
        **house,
    )
    return r.new_game(config, seed=house.pop("seed", 0), deal=deal)


def placed(state: State, *columns: int) -> State:
    """``state`` after the given setup placements, in seat order."""
    for column in columns:
        state = r.apply(state, Place(column))
    return state


def rolled(state: State, value: int) -> State:
    """``state`` after ``Roll()`` and, with ``auto_chance`` off, ``Die(value)``."""
    state = r.apply(state, Roll())
    if state.awaiting_die:
        state = r.apply(state, Die(value))
    return state


def play(state: State, *moves: Move) -> State:
    for move in moves:
        state = r.apply(state, move)
    return state


def card(text: str) -> Card:
    return Card.parse(text)
