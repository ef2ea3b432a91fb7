"""The SplitMix64 generator: golden vectors, unbiased ranges, dice, shuffles, immutability."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from itertools import pairwise, permutations

import attrs
import pytest

from tabletop_rules import dice_poker as dp
from tabletop_rules import rng as rng_module
from tabletop_rules.errors import ConfigError
from tabletop_rules.rng import SEED_BITS, Rng, is_valid_state, resolve_seed

MASK = (1 << 64) - 1


def reference_splitmix64(seed: int) -> Iterator[int]:
    """SplitMix64 exactly as published (Steele, Lea and Flood 2014; Vigna's splitmix64.c)."""
    x = seed
    while True:
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def reference_below(seed: int, n: int) -> tuple[int, int]:
    """Lemire's multiply-shift with rejection over the reference stream: (value, draws used)."""
    threshold = (1 << 64) % n
    for draws, raw in enumerate(reference_splitmix64(seed), 1):
        product = raw * n
        if product & MASK >= threshold:
            return product >> 64, draws
    raise AssertionError("unreachable")


def draws(rng: Rng, count: int, draw: Callable[[Rng], tuple[int, Rng]]) -> list[int]:
    values = []
    for _ in range(count):
        value, rng = draw(rng)
        values.append(value)
    return values


# --- golden vectors -----------------------------------------------------------------------


def test_seed_zero_gives_the_published_first_output() -> None:
    assert Rng.from_seed(0).next_u64()[0] == 0xE220A8397B1DCDAF


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (0, (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F)),
        (1, (0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E)),
        (2**64 - 1, (0xE4D971771B652C20, 0xE99FF867DBF682C9, 0x382FF84CB27281E9)),
    ],
)
def test_first_outputs_are_pinned(seed: int, expected: tuple[int, ...]) -> None:
    assert tuple(draws(Rng.from_seed(seed), 3, Rng.next_u64)) == expected


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 2**32, 2**63, 2**64 - 1, 0x0123456789ABCDEF])
def test_outputs_match_an_independent_reference_implementation(seed: int) -> None:
    stream = reference_splitmix64(seed)
    expected = [next(stream) for _ in range(50)]
    assert draws(Rng.from_seed(seed), 50, Rng.next_u64) == expected


def test_the_state_advances_by_the_golden_gamma() -> None:
    _value, after = Rng.from_seed(2**64 - 1).next_u64()
    assert after == Rng((2**64 - 1 + 0x9E3779B97F4A7C15) % 2**64)


def test_dice_of_seed_seven_are_pinned() -> None:
    faces, after = Rng.from_seed(7).dice(5)
    assert faces == (3, 1, 6, 4, 3)
    assert after == Rng(1663341875487337584)


def test_shuffle_of_seed_zero_is_pinned() -> None:
    shuffled, _after = Rng.from_seed(0).shuffled(range(10))
    assert shuffled == (4, 9, 2, 5, 1, 7, 6, 0, 3, 8)


# --- below(n) -----------------------------------------------------------------------------


def test_below_one_is_always_zero() -> None:
    rng = Rng.from_seed(3)
    for _ in range(100):
        value, after = rng.below(1)
        assert value == 0
        assert after != rng, "below(1) still consumes a draw"
        rng = after


@pytest.mark.parametrize("n", [2, 3, 6, 7, 1000, 2**32 + 1, 2**63 + 1, 2**64 - 1, 2**64])
def test_below_stays_in_range(n: int) -> None:
    values = draws(Rng.from_seed(n % 2**64), 500, lambda rng: rng.below(n))
    assert all(0 <= value < n for value in values)


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 36, 7776, 2**32 + 1, 2**63 + 1, 2**64 - 1, 2**64])
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**64 - 1])
def test_below_is_lemire_rejection_over_splitmix64(n: int, seed: int) -> None:
    value, after = Rng.from_seed(seed).below(n)
    expected, used = reference_below(seed, n)
    assert value == expected
    assert after == Rng((seed + used * 0x9E3779B97F4A7C15) & MASK)


def test_below_rejects_the_biased_zone_and_draws_again() -> None:
    # For n = 2**63 + 1 almost half of all 64-bit outputs fall in the biased zone, so some
    # small seed needs a second draw; below() must skip the first output, not fold it.
    n = 2**63 + 1
    seed = next(s for s in range(1000) if reference_below(s, n)[1] > 1)
    first = next(reference_splitmix64(seed))
    expected, used = reference_below(seed, n)
    value, after = Rng.from_seed(seed).below(n)
    assert value != (first * n) >> 64
    assert value == expected
    assert after == Rng((seed + used * 0x9E3779B97F4A7C15) & MASK)


def test_below_full_range_is_the_raw_output() -> None:
    rng = Rng.from_seed(99)
    assert rng.below(2**64)[0] == rng.next_u64()[0]


def test_below_draws_are_spread_evenly() -> None:
    counts = Counter(draws(Rng.from_seed(2026), 6000, lambda rng: rng.below(6)))
    assert set(counts) == set(range(6))
    # 1000 expected per value, standard deviation about 29: 150 is five deviations.
    assert all(850 <= count <= 1150 for count in counts.values()), counts


def test_below_draws_are_not_stuck_in_pairs() -> None:
    values = draws(Rng.from_seed(11), 4000, lambda rng: rng.below(2))
    pairs = Counter(pairwise(values))
    assert set(pairs) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert all(850 <= count <= 1150 for count in pairs.values()), pairs


@pytest.mark.parametrize("n", [0, -1, -(2**64)])
def test_below_refuses_a_bound_that_is_not_positive(n: int) -> None:
    with pytest.raises(ValueError, match="positive bound"):
        Rng.from_seed(0).below(n)


def test_below_handles_a_bound_beyond_64_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    # One 64-bit draw cannot cover more than 2**64 values: below() must refuse such a bound
    # (ValueError) or answer in range, never reject every draw forever. A guard on the mixer
    # turns an endless loop into a failure: 1000 rejections in a row has probability < 2**-900.
    calls = 0
    real_mix = rng_module._mix

    def guarded_mix(z: int) -> int:
        nonlocal calls
        calls += 1
        if calls > 1000:
            raise AssertionError("below() rejected 1000 draws in a row: it would never return")
        return real_mix(z)

    monkeypatch.setattr(rng_module, "_mix", guarded_mix)
    n = 2**64 + 1
    try:
        value, _after = Rng.from_seed(5).below(n)
    except ValueError:
        return
    assert 0 <= value < n


# --- dice ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 42, 2**64 - 1])
def test_dice_are_successive_draws_below_six_plus_one(seed: int) -> None:
    rng = Rng.from_seed(seed)
    faces, after = rng.dice(5)
    expected = []
    for _ in range(5):
        value, rng = rng.below(6)
        expected.append(value + 1)
    assert faces == tuple(expected)
    assert after == rng


def test_dice_show_every_face_evenly() -> None:
    faces, _after = Rng.from_seed(8).dice(6000)
    counts = Counter(faces)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 <= count <= 1150 for count in counts.values()), counts


def test_dice_honour_the_count_and_the_sides() -> None:
    rng = Rng.from_seed(4)
    assert rng.dice(0) == ((), rng)
    faces, _after = rng.dice(300, sides=20)
    assert len(faces) == 300
    assert set(faces) <= set(range(1, 21))
    assert len(set(faces)) == 20
    assert set(rng.dice(50, sides=1)[0]) == {1}


@pytest.mark.parametrize("sides", [0, -6])
def test_dice_refuse_sides_that_are_not_positive(sides: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng.from_seed(0).dice(5, sides=sides)


# --- shuffled -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 2**64 - 1])
def test_shuffled_is_a_permutation(seed: int) -> None:
    items = ["a", "b", "c", "d", "e", "f", "g", "h", "b"]
    shuffled, _after = Rng.from_seed(seed).shuffled(items)
    assert sorted(shuffled) == sorted(items)
    assert items == ["a", "b", "c", "d", "e", "f", "g", "h", "b"], "the input is not changed"


@pytest.mark.parametrize("length", [0, 1, 2, 8, 52, 70])
@pytest.mark.parametrize("seed", [77, 0, 2**64 - 1, (-rng_module._GOLDEN_GAMMA) & rng_module._MASK])
def test_shuffled_is_fisher_yates_over_below(seed: int, length: int) -> None:
    # the last seed's first draw mixes to 0, which below() rejects: the inlined loop must too
    items = list(range(length))
    rng = Rng.from_seed(seed)
    expected = list(items)
    for i in range(len(expected) - 1, 0, -1):
        j, rng = rng.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert Rng.from_seed(seed).shuffled(items) == (tuple(expected), rng)


def test_shuffled_reaches_every_order_about_equally() -> None:
    counts: Counter[tuple[int, ...]] = Counter()
    rng = Rng.from_seed(5)
    for _ in range(3000):
        order, rng = rng.shuffled((1, 2, 3))
        counts[order] += 1
    assert set(counts) == set(permutations((1, 2, 3)))
    # 500 expected per order, standard deviation about 20.
    assert all(400 <= count <= 600 for count in counts.values()), counts


def test_shuffled_handles_empty_and_single_sequences() -> None:
    rng = Rng.from_seed(1)
    assert rng.shuffled([]) == ((), rng)
    assert rng.shuffled(["x"]) == (("x",), rng)


# --- values, seeds and states -------------------------------------------------------------


def test_methods_return_a_new_generator_and_leave_the_old_one_alone() -> None:
    rng = Rng.from_seed(123)
    first = rng.next_u64()
    assert rng.below(10)[1] != rng
    assert rng.dice(5)[1] != rng
    assert rng.shuffled(range(5))[1] != rng
    assert rng == Rng.from_seed(123)
    assert rng.next_u64() == first, "drawing again from the same value repeats the draw"


def test_a_generator_cannot_be_changed_in_place() -> None:
    rng = Rng.from_seed(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rng.state = 2  # type: ignore[misc]
    assert rng == Rng(1)


def test_generators_are_hashable_values() -> None:
    assert {Rng(5), Rng.from_seed(5)} == {Rng(5)}
    assert Rng.from_seed(5).state == 5


def test_seeds_span_sixty_four_bits() -> None:
    assert SEED_BITS == 64
    assert Rng.from_seed(0).state == 0
    assert Rng.from_seed(2**64 - 1).state == 2**64 - 1


@pytest.mark.parametrize("seed", [-1, 2**64, 2**100, True, False, 1.0, 1.5, "1", None])
def test_a_bad_seed_is_refused(seed: object) -> None:
    assert not is_valid_state(seed)
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        Rng.from_seed(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, 1, 2**63, 2**64 - 1])
def test_every_sixty_four_bit_integer_is_a_valid_state(value: int) -> None:
    assert is_valid_state(value)
    assert Rng.from_seed(value).state == value


# --- draws_since --------------------------------------------------------------------------


def test_a_fresh_generator_is_zero_draws_from_its_seed() -> None:
    assert Rng.from_seed(0).draws_since(0) == 0
    assert Rng.from_seed(2**64 - 1).draws_since(2**64 - 1) == 0


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63, 2**64 - 1, 0x0123456789ABCDEF])
@pytest.mark.parametrize("count", [1, 2, 5, 100])
def test_draws_since_counts_next_u64_draws(seed: int, count: int) -> None:
    rng = Rng.from_seed(seed)
    for _ in range(count):
        _value, rng = rng.next_u64()
    assert rng.draws_since(seed) == count


@pytest.mark.parametrize("seed", [0, 5, 2**64 - 1])
@pytest.mark.parametrize("n", [6, 36, 7776, 2**63 + 1])
def test_draws_since_counts_the_draws_below_made_rejections_included(seed: int, n: int) -> None:
    # Count the draws independently, with the reference stream, draw by draw.
    rng = Rng.from_seed(seed)
    made = 0
    state = seed
    for _ in range(40):
        _value, rng = rng.below(n)
        _expected, used = reference_below(state, n)
        made += used
        state = (state + used * 0x9E3779B97F4A7C15) & MASK
        assert rng.draws_since(seed) == made
    if n == 2**63 + 1:
        assert made > 40, "about half the draws below 2**63 + 1 are rejected"


def test_draws_since_counts_one_draw_per_die() -> None:
    _faces, rng = Rng.from_seed(42).dice(17)
    assert rng.draws_since(42) == 17


def test_draws_since_wraps_around_the_whole_period() -> None:
    # One draw back from the seed is 2**64 - 1 draws forward: the period is 2**64.
    before = Rng((3 - 0x9E3779B97F4A7C15) & MASK)
    assert before.draws_since(3) == 2**64 - 1
    assert before.next_u64()[1].draws_since(3) == 0


def test_draws_since_is_pinned_for_an_arbitrary_state() -> None:
    # (state - seed) * gamma**-1 mod 2**64, with gamma**-1 = 0xF1DE83E19937733D
    assert 0x9E3779B97F4A7C15 * 0xF1DE83E19937733D & MASK == 1
    far = Rng(0x0123456789ABCDEF)
    assert far.draws_since(0) == 7403524780991409907
    assert (
        Rng((0x0123456789ABCDEF + 0x9E3779B97F4A7C15) & MASK).draws_since(0) == 7403524780991409908
    )


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.0, None])
def test_draws_since_refuses_a_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        Rng.from_seed(1).draws_since(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("draws", [0, 1, 5, 1000])
def test_advanced_is_that_many_draws_in_one_step(draws: int) -> None:
    stepped = Rng.from_seed(123)
    for _ in range(draws):
        _, stepped = stepped.next_u64()
    assert Rng.from_seed(123).advanced(draws) == stepped
    assert stepped.draws_since(123) == draws


# --- resolve_seed: the seed a new game starts from ------------------------------------------


def test_resolve_seed_keeps_a_valid_seed() -> None:
    assert resolve_seed(0) == 0
    assert resolve_seed(MASK) == MASK


def test_resolve_seed_draws_a_fresh_64_bit_seed_for_none() -> None:
    seeds = {resolve_seed(None) for _ in range(20)}
    assert all(is_valid_state(seed) for seed in seeds)
    assert len(seeds) > 1


@pytest.mark.parametrize(
    ("seed", "shown"),
    [(-1, "-1"), (2**64, "18446744073709551616"), (True, "True"), (4.5, "4.5"), ("4", "'4'")],
)
def test_resolve_seed_refuses_anything_else_as_a_config_error(seed: object, shown: str) -> None:
    with pytest.raises(ConfigError) as caught:
        resolve_seed(seed)
    assert str(caught.value) == f"seed must be an integer in [0, 2**{SEED_BITS}), got {shown}"


class _SmallLooking(int):
    """An int that says it is small whatever it holds."""

    def __lt__(self, other: object) -> bool:
        return True

    def __le__(self, other: object) -> bool:
        return True


def test_a_seed_must_be_an_exact_int_not_a_subclass_whose_comparisons_lie() -> None:
    seed = _SmallLooking(2**70)
    assert not is_valid_state(seed)
    with pytest.raises(ValueError, match=r"\[0, 2\*\*64\)"):
        Rng.from_seed(seed)
    with pytest.raises(ConfigError, match=r"seed must be an integer"):
        dp.new_game(dp.Config(), seed=seed)
