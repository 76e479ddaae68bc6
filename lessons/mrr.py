"""Lesson 2: MRR with the JAR-file scenario."""
from __future__ import annotations

import numpy as np
import streamlit as st

from components.course import prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor.model import editor_items
from components.ui import charts, layout, state
from components.ui.take_home import show_take_home
from components.ui.widgets import (
    chart_scale,
    numbers_revealed,
    read_control,
    show_chart,
    show_link_to_view,
    show_ranking_editor,
    show_steps,
    shown,
)

NAME = "mrr"
QUERIES = scenarios.JAR_QUERIES
CUTOFFS = ("none",) + tuple(range(1, 11))
MAX_RANK = 10


def _editor(query: scenarios.Query, key: str, url_suffix: str, label: str):
    return show_ranking_editor(editor_items(query.docs), key=key, default_order=query.presets["Default"], tray=True,
                               grade_range=(0, 1), scale=chart_scale(), label=label, url_suffix=url_suffix)


def _editors():
    """The three result lists: side by side, or in tabs when projected (they would not fit)."""
    states = []
    if st.session_state.get(state.PROJECTOR):
        places = st.tabs([f"Query {i}" for i in range(1, len(QUERIES) + 1)])
    else:
        places = st.columns(len(QUERIES), gap="medium")
    for i, (place, query, key) in enumerate(zip(places, QUERIES, state.MRR_EDITORS), 1):
        with place:
            st.markdown(f"**Query {i}:** “{query.text}”")
            states.append(_editor(query, key, str(i), f"Query {i} results"))
    return states


def arithmetic_terms(first: np.ndarray, cutoff: int | None) -> str:
    """"1/1 + 1/2 + 0": one term per query, 0 for no hit (or a hit below the cutoff)."""
    counted = [r if np.isfinite(r) and (cutoff is None or r <= cutoff) else None for r in first]
    return " + ".join(f"1/{int(r)}" if r is not None else "0" for r in counted)


def _discount_sentence(first: np.ndarray, lengths: list[int]) -> str:
    for i, (rank, length) in enumerate(zip(first, lengths), 1):
        if np.isfinite(rank) and rank < length:
            rank = int(rank)
            return prose.text(NAME, "Discount sentence", query=i, rank=rank, next_rank=rank + 1,
                              rr=fmt(1 / rank), next_rr=fmt(1 / (rank + 1)))
    return prose.section(NAME, "Discount none")


def _cutoff_sentence(first: np.ndarray, cutoff: int, mrr: float, mrr_cut: float) -> str:
    zeroed = [f"query {i}" for i, r in enumerate(first, 1) if np.isfinite(r) and r > cutoff]
    if zeroed:
        lead = prose.text(NAME, "Cutoff some zeroed", queries=" and ".join(zeroed), k=cutoff)
    else:
        lead = prose.section(NAME, "Cutoff none zeroed")
    return prose.text(NAME, "Cutoff sentence", k=cutoff, zeroed=lead, mrr_cut=fmt(mrr_cut), mrr=fmt(mrr))


@st.fragment
def _scenario() -> None:
    states = _editors()
    qs = metrics.from_rankings([s.order_grades() for s in states], [s.judged_grades() for s in states])
    first = metrics.first_hit_rank(qs)
    rr = metrics.reciprocal_rank(qs)
    mrr = float(rr.mean())
    show_link_to_view()
    revealed = numbers_revealed("mrr", states)
    for column, value, i in zip(st.columns(len(QUERIES) + 1), list(rr) + [mrr], range(1, len(QUERIES) + 2)):
        column.metric(f"RR, query {i}" if i <= len(QUERIES) else "MRR", shown(value, revealed))
    if not revealed:
        return
    show_steps(prose.text(NAME, "Arithmetic", terms=arithmetic_terms(first, None), n=len(QUERIES),
                          total=fmt(rr.sum()), mrr=fmt(mrr)), key="mrr")

    chart_col, text_col = st.columns([3, 2], gap="large")
    with chart_col:
        hits = {f"query {i}": (int(r) if np.isfinite(r) else None) for i, r in enumerate(first, 1)}
        show_chart(charts.reciprocal_rank_curve, MAX_RANK, hits, key="mrr.curve")
    with text_col:
        st.markdown(prose.section(NAME, "Discount"))
        st.info(_discount_sentence(first, [len(s.order) for s in states]), icon="📉")

    st.subheader("MRR@k: a cutoff")
    st.markdown(prose.section(NAME, "Cutoff"))
    st.session_state.setdefault(state.MRR_CUTOFF, "none")
    cutoff = read_control(st.select_slider("Cutoff k for MRR@k", CUTOFFS, key=state.MRR_CUTOFF), "none", CUTOFFS)
    if cutoff != "none":
        rr_cut = metrics.reciprocal_rank(qs, cutoff)
        left, right = st.columns(2)
        left.metric(f"MRR@{cutoff}", fmt(rr_cut.mean()))
        right.metric("MRR (no cutoff)", fmt(mrr))
        st.markdown(prose.text(NAME, "Arithmetic", terms=arithmetic_terms(first, cutoff), n=len(QUERIES),
                               total=fmt(rr_cut.sum()), mrr=fmt(rr_cut.mean())))
        st.markdown(_cutoff_sentence(first, cutoff, mrr, float(rr_cut.mean())))
    st.markdown(prose.text(NAME, "MRR at 1", mrr1=fmt(metrics.reciprocal_rank(qs, 1).mean()),
                           hit1=fmt(metrics.success(qs, 1).mean())))
    show_take_home(NAME, states, k=None if cutoff == "none" else cutoff, gain="exponential",
                   measures=("RR", "RR@k", "RR@1", "Success@1"))


@st.fragment
def _several_relevant() -> None:
    query = scenarios.JAR_TWO_RELEVANT
    current = _editor(query, state.MRR_TWO_RELEVANT_EDITOR, "_two", f"Results for “{query.text}”")
    hit_positions = [i for i, g in enumerate(current.order_grades(), 1) if g >= 1]
    rr = metrics.reciprocal_rank_of(current.order_grades())
    st.metric("RR", fmt(rr))
    if not hit_positions:
        st.markdown(prose.section(NAME, "No acceptable file"))
        return
    second = (prose.text(NAME, "Second counts nothing", second=hit_positions[1]) if len(hit_positions) > 1
              else prose.section(NAME, "Second missing"))
    st.markdown(prose.text(NAME, "Several relevant sentence", first=hit_positions[0], rr=fmt(rr), second=second))


def render() -> None:
    st.title("MRR: mean reciprocal rank")
    layout.show_warm_up("warmup.mrr")
    st.markdown(prose.section(NAME, "Intro"))
    layout.show_formula(NAME)

    st.subheader("Try it: three searches for one jar")
    st.markdown(prose.section(NAME, "Scenario"))
    st.caption(prose.section(NAME, "Tray note"))
    _scenario()

    st.subheader("When several results are right")
    st.markdown(prose.section(NAME, "Several relevant"))
    _several_relevant()

    st.subheader("Where MRR fits")
    st.markdown(prose.section(NAME, "Where it fits"))
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
