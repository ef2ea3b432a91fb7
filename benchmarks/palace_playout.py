"""Random-playout throughput: tabletop_rules palace beside OpenSpiel's crazy_eights and
RLCard's uno.

One process runs every contender in interleaved rounds (the order rotates each round), each
for about ``--seconds`` per round, and reports the median rate of each and the median of
the per-round ratios against OpenSpiel's ``crazy_eights`` through its Python API (the
project's goal: at least 1.0x), through its C++ loop, and against RLCard's ``uno``. A
*move* is one decision of a player: the games differ in length, so moves per second is the
comparable figure, not games per second. OpenSpiel's chance nodes are not moves. The
"floor" row runs the plain loop with no rules in it, one frozen state built per move the
cheapest way: how fast any frozen-state palace could be in this interpreter, whatever its
rules cost; the next row builds each state as palace's ``apply`` does.

Run::

    python benchmarks/palace_playout.py [--seconds 1.0] [--rounds 5] [--clock cpu]
        [--json out.json]

OpenSpiel and RLCard are optional (``pip install -e '.[bench]'``); without one, its rows
are left out and said so.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import attrs
from harness import (
    Anchor,
    Clock,
    Contender,
    Runner,
    Sample,
    openspiel_cpp_loop,
    run_and_report,
    timing_arguments,
)

from tabletop_rules import palace
from tabletop_rules._slots import slot_setters
from tabletop_rules.bots import RandomBot
from tabletop_rules.palace import rules as palace_rules
from tabletop_rules.simulate import play_game

try:
    import pyspiel
except ImportError:  # the optional `bench` extra
    pyspiel = None

try:
    import rlcard
except ImportError:  # the optional `bench` extra
    rlcard = None

INSTALL_HINT = "pip install -e '.[bench]'"

ANCHORS = [
    Anchor("crazy_eights_python", "vs crazy_eights Python API"),
    Anchor("crazy_eights_cpp", "vs crazy_eights C++"),
    Anchor("uno_env", "vs uno"),
]

PLAYERS = 2


# --- tabletop_rules palace ------------------------------------------------------------------


def _plain_loop(
    is_over: Callable[[palace.State], bool],
    legal_moves: Callable[[palace.State], tuple[palace.Move, ...]],
    apply: Callable[[palace.State, palace.Move], palace.State],
    budget: float,
    seed: int,
    clock: Clock,
) -> Sample:
    """``new_game`` → ``apply(state, choice(legal_moves(state)))`` until ``is_over``,
    ``choice`` from ``random.Random`` as in the crazy_eights loop; counts every move.
    """
    new_game = palace.new_game
    choice = random.Random(seed).choice
    config = palace.Config(players=PLAYERS)
    games = moves = 0
    start = clock()
    stop = start + budget
    while True:
        state = new_game(config, seed=seed + games)
        while not is_over(state):
            state = apply(state, choice(legal_moves(state)))
            moves += 1
        games += 1
        now = clock()
        if now >= stop:
            return Sample(games, moves, now - start)


def palace_loop(budget: float, seed: int, clock: Clock) -> Sample:
    """The plain loop with palace's own ``is_over``, ``legal_moves`` and ``apply``."""
    return _plain_loop(palace.is_over, palace.legal_moves, palace.apply, budget, seed, clock)


def palace_play_game(budget: float, seed: int, clock: Clock) -> Sample:
    """The realistic API path: :func:`~tabletop_rules.simulate.play_game` with two
    :class:`~tabletop_rules.bots.RandomBot`, each choosing from its seat's view.
    """
    rules = palace.RULES
    config = palace.Config(players=PLAYERS)
    games = moves = 0
    start = clock()
    stop = start + budget
    while True:
        game_seed = seed + games
        bots = [RandomBot(rules, seed=PLAYERS * game_seed + p) for p in range(PLAYERS)]
        played = play_game(rules, bots, config, seed=game_seed)
        games += 1
        moves += len(played.moves)
        now = clock()
        if now >= stop:
            return Sample(games, moves, now - start)


def _no_rules_loop(
    build: Callable[[palace.State], palace.State], budget: float, seed: int, clock: Clock
) -> Sample:
    """The plain loop with no rules in it: ``is_over`` (a game is 750 moves, palace's mean
    under random play), ``legal_moves`` (a fixed tuple of seven moves) and an ``apply``
    that only builds the next state with ``build``; each checks the state's type as the
    real functions do.
    """
    state_type = palace.State
    listed = (palace.TakePile(),) * 7

    def is_over(state: palace.State) -> bool:
        if type(state) is not state_type:
            raise TypeError(state)
        return state.turns >= 750

    def legal_moves(state: palace.State) -> tuple[palace.Move, ...]:
        if type(state) is not state_type:
            raise TypeError(state)
        return listed

    def apply(state: palace.State, _move: palace.Move) -> palace.State:
        if type(state) is not state_type:
            raise TypeError(state)
        return build(state)

    return _plain_loop(is_over, legal_moves, apply, budget, seed, clock)


_SETTERS = slot_setters(palace.State)
(
    _set_config,
    _set_seed,
    _set_hands,
    _set_known,
    _set_face_up,
    _set_face_down,
    _set_stock,
    _set_pile,
    _set_burned,
    _set_phase,
    _set_seat,
    _set_turns,
    _set_swaps,
    _set_pending,
    _set_finished,
    _set_deal,
) = (_SETTERS[field.name] for field in attrs.fields(palace.State))


def _next_state(state: palace.State) -> palace.State:
    """The cheapest next frozen state there is: a new instance, every field set through its
    slot straight from ``state``, the turn counter advanced.
    """
    new = object.__new__(palace.State)
    _set_config(new, state.config)
    _set_seed(new, state.seed)
    _set_hands(new, state.hands)
    _set_known(new, state.known)
    _set_face_up(new, state.face_up)
    _set_face_down(new, state.face_down)
    _set_stock(new, state.stock)
    _set_pile(new, state.pile)
    _set_burned(new, state.burned)
    _set_phase(new, state.phase)
    _set_seat(new, state.seat)
    _set_turns(new, state.turns + 1)
    _set_swaps(new, state.swaps)
    _set_pending(new, state.pending)
    _set_finished(new, state.finished)
    _set_deal(new, state.deal)
    return new


def _scaffolded_state(state: palace.State) -> palace.State:
    """The next state as palace's ``apply`` builds it: its scratch copy of ``state``, the
    turn counter advanced, made the next state.
    """
    work = palace_rules.Work(state, None)
    work.turns += 1
    return work.next_state()


def palace_floor(budget: float, seed: int, clock: Clock) -> Sample:
    """The floor of any frozen-state palace: the loop with no rules, one state built per
    move the cheapest way there is. Whatever rules cost comes on top of this.
    """
    return _no_rules_loop(_next_state, budget, seed, clock)


def palace_scaffolding(budget: float, seed: int, clock: Clock) -> Sample:
    """The floor of palace's own ``apply``: the loop with no rules, each state built as
    palace's ``apply`` builds it (scratch copy, next state).
    """
    return _no_rules_loop(_scaffolded_state, budget, seed, clock)


# --- OpenSpiel crazy_eights ---------------------------------------------------------------


def check_chance_uniform(game: Any, games: int = 20) -> None:
    """Raise unless every chance node of a few random games has equally likely outcomes,
    which lets the Python-API loop draw an outcome by index.
    """
    rng = random.Random(0)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probabilities = {p for _, p in outcomes}
                if max(probabilities) - min(probabilities) > 1e-12:
                    raise RuntimeError("crazy_eights chance outcomes are not uniform")
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def make_crazy_eights_python_loop(game: Any) -> Runner:
    """OpenSpiel through its Python API: ``legal_actions``/``chance_outcomes``/
    ``apply_action`` with the choice made in Python (``random.Random``); chance outcomes
    (equally likely, checked by :func:`check_chance_uniform`) drawn by index. Counts the
    players' actions.
    """

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        rng = random.Random(seed)
        choice, rand = rng.choice, rng.random
        new_initial_state = game.new_initial_state
        games = moves = 0
        start = clock()
        stop = start + budget
        while True:
            state = new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = outcomes[int(rand() * len(outcomes))][0]
                else:
                    action = choice(state.legal_actions())
                    moves += 1
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= stop:
                return Sample(games, moves, now - start)

    return run


# --- RLCard uno ----------------------------------------------------------------------------


def uno_env_loop(budget: float, seed: int, clock: Clock) -> Sample:
    """RLCard's environment API: ``env.reset()``, then ``env.step(action)`` with ``action``
    drawn by ``random.Random`` from ``state['legal_actions']`` until ``env.is_over()``.
    Each step also encodes the next player's observation (RLCard's env always does).
    """
    env = rlcard.make("uno", config={"seed": seed % 2**32})
    choice = random.Random(seed).choice
    reset, step, is_over = env.reset, env.step, env.is_over
    games = moves = 0
    start = clock()
    stop = start + budget
    while True:
        state, _player = reset()
        while not is_over():
            state, _player = step(choice(list(state["legal_actions"])))
            moves += 1
        games += 1
        now = clock()
        if now >= stop:
            return Sample(games, moves, now - start)


# --- the run -------------------------------------------------------------------------------


def contenders() -> list[Contender]:
    """Every loop available here; OpenSpiel's and RLCard's only when they import."""
    found = [
        Contender("palace_loop", "palace, plain loop", palace_loop),
        Contender("palace_play_game", "palace, play_game+RandomBot", palace_play_game),
        Contender("palace_floor", "the loop with no rules (the floor)", palace_floor),
        Contender(
            "palace_scaffolding", "the loop with palace's apply but no rules", palace_scaffolding
        ),
    ]
    if pyspiel is not None:
        game = pyspiel.load_game("crazy_eights", {"players": PLAYERS})
        check_chance_uniform(game)
        found += [
            Contender(
                "crazy_eights_cpp",
                "OpenSpiel crazy_eights, C++ evaluate_bots",
                openspiel_cpp_loop(game),
            ),
            Contender(
                "crazy_eights_python",
                "OpenSpiel crazy_eights, Python API",
                make_crazy_eights_python_loop(game),
            ),
        ]
    if rlcard is not None:
        found.append(Contender("uno_env", "RLCard uno, env API", uno_env_loop))
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, optionally write JSON."""
    args = timing_arguments(__doc__.splitlines()[0], argv)
    for module, name, game_rows in (
        (pyspiel, "pyspiel (OpenSpiel)", "crazy_eights"),
        (rlcard, "rlcard", "uno"),
    ):
        if module is None:
            print(
                f"note: {name} is not installed, so there are no {game_rows} rows; install it "
                f"with `{INSTALL_HINT}`.",
                file=sys.stderr,
            )
    packages = ("tabletop-rules", "attrs", "cattrs", "open-spiel", "rlcard", "numpy")
    what = f"move = a player's decision, {PLAYERS} players"
    run_and_report(args, contenders(), packages, ANCHORS, "move", what, players=PLAYERS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
