"""The question bank: every lesson's questions and warm-ups, each number from the engine; lookup and progress."""
from __future__ import annotations

from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

import numpy as np

from components.course import hybrid, precision
from components.course import scenarios as sc
from components.course.breakdown import dcg_terms, positions
from components.course.quiz.model import (
    LESSONS,
    ChoiceQuestion,
    NumericQuestion,
    OrderingQuestion,
    Question,
    Trap,
    WarmUp,
    is_graded,
    joined,
    values_of,
    within,
)
from components.engine import conventions, fusion, metrics
from components.engine.formatting import fmt

# ----------------------------------------------------------------------------
# The question bank (every number from the engine)
# ----------------------------------------------------------------------------

def _accuracy_questions() -> list[Question]:
    case = sc.ACCURACY_PRESETS["Top 10, half of them relevant"]
    counts = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, case.returned, case.relevant_returned)
    return [NumericQuestion(
        "accuracy.top10_recall", "accuracy", counts.recall,
        traps=(Trap("precision", counts.precision), Trap("accuracy", counts.accuracy)),
        values=values_of(collection=f"{sc.ACCURACY_COLLECTION:,}", relevant=sc.ACCURACY_RELEVANT,
                       returned=case.returned, found=case.relevant_returned, query=sc.ACCURACY_QUERY,
                       answer=fmt(counts.recall), precision=fmt(counts.precision),
                       accuracy=fmt(counts.accuracy, "percent")),
    )]


def _recall_questions() -> list[Question]:
    order = sc.LAWYER.presets["System A"]
    grades = sc.LAWYER.grades(order)
    k = sc.LAWYER_DEFAULT_K["System A"]
    n_relevant = sc.LAWYER.n_relevant()
    found = int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0])
    lawyer = NumericQuestion(
        "recall.lawyer_a_recall_at_5", "recall", metrics.recall_at_k(grades, k, n_relevant),
        traps=(Trap("precision", metrics.precision_at_k(grades, k)),
               Trap("returned only", metrics.recall_at_k(grades, k))),
        values=values_of(k=k, n_relevant=n_relevant, found=found, length=len(order), query=sc.LAWYER.text,
                       answer=fmt(metrics.recall_at_k(grades, k, n_relevant)),
                       precision=fmt(metrics.precision_at_k(grades, k))),
    )

    k3 = 5
    rankings = [list(g) for _, g, _ in sc.RECALL_VS_HIT_RATE]
    judged = [list(g) + [1] * (n - sum(x >= 1 for x in g)) for _, g, n in sc.RECALL_VS_HIT_RATE]
    qs = metrics.from_rankings(rankings, judged)
    in_top = metrics.relevant_in_top_k(qs, k3)
    totals = metrics.num_relevant(qs)
    per_query = metrics.recall(qs, k3)
    mean_recall = NumericQuestion(
        "recall.mean_recall_vs_hit_rate", "recall", float(per_query.mean()),
        traps=(Trap("hit rate", float(metrics.success(qs, k3).mean())),
               Trap("pooled", float(in_top.sum() / totals.sum()))),
        values=values_of(k=k3, n_queries=qs.n_queries,
                       sizes=joined(int(t) for t in totals),
                       found=joined(f"{int(f)}/{int(t)}" for f, t in zip(in_top, totals)),
                       recalls=joined(fmt(r) for r in per_query),
                       answer=fmt(float(per_query.mean())),
                       hit_rate=fmt(float(metrics.success(qs, k3).mean()))),
    )
    order_b = sc.LAWYER.presets["System B"]
    grades_b = sc.LAWYER.grades(order_b)
    k_b = sc.LAWYER_DEFAULT_K["System B"]
    found_b = int(metrics.relevant_in_top_k(metrics.from_rankings([grades_b]), k_b)[0])
    recall_b = metrics.recall_at_k(grades_b, k_b, n_relevant)
    system_b = NumericQuestion(
        "recall.system_b_recall_at_20", "recall", recall_b,
        traps=(Trap("precision", metrics.precision_at_k(grades_b, k_b)),
               Trap("returned only", metrics.recall_at_k(grades_b, k_b))),
        values=values_of(k=k_b, n_relevant=n_relevant, found=found_b, length=len(order_b), query=sc.LAWYER.text,
                       answer=fmt(recall_b), precision=fmt(metrics.precision_at_k(grades_b, k_b)),
                       missing=len([i for i in sc.LAWYER.not_returned(order_b) if (sc.LAWYER.by_id[i].grade or 0) >= 1])),
    )

    # Recall@k against k: System A gains nothing after its top 5, System B keeps finding cases.
    k_small, k_large = k, k_b
    falls = (2, 0, 0, 2)  # a relevant page, two misses, another: nDCG@k dips as k grows, recall does not
    never_decreases = ChoiceQuestion(
        "recall.never_decreases", "recall", ("a", "b", "c", "d"), frozenset({"c"}),
        values=values_of(n_relevant=n_relevant, k_small=k_small, k_large=k_large,
                       a_small=fmt(metrics.recall_at_k(grades, k_small, n_relevant)),
                       a_large=fmt(metrics.recall_at_k(grades, k_large, n_relevant)),
                       b_small=fmt(metrics.recall_at_k(grades_b, k_small, n_relevant)),
                       b_large=fmt(metrics.recall_at_k(grades_b, k_large, n_relevant)),
                       example=joined(falls),
                       ndcg_1=fmt(metrics.ndcg_at_k(falls, 1)), ndcg_2=fmt(metrics.ndcg_at_k(falls, 2)),
                       recall_1=fmt(metrics.recall_at_k(falls, 1)), recall_2=fmt(metrics.recall_at_k(falls, 2))),
    )
    return [_warm_up_on_accuracy(), lawyer, mean_recall, system_b, never_decreases]


def _warm_up_on_accuracy() -> WarmUp:
    """Opens Recall@k: what accuracy does a system that returns nothing get?"""
    nothing = sc.ACCURACY_PRESETS["Return nothing"]
    top10 = sc.ACCURACY_PRESETS["Top 10, half of them relevant"]
    empty = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, nothing.returned,
                                  nothing.relevant_returned)
    some = metrics.set_retrieval(sc.ACCURACY_COLLECTION, sc.ACCURACY_RELEVANT, top10.returned,
                                 top10.relevant_returned)
    irrelevant = sc.ACCURACY_COLLECTION - sc.ACCURACY_RELEVANT
    return WarmUp("warmup.recall", "recall", values=values_of(
        collection=f"{sc.ACCURACY_COLLECTION:,}", relevant=sc.ACCURACY_RELEVANT, irrelevant=f"{irrelevant:,}",
        query=sc.ACCURACY_QUERY, accuracy=fmt(empty.accuracy, "percent"), recall=fmt(empty.recall),
        returned=top10.returned, found=top10.relevant_returned,
        accuracy_top10=fmt(some.accuracy, "percent"), recall_top10=fmt(some.recall)))


def _jar_set() -> metrics.QuerySet:
    return metrics.from_rankings([q.grades(q.presets["Default"]) for q in sc.JAR_QUERIES])


def _mrr_questions() -> list[Question]:
    qs = _jar_set()
    rr = metrics.reciprocal_rank(qs)
    first = metrics.first_hit_rank(qs)
    mrr = NumericQuestion(
        "mrr.jar_mrr", "mrr", float(rr.mean()),
        traps=(Trap("sum", float(rr.sum())), Trap("mean rank", float(1 / first.mean()))),
        values=values_of(target=sc.JAR_TARGET, positions=joined(int(p) for p in first),
                       rrs=joined(fmt(r) for r in rr), total=fmt(float(rr.sum())), n=qs.n_queries,
                       answer=fmt(float(rr.mean())), mean_rank=fmt(float(first.mean()))),
    )
    k = 3
    rr_k = metrics.reciprocal_rank(qs, k)
    mrr_at_k = NumericQuestion(
        "mrr.jar_mrr_at_3", "mrr", float(rr_k.mean()),
        traps=(Trap("no cutoff", float(rr.mean())),),
        values=values_of(k=k, target=sc.JAR_TARGET, positions=joined(int(p) for p in first),
                       rrs=joined(fmt(r) for r in rr_k), n=qs.n_queries, answer=fmt(float(rr_k.mean()))),
    )
    rr_1, rr_2, rr_3 = (metrics.reciprocal_rank_of([0] * (p - 1) + [1]) for p in (1, 2, 3))
    factor = NumericQuestion(
        "mrr.rr_factor_1_to_2", "mrr", rr_2 / rr_1,
        traps=(Trap("inverted", rr_1 / rr_2),),
        values=values_of(rr_1=fmt(rr_1), rr_2=fmt(rr_2), rr_3=fmt(rr_3), answer=fmt(rr_2 / rr_1),
                       inverted=fmt(rr_1 / rr_2)),
    )
    depth = 10  # an exploratory reading list: the first ten results
    one_hit = [1] + [0] * (depth - 1)
    all_hits = [1] * depth
    wrong_headline = ChoiceQuestion(
        "mrr.wrong_headline", "mrr", ("a", "b", "c", "d"), frozenset({"b"}),
        values=values_of(depth=depth, rr_one=fmt(metrics.reciprocal_rank_of(one_hit)),
                       rr_all=fmt(metrics.reciprocal_rank_of(all_hits)),
                       recall_one=fmt(metrics.recall_at_k(one_hit, depth, depth)),
                       recall_all=fmt(metrics.recall_at_k(all_hits, depth, depth)), rr_2=fmt(rr_2)),
    )
    return [_warm_up_on_recall(), mrr, mrr_at_k, factor, wrong_headline]


def _ap_questions() -> list[Question]:
    """The precision and AP lesson: AP of a short list with a relevant document never returned, MAP of two,
    MAP against MRR with one relevant document per query, and a dashboard to diagnose."""
    grades, n_relevant = [0, 1, 0, 1, 0], 3  # hits at 2 and 4, a third relevant document never returned
    qs = metrics.from_rankings([grades], [[1] * n_relevant])
    ap = float(metrics.average_precision(qs)[0])
    short = NumericQuestion(
        "ap.short_list_ap", "ap", ap,
        traps=(Trap("relevant returned", conventions.ap_over_returned(grades)),
               Trap("precision", metrics.precision_at_k(grades, len(grades)))),
        values=values_of(size=len(grades), hits=joined(h.rank for h in precision.hits(grades)), n_relevant=n_relevant,
                       arithmetic=precision.ap_arithmetic(grades, n_relevant), answer=fmt(ap),
                       returned=fmt(conventions.ap_over_returned(grades)),
                       precision=fmt(metrics.precision_at_k(grades, len(grades))), k=len(grades)))
    lists, judged = [[1, 0, 1, 0], [0, 1, 0, 0]], [[1, 1], [1]]  # R = 2 and R = 1
    two = metrics.from_rankings(lists, judged)
    per_query = metrics.average_precision(two)
    pooled = sum(h.precision for grades_q in lists for h in precision.hits(grades_q)) / sum(len(j) for j in judged)
    mean = NumericQuestion(
        "ap.map_two_queries", "ap", float(per_query.mean()),
        traps=(Trap("mrr", float(metrics.reciprocal_rank(two).mean())), Trap("pooled", pooled)),
        values=values_of(ap_1=fmt(per_query[0]), ap_2=fmt(per_query[1]), answer=fmt(float(per_query.mean())),
                       arithmetic_1=precision.ap_arithmetic(lists[0], len(judged[0])),
                       arithmetic_2=precision.ap_arithmetic(lists[1], len(judged[1])),
                       mrr=fmt(float(metrics.reciprocal_rank(two).mean())), pooled=fmt(pooled)))
    return [_warm_up_on_mrr_for_ap(), short, mean, _higher_ap_question(), _map_vs_mrr_question(),
            _ap_diagnosis_question()]


HIGHER_AP_SIZE = 10
HIGHER_AP_HITS = ((1, 9, 10), (2, 3, 4))  # lists X and Y: X has the first hit on top, Y its hits close together
HIGHER_AP_LONGER = 100  # list Y padded with non-relevant documents to this length: the same AP


def _higher_ap_question() -> ChoiceQuestion:
    """Which of two lists has the higher AP (decided by the engine): X with its hits at 1, 9, 10, Y at 2, 3, 4
    (R = 3, all returned). AP = (1/1 + 2/9 + 3/10) / 3 against (1/2 + 2/3 + 3/4) / 3: Y wins although X has the
    higher RR and both have Recall@10 = 1; padding Y with non-relevant documents below its last hit leaves its
    AP as it is."""
    lists = [[1 if rank in hits else 0 for rank in range(1, HIGHER_AP_SIZE + 1)] for hits in HIGHER_AP_HITS]
    longer = lists[1] + [0] * (HIGHER_AP_LONGER - HIGHER_AP_SIZE)
    n_relevant = len(HIGHER_AP_HITS[0])
    qs = metrics.from_rankings([*lists, longer], [[1] * n_relevant] * 3)
    ap, rr = metrics.average_precision(qs), metrics.reciprocal_rank(qs)
    recall = metrics.recall(qs, HIGHER_AP_SIZE)
    correct = frozenset({"a"} if ap[0] > ap[1] else {"b"} if ap[1] > ap[0] else {"c"})
    return ChoiceQuestion(
        "ap.higher_order", "ap", ("a", "b", "c", "d"), correct,
        values=values_of(size=HIGHER_AP_SIZE, n_relevant=n_relevant, x_hits=joined(HIGHER_AP_HITS[0]),
                       y_hits=joined(HIGHER_AP_HITS[1]),
                       x_later=" and ".join(str(r) for r in HIGHER_AP_HITS[0][1:]), ap_x=fmt(ap[0]), ap_y=fmt(ap[1]), rr_x=fmt(rr[0]),
                       rr_y=fmt(rr[1]), recall_x=fmt(recall[0]), recall_y=fmt(recall[1]),
                       arithmetic_x=precision.ap_arithmetic(lists[0], n_relevant),
                       arithmetic_y=precision.ap_arithmetic(lists[1], n_relevant),
                       longer=HIGHER_AP_LONGER, ap_longer=fmt(ap[2])))


def _map_vs_mrr_question() -> ChoiceQuestion:
    """One relevant document per query: AP = P@r / 1 = 1/r = RR (both 0 if it is not returned), so MAP = MRR.

    The worked example is the four-query one; a list with hits at 2 and 3 (R = 2) shows AP above RR once a
    query has several relevant documents.
    """
    qs = sc.four_query_set()
    ap, rr = metrics.average_precision(qs), metrics.reciprocal_rank(qs)
    deep = int(np.argmax(sc.FOUR_QUERY_HIT_RANKS))  # the query whose hit sits lowest
    several_grades = [0, 1, 1]
    several = metrics.from_rankings([several_grades])
    missed = metrics.from_rankings([[0, 0, 0]], [[1]])  # its one relevant document never returned
    return ChoiceQuestion(
        "ap.map_vs_mrr", "ap", ("a", "b", "c", "d"), frozenset({"c"}),
        values=values_of(ranks=joined(sc.FOUR_QUERY_HIT_RANKS), aps=joined(fmt(v) for v in ap),
                       rrs=joined(fmt(v) for v in rr), map=fmt(float(ap.mean())), mrr=fmt(float(rr.mean())),
                       deep_rank=sc.FOUR_QUERY_HIT_RANKS[deep], ap_deep=fmt(ap[deep]), rr_deep=fmt(rr[deep]),
                       several_hits=" and ".join(str(h.rank) for h in precision.hits(several_grades)),
                       several_relevant=int(metrics.num_relevant(several)[0]),
                       ap_several=fmt(metrics.average_precision(several)[0]),
                       rr_several=fmt(metrics.reciprocal_rank(several)[0]),
                       ap_missed=fmt(metrics.average_precision(missed)[0]),
                       rr_missed=fmt(metrics.reciprocal_rank(missed)[0])))


# A dashboard's given numbers (a story, not computed): found, first hit on top, the other hits low.
DIAGNOSIS_K = 100
DIAGNOSIS_DASHBOARD: Mapping[str, float] = MappingProxyType({"recall": 0.95, "mrr": 0.9, "map": 0.35})
DIAGNOSIS_HIT_RANKS = (1, 40, 60, 80)  # the solution's one query: every relevant document found, one on top


def _ap_diagnosis_question() -> ChoiceQuestion:
    """High Recall@100 and MRR, low MAP: the hits after the first sit low. The solution's example query, from the
    engine: hits at 1, 40, 60 and 80 of 100 (R = 4) give Recall@100 = RR = 1 but AP = (1/1 + 2/40 + 3/60 + 4/80) / 4.
    """
    grades = [1 if rank in DIAGNOSIS_HIT_RANKS else 0 for rank in range(1, DIAGNOSIS_K + 1)]
    n_relevant = len(DIAGNOSIS_HIT_RANKS)
    return ChoiceQuestion(
        "ap.diagnosis", "ap", ("a", "b", "c", "d"), frozenset({"b"}),
        values=values_of(k=DIAGNOSIS_K, **{name: fmt(v) for name, v in DIAGNOSIS_DASHBOARD.items()},
                       example_hits=joined(DIAGNOSIS_HIT_RANKS),
                       example_recall=fmt(metrics.recall_at_k(grades, DIAGNOSIS_K, n_relevant)),
                       example_rr=fmt(metrics.reciprocal_rank_of(grades)),
                       example_arithmetic=precision.ap_arithmetic(grades, n_relevant)))


def _warm_up_on_mrr_for_ap() -> WarmUp:
    """Opens the AP lesson: the reciprocal rank of a list with three hits, and what it does not see."""
    grades = [1, 0, 1, 1]
    return WarmUp("warmup.ap", "ap", values=values_of(
        hits=joined(i for i, g in enumerate(grades, 1) if g), rr=fmt(metrics.reciprocal_rank_of(grades))))


def _warm_up_on_recall() -> WarmUp:
    """Opens MRR: System A's Recall@5 in the lawyer scenario."""
    grades = sc.LAWYER.grades(sc.LAWYER.presets["System A"])
    k = sc.LAWYER_DEFAULT_K["System A"]
    n_relevant = sc.LAWYER.n_relevant()
    return WarmUp("warmup.mrr", "mrr", values=values_of(
        query=sc.LAWYER.text, k=k, n_relevant=n_relevant,
        found=int(metrics.relevant_in_top_k(metrics.from_rankings([grades]), k)[0]),
        answer=fmt(metrics.recall_at_k(grades, k, n_relevant)), precision=fmt(metrics.precision_at_k(grades, k))))


def _warm_up_on_mrr() -> WarmUp:
    """Opens nDCG: the JAR scenario's MRR (hits at 1, 2 and 5)."""
    qs = _jar_set()
    rr = metrics.reciprocal_rank(qs)
    return WarmUp("warmup.ndcg", "ndcg", values=values_of(
        target=sc.JAR_TARGET, positions=joined(int(p) for p in metrics.first_hit_rank(qs)),
        rrs=joined(fmt(r) for r in rr), total=fmt(float(rr.sum())), n=qs.n_queries, answer=fmt(float(rr.mean()))))


def _ndcg_questions() -> list[Question]:
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    order_b = q.presets["System B"]
    grades_b = q.grades(order_b)
    judged = q.judged_grades()
    ideal = np.sort(judged)[::-1]
    dcg_b = metrics.dcg_at_k(grades_b, k)
    idcg = metrics.idcg_at_k(judged, k)
    ndcg_b = metrics.ndcg_at_k(grades_b, k, judged)
    top_titles = joined(q.by_id[i].title for i in order_b[:k])
    ndcg = NumericQuestion(
        "ndcg.system_b_ndcg_at_3", "ndcg", ndcg_b,
        traps=(Trap("share relevant", metrics.precision_at_k(grades_b, k)), Trap("not normalised", dcg_b)),
        values=values_of(k=k, query=q.text, top=top_titles, top_grades=joined(grades_b[:k]),
                       dcg_terms=dcg_terms(positions(grades_b, k)), dcg=fmt(dcg_b),
                       idcg_terms=dcg_terms(positions(ideal, k)), idcg=fmt(idcg), answer=fmt(ndcg_b),
                       ideal_top=joined(ideal[:k]),
                       share=fmt(metrics.precision_at_k(grades_b, k))),
    )
    linear = metrics.dcg_at_k(grades_b, k, "linear")
    undiscounted = float(metrics.gain_values(grades_b[:k]).sum())
    dcg = NumericQuestion(
        "ndcg.system_b_dcg_at_3", "ndcg", dcg_b, scale="relative",
        traps=(Trap("linear gain", linear), Trap("no discount", undiscounted)),
        values=values_of(k=k, query=q.text, top=top_titles, top_grades=joined(grades_b[:k]),
                       dcg_terms=dcg_terms(positions(grades_b, k)), answer=fmt(dcg_b),
                       linear_terms=dcg_terms(positions(grades_b, k, "linear")), linear=fmt(linear)),
    )
    start = sc.FRAMEWORKS_ORDER_START
    ordering = OrderingQuestion("ndcg.best_order", "ndcg", q, start, k)
    ordering = OrderingQuestion(
        ordering.id, ordering.lesson, q, start, k,
        values=values_of(k=k, query=q.text, size=len(start), best=fmt(ordering.best),
                       ideal=joined(q.by_id[i].title for i in ordering.ideal_order()[:k]),
                       start_ndcg=fmt(ordering.ndcg(start))),
    )
    return [_warm_up_on_mrr(), ndcg, dcg, ordering, _best_swap_question(), _gains_agree_question()]


# --- "which single swap raises nDCG@k the most?" ------------------------------

def swapped(order: Sequence[str], i: int, j: int) -> tuple[str, ...]:
    """``order`` with the documents at positions i and j (1-based) exchanged.

    Examples
    --------
    >>> swapped(("a", "b", "c", "d"), 1, 3)
    ('c', 'b', 'a', 'd')
    """
    out = list(order)
    out[i - 1], out[j - 1] = out[j - 1], out[i - 1]
    return tuple(out)


def swap_outcomes(query: sc.Query, order: Sequence[str], k: int,
                  gain: metrics.Gain = "exponential") -> dict[tuple[int, int], float]:
    """nDCG@k after every single swap (i, j), i < j, that touches the top k, computed by the engine.

    A swap of two positions both below k cannot change nDCG@k, so it is left out.
    """
    judged = query.judged_grades()
    return {(i, j): metrics.ndcg_at_k(query.grades(swapped(order, i, j)), k, judged, gain)
            for i in range(1, min(k, len(order)) + 1) for j in range(i + 1, len(order) + 1)}


def best_swap_options(query: sc.Query, order: Sequence[str], k: int,
                      gain: metrics.Gain = "exponential") -> tuple[tuple[int, int], ...]:
    """Four swaps to choose from, in position order, each a different idea:

    - the best single swap of all (the first in position order among equals);
    - the best reshuffle inside the top k (both positions within k);
    - the best swap that brings a page from below the cut into position k;
    - a swap that leaves nDCG@k unchanged (two pages of the same grade).

    Raises ValueError unless these are four different swaps with clearly
    different results, the best of them strictly ahead.
    """
    outcomes = swap_outcomes(query, order, k, gain)
    base = metrics.ndcg_at_k(query.grades(order), k, query.judged_grades(), gain)
    ranked = sorted(outcomes)  # position order, so max() keeps the first among equals

    def best_of(swaps):
        swaps = list(swaps)
        return max(swaps, key=outcomes.get) if swaps else None

    picks = [
        best_of(ranked),
        best_of(s for s in ranked if s[1] <= k and not within(outcomes[s], base)),
        best_of(s for s in ranked if s[0] == k < s[1]),
        next((s for s in ranked if abs(outcomes[s] - base) < 1e-12), None),
    ]
    options = tuple(sorted(set(p for p in picks if p is not None)))
    values = sorted(outcomes[s] for s in options)
    if len(options) != 4 or any(within(a, b) for a, b in zip(values, values[1:])):
        raise ValueError(f"the order {order} does not give four swaps with distinct nDCG@{k}")
    return options


def _best_swap_question() -> ChoiceQuestion:
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    start = sc.FRAMEWORKS_SWAP_START
    judged = q.judged_grades()
    by_id = q.by_id
    outcomes = swap_outcomes(q, start, k)
    options = best_swap_options(q, start, k)
    letters = tuple("abcd")
    start_ndcg = metrics.ndcg_at_k(q.grades(start), k, judged)
    best_value = max(outcomes[s] for s in options)
    correct = frozenset(letter for letter, s in zip(letters, options) if outcomes[s] == best_value)
    values: dict = dict(
        k=k, query=q.text, start_ndcg=fmt(start_ndcg), best_ndcg=fmt(best_value),
        start_list="\n".join(f"{n}. {by_id[i].title} (grade {by_id[i].grade})" for n, i in enumerate(start, 1)),
    )
    for letter, (i, j) in zip(letters, options):
        after = swapped(start, i, j)
        value = outcomes[(i, j)]
        values.update({
            f"{letter}_i": i, f"{letter}_j": j,
            f"{letter}_first": by_id[start[i - 1]].title, f"{letter}_second": by_id[start[j - 1]].title,
            f"{letter}_top": joined(by_id[d].title for d in after[:k]),
            f"{letter}_grades": joined(q.grades(after[:k])),
            f"{letter}_ndcg": fmt(value), f"{letter}_change": f"{value - start_ndcg:+.3f}",
        })
    (best_letter,) = correct
    bi, bj = options[letters.index(best_letter)]
    values.update(best_first=values[f"{best_letter}_first"], best_second=values[f"{best_letter}_second"],
                  best_i=bi, best_j=bj, best_in_grade=by_id[start[bj - 1]].grade,
                  best_out_grade=by_id[start[bi - 1]].grade)
    return ChoiceQuestion("ndcg.best_swap", "ndcg", letters, correct, values=values_of(**values))


def _gains_agree_question() -> ChoiceQuestion:
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    judged = q.judged_grades()
    b, mixed = q.grades(q.presets["System B"]), q.grades(q.presets[sc.FRAMEWORKS_MIXED])

    def both(grades, cutoff):
        return [fmt(metrics.ndcg_at_k(grades, cutoff, judged, g)) for g in ("exponential", "linear")]

    b_exp, b_lin = both(b, k)
    mixed_exp, mixed_lin = both(mixed, k)
    mixed_exp_1, mixed_lin_1 = both(mixed, 1)
    exp_1, exp_2 = (f"{g:g}" for g in metrics.gain_values([1, 2], "exponential"))
    lin_1, lin_2 = (f"{g:g}" for g in metrics.gain_values([1, 2], "linear"))
    return ChoiceQuestion(
        "ndcg.gains_agree", "ndcg", ("a", "b", "c", "d"), frozenset({"b"}),
        values=values_of(k=k, b_exp=b_exp, b_lin=b_lin, b_grades=joined(b[:k]),
                       ideal_grades=joined(np.sort(judged)[::-1][:k]),
                       mixed_exp=mixed_exp, mixed_lin=mixed_lin, mixed_grades=joined(mixed[:k]),
                       mixed_exp_1=mixed_exp_1, mixed_lin_1=mixed_lin_1,
                       exp_1=exp_1, exp_2=exp_2, lin_1=lin_1, lin_2=lin_2),
    )


def _warm_up_on_ndcg() -> WarmUp:
    """Opens the four-query lesson: System B's nDCG@3, and why it is below 1."""
    q, k = sc.FRAMEWORKS, sc.FRAMEWORKS_K
    order = q.presets["System B"]
    grades, judged = q.grades(order), q.judged_grades()
    top_grade = int(judged.max())
    return WarmUp("warmup.four_queries", "four_queries", values=values_of(
        query=q.text, k=k, top=joined(q.by_id[i].title for i in order[:k]), top_grades=joined(grades[:k]),
        dcg=fmt(metrics.dcg_at_k(grades, k)), idcg=fmt(metrics.idcg_at_k(judged, k)),
        answer=fmt(metrics.ndcg_at_k(grades, k, judged)),
        wasted=joined(q.by_id[i].title for i in order[:k] if (q.by_id[i].grade or 0) <= 0),
        left_out=joined(q.by_id[i].title for i in order[k:] if q.by_id[i].grade == top_grade),
        top_grade=top_grade))


def _four_query_questions() -> list[Question]:
    qs = sc.four_query_set()
    k = 3
    hits = int(np.count_nonzero(metrics.success(qs, k)))
    recall_at_3 = NumericQuestion(
        "four_queries.recall_at_3", "four_queries", float(metrics.recall(qs, k).mean()),
        traps=(Trap("strictly above", float(metrics.recall(qs, k - 1).mean())),),
        values=values_of(ranks=joined(sc.FOUR_QUERY_HIT_RANKS), k=k, hits=hits, n=qs.n_queries,
                       answer=fmt(float(metrics.recall(qs, k).mean()))),
    )
    k_budget = 5
    at_top = metrics.reciprocal_rank_of([1])
    at_k = metrics.reciprocal_rank_of([0] * (k_budget - 1) + [1])
    return [
        _warm_up_on_ndcg(),
        recall_at_3,
        ChoiceQuestion("four_queries.recall_blind_to_position", "four_queries", ("a", "b", "c", "d"),
                       frozenset({"a"}), values=values_of(k=k_budget)),
        ChoiceQuestion("four_queries.mrr_sees_position", "four_queries", ("a", "b", "c", "d"),
                       frozenset({"b"}), values=values_of(k=k_budget, rr_top=fmt(at_top), rr_k=fmt(at_k))),
        ChoiceQuestion("four_queries.headline_k", "four_queries", ("a", "b", "c", "d"), frozenset({"c"})),
        ChoiceQuestion("four_queries.recall_and_mrr", "four_queries", ("a", "b", "c", "d"), frozenset({"b"}),
                       values=values_of(r1=fmt(float(metrics.recall(qs, 1).mean())), k=k,
                                      rk=fmt(float(metrics.recall(qs, k).mean())),
                                      rr_first=fmt(metrics.reciprocal_rank_of([1])),
                                      rr_k=fmt(metrics.reciprocal_rank_of([0] * (k - 1) + [1])))),
    ]


def _warm_up_on_four_queries() -> WarmUp:
    """Opens "Choosing a metric": recall@3 and MRR for hits at ranks 1, 3, 1 and 8."""
    qs = sc.four_query_set()
    k = 3
    rr = metrics.reciprocal_rank(qs)
    return WarmUp("warmup.choosing", "choosing", values=values_of(
        ranks=joined(sc.FOUR_QUERY_HIT_RANKS), k=k, n=qs.n_queries,
        hits=int(np.count_nonzero(metrics.success(qs, k))), recall=fmt(float(metrics.recall(qs, k).mean())),
        rrs=joined(fmt(r) for r in rr), mrr=fmt(float(rr.mean()))))


def _warm_up_on_fusion() -> WarmUp:
    """Opens the hybrid-search lesson: what does rrf's constant k do? (A question from an earlier topic, which the
    lesson turns into a slider.)"""
    return WarmUp("warmup.fusion", "fusion")


def _fusion_questions() -> list[Question]:
    """The traps of rank fusion, on the lesson's two lists (every score from the engine)."""
    lexical, dense = (sc.HYBRID.presets[name] for name in hybrid.RANKERS)
    orders, k = (lexical, dense), fusion.RRF_K
    by_rank = ChoiceQuestion("fusion.ranks_not_scores", "fusion", ("a", "b", "c", "d"), frozenset({"b"}),
                             values=values_of(k=k, first=fmt(float(fusion.rrf_score([1], k)), "score"),
                                              second=fmt(float(fusion.rrf_score([2], k)), "score")))
    missing = dense[0]  # the dense ranker's top pick, which BM25 does not return
    ranks = fusion.ranks_in(orders, missing)
    per_mille = 1000  # asked for × 1000: a score near 0.016 has its slips within ±0.005 of it
    answer = float(fusion.rrf_score(ranks, k))
    as_last = float(fusion.rrf_score([len(lexical) + 1, ranks[1]], k))  # the slip: "not returned" read as last
    from_zero = float(fusion.rrf_score([r - 1 for r in ranks if r is not None], k))  # the slip: ranks from 0
    missing_doc = NumericQuestion(
        "fusion.missing_adds_nothing", "fusion", answer * per_mille, scale="relative",
        traps=(Trap("as last", as_last * per_mille), Trap("from zero", from_zero * per_mille)),
        values=values_of(k=k, title=sc.HYBRID.by_id[missing].title, rank=ranks[1], length=len(lexical),
                         score=fmt(answer, "score"), answer=fmt(answer * per_mille),
                         as_last=fmt(as_last * per_mille), next=len(lexical) + 1))
    fused = tuple(doc for doc, _ in hybrid.fused(orders, k))
    (recall_l, rr_l, _), (recall_f, rr_f, _) = hybrid.values(lexical), hybrid.values(fused)
    top_ranks = fusion.ranks_in(orders, fused[0])
    trade = ChoiceQuestion("fusion.recall_up_rr_down", "fusion", ("a", "b", "c", "d"), frozenset({"c"}),
                           values=values_of(k=k, cutoff=hybrid.CUTOFF, recall_lexical=fmt(recall_l),
                                            recall_fused=fmt(recall_f), rr_lexical=fmt(rr_l), rr_fused=fmt(rr_f),
                                            top=sc.HYBRID.by_id[fused[0]].title,
                                            top_lexical=top_ranks[0], top_dense=top_ranks[1]))
    sweep = hybrid.sweep(orders, (1, k))
    ndcg = sweep[hybrid.LABELS[2].replace("{k}", str(hybrid.CUTOFF))]
    sixty = ChoiceQuestion("fusion.sixty_is_a_default", "fusion", ("a", "b", "c", "d"), frozenset({"b"}),
                           values=values_of(k=k, cutoff=hybrid.CUTOFF, ndcg_1=fmt(ndcg[0]), ndcg_k=fmt(ndcg[1])))
    return [_warm_up_on_fusion(), by_rank, missing_doc, trade, sixty]


def _choosing_questions() -> list[Question]:
    return [
        _warm_up_on_four_queries(),
        ChoiceQuestion("choosing.headline_metric", "choosing", ("a", "b", "c", "d"), frozenset({"d"})),
        ChoiceQuestion("choosing.diagnosis", "choosing", ("a", "b", "c", "d"), frozenset({"a", "d"})),
    ]


def _warm_ups() -> list[Question]:
    """The warm-ups carried over from earlier topics (no lesson of this course opens with them)."""
    return [WarmUp("warmup.reranking_cost")]


def _build() -> tuple[Question, ...]:
    questions = (_accuracy_questions() + _recall_questions() + _mrr_questions() + _ap_questions() + _ndcg_questions()
                 + _four_query_questions() + _fusion_questions() + _choosing_questions() + _warm_ups())
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise ValueError("question ids must be unique")
    return tuple(questions)


QUESTIONS: tuple[Question, ...] = _build()
BY_ID: Mapping[str, Question] = MappingProxyType({q.id: q for q in QUESTIONS})
WARM_UPS: tuple[WarmUp, ...] = tuple(q for q in QUESTIONS if isinstance(q, WarmUp))
# Warm-ups carried over from earlier topics (not opening any lesson of this course).
EARLIER_WARM_UPS: tuple[WarmUp, ...] = tuple(q for q in WARM_UPS if q.lesson is None)


def question(question_id: str) -> Question:
    """The question with this id; a KeyError names the known ids."""
    try:
        return BY_ID[question_id]
    except KeyError:
        raise KeyError(f"no question {question_id!r}; known: {sorted(BY_ID)}") from None


def questions_for(lesson: str) -> tuple[Question, ...]:
    """The questions of one lesson, in bank order."""
    if lesson not in LESSONS:
        raise ValueError(f"lesson must be one of {LESSONS}, got {lesson!r}")
    return tuple(q for q in QUESTIONS if q.lesson == lesson)


def warm_up_for(lesson: str) -> WarmUp | None:
    """The warm-up that opens a lesson (a question on the lesson before), or None for the first lesson."""
    return next((q for q in questions_for(lesson) if isinstance(q, WarmUp)), None)


def counted_ids() -> frozenset[str]:
    """Ids of the questions that count towards progress (graded, belonging to a lesson)."""
    return frozenset(q.id for q in QUESTIONS if q.lesson in LESSONS and is_graded(q))


def progress(solved: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Per lesson: (solved, total) over the counted questions; unknown ids are ignored."""
    solved = set(solved) & counted_ids()
    result = {}
    for lesson in LESSONS:
        ids = [q.id for q in questions_for(lesson) if is_graded(q)]
        result[lesson] = (sum(i in solved for i in ids), len(ids))
    return result


def clean_solved(raw) -> frozenset[str]:
    """Known counted ids from untrusted stored data (a list of strings); anything else is dropped."""
    if not isinstance(raw, (list, tuple, set, frozenset)):
        return frozenset()
    known = counted_ids()
    return frozenset(i for i in raw if isinstance(i, str) and i in known)
