"""The PettingZoo adapter, checked by PettingZoo's own tests (``api_test``, ``seed_test``,
``render_test``) on every game and a few house rules, and by ours: masked play to the
end, zero-sum rewards, seeds, illegal actions, and observations built from views only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tabletop_rules import account, palace
from tabletop_rules import dice_poker as dp
from tabletop_rules.errors import IllegalMoveError
from tabletop_rules.protocol import get_ruleset
from tabletop_rules.rng import Rng
from tabletop_rules.simulate import derived_seed

REASON = "the adapter needs the pettingzoo extra: pip install -e '.[pettingzoo]'"
pytest.importorskip("pettingzoo", reason=REASON)
pytest.importorskip("gymnasium", reason=REASON)
np = pytest.importorskip("numpy", reason=REASON)

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from tabletop_rules._seats import zero_sum_rewards  # noqa: E402
from tabletop_rules.adapters.pettingzoo import (  # noqa: E402
    TabletopEnv,
    agent_name,
    env,
    raw_env,
    seat_of,
)

# (game, config): every game with its defaults, chance left to the environment where a
# game has chance points, more seats, and one seat alone.
CASES = [
    ("dice-poker", None),
    ("dice-poker", dp.Config(players=3, stages=1, auto_chance=False)),
    ("dice-poker", dp.Config(players=1, stages=1)),
    ("palace", None),
    ("palace", palace.Config(players=3)),
    ("account", None),
    ("account", account.Config(players=3, auto_chance=False)),
]
IDS = [f"{game}-{index}" for index, (game, _) in enumerate(CASES)]

# api_test's advice for observations that are dicts (as every masked game's are): it
# silences both for PettingZoo's own classic games by name, which ours cannot share.
DICT_OBSERVATION_ADVICE = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


def env_maker(game: str, config: Any) -> Callable[..., Any]:
    def make(render_mode: str | None = None) -> Any:
        return env(game, config, render_mode=render_mode)

    return make


def config_of(game: str, config: Any) -> Any:
    return get_ruleset(game).config_type() if config is None else config


@pytest.mark.filterwarnings(*DICT_OBSERVATION_ADVICE)
@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_pettingzoo_api_test_passes(game: str, config: Any) -> None:
    rules = get_ruleset(game)
    # A cycle gives every agent a step; max_moves cycles outlast any game.
    api_test(env(game, config), num_cycles=rules.max_moves(config_of(game, config)))


@pytest.mark.filterwarnings(*DICT_OBSERVATION_ADVICE)
def test_the_unwrapped_environment_passes_api_test_too() -> None:
    api_test(raw_env("dice-poker", dp.Config(stages=1)), num_cycles=1000)


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_pettingzoo_seed_test_passes(game: str, config: Any) -> None:
    seed_test(env_maker(game, config))


@pytest.mark.parametrize("game", ["dice-poker", "palace", "account"])
def test_pettingzoo_render_test_passes(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(env_maker(game, None))
    assert "P0" in capsys.readouterr().out  # "human" printed the table


def play_to_the_end(table: Any, seed: int) -> tuple[dict[str, float], int]:
    """Masked random play to the end of a game; each agent's reward and the moves made."""
    table.reset(seed=seed)
    for agent in table.possible_agents:
        table.action_space(agent).seed(seed)
    rewards: dict[str, float] = {}
    moves = 0
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _info = table.last()
        assert not truncated
        if terminated:
            rewards[agent] = reward
            table.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8
        assert mask.any()
        table.step(table.action_space(agent).sample(mask))
        moves += 1
    return rewards, moves


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_masked_random_play_reaches_the_end_with_zero_sum_rewards(game: str, config: Any) -> None:
    table = env(game, config)
    rules = get_ruleset(game)
    rewards, moves = play_to_the_end(table, seed=11)
    assert not table.agents
    assert set(rewards) == set(table.possible_agents)
    assert sum(rewards.values()) == pytest.approx(0)
    assert 0 < moves <= rules.max_moves(config_of(game, config))
    state = table.unwrapped.game_state
    assert rules.is_over(state)
    winners = rules.winners(state)
    if 0 < len(winners) < len(rewards):
        assert {seat_of(agent) for agent, reward in rewards.items() if reward > 0} == winners


def test_the_winners_share_plus_one_and_the_losers_minus_one() -> None:
    assert zero_sum_rewards(frozenset({1}), 2) == [-1.0, 1.0]
    assert zero_sum_rewards(frozenset({0}), 4) == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert zero_sum_rewards(frozenset({0, 2}), 4) == [0.5, -0.5, 0.5, -0.5]


def test_without_a_loser_or_a_winner_every_reward_is_zero() -> None:
    assert zero_sum_rewards(frozenset({0, 1}), 2) == [0.0, 0.0]
    assert zero_sum_rewards(frozenset({0}), 1) == [0.0]
    assert zero_sum_rewards(frozenset(), 3) == [0.0, 0.0, 0.0]


def test_every_agent_learns_its_final_score() -> None:
    table = env("dice-poker", dp.Config(players=1, stages=1))
    play_to_the_end(table, seed=4)
    # the agents have left; the game's state still says how it ended
    assert len(dp.score(table.unwrapped.game_state)) == 1
    table.reset(seed=4)
    while not table.terminations[table.agent_selection]:
        table.step(int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
    assert table.infos["player_0"] == {"score": dp.score(table.unwrapped.game_state)[0]}


def test_a_seed_starts_the_game_of_that_seed() -> None:
    table = env("palace")
    table.reset(seed=123)
    assert table.unwrapped.game_state == palace.new_game(seed=123)


def test_resets_without_a_seed_continue_from_the_last_seed() -> None:
    table = env("account")
    table.reset(seed=5)
    table.reset()
    assert account.RULES.seed_of(table.unwrapped.game_state) == derived_seed(5, 1)
    table.reset()
    assert account.RULES.seed_of(table.unwrapped.game_state) == derived_seed(5, 2)


@pytest.mark.parametrize("game", ["dice-poker", "account"])
def test_chance_points_are_resolved_from_the_seed(game: str) -> None:
    config = get_ruleset(game).config_type(auto_chance=False)
    first, second = env(game, config), env(game, config)
    assert play_to_the_end(first, seed=8) == play_to_the_end(second, seed=8)
    assert first.unwrapped.game_state == second.unwrapped.game_state
    assert play_to_the_end(second, seed=9) != play_to_the_end(first, seed=8)


def test_observations_depend_on_the_view_only() -> None:
    # Two palace states that differ only in what seat 0 cannot see: seat 1's hand and
    # face-down cards and the stock, re-dealt by determinize.
    rules = palace.RULES
    state = rules.new_game(seed=3)
    other = rules.determinize(rules.view(state, 0), Rng.from_seed(99))
    assert other != state
    assert rules.view(other, 0) == rules.view(state, 0)
    assert rules.view(other, 1) != rules.view(state, 1)
    seen, seen_again = raw_env("palace"), raw_env("palace")
    seen.reset(options={"state": state})
    seen_again.reset(options={"state": other})
    first, again = seen.observe("player_0"), seen_again.observe("player_0")
    assert first.keys() == again.keys() == {"observation", "action_mask"}
    assert np.array_equal(first["observation"], again["observation"])
    assert np.array_equal(first["action_mask"], again["action_mask"])
    # seat 1 sees its own, different hand
    assert not np.array_equal(
        seen.observe("player_1")["observation"], seen_again.observe("player_1")["observation"]
    )


def test_an_observation_is_that_of_the_seats_view() -> None:
    table = raw_env("account")
    table.reset(seed=2)
    view = account.view(table.game_state, 1)
    observation = table.observe("player_1")
    assert observation["observation"].dtype == np.float32
    assert tuple(observation["observation"]) == pytest.approx(account.RULES.observe(view))
    assert not observation["action_mask"].any()  # seat 1 is not to move
    assert table.observation_space("player_1").contains(observation)


def test_the_action_space_holds_the_player_actions_only() -> None:
    table = raw_env("dice-poker")
    config = dp.Config()
    assert table.action_space("player_0").n == dp.RULES.chance_offset(config)
    assert table.action_space("player_0").n < dp.num_actions(config)
    assert table.action_space("player_0") is not table.action_space("player_1")


def test_an_illegal_action_raises_the_rule_and_changes_nothing() -> None:
    table = raw_env("dice-poker")
    table.reset(seed=1)
    before = table.game_state
    write_ones = dp.encode(dp.Write(dp.Box.ONES))
    with pytest.raises(IllegalMoveError, match="a box is written after a throw"):
        table.step(write_ones)
    assert table.game_state is before
    assert table.why_illegal(write_ones) is not None
    assert table.why_illegal(dp.encode(dp.Roll())) is None


@pytest.mark.parametrize("action", [-1, 249, 10_000, None, 1.5, "0"])
def test_an_action_outside_the_action_space_raises(action: Any) -> None:
    table = raw_env("dice-poker")
    table.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="action"):
        table.step(action)


def test_a_numpy_integer_is_an_action() -> None:
    table = raw_env("dice-poker")
    table.reset(seed=1)
    table.step(np.int64(dp.encode(dp.Roll())))
    assert table.game_state.throws_used == 1


def test_the_wrapped_environment_ends_the_game_on_an_illegal_action() -> None:
    table = env("dice-poker")
    table.reset(seed=1)
    table.step(dp.encode(dp.Write(dp.Box.ONES)))
    assert all(table.terminations.values())
    assert table.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert "a box is written after a throw" in table.infos["player_0"]["illegal_move"]
    for _agent in table.agent_iter():
        table.step(None)
    assert not table.agents


def test_the_state_option_refuses_a_game_under_other_house_rules() -> None:
    table = raw_env("palace")
    with pytest.raises(ValueError, match="other house rules"):
        table.reset(options={"state": palace.new_game(palace.Config(players=3), seed=1)})
    with pytest.raises(TypeError, match="Palace state"):
        table.reset(options={"state": dp.new_game(seed=1)})


def test_ansi_rendering_returns_the_spectators_table() -> None:
    table = raw_env("palace", render_mode="ansi")
    table.reset(seed=1)
    assert table.render() == palace.RULES.display(palace.view(table.game_state, None))


def test_an_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        TabletopEnv("palace", render_mode="rgb_array")


def test_a_game_is_named_or_given_as_a_ruleset() -> None:
    by_name, by_rules = raw_env("account"), raw_env(account.RULES)
    assert by_name.rules is by_rules.rules
    assert str(by_name) == "tabletop_account_v0"
    assert by_name.possible_agents == ["player_0", "player_1"]


def test_agents_are_named_after_their_seats() -> None:
    assert [agent_name(seat) for seat in range(3)] == ["player_0", "player_1", "player_2"]
    assert seat_of("player_7") == 7
    for name in ["player_", "player_07", "seat_1", "player_x"]:
        with pytest.raises(ValueError, match="no agent"):
            seat_of(name)
