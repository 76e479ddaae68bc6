"""The engine core against pytrec_eval (trec_eval inside) on generated query sets.

Generated sets hold graded labels including negative ones, unjudged returned
documents, queries with no relevant item and lists shorter than k. Every
measure and both gains agree to 1e-9. For the exponential gain, the oracle is
given qrels whose grades are mapped to 2^rel − 1 (negatives to 0); RR@k is
checked against pytrec_eval's recip_rank on the list truncated to k.

pytrec_eval corrupts its own heap when qrels hold negative grades (a
segmentation fault a few evaluations later, seen with pytrec-eval-terrier
0.5.11), so the generated qrels reach it with negatives mapped to 0, which is
what trec_eval's rule makes them; that trec_eval itself scores a negative
grade as gain 0 is checked once, in a subprocess of its own.
"""
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import metrics as m

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is the test oracle")

KS = (1, 3, 5, 10)


@st.composite
def query_sets(draw):
    """Per query: judged docs with grades in -2..3, and a returned list mixing judged and unjudged docs."""
    n_queries = draw(st.integers(min_value=1, max_value=6))
    queries = []
    for q in range(n_queries):
        judged = draw(st.dictionaries(st.sampled_from([f"d{i}" for i in range(12)]),
                                      st.integers(min_value=-2, max_value=3), min_size=1, max_size=10))
        pool = list(judged) + [f"u{i}" for i in range(4)]  # u*: never judged
        returned = draw(st.lists(st.sampled_from(pool), unique=True, max_size=12))
        queries.append((judged, returned))
    return queries


def to_query_set(queries) -> m.QuerySet:
    rankings = [[judged.get(doc, 0) for doc in returned] for judged, returned in queries]
    return m.from_rankings(rankings, [list(judged.values()) for judged, _ in queries])


def linear_gain(grade):
    return max(grade, 0)


def oracle(queries, measures, grade_map=linear_gain, cut=None):
    qrel = {f"q{q}": {doc: int(grade_map(g)) for doc, g in judged.items()} for q, (judged, _) in enumerate(queries)}
    # Strictly decreasing scores encode the ranking, so no tie rule is involved.
    run = {f"q{q}": {doc: float(100 - i) for i, doc in enumerate(returned[:cut])}
           for q, (_, returned) in enumerate(queries)}
    evaluator = pytrec_eval.RelevanceEvaluator(qrel, set(measures))
    scores = evaluator.evaluate(run)
    # pytrec_eval leaves out queries with an empty run; trec_eval scores them 0.
    return {name: np.array([scores.get(f"q{q}", {}).get(name, 0.0) for q in range(len(queries))])
            for name in next(iter(scores.values()), {})} if scores else {}


def exp_gain(grade):
    return 2 ** grade - 1 if grade > 0 else 0


@given(query_sets())
def test_binary_measures_and_linear_ndcg(queries):
    queries = [(j, r) for j, r in queries if r]  # an empty run is covered in the next test
    if not queries:
        return
    qs = to_query_set(queries)
    wanted = [f"{name}_{k}" for name in ("recall", "success", "P", "ndcg_cut") for k in KS] + ["recip_rank"]
    expected = oracle(queries, wanted)
    for k in KS:
        np.testing.assert_allclose(m.recall(qs, k), expected[f"recall_{k}"], atol=1e-9)
        np.testing.assert_allclose(m.success(qs, k), expected[f"success_{k}"], atol=1e-9)
        np.testing.assert_allclose(m.precision(qs, k), expected[f"P_{k}"], atol=1e-9)
        np.testing.assert_allclose(m.ndcg(qs, k, "linear"), expected[f"ndcg_cut_{k}"], atol=1e-9)
    np.testing.assert_allclose(m.reciprocal_rank(qs), expected["recip_rank"], atol=1e-9)


@given(query_sets())
def test_mean_recall_and_success_for_many_k_in_one_pass(queries):
    queries = [(j, r) for j, r in queries if r]
    if not queries:
        return
    ks = (*KS, 20)  # 20: deeper than every list
    expected = oracle(queries, [f"{name}_{k}" for name in ("recall", "success") for k in ks])
    recall, success = m.mean_recall_and_success_by_k(to_query_set(queries), ks)
    np.testing.assert_allclose(recall, [expected[f"recall_{k}"].mean() for k in ks], atol=1e-9)
    np.testing.assert_allclose(success, [expected[f"success_{k}"].mean() for k in ks], atol=1e-9)


@given(query_sets())
def test_exponential_ndcg_against_mapped_qrels(queries):
    queries = [(j, r) for j, r in queries if r]
    if not queries:
        return
    qs = to_query_set(queries)
    expected = oracle(queries, [f"ndcg_cut_{k}" for k in KS], grade_map=exp_gain)
    for k in KS:
        np.testing.assert_allclose(m.ndcg(qs, k, "exponential"), expected[f"ndcg_cut_{k}"], atol=1e-9)


@given(query_sets(), st.sampled_from(KS))
def test_rr_at_k_against_the_truncated_list(queries, k):
    queries = [(j, r) for j, r in queries if r]
    if not queries:
        return
    qs = to_query_set(queries)
    expected = oracle(queries, ["recip_rank"], cut=k)
    np.testing.assert_allclose(m.reciprocal_rank(qs, k), expected["recip_rank"], atol=1e-9)


def test_a_query_with_nothing_returned_scores_zero():
    qs = m.from_rankings([[]], [[2, 1]])
    for k in KS:
        assert m.recall(qs, k)[0] == m.ndcg(qs, k)[0] == m.precision(qs, k)[0] == 0.0
    assert m.reciprocal_rank(qs)[0] == 0.0


NEGATIVE_GRADE_SCRIPT = """
import json, pytrec_eval
qrel = {"q1": {"a": 2, "b": -2, "c": 1, "z": 1}}
run = {"q1": {"a": 1.0, "b": 3.0, "c": 0.5, "d": 2.0}}
print(json.dumps(pytrec_eval.RelevanceEvaluator(qrel, {"ndcg_cut_3", "recall_5", "recip_rank"}).evaluate(run)["q1"]))
"""


def test_trec_eval_gives_a_negative_grade_gain_zero():
    out = subprocess.run([sys.executable, "-c", NEGATIVE_GRADE_SCRIPT], capture_output=True, text=True, check=True)
    expected = json.loads(out.stdout)
    # run order by score: b (-2), d (unjudged), a (2), c (1); relevant: a, c, z
    qs = m.from_rankings([[-2, 0, 2, 1]], [[2, -2, 1, 1]])
    assert m.ndcg(qs, 3, "linear")[0] == pytest.approx(expected["ndcg_cut_3"], abs=1e-9)
    assert m.recall(qs, 5)[0] == pytest.approx(expected["recall_5"], abs=1e-9)
    assert m.reciprocal_rank(qs)[0] == pytest.approx(expected["recip_rank"], abs=1e-9)
