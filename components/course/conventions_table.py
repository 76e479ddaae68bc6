"""The "Why does my number differ?" page's tables and sentence: one ranking under each convention that
another tool follows (:mod:`components.engine.conventions`), the tied-score list under each tie rule, and a
query with no relevant document under each empty-query rule.

No Streamlit import here.
"""
from __future__ import annotations

from components.course import prose, scenarios
from components.engine import conventions, metrics
from components.engine.formatting import fmt

NAME = "differ"  # the page whose words these are
Q = scenarios.FRAMEWORKS


def convention_rows(grades, judged, k: int) -> list[dict]:
    """One row per convention for one ranking: what is computed, its value, who computes it that way."""
    n_relevant = sum(1 for g in judged if g >= 1)
    scores = list(range(len(grades), 0, -1))  # the on-screen order, as scores without ties
    query = metrics.from_rankings([list(grades)], [list(judged)])
    at_level_2 = metrics.with_relevance_level(query, 2)  # trec_eval -l 2: only grade 2 is relevant
    rows = [
        (prose.section(NAME, "Convention nDCG linear"), metrics.ndcg_at_k(grades, k, judged, "linear"),
         prose.section(NAME, "Who nDCG linear")),
        (prose.section(NAME, "Convention nDCG exponential"), metrics.ndcg_at_k(grades, k, judged, "exponential"),
         prose.section(NAME, "Who nDCG exponential")),
        (prose.section(NAME, "Convention nDCG returned ideal"), conventions.ndcg_returned_ideal(grades, k, "linear"),
         prose.section(NAME, "Who nDCG returned ideal")),
        (prose.section(NAME, "Convention scikit-learn"),
         conventions.sklearn_ndcg(grades, scores, k) if grades else 0.0,
         prose.section(NAME, "Who scikit-learn")),
        (prose.section(NAME, "Convention recall"), metrics.recall_at_k(grades, k, n_relevant),
         prose.section(NAME, "Who recall")),
        (prose.section(NAME, "Convention capped recall"), conventions.capped_recall_at_k(grades, k, n_relevant),
         prose.section(NAME, "Who capped recall")),
        (prose.section(NAME, "Convention RR"), metrics.reciprocal_rank_of(grades), prose.section(NAME, "Who RR")),
        (prose.section(NAME, "Convention RR at k"), metrics.reciprocal_rank_of(grades, k),
         prose.section(NAME, "Who RR at k")),
        (prose.section(NAME, "Convention recall level"), float(metrics.recall(at_level_2, k)[0]),
         prose.section(NAME, "Who recall level")),
        (prose.section(NAME, "Convention AP at k"), float(metrics.average_precision(query, k)[0]),
         prose.section(NAME, "Who AP at k")),
        (prose.section(NAME, "Convention capped AP at k"), conventions.ap_at_k_capped(grades, k, n_relevant),
         prose.section(NAME, "Who capped AP at k")),
        (prose.section(NAME, "Convention judged only"), float(metrics.reciprocal_rank(metrics.judged_only(query))[0]),
         prose.section(NAME, "Who judged only")),
    ]
    convention, value, who = (prose.section(NAME, "Column convention"), prose.section(NAME, "Column value"),
                              prose.section(NAME, "Column who"))
    return [{convention: c, value: fmt(v), who: w} for c, v, w in rows]


def tie_rows(k: int) -> list[dict]:
    """nDCG@k (linear) of the tied-score list under each tie rule."""
    ids = [i for i, _ in scenarios.TIED_SCORES]
    scores = [s for _, s in scenarios.TIED_SCORES]
    judged = Q.judged_grades()
    grades = Q.grades(ids)
    rule_column, top_column = prose.section(NAME, "Column tie rule"), prose.section(NAME, "Column top k")
    ndcg_column = prose.text(NAME, "Column ties nDCG", k=k)
    rows = []
    rules: tuple[conventions.TieRule, ...] = ("trec_eval", "listed")
    for rule, who in zip(rules, (prose.section(NAME, "Tie rule trec_eval"), prose.section(NAME, "Tie rule listed"))):
        order = [ids[i] for i in conventions.order_by_score(ids, scores, rule)]
        rows.append({rule_column: who, top_column: ", ".join(order[:k]),
                     ndcg_column: fmt(metrics.ndcg_at_k(Q.grades(order), k, judged, "linear"))})
    rows.append({rule_column: prose.section(NAME, "Tie rule scikit-learn"),
                 top_column: prose.section(NAME, "Ties averaged"),
                 ndcg_column: fmt(conventions.sklearn_ndcg(grades, scores, k))})
    return rows


def empty_query_sentence(grades, judged, k: int) -> str:
    """Mean Recall@k over the current query and a query with no relevant item, under each rule."""
    recall = metrics.recall_at_k(grades, k, sum(1 for g in judged if g >= 1))
    values, has_relevant = [recall, 0.0], [any(g >= 1 for g in judged), False]
    parts = {"intro": prose.text(NAME, "Empty intro", k=k),
             "zero": prose.text(NAME, "Empty zero",
                                value=fmt(conventions.mean_with_empty_rule(values, has_relevant, "zero"))),
             "skip": prose.text(NAME, "Empty skip",
                                value=fmt(conventions.mean_with_empty_rule(values, has_relevant, "skip")))}
    try:
        conventions.mean_with_empty_rule(values, has_relevant, "error")
    except ValueError:
        parts["refuse"] = prose.text(NAME, "Empty refuse", error=prose.section(NAME, "Empty error"))
        return prose.text(NAME, "Empty rules", **parts)
    return prose.text(NAME, "Empty rules no error", **parts)
