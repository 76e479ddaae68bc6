"""Streamlit building blocks: widgets, the question UI, charts, state keys and URL readers, page layout,
the take-home panel, the page registry, the browser-storage helper.

May import: Streamlit, components.engine, formats, course, serving,
components.ranking_editor. Never: lessons (pages use ui, not the reverse).
"""
