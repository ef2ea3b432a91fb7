"""The library in twenty lines: play dice poker moves, look, store, reload and replay.

python examples/quickstart.py
"""

from __future__ import annotations

from tabletop_rules import dice_poker as dp
from tabletop_rules.records import GameRecord, replay
from tabletop_rules.serialize import dumps, loads


def main() -> None:
    state = dp.new_game(dp.Config(players=2), seed=42)  # a seed makes the game reproducible
    record = GameRecord.start(dp.RULES, state)
    print("legal now:", ", ".join(dp.format_move(move) for move in dp.legal_moves(state)[:4]))
    for text in ("roll", "roll keep 5 5", "write fives"):
        move = dp.parse_move(state, text)  # text notation -> a checked, legal move
        state = dp.apply(state, move)  # a new state; the old one is unchanged
        record = record.play(move)
        print(f"{text:<14} dice {state.dice}  scores {dp.score(state)}")
    seen = dp.view(state, seat=1)  # what seat 1 may know: no RNG, no seed
    print("seat 1 sees: to move", seen.current_player, "fences", seen.fences)
    text = dumps(state)  # versioned JSON; loads validates every invariant
    assert loads(text, dp.State) == state
    print("state as JSON:", len(text), "characters")
    assert replay(GameRecord.from_json(record.to_json())) == state
    print("record:", record.to_json())


if __name__ == "__main__":
    main()
