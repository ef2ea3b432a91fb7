"""Coverage-guided fuzzing of every loader with atheris (optional; not run by the tests).

The conformance suite's hypothesis fuzzing mutates valid documents with the structure
in mind; this harness lets libFuzzer's coverage feedback find its own way in. Each input
is read as text by ``loads`` and by ``GameRecord.from_json`` (and replayed): anything but
a ``TabletopError`` or a value that passes the game's checks is a crash.

    pip install atheris
    python fuzz/atheris_loaders.py --seed-corpus fuzz/corpus    # valid documents to start from
    python fuzz/atheris_loaders.py fuzz/corpus -atheris_runs=1000000
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from tabletop_rules import dice_poker as dp
    from tabletop_rules.errors import TabletopError
    from tabletop_rules.records import GameRecord, replay_states
    from tabletop_rules.serialize import dumps, loads

from tabletop_rules.testing import check_loaded, random_playout  # the checks, not the target

RULES = dp.RULES


def test_one_input(data: bytes) -> None:
    """One fuzz case: the input as text, through ``loads`` and through a record replay."""
    text = atheris.FuzzedDataProvider(data).ConsumeUnicode(len(data))
    try:
        obj = loads(text)
    except TabletopError:
        pass
    else:
        check_loaded(RULES, obj)
    try:
        states = list(replay_states(GameRecord.from_json(text)))
    except TabletopError:
        return
    for state in states:
        RULES.check_state(state)


def write_seed_corpus(folder: Path) -> None:
    """Valid documents of every kind, from two seeded games, to start the fuzzer from."""
    folder.mkdir(parents=True, exist_ok=True)
    configs = (dp.Config(players=2), dp.Config(players=3, stage_orders="down", auto_chance=False))
    documents: list[str] = []
    for number, config in enumerate(configs):
        playout = random_playout(RULES, config, seed=number, chooser_seed=number)
        record = GameRecord.start(RULES, playout.states[0])
        for index, (state, move) in enumerate(zip(playout.states, playout.moves, strict=False)):
            if index % 40 == 0:
                documents += [dumps(state), dumps(move), dumps(RULES.view(state, 0))]
                documents.append(record.to_json())
            record = record.play(move)
        documents += [dumps(config), record.to_json()]
    for number, document in enumerate(documents):
        (folder / f"seed-{number:03}.json").write_text(document)
    print(f"wrote {len(documents)} documents to {folder}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--seed-corpus"]:
        write_seed_corpus(Path(sys.argv[2]))
    else:
        atheris.Setup(sys.argv, test_one_input)
        atheris.Fuzz()
