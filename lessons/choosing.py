"""Putting it together: every metric on one graded ranking, and what their disagreements mean."""
from __future__ import annotations

import streamlit as st

from components.course import diagnosis, prose, scenarios
from components.live_class.follow import followed_fragment
from components.ranking_editor import EditorState, Scoreboard, set_editor_state
from components.ranking_editor.model import editor_items, query_set
from components.ui import layout, state
from components.ui.take_home import show_take_home
from components.ui.widgets import (
    chart_scale,
    numbers_hidden,
    numbers_revealed,
    show_k_slider,
    show_link_to_view,
    show_ranking_editor,
)

NAME = "choosing"
Q = scenarios.CHOOSING
ITEMS = editor_items(Q.docs)
GRADES = {d.id: d.grade for d in Q.docs}
DEFAULT_PRESET = scenarios.CHOOSING_DEFAULT
MEASURES = scenarios.CHOOSING_MEASURES  # the board's six


def _load(preset: str) -> None:
    set_editor_state(state.CHOOSING_EDITOR, Q.presets[preset], grades=GRADES)


@followed_fragment
def _scenario() -> None:
    columns = st.columns(len(Q.presets))
    for column, name in zip(columns, Q.presets):
        column.button(name, key=f"choosing.preset.{name}", on_click=_load, args=(name,), width="stretch")
    k = show_k_slider(state.CHOOSING_K, hi=len(Q.docs), default=scenarios.CHOOSING_K)
    editor_col, text_col = st.columns([3, 2], gap="large")
    with editor_col:
        current = show_ranking_editor(ITEMS, key=state.CHOOSING_EDITOR,
                                      default_order=Q.presets[DEFAULT_PRESET], k=k, tray=True,
                                      editable_grades=True, grade_range=(0, 2), scale=chart_scale(),
                                      label=prose.section(NAME, "Label editor"),
                                      scoreboard=lambda s: _scoreboard(s, k), k_key=state.CHOOSING_K,
                                      k_max=len(Q.docs), scroll_in_place=True)
        show_link_to_view()
    qs = query_set(current)
    with text_col:
        revealed = numbers_revealed("choosing", (current, k))
        if revealed:
            st.info(diagnosis.diagnosis_text(qs, k), icon="🩺")
    if revealed:
        show_take_home(NAME, [current], k=k, gain="exponential", measures=MEASURES)


def _labels(k: int | str) -> tuple[str, ...]:
    """The board's names, in the order of MEASURES; ``k="{k}"`` gives the scoreboard's templates."""
    return (f"Recall@{k}", prose.text(NAME, "Label hit rate card", k=k), f"Precision@{k}", "RR",
            prose.text(NAME, "Label nDCG card", k=k), "AP")


def _scoreboard(current: EditorState, k: int) -> Scoreboard:
    """The editor's live scoreboard, the page's one place for the six values: hidden while the class predicts
    them."""
    return Scoreboard(MEASURES, _labels("{k}"), hidden=numbers_hidden("choosing", (current, k)))


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    layout.show_warm_up("warmup.choosing")
    st.markdown(prose.text(NAME, "Intro", query=Q.text))
    st.markdown(prose.section(NAME, "Scenario"))
    _scenario()
    st.subheader(prose.section(NAME, "Heading guide"))
    st.markdown(prose.section(NAME, "Guide"))
    layout.show_practice(NAME)
    layout.show_lesson_end(NAME)


if __name__ == "__main__":
    render()
