"""Lesson 4: the four-query example: recall@k and MRR across a query set, and choosing k."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.live_class.follow import followed_fragment
from components.rank_figure import set_figure_ranks
from components.ranking_editor import EditorState
from components.ui import layout, state
from components.ui.take_home import show_take_home
from components.ui.widgets import (
    chart_scale,
    numbers_revealed,
    read_control,
    show_k_slider,
    show_link_to_view,
    show_rank_figure,
    show_steps,
    shown,
    steps_done,
)

NAME = "four_queries"
LENGTH = scenarios.FOUR_QUERY_LIST_LENGTH


def _list_state(rank: int | None) -> EditorState:
    """A query's list with its answer at ``rank`` (None: not returned, judged but missing), for the take-home
    files."""
    order, tray = scenarios.four_query_list(rank)
    return EditorState(order=order, tray=tray, grades=dict(scenarios.FOUR_QUERY_GRADES))


def _load(ranks) -> None:
    set_figure_ranks(state.FOUR_RANKS, ranks, LENGTH)


def _list_queries(numbers: list[int]) -> str:
    names = [prose.text(NAME, "Query name", n=n) for n in numbers]
    return names[0] if len(names) == 1 else prose.text(NAME, "Query list", rest=", ".join(names[:-1]), last=names[-1])


def _arithmetic(ranks, k: int) -> str:
    """recall@k and MRR worked out for the four hit ranks."""
    qs = scenarios.four_query_set(ranks)
    recall, success, rr = metrics.recall(qs, k), metrics.success(qs, k), metrics.reciprocal_rank(qs)
    inside = [q for q, hit in enumerate(success, 1) if hit]
    which = (prose.text(NAME, "Which some", queries=_list_queries(inside), k=k) if inside
             else prose.text(NAME, "Which none", k=k))
    terms = " + ".join(f"1/{int(r)}" if r != float("inf") else "0" for r in metrics.first_hit_rank(qs))
    return prose.text(NAME, "Arithmetic", k=k, hits=len(inside), n=len(ranks), recall=fmt(recall.mean()),
                      which=which, terms=terms, total=fmt(rr.sum()), mrr=fmt(rr.mean()))


@followed_fragment
def _scenario() -> list[int | None]:
    k = show_k_slider(state.FOUR_K, hi=LENGTH, default=5, help=prose.section(NAME, "Help cutoff"))
    n = len(scenarios.FOUR_QUERY_HIT_RANKS)
    ranks = list(show_rank_figure(key=state.FOUR_RANKS, default_ranks=scenarios.FOUR_QUERY_HIT_RANKS, length=LENGTH,
                                  k=k, scope=NAME, arithmetic=_arithmetic, k_key=state.FOUR_K, scale=chart_scale(),
                                  queries=[prose.text(NAME, "Query title", n=q) for q in range(1, n + 1)],
                                  short=[prose.text(NAME, "Query short", n=q) for q in range(1, n + 1)],
                                  labels=("recall@{k}", "MRR"), label=prose.section(NAME, "Label figure")))
    qs = scenarios.four_query_set(ranks)
    show_link_to_view()
    revealed = numbers_revealed(NAME, (ranks, k))
    arithmetic = _arithmetic(ranks, k)
    shown_now = revealed and steps_done(NAME, arithmetic)  # step by step: the result comes with the last step
    # recall@k and MRR are on the figure's board only (one number per measure, the same mid-drag); hit rate@k,
    # which the board lacks, keeps its card.
    st.metric(prose.text(NAME, "Label hit rate card", k=k), shown(metrics.success(qs, k).mean(), shown_now),
              help=prose.section(NAME, "Help hit rate card"))
    if not revealed:
        return ranks
    show_steps(arithmetic, key=NAME)
    if not shown_now:
        return ranks
    ks = range(1, LENGTH + 1)
    st.table(pd.DataFrame([[fmt(metrics.recall(qs, j).mean()) for j in ks]], index=["recall@k"],
                          columns=[f"k = {j}" for j in ks]), border="horizontal")  # wraps: no sideways scrolling
    show_take_home(NAME, [_list_state(r) for r in ranks], k=k, gain="exponential", measures=("R@k", "Success@k", "RR"))
    _presets(k)
    _choosing_k(qs)
    return ranks


def _presets(k: int) -> None:
    st.subheader(prose.section(NAME, "Heading presets"))
    st.markdown(prose.section(NAME, "Presets"))
    columns = st.columns(3)
    columns[0].button(prose.section(NAME, "Button all at 1"), key="four.preset.top", on_click=_load, args=([1] * 4,),
                      width="stretch")
    columns[1].button(prose.text(NAME, "Button all at k", k=k), key="four.preset.k", on_click=_load, args=([k] * 4,),
                      width="stretch")
    columns[2].button(prose.text(NAME, "Button back", ranks=", ".join(map(str, scenarios.FOUR_QUERY_HIT_RANKS))),
                      key="four.preset.brief", on_click=_load,
                      args=(scenarios.FOUR_QUERY_HIT_RANKS,), width="stretch")
    top, at_k = scenarios.four_query_set([1] * 4), scenarios.four_query_set([k] * 4)
    st.markdown(prose.text(NAME, "Preset sentence", k=k, r1=fmt(metrics.recall(top, k).mean()),
                           m1=fmt(metrics.reciprocal_rank(top).mean()), rk=fmt(metrics.recall(at_k, k).mean()),
                           mk=fmt(metrics.reciprocal_rank(at_k).mean())))


def _choosing_k(qs: metrics.QuerySet) -> None:
    st.subheader(prose.section(NAME, "Heading choosing k"))
    st.markdown(prose.section(NAME, "Choosing k"))
    st.session_state.setdefault(state.FOUR_BUDGET, 5)
    n = int(read_control(st.number_input(prose.section(NAME, "Label budget"), min_value=1, max_value=100, step=1,
                                         key=state.FOUR_BUDGET), 5))
    honest, flattering = metrics.recall(qs, n).mean(), metrics.recall(qs, 100).mean()
    verdict = prose.text(NAME, "Choosing same", n=n) if fmt(honest) == fmt(flattering) \
        else prose.section(NAME, "Choosing differ")
    st.info(prose.text(NAME, "Choosing sentence", n=n, honest=fmt(honest), flattering=fmt(flattering),
                       verdict=verdict), icon="🎯")
    st.markdown(prose.section(NAME, "Report both"))


def render() -> None:
    layout.show_lesson_opening(NAME)
    st.markdown(prose.section(NAME, "Scenario"))
    _scenario()
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
