"""Hostile records never crash the interpreter: each runs in a child process, which must
end with the library's error, not a signal (the compiled kernels read raw memory). The
records: another engine's (other configs, another game), a record whose arrays were made
writable and given extremes, and one built by hand with legal lists naming any action."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest

BACKENDS = [
    pytest.param(
        "numba",
        marks=pytest.mark.skipif(
            importlib.util.find_spec("numba") is None, reason="the numba extra is not installed"
        ),
    ),
]

_PRELUDE = """
import numpy as np
from tabletop_rules import account, batch, dice_poker, palace
from tabletop_rules.errors import TabletopError

BACKEND = {backend!r}
SIZE = 8
SEEDS = np.arange(SIZE, dtype=np.uint64)
refused = 0


def engine(game, config):
    return batch.engine(game, config, SIZE, backend=BACKEND)


def played(engine, games, steps=6):
    generator = np.random.default_rng(1)
    for _ in range(steps):
        games = engine.step(games, batch.random_actions(games, generator), reset=SEEDS)
    return games


def every_entry(engine, games):
    # each entry refuses the record, or reads it as the rules allow: never a crash
    global refused
    generator = np.random.default_rng(2)
    calls = [
        lambda: engine.step(games, batch.random_actions(games, generator)),
        lambda: engine.step(games, np.zeros(SIZE, dtype=np.int64)),
        lambda: engine.restart(games, SEEDS, np.ones(SIZE, dtype=bool)),
        lambda: engine.observe(games),
        lambda: engine.winners(games),
    ]
    for call in calls:
        try:
            call()
        except TabletopError:
            refused += 1
    for i in range(SIZE):
        try:
            state = engine.state(games, i)
        except TabletopError:
            refused += 1
        else:
            engine.rules.check_state(state)  # a state given is one the rules take
"""

_FOREIGN = """
pairs = [
    ("dice-poker", dice_poker.Config(players=2), dice_poker.Config(players=6)),
    ("dice-poker", dice_poker.Config(stages=1), dice_poker.Config(stages=3)),
    ("palace", palace.Config(players=2), palace.Config(players=4)),
    ("account", account.Config(players=2), account.Config(players=3)),
]
for game, mine, theirs in pairs:
    games = played(engine(game, mine), engine(game, mine).reset(SEEDS))
    every_entry(engine(game, theirs), games)
    assert refused, "a foreign record was played"
    refused = 0
games = engine("palace", palace.Config()).reset(SEEDS)
every_entry(engine("dice-poker", dice_poker.Config()), games)
assert refused
print("refused")
"""

_WRITTEN = """
GAMES = {{
    "dice-poker": dice_poker.Config(),
    "palace": palace.Config(),
    "account": account.Config(players=3),
}}
game = {game!r}
kernel = engine(game, GAMES[game])
base = played(kernel, kernel.reset(SEEDS))
named = {{
    "dice-poker": [("turns", -30000), ("pending", 5000), ("dice", 300), ("open_masks", -1)],
    "palace": [("seat", 100), ("pile_size", 300), ("hand_size", -5), ("deal", 100)],
    "account": [("seat", 100), ("owned", 100), ("moved_count", 100), ("markers", 100)],
}}[game]
extremes = []
for name, value in base.data.items():
    kind = np.iinfo(value.dtype) if value.dtype.kind in "iu" else None
    numbers = [True, False]
    if kind:
        numbers = [kind.min, kind.max, 0] + ([-1] if value.dtype.kind == "i" else [])
    for number in numbers:
        extremes.append((name, number))
for name, number in named + extremes:
    games = played(kernel, kernel.reset(SEEDS))
    array = games.data[name]
    array.flags.writeable = True  # the array owns its memory: a caller may do this
    array.reshape(-1)[:3] = number
    every_entry(kernel, games)
# legal lists forged by hand: each action (a sample of palace's 2,918) at three depths
for steps in (0, 6, 40):
    games = played(kernel, kernel.reset(SEEDS), steps)
    for action in range(0, kernel.num_actions, 1 + kernel.num_actions // 300):
        forged = batch.Games(
            current_player=games.current_player,
            scores=games.scores,
            over=games.over,
            data=dict(games.data),
            legal_actions=np.full((SIZE, 1), action, dtype=np.int16),
            num_actions=kernel.num_actions,
            made_by=kernel.key,
        )
        try:
            kernel.step(forged, np.full(SIZE, action))
        except TabletopError:
            refused += 1
print("refused" if refused else "played")
"""


def _run_child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False
    )


def _assert_ended_with_the_librarys_answer(child: subprocess.CompletedProcess[str]) -> None:
    assert child.returncode >= 0, f"the child died of signal {-child.returncode}: {child.stderr}"
    assert child.returncode == 0, child.stderr[-3000:]
    assert child.stdout.strip().endswith("refused"), child.stdout


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_foreign_record_is_refused_in_a_child_never_a_crash(backend: str) -> None:
    code = textwrap.dedent(_PRELUDE.format(backend=backend)) + textwrap.dedent(_FOREIGN)
    _assert_ended_with_the_librarys_answer(_run_child(code))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game", ["dice-poker", "palace", "account"])
def test_a_written_record_is_refused_in_a_child_never_a_crash(backend: str, game: str) -> None:
    code = textwrap.dedent(_PRELUDE.format(backend=backend))
    code += textwrap.dedent(_WRITTEN.format(game=game))
    _assert_ended_with_the_librarys_answer(_run_child(code))
