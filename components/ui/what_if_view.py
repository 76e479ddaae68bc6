"""The "Your data" page's query view: one query of the loaded pair in the ranking editor, its measures before
and after the learner's changes ("what if").

The documents and the values are :mod:`components.course.what_if`'s; this
module builds the editor's items and scoreboard and lays the view out.
"""
from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

from components.course import prose
from components.course.measure_choices import shown_name
from components.course.what_if import POOL, QueryPool, below_pool, query_pool, what_if_values
from components.engine import model
from components.engine.formatting import fmt, literal, signed
from components.engine.measures import parse_measure
from components.engine.metrics import Gain
from components.ranking_editor import EditorItem, Scoreboard, describe_change, ranking_editor, set_editor_state
from components.ui import state
from components.ui.widgets import chart_scale, read_control

TEXT = "your_data"  # the page whose words these are
GRADE_LIMITS = (-10, 10)  # grades the editor shows as badges; others are named in the title and keep their value
SELECT_OPTIONS = 5_000  # up to this many queries, a select box picks one; beyond, a text box takes its id
NEEDS_JUDGED_MARKS = ("bpref", "Judged")  # they tell unjudged from judged non-relevant, which the editor cannot show


def editor_key(files, q: int, level: int = 1, judged_only: bool = False) -> str:
    """The editor key of evaluated query q of this pair of files, under the page's options (its own items, so its
    own key; the options' part is left out at their defaults, trec_eval's)."""
    options = "" if (level, judged_only) == (1, False) else f".l{level}{'J' if judged_only else ''}"
    return f"{state.YOUR_DATA_EDITOR}.{hashlib.sha256(repr(files).encode()).hexdigest()[:12]}{options}.{q}"


def editor_items(pool: QueryPool) -> list[EditorItem]:
    """The editor's items: the run's top (titled with their scores), then the tray."""
    return ([_item(doc, f"{doc} · score {score:g}", grade) for doc, score, grade in pool.top]
            + [_item(doc, doc, grade) for doc, grade in pool.tray])


def _item(doc: str, title: str, grade: int | None) -> EditorItem:
    """An editor item; a grade beyond GRADE_LIMITS is named in the title instead (it keeps its value)."""
    lo, hi = GRADE_LIMITS
    if grade is not None and not lo <= grade <= hi:
        return EditorItem(doc, f"{title} · grade {grade}", None)
    return EditorItem(doc, title, grade)


def query_scoreboard(judged: model.JudgedRun, q: int, items: list[EditorItem], names, gain: Gain) -> Scoreboard | None:
    """The editor's live scoreboard for query q: the page's measures, counting the run below the editor's list
    and the judged documents outside it (as :func:`~components.course.what_if.what_if_values` does). None when an
    item's grade is beyond what the editor shows (it keeps its value there, which the editor's state cannot say)."""
    grades = judged.grades(q)
    if any(i.grade is None and i.id in grades for i in items):
        return None
    in_editor = {i.id for i in items}
    extra = [g for doc, g in grades.items() if doc not in in_editor]
    return Scoreboard(names, [shown_name(name, gain) for name in names], gain=gain, tail=below_pool(judged, q),
                      extra_judged=extra, relevance_level=judged.queries.relevance_level)


def open_query(qid: str) -> None:
    """A diagnosis example's button: that query opens in the editor below (and a toast says so)."""
    st.session_state[state.YOUR_DATA_QUERY] = qid
    st.toast(prose.text(TEXT, "Diagnosis opened", qid=literal(qid)), icon="🔎")


def _query_picker(column, judged: model.JudgedRun) -> str | None:
    """A select box of the query ids; past SELECT_OPTIONS (every id sent on every run), a box for the id."""
    qids = judged.qids
    if len(qids) <= SELECT_OPTIONS:
        return column.selectbox(prose.text(TEXT, "Query label"), qids, key=state.YOUR_DATA_QUERY,
                                help=prose.text(TEXT, "Query help"))
    typed = column.text_input(prose.text(TEXT, "Query id"), key=state.YOUR_DATA_QUERY,
                              help=prose.text(TEXT, "Query id help", n=f"{len(qids):,}"))
    if typed not in judged.query_index:
        column.caption(prose.text(TEXT, "Query id unknown", typed=literal(typed), first=literal(qids[0])))
    return typed


def _reset(key: str, order: list[str], tray: list[str]) -> None:
    st.session_state.pop(key, None)  # the items' own grades again, not the learner's
    set_editor_state(key, order, tray=tray)


def _facts_lines(facts: dict[str, int]) -> list[str]:
    """What the editor holds of the query, and what it leaves out, in sentences."""
    lines = [prose.text(TEXT, "Query facts", relevant=facts["relevant"], returned=facts["returned"],
                        missing=facts["missing"])]
    if facts["missing"]:
        lines.append(prose.text(TEXT, "Tray note", shown=facts["shown"]))
    if facts["more"]:
        lines.append(prose.text(TEXT, "Tray more", more=facts["more"]))
    if facts["non_relevant_missing"]:
        lines.append(prose.text(TEXT, "Tray non-relevant", count=facts["non_relevant_missing"]))
    if facts["returned"] > POOL:
        lines.append(prose.text(TEXT, "Rest below", start=POOL + 1, end=facts["returned"], pool=POOL))
    return lines


@st.fragment
def show_query_view(judged: model.JudgedRun, values: dict[str, np.ndarray], names: tuple[str, ...], k: int, gain: Gain,
                    view: tuple) -> None:
    """The query picker, the editor holding that query, and its measures before and after the learner's changes.
    ``view``: the files' key and the page's relevance level and judged-only option."""
    st.subheader(prose.section(TEXT, "Query heading"))
    st.markdown(prose.text(TEXT, "Query intro", pool=POOL))
    chosen = st.session_state.get(state.YOUR_DATA_QUERY)
    if chosen is None or (len(judged.qids) <= SELECT_OPTIONS and chosen not in judged.query_index):
        st.session_state[state.YOUR_DATA_QUERY] = judged.qids[0]  # a typed id that is unknown stays, noted
    pick, _ = st.columns([2, 3], gap="large")
    qid = read_control(_query_picker(pick, judged), judged.qids[0], judged.query_index)
    q = judged.query_index[qid]
    pool = query_pool(judged, q)
    items, order, tray = editor_items(pool), [doc for doc, _, _ in pool.top], [doc for doc, _ in pool.tray]
    key = editor_key(view[0], q, *view[1:])
    lines = _facts_lines(pool.facts)
    grades = [i.grade for i in items if i.grade is not None]
    grade_range = (min([0, *grades]), max([2, *grades]))
    left_out = [n for n in names if parse_measure(n).family in NEEDS_JUDGED_MARKS]
    if left_out:
        lines.append(prose.text(TEXT, "Editor leaves out", names=", ".join(left_out)))
    names = tuple(n for n in names if n not in left_out)
    left, right = st.columns([3, 2], gap="large")
    with left:
        current = ranking_editor(items, key=key, default_order=order, k=k if k <= POOL else None, tray=True,
                                 editable_grades=True, grade_range=grade_range, scale=chart_scale(),
                                 label=prose.text(TEXT, "Editor label", qid=qid, n=len(order)),
                                 scoreboard=query_scoreboard(judged, q, items, names, gain) if names else None)
    after = what_if_values(judged, q, current.order, dict(current.grades), names, gain)
    before = {name: float(values[name][q]) for name in names}
    changes = describe_change(before, after)
    with right, st.container(key="your-data-what-if"):
        for change in changes:
            st.metric(shown_name(change.name, gain), fmt(change.after),
                      delta=signed(change.delta, minus="-") if change.moved else None,  # "-": st.metric shows a fall
                      help=prose.text(TEXT, "What-if help", before=fmt(change.before)))
        moved = [c.text() for c in changes if c.moved]
        if moved:
            st.info(prose.text(TEXT, "What changed", changes="; ".join(moved)), icon="🔀")
        else:
            st.caption(prose.section(TEXT, "Unchanged"))
        st.button(prose.section(TEXT, "Reset"), key=state.YOUR_DATA_RESET, on_click=_reset, args=(key, order, tray),
                  icon="↩️", disabled=(current.order == tuple(order) and current.tray == tuple(tray)
                                       and dict(current.grades) == {i.id: i.grade for i in items
                                                                    if i.grade is not None}))
        st.caption(" ".join(lines))
