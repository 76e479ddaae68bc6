"""The MRR lesson, with the JAR-file scenario (its number in the course: components/ui/registry.py)."""
from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from components.course import class_answers, prose, scenarios, steps
from components.engine import metrics
from components.engine.formatting import fmt
from components.live_class.follow import followed_fragment
from components.ranking_editor import EditorState
from components.ranking_editor.model import editor_items, query_set
from components.ui import charts, layout, state
from components.ui.answer_first import answered_first
from components.ui.take_home import show_take_home
from components.ui.widgets import (
    chart_scale,
    from_url_once,
    numbers_revealed,
    read_control,
    set_url_param,
    shared_scoreboard,
    show_chart,
    show_link_to_view,
    show_ranking_editor,
    show_steps,
    state_before,
    steps_done,
)

NAME = "mrr"
QUERIES = scenarios.JAR_QUERIES
CUTOFFS = tuple(range(1, 11)) + ("none",)  # "no cutoff" at the gentle end, after 10
MAX_RANK = 10
NO_CUTOFF = CUTOFFS[-1]  # the select slider's value (and session state) for "no cutoff"


def _cutoff_option(cutoff) -> str:
    """How the select slider shows a cutoff: the word for no cutoff, or the number."""
    return prose.section(NAME, "Option no cutoff") if cutoff == NO_CUTOFF else str(cutoff)


def _default_order(query: scenarios.Query) -> tuple[str, ...]:
    return next(iter(query.presets.values()))  # each jar query has one preset, its listed order


def _editor(query: scenarios.Query, key: str, url_suffix: str, label: str, board=None, address: bool = True):
    return show_ranking_editor(editor_items(query.docs), key=key, default_order=_default_order(query), tray=True,
                               grade_range=(0, 1), scale=chart_scale(), label=label, url_suffix=url_suffix,
                               scoreboard=board, address=address)


def _states_now() -> list[EditorState]:
    """The three lists as they stand (on the first run, as they will start)."""
    return [state_before(key, editor_items(q.docs), _default_order(q), tray=True, grade_range=(0, 1))
            for q, key in zip(QUERIES, state.MRR_EDITORS)]


def _editors():
    """The three result lists: side by side, or in tabs when projected (they would not fit). Each answers a move
    on its own board first, its RR and the MRR with the other two as they stand; the section then follows
    (components/ui/answer_first.py), the other two boards' MRR with it."""
    if st.session_state.get(state.PROJECTOR):
        places = st.tabs([prose.text(NAME, "Tab query", i=i) for i in range(1, len(QUERIES) + 1)])
    else:
        places = st.columns(len(QUERIES), gap="medium")
    states = []
    for i, (place, query, key) in enumerate(zip(places, QUERIES, state.MRR_EDITORS), 1):
        board = functools.partial(shared_scoreboard, i=i - 1, measures=("RR", "RR"), own=(True, False), scope="mrr",
                                  labels=(prose.text(NAME, "Label RR card", i=i), "MRR"), arithmetic=_arithmetic)
        with place:
            st.markdown(prose.text(NAME, "Query heading", i=i, query=query.text))
            states.append(answered_first(key, lambda _, address, query=query, key=key, i=i, board=board: _editor(
                query, key, str(i), prose.text(NAME, "Label query results", i=i), board(_states_now()), address)))
    return states


def _arithmetic(states) -> str:
    """MRR worked out for the three lists: (1/rank_1 + 1/rank_2 + 1/rank_3) / 3."""
    qs = query_set(*states)
    rr = metrics.reciprocal_rank(qs)
    return prose.text(NAME, "Arithmetic", terms=steps.reciprocal_terms(metrics.first_hit_rank(qs), None), n=len(states),
                      total=fmt(rr.sum()), mrr=fmt(rr.mean()))


def _discount_sentence(first: np.ndarray, lengths: list[int]) -> str:
    for i, (rank, length) in enumerate(zip(first, lengths), 1):
        if np.isfinite(rank) and rank < length:
            rank = int(rank)
            return prose.text(NAME, "Discount sentence", query=i, rank=rank, next_rank=rank + 1,
                              rr=fmt(1 / rank), next_rr=fmt(1 / (rank + 1)))
    return prose.section(NAME, "Discount none")


def _cutoff_sentence(first: np.ndarray, cutoff: int, mrr: float, mrr_cut: float) -> str:
    zeroed = [prose.text(NAME, "Query name", i=i) for i, r in enumerate(first, 1) if np.isfinite(r) and r > cutoff]
    if zeroed:
        queries = functools.reduce(lambda a, b: prose.text(NAME, "Query pair", first=a, second=b), zeroed)
        lead = prose.text(NAME, "Cutoff some zeroed", queries=queries, n=len(zeroed), k=cutoff)
    else:
        lead = prose.section(NAME, "Cutoff none zeroed")
    return prose.text(NAME, "Cutoff sentence", k=cutoff, zeroed=lead, mrr_cut=fmt(mrr_cut), mrr=fmt(mrr))


@followed_fragment
def _scenario() -> None:
    states = _editors()
    qs = query_set(*states)
    first = metrics.first_hit_rank(qs)
    rr = metrics.reciprocal_rank(qs)
    mrr = float(rr.mean())
    show_link_to_view()
    revealed = numbers_revealed("mrr", states, ask=lambda: class_answers.asked_on_screen("MRR", "MRR", qs, 1))
    arithmetic = _arithmetic(states)
    # Each query's RR and the page's MRR are on the lists' boards only: one number per measure, the same mid-drag.
    cards = revealed and steps_done("mrr", arithmetic)  # step by step: what follows comes with the last step
    if not revealed:
        return
    show_steps(arithmetic, key="mrr")
    if not cards:
        return

    chart_col, text_col = st.columns([3, 2], gap="large")
    with chart_col:
        hits = {prose.text(NAME, "Query name", i=i): (int(r) if np.isfinite(r) else None)
                for i, r in enumerate(first, 1)}
        show_chart(charts.reciprocal_rank_curve, MAX_RANK, hits, key="mrr.curve")
    with text_col:
        st.markdown(prose.section(NAME, "Discount"))
        st.info(_discount_sentence(first, [len(s.order) for s in states]), icon="📉")

    st.subheader(prose.section(NAME, "Heading cutoff"))
    st.markdown(prose.section(NAME, "Cutoff"))
    from_url_once(state.MRR_CUTOFF, state.PARAM_CUTOFF,
                  lambda raw: state.read_cutoff(raw, hi=CUTOFFS[-2], default=NO_CUTOFF))
    cutoff = read_control(st.select_slider(prose.section(NAME, "Label cutoff"), CUTOFFS, format_func=_cutoff_option,
                                           key=state.MRR_CUTOFF), NO_CUTOFF, CUTOFFS)
    set_url_param(state.PARAM_CUTOFF, str(cutoff))
    if cutoff != NO_CUTOFF:
        rr_cut = metrics.reciprocal_rank(qs, cutoff)
        left, right = st.columns(2)
        left.metric(f"MRR@{cutoff}", fmt(rr_cut.mean()))
        right.metric(prose.section(NAME, "Label MRR no cutoff"), fmt(mrr))
        st.markdown(prose.text(NAME, "Arithmetic", terms=steps.reciprocal_terms(first, cutoff), n=len(QUERIES),
                               total=fmt(rr_cut.sum()), mrr=fmt(rr_cut.mean())))
        st.markdown(_cutoff_sentence(first, cutoff, mrr, float(rr_cut.mean())))
    st.markdown(prose.text(NAME, "MRR at 1", mrr1=fmt(metrics.reciprocal_rank(qs, 1).mean()),
                           hit1=fmt(metrics.success(qs, 1).mean())))
    show_take_home(NAME, states, k=None if cutoff == NO_CUTOFF else cutoff, gain="exponential",
                   measures=("RR", "RR@k", "RR@1", "Success@1"))


@followed_fragment
def _several_relevant() -> None:
    query = scenarios.JAR_TWO_RELEVANT
    label = prose.text(NAME, "Label two relevant results", query=query.text)
    current = _editor(query, state.MRR_TWO_RELEVANT_EDITOR, "_two", label)
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
    layout.show_lesson_opening(NAME)
    st.markdown(prose.section(NAME, "Scenario"))
    st.caption(prose.section(NAME, "Tray note"))
    _scenario()

    st.subheader(prose.section(NAME, "Heading several relevant"))
    st.markdown(prose.section(NAME, "Several relevant"))
    _several_relevant()

    layout.show_practice(NAME)
    layout.show_lesson_end(NAME, where=(prose.section(NAME, "Heading where it fits"), prose.section(NAME, "Where it fits")))


if __name__ == "__main__":
    render()
