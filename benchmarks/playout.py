"""Random-playout throughput: tabletop_rules dice poker side by side with OpenSpiel's yacht.

One process runs every contender in interleaved rounds (the order rotates each round), each
for about ``--seconds`` per round, and reports the median rate of each. The ratio against
OpenSpiel's C++ loop is the median of the per-round ratios, so a slow patch of a shared
machine hits both sides of a ratio alike. A *turn* is one box filled on a score sheet: the
two games differ in length (dice poker fills 45 boxes per player, yacht 12), so turns per
second is the comparable figure, not games per second.

Run::

    python benchmarks/playout.py [--seconds 1.0] [--rounds 5] [--json out.json]

OpenSpiel is optional (``pip install -e '.[bench]'``); without it only dice poker is measured.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from typing import Any

from harness import (
    Anchor,
    Clock,
    Contender,
    Runner,
    Sample,
    run_and_report,
    timing_arguments,
)

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.simulate import play_game

try:
    import pyspiel

    import tabletop_rules.adapters.openspiel  # noqa: F401  (registers python_tabletop_*)
except ImportError:  # the optional `bench` extra
    pyspiel = None

YACHT_FIRST_SCORE_ACTION = 32
"""OpenSpiel yacht: actions 0..31 keep/reroll dice, 32..43 score a category."""

INSTALL_HINT = "pip install -e '.[bench]'"

ANCHORS = [Anchor("yacht_cpp", "vs OpenSpiel C++")]


# --- tabletop_rules dice poker ------------------------------------------------------------


def dice_poker_loop(budget: float, seed: int, clock: Clock) -> Sample:
    """The plain loop: ``new_game`` → ``apply(state, choice(legal_moves(state)))`` until over."""
    new_game, is_over, legal_moves, apply = dp.new_game, dp.is_over, dp.legal_moves, dp.apply
    choice = random.Random(seed).choice
    config = dp.Config()
    games = turns = 0
    start = clock()
    stop = start + budget
    while True:
        state = new_game(config, seed=seed + games)
        while not is_over(state):
            state = apply(state, choice(legal_moves(state)))
        games += 1
        turns += state.turns_played
        now = clock()
        if now >= stop:
            return Sample(games, turns, now - start)


def dice_poker_play_game(budget: float, seed: int, clock: Clock) -> Sample:
    """The realistic API path: :func:`~tabletop_rules.simulate.play_game` with two
    :class:`~tabletop_rules.bots.RandomBot` (it also records every move in notation).
    """
    rules = dp.RULES
    config = dp.Config()
    games = turns = 0
    start = clock()
    stop = start + budget
    while True:
        game_seed = seed + games
        bots = [RandomBot(rules, seed=2 * game_seed), RandomBot(rules, seed=2 * game_seed + 1)]
        played = play_game(rules, bots, config, seed=game_seed)
        games += 1
        turns += played.final.turns_played
        now = clock()
        if now >= stop:
            return Sample(games, turns, now - start)


# --- OpenSpiel yacht -----------------------------------------------------------------------


def yacht_turns_per_game(game: Any) -> int:
    """Categories each game fills, all players together (12 each), checked against the
    game definition: the action strings of the scoring actions and one full playout.
    """
    players = game.num_players()
    categories = game.num_distinct_actions() - YACHT_FIRST_SCORE_ACTION
    state = game.new_initial_state()
    rng = random.Random(0)
    filled = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probabilities = {p for _, p in outcomes}
            if max(probabilities) - min(probabilities) > 1e-12:
                raise RuntimeError("yacht chance outcomes are not uniform: fix the sampler")
            state.apply_action(rng.choice(outcomes)[0])
            continue
        player = state.current_player()
        for action in state.legal_actions():
            text = state.action_to_string(player, action)
            if text.startswith("Score") != (action >= YACHT_FIRST_SCORE_ACTION):
                raise RuntimeError(f"unexpected yacht action {action}: {text!r}")
        action = rng.choice(state.legal_actions())
        filled += action >= YACHT_FIRST_SCORE_ACTION
        state.apply_action(action)
    if filled != players * categories:
        raise RuntimeError(f"a yacht game filled {filled} categories, not {players * categories}")
    return filled


def make_yacht_cpp_loop(game: Any, turns_per_game: int) -> Runner:
    """OpenSpiel's C++ loop: ``pyspiel.evaluate_bots`` with uniform random bots."""

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        players = game.num_players()
        bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
        evaluate_bots, new_initial_state = pyspiel.evaluate_bots, game.new_initial_state
        games = 0
        start = clock()
        stop = start + budget
        while True:
            evaluate_bots(new_initial_state(), bots, seed + games)
            games += 1
            now = clock()
            if now >= stop:
                return Sample(games, games * turns_per_game, now - start)

    return run


def make_yacht_python_loop(game: Any) -> Runner:
    """OpenSpiel through its Python API: ``legal_actions``/``chance_outcomes``/``apply_action``
    with the choice made in Python. Yacht's chance outcomes are equally likely (checked by
    :func:`yacht_turns_per_game`), so an outcome is drawn by index.
    """

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        rng = random.Random(seed)
        choice, rand = rng.choice, rng.random
        new_initial_state = game.new_initial_state
        games = turns = 0
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
                    turns += action >= YACHT_FIRST_SCORE_ACTION
                state.apply_action(action)
            games += 1
            now = clock()
            if now >= stop:
                return Sample(games, turns, now - start)

    return run


# --- dice poker through the OpenSpiel adapter ----------------------------------------------


def make_adapter_python_loop(game: Any) -> Runner:
    """Dice poker as ``python_tabletop_dice_poker`` (explicit chance), played through
    OpenSpiel's Python API exactly as :func:`make_yacht_python_loop` plays yacht, except
    that a chance outcome is drawn by its probability (dice poker's rolls are not equally
    likely). A turn is a box filled, read from the game state at the end.
    """
    from tabletop_rules.adapters.openspiel import game_state

    def run(budget: float, seed: int, clock: Clock) -> Sample:
        rng = random.Random(seed)
        choice, choices = rng.choice, rng.choices
        new_initial_state = game.new_initial_state
        games = turns = 0
        start = clock()
        stop = start + budget
        while True:
            state = new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, weights = zip(*state.chance_outcomes(), strict=True)
                    action = choices(actions, weights)[0]
                else:
                    action = choice(state.legal_actions())
                state.apply_action(action)
            games += 1
            turns += game_state(state).turns_played
            now = clock()
            if now >= stop:
                return Sample(games, turns, now - start)

    return run


# --- dice poker through the PettingZoo adapter ---------------------------------------------


def dice_poker_pettingzoo(budget: float, seed: int, clock: Clock) -> Sample:
    """Dice poker as a PettingZoo AEC environment (``adapters.pettingzoo.env``, wrapped as
    PettingZoo's classic games are), played as a training loop plays it: ``agent_iter``,
    ``last`` for the observation and its action mask, a random legal action, ``step``. A
    turn is a box filled, read from the game state at the end.
    """
    from tabletop_rules.adapters.pettingzoo import env as make_env

    environment = make_env("dice-poker")
    raw = environment.unwrapped
    choice = random.Random(seed).choice
    games = turns = 0
    start = clock()
    stop = start + budget
    while True:
        environment.reset(seed=seed + games)
        for _agent in environment.agent_iter():
            observation, _reward, termination, truncation, _info = environment.last()
            if termination or truncation:
                action = None
            else:
                action = choice(observation["action_mask"].nonzero()[0])
            environment.step(action)
        games += 1
        turns += raw.game_state.turns_played
        now = clock()
        if now >= stop:
            return Sample(games, turns, now - start)


# --- the run -------------------------------------------------------------------------------


def contenders() -> list[Contender]:
    """Every loop available here; OpenSpiel's only when pyspiel imports."""
    found = [
        Contender("dice_poker_loop", "dice poker, plain loop", dice_poker_loop),
        Contender("dice_poker_play_game", "dice poker, play_game+RandomBot", dice_poker_play_game),
    ]
    if importlib.util.find_spec("pettingzoo") is not None:
        found.append(
            Contender(
                "dice_poker_pettingzoo", "dice poker, PettingZoo adapter", dice_poker_pettingzoo
            )
        )
    if pyspiel is not None:
        game = pyspiel.load_game("yacht")
        turns = yacht_turns_per_game(game)
        found += [
            Contender(
                "yacht_cpp", "OpenSpiel yacht, C++ evaluate_bots", make_yacht_cpp_loop(game, turns)
            ),
            Contender("yacht_python", "OpenSpiel yacht, Python API", make_yacht_python_loop(game)),
        ]
        adapter = pyspiel.load_game("python_tabletop_dice_poker")
        found.append(
            Contender(
                "dice_poker_openspiel",
                "dice poker, OpenSpiel adapter, Python API",
                make_adapter_python_loop(adapter),
            )
        )
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, optionally write JSON."""
    args = timing_arguments(__doc__.splitlines()[0], argv)
    if pyspiel is None:
        print(
            f"note: pyspiel (OpenSpiel) is not installed, so there is no yacht anchor and no "
            f"ratio; install it with `{INSTALL_HINT}` (or `pip install open-spiel`).",
            file=sys.stderr,
        )
    packages = ("tabletop-rules", "attrs", "cattrs", "open-spiel")
    run_and_report(args, contenders(), packages, ANCHORS, "turn", "turn = box filled")
    if pyspiel is None:
        print(f"\nno OpenSpiel anchor (pyspiel missing): `{INSTALL_HINT}` adds the yacht rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
