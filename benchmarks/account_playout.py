"""Random-playout throughput: tabletop_rules' account game beside OpenSpiel's backgammon.

One process runs every contender in interleaved rounds (the order rotates each round), each
for about ``--seconds`` per round, and reports the median rate of each and the median of
the per-round ratios against OpenSpiel's ``backgammon`` through its Python API (the
project's goal, issue 7: at least 2.0x, per move) and through its C++ loop. Backgammon is
the closest dice-and-track game OpenSpiel has.

A *move* is one decision of a player; chance is timed on both sides but never counted.
Backgammon's dice are chance nodes, which the Python loop resolves itself (drawing an
outcome by its probability) and the C++ loop inside ``evaluate_bots``. The account game
rolls its die inside ``apply(state, Roll())`` (``auto_chance=True``): ``Roll()`` is the
account game's chance event, so it is applied and timed but not counted; ``Place``,
``Buy`` and ``Advance`` are the moves. Games differ in length, so moves per second is the
comparable figure, not games per second.

Run::

    python benchmarks/account_playout.py [--seconds 1.0] [--rounds 5] [--clock cpu]
        [--json out.json]

OpenSpiel is optional (``pip install -e '.[bench]'``); without it only the account game is
measured, without ratios.
"""

from __future__ import annotations

import random
import sys
from typing import Any

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

from tabletop_rules import account
from tabletop_rules.account.moves import ROLL  # the instance legal_moves lists
from tabletop_rules.bots import RandomBot
from tabletop_rules.simulate import play_game

try:
    import pyspiel
except ImportError:  # the optional `bench` extra
    pyspiel = None

INSTALL_HINT = "pip install -e '.[bench]'"

ANCHORS = [
    Anchor("backgammon_python", "vs backgammon Python API"),
    Anchor("backgammon_cpp", "vs backgammon C++"),
]

PLAYERS = 2


# --- tabletop_rules account game ------------------------------------------------------------


def account_loop(budget: float, seed: int, clock: Clock) -> Sample:
    """The plain loop: ``new_game`` → ``apply(state, choice(legal_moves(state)))`` until
    ``is_over``, ``choice`` from ``random.Random`` as in the backgammon loop; the die is
    rolled inside ``apply`` from the state's own generator. Counts every move but ``Roll()``.
    """
    new_game, is_over, legal_moves, apply = (
        account.new_game,
        account.is_over,
        account.legal_moves,
        account.apply,
    )
    choice = random.Random(seed).choice
    config = account.Config(players=PLAYERS)
    games = moves = 0
    start = clock()
    stop = start + budget
    while True:
        state = new_game(config, seed=seed + games)
        while not is_over(state):
            move = choice(legal_moves(state))
            state = apply(state, move)
            moves += move is not ROLL
        games += 1
        now = clock()
        if now >= stop:
            return Sample(games, moves, now - start)


def account_play_game(budget: float, seed: int, clock: Clock) -> Sample:
    """The realistic API path: :func:`~tabletop_rules.simulate.play_game` with two
    :class:`~tabletop_rules.bots.RandomBot`, each choosing from its seat's view. Counts the
    moves of the game's record but its ``Roll()`` moves.
    """
    rules = account.RULES
    config = account.Config(players=PLAYERS)
    games = moves = 0
    start = clock()
    stop = start + budget
    while True:
        game_seed = seed + games
        bots = [RandomBot(rules, seed=PLAYERS * game_seed + p) for p in range(PLAYERS)]
        played = play_game(rules, bots, config, seed=game_seed)
        games += 1
        moves += len(played.moves) - played.moves.count(ROLL)
        now = clock()
        if now >= stop:
            return Sample(games, moves, now - start)


# --- OpenSpiel backgammon -------------------------------------------------------------------


def check_chance_sums(game: Any, games: int = 20) -> None:
    """Raise unless the chance outcomes of a few random games each sum to 1, which the
    Python-API loop's draw by cumulative probability relies on.
    """
    rng = random.Random(0)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if abs(sum(p for _, p in outcomes) - 1.0) > 1e-9:
                    raise RuntimeError(f"{game} chance outcomes do not sum to 1")
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def make_backgammon_python_loop(game: Any) -> Runner:
    """OpenSpiel through its Python API: ``legal_actions``/``chance_outcomes``/
    ``apply_action`` with the choice made in Python (``random.Random``). Backgammon's rolls
    are not equally likely (a double is 1/36, any other roll 2/36; the opening roll 1/30),
    so an outcome is drawn by walking the cumulative probabilities. Counts the players'
    actions; chance nodes are applied and timed, not counted.
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
                    left = rand()  # the outcome drawn is the action the walk stops at
                    for action, probability in state.chance_outcomes():  # noqa: B007
                        left -= probability
                        if left < 0.0:
                            break
                else:
                    action = choice(state.legal_actions())
                    moves += 1
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= stop:
                return Sample(games, moves, now - start)

    return run


# --- the run -------------------------------------------------------------------------------


def contenders() -> list[Contender]:
    """Every loop available here; OpenSpiel's only when pyspiel imports."""
    found = [
        Contender("account_loop", "account, plain loop", account_loop),
        Contender("account_play_game", "account, play_game+RandomBot", account_play_game),
    ]
    if pyspiel is not None:
        game = pyspiel.load_game("backgammon")
        check_chance_sums(game)
        found += [
            Contender(
                "backgammon_cpp",
                "OpenSpiel backgammon, C++ evaluate_bots",
                openspiel_cpp_loop(game),
            ),
            Contender(
                "backgammon_python",
                "OpenSpiel backgammon, Python API",
                make_backgammon_python_loop(game),
            ),
        ]
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, optionally write JSON."""
    args = timing_arguments(__doc__.splitlines()[0], argv)
    if pyspiel is None:
        print(
            "note: pyspiel (OpenSpiel) is not installed, so there are no backgammon rows; "
            f"install it with `{INSTALL_HINT}`.",
            file=sys.stderr,
        )
    packages = ("tabletop-rules", "attrs", "cattrs", "open-spiel")
    what = (
        "move = a player's decision (chance timed, not counted: backgammon's chance nodes, "
        f"the account game's Roll()), {PLAYERS} players"
    )
    run_and_report(args, contenders(), packages, ANCHORS, "move", what, players=PLAYERS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
