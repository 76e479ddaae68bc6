"""Every number in the content brief, computed from scenarios.py through the engine."""
import math

import numpy as np
import pytest

from components.course import scenarios as sc
from components.engine import metrics as m


def approx(x):
    return pytest.approx(x, abs=1e-12)


# --- Lesson 0: why accuracy fails ---------------------------------------------

def accuracy_case(name):
    case = sc.ACCURACY_PRESETS[name]
    return m.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, case.returned, case.relevant_returned)


def test_top10_half_relevant():
    counts = accuracy_case("Top 10, half of them relevant")
    assert counts.precision == approx(5 / 10)  # 5 relevant of 10 returned
    assert counts.recall == approx(5 / 50)  # 5 of the 50 relevant found
    assert counts.accuracy == approx((5 + 9_945) / 10_000)  # TP 5 + TN (9,950 − 5)


def test_return_everything():
    counts = accuracy_case("Return everything")
    assert counts.precision == approx(50 / 10_000)  # 0.5%
    assert counts.recall == approx(1.0)
    assert counts.accuracy == approx(50 / 10_000)  # only the 50 relevant are "correct"


def test_return_nothing_has_the_same_accuracy():
    counts = accuracy_case("Return nothing")
    assert math.isnan(counts.precision)  # nothing returned: undefined
    assert counts.recall == 0
    assert counts.accuracy == approx(9_950 / 10_000)  # 99.5%, the same as the top-10 system
    assert counts.accuracy == approx(accuracy_case("Top 10, half of them relevant").accuracy)


# --- Lesson 1: the lawyer scenario --------------------------------------------

def lawyer_recall(preset, k):
    q = sc.LAWYER
    return m.recall_at_k(q.grades(q.presets[preset]), k, n_relevant=q.n_relevant())


def test_lawyer_collection():
    q = sc.LAWYER
    assert q.n_relevant() == 10
    for preset in ("System A", "System B"):
        assert len(q.presets[preset]) == 20
    assert int(q.grades(q.presets["System A"]).sum()) == 4
    assert int(q.grades(q.presets["System A"])[:5].sum()) == 4  # all of A's hits in its top 5
    assert int(q.grades(q.presets["System B"]).sum()) == 9
    missed = set(q.not_returned(q.presets["System A"])) & set(q.not_returned(q.presets["System B"]))
    assert len([i for i in missed if q.by_id[i].grade == 1]) == 1  # the tenth case: retrieved by neither


def test_lawyer_recall():
    assert lawyer_recall("System A", 5) == approx(4 / 10)
    assert lawyer_recall("System B", 20) == approx(9 / 10)
    # hits at 1–4 or at 16–19: the same Recall@20
    assert lawyer_recall("System A, hits at 1–4", 20) == approx(4 / 10)
    assert lawyer_recall("System A, hits at 16–19", 20) == approx(4 / 10)


def test_lawyer_a_precision_trap():
    q = sc.LAWYER
    assert m.precision_at_k(q.grades(q.presets["System A"]), 5) == approx(4 / 5)  # the 0.8 trap


def test_order_aware_metric_separates_the_tied_recall_presets():
    q = sc.LAWYER
    top = q.grades(q.presets["System A, hits at 1–4"])
    bottom = q.grades(q.presets["System A, hits at 16–19"])
    assert m.reciprocal_rank_of(top) == approx(1 / 1)
    assert m.reciprocal_rank_of(bottom) == approx(1 / 16)


def test_recall_vs_hit_rate_on_three_queries():
    grades = [g for _, g, _ in sc.RECALL_VS_HIT_RATE]
    judged = [[1] * n for _, _, n in sc.RECALL_VS_HIT_RATE]
    qs = m.from_rankings(grades, judged)
    assert [n for _, _, n in sc.RECALL_VS_HIT_RATE] == [1, 3, 10]
    assert m.recall(qs, 5).tolist() == approx([1 / 1, 1 / 3, 2 / 10])
    assert m.success(qs, 5).tolist() == [1.0, 1.0, 1.0]
    assert m.recall(qs, 5).mean() != m.success(qs, 5).mean()


# --- Lesson 2: the JAR-file scenario ------------------------------------------

def jar_rankings():
    return [q.grades(q.presets["Default"]) for q in sc.JAR_QUERIES]


def test_jar_reciprocal_ranks_and_mrr():
    qs = m.from_rankings(jar_rankings())
    assert m.reciprocal_rank(qs).tolist() == approx([1 / 1, 1 / 2, 1 / 5])
    assert m.mean_reciprocal_rank(jar_rankings()) == approx((1.0 + 0.5 + 0.2) / 3)  # 1.7 / 3 = 0.567
    assert round(m.mean_reciprocal_rank(jar_rankings()), 3) == 0.567


def test_jar_traps():
    rr = m.reciprocal_rank(m.from_rankings(jar_rankings()))
    assert rr.sum() == approx(1.7)  # summed, not divided
    assert 1 / np.mean([1, 2, 5]) == approx(0.375)  # 1 / mean rank 2.67


def test_rr_discount_and_no_hit():
    assert m.reciprocal_rank_of([0, 1]) == approx(m.reciprocal_rank_of([1]) / 2)  # 1 → 2 halves
    assert m.reciprocal_rank_of([0, 0, 1]) == approx(1 / 3)  # 2 → 3: 0.5 → 0.333
    assert m.reciprocal_rank_of([0, 0, 0]) == 0.0  # no relevant item contributes 0


def test_only_the_first_hit_counts_and_mrr_at_1_is_hit_rate_at_1():
    q = sc.JAR_TWO_RELEVANT
    grades = q.grades(q.presets["Default"])
    assert int(grades.sum()) == 2
    assert m.reciprocal_rank_of(grades) == approx(1 / 2)  # sources jar at 2; the jar at 4 adds nothing
    rankings = jar_rankings() + [grades]
    qs = m.from_rankings(rankings)
    assert m.reciprocal_rank(qs, k=1).mean() == approx(m.success(qs, 1).mean())


# --- Lesson 3: the frameworks scenario -----------------------------------------

def frameworks(preset):
    q = sc.FRAMEWORKS
    return q.grades(q.presets[preset]), q.judged_grades()


def test_frameworks_system_a():
    grades, judged = frameworks("System A")
    assert m.dcg_at_k(grades, 3) == approx(3 / 1 + 3 / np.log2(3) + 3 / 2)  # 6.393
    assert round(m.dcg_at_k(grades, 3), 3) == 6.393
    assert m.idcg_at_k(judged, 3) == approx(m.dcg_at_k(grades, 3))
    assert m.ndcg_at_k(grades, 3, judged) == approx(1.0)


def test_frameworks_system_b():
    grades, judged = frameworks("System B")
    assert list(grades[:4]) == [0, 2, 2, 2]  # Snake Care, Django, Flask, FastAPI
    assert list(grades[4:]) == sorted(grades[4:], reverse=True)  # then the grade-1 items, then the 0s
    assert m.dcg_at_k(grades, 3) == approx(0 + 3 / np.log2(3) + 3 / 2)  # 3.393
    assert round(m.dcg_at_k(grades, 3), 3) == 3.393
    assert m.ndcg_at_k(grades, 3, judged) == approx((3 / np.log2(3) + 1.5) / (3 + 3 / np.log2(3) + 1.5))
    assert round(m.ndcg_at_k(grades, 3, judged), 3) == 0.531


def test_frameworks_linear_gain():
    a, judged = frameworks("System A")
    b, _ = frameworks("System B")
    assert m.dcg_at_k(a, 3, "linear") == approx(2 + 2 / np.log2(3) + 1)  # 4.262
    assert m.dcg_at_k(b, 3, "linear") == approx(0 + 2 / np.log2(3) + 1)  # 2.262
    assert round(m.ndcg_at_k(b, 3, judged, "linear"), 3) == 0.531  # equal grades: the gains agree


def test_mixed_grades_make_the_gains_disagree():
    grades, judged = frameworks("Mixed grades")
    exp, lin = m.ndcg_at_k(grades, 3, judged), m.ndcg_at_k(grades, 3, judged, "linear")
    assert exp == approx((1 + 3 / np.log2(3) + 3 / 2) / (3 + 3 / np.log2(3) + 3 / 2))  # grades 1, 2, 2
    assert lin == approx((1 + 2 / np.log2(3) + 2 / 2) / (2 + 2 / np.log2(3) + 2 / 2))
    assert abs(exp - lin) >= 0.05
    assert round(exp, 3) != round(m.ndcg_at_k(frameworks("System B")[0], 3, judged), 3)  # 0.687, not B's 0.531


def test_ideal_counts_a_missed_document():
    grades, judged = frameworks("FastAPI missed")
    assert "fastapi" in sc.FRAMEWORKS.not_returned(sc.FRAMEWORKS.presets["FastAPI missed"])
    assert m.idcg_at_k(judged, 3) == approx(3 + 3 / np.log2(3) + 3 / 2)  # still all three grade-2 pages
    retrieved_only = m.ndcg_at_k(grades, 3)  # the tutorial mistake: ideal from the list
    assert m.ndcg_at_k(grades, 3, judged) < retrieved_only


def test_ndcg_can_fall_as_k_grows():
    grades = [2, 0, 0, 2]
    assert m.ndcg_at_k(grades, 1) == approx(1.0)
    assert m.ndcg_at_k(grades, 2) == approx(3 / (3 + 3 / np.log2(3)))  # about 0.6
    assert round(m.ndcg_at_k(grades, 2), 1) == 0.6


# --- Lesson 4: the four-query example ------------------------------------------

def test_four_queries():
    qs = sc.four_query_set()  # ranks 1, 3, 1, 8
    assert m.recall(qs, 1).mean() == approx(2 / 4)  # queries 1 and 3
    assert m.recall(qs, 3).mean() == approx(3 / 4)
    assert m.recall(qs, 5).mean() == approx(3 / 4)  # query 4, at rank 8, misses
    assert m.reciprocal_rank(qs).tolist() == approx([1 / 1, 1 / 3, 1 / 1, 1 / 8])
    assert m.reciprocal_rank(qs).mean() == approx((1 + 1 / 3 + 1 + 1 / 8) / 4)  # 0.6146
    assert round(m.reciprocal_rank(qs).mean(), 3) == 0.615


def test_four_queries_recall_equals_hit_rate():
    qs = sc.four_query_set()
    for k in range(1, 11):
        assert m.recall(qs, k).mean() == approx(m.success(qs, k).mean())


def test_practice_trap_counting_ranks_below_3():
    ranks = np.array(sc.FOUR_QUERY_HIT_RANKS)
    assert np.mean(ranks < 3) == approx(2 / 4)  # the 0.5 trap: counted ranks < 3


def test_moving_query_4_from_8_to_4():
    qs = sc.four_query_set((1, 3, 1, 4))
    assert m.recall(qs, 5).mean() == approx(1.0)
    assert round(m.reciprocal_rank(qs).mean(), 3) == 0.646  # (1 + 1/3 + 1 + 1/4) / 4


def test_each_ndcg_starting_point_has_its_own_ndcg_at_3():
    """System B, "Mixed grades", the best-swap and the best-order questions each open on a different value:
    a learner who goes from one to the next sees the headline number move."""
    judged = sc.FRAMEWORKS.judged_grades()
    starts = [sc.FRAMEWORKS.presets["System B"], sc.FRAMEWORKS.presets[sc.FRAMEWORKS_MIXED],
              sc.FRAMEWORKS_SWAP_START, sc.FRAMEWORKS_ORDER_START]
    shown = [round(m.ndcg_at_k(sc.FRAMEWORKS.grades(o), 3, judged), 3) for o in starts]
    assert shown == [0.531, 0.687, 0.453, 0.374]
