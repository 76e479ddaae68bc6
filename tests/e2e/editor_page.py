"""A small page for the ranking editor's browser, AppTest and latency checks.

Two independent editors, each with its numbers in its own ``@st.fragment``
as a lesson will wrap them: the frameworks scenario (tray, editable grades, a
k slider, preset buttons, live metrics and a "what changed" caption) and one
JAR query (a binary list with a tray). The slider and preset buttons sit outside the
fragment (they rerun the page, which hands the fragment its k), so a move
reruns only the editor, its numbers and captions. ``?scenario=lawyer`` swaps the first editor to the lawyer's
20-row list (for auto-scroll); ``?projector=1`` turns on projector mode.

The sidebar's "New editors" buttons start a new generation: every widget of the page gets a fresh key, so the
browser mounts new editors and nothing of the last test's state is left (browser tests share one page this way,
not a page load each); the second one also swaps in the lawyer's list.
"""
from __future__ import annotations

import streamlit as st

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import (
    EditorItem,
    EditorState,
    describe_change,
    editor_items,
    ranking_editor,
    set_editor_state,
)
from components.ui.widgets import chart_scale, show_mode_controls

GENERATION = "generation"  # how many times "New editors" has been pressed in this session


def keyed(name: str) -> str:
    """The key ``name`` in this generation of the page's widgets (the first keeps the plain name)."""
    generation = st.session_state.get(GENERATION, 0)
    return f"{name}-{generation}" if generation else name


def new_generation(scenario: str | None) -> None:
    """Callback of "New editors": fresh keys for every widget of the page, and the first editor's list."""
    st.session_state[GENERATION] = st.session_state.get(GENERATION, 0) + 1
    if scenario:
        st.query_params["scenario"] = scenario
    elif "scenario" in st.query_params:
        del st.query_params["scenario"]


HTML_ITEM = EditorItem("html", "<b>x</b> forum post", None)  # unjudged, and its title must show as text
JAR = scenarios.JAR_QUERIES[2]
K_B = 3


def scenario_a() -> tuple[scenarios.Query, tuple[EditorItem, ...], dict[str, tuple[str, ...]], str, int]:
    """The first editor's query, items, presets, default preset and default k."""
    if st.query_params.get("scenario") == "lawyer":
        q = scenarios.LAWYER
        return q, editor_items(q.docs), dict(q.presets), "System A", scenarios.LAWYER_DEFAULT_K["System A"]
    q = scenarios.FRAMEWORKS
    presets = {name: order + (HTML_ITEM.id,) for name, order in q.presets.items()}
    return q, editor_items(q.docs) + (HTML_ITEM,), presets, "System B", scenarios.FRAMEWORKS_K


def metric_values(state: EditorState, k: int) -> dict[str, float]:
    """Recall@k, RR and nDCG@k (exponential gain) of the editor's state, from the engine."""
    grades = state.order_grades()
    return {
        f"Recall@{k}": metrics.recall_at_k(grades, k, n_relevant=state.n_relevant()),
        "RR": metrics.reciprocal_rank_of(grades),
        f"nDCG@{k}": metrics.ndcg_at_k(grades, k, judged_grades=state.judged_grades()),
    }


def show_metrics(values: dict[str, float], memory_key: str) -> None:
    """The values as st.metric cards, and what changed since the last run with the same names."""
    for column, (name, value) in zip(st.columns(len(values)), values.items()):
        column.metric(name, fmt(value))
    before = st.session_state.get(memory_key)
    if before is not None and set(before) == set(values):
        moved = [c.text() for c in describe_change(before, values) if c.moved]
        if moved:
            st.caption("What changed: " + "; ".join(moved))
    st.session_state[memory_key] = values


def editor_a() -> None:
    """The frameworks (or lawyer) editor: its controls, then the live part in a fragment."""
    query, items, presets, default, default_k = scenario_a()
    with st.container(key="editor-a"):
        st.subheader(f"Query: {query.text}")
        k = st.slider("k", 1, len(items), default_k, key=keyed("k_a"))
        for column, (name, order) in zip(st.columns(len(presets)), presets.items()):
            column.button(name, key=keyed(f"preset_a_{name}"), on_click=set_editor_state,
                          args=(keyed("editor_a"), order), width="stretch")
        editor_a_live(items, presets[default], k)


@st.fragment
def editor_a_live(items: tuple[EditorItem, ...], default_order: tuple[str, ...], k: int) -> None:
    """Editor, numbers and captions: all a move reruns. (The slider and presets outside it rerun
    the page, which passes the fragment its new k; keeping them out keeps each move's rerun small.)"""
    metrics_row = st.container()  # filled after the editor, shown above it
    left, right = st.columns([3, 2], gap="large")
    with left:
        state = ranking_editor(items, key=keyed("editor_a"), default_order=default_order, k=k, tray=True,
                               editable_grades=True, scale=chart_scale(), label="Returned list")
    with metrics_row:
        show_metrics(metric_values(state, k), keyed("editor_a_last"))
    with right:
        st.caption("Order: " + " › ".join(state.order))
        st.caption("Tray: " + (" › ".join(state.tray) or "empty"))


def editor_b() -> None:
    """One JAR query, a second editor with its own key and fragment."""
    with st.container(key="editor-b"):
        st.subheader(f"One query: {JAR.text}")
        editor_b_live()


@st.fragment
def editor_b_live() -> None:
    """The second editor and its two numbers: all a move reruns."""
    state = ranking_editor(editor_items(JAR.docs), key=keyed("editor_b"), default_order=[d.id for d in JAR.docs],
                           k=K_B, tray=True, grade_range=(0, 1), scale=chart_scale(), label="Result positions")
    grades = state.order_grades()
    left, right = st.columns(2)
    left.metric("RR (JAR)", fmt(metrics.reciprocal_rank_of(grades)))
    right.metric(f"Hit rate@{K_B} (JAR)", fmt(metrics.success_at_k(grades, K_B)))
    st.caption("JAR order: " + " › ".join(state.order))


st.set_page_config(page_title="Ranking editor test page", page_icon="🧪", layout="wide")
show_mode_controls()
st.sidebar.button("New editors", key="new_editors", on_click=new_generation, args=(None,))
st.sidebar.button("New editors, the lawyer's list", key="new_editors_lawyer", on_click=new_generation,
                  args=("lawyer",))
st.title("Ranking editor")
editor_a()
editor_b()
