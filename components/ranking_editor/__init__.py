"""The ranking editor: drag, keyboard and buttons to reorder a ranking, with a "Not returned" tray.

A lesson uses it in a few lines::

    from components.ranking_editor import editor_items, ranking_editor, set_editor_state

    items = editor_items(scenarios.FRAMEWORKS.docs)
    state = ranking_editor(items, key="ndcg_editor", default_order=scenarios.FRAMEWORKS.presets["System B"],
                           k=k, tray=True, editable_grades=True, scale=widgets.chart_scale())
    ndcg = metrics.ndcg_at_k(state.order_grades(), k, judged_grades=state.judged_grades())

See :mod:`components.ranking_editor.editor` for the state and sync rules,
:mod:`.model` for the data model (pure) and :mod:`.changes` for the "what
changed" helper (pure). Every word it shows or announces is in
lessons/text/editor.md; the browser gets the sections through the editor's data.

May import: Streamlit, components.engine, components.course. Never: lessons.
"""
from components.ranking_editor.changes import MetricChange, describe_change
from components.ranking_editor.editor import editor_state, ranking_editor, set_editor_state, widget_key
from components.ranking_editor.model import EditorItem, EditorState, editor_items, grade_label
from components.ranking_editor.scoreboard import Scoreboard

__all__ = [
    "EditorItem",
    "EditorState",
    "MetricChange",
    "Scoreboard",
    "describe_change",
    "editor_items",
    "editor_state",
    "grade_label",
    "ranking_editor",
    "set_editor_state",
    "widget_key",
]
