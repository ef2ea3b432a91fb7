"""RandomBot, play_game and sample_outcome: reproducible, legal, and exact about chance."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules.bots import RandomBot
from tabletop_rules.errors import BotSelectionError, IllegalMoveError
from tabletop_rules.records import GameRecord, replay, replay_states
from tabletop_rules.rng import Rng
from tabletop_rules.simulate import play_game, sample_outcome


def seen(state: dp.State) -> dp.View:
    """The view of the seat on turn (seat 0 once the game is over)."""
    return dp.view(state, dp.current_player(state) or 0)


def moves_of(bot: RandomBot[dp.Move], state: dp.State, turns: int) -> list[dp.Move]:
    """The bot playing every seat for ``turns`` moves (dice thrown by the state)."""
    moves = []
    for _ in range(turns):
        move = bot.choose(seen(state))
        moves.append(move)
        state = dp.apply(state, move)
    return moves


# --- RandomBot ------------------------------------------------------------------------------


def test_random_bot_is_reproducible_for_a_seed() -> None:
    state = dp.new_game(seed=3)
    first = moves_of(RandomBot(dp.RULES, seed=42), state, 60)
    again = moves_of(RandomBot(dp.RULES, seed=42), state, 60)
    other = moves_of(RandomBot(dp.RULES, seed=43), state, 60)
    assert first == again
    assert first != other


def test_random_bot_draws_below_the_number_of_legal_moves() -> None:
    state = dp.apply(dp.new_game(seed=3), dp.Roll())
    legal = dp.legal_moves(state)
    rng = Rng.from_seed(11)
    expected = []
    for _ in range(5):
        index, rng = rng.below(len(legal))
        expected.append(legal[index])
    bot = RandomBot(dp.RULES, seed=11)
    assert [bot.choose(seen(state)) for _ in range(5)] == expected


def test_random_bot_only_plays_legal_moves() -> None:
    config = dp.Config(players=2, stages=1, stage_orders=("announce",), max_fences=2)
    bot = RandomBot(dp.RULES, seed=5)
    state = dp.new_game(config, seed=8)
    while not dp.is_over(state):
        move = bot.choose(seen(state))
        assert move in dp.legal_moves(state)
        state = dp.apply(state, move)


def test_random_bot_tries_every_kind_of_move() -> None:
    config = dp.Config(players=1, stages=1, stage_orders="announce")
    game = play_game(dp.RULES, [RandomBot(dp.RULES, seed=2)], config, seed=2)
    verbs = {text.split()[0] for text in game.record.moves}
    assert verbs == {"roll", "announce", "write", "scratch"}


def test_random_bot_refuses_a_chance_point() -> None:
    state = dp.apply(dp.new_game(dp.Config(auto_chance=False), seed=1), dp.Roll())
    assert dp.current_player(state) == dp.CHANCE
    with pytest.raises(IllegalMoveError, match="chance"):
        RandomBot(dp.RULES, seed=1).choose(dp.view(state, 0))


def test_random_bot_refuses_a_finished_game() -> None:
    final = play_game(dp.RULES, [RandomBot(dp.RULES)], dp.Config(players=1, stages=1), seed=1).final
    assert dp.is_over(final)
    with pytest.raises(IllegalMoveError, match="over"):
        RandomBot(dp.RULES, seed=1).choose(seen(final))


def test_random_bot_refuses_a_state_it_must_not_see() -> None:
    with pytest.raises(TypeError, match="a bot chooses from a view"):
        RandomBot(dp.RULES, seed=1).choose(dp.new_game(seed=1))


def test_random_bot_refuses_the_view_of_a_seat_not_on_turn() -> None:
    with pytest.raises(IllegalMoveError, match="another seat is to move"):
        RandomBot(dp.RULES, seed=1).choose(dp.view(dp.new_game(seed=1), 1))


def test_play_game_shows_each_bot_only_its_own_view() -> None:
    class Spy:
        def __init__(self) -> None:
            self.seen: list[object] = []

        def choose(self, view: dp.View) -> dp.Move:
            self.seen.append(view)
            return view.legal_moves[0]

    spies = [Spy(), Spy()]
    play_game(dp.RULES, spies, dp.Config(stages=1), seed=4)
    for seat, spy in enumerate(spies):
        assert spy.seen
        assert all(type(view) is dp.View and view.seat == seat for view in spy.seen)


def test_random_bot_has_a_readable_repr() -> None:
    assert repr(RandomBot(dp.RULES, seed=3)) == "RandomBot('dice-poker')"


# --- play_game ------------------------------------------------------------------------------


def test_play_game_is_reproducible_and_its_record_replays() -> None:
    config = dp.Config(players=2, stages=1)

    def game() -> tuple[GameRecord, dp.State]:
        bots = [RandomBot(dp.RULES, seed=1), RandomBot(dp.RULES, seed=2)]
        played = play_game(dp.RULES, bots, config, seed=10)
        return played.record, played.final

    record, final = game()
    assert game() == (record, final)
    assert dp.is_over(final)
    assert record.seed == 10
    assert record.config == config
    assert replay(record) == final


def test_play_game_draws_chance_outcomes_without_auto_chance() -> None:
    config = dp.Config(players=2, stages=1, auto_chance=False)
    bots = [RandomBot(dp.RULES, seed=1), RandomBot(dp.RULES, seed=2)]
    game = play_game(dp.RULES, bots, config, seed=10, chance_seed=99)
    assert dp.is_over(game.final)
    dice = [text for text in game.record.moves if text.startswith("dice")]
    rolls = [text for text in game.record.moves if text.startswith("roll")]
    assert len(dice) == len(rolls) > 0, "every throw is followed by its drawn outcome"
    states = list(replay_states(GameRecord.from_json(game.record.to_json())))
    assert states[-1] == game.final
    assert sum(dp.current_player(state) == dp.CHANCE for state in states) == len(dice)
    # The generator in the state is never used: the chance generator threw the dice.
    assert game.final.rng == Rng.from_seed(10)


def test_play_game_chance_seed_changes_only_manual_dice() -> None:
    config = dp.Config(players=1, stages=1, auto_chance=False)
    one = play_game(dp.RULES, [RandomBot(dp.RULES, seed=4)], config, seed=6, chance_seed=1)
    same = play_game(dp.RULES, [RandomBot(dp.RULES, seed=4)], config, seed=6, chance_seed=1)
    other = play_game(dp.RULES, [RandomBot(dp.RULES, seed=4)], config, seed=6, chance_seed=2)
    assert one == same
    assert one.record.moves != other.record.moves
    auto = dp.Config(players=1, stages=1)
    assert play_game(dp.RULES, [RandomBot(dp.RULES, seed=4)], auto, seed=6, chance_seed=1) == (
        play_game(dp.RULES, [RandomBot(dp.RULES, seed=4)], auto, seed=6, chance_seed=2)
    )


def test_play_game_reports_scores_and_winners() -> None:
    bots = [RandomBot(dp.RULES, seed=1), RandomBot(dp.RULES, seed=2), RandomBot(dp.RULES, seed=3)]
    game = play_game(dp.RULES, bots, dp.Config(players=3, stages=1), seed=5)
    assert game.score == dp.score(game.final)
    assert game.winners == dp.winners(game.final)
    assert game.winners
    assert all(game.score[seat] == max(game.score) for seat in game.winners)


def test_play_game_needs_one_bot_per_seat() -> None:
    with pytest.raises(BotSelectionError, match="2 seats need 2 bots, got 1"):
        play_game(dp.RULES, [RandomBot(dp.RULES)], dp.Config(players=2), seed=1)


# --- sample_outcome -------------------------------------------------------------------------


def generators_drawing_every_value_below(n: int) -> dict[int, Rng]:
    """For each value in ``range(n)``, a generator whose ``below(n)`` draws it."""
    found: dict[int, Rng] = {}
    seed = 0
    while len(found) < n:
        rng = Rng.from_seed(seed)
        found.setdefault(rng.below(n)[0], rng)
        seed += 1
    return found


def test_sample_outcome_gives_each_outcome_exactly_its_share_of_draws() -> None:
    probabilities = {"a": Fraction(3, 12), "b": Fraction(1, 2), "c": Fraction(1, 6)}
    probabilities["d"] = Fraction(1, 12)  # the common denominator: 12 equally likely draws
    assert sum(probabilities.values()) == 1
    picks: Counter[str] = Counter()
    by_draw = {}
    for value, rng in generators_drawing_every_value_below(12).items():
        outcome, after = sample_outcome(probabilities, rng)
        assert after == rng.below(12)[1], "one draw below the common denominator"
        picks[outcome] += 1
        by_draw[value] = outcome
    assert picks == {"a": 3, "b": 6, "c": 2, "d": 1}
    assert [by_draw[value] for value in range(12)] == list("aaabbbbbbccd")


def test_sample_outcome_follows_chance_probabilities_of_the_dice() -> None:
    state = dp.apply(dp.new_game(dp.Config(auto_chance=False), seed=1), dp.Roll())
    state = dp.apply(state, dp.Dice((1, 2, 3, 4, 6)))
    state = dp.apply(state, dp.Roll(keep=(1, 2, 3)))  # two dice in the air: 36 draws
    probabilities = dp.chance_probabilities(state)
    picks: Counter[dp.Move] = Counter()
    for rng in generators_drawing_every_value_below(36).values():
        picks[sample_outcome(probabilities, rng)[0]] += 1
    assert {move: Fraction(count, 36) for move, count in picks.items()} == dict(probabilities)


def test_sample_outcome_of_a_certainty_is_that_outcome() -> None:
    for seed in range(20):
        assert sample_outcome({"only": Fraction(1)}, Rng.from_seed(seed))[0] == "only"


def test_sample_outcome_refuses_probabilities_that_sum_below_one() -> None:
    probabilities = {"a": Fraction(1, 4), "b": Fraction(1, 4)}
    draws = generators_drawing_every_value_below(4)
    with pytest.raises(ValueError, match="sum to less than 1"):
        sample_outcome(probabilities, draws[3])
