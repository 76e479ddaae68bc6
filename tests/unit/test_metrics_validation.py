"""The engine's ValueErrors: each says what was wrong and what is expected."""
import numpy as np
import pytest

from components.engine import metrics as m


@pytest.mark.parametrize("k", [0, -1, 2.5, "3", True, None])
def test_bad_k(k):
    with pytest.raises(ValueError, match="k must"):
        m.recall_at_k([1, 0], k)


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="one entry per returned document"):
        m.query_set(1, [0, 0], [1, 2], [1], [0], [1])
    with pytest.raises(ValueError, match="same length"):
        m.query_set(1, [0], [1], [1], [0, 0], [1])


def test_query_index_and_rank_ranges():
    with pytest.raises(ValueError, match="between 0 and 0"):
        m.query_set(1, [1], [1], [1], [0], [1])
    with pytest.raises(ValueError, match="ranks start at 1"):
        m.query_set(1, [0], [0], [1], [0], [1])


def test_fractional_grades_and_bad_gain():
    with pytest.raises(ValueError, match="whole numbers"):
        m.dcg_at_k([1.5, 0], 2)
    with pytest.raises(ValueError, match="gain must be"):
        m.dcg_at_k([1, 0], 2, gain="log")


def test_n_relevant_below_the_relevant_items_returned():
    with pytest.raises(ValueError, match="at least the 2 relevant"):
        m.recall_at_k([1, 1, 0], 3, n_relevant=1)


def test_no_relevant_item_scores_zero_everywhere():
    qs = m.from_rankings([[0, -2, 0]])
    for f in (m.recall, m.success, m.precision, m.reciprocal_rank):
        assert f(qs, 3)[0] == 0.0
    assert m.ndcg(qs, 3)[0] == 0.0
    assert m.ndcg(qs, 3, "linear")[0] == 0.0


def test_k_beyond_the_list():
    assert m.recall_at_k([0, 1], 50) == 1.0
    assert m.precision_at_k([0, 1], 10) == 0.1  # divided by k, as trec_eval
    assert m.ndcg_at_k([2, 1], 10) == 1.0


def test_empty_query_set_and_empty_ranking():
    qs = m.from_rankings([[]], [[1, 2]])
    assert m.recall(qs, 5)[0] == 0.0 and m.ndcg(qs, 5)[0] == 0.0
    assert m.from_rankings([]).n_queries == 0


@pytest.mark.parametrize("args, message", [
    ((100, 50, 10, 11), "does not fit"),
    ((10, 5, 20, 0), "at least as many"),
    ((10, 5, -1, 0), "returned must be"),
    ((0, 0, 0, 0), "at least one document"),
])
def test_set_retrieval_validation(args, message):
    with pytest.raises(ValueError, match=message):
        m.set_retrieval(*args)


def test_nothing_relevant_in_the_collection():
    counts = m.set_retrieval(10, 0, 3, 0)
    assert counts.recall == 0.0 and counts.precision == 0.0 and counts.accuracy == pytest.approx(0.7)
    assert np.isnan(m.set_retrieval(10, 5, 0, 0).precision)


@pytest.mark.parametrize("grades, judged, message", [
    ([1001], [1], "grade must lie between -1000 and 1000, got 1001"),
    ([1], [-1001], "judged_grade must lie between -1000 and 1000, got -1001"),
    ([1], [-(2**63)], "judged_grade must lie between -1000 and 1000, got -9223372036854775808"),
])
def test_grades_outside_the_engines_range(grades, judged, message):
    with pytest.raises(ValueError, match=message):
        m.from_rankings([grades], [judged])
    m.from_rankings([[1000, -1000]], [[1000, -1000, 0]])  # the ends of the range are fine


def test_the_ideal_order_does_not_wrap_around_for_any_int64():
    # -(-2**63) wraps around to -2**63 itself: negated, the lowest grade sorted first and took the top of the ideal
    grade = np.array([1, -(2**63)], dtype=np.int64)
    qs = m.QuerySet(1, np.array([0]), np.array([1]), np.array([1]), np.array([0, 0]), grade)  # unchecked
    assert m.ndcg(qs, 10, "linear")[0] == 1.0  # pytrec_eval: 1.0 (the negative grade has gain 0)
    order, rank = m.ideal_ranks(np.zeros(4, dtype=np.int64), np.array([0, 2**63 - 1, -(2**63), 5]))
    assert order.tolist() == [1, 3, 0, 2] and rank.tolist() == [1, 2, 3, 4]


def test_a_rank_twice_in_one_query_is_refused_in_any_row_order():
    with pytest.raises(ValueError, match="rank 2 twice"):
        m.query_set(2, [1, 0, 0, 0], [1, 2, 1, 2], [0, 0, 1, 0], [0], [1])
    m.query_set(2, [1, 0, 0], [1, 2, 1], [0, 0, 1], [0], [1])  # the same ranks in different queries are fine


@pytest.mark.parametrize("level", [0, -1, 1.5, "2", True])
def test_a_relevance_level_below_1_or_not_whole(level):
    with pytest.raises(ValueError, match="relevance_level must be a whole number at least 1"):
        m.with_relevance_level(m.from_rankings([[1]]), level)


@pytest.mark.parametrize("is_judged, message", [
    ([True], r"one bool per returned document \(2\)"),
    ([1, 0], "type int"),
    ([[True, False]], r"shape \(1, 2\)"),
])
def test_is_judged_must_be_one_bool_per_returned_document(is_judged, message):
    with pytest.raises(ValueError, match=message):
        m.query_set(1, [0, 0], [1, 2], [1, 0], [0], [1], is_judged)


def test_is_judged_all_true_is_stored_as_none():
    assert m.query_set(1, [0], [1], [1], [0], [1], [True]).is_judged is None
    assert m.from_rankings([[1, 0]]).is_judged is None
    assert m.from_rankings([[1, None]]).is_judged.tolist() == [True, False]


def test_a_query_with_no_relevant_document_on_trec_eval_s_measures():
    qs = m.from_rankings([[0, None, -2]], [[0, -2]])
    for f in (m.average_precision, m.r_precision, m.bpref, m.num_relevant, m.num_relevant_returned):
        assert f(qs)[0] == 0.0
    assert m.ndcg(qs, None)[0] == 0.0 and m.average_precision(qs, 2)[0] == 0.0
    assert m.floored_average_precision(qs)[0] == m.MIN_GEO_MEAN == 0.00001
    assert m.judged_at_k(qs, 3)[0] == pytest.approx(2 / 3)  # the -2 is judged (as ir_measures)


def test_the_geometric_mean_of_nothing_and_of_zeros():
    assert np.isnan(m.geometric_mean([]))
    assert m.geometric_mean([0.0, 0.0]) == pytest.approx(0.00001)
