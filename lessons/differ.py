"""Putting it together: "Why does my number differ?", the conventions switchboard."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import prose, scenarios
from components.engine import conventions, metrics
from components.engine.formatting import fmt
from components.live_class.follow import followed_fragment
from components.ranking_editor import Scoreboard
from components.ranking_editor.model import editor_items
from components.ui import layout, state
from components.ui.take_home import show_take_home
from components.ui.widgets import chart_scale, show_k_slider, show_link_to_view, show_ranking_editor

NAME = "differ"
Q = scenarios.FRAMEWORKS
START = scenarios.FRAMEWORKS_MIXED
CONVENTIONS = "differ-conventions"  # the conventions table's container (its class: st-key-differ-conventions)
TRECEVAL_ROWS = ("nDCG@k", "R@k", "RR", "RR@k")  # the table's rows that trec_eval computes: the take-home checks them


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
    for rule, who in (("trec_eval", prose.section(NAME, "Tie rule trec_eval")),
                      ("listed", prose.section(NAME, "Tie rule listed"))):
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


def _scoreboard() -> Scoreboard:
    """The editor's live scoreboard: the table's rows the engine computes (its trec_eval and exponential rows)."""
    labels = (prose.text(NAME, "Board nDCG", k="{k}", gain="linear"),
              prose.text(NAME, "Board nDCG", k="{k}", gain="exponential"), prose.text(NAME, "Board recall", k="{k}"),
              prose.section(NAME, "Board RR"), prose.text(NAME, "Board RR at k", k="{k}"))
    return Scoreboard(("nDCG@k", "nDCG@k", "R@k", "RR", "RR@k"), labels,
                      gains=("linear", "exponential", "linear", "linear", "linear"))


@followed_fragment
def _switchboard() -> None:
    k = show_k_slider(state.DIFFER_K, hi=len(Q.docs), default=scenarios.FRAMEWORKS_K)
    editor_col, table_col = st.columns([2, 3], gap="large")
    with editor_col:
        current = show_ranking_editor(editor_items(Q.docs), key=state.DIFFER_EDITOR,
                                      default_order=Q.presets[START], k=k, tray=True, editable_grades=True,
                                      grade_range=(0, 2), scale=chart_scale(),
                                      label=prose.section(NAME, "Label editor"), k_key=state.DIFFER_K,
                                      k_max=len(Q.docs), scoreboard=_scoreboard())
        show_link_to_view()
    grades, judged = current.order_grades(), current.judged_grades()
    with table_col:
        st.markdown(prose.section(NAME, "Table intro"))
        with st.container(key=CONVENTIONS):  # its names may break anywhere (components/ui/widgets.py's CSS)
            st.table(pd.DataFrame(convention_rows(grades, judged, k)), hide_index=True, border="horizontal")
        st.markdown(empty_query_sentence(grades, judged, k))
    show_take_home(NAME, [current], k=k, gain="linear", measures=TRECEVAL_ROWS)
    st.markdown(prose.text(NAME, "Ties intro", k=k))
    st.dataframe(pd.DataFrame({
        prose.section(NAME, "Tied document"): [i for i, _ in scenarios.TIED_SCORES],
        prose.section(NAME, "Tied score"): [f"{s:.1f}" for _, s in scenarios.TIED_SCORES],
        prose.section(NAME, "Tied grade"): [str(g) for g in Q.grades([i for i, _ in scenarios.TIED_SCORES])],
    }).T, key="differ.tied_list")
    st.table(pd.DataFrame(tie_rows(k)), hide_index=True, border="horizontal")


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    st.markdown(prose.section(NAME, "Intro"))
    st.markdown(prose.section(NAME, "Scenario"))
    _switchboard()
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
