"""Lesson 3: nDCG with the Python web-frameworks scenario."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import breakdown, prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.engine.metrics import Gain
from components.ranking_editor import EditorState, Scoreboard, set_editor_state
from components.ranking_editor.model import editor_items
from components.ui import charts, layout, state
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
    shown,
    steps_done,
)

NAME = "ndcg"
Q = scenarios.FRAMEWORKS
ITEMS = editor_items(Q.docs)
POOL = len(Q.docs)
PRESETS = tuple(Q.presets)
DEFAULT_GRADES = {d.id: d.grade for d in Q.docs}


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


def _position_table(order, grades, ideal_ids, ideal_grades, k, gain) -> pd.DataFrame:
    cur = breakdown.positions(grades, k, gain)
    ide = breakdown.positions(ideal_grades, k, gain)
    position, document, grade = (prose.section(NAME, "Column position"), prose.section(NAME, "Column document"),
                                 prose.section(NAME, "Column grade"))
    gain_column, discount = prose.section(NAME, "Column gain"), prose.section(NAME, "Column discount")
    discounted, running = prose.section(NAME, "Column discounted gain"), prose.section(NAME, "Column running DCG")
    ideal_document, ideal_grade = (prose.section(NAME, "Column ideal document"),
                                   prose.section(NAME, "Column ideal grade"))
    ideal_discounted, ideal_running = (prose.section(NAME, "Column ideal discounted gain"),
                                       prose.section(NAME, "Column running IDCG"))
    rows = []
    for i in range(max(cur.rank.size, ide.rank.size)):
        row = {position: i + 1, discount: fmt(metrics.discounts([i + 1])[0])}
        if i < cur.rank.size:
            row |= {document: _titles(order)[i], grade: int(cur.grade[i]), gain_column: fmt(cur.gain[i]),
                    discounted: fmt(cur.discounted[i]), running: fmt(cur.running[i])}
        if i < ide.rank.size:
            row |= {ideal_document: _titles(ideal_ids)[i], ideal_grade: int(ide.grade[i]),
                    ideal_discounted: fmt(ide.discounted[i]), ideal_running: fmt(ide.running[i])}
        rows.append(row)
    columns = [position, document, grade, gain_column, discount, discounted, running,
               ideal_document, ideal_grade, ideal_discounted, ideal_running]
    return pd.DataFrame([{c: row.get(c, "") for c in columns} for row in rows], columns=columns)


def _other(gain: Gain) -> Gain:
    return "linear" if gain == "exponential" else "exponential"


def _scoreboard(current: EditorState, k: int, gain: Gain) -> Scoreboard:
    """The editor's live scoreboard: the four cards (DCG@k, IDCG@k, nDCG@k in the chosen gain, nDCG@k in the
    other, named so), hidden while the class predicts them."""
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


@st.fragment
def _scenario() -> None:
    columns = st.columns(len(PRESETS))
    for column, name in zip(columns, PRESETS):
        column.button(name, key=f"ndcg.preset.{name}", on_click=_load, args=(name,), width="stretch")
    controls = st.columns([3, 2], gap="large")
    with controls[0]:
        k = show_k_slider(state.NDCG_K, hi=POOL, default=scenarios.FRAMEWORKS_K,
                          help=prose.section(NAME, "Help cutoff"))
    with controls[1]:
        gain = _gain_switch()
    cards = st.columns(4)
    editor_col, numbers_col = st.columns(2, gap="large")
    with editor_col:
        current = show_ranking_editor(ITEMS, key=state.NDCG_EDITOR, default_order=Q.presets[PRESETS[0]], k=k,
                                      tray=True, editable_grades=True, grade_range=(0, 2), scale=chart_scale(),
                                      label=prose.section(NAME, "Label editor"),
                                      scoreboard=lambda s: _scoreboard(s, k, gain), k_key=state.NDCG_K, k_max=POOL)
        show_link_to_view()
    grades, judged = current.order_grades(), current.judged_grades()
    qs = metrics.from_rankings([grades], [judged])
    dcg, idcg, ndcg = (float(f(qs, k, gain)[0]) for f in (metrics.dcg, metrics.idcg, metrics.ndcg))
    other = _other(gain)
    arithmetic = _arithmetic(current, k, gain)
    with numbers_col:
        revealed = numbers_revealed("ndcg", (current, k, gain))
    shown_now = revealed and steps_done("ndcg", arithmetic)  # step by step: the result comes with the last step
    cards[0].metric(prose.text(NAME, "Label DCG card", k=k, gain=gain), shown(dcg, shown_now))
    cards[1].metric(prose.text(NAME, "Label IDCG card", k=k, gain=gain), shown(idcg, shown_now))
    cards[2].metric(prose.text(NAME, "Label nDCG card", k=k, gain=gain), shown(ndcg, shown_now))
    cards[3].metric(prose.text(NAME, "Label nDCG card", k=k, gain=other),
                    shown(metrics.ndcg(qs, k, other)[0], shown_now))
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
    st.markdown(prose.section(NAME, "Table intro"))
    st.dataframe(_position_table(current.order, grades, ideal_ids, ideal_grades, k, gain), hide_index=True,
                 width="stretch")
    show_take_home(NAME, [current], k=k, gain=gain, measures=("nDCG@k", "R@k"))
    _gains_and_ideal(qs, current.order, grades, k, gain)


def _gains_and_ideal(qs, order, grades, k: int, gain: str) -> None:
    st.subheader(prose.section(NAME, "Heading gain"))
    st.markdown(prose.section(NAME, "Gain switch"))
    exp, lin = float(metrics.ndcg(qs, k, "exponential")[0]), float(metrics.ndcg(qs, k, "linear")[0])
    left, right = st.columns(2)
    left.metric(prose.text(NAME, "Label nDCG exponential", k=k), fmt(exp))
    right.metric(prose.text(NAME, "Label nDCG linear", k=k), fmt(lin))
    if fmt(exp) == fmt(lin):
        ideal_top = sorted(qs.judged_grade.tolist(), reverse=True)[:k]
        in_play = {g for g in [*grades[:k], *ideal_top] if g >= 1}  # the grades both DCG@k and IDCG@k add up
        reason = prose.section(NAME, "Gain reason binary" if len(in_play) <= 1 else "Gain reason other")
        st.markdown(prose.text(NAME, "Gain sentence same", k=k, value=fmt(exp), reason=reason))
    else:
        mixed = tuple(order) == tuple(Q.presets[scenarios.FRAMEWORKS_MIXED])
        st.markdown(prose.text(NAME, "Gain sentence differ mixed" if mixed else "Gain sentence differ",
                               exp=fmt(exp), lin=fmt(lin)))

    st.subheader(prose.section(NAME, "Heading ideal"))
    st.markdown(prose.section(NAME, "Ideal trap"))
    right_value = float(metrics.ndcg(qs, k, gain)[0])
    wrong_value = metrics.ndcg_at_k(grades, k, gain=gain) if grades else 0.0
    left, right = st.columns(2)
    left.metric(prose.text(NAME, "Label ideal judged", k=k), fmt(right_value))
    right.metric(prose.text(NAME, "Label ideal returned", k=k), fmt(wrong_value))
    verdict = prose.section(NAME, "Ideal same" if fmt(right_value) == fmt(wrong_value) else "Ideal differ")
    st.markdown(prose.text(NAME, "Ideal sentence", k=k, right=fmt(right_value), wrong=fmt(wrong_value),
                           verdict=verdict))

    st.subheader(prose.section(NAME, "Heading down with k"))
    st.markdown(prose.section(NAME, "Down with k"))
    ks = range(1, POOL + 1)
    st.dataframe(pd.DataFrame({
        "k": list(ks),
        prose.text(NAME, "Column nDCG by k", gain=gain): [fmt(metrics.ndcg(qs, j, gain)[0]) for j in ks],
        "Recall@k": [fmt(metrics.recall(qs, j)[0]) for j in ks],
    }), hide_index=True)


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
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    layout.show_warm_up("warmup.ndcg")
    st.markdown(prose.section(NAME, "Intro"))
    layout.show_formula(NAME)
    st.subheader(prose.section(NAME, "Heading systems"))
    _systems_side_by_side()
    st.subheader(prose.section(NAME, "Heading try it"))
    st.markdown(prose.section(NAME, "Scenario"))
    _scenario()
    st.subheader(prose.section(NAME, "Heading where it fits"))
    st.markdown(prose.section(NAME, "Where it fits"))
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
