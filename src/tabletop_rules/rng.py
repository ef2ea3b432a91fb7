"""SplitMix64 (Steele, Lea and Flood, 2014) as an immutable value, on plain integers:
the same sequence on every Python and platform. Every game state carries an :class:`Rng`;
drawing returns the values *and* the next generator, so states stay values and
``(config, seed, moves)`` replays a game bit for bit.

>>> rng = Rng.from_seed(7)
>>> dice, rng = rng.dice(5)
>>> dice
(3, 1, 6, 4, 3)
>>> rng.dice(5)[0] == Rng.from_seed(7).dice(5)[0]
False
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import lcm
from typing import Any, TypeVar, cast

import attrs

from ._messages import short_repr
from .errors import ConfigError

__all__ = [
    "SEED_BITS",
    "Rng",
    "derived_seed",
    "is_valid_state",
    "resolve_seed",
    "sample_outcome",
]

T = TypeVar("T")

SEED_BITS = 64
"""Seeds are integers in ``range(2 ** SEED_BITS)``."""

_MASK = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15
_GAMMA_INVERSE = pow(_GOLDEN_GAMMA, -1, 1 << 64)  # gamma is odd, so it has one mod 2**64
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


@attrs.frozen
class Rng:
    """A SplitMix64 generator's 64-bit state; methods return a draw and the next one."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """The generator for a seed in ``range(2 ** 64)``; ``ValueError`` for anything else."""
        if not is_valid_state(seed):
            raise ValueError(f"a seed must be an integer in [0, 2**64), got {seed!r}")
        return cls(seed)

    def next_u64(self) -> tuple[int, Rng]:
        """A uniformly random 64-bit integer, and the next generator."""
        state = (self.state + _GOLDEN_GAMMA) & _MASK
        return _mix(state), Rng(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniformly random integer in ``range(n)`` (``n`` from 1 to ``2 ** 64``), and the
        next generator: Lemire's multiply-shift with rejection, unbiased.
        """
        if not 0 < n <= 1 << 64:
            raise ValueError(f"below() needs a positive bound up to 2**64, got {n}")
        state = (self.state + _GOLDEN_GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK  # _mix, inlined: the hot path
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        product = (z ^ (z >> 31)) * n
        if product & _MASK < n:  # only then can the draw fall in the biased zone
            threshold = (1 << 64) % n
            while product & _MASK < threshold:
                state = (state + _GOLDEN_GAMMA) & _MASK
                product = _mix(state) * n
        rng = _new_rng(Rng)
        _set_state(rng, state)
        return product >> 64, rng

    def draws_since(self, seed: int) -> int:
        """How many 64-bit draws lead from ``Rng.from_seed(seed)`` to this generator, each
        adding the odd constant gamma: ``(state - seed) * gamma ** -1`` modulo ``2 ** 64``.

        >>> rng = Rng.from_seed(7)
        >>> _faces, rng = rng.dice(5)
        >>> rng.draws_since(7)
        5
        """
        return ((self.state - Rng.from_seed(seed).state) * _GAMMA_INVERSE) & _MASK

    def advanced(self, draws: int) -> Rng:
        """The generator ``draws`` 64-bit draws on, in one step: :meth:`draws_since`'s inverse.

        >>> Rng.from_seed(7).advanced(5) == Rng.from_seed(7).dice(5)[1]
        True
        """
        if type(draws) is not int:
            raise TypeError(f"advanced() counts draws in a whole number, got {short_repr(draws)}")
        return Rng((self.state + draws * _GOLDEN_GAMMA) & _MASK)

    def dice(self, count: int, sides: int = 6) -> tuple[tuple[int, ...], Rng]:
        """``count`` fair dice with faces ``1..sides`` in throw order, and the next generator."""
        if count < 0 or not 0 < sides <= 1 << 64:
            raise ValueError(
                f"dice() needs count >= 0 and a positive number of sides up to 2**64, "
                f"got count {count}, sides {sides}"
            )
        rng = self
        faces: list[int] = []
        for _ in range(count):
            face, rng = rng.below(sides)
            faces.append(face + 1)
        return tuple(faces), rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A uniformly random permutation of ``items`` (Fisher-Yates), and the next generator."""
        result = list(items)
        state = self.state
        gamma, mask, mix1, mix2 = _GOLDEN_GAMMA, _MASK, _MIX1, _MIX2
        for i in range(len(result) - 1, 0, -1):  # below(i + 1), inlined: decks are long
            n = i + 1
            state = (state + gamma) & mask
            z = ((state ^ (state >> 30)) * mix1) & mask
            z = ((z ^ (z >> 27)) * mix2) & mask
            product = (z ^ (z >> 31)) * n
            if product & mask < n:
                threshold = (1 << 64) % n
                while product & _MASK < threshold:
                    state = (state + _GOLDEN_GAMMA) & _MASK
                    product = _mix(state) * n
            j = product >> 64
            result[i], result[j] = result[j], result[i]
        return tuple(result), Rng(state)


_new_rng = object.__new__
_set_state = Rng.__dict__["state"].__set__
"""How :meth:`Rng.below`, the hottest path of the dice, skips the constructor's checks."""


def is_valid_state(value: object) -> bool:
    """Whether ``value`` can be a generator state or seed: an exact ``int`` in
    ``[0, 2**64)`` (no ``bool`` and no subclass, whose comparisons could lie).
    """
    return type(value) is int and 0 <= value <= _MASK


def resolve_seed(seed: object) -> int:
    """The seed a new game starts from and keeps: ``seed``, a fresh one from :mod:`secrets`
    for ``None``, :class:`~tabletop_rules.errors.ConfigError` for anything else.

    >>> resolve_seed(7)
    7
    >>> 0 <= resolve_seed(None) < 2**SEED_BITS
    True
    >>> resolve_seed(-1)
    Traceback (most recent call last):
    ...
    tabletop_rules.errors.ConfigError: seed must be an integer in [0, 2**64), got -1
    """
    if seed is None:
        return secrets.randbits(SEED_BITS)
    if not is_valid_state(seed):
        raise ConfigError(f"seed must be an integer in [0, 2**{SEED_BITS}), got {short_repr(seed)}")
    return cast(int, seed)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def derived_seed(seed: int, index: int) -> int:
    """The ``index``-th output (from 0) of :class:`Rng` seeded with ``seed``: each game's
    seed from a simulation's, and the seeds of a game's chance and bots from the game's.

    >>> derived_seed(1, 0) == Rng.from_seed(1).next_u64()[0]
    True
    """
    if type(index) is not int or index < 0:
        raise ValueError(
            f"a derived seed's index is a whole number from 0, got {short_repr(index)}"
        )
    return Rng.from_seed(seed).advanced(index).next_u64()[0]


def sample_outcome(probabilities: Mapping[Any, Fraction], rng: Rng) -> tuple[Any, Rng]:
    """One chance outcome drawn exactly by its probability (a
    :class:`~fractions.Fraction`, else ``TypeError``), and the next generator.
    """
    if not isinstance(probabilities, Mapping) or type(rng) is not Rng:
        raise TypeError(
            f"sample_outcome needs a mapping of outcomes to Fractions and an Rng, got "
            f"{short_repr(probabilities)} and {short_repr(rng)}"
        )
    if not all(type(chance) is Fraction for chance in probabilities.values()):
        raise TypeError(f"chance probabilities are Fractions, got {short_repr(probabilities)}")
    denominator = lcm(*(chance.denominator for chance in probabilities.values()))
    if denominator > 1 << 64:
        raise ValueError("chance probabilities finer than 2**-64 cannot be sampled exactly")
    pick, rng = rng.below(denominator)
    for outcome, chance in probabilities.items():
        pick -= chance.numerator * (denominator // chance.denominator)
        if pick < 0:
            return outcome, rng
    raise ValueError("chance probabilities sum to less than 1")
