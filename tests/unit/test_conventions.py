"""Every convention option: unit cases, and scikit-learn's own ndcg_score where it is installed."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.course import diagnosis, scenarios
from components.engine import conventions as cv
from components.engine import metrics


def test_capped_recall():
    assert cv.capped_recall_at_k([1, 1, 0, 1, 1], 5, n_relevant=10) == pytest.approx(4 / 5)
    assert cv.capped_recall_at_k([1, 0], 5, n_relevant=2) == pytest.approx(1 / 2)  # |relevant| < k: as usual
    assert cv.capped_recall_at_k([0, 0], 5, n_relevant=0) == 0.0


def test_returned_ideal_hides_a_missed_document():
    grades = scenarios.FRAMEWORKS.grades(scenarios.FRAMEWORKS.presets["FastAPI missed"])
    assert cv.ndcg_returned_ideal(grades, 3) > metrics.ndcg_at_k(grades, 3, scenarios.FRAMEWORKS.judged_grades())


def test_tie_rules_on_the_tied_preset():
    ids = [i for i, _ in scenarios.TIED_SCORES]
    scores = [s for _, s in scenarios.TIED_SCORES]
    trec = [ids[i] for i in cv.order_by_score(ids, scores, "trec_eval")]
    listed = [ids[i] for i in cv.order_by_score(ids, scores, "listed")]
    assert trec[:4] == ["django", "snake", "monty", "flask"]  # ties: document id descending
    assert trec[4:6] == ["pyramid", "fastapi"]
    assert listed[:4] == ["django", "flask", "snake", "monty"]
    with pytest.raises(ValueError, match="rule must be"):
        cv.order_by_score(ids, scores, "random")
    with pytest.raises(ValueError, match="one score per document"):
        cv.order_by_score(ids, scores[:-1])


def test_trec_eval_tie_rule_compares_bytes():
    assert cv.order_by_score(["007", "7", "a"], [1.0, 1.0, 1.0]) == [2, 1, 0]


def test_tie_averaged_dcg_is_the_mean_over_orders():
    grades, scores = [2, 0, 1, 0], [0.5, 0.5, 0.5, 0.1]
    import itertools
    dcgs = [metrics.dcg_at_k([grades[i] for i in perm] + [0], 2, "linear") for perm in itertools.permutations(range(3))]
    assert cv.tie_averaged_dcg_at_k(grades, scores, 2) == pytest.approx(np.mean(dcgs))
    assert cv.tie_averaged_dcg_at_k([], [], 3) == 0.0


def test_sklearn_refuses_negative_grades():
    with pytest.raises(ValueError, match="negative"):
        cv.sklearn_ndcg([1, -1], [2.0, 1.0])


@pytest.mark.parametrize("rule, expected", [("zero", 0.4), ("skip", 0.8)])
def test_empty_query_rules(rule, expected):
    assert cv.mean_with_empty_rule([0.8, 0.0], [True, False], rule) == pytest.approx(expected)


def test_empty_query_error_rule():
    with pytest.raises(ValueError, match="1 query has no relevant item"):
        cv.mean_with_empty_rule([0.8, 0.0], [True, False], "error")
    assert cv.mean_with_empty_rule([0.8, 0.4], [True, True], "error") == pytest.approx(0.6)
    assert np.isnan(cv.mean_with_empty_rule([0.0], [False], "skip"))


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=10), st.integers(1, 12))
def test_sklearn_ndcg_equals_scikit_learn(pairs, k):
    sklearn_metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn is in the test extra")
    grades = [g for g, _ in pairs]
    scores = [float(s) for _, s in pairs]
    if len(pairs) == 1:
        return  # scikit-learn refuses a single document
    expected = sklearn_metrics.ndcg_score([grades], [scores], k=k)
    assert cv.sklearn_ndcg(grades, scores, k) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("preset, expected", [
    ("Well ordered", "healthy"), ("Found but badly ordered", "ranking"), ("First hit only", "matching"),
])
def test_choosing_presets_give_their_diagnosis(preset, expected):
    q = scenarios.CHOOSING
    grades, judged, k = q.grades(q.presets[preset]), q.judged_grades(), scenarios.CHOOSING_K
    got = diagnosis.diagnose(metrics.recall_at_k(grades, k, q.n_relevant()), metrics.ndcg_at_k(grades, k, judged),
                             metrics.reciprocal_rank_of(grades))
    assert got == expected


def test_same_recall_very_different_ndcg():
    q = scenarios.CHOOSING
    good, bad = (q.grades(q.presets[p]) for p in ("Well ordered", "Found but badly ordered"))
    assert metrics.recall_at_k(good, 5, 4) == metrics.recall_at_k(bad, 5, 4) == 1.0
    assert metrics.ndcg_at_k(good, 5, q.judged_grades()) - metrics.ndcg_at_k(bad, 5, q.judged_grades()) > 0.3


def test_diagnose_validates():
    with pytest.raises(ValueError, match="recall must lie"):
        diagnosis.diagnose(1.5, 0.5, 0.5)
