"""The "Your data" page's diagnosis: every way the loaded files could mislead the numbers, in one place.

The checks are :func:`components.engine.run_diagnosis.diagnose`'s, their sentences
:func:`components.course.findings.describe`'s (lessons/text/diagnose.md); this module lays them out: an
expander (open when something is found) with one card per finding (title, count, what it found, what it does to
each measure, advice, the page that explains it) and up to five example queries, each a button that opens it in
the page's query editor. Ids from the files show through :func:`components.engine.formatting.literal`
(never as Markdown or HTML).
"""
from __future__ import annotations

from typing import Callable, Container

import streamlit as st

from components.course import prose
from components.course.findings import describe
from components.engine.formatting import literal
from components.engine.run_diagnosis import Diagnosis, Finding
from components.ui import registry

TEXT = "your_data"
ICONS = {"warning": "⚠️", "note": "ℹ️"}


def _page_of(link: str | None):
    """The app page a finding's link names (its url path; a glossary anchor opens the glossary), or None."""
    if link is None:
        return None
    path = link.split("#")[0].strip("/")
    spec = next((s for s in registry.PAGES if s.url_path == path), None)
    return registry.page_for(spec) if spec is not None else None


def _finding(finding: Finding, openable: Container[str], open_query: Callable[[str], None], key: str) -> None:
    text = describe(finding, quote=literal, app=True)
    with st.container(border=True):
        st.markdown(prose.text(TEXT, f"Diagnosis {finding.severity}", icon=ICONS[finding.severity], title=text.title))
        st.markdown(text.body)
        if text.effects:
            st.markdown("\n".join(f"- {line}" for line in text.effects))
        st.caption(text.advice)
        examples = [q for q in finding.examples if q in openable]
        if examples:
            columns = st.columns(len(examples) + 1, vertical_alignment="center")
            columns[0].caption(prose.section(TEXT, "Diagnosis open"))
            for column, qid in zip(columns[1:], examples):
                column.button(qid, key=f"{key}.{finding.check}.{qid}", on_click=open_query, args=(qid,),
                              help=prose.section(TEXT, "Diagnosis open help"), width="stretch")
        elsewhere = [q for q in finding.examples if q not in openable]  # skipped queries: not in the editor
        if elsewhere:
            st.caption(prose.text(TEXT, "Diagnosis examples", ids=", ".join(literal(q) for q in elsewhere)))
        page = _page_of(finding.link)
        if page is not None:
            st.page_link(page, label=prose.section(TEXT, "Diagnosis read more"), icon="📖")


def show_diagnosis(diagnosis: Diagnosis, *, openable: Container[str], open_query: Callable[[str], None],
                   key: str, expanded: bool | None = None) -> None:
    """The diagnosis in an expander, open when a finding has something to report (or as ``expanded`` says).

    ``openable``: the query ids the page's editor can open (an example outside them shows as text only);
    ``open_query``: the callback that opens one; ``key`` prefixes the buttons' keys.
    """
    problems = diagnosis.problems
    warnings = sum(f.severity == "warning" for f in problems)
    title = prose.text(TEXT, "Diagnosis title", k=diagnosis.k, warnings=warnings, notes=len(problems) - warnings)
    with st.expander(title if problems else prose.text(TEXT, "Diagnosis title clean", k=diagnosis.k),
                     expanded=bool(problems) if expanded is None else expanded, icon="🩺"):
        st.caption(prose.text(TEXT, "Diagnosis intro", k=diagnosis.k))
        for finding in problems:
            _finding(finding, openable, open_query, key)
        ok = [describe(f, quote=literal) for f in diagnosis.findings if f.severity == "ok"]
        if ok:
            st.markdown(prose.section(TEXT, "Diagnosis ok heading"))
            st.markdown("\n".join(f"- ✅ {t.body}" for t in ok))
