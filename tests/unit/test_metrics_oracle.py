"""The engine core against pytrec_eval (trec_eval inside) on generated query sets.

Generated sets hold graded labels including negative ones, unjudged returned
documents, queries with no relevant item and lists shorter than k. Every
measure and both gains agree to 1e-9. For the exponential gain, the oracle is
given qrels whose grades are mapped to 2^rel − 1 (negatives to 0); RR@k is
checked against pytrec_eval's recip_rank on the list truncated to k.

trec_eval's own measures (AP, AP@k, GMAP, R-prec, bpref, nDCG without a
cutoff, the counts, 11pt_avg, gm_bpref, Rprec_mult at trec_eval's ten default
multiples and infAP) are evaluated through the measure registry, named with
:func:`~components.engine.measures.trec_name`, with relevance levels 1 to 3
and with trec_eval's judged-documents-only rule; the set values follow
:func:`~components.engine.measures.aggregate`. Judged@k is ir_measures'
measure, checked against ir_measures itself.

pytrec_eval corrupts its own heap when qrels hold negative grades (a
segmentation fault a few evaluations later, seen with pytrec-eval-terrier
0.5.11), so the generated qrels reach it with negatives mapped to 0, which is
what trec_eval's rule makes them; that trec_eval itself scores a negative
grade as gain 0 is checked once, in a subprocess of its own. bpref and the
judged-only rule tell a judged 0 from an unjudged document, and trec_eval
reads a negative grade as "in the pool, not judged", the same as absent: for
them the qrels reach pytrec_eval with negative grades left out (also checked
in a subprocess, with the negative grades given). infAP tells a document in
the pool but not judged (a negative grade) from one not in the pool (absent):
here both sides see the negative grades left out, and
tests/unit/test_trec_extra_measures.py gives them to pytrec_eval in a
subprocess.
"""
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.engine import measures
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
    rankings = [[judged.get(doc) for doc in returned] for judged, returned in queries]  # None: unjudged
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


# --- trec_eval's own measures through the registry --------------------------------------------------

TREC_MEASURES = ["AP", *(f"AP@{k}" for k in KS), "GMAP", "R-prec", "bpref", "nDCG", "num_ret", "num_rel",
                 "num_rel_ret", "num_q", *(f"{f}@{k}" for f in ("R", "Success", "P", "nDCG") for k in KS), "RR",
                 "11pt_avg", "gm_bpref", *(f"Rprec_mult@{x:g}" for x in measures.R_MULTIPLES)]
PYTREC_MEASURES = {"map", "map_cut.1,3,5,10", "gm_map", "Rprec", "bpref", "ndcg", "num_ret", "num_rel", "num_rel_ret",
                   "num_q", "recall.1,3,5,10", "success.1,3,5,10", "P.1,3,5,10", "ndcg_cut.1,3,5,10", "recip_rank",
                   "11pt_avg", "gm_bpref", "Rprec_mult", "infAP"}  # Rprec_mult: its default multiples


def without_negative_grades(queries):
    """Qrels for pytrec_eval: negative grades left out (trec_eval reads them as unjudged: the same as absent).

    A query left with no judgment gets one judged non-relevant document that is
    never returned: pytrec_eval skips a query with no judgment, and with no
    relevant document this one changes no value.
    """
    return {f"q{q}": {doc: g for doc, g in judged.items() if g >= 0} or {"never-returned": 0}
            for q, (judged, _) in enumerate(queries)}


def trec_eval_values(queries, **options):
    """pytrec_eval's per-query values of :data:`PYTREC_MEASURES`, for the queries with a non-empty run."""
    run = {f"q{q}": {doc: float(100 - i) for i, doc in enumerate(returned)} for q, (_, returned) in enumerate(queries)}
    evaluator = pytrec_eval.RelevanceEvaluator(without_negative_grades(queries), PYTREC_MEASURES, **options)
    return evaluator.evaluate({q: docs for q, docs in run.items() if docs})


def pytrec_value(name, value):
    """The per-query value pytrec_eval reports for ours: GMAP's and gm_bpref's are the log of the floored AP or
    bpref."""
    return np.log(value) if measures.aggregation(name) == measures.GEOMETRIC_MEAN else value


def unsampled_left_out(queries):
    """The queries with their negative grades left out of the judgments: a document the judged sample of the pool
    left out (negative grade) becomes one never pooled (absent), for both sides of infAP's check."""
    return [({doc: g for doc, g in judged.items() if g >= 0}, returned) for judged, returned in queries]


def assert_agrees_with_trec_eval(qs, queries, pooled=None, **options):
    """Our values of :data:`TREC_MEASURES` on ``qs`` and of infAP on ``pooled`` (``qs`` made from
    :func:`unsampled_left_out` of the queries; default ``qs``) equal pytrec_eval's, per query and for the set."""
    expected = trec_eval_values(queries, **options)
    ours = measures.evaluate(qs, TREC_MEASURES, gain="linear")
    ours.update(measures.evaluate(qs if pooled is None else pooled, ["infAP"], gain="linear"))
    answered = [q for q, (_, returned) in enumerate(queries) if returned]  # pytrec_eval skips an empty run
    if not answered:
        return
    for name, values in ours.items():
        trec = measures.trec_name(name)
        theirs = np.array([expected[f"q{q}"][trec] for q in answered])
        if options.get("judged_docs_only_flag"):  # a query -J leaves with no document: trec_eval's 11pt_avg divides
            theirs = np.where(np.isnan(theirs), 0.0, theirs)  # 0 by 0 (nan), Rankwise gives 0 (docs/conventions.md)
        np.testing.assert_allclose(pytrec_value(name, values[answered]), theirs, atol=1e-9, err_msg=name)
        assert measures.aggregate(name, values[answered]) == pytest.approx(
            pytrec_eval.compute_aggregated_measure(trec, list(theirs)), abs=1e-9), name


@given(query_sets())
def test_trec_eval_measures(queries):
    assert_agrees_with_trec_eval(to_query_set(queries), queries, to_query_set(unsampled_left_out(queries)))


@given(query_sets(), st.integers(min_value=1, max_value=3))
def test_trec_eval_measures_at_a_relevance_level(queries, level):
    qs, pooled = (m.with_relevance_level(to_query_set(q), level) for q in (queries, unsampled_left_out(queries)))
    assert_agrees_with_trec_eval(qs, queries, pooled, relevance_level=level)


@given(query_sets(), st.integers(min_value=1, max_value=2))
def test_trec_eval_measures_on_judged_documents_only(queries, level):
    # -J drops the negative grades' documents too: infAP needs no query set of its own
    qs = m.judged_only(m.with_relevance_level(to_query_set(queries), level))
    assert_agrees_with_trec_eval(qs, queries, relevance_level=level, judged_docs_only_flag=True)


@given(query_sets())
def test_exponential_ndcg_without_a_cutoff_against_mapped_qrels(queries):
    queries = [(j, r) for j, r in queries if r]
    if not queries:
        return
    expected = oracle(queries, ["ndcg"], grade_map=exp_gain)
    np.testing.assert_allclose(m.ndcg(to_query_set(queries), None, "exponential"), expected["ndcg"], atol=1e-9)


@given(query_sets(), st.sampled_from(KS))
def test_judged_at_k_against_ir_measures(queries, k):
    ir_measures = pytest.importorskip("ir_measures")
    qrels = {f"q{q}": judged for q, (judged, _) in enumerate(queries)}  # negative grades too: still judged
    run = {f"q{q}": {doc: float(100 - i) for i, doc in enumerate(returned)}
           for q, (_, returned) in enumerate(queries) if returned}
    expected = {r.query_id: r.value for r in ir_measures.iter_calc([ir_measures.Judged @ k], qrels, run)}
    ours = measures.evaluate(to_query_set(queries), [f"Judged@{k}"], gain="linear")[f"Judged@{k}"]
    for q, (_, returned) in enumerate(queries):
        assert ours[q] == pytest.approx(expected.get(f"q{q}", 0.0), abs=1e-9)  # nothing returned: 0


def test_a_query_with_nothing_returned_on_trec_eval_s_measures():
    # trec_eval -c scores a judged query missing from the run with every value 0 (GMAP, gm_bpref: their floor)
    qs = m.from_rankings([[]], [[2, 1, 0]])
    values = measures.evaluate(qs, TREC_MEASURES + ["Judged@5", "infAP"], gain="linear")
    counts = {"num_rel": 2.0, "num_q": 1.0, "GMAP": m.MIN_GEO_MEAN, "gm_bpref": m.MIN_GEO_MEAN}
    assert {name: float(v[0]) for name, v in values.items()} == {name: counts.get(name, 0.0) for name in values}
    assert float(m.judged_only(qs).rank.size) == 0.0


NEGATIVE_GRADE_BPREF_SCRIPT = """
import json, pytrec_eval
qrel = {"q1": {"a": 2, "b": -2, "c": 1, "e": 0, "f": -1, "y": 0, "z": 1}}
run = {"q1": {"b": 6.0, "d": 5.0, "e": 4.0, "f": 3.0, "a": 2.0, "c": 1.0}}
measures = {"bpref", "map", "ndcg", "num_ret", "Rprec"}
print(json.dumps([pytrec_eval.RelevanceEvaluator(qrel, measures, judged_docs_only_flag=only).evaluate(run)["q1"]
                  for only in (False, True)]))
"""


def test_trec_eval_reads_a_negative_grade_as_unjudged_for_bpref_and_judged_only():
    out = subprocess.run([sys.executable, "-c", NEGATIVE_GRADE_BPREF_SCRIPT], capture_output=True, text=True,
                         check=True)
    everything, judged = json.loads(out.stdout)
    # run order: b (-2), d (unjudged), e (0), f (-1), a (2), c (1); relevant: a, c, z; judged non-relevant: e, y
    qs = m.from_rankings([[-2, None, 0, -1, 2, 1]], [[2, -2, 1, 0, -1, 0, 1]])
    for values, expected in ((measures.evaluate(qs, ["bpref", "AP", "nDCG", "num_ret", "R-prec"], "linear"),
                              everything),
                             (measures.evaluate(m.judged_only(qs), ["bpref", "AP", "nDCG", "num_ret", "R-prec"],
                                                "linear"), judged)):
        assert {measures.trec_name(n): float(v[0]) for n, v in values.items()} == pytest.approx(expected, abs=1e-9)
    # bpref: R = 3 (a, c, z), N = 2 (e, y); one judged non-relevant (e) above a and above c; b and f skipped
    assert everything["bpref"] == pytest.approx(((1 - 1 / 2) + (1 - 1 / 2)) / 3) and judged["num_ret"] == 3
