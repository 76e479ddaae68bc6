"""Lesson 1: Recall@k with the lawyer scenario."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from components.course import class_answers, prose, puzzles, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.live_class.follow import followed_fragment
from components.ranking_editor import EditorState, Scoreboard, set_editor_state
from components.ranking_editor.model import editor_items, query_set
from components.ui import charts, layout, state
from components.ui.answer_first import answered_first
from components.ui.duel import Side, duel_controls, show_duel
from components.ui.puzzle import show_puzzle
from components.ui.take_home import show_take_home
from components.ui.widgets import (
    board_hidden,
    chart_scale,
    numbers_revealed,
    show_chart,
    show_k_slider,
    show_link_to_view,
    show_ranking_editor,
    show_steps,
    steps_done,
)

NAME = "recall"
Q = scenarios.LAWYER
MAX_K = 20
MEASURES = ("R@k", "RR", "nDCG@k")  # the scenario's board, in the engine's names
SYSTEMS = tuple(scenarios.LAWYER_DEFAULT_K)  # the two systems, each quoted at its own k
VARIANTS = tuple(p for p in Q.presets if p not in SYSTEMS)  # System A with its hits at the top, then at the bottom
ITEMS = editor_items(scenarios.LAWYER_POOL)


def _load(preset: str) -> None:
    set_editor_state(state.RECALL_EDITOR, Q.presets[preset])
    if preset in scenarios.LAWYER_DEFAULT_K:
        st.session_state[state.RECALL_K] = scenarios.LAWYER_DEFAULT_K[preset]


def _preset_buttons(names, *, labels) -> None:
    columns = st.columns(len(names))
    for column, name in zip(columns, names):
        column.button(labels[name], key=f"recall.preset.{name}", on_click=_load, args=(name,), width="stretch")


def _arithmetic(current: EditorState, k: int) -> str:
    """Recall@k worked out for this order: |relevant ∩ top k| / |relevant|."""
    qs = query_set(current)
    return prose.text(NAME, "Arithmetic", k=k, found=int(metrics.relevant_in_top_k(qs, k)[0]),
                      relevant=current.n_relevant(), recall=fmt(metrics.recall(qs, k)[0]))


def _scoreboard(current: EditorState, k: int) -> Scoreboard:
    """The editor's live scoreboard, the page's one place for Recall@k, RR and nDCG@k: hidden while the class
    predicts them or steps through the arithmetic."""
    labels = ("Recall@{k}", prose.section(NAME, "Label RR preview"), prose.text(NAME, "Label nDCG preview", k="{k}"))
    return Scoreboard(MEASURES, labels, hidden=board_hidden("recall", (current, k), lambda: _arithmetic(current, k)))


@followed_fragment
def _scenario() -> None:
    _preset_buttons(SYSTEMS, labels={s: prose.text(NAME, "Button system", system=s, k=scenarios.LAWYER_DEFAULT_K[s])
                                     for s in SYSTEMS})
    k = show_k_slider(state.RECALL_K, hi=MAX_K, default=5, help=prose.section(NAME, "Help cutoff"))
    editor_col, numbers_col = st.columns([3, 2], gap="large")
    with editor_col:
        current = answered_first(state.RECALL_EDITOR, lambda k, address: show_ranking_editor(
            ITEMS, key=state.RECALL_EDITOR, default_order=Q.presets[SYSTEMS[0]], k=k, tray=True, grade_range=(0, 1),
            scale=chart_scale(), label=prose.section(NAME, "Label editor"), scoreboard=lambda s: _scoreboard(s, k),
            k_key=state.RECALL_K, k_max=MAX_K, scroll_in_place=True, address=address),
            k_key=state.RECALL_K)
        st.caption(prose.text(NAME, "Tray note", title=_tenth_case().title))  # the tray, and the case no one found
    link, take_home = st.columns(2)  # one row under both columns: the link now, the files once the numbers show
    with link:
        show_link_to_view()
    qs = query_set(current)
    arithmetic = _arithmetic(current, k)
    with numbers_col:
        revealed = numbers_revealed("recall", (current, k),
                                    ask=lambda: class_answers.asked_on_screen("R@k", f"Recall@{k}", qs, k))
        # Recall@k, RR and nDCG@k are on the editor's board only: one number per measure, the same mid-drag.
        cards = revealed and steps_done("recall", arithmetic)  # step by step: the chart comes with the last step
        if not revealed:
            return
        show_steps(arithmetic, key="recall")
        if not cards:
            return
        ks = list(range(1, MAX_K + 1))
        curve = [metrics.recall(qs, j)[0] for j in ks]
        show_chart(charts.metric_by_k, ks, {prose.section(NAME, "Series current order"): curve}, metric="Recall@k",
                   current_k=k, key="recall.curve")
    with take_home:
        show_take_home(NAME, [current], k=k, gain="exponential", measures=MEASURES)


def _tenth_case() -> scenarios.Doc:
    missed = set.intersection(*(set(Q.not_returned(Q.presets[s])) for s in SYSTEMS))
    return next(d for d in Q.docs if d.id in missed and d.grade == 1)


@followed_fragment
def _fair_comparison() -> None:
    slider_at, reset_at = duel_controls()
    with slider_at:
        k = show_k_slider(state.RECALL_COMPARE_K, hi=MAX_K, default=5, label=prose.section(NAME, "Label same k"),
                          param=state.PARAM_FAIR_K)
    board = Scoreboard(("R@k",), ("Recall@{k}",))
    sides = tuple(Side(prose.text(NAME, "Duel system", system=s), Q.presets[s], board) for s in SYSTEMS)
    sentence = st.container()
    a, b = show_duel(state.RECALL_FAIR, ITEMS, sides, k=k, scope="recall.fair", k_key=state.RECALL_COMPARE_K,
                     k_max=MAX_K, tray=True, reset_in=reset_at)
    with sentence:
        if not numbers_revealed("recall.fair", (a, b, k)):
            return
    qs = query_set(a, b)
    recall, found = metrics.recall(qs, k), metrics.relevant_in_top_k(qs, k).astype(int)
    sentence.markdown(prose.text(NAME, "Fair sentence", k=k, a=fmt(recall[0]), b=fmt(recall[1]), a_found=found[0],
                                 b_found=found[1], relevant=a.n_relevant()))
    ks = list(range(1, MAX_K + 1))
    curves = [metrics.recall(qs, j) for j in ks]
    show_chart(charts.metric_by_k, ks, {s: [c[i] for c in curves] for i, s in enumerate(SYSTEMS)},
               metric="Recall@k", current_k=k, key="recall.compare", fold=prose.section(NAME, "Fair chart fold"))


@followed_fragment
def _blind_spot() -> None:
    st.markdown(prose.section(NAME, "Blind spot"))
    slider_at, reset_at = duel_controls()
    with slider_at:
        k = show_k_slider(state.RECALL_BLIND_K, hi=MAX_K, default=MAX_K, label=prose.section(NAME, "Label blind k"),
                          param=state.PARAM_BLIND_K)
    titles = (prose.section(NAME, "Duel hits top"), prose.section(NAME, "Duel hits bottom"))
    board = Scoreboard(("R@k", "RR"), ("Recall@{k}", "RR"))
    sides = tuple(Side(t, Q.presets[v], board) for t, v in zip(titles, VARIANTS))
    sentence = st.container()
    top, bottom = show_duel(state.RECALL_BLIND, ITEMS, sides, k=k, scope="recall.blind", k_key=state.RECALL_BLIND_K,
                            k_max=MAX_K, tray=True, reset_in=reset_at)
    with sentence:
        if not numbers_revealed("recall.blind", (top, bottom, k)):
            return
    qs = query_set(top, bottom)
    recall, rr = [fmt(v) for v in metrics.recall(qs, k)], [fmt(v) for v in metrics.reciprocal_rank(qs)]
    verdict = dict(k=k, recall_top=recall[0], recall_bottom=recall[1], rr_top=rr[0], rr_bottom=rr[1])
    sentence.info(prose.text_choosing(NAME, "Blind same recall" if recall[0] == recall[1] else "Blind recall differs",
                                      verdict), icon="🙈")


@followed_fragment
def _puzzle() -> None:
    st.markdown(prose.section(NAME, "Puzzle"))
    show_puzzle(puzzles.RECALL_SAME_RR_LOWER, key=state.RECALL_PUZZLE, labels=("Recall@5", "RR"), k=5,
                grade_range=(0, 1))


@followed_fragment
def _hit_rate() -> None:
    st.markdown(prose.section(NAME, "Hit rate"))
    k = show_k_slider(state.RECALL_HIT_RATE_K, hi=10, default=5, label=prose.section(NAME, "Label hit rate k"),
                      param=state.PARAM_HIT_K)
    names = [name for name, _, _ in scenarios.RECALL_VS_HIT_RATE]
    qs = metrics.from_rankings([g for _, g, _ in scenarios.RECALL_VS_HIT_RATE],
                               [[1] * n for _, _, n in scenarios.RECALL_VS_HIT_RATE])
    recall, success = metrics.recall(qs, k), metrics.success(qs, k)
    table = pd.DataFrame({
        prose.section(NAME, "Column query"): names,
        prose.section(NAME, "Column relevant"): [n for _, _, n in scenarios.RECALL_VS_HIT_RATE],
        prose.text(NAME, "Column found", k=k): metrics.relevant_in_top_k(qs, k).astype(int),
        f"R@{k}": [fmt(v) for v in recall],
        f"Success@{k}": [fmt(v) for v in success],
    })
    st.table(table, hide_index=True, border="horizontal")  # HTML: it grows with the projector's font
    mean_recall, mean_success = float(np.mean(recall)), float(np.mean(success))
    verdict = prose.section(NAME, "Hit rate same" if abs(mean_recall - mean_success) < 1e-12 else "Hit rate differ")
    st.markdown(prose.text(NAME, "Hit rate sentence", k=k, mean_recall=fmt(mean_recall),
                           success=fmt(mean_success), verdict=verdict))


def render() -> None:
    layout.show_lesson_opening(NAME)
    st.markdown(prose.section(NAME, "Scenario"))
    _scenario()

    st.subheader(prose.section(NAME, "Heading fair comparison"))
    st.markdown(prose.section(NAME, "Fair comparison"))
    _fair_comparison()

    st.subheader(prose.section(NAME, "Heading blind spot"))
    _blind_spot()
    st.subheader(prose.section(NAME, "Heading puzzle"))
    _puzzle()
    st.caption(prose.section(NAME, "Puzzle pool"))

    st.subheader(prose.section(NAME, "Heading hit rate"))
    _hit_rate()

    # a section of its own: its list would not fit beside the reps
    layout.show_where_it_matters(prose.section(NAME, "Heading where it matters"), prose.section(NAME, "Where it matters"))
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
