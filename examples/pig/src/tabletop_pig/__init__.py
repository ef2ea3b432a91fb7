"""Pig, the dice game, built on :mod:`tabletop_rules.kit`: roll or hold, don't roll a 1."""

from __future__ import annotations

import attrs

from tabletop_rules import kit

from . import rules
from .rules import DECLARATION, HOLD, Config, Die, Hold, Move, Roll, State

__all__ = ["HOLD", "RULES", "Config", "Die", "Hold", "HoldAt20", "Move", "Roll", "State", "View"]


@attrs.frozen
class View:
    """What a seat knows: everything but the generator (which would predict the die)."""

    config: Config
    seat: int | None
    scores: tuple[int, ...]
    turn_total: int
    turns_played: int
    rolling: bool
    current_player: int | None
    legal_moves: tuple[Move, ...]


def view(state: State, seat: int | None) -> View:
    """``seat``'s view of ``state``; its legal moves only while it is on turn."""
    to_move = rules.current_player(state)
    moves = rules.legal_moves(state) if seat is not None and seat == to_move else ()
    return View(
        state.config, seat, state.scores, state.turn_total, state.turns_played, state.rolling,
        to_move, moves,
    )  # fmt: skip


def determinize(seen: View, rng: kit.Rng) -> State:
    """The view's table with a fresh seed from ``rng``: nothing else is hidden."""
    seed, _ = rng.next_u64()
    return State(
        seen.config, seed, kit.Rng.from_seed(seed), seen.scores, seen.turn_total,
        seen.turns_played, seen.rolling,
    )  # fmt: skip


def format_move(move: Move) -> str:
    """``roll``, ``hold``, ``die 4``."""
    return f"die {move.value}" if type(move) is Die else type(move).__name__.lower()


def encode_view(seen: View, features: kit.Features) -> None:
    """The viewer, each score from the viewer on, the turn total, the die, the round."""
    players, top = seen.config.players, seen.config.target + 5
    kit.viewer_features(features, seen.seat, players)
    order = kit.seats_from(seen.seat, players)
    for relative, seat in enumerate(order):
        features.scalar(f"score[P{relative}]", seen.scores[seat], 0, top)
    features.scalar("turn_total", seen.turn_total, 0, top)
    features.flag("rolling", seen.rolling)
    to_move = order.index(seen.current_player) if seen.current_player in order else None
    features.one_hot("to_move[P", [str(seat) for seat in range(players)], to_move)
    features.scalar("round", seen.turns_played // players, 0, seen.config.max_rounds)


def display(game: State | View) -> str:
    """One line: the scores, who is to move, the turn total."""
    seen = view(game, None) if isinstance(game, State) else game
    scores = "  ".join(f"S{seat} {points}" for seat, points in enumerate(seen.scores))
    mover = "the die" if seen.current_player == kit.CHANCE else f"S{seen.current_player}"
    now = "game over" if seen.current_player is None else f"{mover} to move"
    return f"Pig to {seen.config.target}: {scores}; {now}, turn total {seen.turn_total}"


class HoldAt20:
    """Rolls until its turn total is 20, then holds: the classic simple strategy."""

    def choose(self, seen: View) -> Move:
        moves = kit.legal_moves_of(seen)
        return HOLD if HOLD in moves and seen.turn_total >= 20 else moves[0]


KERNEL = kit.Kernel(
    config_type=Config,
    state_type=State,
    view_type=View,
    move_types=(Roll, Hold, Die),
    event_types=(rules.Rolled, rules.Busted, rules.Banked),
    new_game=rules.new_game,
    legal_moves=rules.legal_moves,
    transition=rules.transition,
    score=rules.score,
    current_player=rules.current_player,
    view=view,
    determinize=determinize,
    format_move=format_move,
    encode_view=encode_view,
    check_state=rules.check_state,
    max_moves=rules.max_moves,
    moves=rules.MOVES,
    chance_type=Die,
    why_illegal=rules.why_illegal,
    display=display,
    bots={"hold20": kit.Unseeded(HoldAt20)},
)

RULES = kit.build(DECLARATION, KERNEL)
"""Pig's ruleset: the kernel above, and everything the kit derives from it. The entry
point in ``pyproject.toml`` names it, so the game needs no ``register`` call of its own."""
