"""Glossary: every term the lessons use, one or two lines each, each with an anchor the lessons link to.

Entries come from lessons/text/glossary.md ("## name / other name", then the
definition); a lesson links a term by writing ``[[term]]`` in its Markdown
(see :func:`components.course.prose.link_terms`), which points at ``/glossary#<anchor>``.
"""
from __future__ import annotations

import streamlit as st

from components.course import prose
from components.ui import registry, state

NAME = prose.GLOSSARY


def render() -> None:
    st.title(prose.section(NAME, "Title"), anchor=False)
    st.markdown(prose.section(NAME, "Summary"))
    entries = prose.glossary_entries()
    st.markdown(" · ".join(f"[{names[0]}](#{prose.anchor(names[0])})" for names in entries.values()))
    query = st.text_input(prose.section(NAME, "Label filter"), key=state.GLOSSARY_FILTER,
                          placeholder=prose.section(NAME, "Placeholder filter"))
    shown = prose.glossary_matching(query)
    if not shown:
        st.info(prose.text(NAME, "No match", query=query.strip()))
    pages = registry.glossary_links()
    for heading in shown:
        first = entries[heading][0]
        st.subheader(heading, anchor=prose.anchor(first))
        st.markdown(prose.section(NAME, heading))
        if pages.get(prose.anchor(first)):
            links = ", ".join(f"[{p.title}]({registry.page_url(p)})" for p in pages[prose.anchor(first)])
            st.caption(prose.text(NAME, "Used in", pages=links))


if __name__ == "__main__":
    render()
