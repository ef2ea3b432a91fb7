"""Hypothesis strategies for dice poker configs, shared by the test modules."""

from hypothesis import strategies as st

from tabletop_rules import dice_poker as dp
from tabletop_rules.dice_poker.config import MAX_POINTS, MAX_STAGES, STAGE_ORDERS, BoxScores

orders = st.sampled_from(STAGE_ORDERS)


@st.composite
def configs(draw: st.DrawFn, max_players: int = 4, max_stages: int = 2) -> dp.Config:
    """Any valid config, small enough that random games stay quick.

    Every number is within its ``Config`` bound; the points (which cost nothing to play)
    range over the whole of ``0..MAX_POINTS``, the sizes stay small.
    """
    assert 1 <= max_players <= dp.MAX_PLAYERS
    assert 1 <= max_stages <= MAX_STAGES
    stages = draw(st.integers(1, max_stages))
    order_count = draw(st.sampled_from(sorted({1, stages})))
    return dp.Config(
        players=draw(st.integers(1, max_players)),
        throws_per_turn=draw(st.integers(1, 4)),
        stages=stages,
        stage_orders=tuple(draw(orders) for _ in range(order_count)),
        fences=draw(st.booleans()),
        max_fences=draw(st.none() | st.integers(0, 6)),
        max_fences_per_turn=draw(st.none() | st.integers(0, 3)),
        premium=draw(st.integers(0, MAX_POINTS)),
        penalty=draw(st.integers(0, MAX_POINTS)),
        box_scores=BoxScores(*(draw(st.integers(0, MAX_POINTS)) for _ in range(3))),
        auto_chance=draw(st.booleans()),
    )


faces = st.lists(st.integers(1, 6), max_size=7).map(tuple)
boxes = st.sampled_from(list(dp.Box))
moves: st.SearchStrategy[dp.Move] = st.one_of(
    st.builds(dp.Roll, faces),
    st.builds(dp.Dice, faces),
    st.builds(dp.Write, boxes),
    st.builds(dp.Scratch, boxes),
    st.builds(dp.Announce, boxes),
)
"""Any move that can be built, legal somewhere or nowhere (six dice kept, ONES scratched)."""
