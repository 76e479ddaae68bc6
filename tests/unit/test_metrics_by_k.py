"""Mean Recall@k and Success@k for many k in one pass: the same numbers as the per-k functions, and trec_eval's."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import metrics as m


@st.composite
def query_sets(draw):
    """Rows in any order, ranks with gaps, judged grades drawn apart from the returned ones (so a query can have
    relevant returned rows and no relevant judged document), queries with nothing returned, and no queries."""
    n_queries = draw(st.integers(min_value=0, max_value=6))
    qidx, rank, grade, judged_qidx, judged_grade = [], [], [], [], []
    for q in range(n_queries):
        ranks = draw(st.lists(st.integers(min_value=1, max_value=40), unique=True, max_size=12))
        qidx += [q] * len(ranks)
        rank += ranks
        grade += draw(st.lists(st.integers(min_value=-2, max_value=3), min_size=len(ranks), max_size=len(ranks)))
        judged = draw(st.lists(st.integers(min_value=-2, max_value=3), max_size=8))
        judged_qidx += [q] * len(judged)
        judged_grade += judged
    order = draw(st.permutations(range(len(qidx))))
    return m.query_set(n_queries, np.array(qidx, dtype=np.int64)[order], np.array(rank, dtype=np.int64)[order],
                       np.array(grade, dtype=np.int64)[order], judged_qidx, judged_grade)


def per_k(qs, ks):
    """The loop the page ran: one full pass per k."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the mean of no queries is nan
        return ([float(m.recall(qs, k).mean()) for k in ks], [float(m.success(qs, k).mean()) for k in ks])


def assert_same(got, expected):
    assert len(got) == len(expected)
    for x, y in zip(got, expected):
        assert (math.isnan(x) and math.isnan(y)) or abs(x - y) <= 1e-12, (got, expected)


@given(query_sets(), st.lists(st.integers(min_value=1, max_value=45), max_size=10))
def test_one_pass_gives_the_per_k_means(qs, ks):
    recall, success = m.mean_recall_and_success_by_k(qs, ks)
    expected_recall, expected_success = per_k(qs, ks)
    assert_same(recall, expected_recall)
    assert_same(success, expected_success)
    assert isinstance(recall, tuple) and isinstance(success, tuple)
    assert all(type(x) is float for x in recall + success)


def test_many_queries_and_a_hundred_ks():
    rng = np.random.default_rng(11)
    n, depth = 50_000, 30
    qidx = np.repeat(np.arange(n), depth)
    rank = np.tile(np.arange(1, depth + 1), n)
    grade = np.where(rng.random(qidx.size) < 0.05, rng.integers(1, 3, qidx.size), 0)
    judged_qidx = np.r_[qidx[grade >= 1], rng.integers(0, n, n)]  # every returned relevant row, and more
    judged_grade = np.r_[grade[grade >= 1], rng.integers(-1, 3, n)]
    qs = m.query_set(n, qidx, rank, grade, judged_qidx, judged_grade)
    ks = list(range(1, 101))  # beyond the deepest rank too
    recall, success = m.mean_recall_and_success_by_k(qs, ks)
    expected_recall, expected_success = per_k(qs, ks)
    assert_same(recall, expected_recall)
    assert_same(success, expected_success)
    assert recall[-1] == recall[depth - 1] < 1 and success[-1] == success[depth - 1]  # flat past the list


def test_bad_cutoffs_are_refused():
    qs = m.from_rankings([[1, 0]])
    for bad in ([0], [2, -1], [1.5], [True]):
        with pytest.raises(ValueError):
            m.mean_recall_and_success_by_k(qs, bad)
    assert m.mean_recall_and_success_by_k(qs, []) == ((), ())
