"""Every game's move reader opens the same way, through one shared reader of move text."""

from __future__ import annotations

import pytest

from tabletop_rules import account, dice_poker, palace
from tabletop_rules._validation import move_text, move_words
from tabletop_rules.errors import NotationError


class _Loud(str):
    def __str__(self) -> str:
        return "ready"


def test_move_text_is_read_by_one_shared_opening() -> None:
    assert move_words(_Loud("  Play  7h "), "play", str.upper) == ("  Play  7h ", ["PLAY", "7H"])
    assert type(move_text(_Loud("roll"))) is str
    with pytest.raises(NotationError, match=r"^empty move text: moves are roll or die$"):
        move_words(" \t ", "roll or die")
    with pytest.raises(NotationError, match=r"^empty move text$"):
        move_words("")
    for read in (account.read_move, palace.read_move, dice_poker.read_move):
        with pytest.raises(NotationError, match=r"^move text is a string, not b'roll'$"):
            read(b"roll")  # type: ignore[arg-type]
        with pytest.raises(NotationError, match=r"^empty move text"):
            read("   ")
    assert palace.read_move(_Loud("take")) == palace.TakePile()
