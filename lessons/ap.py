"""Lesson: precision at k and average precision (MAP), with the lawyer scenario and the four-query example."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import class_answers, precision, prose, puzzles, scenarios
from components.engine import conventions, metrics
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
    read_control,
    show_chart,
    show_k_slider,
    show_link_to_view,
    show_ranking_editor,
    show_steps,
    steps_done,
)

NAME = "ap"
Q = scenarios.LAWYER
MAX_K = 20
MEASURES = ("AP", "P@k", "R@k", "RR")  # the board, in the engine's names
PRESETS = tuple(Q.presets)  # System A, System B, then System A with its hits at 1–4 and at 16–19
VARIANTS = PRESETS[2:]
_IN_A_LIST = set().union(*(Q.presets[p] for p in PRESETS))
ITEMS = editor_items(d for d in Q.docs if d.id in _IN_A_LIST or (d.grade or 0) >= 1)
# The preset buttons' labels: the two variants' full names do not fit four buttons in a row at 1024 px.
PRESET_LABELS = {PRESETS[0]: PRESETS[0], PRESETS[1]: PRESETS[1],
                 VARIANTS[0]: prose.section(NAME, "Button hits top"), VARIANTS[1]: prose.section(NAME, "Button hits bottom")}
# The relevance-level pitfall: the frameworks' list with grade-1 pages above grade-2 ones, at level 1 or 2.
LEVEL_QUERY = scenarios.FRAMEWORKS
LEVEL_ORDER = LEVEL_QUERY.presets[scenarios.FRAMEWORKS_MIXED]
LEVELS = (1, 2)
LEVEL_NDCG_K = 5


def _load(preset: str) -> None:
    set_editor_state(state.AP_EDITOR, Q.presets[preset])


def _arithmetic(current: EditorState) -> str:
    """AP = (Σ P@rank over the hits) / R for this order (the value from the engine)."""
    return precision.ap_arithmetic(current.order_grades(), current.n_relevant())


def _hit_table(current: EditorState) -> pd.DataFrame:
    """One row per relevant returned document: its rank, title, P@rank and the running sum."""
    by_id, running = Q.by_id, 0.0
    rows = []
    for hit in precision.hits(current.order_grades()):
        running += hit.precision
        rows.append({prose.section(NAME, "Column rank"): hit.rank,
                     prose.section(NAME, "Column case"): by_id[current.order[hit.rank - 1]].title,
                     prose.section(NAME, "Column precision"): f"{hit.found}/{hit.rank} = {fmt(hit.precision)}",
                     prose.section(NAME, "Column running"): fmt(running)})
    return pd.DataFrame(rows)


@followed_fragment
def _scenario() -> None:
    columns = st.columns(len(PRESETS))
    for column, name in zip(columns, PRESETS):
        column.button(PRESET_LABELS[name], key=f"ap.preset.{name}", on_click=_load, args=(name,), width="stretch",
                      help=name)
    k = show_k_slider(state.AP_K, hi=MAX_K, default=5, help=prose.section(NAME, "Help cutoff"))
    labels = ("AP", "P@{k}", "Recall@{k}", "RR")
    editor_col, numbers_col = st.columns([3, 2], gap="large")
    with editor_col:
        current = answered_first(state.AP_EDITOR, lambda k, address: show_ranking_editor(
            ITEMS, key=state.AP_EDITOR, default_order=Q.presets[PRESETS[0]], k=k, tray=True, grade_range=(0, 1),
            scale=chart_scale(), label=prose.section(NAME, "Label editor"), k_key=state.AP_K, k_max=MAX_K,
            scoreboard=lambda s: Scoreboard(MEASURES, labels, hidden=board_hidden(NAME, (s, k), lambda: _arithmetic(s))),
            scroll_in_place=True, address=address), k_key=state.AP_K)
    link, take_home = st.columns(2)  # one row under both columns: the link now, the files once the numbers show
    with link:
        show_link_to_view()
    qs = query_set(current)
    arithmetic = _arithmetic(current)
    with numbers_col:
        revealed = numbers_revealed(NAME, (current, k), ask=lambda: class_answers.asked_on_screen("AP", "AP", qs, k))
        # AP, P@k, Recall@k and RR are on the editor's board only: one number per measure, the same mid-drag.
        cards = revealed and steps_done(NAME, arithmetic)  # step by step: what follows comes with the last step
        if not revealed:
            return
        show_steps(arithmetic, key=NAME)
        if not cards:
            return
        wrong = conventions.ap_over_returned(current.order_grades())
        st.markdown(prose.text(NAME, "Returned trap", wrong=fmt(wrong), right=fmt(metrics.average_precision(qs)[0]),
                               returned=len(precision.hits(current.order_grades())), relevant=current.n_relevant()))
    if not cards:
        return
    hits = _hit_table(current)
    if len(hits):
        with st.expander(prose.section(NAME, "Table fold")):  # the arithmetic's terms, row by row, on demand
            st.markdown(prose.section(NAME, "Table intro"))
            st.table(hits, hide_index=True, border="horizontal")
    ks = list(range(1, MAX_K + 1))
    show_chart(charts.metric_by_k, ks, {prose.section(NAME, "Series precision"): [metrics.precision(qs, j)[0] for j in ks]},
               metric="P@k", current_k=k, key="ap.curve", step=False)
    with take_home:
        show_take_home(NAME, [current], k=k, gain="exponential", measures=MEASURES)


@followed_fragment
def _same_recall() -> None:
    st.markdown(prose.section(NAME, "Same recall"))
    slider_at, reset_at = duel_controls()
    with slider_at:
        k = show_k_slider(state.AP_DUEL_K, hi=MAX_K, default=MAX_K, param=state.PARAM_AP_DUEL_K,
                          label=prose.section(NAME, "Label duel k"))
    board = Scoreboard(("R@k", "AP", "RR"), ("Recall@{k}", "AP", "RR"))
    titles = (prose.section(NAME, "Duel hits top"), prose.section(NAME, "Duel hits bottom"))
    sides = tuple(Side(t, Q.presets[v], board) for t, v in zip(titles, VARIANTS))
    sentence = st.container()
    top, bottom = show_duel(state.AP_DUEL, ITEMS, sides, k=k, scope="ap.duel", k_key=state.AP_DUEL_K, k_max=MAX_K,
                            tray=True, reset_in=reset_at)
    with sentence:
        if not numbers_revealed("ap.duel", (top, bottom, k)):
            return
        qs = query_set(top, bottom)
        recall, ap = metrics.recall(qs, k), metrics.average_precision(qs)
        st.info(prose.text(NAME, "Duel sentence", k=k, recall_top=fmt(recall[0]), recall_bottom=fmt(recall[1]),
                           ap_top=fmt(ap[0]), ap_bottom=fmt(ap[1])), icon="🎚️")


@followed_fragment
def _puzzle() -> None:
    st.markdown(prose.section(NAME, "Puzzle"))
    show_puzzle(puzzles.AP_HIGHER_RR_LOWER, key=state.AP_PUZZLE, labels=("AP", "RR"), k=MAX_K, grade_range=(0, 1))


def _map_is_mrr() -> None:
    """The four-query example: one relevant document per query, so AP = RR and MAP = MRR."""
    ranks = scenarios.FOUR_QUERY_HIT_RANKS
    qs = metrics.from_rankings([[0] * (r - 1) + [1] for r in ranks])
    ap, rr = metrics.average_precision(qs), metrics.reciprocal_rank(qs)
    st.markdown(prose.section(NAME, "Map is mrr"))
    st.table(pd.DataFrame({prose.section(NAME, "Column query"): [f"{i}" for i in range(1, len(ranks) + 1)],
                           prose.section(NAME, "Column hit rank"): list(ranks),
                           "AP": [fmt(v) for v in ap], "RR": [fmt(v) for v in rr]}),
             hide_index=True, border="horizontal")
    st.markdown(prose.text(NAME, "Map is mrr sentence", map=fmt(ap.mean()), mrr=fmt(rr.mean())))


def _cutoff_denominator() -> None:
    """AP@k: trec_eval divides by every relevant document; some libraries by min(k, R)."""
    k = 5
    grades = Q.grades(Q.presets[PRESETS[0]])
    qs = metrics.from_rankings([grades], [Q.judged_grades()])
    st.markdown(prose.text(NAME, "Cutoff denominator", k=k, relevant=Q.n_relevant(),
                           trec=fmt(metrics.average_precision(qs, k)[0]),
                           capped=fmt(conventions.ap_at_k_capped(grades, k, Q.n_relevant()))))


@followed_fragment
def _relevance_level() -> None:
    """AP at relevance level 1 or 2 on a graded list: the level decides which grades count (AP is binary);
    nDCG@k reads the grades themselves, the same at either level."""
    st.markdown(prose.section(NAME, "Binary"))
    level = read_control(st.segmented_control(prose.section(NAME, "Label level"), LEVELS, key=state.AP_LEVEL, default=1,
                                              required=True, format_func=lambda v: prose.text(NAME, "Level option", level=v)),
                         1, LEVELS)
    grades = LEVEL_QUERY.grades(LEVEL_ORDER)
    qs = metrics.with_relevance_level(metrics.from_rankings([grades.tolist()], [LEVEL_QUERY.judged_grades().tolist()]),
                                      level)
    table_col, numbers_col = st.columns([3, 2], gap="large")
    counts, not_counted = prose.section(NAME, "Counts yes"), prose.section(NAME, "Counts no")
    table_col.table(pd.DataFrame({
        prose.section(NAME, "Column rank"): range(1, len(LEVEL_ORDER) + 1),
        prose.section(NAME, "Column page"): [LEVEL_QUERY.by_id[d].title for d in LEVEL_ORDER],
        prose.section(NAME, "Column grade"): grades,
        prose.text(NAME, "Column counts", level=level): [counts if g >= level else not_counted for g in grades]}),
        hide_index=True, border="horizontal")
    with numbers_col:
        st.metric(prose.text(NAME, "Label level card", level=level), fmt(metrics.average_precision(qs)[0]))
        st.markdown(precision.ap_arithmetic(grades, int(metrics.num_relevant(qs)[0]), level))
        st.caption(prose.text(NAME, "Level ndcg", k=LEVEL_NDCG_K, ndcg=fmt(metrics.ndcg(qs, LEVEL_NDCG_K)[0])))


def render() -> None:
    layout.show_lesson_opening(NAME)
    st.markdown(prose.section(NAME, "Scenario"))
    _scenario()
    st.subheader(prose.section(NAME, "Heading same recall"))
    _same_recall()
    st.subheader(prose.section(NAME, "Heading puzzle"))
    _puzzle()
    st.subheader(prose.section(NAME, "Heading map is mrr"))
    _map_is_mrr()
    st.subheader(prose.section(NAME, "Heading pitfalls"))
    _cutoff_denominator()
    _relevance_level()
    # a section of its own: its list would not fit beside the reps
    layout.show_where_it_matters(prose.section(NAME, "Heading where it matters"), prose.section(NAME, "Where it matters"))
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
