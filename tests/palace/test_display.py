"""The table as text: each seat's rows, hand size, known cards and the viewer's own hand;
the pile, stock and burned cards; the finishing order, scores and a status line. A seat's
drawing shows exactly what that seat may know."""

from __future__ import annotations

import re

import pytest
from hypothesis import given

from tabletop_rules import palace as p
from tabletop_rules.palace.cards import DECK
from tabletop_rules.palace.config import MAX_TURNS
from tabletop_rules.palace.state import MAX_SWAPS
from tabletop_rules.palace.table import PILE_SHOWN, WIDTH
from tabletop_rules.rng import Rng

from .helpers import cards, play, position
from .test_properties import configs, playout, playout_settings, seeds

SEAT_LINE = re.compile(r"^[> ] P(\d+)\b")


def mid_game() -> p.State:
    """Seat 1 on turn; seat 0 holds 4C 7H 9S (9S known), seat 1 holds 5D 8D QC KH (KH
    known) and has turned its middle face-down card."""
    return position(
        hands=["4C 7H 9S", "5D 8D QC KH"],
        known=["9S", "KH"],
        up=["7S JH QH", "- - -"],
        down=["2C 6C 8C", "AC - AD"],
        pile="4D 6D 9D",
        seat=1,
    )


def drawn(game: p.State | p.View) -> list[str]:
    text: str = p.display(game)
    return text.splitlines()


def seat_lines(game: p.State | p.View, seat: int) -> list[str]:
    """The seat's line and the lines under it (its hand, its known cards)."""
    lines = drawn(game)
    start = next(
        i for i, line in enumerate(lines) if (m := SEAT_LINE.match(line)) and m[1] == str(seat)
    )
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("    "):
            break
        block.append(line)
    return block


def under(game: p.State | p.View, seat: int, label: str) -> list[str]:
    """The cards on the seat's ``in hand`` or ``known`` lines (several when wrapped)."""
    block = seat_lines(game, seat)[1:]
    found: list[str] = []
    current = None
    for line in block:
        words = line.split()
        if line.lstrip().startswith(("in hand", "known")):
            current = "in hand" if words[0] == "in" else "known"
            words = words[2:] if current == "in hand" else words[1:]
        if current == label:
            found += words
    return found


def rows(game: p.State | p.View, seat: int) -> tuple[list[str], list[str]]:
    """The seat's face-up and face-down rows as drawn, slot by slot."""
    found = re.search(r"face up (.*)  face down (.*)  hand", seat_lines(game, seat)[0])
    assert found is not None
    return found[1].split(), found[2].split()


def tokens(text: str) -> set[str]:
    return set(re.split(r"[\s,:()]+", text))


def status(game: p.State | p.View) -> str:
    return drawn(game)[-1]


def test_a_seats_view_draws_every_seat_then_the_pile_stock_and_status() -> None:
    assert drawn(p.view(mid_game(), 0)) == [
        "  P0 (you)  face up  7S  JH  QH  face down ## ## ##  hand 3",
        "            in hand  4C  7H  9S",
        "            known    9S",
        "> P1        face up  --  --  --  face down ## -- ##  hand 4",
        "            known    KH",
        "pile 3, top last: 4D 6D 9D",
        "stock 0, burned 34",
        "to move: P1, turn 1 of 1000",
    ]


def test_each_seat_shows_its_face_up_row_with_empty_slots_as_dashes() -> None:
    state = position(
        p.Config(face_up_play="from_table"),
        hands=["4C", "5D"],
        up=["7S - 10H", "- QC -"],
        down=["2C 6C 8C", "AC KC AD"],
    )
    assert rows(state, 0)[0] == ["7S", "--", "10H"]
    assert rows(state, 1)[0] == ["--", "QC", "--"]


def test_each_seat_shows_its_face_down_row_as_hidden_slots_never_the_cards() -> None:
    state = mid_game()
    face_down = {"2C", "6C", "8C", "AC", "AD"}
    for seat in (None, 0, 1):
        text = p.display(p.view(state, seat))
        assert not tokens(text) & face_down
        assert rows(p.view(state, seat), 0)[1] == ["##", "##", "##"]
        assert rows(p.view(state, seat), 1)[1] == ["##", "--", "##"]


def test_each_seat_shows_its_hand_size() -> None:
    state = mid_game()
    assert seat_lines(state, 0)[0].endswith("hand 3")
    assert seat_lines(state, 1)[0].endswith("hand 4")


def test_the_viewer_sees_its_own_hand_sorted_as_the_view_gives_it() -> None:
    seen = p.view(mid_game(), 1)
    assert under(seen, 1, "in hand") == [str(card) for card in seen.hand]
    assert under(seen, 1, "in hand") == ["5D", "8D", "QC", "KH"]


def test_no_seat_sees_another_seats_hand_only_its_known_cards() -> None:
    state = mid_game()
    seen = p.view(state, 0)
    assert under(seen, 1, "in hand") == []
    assert under(seen, 1, "known") == ["KH"]
    assert not tokens(p.display(seen)) & {"5D", "8D", "QC"}
    assert not tokens(p.display(p.view(state, 1))) & {"4C", "7H"}


def test_known_hand_cards_are_shown_for_every_seat_the_viewer_included() -> None:
    state = mid_game()
    for seat in (None, 0, 1):
        seen = p.view(state, seat)
        assert under(seen, 0, "known") == ["9S"]
        assert under(seen, 1, "known") == ["KH"]


def test_the_spectator_sees_no_hand_and_no_seat_is_marked_as_its_own() -> None:
    text = p.display(p.view(mid_game(), None))
    assert "in hand" not in text
    assert "(you)" not in text
    assert not tokens(text) & {"4C", "7H", "5D", "8D", "QC"}


@pytest.mark.parametrize("seat", [None, 0, 1])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seats_drawing_does_not_change_when_what_it_cannot_see_is_dealt_again(
    seat: int | None, seed: int
) -> None:
    state = mid_game()
    seen = p.view(state, seat)
    resampled = p.determinize(seen, Rng.from_seed(seed))
    assert resampled.face_down != state.face_down or resampled.hands != state.hands
    assert p.display(p.view(resampled, seat)) == p.display(seen)


def test_the_viewer_and_the_seat_on_turn_are_marked() -> None:
    seen = p.view(mid_game(), 0)
    assert seat_lines(seen, 0)[0].startswith("  P0 (you)")
    assert seat_lines(seen, 1)[0].startswith("> P1 ")
    assert seat_lines(p.view(mid_game(), 1), 1)[0].startswith("> P1 (you)")


def test_the_pile_is_drawn_bottom_first_with_its_top_card_last_and_its_size() -> None:
    state = position(hands=["4C", "5D"], pile="6H 2S 9D")
    assert "pile 3, top last: 6H 2S 9D" in drawn(state)
    assert "pile empty" in drawn(position(hands=["4C", "5D"]))


def test_a_long_pile_shows_only_its_top_cards_and_counts_the_rest() -> None:
    pile = "4C 4D 4H 5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H JC JD"
    state = position(hands=["QC", "QD"], pile=pile)
    top = pile.split()[-PILE_SHOWN:]
    hidden = len(pile.split()) - PILE_SHOWN
    assert f"pile 20, top last: ({hidden} more) {' '.join(top)}" in drawn(state)


def test_the_stock_and_the_burned_cards_are_drawn_by_size() -> None:
    state = position(hands=["4C", "5D"], stock="7S 8S 9S")
    assert f"stock 3, burned {len(state.burned)}" in drawn(state)
    assert not tokens(p.display(state)) & {"7S", "8S", "9S"}


def test_status_in_the_swap_phase_counts_the_swaps_made() -> None:
    state = p.new_game(seed=3)
    assert status(state) == f"to move: P0, swap phase, 0 of {MAX_SWAPS} swaps made"
    state = p.apply(state, p.parse_move(state, "swap 3C 5C"))
    assert status(state) == f"to move: P0, swap phase, 1 of {MAX_SWAPS} swaps made"
    assert under(p.view(state, 1), 0, "known") == ["5C"]


def test_status_in_play_names_the_seat_and_counts_the_turns() -> None:
    state = position(p.Config(max_turns=50), hands=["4C", "5D"], seat=1, turns=6)
    assert status(state) == "to move: P1, turn 7 of 50"


def test_status_says_the_seat_on_turn_must_take_the_pile_under_a_3() -> None:
    state = position(hands=["4C 10D", "QH"], pile="9S 3D", pending="take")
    assert status(state) == "to move: P0, turn 1 of 1000, must take the pile (a 3 on top)"


def test_status_after_four_of_a_kind_offers_another_set_or_the_end_of_the_turn() -> None:
    state = position(hands=["4C", "QH"], pile="9S 9C 9D 9H", pending="extra")
    assert status(state) == (
        "to move: P0, turn 1 of 1000, four of a kind: extra play or end the turn"
    )


def test_status_after_a_burn_says_the_seat_plays_again() -> None:
    state = position(hands=["4C", "QH"], pending="replay")
    assert status(state) == "to move: P0, turn 1 of 1000, the pile burned: plays again"


def test_game_over_names_the_winner_and_shows_the_finishing_order_and_scores() -> None:
    state = p.apply(position(hands=["9S", "5D 8D"], pile="4D"), play("9S"))
    assert p.is_over(state)
    assert drawn(state)[-3:] == ["finished: P0", "scores: P0 1, P1 0", "game over: winner P0"]
    assert not any(line.startswith(">") for line in drawn(state))


def test_under_play_until_last_the_finishing_order_is_drawn_in_order() -> None:
    config = p.Config(players=3, play_until="last")
    state = position(config, hands=["9S", "5D 8D", ""], pile="4D", finished=(2,))
    assert "finished: P2" in drawn(state)
    state = p.apply(state, play("9S"))
    assert drawn(state)[-3:] == [
        "finished: P2, P0",
        "scores: P0 1, P1 0, P2 2",
        "game over: winner P2",
    ]


def test_game_over_at_the_turn_limit_says_so_and_may_have_no_winner() -> None:
    state = p.apply(position(p.Config(max_turns=1), hands=["9S 9C", "5D"]), play("9S"))
    assert p.is_over(state)
    assert status(state) == "game over, turn limit 1 reached: no winner"
    assert "finished" not in p.display(state)


def test_a_state_draws_as_its_spectator_view() -> None:
    state = mid_game()
    assert p.display(state) == p.display(p.view(state, None))
    swap = p.new_game(seed=3)
    assert p.display(swap) == p.display(p.view(swap, None))


def test_eight_players_fit_80_columns() -> None:
    state = p.new_game(p.Config(players=8, decks=2), seed=5)
    for seat in (None, *range(8)):
        lines = drawn(p.view(state, seat))
        assert max(map(len, lines)) <= WIDTH == 80
        assert sum(bool(SEAT_LINE.match(line)) for line in lines) == 8


def test_long_hands_wrap_within_80_columns_and_keep_every_card() -> None:
    config = p.Config(decks=4)
    held = " ".join(str(card) for card in DECK[:40] for _copy in range(2))
    state = position(config, hands=[held, "AS"], known=[held, ""], pile="QS")
    seen = p.view(state, 0)
    assert max(map(len, drawn(seen))) <= WIDTH
    assert under(seen, 0, "in hand") == [str(card) for card in seen.hand]
    assert under(seen, 0, "known") == [str(card) for card in cards(held)]
    assert len(seat_lines(seen, 0)) > 3


def test_the_most_seats_fit_80_columns() -> None:
    config = p.Config(players=p.MAX_PLAYERS, decks=4, hand_size=1)
    state = p.new_game(config, seed=1)
    lines = drawn(p.view(state, p.MAX_PLAYERS - 1))
    assert max(map(len, lines)) <= WIDTH
    assert lines[p.MAX_PLAYERS - 1].startswith(f"  P{p.MAX_PLAYERS - 1} (you)")


def test_the_longest_status_fits_80_columns() -> None:
    config = p.Config(players=p.MAX_PLAYERS, decks=4, hand_size=1, max_turns=MAX_TURNS)
    last = p.MAX_PLAYERS - 1
    state = position(
        config,
        hands=[str(card) for card in DECK[20 : 20 + p.MAX_PLAYERS]],
        pile="9S 9C 9D 9H",
        pending="extra",
        seat=last,
        turns=MAX_TURNS - 1,
    )
    assert status(state) == (
        f"to move: P{last}, turn {MAX_TURNS} of {MAX_TURNS}, "
        "four of a kind: extra play or end the turn"
    )
    assert len(status(state)) <= WIDTH


def test_lines_have_no_trailing_spaces_and_no_final_newline() -> None:
    for seat in (None, 0, 1):
        text = p.display(p.view(mid_game(), seat))
        assert not text.endswith("\n")
        assert all(line == line.rstrip() for line in text.splitlines())


@playout_settings
@given(configs(), seeds, seeds)
def test_every_reachable_state_draws_each_seat_only_what_it_may_know(
    config: p.Config, seed: int, chooser: int
) -> None:
    for state, _move in playout(config, seed, chooser):
        assert p.display(state) == p.display(p.view(state, None))
        for seat in (None, *range(config.players)):
            seen = p.view(state, seat)
            text = p.display(seen)
            assert all(len(line) <= WIDTH and line == line.rstrip() for line in text.splitlines())
            again = p.determinize(seen, Rng.from_seed(seed))
            assert p.display(p.view(again, seat)) == text
