"""Views as numbers for learning code: every game's ``observe(view)`` is a flat tuple of
floats (no numpy: the adapters convert), and ``observation_spec(config)`` its length and
each element's bounds and name, as ``tabletop_rules.<game>.observation`` documents them.

>>> spec = ObservationSpec(low=(0.0, -1.0), high=(1.0, 1.0), names=("a", "b"))
>>> spec.size, spec.shape
(2, (2,))
>>> spec.contains((1.0, -0.5)), spec.contains((2.0, 0.0))
(True, False)

A game builds both with :class:`Features`, the same code, so that they cannot drift apart:

>>> features = Features(spec=True)
>>> features.scalar("throws", 2, 0, 3)
>>> features.one_hot("face[", ("1", "2", "3"), 1)
>>> features.values, features.spec().names
((2.0, 0.0, 1.0, 0.0), ('throws', 'face[1]', 'face[2]', 'face[3]'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import attrs

from ._messages import short_repr

__all__ = [
    "Encoder",
    "Features",
    "ObservationSpec",
    "encoded",
    "encoding_spec",
    "seats_from",
    "viewer_features",
]


def _floats(values: Sequence[float]) -> tuple[float, ...]:
    return tuple(float(value) for value in values)


def _names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(names)


@attrs.frozen
class ObservationSpec:
    """The fixed layout of a game's observations for one config: each element's ``low``
    and ``high`` bound (``low[i] <= high[i]``), its unique short name (``names``, e.g.
    ``"dice[6]"``) and how many there are (``size``).
    """

    low: tuple[float, ...] = attrs.field(converter=_floats)
    high: tuple[float, ...] = attrs.field(converter=_floats)
    names: tuple[str, ...] = attrs.field(converter=_names)
    size: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        size = len(self.names)
        if len(self.low) != size or len(self.high) != size:
            raise ValueError(
                f"an observation spec needs one low, high and name per element: got "
                f"{len(self.low)}, {len(self.high)} and {size}"
            )
        if len(set(self.names)) != size:
            raise ValueError("an observation spec's names must be unique")
        for name, low, high in zip(self.names, self.low, self.high, strict=True):
            if not low <= high:
                raise ValueError(f"element {name!r} has low {low} above high {high}")
        object.__setattr__(self, "size", size)

    @property
    def shape(self) -> tuple[int]:
        """``(size,)``: an observation is flat."""
        return (self.size,)

    def contains(self, observation: Sequence[float]) -> bool:
        """Whether ``observation`` has ``size`` elements, each within its bounds."""
        return len(observation) == self.size and all(
            low <= value <= high
            for low, value, high in zip(self.low, observation, self.high, strict=True)
        )


class Features:
    """Builds one observation, and with ``spec=True`` its names and bounds too; a labelled
    group names its elements ``prefix + label + "]"``: ``"hand[7H]"``.
    """

    __slots__ = ("_high", "_low", "_names", "_spec", "_values")

    def __init__(self, *, spec: bool = False) -> None:
        self._spec = spec
        self._values: list[float] = []
        self._low: list[float] = []
        self._high: list[float] = []
        self._names: list[str] = []

    @property
    def values(self) -> tuple[float, ...]:
        """The observation built so far."""
        return tuple(self._values)

    def scalar(self, name: str, value: float, low: float, high: float) -> None:
        """One element, ``value`` as a float; the caller keeps it within ``[low, high]``."""
        self._values.append(float(value))
        if self._spec:
            self._low.append(low)
            self._high.append(high)
            self._names.append(name)

    def flag(self, name: str, value: bool) -> None:
        """One element, 1.0 for true and 0.0 for false."""
        self.scalar(name, 1.0 if value else 0.0, 0.0, 1.0)

    def one_hot(self, prefix: str, labels: Sequence[str], index: int | None) -> None:
        """One element per label, 1.0 at ``index`` and 0.0 elsewhere (``None``: everywhere)."""
        hot = [0.0] * len(labels)
        if index is not None:
            hot[index] = 1.0
        self.group(prefix, labels, hot, [0.0] * len(labels), [1.0] * len(labels))

    def counts(
        self, prefix: str, labels: Sequence[str], counts: Sequence[int], highs: Sequence[float]
    ) -> None:
        """One element per label: its count, between 0 and its entry of ``highs``."""
        self.group(prefix, labels, counts, [0.0] * len(labels), highs)

    def group(
        self,
        prefix: str,
        labels: Sequence[str],
        values: Sequence[float],
        lows: Sequence[float],
        highs: Sequence[float],
    ) -> None:
        """One element per label: its value, between its entries of ``lows`` and ``highs``."""
        self._values.extend(float(value) for value in values)
        if self._spec:
            self._names.extend(f"{prefix}{label}]" for label in labels)
            self._low.extend(float(low) for low in lows)
            self._high.extend(float(high) for high in highs)

    def spec(self) -> ObservationSpec:
        """The names and bounds of the elements added so far (built with ``spec=True``)."""
        if not self._spec:
            raise ValueError("Features(spec=False) records no names or bounds")
        return ObservationSpec(low=self._low, high=self._high, names=self._names)


Encoder: TypeAlias = Callable[[Any, "Features"], None]
"""A game's encoding: writes a view into :class:`Features`, the same code for values and
for the spec."""


def encoded(encode: Encoder, seen: Any) -> tuple[float, ...]:
    """The view ``seen`` as numbers, as ``encode`` writes it: a game's ``observe``."""
    features = Features()
    encode(seen, features)
    return features.values


def encoding_spec(encode: Encoder, sample: Any) -> ObservationSpec:
    """The names and bounds ``encode`` gives, from any ``sample`` view of the config."""
    features = Features(spec=True)
    encode(sample, features)
    return features.spec()


def seats_from(seat: int | None, players: int) -> tuple[int, ...]:
    """Every seat in turn order from ``seat`` (0 for a spectator), as observations list
    per-seat fields so a seat finds itself first: relative seats ``P0`` (the viewer),
    ``P1`` (the next to play), and so on.

    >>> seats_from(2, 4), seats_from(None, 3)
    ((2, 3, 0, 1), (0, 1, 2))
    """
    first = 0 if seat is None else seat
    return tuple((first + offset) % players for offset in range(players))


def viewer_features(features: Features, seat: int | None, players: int) -> None:
    """The ``1 + players`` elements every observation starts with: ``viewer[spectator]``,
    then the absolute seat one-hot, ``viewer[S0]``, ``viewer[S1]`` … (all 0.0 for none).
    """
    if type(features) is not Features:
        raise TypeError(f"viewer_features adds to a Features, got {short_repr(features)}")
    features.flag("viewer[spectator]", seat is None)
    features.one_hot("viewer[S", tuple(map(str, range(players))), seat)
