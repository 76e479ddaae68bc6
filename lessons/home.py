"""Home: what Rankwise teaches, the map of the course, how to use it."""
from __future__ import annotations

import streamlit as st

from components.course import prose
from components.live_class import panel as live_class
from components.ui import registry

NAME = "home"
EXTRAS_PER_ROW = 2  # the pages beside the course, two to a row: their summaries stay readable at 1024 px


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    st.markdown(prose.section(NAME, "Welcome"))
    live_class.show_join_box()
    left, right = st.columns(2, gap="large")
    with left:
        st.subheader(prose.section(NAME, "Heading able"))
        st.markdown(prose.section(NAME, "What you will be able to do"))
    with right:
        st.subheader(prose.section(NAME, "Heading how"))
        st.markdown(prose.section(NAME, "How to use it"))
    st.subheader(prose.section(NAME, "Heading course"))
    st.markdown(prose.section(NAME, "The course"))
    for spec in (spec for spec in registry.PAGES if spec.in_sequence):
        with st.container(border=True):
            st.page_link(registry.page_for(spec), label=f"{registry.lesson_number(spec.module)}. {spec.title}",
                         icon=spec.icon)
            st.caption(spec.summary)
    st.subheader(prose.section(NAME, "Heading more"))
    st.markdown(prose.section(NAME, "More"))
    extras = [spec for spec in registry.PAGES if not spec.in_sequence and spec.module != NAME]
    for row in range(0, len(extras), EXTRAS_PER_ROW):
        shown = extras[row:row + EXTRAS_PER_ROW]
        for column, spec in zip(st.columns(EXTRAS_PER_ROW), shown):
            with column.container(border=True):
                st.page_link(registry.page_for(spec), label=spec.title, icon=spec.icon)
                st.caption(spec.summary)
    st.info(prose.section(NAME, "Conventions"), icon="📏")


if __name__ == "__main__":
    render()
