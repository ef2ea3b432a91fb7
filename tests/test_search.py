"""The search bot (:mod:`tabletop_rules.search`): it plays every game from views alone,
reproducibly, within its budget, through chance points; the games' tuned search bots."""

from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

from tabletop_rules import ConfigError, account, dice_poker, get_ruleset, palace
from tabletop_rules.bots import RandomBot
from tabletop_rules.protocol import CHANCE, Ruleset
from tabletop_rules.rng import Rng
from tabletop_rules.search import (
    ScoreShares,
    SearchBot,
    SearchOptions,
    random_rollout,
    win_shares,
)
from tabletop_rules.simulate import play_game, simulate
from tabletop_rules.testing.variants import variant

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "pig" / "src"))

import tabletop_pig as pig

Rules = Ruleset[Any, Any, Any]
GAMES: tuple[Rules, ...] = (palace.RULES, account.RULES, dice_poker.RULES, pig.RULES)


def _short(rules: Rules, seed: int, iterations: int) -> SearchBot[Any]:
    """A search with rollouts ten moves deep, scored by the scores: cheap in every game."""
    value = ScoreShares(rules, 10.0)
    return SearchBot(rules, seed, iterations=iterations, value=value, rollout_moves=10)


def _turn(rules: Rules, seed: int = 3) -> tuple[Any, int]:
    """A state of a random game where a seat is on turn with a choice."""
    state = rules.new_game(seed=seed)
    bot = RandomBot(rules, seed)
    while True:
        player = rules.current_player(state)
        if player is not None and player != CHANCE and len(rules.legal_moves(state)) > 1:
            return state, player
        state = rules.apply(state, bot.choose(rules.view(state, player)))


@pytest.mark.parametrize("rules", GAMES, ids=lambda rules: rules.name)
def test_search_plays_a_whole_game_of_every_game_with_legal_moves(rules: Rules) -> None:
    other = next(
        factory for name, factory in rules.bots.items() if name not in ("random", "search")
    )
    game = play_game(rules, [_short(rules, 0, 4), other(1)], seed=5)
    assert rules.is_over(game.final)


@pytest.mark.parametrize("rules", GAMES, ids=lambda rules: rules.name)
def test_same_seed_and_view_give_the_same_move(rules: Rules) -> None:
    state, seat = _turn(rules)
    seen = rules.view(state, seat)
    moves = {_short(rules, 11, 60).choose(seen) for _ in range(3)}
    assert len(moves) == 1
    assert moves <= set(rules.legal_moves(state))


def test_the_search_reads_the_view_not_the_state_it_came_from() -> None:
    state, seat = _turn(palace.RULES, seed=8)
    seen = palace.view(state, seat)
    other = palace.determinize(seen, Rng.from_seed(123))
    assert other.hands != state.hands or other.stock != state.stock
    first = _short(palace.RULES, 2, 40).choose(seen)
    again = _short(palace.RULES, 2, 40).choose(palace.view(other, seat))
    assert first == again


def test_a_search_handles_chance_points_when_chance_is_not_automatic() -> None:
    config = account.Config(auto_chance=False)
    bots = [_short(account.RULES, seat, 10) for seat in range(2)]
    game = play_game(account.RULES, bots, config, seed=2, chance_seed=4)
    assert game.chance_moves > 0
    assert account.is_over(game.final)


def test_the_only_legal_move_is_played_without_a_search() -> None:
    state = palace.new_game(seed=1)
    bot = RandomBot(palace.RULES, 1)
    while palace.current_player(state) is None or len(palace.legal_moves(state)) != 1:
        state = palace.apply(state, bot.choose(palace.view(state, palace.current_player(state))))
    seen = palace.view(state, palace.current_player(state))
    search = SearchBot(palace.RULES, seed=0, iterations=1)
    generator = search._rng
    assert search.choose(seen) == seen.legal_moves[0]
    assert search._rng == generator, "no iteration drew from the bot's generator"


def test_a_time_budget_stops_the_search() -> None:
    state, seat = _turn(account.RULES)
    bot = SearchBot(account.RULES, iterations=None, seconds=0.02)
    root = bot.search(account.view(state, seat))
    assert root.visits > 0


def test_an_iteration_budget_is_spent_exactly() -> None:
    state, seat = _turn(account.RULES)
    root = SearchBot(account.RULES, iterations=37).search(account.view(state, seat))
    assert root.visits == 37
    assert sum(child.visits for child in root.children.values()) == 37


def test_guesses_are_reused_in_turn_and_keep_the_budget() -> None:
    state, seat = _turn(palace.RULES)
    seen = palace.view(state, seat)
    value = ScoreShares(palace.RULES, 1.0)
    search = SearchBot(palace.RULES, iterations=30, guesses=4, value=value, rollout_moves=5)
    root = search.search(seen)
    assert root.visits == 30


BAD_OPTIONS: list[tuple[dict[str, Any], str]] = [
    ({"iterations": None}, "needs a budget"),
    ({"iterations": 0}, "iterations is a whole number"),
    ({"iterations": 2.5}, "iterations is a whole number"),
    ({"seconds": -1.0}, "seconds is a positive number"),
    ({"exploration": -0.1}, "exploration is a number from 0"),
    ({"rollout_moves": 5}, "needs a value"),
    ({"rollout_moves": -1, "value": lambda state: (0.5, 0.5)}, "rollout_moves is a whole"),
    ({"guesses": 0}, "guesses is a whole number"),
    ({"baseline": "lowcard"}, "baseline is a bot's choose"),
    ({"margin": 0.1}, "margin needs a baseline"),
    ({"margin": -0.1, "baseline": lambda view: None}, "margin is a number from 0"),
    ({"others": "lowcard"}, "others is a rollout policy"),
    ({"rollout": "lowcard"}, "rollout is a rollout policy"),
    ({"value": 0.5}, "value is a function of a state"),
    ({"paired": True}, "paired needs guesses"),
    ({"paired": 1, "guesses": 2}, "paired must be True or False"),
    ({"choice": "best"}, "choice must be one of visits, mean"),
]
"""Options a search refuses, and what its ``ConfigError`` says."""


@pytest.mark.parametrize(("arguments", "message"), BAD_OPTIONS)
def test_a_bad_budget_is_refused_naming_it(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SearchBot(palace.RULES, **arguments)


@pytest.mark.parametrize(("arguments", "message"), BAD_OPTIONS)
def test_a_bad_option_is_refused_by_the_options_with_the_bots_error(
    arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError, match=message) as by_the_bot:
        SearchBot(palace.RULES, **arguments)
    with pytest.raises(ConfigError, match=message) as by_the_options:
        SearchOptions(**arguments)
    assert str(by_the_options.value) == str(by_the_bot.value)


def test_search_options_are_a_frozen_validated_value() -> None:
    options = SearchOptions(iterations=40, guesses=4, paired=True, choice="mean")
    assert options == SearchOptions(choice="mean", paired=True, guesses=4, iterations=40)
    assert hash(options) == hash(
        SearchOptions(iterations=40, guesses=4, paired=True, choice="mean")
    )
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        options.iterations = 0  # type: ignore[misc]
    with pytest.raises(ConfigError, match="guesses is a whole number"):
        attrs.evolve(options, guesses=0)
    bot = SearchBot(palace.RULES, 1, options=options)
    assert bot.options is options
    assert (bot.iterations, bot.guesses, bot.paired, bot.choice) == (40, 4, True, "mean")
    for field in attrs.fields(SearchOptions):
        assert getattr(bot, field.name) is getattr(options, field.name), field.name
    with pytest.raises(ConfigError, match="margin needs a baseline"):
        bot.margin = 0.1
    assert bot.options is options, "a refused option leaves the bot's options as they were"
    bot.exploration = 1.5
    assert bot.options == attrs.evolve(options, exploration=1.5)
    state, seat = _turn(palace.RULES)
    seen = palace.view(state, seat)
    again = pickle.loads(pickle.dumps(bot))
    assert again.options == bot.options
    assert again.choose(seen) == bot.choose(seen)


def test_search_bot_takes_options_or_keywords_not_both() -> None:
    state, seat = _turn(account.RULES)
    seen = account.view(state, seat)
    options = SearchOptions(iterations=30, exploration=1.0)
    by_keywords = SearchBot(account.RULES, 2, iterations=30, exploration=1.0)
    assert by_keywords.options == options
    assert by_keywords.choose(seen) == SearchBot(account.RULES, 2, options=options).choose(seen)
    assert SearchBot(account.RULES).options == SearchOptions()
    with pytest.raises(TypeError, match="not both"):
        SearchBot(account.RULES, options=options, iterations=30)
    with pytest.raises(TypeError, match="options must be a SearchOptions"):
        SearchBot(account.RULES, options={"iterations": 30})  # type: ignore[arg-type]


def _baseline_positions(rules: Rules, count: int) -> list[Any]:
    """Views with a choice from games of two random bots."""
    views = []
    for seed in range(count):
        state, seat = _turn(rules, seed)
        views.append(rules.view(state, seat))
    return views


@pytest.mark.parametrize("rules", [palace.RULES, account.RULES], ids=lambda rules: rules.name)
def test_a_baseline_move_is_kept_unless_the_search_sees_more_than_margin_better(
    rules: Rules,
) -> None:
    heuristic = rules.bots[{"palace": "lowcard", "account": "bestcard"}[rules.name]](0)
    for seen in _baseline_positions(rules, 8):
        kept = heuristic.choose(seen)
        always = _short(rules, 5, 40)
        always.baseline, always.margin = heuristic.choose, 1.0
        assert always.choose(seen) == kept, "no mean reward is 1 better than another"
        plain = _short(rules, 5, 40)
        searched = plain.choose(seen)
        root = _short(rules, 5, 40).search(seen)
        rewards = {code: node.reward / node.visits for code, node in root.children.items()}
        gain = rewards[rules.encode(searched)] - rewards[rules.encode(kept)]
        checked = _short(rules, 5, 40)
        checked.baseline, checked.margin = heuristic.choose, 0.02
        assert checked.choose(seen) == (searched if gain > 0.02 else kept)


def test_a_model_of_the_others_leaves_only_the_searching_seats_moves_in_the_tree() -> None:
    state, seat = _turn(palace.RULES)
    lowcard = palace.RULES.bots["lowcard"](0)

    def model(guess: Any, moves: tuple[Any, ...], rng: Rng) -> tuple[Any, Rng]:
        return lowcard.choose(palace.view(guess, palace.current_player(guess))), rng

    search = _short(palace.RULES, 2, 60)
    search.others = model
    root = search.search(palace.view(state, seat))
    seats, nodes = set(), list(root.children.values())
    while nodes:
        node = nodes.pop()
        seats.add(node.seat)
        nodes.extend(node.children.values())
    assert seats == {seat}
    plain = _short(palace.RULES, 2, 60).search(palace.view(state, seat))
    assert any(
        node.seat != seat for node in plain.children.values() for node in node.children.values()
    )


def _root_guesses(seen: Any, paired: bool) -> tuple[list[Any], list[Any]]:
    """The guesses of a palace search from ``seen`` and the states its value was asked
    about, in order (rollouts 0 moves deep: the state right after the root's move).
    """
    scored: list[Any] = []

    def value(guess: Any) -> tuple[float, ...]:
        scored.append(guess)
        return (0.5, 0.5)

    search = SearchBot(
        palace.RULES, 3, iterations=12, guesses=3, value=value, rollout_moves=0, paired=paired
    )
    pool: list[Any] = []
    dealt = search._deal_each

    def deal_each(view: Any, rngs: Any) -> tuple[Any, ...]:
        pool.extend(dealt(view, rngs))
        return tuple(pool)

    search._deal_each = deal_each  # type: ignore[assignment]
    search.search(seen)
    return pool, scored


@pytest.mark.parametrize("paired", [True, False])
def test_paired_moves_at_the_root_meet_the_guesses_in_the_same_order(paired: bool) -> None:
    state, seat = _turn(palace.RULES, 5)
    seen = palace.view(state, seat)
    pool, scored = _root_guesses(seen, paired)
    firsts = scored[: len(seen.legal_moves)]  # the root's moves, each tried once first
    from_first = {palace.apply(pool[0], move) for move in seen.legal_moves}
    assert all(guess in from_first for guess in firsts) is paired


def test_choice_by_mean_plays_the_best_mean_reward_at_the_root() -> None:
    state, seat = _turn(account.RULES)
    seen = account.view(state, seat)
    search = _short(account.RULES, 1, 60)
    search.choice = "mean"
    root = _short(account.RULES, 1, 60).search(seen)
    means = {code: node.reward / node.visits for code, node in root.children.items()}
    assert means[account.encode(search.choose(seen))] == max(means.values())


def test_a_search_needs_a_ruleset() -> None:
    with pytest.raises(TypeError, match="expected a ruleset"):
        SearchBot("palace")  # type: ignore[arg-type]


def test_a_search_chooses_from_views_only() -> None:
    state, _seat = _turn(palace.RULES)
    with pytest.raises(TypeError, match="chooses from a view"):
        SearchBot(palace.RULES).choose(state)


def test_win_shares_split_the_win_among_the_winners() -> None:
    finished = play_game(palace.RULES, [palace.LowCardBot(), palace.LowCardBot()], seed=1).final
    shares = win_shares(palace.RULES, finished)
    (winner,) = palace.winners(finished)
    assert shares[winner] == 1.0
    assert sum(shares) == 1.0


def test_score_shares_favour_the_higher_score() -> None:
    state = account.new_game(seed=1)
    richer = attrs.evolve(state, accounts=(300, 100))
    low, high = ScoreShares(account.RULES, 100.0)(richer)[::-1]
    assert high > 0.85 > 0.15 > low
    assert high + low == pytest.approx(1.0)


def test_a_rollout_picks_a_legal_move_from_its_generator() -> None:
    moves = ("a", "b", "c")
    picked, rng = random_rollout(None, moves, Rng.from_seed(1))
    assert picked in moves
    assert rng != Rng.from_seed(1)


@pytest.mark.parametrize("rules", [palace.RULES, account.RULES], ids=lambda rules: rules.name)
def test_palace_and_account_offer_a_tuned_search_bot_by_name(rules: Rules) -> None:
    factory = pickle.loads(pickle.dumps(rules.bots["search"]))
    state, seat = _turn(rules)
    seen = rules.view(state, seat)
    assert factory(4).choose(seen) == rules.bots["search"](4).choose(seen)
    assert get_ruleset(rules.name).bots["search"] is rules.bots["search"]


@pytest.mark.parametrize("rules", [palace.RULES, account.RULES], ids=lambda rules: rules.name)
def test_a_games_tuned_search_bot_is_a_search_bot_with_its_options_as_attributes(
    rules: Rules,
) -> None:
    bot = rules.bots["search"](4)
    assert isinstance(bot, SearchBot)
    assert repr(bot) == f"{type(bot).__name__}({rules.name!r}, iterations=100)"
    bot.iterations = 5
    assert bot.options.iterations == 5


# --- the bars, at a size CI affords (docs/bots.rst gives the full-size figures) ----------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "opponent", "deals", "least_win_rate", "least_win_difference"),
    [(palace.RULES, "lowcard", 6, 0.6, 0.2), (account.RULES, "bestcard", 8, 0.5, 0.1)],
    ids=["palace-lowcard", "account-bestcard"],
)
def test_the_search_bot_clears_its_bar_over_the_first_deals(
    rules: Rules, opponent: str, deals: int, least_win_rate: float, least_win_difference: float
) -> None:
    # The bar's first deals, each once per seating: palace's bar asks 60% of the games
    # against LowCardBot, the account game's a margin over BestCardBot, which these few
    # games cannot give an interval that excludes 0; docs/bots.rst has both full-size runs
    result = simulate(rules, ["search", opponent], 2 * deals, seed=0, duplicate=True)
    search = result.versus_field[0]
    assert (search.name, search.deals) == ("search", deals)
    assert result.bots[0].name == "search"
    assert result.bots[0].win_rate >= least_win_rate, result.table()
    assert search.win_difference.mean >= least_win_difference, search.win_difference


def test_a_time_budget_holds_with_many_guesses_dealt_as_they_are_needed() -> None:
    state, seat = _turn(palace.RULES)
    seen = palace.view(state, seat)

    def slow_deals(view: Any, rngs: Any) -> tuple[Any, ...]:
        dealt = []
        for rng in rngs:
            time.sleep(0.001)  # a millisecond a guess: 5,000 guesses dealt at once take 5 s
            dealt.append(palace.RULES.determinize(view, rng))
        return tuple(dealt)

    slow = variant(palace.RULES, determinize_each=slow_deals)
    bot = SearchBot(slow, seed=1, iterations=None, seconds=0.01, guesses=5000)
    started = time.perf_counter()
    root = bot.search(seen)
    assert time.perf_counter() - started < 1.0
    assert root.visits > 0


def test_guesses_dealt_as_the_clock_allows_are_the_guesses_dealt_at_once() -> None:
    state, seat = _turn(palace.RULES)
    seen = palace.view(state, seat)
    value = ScoreShares(palace.RULES, 1.0)
    for paired in (False, True):
        search = SearchBot(
            palace.RULES, seed=4, iterations=40, guesses=7, value=value, rollout_moves=5,
            paired=paired,
        )  # fmt: skip
        root = search.search(seen)
        assert root.visits == 40
        counts = {code: child.visits for code, child in root.children.items()}
        lazily = SearchBot(
            palace.RULES, seed=4, iterations=40, seconds=1000.0, guesses=7, value=value,
            rollout_moves=5, paired=paired,
        ).search(seen)  # fmt: skip
        assert counts == {code: child.visits for code, child in lazily.children.items()}
