"""Self-play on the batched engine: a policy learns a game from batched rollouts, in plain NumPy.

    python examples/batch_selfplay.py                  # about a minute
    python examples/batch_selfplay.py --iterations 20 --games 512
    python examples/batch_selfplay.py --game account

The policy is linear and softmax over the legal actions: ``logits = features @ weights``,
illegal actions masked out, the features being the observation scaled to 0..1 by the
game's observation bounds. Each iteration plays ``--games`` games in one batch, every seat
moved by the same policy (self-play), and takes a REINFORCE step: each decision's
log-probability is pushed up in proportion to how much better than the table's mean its
seat finished (final scores, standardized over the batch). Before each step the policy
plays a batch against uniformly random play, seats alternating; the line printed is its
share of the wins there. No framework: the batch gives observations, masks and scores as
arrays, and the update is a matrix product per decision.
"""

from __future__ import annotations

import argparse

import attrs
import numpy as np
from numpy.typing import NDArray

from tabletop_rules import batch, get_ruleset
from tabletop_rules.simulate import wilson_interval

Array = NDArray[np.float32]


@attrs.define
class Policy:
    """A linear softmax policy for one batched engine."""

    engine: batch.Engine
    low: Array
    span: Array
    weights: Array

    @classmethod
    def zero(cls, engine: batch.Engine) -> Policy:
        """The uniform policy over the legal actions (all weights 0)."""
        spec = engine.rules.observation_spec(engine.config)
        low, high = np.array(spec.low, dtype=np.float32), np.array(spec.high, dtype=np.float32)
        weights = np.zeros((len(low) + 1, engine.num_actions), dtype=np.float32)
        return cls(engine, low, np.where(high > low, high - low, np.float32(1)), weights)

    def features(self, games: batch.Games) -> Array:
        """Each game's observation scaled to 0..1, and a constant 1."""
        scaled = (self.engine.observe(games) - self.low) / self.span
        return np.column_stack([scaled, np.ones(games.size, dtype=np.float32)])

    def probabilities(self, features: Array, games: batch.Games) -> Array:
        """Each game's probability of each action (a game over: of any action)."""
        legal = games.legal_mask | games.over[:, None]
        logits = np.where(legal, features @ self.weights, -np.inf)
        odds = np.exp(logits - logits.max(axis=1, keepdims=True))
        chances: Array = odds / odds.sum(axis=1, keepdims=True)
        return chances

    def choose(self, probabilities: Array, generator: np.random.Generator) -> NDArray[np.int64]:
        """One action per game, drawn from its probabilities."""
        cumulative = probabilities.cumsum(axis=1)
        draws = generator.random((len(probabilities), 1)) * cumulative[:, -1:]
        actions: NDArray[np.int64] = np.minimum(
            (cumulative < draws).sum(axis=1), cumulative.shape[1] - 1
        )
        return actions


def self_play_step(
    policy: Policy, seeds: NDArray[np.uint64], rate: float, generator: np.random.Generator
) -> None:
    """One batch of self-play, and the REINFORCE step on ``policy.weights`` it gives."""
    engine, rows = policy.engine, np.arange(policy.engine.size)
    games = engine.reset(seeds)
    played = []
    while not games.over.all():
        features = policy.features(games)
        probabilities = policy.probabilities(features, games)
        actions = policy.choose(probabilities, generator)
        played.append((features, probabilities, actions, games.current_player, ~games.over))
        games = engine.step(games, actions)
    scores = games.scores.astype(np.float32)
    advantage = (scores - scores.mean(axis=1, keepdims=True)) / (scores.std() + 1e-9)
    gradient = np.zeros_like(policy.weights)
    for features, probabilities, actions, seats, playing in played:
        chosen = np.zeros_like(probabilities)
        chosen[rows, actions] = 1
        credit = np.where(playing, advantage[rows, np.maximum(seats, 0)], np.float32(0))
        gradient += features.T @ ((chosen - probabilities) * credit[:, None])
    policy.weights += rate * gradient / (engine.size * len(played))


def wins_against_random(
    policy: Policy, seeds: NDArray[np.uint64], generator: np.random.Generator
) -> float:
    """The policy's share of the wins in a batch against random play, its seat alternating
    (a shared win counts its share).
    """
    engine = policy.engine
    games = engine.reset(seeds)
    seat = np.arange(engine.size) % engine.players
    while not games.over.all():
        learned = policy.choose(policy.probabilities(policy.features(games), games), generator)
        random = batch.random_actions(games, generator)
        games = engine.step(games, np.where(games.current_player == seat, learned, random))
    won = engine.winners(games).astype(np.float64)
    shares = won / np.maximum(won.sum(axis=1, keepdims=True), 1.0)
    return float(shares[np.arange(engine.size), seat].mean())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="dice-poker", help=f"one of {', '.join(batch.engines())}")
    parser.add_argument("--iterations", type=int, default=10, help="self-play batches (default 10)")
    parser.add_argument("--games", type=int, default=256, help="games a batch (default 256)")
    parser.add_argument("--rate", type=float, default=1.0, help="the step size (default 1.0)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    args = parser.parse_args(argv)
    rules = get_ruleset(args.game)
    policy = Policy.zero(batch.engine(args.game, rules.config_type(), size=args.games))
    generator = np.random.default_rng(args.seed)
    print(f"{rules.title}: self-play in batches of {args.games}, a linear softmax policy")
    for iteration in range(args.iterations + 1):
        seeds = generator.integers(0, 2**64, size=args.games, dtype=np.uint64)
        share = wins_against_random(policy, seeds, generator)
        low, high = wilson_interval(share * args.games, args.games)
        interval = f"{low:.1%}-{high:.1%}"
        print(f"iteration {iteration:3}: {share:.1%} of the wins against random ({interval})")
        if iteration < args.iterations:
            seeds = generator.integers(0, 2**64, size=args.games, dtype=np.uint64)
            self_play_step(policy, seeds, args.rate, generator)


if __name__ == "__main__":
    main()
