"""The four-query figure's table: every single move equals the engine's numbers for the ranks it makes."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.course import scenarios
from components.engine import metrics
from components.rank_figure.table import check_ranks, figure_table, slots

LENGTH = scenarios.FOUR_QUERY_LIST_LENGTH


def engine(ranks, k) -> list[float]:
    """The lesson's own way: the four-query set, the engine's means."""
    qs = scenarios.four_query_set(ranks)
    return [float(metrics.recall(qs, k).mean()), float(metrics.reciprocal_rank(qs).mean())]


def check_every_move(ranks, k) -> None:
    t = figure_table(ranks, k, LENGTH)
    assert t["values"][t["current"]] == pytest.approx(engine(ranks, k))
    for q in range(len(ranks)):
        for s, slot in enumerate(slots(LENGTH)):
            moved = list(ranks)
            moved[q] = slot
            assert t["values"][t["place"][q][s]] == pytest.approx(engine(moved, k)), (q, slot)
    for j in range(1, LENGTH + 1):
        assert t["values"][t["cutoff"][j - 1]] == pytest.approx(engine(ranks, j)), j
    assert t["rr"] == pytest.approx([1 / r for r in range(1, LENGTH + 1)] + [0.0])


def test_the_brief_numbers_and_every_move_of_the_lesson():
    """Ranks 1, 3, 1, 8: recall@1 0.50, recall@3 and @5 0.75, MRR 0.6146; query 4 to rank 4: MRR 0.646."""
    t = figure_table(scenarios.FOUR_QUERY_HIT_RANKS, 5, LENGTH)
    assert [round(v, 4) for v in t["values"][t["current"]]] == [0.75, 0.6146]
    assert [t["values"][t["cutoff"][j - 1]][0] for j in (1, 3, 5)] == [0.5, 0.75, 0.75]
    assert round(t["values"][t["place"][3][3]][1], 3) == 0.646
    for k in range(1, LENGTH + 1):
        check_every_move(scenarios.FOUR_QUERY_HIT_RANKS, k)


@given(st.lists(st.one_of(st.none(), st.integers(1, LENGTH)), min_size=1, max_size=6), st.integers(1, LENGTH))
def test_every_move_equals_the_engine_on_random_ranks(ranks, k):
    check_every_move(ranks, k)


@pytest.mark.parametrize("bad", [[0], [11], [True], ["3"], [2.0], []])
def test_bad_ranks_are_refused_with_the_rule(bad):
    with pytest.raises(ValueError, match="hit rank|at least one"):
        check_ranks(bad, LENGTH)


def test_k_beyond_the_axis_is_refused():
    with pytest.raises(ValueError, match="at most the axis length"):
        figure_table((1, 2), 11, LENGTH)
