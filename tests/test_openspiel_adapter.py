"""The OpenSpiel adapter, checked by OpenSpiel's own random-simulation test and its MCTS bot."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the OpenSpiel adapter needs OpenSpiel: pip install -e '.[openspiel]'"
)

from open_spiel.python.algorithms import mcts  # noqa: E402

from tabletop_rules import get_ruleset  # noqa: E402
from tabletop_rules.adapters import openspiel  # noqa: E402
from tabletop_rules.errors import ConfigError, IllegalMoveError  # noqa: E402
from tabletop_rules.serialize import dumps  # noqa: E402

np = pytest.importorskip("numpy")

# Small configs keep OpenSpiel's Python-side loop quick: one stage of dice poker, a
# three-card hand in palace, a small field for the account game.
DICE = "python_tabletop_dice_poker(stages=1)"
PALACE = "python_tabletop_palace"
ACCOUNT = "python_tabletop_account(rows=2,columns=4,max_rounds=6)"

SIM_GAMES = [
    ("python_tabletop_dice_poker(stages=1)", 4),
    ('python_tabletop_dice_poker(stages=2,stage_orders=["down";"up"],max_fences=1)', 2),
    ("python_tabletop_dice_poker(players=1,stages=1,fences=false)", 3),
    ("python_tabletop_dice_poker(players=3,stages=1,throws_per_turn=2)", 2),
    ("python_tabletop_palace", 2),
    ("python_tabletop_palace(players=3,decks=2,quad=burn)", 1),
    ("python_tabletop_palace(players=4,voluntary_pickup=true)", 1),
    ("python_tabletop_account", 3),
    ("python_tabletop_account(players=1)", 2),
    ("python_tabletop_account(players=3,collapse=true,end=finish_round)", 2),
]


@pytest.mark.parametrize(("name", "sims"), SIM_GAMES)
def test_each_game_passes_openspiels_random_simulation_test(name: str, sims: int) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=True, verbose=False)


def test_importing_the_adapter_registers_all_three_games() -> None:
    names = set(pyspiel.registered_names())
    assert {"python_tabletop_dice_poker", "python_tabletop_palace", "python_tabletop_account"} <= (
        names
    )
    assert openspiel.register(get_ruleset("palace")) == "python_tabletop_palace"


def test_load_game_reads_house_rules_from_the_parameters() -> None:
    game = pyspiel.load_game("python_tabletop_palace(players=3,decks=2)")
    assert game.num_players() == 3
    assert game.config.decks == 2
    palace = get_ruleset("palace")
    assert game.num_distinct_actions() == palace.chance_offset(game.config)
    dice = pyspiel.load_game(
        'python_tabletop_dice_poker(max_fences=3,stage_orders=["down";"up";"free"])'
    )
    assert dice.config.max_fences == 3
    assert dice.config.stage_orders == ("down", "up", "free")
    assert dice.config.auto_chance is False
    default = pyspiel.load_game("python_tabletop_dice_poker")
    assert default.config.max_fences is None


def test_the_parameters_of_a_config_load_that_config() -> None:
    for name in ("dice-poker", "palace", "account"):
        rules = get_ruleset(name)
        game = pyspiel.load_game(openspiel.game_name(rules), openspiel.parameters_of(rules))
        assert game.config == rules.config_type(
            **({"auto_chance": False} if hasattr(rules.config_type(), "auto_chance") else {})
        )


def test_a_bad_parameter_fails_at_load_game_with_the_config_error_text() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'player'"):
        pyspiel.load_game("python_tabletop_palace(player=3)")
    with pytest.raises(ConfigError, match="players"):
        pyspiel.load_game("python_tabletop_palace(players=9)")
    with pytest.raises(ConfigError, match="stage_orders"):
        pyspiel.load_game('python_tabletop_dice_poker(stage_orders=["down";"up"])')


def test_chance_outcomes_are_numbered_from_zero_with_the_exact_probabilities() -> None:
    game = pyspiel.load_game(DICE)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # roll all five dice
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert all(0 <= action < game.max_chance_outcomes() for action, _ in outcomes)
    assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
    assert len(outcomes) == 252  # the distinct rolls of five dice
    assert min(probability for _, probability in outcomes) == pytest.approx(1 / 6**5)


def test_a_game_with_a_deck_starts_with_the_hidden_deal() -> None:
    game = pyspiel.load_game("python_tabletop_palace(decks=2)")
    palace = get_ruleset("palace")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(card, 2 / 104) for card in range(52)]
    chance = pyspiel.PlayerId.CHANCE
    assert state.action_to_string(chance, 51) == f"deal {palace.deck(game.config)[51]}"
    for card in [*range(52), *range(52)]:  # each deck in order: the deck unshuffled
        state.apply_action(card)
    assert state.chance_outcomes() == [(byte, 1 / 256) for byte in range(256)]
    assert state.action_to_string(chance, 255) == "seed byte 255"
    for byte in range(openspiel.SEED_BYTES):
        assert state.is_chance_node()
        state.apply_action(byte)
    assert state.node.state == palace.new_game(
        game.config, seed=0x0001020304050607, deal=palace.deck(game.config)
    )
    assert "deal" not in state.information_state_string(0).split("\n")[-1]
    with pytest.raises(IllegalMoveError, match="no card left"):
        _deal(game.new_initial_state(), random.Random(0), cards=[0, 0, 0])


@pytest.mark.parametrize("name", [PALACE, "python_tabletop_palace(players=3,decks=2)", ACCOUNT])
def test_a_seat_cannot_enumerate_the_deal(name: str) -> None:
    # The deal was one chance outcome of 65,536 seeds, so a seat could try every seed
    # against its own cards. Now each card is a chance node with every card left equally
    # likely (every order of the deck is a deal, and as likely as any), then the
    # generator's seed is drawn byte by byte; until the deal is done a seat sees how far
    # it is and nothing else, and after it its view only.
    game = pyspiel.load_game(name)
    rules = game.rules
    deck = rules.deck(game.config)
    kinds = list(dict.fromkeys(deck))
    left = Counter(deck)
    orders = math.factorial(len(deck)) // math.prod(map(math.factorial, left.values()))
    assert math.log2(orders) >= 64  # the deck's orders alone: far too many to try
    rng = random.Random(7)
    state, other = game.new_initial_state(), game.new_initial_state()
    cards, seed = [], bytearray()
    redealt = 0
    for step in range(len(deck) + openspiel.SEED_BYTES):
        assert state.is_chance_node()
        assert openspiel.game_state(state) is None  # not even a bot's peek finds cards
        for player in range(game.num_players()):  # another deal so far looks the same
            assert state.information_state_string(player) == other.information_state_string(player)
            assert state.observation_string(player) == other.observation_string(player)
            assert state.observation_tensor(player) == other.observation_tensor(player)
            sample = state.resample_from_infostate(player, rng.random)
            redealt += str(sample) != str(state)
            assert sample.history() == state.history()
            assert sample.information_state_string(player) == state.information_state_string(player)
        outcomes = state.chance_outcomes()
        if step < len(deck):
            remaining = len(deck) - step
            assert outcomes == [
                (kinds.index(card), count / remaining) for card, count in left.items() if count
            ]
        else:
            assert outcomes == [(byte, 1 / 256) for byte in range(256)]
        action = _chance(state, rng)
        state.apply_action(action)
        other.apply_action(_chance(other, rng))
        if step < len(deck):
            cards.append(kinds[action])
            left[kinds[action]] -= 1
        else:
            seed.append(action)
    assert str(state) != str(other)  # the two deals differ, though no seat could tell
    assert redealt  # and a resample during the deal deals afresh
    inner = openspiel.game_state(state)
    assert inner == rules.new_game(game.config, seed=int.from_bytes(seed, "big"), deal=cards)
    for player in range(game.num_players()):
        assert state.information_state_string(player) == "\n".join(
            ["deal", dumps(rules.view(inner, player))]
        )


def test_without_a_deck_the_known_seed_predicts_nothing() -> None:
    # Dice poker starts from seed 0, which anyone may know; with explicit chance every die
    # is a chance node, so the generator is never drawn from and predicts no die.
    game = pyspiel.load_game("python_tabletop_dice_poker(players=2,stages=1)")
    state = game.new_initial_state()
    start = openspiel.game_state(state).rng
    rng = random.Random(4)
    while not state.is_terminal():
        state = _play_randomly(state, rng, 1)
        assert openspiel.game_state(state).rng == start


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = pyspiel.load_game(DICE)
    state = game.new_initial_state()
    before = str(state), state.history()
    with pytest.raises(IllegalMoveError):
        state.apply_action(1)  # a roll keeping dice, before any are thrown
    assert (str(state), state.history()) == before


def test_a_clone_shares_the_immutable_game_state() -> None:
    state = pyspiel.load_game(PALACE).new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    assert clone.node is state.node
    assert clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.node is not state.node
    assert len(state.history()) == 1


def test_serialization_goes_through_the_validated_json_and_keeps_the_history() -> None:
    game = pyspiel.load_game(ACCOUNT)
    rng = random.Random(3)
    dealing = _play_randomly(game.new_initial_state(), rng, 12)
    assert dealing.node.state is None
    loaded = game.deserialize_state(dealing.serialize())
    assert loaded.history() == dealing.history()
    assert loaded.node == dealing.node
    assert str(loaded) == str(dealing)
    state = _deal(game.new_initial_state(), rng)
    for _ in range(12):
        if state.is_chance_node():
            state.apply_action(rng.choice([action for action, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = state.serialize()
    loaded = game.deserialize_state(text)
    assert loaded.history() == state.history()
    assert loaded.node == state.node
    assert str(loaded) == dumps(state.node.state)
    game2, loaded2 = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(game2) == str(game)
    assert loaded2.node.state == state.node.state


def _chance(state: Any, rng: random.Random) -> int:
    """A chance outcome of ``state`` drawn with its probability."""
    actions, weights = zip(*state.chance_outcomes(), strict=True)
    action: int = rng.choices(actions, weights)[0]
    return action


def _deal(state: Any, rng: random.Random, cards: Any = ()) -> Any:
    """``state`` once the deal is done: ``cards`` (outcome numbers) first, then at random."""
    for card in cards:
        state.apply_action(card)
    while openspiel.game_state(state) is None:
        state.apply_action(_chance(state, rng))
    return state


def _play_randomly(state: Any, rng: random.Random, moves: int) -> Any:
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", [PALACE, ACCOUNT])
def test_a_seat_cannot_tell_a_state_from_its_resample(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(5)
    differed = 0
    for moves in (3, 9, 20):
        state = _play_randomly(_deal(game.new_initial_state(), rng), rng, moves)
        for player in range(game.num_players()):
            sample = state.resample_from_infostate(player, rng.random)
            differed += sample.node.state != state.node.state
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.observation_string(player) == state.observation_string(player)
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            assert sample.legal_actions(player) == state.legal_actions(player)
    assert differed  # the samples really re-dealt what the seats cannot see


def test_the_observation_is_the_rulesets_encoding_of_the_view() -> None:
    game = pyspiel.load_game(ACCOUNT)
    state = _play_randomly(_deal(game.new_initial_state(), random.Random(1)), random.Random(1), 6)
    rules = get_ruleset("account")
    view = rules.view(state.node.state, 1)
    assert state.observation_tensor(1) == pytest.approx(rules.observe(view))
    assert game.observation_tensor_shape() == [rules.observation_spec(game.config).size]
    assert state.observation_string(1) == dumps(view)


def test_every_action_has_a_text_without_a_state() -> None:
    game = pyspiel.load_game(DICE)
    state = game.new_initial_state()
    texts = [state.action_to_string(0, action) for action in range(game.num_distinct_actions())]
    assert len(set(texts)) == len(texts)
    chance = pyspiel.PlayerId.CHANCE
    assert state.action_to_string(chance, 0) == get_ruleset("dice-poker").action_text(
        game.config, game.num_distinct_actions()
    )


@pytest.mark.parametrize(
    ("name", "players"),
    [(DICE, 2), ("python_tabletop_dice_poker(players=3,stages=1)", 3), (PALACE, 2), (ACCOUNT, 4)],
)
def test_returns_are_zero_sum_within_minus_one_and_one(name: str, players: int) -> None:
    game = pyspiel.load_game(name.rstrip(")") + f",players={players})" if "(" in name else name)
    rng = random.Random(players)
    for _ in range(3):
        state = _play_randomly(game.new_initial_state(), rng, 100_000)
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        assert all(-1.0 <= value <= 1.0 for value in returns)


def test_alone_at_the_table_the_return_is_the_squashed_score() -> None:
    game = pyspiel.load_game("python_tabletop_dice_poker(players=1,stages=1)")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = _play_randomly(game.new_initial_state(), random.Random(2), 100_000)
    (score,) = get_ruleset("dice-poker").score(state.node.state)
    assert state.returns() == [score / (abs(score) + openspiel.SOLO_SCALE)]


def test_game_bounds_come_from_the_rules() -> None:
    game = pyspiel.load_game(ACCOUNT)
    rules = get_ruleset("account")
    assert game.max_game_length() == rules.max_moves(game.config)
    deal = len(rules.deck(game.config)) + openspiel.SEED_BYTES  # a chance node per card, byte
    assert game.max_chance_nodes_in_history() == rules.max_moves(game.config) + deal


@pytest.mark.parametrize("name", ["dice-poker", "palace", "account"])
def test_the_game_types_player_range_is_every_seat_count_some_config_allows(name: str) -> None:
    """Palace seats up to 5 on one deck but 29 on more decks: the type says 2 to 29."""
    rules = get_ruleset(name)
    game_type = pyspiel.load_game(openspiel.game_name(rules)).get_type()
    assert (game_type.min_num_players, game_type.max_num_players) == rules.seats


class _Fair:
    """An OpenSpiel bot that searches a state its seat cannot tell from the real one."""

    def __init__(self, bot: Any, player: int, seed: int) -> None:
        self.bot, self.player, self.rng = bot, player, random.Random(seed)

    def step(self, state: Any) -> int:
        action: int = self.bot.step(state.resample_from_infostate(self.player, self.rng.random))
        return action


class _BotRollout(mcts.Evaluator):  # type: ignore[misc]
    """MCTS's evaluator, rolling a state out with the game's own bot at every seat, played
    on the library's state (each bot sees its view), where random rollouts never finish.
    """

    def __init__(self, rules: Any, bot: Any, players: int) -> None:
        self.rules, self.bot, self.players = rules, bot, players

    def evaluate(self, state: Any) -> Any:
        rules = self.rules
        inner = openspiel.game_state(state)
        while not rules.is_over(inner):
            seat = rules.current_player(inner)
            inner = rules.apply(inner, self.bot.choose(rules.view(inner, seat)))
        winners = rules.winners(inner)
        if not winners or len(winners) == self.players:
            return np.zeros(self.players)
        win, lose = 1.0 / len(winners), -1.0 / (self.players - len(winners))
        return np.array([win if seat in winners else lose for seat in range(self.players)])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def _mcts_wins(name: str, games: int, simulations: int, rollout: str | None = None) -> float:
    """MCTS (seat 0) against uniform random: its mean return over ``games`` seeded games,
    with random rollouts, or rollouts by the game's bot named ``rollout``.
    """
    game = pyspiel.load_game(name)
    total = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        if rollout is None:
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        else:
            rules = game.rules
            evaluator = _BotRollout(rules, rules.bots[rollout](seed), game.num_players())
        bot = mcts.MCTSBot(
            game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed)
        )
        fair = _Fair(bot, 0, seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            elif state.current_player() == 0:
                state.apply_action(fair.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        total += state.returns()[0]
    return total / games


@pytest.mark.slow  # whole games with MCTS searching each move: tens of seconds
@pytest.mark.parametrize(
    ("name", "games", "simulations", "least"),
    [("python_tabletop_dice_poker(stages=1,throws_per_turn=1)", 4, 30, 0.5), (ACCOUNT, 6, 30, 0.5)],
)
def test_openspiels_mcts_beats_uniform_random(
    name: str, games: int, simulations: int, least: float
) -> None:
    assert _mcts_wins(name, games, simulations) >= least


@pytest.mark.slow  # whole games with MCTS searching each move: tens of seconds
def test_openspiels_mcts_beats_uniform_random_at_palace_with_bot_rollouts() -> None:
    # Random palace games almost never end (3 of 10 random-against-random games finish
    # within the default 1,000 turns), so random rollouts give MCTS no signal there; its
    # rollouts are played by LowCardBot instead, through the seats' views. Sixteen
    # simulations a move: with eight, the mean return over 26 seeded games was 0.38 once
    # each card became a chance node, 0.69 with the old deal (a new deal, not a weaker
    # MCTS: its search starts after the deal either way).
    assert _mcts_wins("python_tabletop_palace", 3, 16, rollout="lowcard") >= 0.5
