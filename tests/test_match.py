"""Match: one game in play with its history, for front ends and notebooks, over every game."""

from __future__ import annotations

from typing import Any, assert_type

import pytest

from tabletop_rules import CHANCE, Match
from tabletop_rules import account as a
from tabletop_rules import dice_poker as dp
from tabletop_rules import palace as p
from tabletop_rules.account import events as account_events
from tabletop_rules.dice_poker import events as dice_events
from tabletop_rules.errors import IllegalMoveError, InvalidStateError, NotationError
from tabletop_rules.palace import events as palace_events
from tabletop_rules.palace.cards import DECK
from tabletop_rules.protocol import Ruleset, registered
from tabletop_rules.records import GameRecord, replay_states
from tabletop_rules.rng import Rng
from tabletop_rules.simulate import sample_outcome

GAMES = {rules.name: rules for rules in registered()}


def random_match(
    rules: Ruleset[Any, Any, Any], seed: int, moves: int | None = None
) -> Match[Any, Any, Any]:
    """A match of ``rules`` from ``seed``, played at random for ``moves`` moves or to the end."""
    match: Match[Any, Any, Any] = Match(rules, seed=seed)
    chooser = Rng.from_seed(seed)
    while not match.is_over and (moves is None or len(match.moves) < moves):
        if match.current_player == CHANCE:
            move, chooser = sample_outcome(rules.chance_probabilities(match.state), chooser)
        else:
            index, chooser = chooser.below(len(match.legal_moves))
            move = match.legal_moves[index]
        match.play(move)
    return match


def test_a_match_starts_at_the_rules_new_game() -> None:
    match = Match(p.RULES, p.Config(players=3), seed=5)
    assert match.state == p.new_game(p.Config(players=3), seed=5)
    assert match.history == (match.state,)
    assert (match.moves, match.events) == ((), ())
    assert (match.config, match.seed, match.rules) == (p.Config(players=3), 5, p.RULES)


def test_a_match_dealt_from_a_given_deck_keeps_the_deal_in_its_record() -> None:
    deal = tuple(reversed(DECK))
    match = Match(p.RULES, seed=0, deal=deal)
    assert match.state == p.new_game(seed=0, deal=deal)
    assert match.record.deal == deal


def test_without_a_seed_a_match_draws_one_and_keeps_it() -> None:
    match = Match(dp.RULES)
    assert match.state == dp.new_game(seed=match.seed)


def test_play_takes_a_move_or_its_notation_and_returns_its_events() -> None:
    by_text = Match(dp.RULES, seed=7)
    by_move = Match(dp.RULES, seed=7)
    events = by_text.play("roll")
    assert events == by_move.play(dp.Roll())
    assert by_text.state == by_move.state == dp.apply(dp.new_game(seed=7), dp.Roll())
    assert by_text.events == events
    assert by_text.moves == (dp.Roll(),)


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ("write chance", IllegalMoveError),
        ("castle kingside", NotationError),
        (dp.Write(dp.Box.CHANCE), IllegalMoveError),
        (42, IllegalMoveError),
        (p.Ready(), IllegalMoveError),
    ],
)
def test_a_bad_move_raises_the_rules_error_and_changes_nothing(
    bad: Any, error: type[Exception]
) -> None:
    match = Match(dp.RULES, seed=7)
    match.play("roll")
    match.play("write chance")
    before = (match.history, match.moves, match.events)
    with pytest.raises(error):
        match.play(bad)
    assert (match.history, match.moves, match.events) == before


def test_undo_takes_back_the_last_move_and_returns_it() -> None:
    match = Match(dp.RULES, seed=7)
    start = match.state
    match.play("roll")
    rolled = match.state
    match.play("write chance")
    assert match.undo() == dp.Write(dp.Box.CHANCE)
    assert (match.state, match.history, match.moves) == (rolled, (start, rolled), (dp.Roll(),))
    assert match.events == dp.apply_with_events(start, dp.Roll())[1]
    assert match.undo() == dp.Roll()
    assert match.state == start


def test_undo_at_the_start_of_the_game_is_refused() -> None:
    match = Match(a.RULES, seed=1)
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        match.undo()


def test_undo_turn_takes_back_to_the_seats_last_turn_its_own_move_included() -> None:
    match = Match(dp.RULES, dp.Config(stages=1), seed=7)
    match.play("roll")
    match.play("write chance")
    match.play("roll")
    seat_1_rolled = match.state
    match.play("write chance")
    match.play("roll")
    assert match.undo_turn(1) == (dp.Roll(), dp.Write(dp.Box.CHANCE))
    assert match.state == seat_1_rolled
    assert match.current_player == 1


def test_undo_turn_for_a_seat_that_has_not_moved_is_refused() -> None:
    match = Match(dp.RULES, seed=7)
    match.play("roll")
    before = (match.history, match.moves)
    with pytest.raises(IllegalMoveError, match="seat 1 has made no move to take back"):
        match.undo_turn(1)
    assert (match.history, match.moves) == before


def test_a_chance_outcome_is_a_move_of_its_own() -> None:
    match = Match(dp.RULES, dp.Config(auto_chance=False), seed=7)
    match.play("roll")
    assert match.current_player == CHANCE
    assert match.legal_moves == dp.legal_moves(match.state)
    match.play("dice 6 6 6 6 6")
    assert match.view(0).dice == (6, 6, 6, 6, 6)
    assert match.undo() == dp.read_move("dice 6 6 6 6 6")
    assert match.current_player == CHANCE


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_history_moves_and_events_follow_the_rules_step_by_step(name: str) -> None:
    rules = GAMES[name]
    match = random_match(rules, seed=11)
    state = match.history[0]
    events: list[Any] = []
    for move, after in zip(match.moves, match.history[1:], strict=True):
        state, happened = rules.apply_with_events(state, move)
        assert state == after
        events.extend(happened)
    assert match.events == tuple(events)
    assert match.state == state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_move_events_are_each_moves_events_in_the_order_of_the_moves(name: str) -> None:
    rules = GAMES[name]
    match = random_match(rules, seed=12, moves=40)
    per_move = match.move_events
    assert len(per_move) == len(match.moves)
    for before, move, happened in zip(match.history[:-1], match.moves, per_move, strict=True):
        assert rules.apply_with_events(before, move)[1] == happened
    assert tuple(event for events in per_move for event in events) == match.events
    match.undo()
    assert match.move_events == per_move[:-1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_view_score_winners_and_is_over_are_the_rules_on_the_current_state(name: str) -> None:
    rules = GAMES[name]
    for match in (random_match(rules, seed=3, moves=9), random_match(rules, seed=3)):
        state = match.state
        players = rules.players(rules.config_of(state))
        for seat in (None, *range(players)):
            assert match.view(seat) == rules.view(state, seat)
        assert match.view() == rules.view(state, None)
        assert match.score == rules.score(state)
        assert match.winners == rules.winners(state)
        assert match.is_over == rules.is_over(state)
        assert match.current_player == rules.current_player(state)
        assert match.legal_moves == rules.legal_moves(state)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_events_for_a_seat_are_the_events_as_that_seat_may_see_them(name: str) -> None:
    rules = GAMES[name]
    match = random_match(rules, seed=4, moves=30)
    for seat in (None, 0, 1):
        assert match.events_for(seat) == tuple(rules.redact(e, seat) for e in match.events)


def test_a_palace_spectator_does_not_see_the_cards_drawn() -> None:
    match = random_match(p.RULES, seed=4, moves=30)
    drawn = [event for event in match.events if type(event) is p.Drew]
    assert drawn
    seen = [event for event in match.events_for(None) if type(event) is p.Drew]
    assert all(event.cards is None for event in seen)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_record_replays_to_the_same_states_and_round_trips_through_json(name: str) -> None:
    rules = GAMES[name]
    match = random_match(rules, seed=21)
    record = match.record
    assert tuple(replay_states(record)) == match.history
    again = Match.from_record(rules, GameRecord.from_json(record.to_json()))
    assert (again.history, again.moves, again.events) == (match.history, match.moves, match.events)


def test_a_record_of_an_unfinished_game_continues_where_it_stopped() -> None:
    match = random_match(p.RULES, seed=9, moves=25)
    again = Match.from_record(match.record)
    assert again.state == match.state
    move = again.legal_moves[0]
    match.play(move)
    again.play(move)
    assert again.record == match.record


def test_from_record_names_the_move_that_cannot_be_played() -> None:
    record = GameRecord("dice-poker", dp.Config(), 9, ("roll", "write chance", "write pair"))
    with pytest.raises(InvalidStateError, match=r"move 3 \('write pair'\) cannot be played"):
        Match.from_record(record)


def test_from_record_with_another_games_rules_is_refused() -> None:
    record = Match(dp.RULES, seed=1).record
    with pytest.raises(InvalidStateError, match="a dice-poker record cannot be replayed as palace"):
        Match.from_record(p.RULES, record)


def test_an_equivalent_play_is_played_as_the_listed_one_so_the_record_replays() -> None:
    match = Match(p.RULES, seed=1)
    match.play("ready")
    match.play("ready")
    hand = match.state.hands[0]
    listed = next(m for m in match.legal_moves if type(m) is p.Play and len(m.cards) == 1)
    same_rank = [card for card in hand if card.rank == listed.cards[0].rank]
    assert len(same_rank) > 1, "seed 1 gives seat 0 two cards of its lowest playable rank"
    other = p.Play((same_rank[-1],))
    assert other != listed
    match.play(other)
    assert match.moves[-1] is listed
    assert tuple(replay_states(match.record)) == match.history


def test_the_repr_says_the_game_the_seed_the_moves_and_who_moves() -> None:
    match = Match(dp.RULES, seed=7)
    assert repr(match) == "<Match dice-poker seed=7: 0 moves, seat 0 to move>"
    match.play("roll")
    assert repr(match) == "<Match dice-poker seed=7: 1 move, seat 0 to move>"
    manual = Match(dp.RULES, dp.Config(auto_chance=False), seed=7)
    manual.play("roll")
    assert repr(manual) == "<Match dice-poker seed=7: 1 move, chance to move>"
    finished = random_match(a.RULES, seed=1)
    assert repr(finished).endswith("moves, over>")


def test_parse_reads_a_typed_move_without_playing_it() -> None:
    match = Match(a.RULES, seed=1)
    assert match.parse("place 3") == a.Place(3)
    assert match.moves == ()


def test_a_match_is_typed_by_its_rules() -> None:
    match = Match(dp.RULES, seed=1)
    assert_type(match, Match[dp.Config, dp.State, dp.Move, dp.View, dp.Event])
    assert_type(match.state, dp.State)
    assert_type(match.view(0), dp.View)
    assert_type(match.legal_moves, tuple[dp.Move, ...])
    assert_type(match.play("roll"), tuple[dp.Event, ...])
    assert_type(match.config, dp.Config)
    loaded = Match.from_record(dp.RULES, match.record)
    assert_type(loaded.state, dp.State)
    assert_type(Match(p.RULES).view(1), p.View)
    assert_type(Match(a.RULES).events, tuple[a.Event, ...])


def test_a_seat_that_is_not_on_turn_is_refused_before_its_move_is_read() -> None:
    match = Match(p.RULES, seed=1)
    match.play("ready", seat=0)
    with pytest.raises(IllegalMoveError, match="seat 0 has no move now"):
        match.play("ready", seat=0)
    with pytest.raises(IllegalMoveError, match="seat 0 has no move now"):
        match.play("no such move", seat=0)
    match.play("ready", seat=1)
    assert match.moves == (p.Ready(), p.Ready())


# --- the fair take-back ------------------------------------------------------------------

REVEALING_EVENTS = {
    # The events that show an outcome no seat could know before it: the oracle for the
    # fair take-back, written from the games' rules rather than from the take-back's code.
    "dice-poker": (dice_events.Rolled,),
    "palace": (palace_events.Drew, palace_events.TurnedBlind),
    "account": (account_events.Rolled, account_events.Drew, account_events.Reshuffled),
}


def shows_a_hidden_outcome(name: str, events: tuple[Any, ...]) -> bool:
    return any(
        isinstance(event, REVEALING_EVENTS[name])
        or (type(event) is palace_events.Played and event.source == "face_down")
        for event in events
    )


def test_take_back_refuses_a_roll_whose_dice_the_seat_has_seen() -> None:
    match = Match(dp.RULES, seed=7)
    rolled = match.play("roll")[0]
    before = (match.history, match.moves)
    with pytest.raises(IllegalMoveError, match=r"cannot take back move 1 \(P0 roll\): it drew"):
        match.take_back(0)
    assert (match.history, match.moves) == before
    assert not match.can_take_back(0)
    # What the refusal prevents: the raw undo lets the same dice come again.
    match.undo_turn(0)
    assert match.play("roll")[0] == rolled


def test_take_back_takes_back_a_seats_quiet_moves_since_its_last_roll() -> None:
    match = Match(dp.RULES, dp.Config(stages=1, stage_orders="announce"), seed=7)
    match.play("roll")
    match.play("announce pair")
    assert match.can_take_back(0)
    assert match.take_back(0) == (dp.Announce(dp.Box.PAIR),)
    assert match.moves == (dp.Roll(),)


def test_take_back_refuses_to_cross_another_seats_roll() -> None:
    match = Match(dp.RULES, seed=7)
    match.play("roll")
    match.play("write chance")
    match.play("roll")
    with pytest.raises(IllegalMoveError, match=r"move 3 \(P1 roll\)"):
        match.take_back(0)
    assert len(match.moves) == 3


def test_take_back_refuses_dice_entered_at_a_chance_point() -> None:
    match = Match(dp.RULES, dp.Config(auto_chance=False), seed=7)
    match.play("roll")
    assert match.current_player == CHANCE
    assert match.can_take_back(0), "the throw is announced, no die has landed"
    match.play("dice 6 6 6 6 6")
    with pytest.raises(IllegalMoveError, match=r"move 2 \(chance dice 6 6 6 6 6\).*chance"):
        match.take_back(0)
    assert match.moves == (dp.Roll(), dp.Dice((6, 6, 6, 6, 6)))


def test_take_back_refuses_a_palace_card_drawn_from_the_stock() -> None:
    match = Match(p.RULES, seed=3)
    match.play("ready")
    match.play("ready")
    first = match.current_player
    assert first is not None
    events = match.play(match.legal_moves[0])
    assert any(type(event) is palace_events.Drew for event in events)
    with pytest.raises(IllegalMoveError, match="showed a seat cards that the others do not see"):
        match.take_back(first)
    assert len(match.moves) == 3


def test_take_back_takes_back_a_seats_own_swaps_which_show_only_its_cards() -> None:
    match = Match(p.RULES, seed=3)
    match.play("swap 3C 4D")
    match.play("swap 4D 5C")
    assert match.take_back(0) == (p.read_move("swap 4D 5C"),)
    match.play("ready")
    assert match.current_player == 1
    assert match.take_back(0) == (p.Ready(),)


def blind_play_match(seed: int) -> Match[Any, Any, Any] | None:
    """A palace match played at random until a seat plays a face-down card; ``None`` if
    the game ends first.
    """
    match: Match[Any, Any, Any] = Match(p.RULES, seed=seed)
    chooser = Rng.from_seed(seed)
    while not match.is_over:
        blind = [move for move in match.legal_moves if type(move) is p.PlayBlind]
        if blind:
            match.play(blind[0])
            return match
        index, chooser = chooser.below(len(match.legal_moves))
        match.play(match.legal_moves[index])
    return None


def test_take_back_refuses_a_turned_blind_card() -> None:
    refused = 0
    for seed in range(20):
        match = blind_play_match(seed)
        if match is None:
            continue
        seat = p.current_player(match.history[-2])
        assert seat is not None
        with pytest.raises(IllegalMoveError, match="could not foresee"):
            match.take_back(seat)
        refused += 1
    assert refused >= 4


def test_take_back_refuses_a_bots_play_that_showed_a_card_of_its_hand() -> None:
    for seed in range(20):
        match: Match[Any, Any, Any] = Match(p.RULES, seed=seed)
        chooser = Rng.from_seed(seed)
        while not match.is_over:
            seen = match.view(0)
            hidden = [
                move
                for move in match.legal_moves
                if type(move) is p.Play and match.current_player == 1 and seen.stock_size == 0
                if not set(move.cards) & set(seen.known[1])
            ]
            if hidden and match.can_take_back(0):
                match.play(hidden[0])
                with pytest.raises(IllegalMoveError, match="showed seat 0 cards of P1's"):
                    match.take_back(0)
                return
            index, chooser = chooser.below(len(match.legal_moves))
            match.play(match.legal_moves[index])
    raise AssertionError("no seed gave seat 1 a hidden card to play with the stock empty")


def test_take_back_refuses_the_account_games_die_and_takes_back_placements() -> None:
    match = Match(a.RULES, seed=1)
    match.play("place 3")
    match.play("place 5")
    assert match.take_back(0) == (a.Place(5), a.Place(3))
    match.play("place 3")
    match.play("place 5")
    match.play("roll")
    with pytest.raises(IllegalMoveError, match=r"move 3 \(P0 roll\): it drew from the game's"):
        match.take_back(0)
    manual = Match(a.RULES, a.Config(auto_chance=False), seed=1)
    for move in ("place 3", "place 5", "roll"):
        manual.play(move)
    assert manual.current_player == CHANCE
    manual.play(manual.legal_moves[0])
    with pytest.raises(IllegalMoveError, match="was a chance outcome"):
        manual.take_back(0)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_take_back_never_crosses_a_move_that_showed_a_hidden_outcome(name: str) -> None:
    """Issue 16, point 4, for every game: at every point of random games, for every seat,
    a take-back that goes ahead crosses no chance outcome and no event that shows what no
    seat could know; it takes back what undo_turn would, and playing the moves again
    returns to the same states; a refused one leaves the match unchanged.
    """
    rules = GAMES[name]
    taken = refused = 0
    for seed in range(2):
        match = random_match(rules, seed=seed, moves=60)
        history, moves = match.history, match.moves
        for end in range(len(moves), 0, -1):
            while len(match.moves) > end:
                match.undo()
            for seat in range(rules.players(match.config)):
                if seat not in map(rules.current_player, match.history[:-1]):
                    continue
                turn = max(i for i in range(end) if rules.current_player(history[i]) == seat)
                span = range(turn, end)
                if not match.can_take_back(seat):
                    with pytest.raises(IllegalMoveError, match="a fair take-back never crosses"):
                        match.take_back(seat)
                    assert match.moves == moves[:end]
                    refused += 1
                    continue
                assert all(rules.current_player(history[i]) != CHANCE for i in span)
                assert not any(shows_a_hidden_outcome(name, match.move_events[i]) for i in span)
                assert match.take_back(seat) == moves[turn:end][::-1]
                for move in moves[turn:end]:
                    match.play(move)
                assert match.history == history[: end + 1]
                taken += 1
    assert taken
    assert refused
