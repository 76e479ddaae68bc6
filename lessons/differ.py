"""Putting it together: "Why does my number differ?", the conventions switchboard."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from components.course import prose, scenarios
from components.course.conventions_table import convention_rows, empty_query_sentence, tie_rows
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
