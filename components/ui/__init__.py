"""Streamlit building blocks: widgets, the question UI, charts, state keys and URL readers, page layout,
the take-home panel, the page registry, the browser-storage helper, the "Your data" upload flow.

They hold no words of their own: a label comes in as an argument or from lessons/text/ through the
prose loader (ui.md, charts.md, navigation.md).

May import: Streamlit, components.engine, formats, course, serving,
components.ranking_editor. Never: lessons (pages use ui, not the reverse).
"""
