"""The "take this home" panel: the page's ranking as TREC files, with snippets that print the page's numbers.

A lesson calls it inside its interactive fragment, so the files follow the
learner's current order::

    show_take_home(NAME, [current], k=k, gain="exponential", measures=("R@k", "RR", "nDCG@k"))

The files, snippets and numbers come from :mod:`components.course.export`; the
prose from lessons/text/take_home.md.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

import streamlit as st

from components.course import export, hybrid, prose
from components.engine.metrics import GAIN_FORMULAS, Gain
from components.ranking_editor import editor_state

TEXT = "take_home"


def _rankings(queries: Iterable) -> tuple[export.Ranking, ...]:
    """Rankings from export.Ranking objects, editor states, or keys of editors already rendered on the page."""
    resolved = []
    for query in queries:
        if isinstance(query, str):
            current = editor_state(query)
            if current is None:
                raise ValueError(f"the ranking editor {query!r} has not been rendered yet: call show_take_home "
                                 f"after it")
            query = current
        resolved.append(query)
    return export.as_rankings(resolved)


def panel_key(name: str) -> str:
    """The key of page ``name``'s take-home expander (True while it is open)."""
    return f"take_home.{name}.open"


def show_take_home(name: str, queries: Sequence, *, k: int | None, gain: Gain, measures: Iterable[str]) -> None:
    """An expander with the qrels and run downloads, the pytrec_eval and ir_measures snippets and the CLI line.

    Parameters
    ----------
    name : the page's module name; it names the files (``<name>.qrels``, ``<name>.run``) and keys the buttons.
    queries : one entry per query, in order (query ids ``q1``, ``q2``, ...): an editor state
        (``EditorState``), an ``export.Ranking``, or the key of a ranking editor rendered earlier in the run.
    k : the page's cutoff, read into measure names ending in ``@k`` (None: the page has no cutoff).
    gain : the page's nDCG gain, ``"exponential"`` or ``"linear"``.
    measures : the measures the page shows, e.g. ``("R@k", "RR", "nDCG@k")`` (see ``export.resolve_measures``).
    """
    panel = st.expander(prose.section(TEXT, "Title"), icon="📦", key=panel_key(name), on_change="rerun")
    if not panel.open:  # built only when open: a drag or a slider move does not pay for what nobody sees
        return
    rankings = _rankings(queries)
    with panel:
        if not any(r.returned for r in rankings):
            st.info(prose.section(TEXT, "Nothing returned"))
            return
        pack = export.take_home(name, rankings, k=k, gain=gain, measures=measures)
        st.markdown(prose.section(TEXT, "Intro"))
        left, right = st.columns(2)
        left.download_button(prose.text(TEXT, "Download", file=pack.qrels_name), pack.qrels, file_name=pack.qrels_name, mime="text/plain",
                             key=f"take_home.{name}.qrels", on_click="ignore", icon="⬇️", width="stretch")
        right.download_button(prose.text(TEXT, "Download", file=pack.run_name), pack.run, file_name=pack.run_name, mime="text/plain",
                              key=f"take_home.{name}.run", on_click="ignore", icon="⬇️", width="stretch")
        notes = []
        if len(rankings) > 1:
            notes.append(prose.text(TEXT, "Queries note", n=len(rankings), first=rankings[0].qid,
                                    last=rankings[-1].qid))
        if any(m.family == "nDCG" for m in pack.measures):
            notes.append(prose.text(TEXT, "Gain note", gain=pack.gain, formula=GAIN_FORMULAS[pack.gain]))
        if any(m.family == "AP" for m in pack.measures):
            notes.append(prose.section(TEXT, "AP note"))
        if any(not r.returned for r in rankings):
            notes.append(prose.section(TEXT, "Empty list note"))
        st.markdown(prose.section(TEXT, "Expected"))
        st.code(pack.expected, language=None)
        if notes:
            st.caption(" ".join(notes))
        tabs = st.tabs([*export.TOOLS, prose.text(TEXT, "Tab command line")])
        for tab, tool in zip(tabs, export.TOOLS):
            with tab:
                st.markdown(prose.section(TEXT, tool))
                st.code(pack.snippets[tool], language="python")
        with tabs[-1]:
            st.markdown(prose.section(TEXT, "Command line"))
            st.code(pack.command, language="bash")


def show_fusion_take_home(name: str, make: Callable[[], hybrid.FusionPack]) -> None:
    """The hybrid-search lesson's panel: each ranker's run, the fused run and the qrels to download, the
    ``rankwise fuse`` line that writes the fused run again and a ranx script that prints the page's fused scores.
    ``make`` builds the pack (:func:`components.course.hybrid.take_home`), only while the panel is open."""
    panel = st.expander(prose.section(TEXT, "Fusion title"), icon="📦", key=panel_key(name), on_change="rerun")
    if not panel.open:
        return
    pack = make()
    with panel:
        st.markdown(prose.section(TEXT, "Fusion intro"))
        for file, text in pack.files.items():  # one a line: the panel may be half the page wide
            st.download_button(prose.text(TEXT, "Download", file=file), text, file_name=file, mime="text/plain",
                               key=f"take_home.{name}.{file}", on_click="ignore", icon="⬇️", width="stretch")
        command, ranx = st.tabs([prose.section(TEXT, "Tab fuse"), prose.section(TEXT, "Tab ranx")])
        with command:
            st.markdown(prose.section(TEXT, "Fusion command"))
            st.code(pack.command, language="bash")
        with ranx:
            st.markdown(prose.section(TEXT, "Fusion ranx"))
            st.code(pack.ranx, language="python")
            st.code(pack.expected, language=None)
