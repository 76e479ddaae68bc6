"""Putting it together: "Why does my number differ?", the conventions switchboard."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import prose, scenarios
from components.engine import conventions, metrics
from components.engine.formatting import fmt
from components.ranking_editor.model import editor_items
from components.ui import layout, state
from components.ui.take_home import show_take_home
from components.ui.widgets import chart_scale, show_k_slider, show_link_to_view, show_ranking_editor

NAME = "differ"
Q = scenarios.FRAMEWORKS
TRECEVAL_ROWS = ("nDCG@k", "R@k", "RR", "RR@k")  # the table's rows that trec_eval computes: the take-home checks them


def convention_rows(grades, judged, k: int) -> list[dict]:
    """One row per convention for one ranking: what is computed, its value, who computes it that way."""
    n_relevant = sum(1 for g in judged if g >= 1)
    scores = list(range(len(grades), 0, -1))  # the on-screen order, as scores without ties
    rows = [
        ("nDCG@k, linear gain (rel)", metrics.ndcg_at_k(grades, k, judged, "linear"),
         "trec_eval, pytrec_eval, ir_measures (default), ranx's ndcg"),
        ("nDCG@k, exponential gain (2^rel − 1)", metrics.ndcg_at_k(grades, k, judged, "exponential"),
         "these lessons; Burges et al.; ranx's ndcg_burges"),
        ("nDCG@k, ideal from the returned list only", conventions.ndcg_returned_ideal(grades, k, "linear"),
         "a common tutorial mistake (linear gain shown)"),
        ("scikit-learn ndcg_score(k=k) on the returned list",
         conventions.sklearn_ndcg(grades, scores, k) if grades else 0.0,
         "scikit-learn: linear gain, ties averaged, ideal from the items passed in"),
        ("Recall@k, denominator |relevant|", metrics.recall_at_k(grades, k, n_relevant),
         "trec_eval recall_k, pytrec_eval, ir_measures R@k"),
        ("Recall@k, denominator min(|relevant|, k)", conventions.capped_recall_at_k(grades, k, n_relevant),
         "BEIR's R_cap@k"),
        ("RR, no cutoff", metrics.reciprocal_rank_of(grades), "trec_eval recip_rank"),
        ("RR@k, a hit below k counts 0", metrics.reciprocal_rank_of(grades, k), "MS MARCO's MRR@10 (with k = 10)"),
    ]
    return [{"convention": c, "value": fmt(v), "who computes it this way": who} for c, v, who in rows]


def tie_rows(k: int) -> list[dict]:
    """nDCG@k (linear) of the tied-score list under each tie rule."""
    ids = [i for i, _ in scenarios.TIED_SCORES]
    scores = [s for _, s in scenarios.TIED_SCORES]
    judged = Q.judged_grades()
    grades = Q.grades(ids)
    rows = []
    for rule, who in (("trec_eval", "trec_eval, pytrec_eval: score, then document id descending"),
                      ("listed", "tools that keep the file's order for equal scores")):
        order = [ids[i] for i in conventions.order_by_score(ids, scores, rule)]
        rows.append({"tie rule": who, "top k": ", ".join(order[:k]),
                     f"nDCG@{k} (linear)": fmt(metrics.ndcg_at_k(Q.grades(order), k, judged, "linear"))})
    rows.append({"tie rule": "scikit-learn ndcg_score: every order of the tied documents averaged",
                 "top k": "(averaged)", f"nDCG@{k} (linear)": fmt(conventions.sklearn_ndcg(grades, scores, k))})
    return rows


def empty_query_sentence(grades, judged, k: int) -> str:
    """Mean Recall@k over the current query and a query with no relevant item, under each rule."""
    recall = metrics.recall_at_k(grades, k, sum(1 for g in judged if g >= 1))
    values, has_relevant = [recall, 0.0], [any(g >= 1 for g in judged), False]
    parts = [f"**{fmt(conventions.mean_with_empty_rule(values, has_relevant, 'zero'))}** if it counts as 0 "
             f"(trec_eval)",
             f"**{fmt(conventions.mean_with_empty_rule(values, has_relevant, 'skip'))}** if it is skipped"]
    try:
        conventions.mean_with_empty_rule(values, has_relevant, "error")
    except ValueError:
        parts.append(prose.section(NAME, "Empty error") + " if the tool refuses")
    return prose.text(NAME, "Empty intro", k=k) + " " + ", ".join(parts[:-1]) + ", or " + parts[-1] + "."


@st.fragment
def _switchboard() -> None:
    k = show_k_slider(state.DIFFER_K, hi=len(Q.docs), default=scenarios.FRAMEWORKS_K)
    editor_col, table_col = st.columns([2, 3], gap="large")
    with editor_col:
        current = show_ranking_editor(editor_items(Q.docs), key=state.DIFFER_EDITOR,
                                      default_order=Q.presets["Mixed grades"], k=k, tray=True, editable_grades=True,
                                      grade_range=(0, 2), scale=chart_scale(), label="The ranking to score")
        show_link_to_view()
    grades, judged = current.order_grades(), current.judged_grades()
    with table_col:
        st.markdown(prose.section(NAME, "Table intro"))
        st.table(pd.DataFrame(convention_rows(grades, judged, k)), hide_index=True, border="horizontal")
        st.markdown(empty_query_sentence(grades, judged, k))
    show_take_home(NAME, [current], k=k, gain="linear", measures=TRECEVAL_ROWS)
    st.markdown(prose.text(NAME, "Ties intro", k=k))
    st.dataframe(pd.DataFrame({"document": [i for i, _ in scenarios.TIED_SCORES],
                               "score": [f"{s:.1f}" for _, s in scenarios.TIED_SCORES],
                               "grade": [str(g) for g in Q.grades([i for i, _ in scenarios.TIED_SCORES])]}).T,
                 key="differ.tied_list")
    st.table(pd.DataFrame(tie_rows(k)), hide_index=True, border="horizontal")


def render() -> None:
    st.title("Why does my number differ?")
    st.markdown(prose.section(NAME, "Intro"))
    st.markdown(prose.section(NAME, "Scenario"))
    _switchboard()
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
