"""Streamlit building blocks: widgets, the question UI, charts, state keys and URL readers, page layout,
the take-home panel, the page registry, the browser-storage helper, a lesson editor answered before its section
(answer_first), the "Your data" upload flow.

They hold no words of their own: a label comes in as an argument or from lessons/text/ through the
prose loader (ui.md, charts.md, navigation.md).

May import: Streamlit, components.engine, formats, course, serving, ranking_editor, rank_figure,
live_class (the shared widgets ask the live class about its questions; the class draws with state, browser_store,
registry and charts, never with widgets, quiz_ui or layout). Never: lessons (pages use ui, not the reverse).
"""
