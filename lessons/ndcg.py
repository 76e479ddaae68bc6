"""Lesson 3: nDCG with the Python web-frameworks scenario."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import breakdown, class_answers, prose, puzzles, scenarios
from components.engine import metrics
from components.engine.formatting import fmt, signed
from components.engine.metrics import Gain
from components.live_class.follow import followed_fragment
from components.ranking_editor import EditorState, Scoreboard, ranking_editor, set_editor_state
from components.ranking_editor.model import editor_items, query_set
from components.ui import charts, layout, state
from components.ui.answer_first import answered_first
from components.ui.duel import Side, duel_controls, show_duel
from components.ui.puzzle import show_puzzle
from components.ui.take_home import show_take_home
from components.ui.widgets import (
    board_hidden,
    chart_scale,
    keep_link_note,
    numbers_revealed,
    read_control,
    show_chart,
    show_k_slider,
    show_link_to_view,
    show_ranking_editor,
    show_steps,
    steps_done,
)

NAME = "ndcg"
Q = scenarios.FRAMEWORKS
ITEMS = editor_items(Q.docs)
POOL = len(Q.docs)
PRESETS = tuple(Q.presets)
DEFAULT_GRADES = {d.id: d.grade for d in Q.docs}
RETURNED = Q.presets[scenarios.FRAMEWORKS_MISSED]  # the ideal trap
RETURNED_ITEMS = editor_items(Q.by_id[i] for i in RETURNED)
FALL_IDS = ("django", "snake", "monty", "flask")  # grades 2, 0, 0, 2: nDCG@k falls from k = 1 to k = 2
FALL_ITEMS = editor_items(Q.by_id[i] for i in FALL_IDS)
FALL_STYLE = "background-color: #fde2e1; font-weight: 600"  # with the ▼ word in the change column
SHORT_LIST = ("django", "pyramid", "snake")  # three pages returned, read at k up to 10
SHORT_K_MAX = 10


def _load(preset: str) -> None:
    set_editor_state(state.NDCG_EDITOR, Q.presets[preset], grades=DEFAULT_GRADES)


def _gain_switch() -> str:
    if state.NDCG_GAIN not in st.session_state:
        reading = state.read_gain(st.query_params.get(state.PARAM_GAIN))
        st.session_state[state.NDCG_GAIN] = reading.value
        keep_link_note(reading.note)
    gain = read_control(st.segmented_control(prose.section(NAME, "Label gain"), metrics.GAINS, key=state.NDCG_GAIN,
                                             required=True, format_func=lambda g: f"{g} ({metrics.GAIN_FORMULAS[g]})"),
                        "exponential", metrics.GAINS)
    st.query_params[state.PARAM_GAIN] = gain
    return gain


def _titles(ids) -> list[str]:
    by_id = Q.by_id
    return [by_id[i].title for i in ids]


def _position_table(order, grades, ideal_grades, k, gain, *, compact: bool) -> pd.DataFrame:
    """Position by position: the list's page, grade, (gain, discount,) discounted gain and running DCG beside
    the ideal's grade, discounted gain and running IDCG. ``compact`` (projector mode) leaves out the gain and
    the discount, which the discounted gain already holds, so the table fits without sideways scrolling."""
    cur = breakdown.positions(grades, k, gain)
    ide = breakdown.positions(ideal_grades, k, gain)
    position, document, grade = (prose.section(NAME, "Column position"), prose.section(NAME, "Column document"),
                                 prose.section(NAME, "Column grade"))
    gain_column, discount = prose.section(NAME, "Column gain"), prose.section(NAME, "Column discount")
    discounted, running = prose.section(NAME, "Column discounted gain"), prose.section(NAME, "Column running DCG")
    ideal_grade = prose.section(NAME, "Column ideal grade")
    ideal_discounted, ideal_running = (prose.section(NAME, "Column ideal discounted gain"),
                                       prose.section(NAME, "Column running IDCG"))
    rows = []
    for i in range(max(cur.rank.size, ide.rank.size)):
        row = {position: i + 1, discount: fmt(metrics.discounts([i + 1])[0])}
        if i < cur.rank.size:
            row |= {document: _titles(order)[i], grade: int(cur.grade[i]), gain_column: fmt(cur.gain[i]),
                    discounted: fmt(cur.discounted[i]), running: fmt(cur.running[i])}
        if i < ide.rank.size:
            row |= {ideal_grade: int(ide.grade[i]), ideal_discounted: fmt(ide.discounted[i]),
                    ideal_running: fmt(ide.running[i])}
        rows.append(row)
    columns = [position, document, grade, *(() if compact else (gain_column, discount)), discounted, running,
               ideal_grade, ideal_discounted, ideal_running]
    return pd.DataFrame([{c: row.get(c, "") for c in columns} for row in rows], columns=columns)


def _other(gain: Gain) -> Gain:
    return "linear" if gain == "exponential" else "exponential"


def _scoreboard(current: EditorState, k: int, gain: Gain) -> Scoreboard:
    """The editor's live scoreboard, the page's one place for its values: DCG@k, IDCG@k, nDCG@k in the chosen
    gain and nDCG@k in the other (named so), hidden while the class predicts them or steps through the arithmetic."""
    labels = (*(prose.text(NAME, "Board chosen", name=name, k="{k}") for name in ("DCG", "IDCG", "nDCG")),
              prose.text(NAME, "Board other", k="{k}", gain=_other(gain)))  # short: the board sits above the list
    hidden = board_hidden("ndcg", (current, k, gain), lambda: _arithmetic(current, k, gain))
    return Scoreboard(("DCG@k", "IDCG@k", "nDCG@k", "nDCG@k"), labels, gain=gain,
                      gains=(gain, gain, gain, _other(gain)), hidden=hidden)


def _arithmetic(current: EditorState, k: int, gain: Gain) -> str:
    """DCG@k, IDCG@k and nDCG@k = DCG@k / IDCG@k worked out for this order, one LaTeX line each."""
    grades, judged = current.order_grades(), current.judged_grades()
    qs = metrics.from_rankings([grades], [judged])
    dcg, idcg, ndcg = (float(f(qs, k, gain)[0]) for f in (metrics.dcg, metrics.idcg, metrics.ndcg))
    ideal_grades = [current.grades[i] for i in breakdown.ideal_order(list(current.grades), judged)]
    cur, ide = breakdown.positions(grades, k, gain), breakdown.positions(ideal_grades, k, gain)
    last = (rf"\mathrm{{nDCG@}}{k} = \frac{{{fmt(dcg)}}}{{{fmt(idcg)}}} = {fmt(ndcg)}" if idcg > 0
            else rf"\mathrm{{nDCG@}}{k} = 0 \quad(\text{{{prose.section(NAME, 'Steps no relevant')}}})")
    return "\n".join([rf"\mathrm{{DCG@}}{k} = {breakdown.dcg_latex(cur)} = {fmt(dcg)}",
                      rf"\mathrm{{IDCG@}}{k} = {breakdown.dcg_latex(ide)} = {fmt(idcg)}", last])


@followed_fragment
def _scenario() -> None:
    columns = st.columns(len(PRESETS))
    for column, name in zip(columns, PRESETS):
        column.button(name, key=f"ndcg.preset.{name}", on_click=_load, args=(name,), width="stretch")
    gain_at, k_at = st.columns(2, vertical_alignment="bottom")  # half the row each: at 2:3, 1024 px cut an option
    with gain_at:
        gain = _gain_switch()
    with k_at:
        k = show_k_slider(state.NDCG_K, hi=POOL, default=scenarios.FRAMEWORKS_K, help=prose.section(NAME, "Help cutoff"))
    editor_col, numbers_col = st.columns(2, gap="large")
    with editor_col:
        current = answered_first(state.NDCG_EDITOR, lambda k, address: show_ranking_editor(
            ITEMS, key=state.NDCG_EDITOR, default_order=Q.presets[PRESETS[0]], k=k, tray=True, editable_grades=True,
            grade_range=(0, 2), scale=chart_scale(), label=prose.section(NAME, "Label editor"),
            scoreboard=lambda s: _scoreboard(s, k, gain), k_key=state.NDCG_K, k_max=POOL, scroll_in_place=True,
            address=address), k_key=state.NDCG_K)
    link, take_home = st.columns(2)  # one row under both columns: the link now, the files once the numbers show
    with link:
        show_link_to_view()
    grades, judged = current.order_grades(), current.judged_grades()
    qs = metrics.from_rankings([grades], [judged])
    arithmetic = _arithmetic(current, k, gain)
    with numbers_col:
        revealed = numbers_revealed("ndcg", (current, k, gain), ask=lambda: class_answers.asked_on_screen(
            "nDCG@k", prose.text(NAME, "Label nDCG card", k=k, gain=gain), qs, k, gain))
    # DCG@k, IDCG@k and nDCG@k in both gains are on the editor's board only: one number per measure, the same
    # mid-drag. Step by step: the chart comes with the last step.
    shown_now = revealed and steps_done("ndcg", arithmetic)
    if not revealed:
        return
    with numbers_col:
        st.markdown(prose.text(NAME, "Arithmetic intro", gain=gain))
        show_steps(arithmetic, key="ndcg", latex=True)
        if not shown_now:
            return
        ideal_ids = breakdown.ideal_order(list(current.grades), judged)
        ideal_grades = [current.grades[i] for i in ideal_ids]
        cur, ide = breakdown.positions(grades, k, gain), breakdown.positions(ideal_grades, k, gain)
        show_chart(charts.discounted_gain_by_position, cur.discounted, ide.discounted, key="ndcg.chart")
    # The arithmetic's terms, position by position, on demand: built only while open, so a drop does not send it.
    table_fold = st.expander(prose.section(NAME, "Table fold"), key=state.NDCG_TABLE, on_change="rerun")
    if table_fold.open:
        with table_fold:
            st.markdown(prose.section(NAME, "Table intro"))
            st.table(_position_table(current.order, grades, ideal_grades, k, gain, compact=chart_scale() > 1),
                     hide_index=True, border="horizontal")
    with take_home:
        show_take_home(NAME, [current], k=k, gain=gain, measures=("nDCG@k", "R@k"))


def _gains_board() -> Scoreboard:
    """One list's DCG@k and nDCG@k in each gain."""
    labels = tuple(prose.text(NAME, "Board in gain", name=name, k="{k}", gain=g) for g in metrics.GAINS
                   for name in ("DCG", "nDCG"))
    return Scoreboard(("DCG@k", "nDCG@k") * 2, labels, gains=tuple(g for g in metrics.GAINS for _ in range(2)))


@followed_fragment
def _gains() -> None:
    st.markdown(prose.section(NAME, "Gain switch"))
    slider_at, reset_at = duel_controls()
    with slider_at:
        k = show_k_slider(state.NDCG_GAINS_K, hi=POOL, default=scenarios.FRAMEWORKS_K, param=state.PARAM_GAINS_K,
                          label=prose.section(NAME, "Label duel k"))
    side = Side(prose.section(NAME, "Strip both gains"), Q.presets[scenarios.FRAMEWORKS_MIXED], _gains_board())
    sentence = st.container()
    (left,) = show_duel(state.NDCG_GAINS, ITEMS, (side,), k=k, scope="ndcg.gains", k_key=state.NDCG_GAINS_K,
                        k_max=POOL, tray=True, editable_grades=True, grade_range=(0, 2), reset_in=reset_at)
    with sentence:
        if not numbers_revealed("ndcg.gains", (left, k)):
            return
    qs = query_set(left)
    exp, lin = (fmt(metrics.ndcg(qs, k, g)[0]) for g in ("exponential", "linear"))
    grades = left.order_grades()[:k]
    ideal = sorted(left.judged_grades(), reverse=True)[:k]
    values = dict(k=k, exp=exp, lin=lin, grades=", ".join(map(str, grades)), ideal=", ".join(map(str, ideal)))
    if exp == lin:
        in_play = {g for g in [*grades, *ideal] if g >= 1}  # the grades both DCG@k and IDCG@k add up
        values["reason"] = prose.section(NAME, "Gain reason binary" if len(in_play) <= 1 else "Gain reason other")
        sentence.markdown(prose.text_choosing(NAME, "Gain sentence same", values))
    else:
        sentence.markdown(prose.text_choosing(NAME, "Gain sentence differ", values))


@followed_fragment
def _ideal() -> None:
    st.markdown(prose.section(NAME, "Ideal trap"))
    slider_at, reset_at = duel_controls()
    with slider_at:
        k = show_k_slider(state.NDCG_IDEAL_K, hi=len(RETURNED), default=scenarios.FRAMEWORKS_K, param=state.PARAM_IDEAL_K,
                          label=prose.section(NAME, "Label duel k"))
    missed = [d for d in Q.docs if d.id not in RETURNED and (d.grade or 0) >= 1]
    labels = tuple(prose.text(NAME, f"Board ideal {which}", name=name, k="{k}") for which in ("judged", "returned")
                   for name in ("IDCG", "nDCG"))
    board = Scoreboard(("IDCG@k", "nDCG@k") * 2, labels, extra_judged=[d.grade for d in missed],
                       extra=(True, True, False, False))  # the ideal from every judged page, then the returned only
    side = Side(prose.section(NAME, "Strip both ideals"), RETURNED, board,
                note=prose.text(NAME, "Duel ideal missed", pages=", ".join(
                    prose.text(NAME, "Page with grade", title=d.title, grade=d.grade) for d in missed)))
    sentence = st.container()
    (left,) = show_duel(state.NDCG_IDEAL, RETURNED_ITEMS, (side,), k=k, scope="ndcg.ideal", k_key=state.NDCG_IDEAL_K,
                        k_max=len(RETURNED), grade_range=(0, 2), reset_in=reset_at)
    with sentence:
        if not numbers_revealed("ndcg.ideal", (left, k)):
            return
    grades = left.order_grades()
    right_value = fmt(metrics.ndcg_at_k(grades, k, [*grades, *(d.grade for d in missed)]))
    wrong_value = fmt(metrics.ndcg_at_k(grades, k))
    verdict = prose.section(NAME, "Ideal same" if right_value == wrong_value else "Ideal differ")
    sentence.markdown(prose.text(NAME, "Ideal sentence", k=k, right=right_value, wrong=wrong_value, verdict=verdict))


def _fall_table(by: breakdown.ByK) -> pd.DataFrame:
    falls = by.falls()
    change = [prose.section(NAME, "Change first") if i == 0 else
              prose.text(NAME, "Change falls" if falls[i] else "Change rises or holds",
                         change=signed(by.ndcg[i] - by.ndcg[i - 1]))
              for i in range(by.ks.size)]
    return pd.DataFrame({"k": by.ks, "DCG@k": [fmt(v) for v in by.dcg], "IDCG@k": [fmt(v) for v in by.idcg],
                         "nDCG@k": [fmt(v) for v in by.ndcg], prose.section(NAME, "Column change"): change})


@followed_fragment
def _down_with_k() -> None:
    st.markdown(prose.section(NAME, "Down with k"))
    length = len(FALL_IDS)
    measures = tuple(f"nDCG@{j}" for j in range(1, length + 1))
    editor_col, table_col = st.columns([2, 3], gap="large")
    with editor_col:
        current = ranking_editor(FALL_ITEMS, key=state.NDCG_FALL, default_order=FALL_IDS, editable_grades=True,
                                 grade_range=(0, 2), scale=chart_scale(), label=prose.section(NAME, "Label fall editor"),
                                 scoreboard=Scoreboard(measures, measures), view="strip")
    by = breakdown.by_k(current.order_grades(), current.judged_grades(), length)
    with table_col:
        table = _fall_table(by)
        falls = by.falls()
        st.table(table.style.apply(lambda row: [FALL_STYLE if falls[row.name] else ""] * len(row), axis=1),
                 hide_index=True, border="horizontal")
        fell = [int(j) for j, f in zip(by.ks, falls) if f]
        values = dict(grades=", ".join(map(str, current.order_grades())),
                      ks=", ".join(f"k = {j}" for j in fell),
                      steps="; ".join(f"{fmt(by.ndcg[j - 2])} → {fmt(by.ndcg[j - 1])}" for j in fell))
        st.markdown(prose.text_choosing(NAME, "Fall sentence" if fell else "Fall sentence none", values))


@followed_fragment
def _short_list() -> None:
    st.markdown(prose.section(NAME, "Short list"))
    k = show_k_slider(state.NDCG_SHORT_K, hi=SHORT_K_MAX, default=SHORT_K_MAX, param=state.PARAM_SHORT_K,
                      label=prose.section(NAME, "Label short k"))
    measures = ("R@k", "P@k", "RR", "nDCG@k")
    labels = ("Recall@{k}", "P@{k}", "RR", "nDCG@{k}")
    editor_col, sentence_col = st.columns([3, 2], gap="large")
    with editor_col:
        current = ranking_editor(ITEMS, key=state.NDCG_SHORT, default_order=SHORT_LIST, k=k, tray=True,
                                 grade_range=(0, 2), scale=chart_scale(), label=prose.section(NAME, "Label short editor"),
                                 scoreboard=Scoreboard(measures, labels), k_key=state.NDCG_SHORT_K, k_max=SHORT_K_MAX,
                                 view="strip")
    grades, judged = current.order_grades(), current.judged_grades()
    qs = metrics.from_rankings([grades], [judged])
    n = len(grades)
    found = int(metrics.relevant_in_top_k(qs, k)[0])
    values = dict(n=n, k=k, found=found, relevant=current.n_relevant(), recall=fmt(metrics.recall(qs, k)[0]),
                  precision=fmt(metrics.precision(qs, k)[0]), ndcg=fmt(metrics.ndcg(qs, k)[0]),
                  inside=fmt(metrics.precision(qs, max(n, 1))[0]) if n else fmt(0.0), idcg=fmt(metrics.idcg(qs, k)[0]))
    sentence_col.markdown(prose.text_choosing(NAME, "Short sentence past" if k > n else "Short sentence inside", values))


@followed_fragment
def _puzzle() -> None:
    st.markdown(prose.section(NAME, "Puzzle"))
    show_puzzle(puzzles.NDCG_RECALL_UP_NDCG_DOWN, key=state.NDCG_PUZZLE, labels=("Recall@5", "nDCG@5"), k=5,
                grade_range=(0, 2))


def _systems_side_by_side() -> None:
    k = scenarios.FRAMEWORKS_K
    rows = []
    judged = Q.judged_grades()
    for name in PRESETS[:2]:  # System A and System B
        grades = Q.grades(Q.presets[name])
        rows.append({prose.section(NAME, "Column system"): name,
                     prose.text(NAME, "Column top k", k=k): ", ".join(_titles(Q.presets[name][:k])),
                     prose.text(NAME, "Column DCG exponential", k=k): fmt(metrics.dcg_at_k(grades, k)),
                     prose.text(NAME, "Column nDCG exponential", k=k): fmt(metrics.ndcg_at_k(grades, k, judged)),
                     prose.text(NAME, "Column nDCG linear", k=k): fmt(metrics.ndcg_at_k(grades, k, judged, "linear"))})
    st.table(pd.DataFrame(rows), hide_index=True, border="horizontal")


def render() -> None:
    layout.show_lesson_opening(NAME)
    st.markdown(prose.section(NAME, "Systems"))
    _systems_side_by_side()  # the two presets' top 3 and numbers: what the editor below starts from
    st.markdown(prose.section(NAME, "Scenario"))
    _scenario()
    st.subheader(prose.section(NAME, "Heading gain"))
    _gains()
    st.subheader(prose.section(NAME, "Heading ideal"))
    _ideal()
    st.subheader(prose.section(NAME, "Heading down with k"))
    _down_with_k()
    st.subheader(prose.section(NAME, "Heading short list"))
    _short_list()
    st.subheader(prose.section(NAME, "Heading puzzle"))
    _puzzle()
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME, where=(prose.section(NAME, "Heading where it fits"), prose.section(NAME, "Where it fits")))


if __name__ == "__main__":
    render()
