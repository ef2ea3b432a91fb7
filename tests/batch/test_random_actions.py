"""``batch.random_actions`` draws each game's action uniformly from its legal ones."""

from __future__ import annotations

from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_rules.batch import Games, frame, nth_legal, random_actions


def _games(mask: np.ndarray) -> Games:
    size = mask.shape[0]
    return Games(
        current_player=np.zeros(size, dtype=np.int64),
        legal_mask=mask,
        scores=np.zeros((size, 2), dtype=np.int64),
        over=mask.sum(axis=1) == 0,
        data={},
    )


def test_each_legal_action_is_drawn_as_often_and_a_game_without_one_gets_0() -> None:
    mask = np.zeros((3, 2762), dtype=bool)
    mask[0, [1, 2710, 2761]] = True
    mask[2, [6, 7]] = True
    games, generator = _games(mask), np.random.default_rng(0)
    drawn = [Counter[int]() for _ in range(3)]
    for _ in range(3000):
        for game, action in enumerate(random_actions(games, generator).tolist()):
            drawn[game][action] += 1
    assert set(drawn[0]) == {1, 2710, 2761}
    assert all(900 < times < 1100 for times in drawn[0].values())
    assert drawn[1] == Counter({0: 3000})
    assert set(drawn[2]) == {6, 7}
    assert all(1350 < times < 1650 for times in drawn[2].values())


def test_no_game_with_a_legal_action_means_every_action_is_0() -> None:
    games = _games(np.zeros((4, 10), dtype=bool))
    assert random_actions(games, np.random.default_rng(0)).tolist() == [0, 0, 0, 0]


def test_masks_of_any_width_draw_only_legal_actions() -> None:
    generator = np.random.default_rng(1)
    for width in (1, 3, 7, 8, 13, 2762):
        mask = generator.random((5, width)) < 0.3
        actions = random_actions(_games(mask), generator)
        for game, action in enumerate(actions.tolist()):
            assert mask[game, action] or (action == 0 and not mask[game].any())


@settings(max_examples=200, deadline=None)  # the first example compiles
@given(st.integers(1, 40), st.integers(1, 3000), st.floats(0, 1), st.integers(0, 2**32))
def test_the_compiled_pass_picks_the_actions_the_numpy_pass_picks(
    size: int, width: int, density: float, seed: int
) -> None:
    compiled = pytest.importorskip("tabletop_rules.batch.compiled.masks")
    generator = np.random.default_rng(seed)
    mask = generator.random((size, width)) < density
    draws = np.append(generator.random(size - 1), np.nextafter(1.0, 0.0))  # the highest draw
    assert compiled.nth_legal(mask, draws).tolist() == nth_legal(mask, draws).tolist()


def _listed(mask: np.ndarray) -> np.ndarray:
    """Each row's legal actions ascending, then -1, as a kernel's ``legal_actions``."""
    width = max(1, int(mask.sum(axis=1).max()))
    listed = np.full((mask.shape[0], width), -1, dtype=np.int16)
    for game, row in enumerate(mask):
        actions = np.flatnonzero(row)
        listed[game, : actions.size] = actions
    return listed


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 40), st.integers(1, 300), st.floats(0, 0.2), st.integers(0, 2**32))
def test_a_record_of_legal_actions_draws_what_its_mask_draws(
    size: int, width: int, density: float, seed: int
) -> None:
    generator = np.random.default_rng(seed)
    mask = generator.random((size, width)) < density
    listed = Games(
        current_player=np.zeros(size, dtype=np.int64),
        legal_actions=_listed(mask),
        num_actions=width,
        scores=np.zeros((size, 2), dtype=np.int64),
        over=mask.sum(axis=1) == 0,
        data={},
    )
    assert random_actions(listed, np.random.default_rng(seed)).tolist() == (
        random_actions(_games(mask), np.random.default_rng(seed)).tolist()
    )
    assert (listed.legal_mask == mask).all()  # made on first read, the same mask
    assert listed.legal_mask is listed.legal_mask
    assert not listed.legal_mask.flags.writeable


@settings(max_examples=100, deadline=None)  # the first example compiles
@given(st.integers(1, 40), st.integers(1, 300), st.floats(0, 0.3), st.integers(0, 2**32))
def test_the_lists_are_read_alike_with_numba_and_without(
    size: int, width: int, density: float, seed: int
) -> None:
    compiled = pytest.importorskip("tabletop_rules.batch.compiled.masks")
    generator = np.random.default_rng(seed)
    mask = generator.random((size, width)) < density
    listed = _listed(mask)
    draws = np.append(generator.random(size - 1), np.nextafter(1.0, 0.0))  # the highest draw
    actions = generator.integers(0, width, size=size)
    read = []
    for masks in (compiled, None):
        with mock.patch.object(frame, "_compiled_masks", return_value=masks):
            games = Games(
                current_player=np.zeros(size, dtype=np.int64),
                legal_actions=listed,
                num_actions=width,
                scores=np.zeros((size, 2), dtype=np.int64),
                over=np.zeros(size, dtype=bool),
                data={},
            )
            drawn = random_actions(games, mock.Mock(random=lambda _size: draws))
            read.append(
                (drawn.tolist(), frame._fastest(frame._lists_hold)(listed, actions).tolist())
            )
            assert np.array_equal(games.legal_mask, mask)
    assert read[0] == read[1]
    assert read[0][1] == mask[np.arange(size), actions].tolist()


def test_an_action_the_lists_type_cannot_hold_is_not_held_without_numba() -> None:
    listed = np.array([[3, -1]], dtype=np.int16)
    with mock.patch.object(frame, "_compiled_masks", return_value=None):
        assert frame._fastest(frame._lists_hold)(listed, np.array([65535])).tolist() == [
            False
        ]  # not -1
        assert frame._fastest(frame._lists_hold)(listed, np.array([3])).tolist() == [True]


def test_a_record_needs_a_mask_or_its_legal_actions_and_width() -> None:
    with pytest.raises(TypeError, match="takes a legal_mask, or legal_actions and num_actions"):
        Games(
            current_player=np.zeros(1, dtype=np.int64),
            legal_actions=np.zeros((1, 1), dtype=np.int16),
            scores=np.zeros((1, 2), dtype=np.int64),
            over=np.zeros(1, dtype=bool),
            data={},
        )
