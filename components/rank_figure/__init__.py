"""The hit-rank figure: queries with one relevant document each, on one shared rank axis (lesson 4).

A page uses it in a few lines::

    from components.rank_figure import rank_figure

    ranks = rank_figure(key="four.ranks", k_key="four.k", queries=names, short=labels,
                        default_ranks=(1, 3, 1, 8), k=k, length=10, labels=("recall@{k}", "MRR"),
                        label="The four queries on one rank axis")

See :mod:`.figure` for the state and sync rules and :mod:`.table` for the
engine's values of every single move (pure). Every word it shows or
announces is in lessons/text/rank_figure.md.

May import: Streamlit, components.engine, components.course, components.ranking_editor (the DOM helpers
both scripts share, dom.js). Never: lessons, components.ui, components.serving.
"""
from components.rank_figure.figure import rank_figure, set_figure_ranks, widget_key
from components.rank_figure.table import figure_table

__all__ = ["figure_table", "rank_figure", "set_figure_ranks", "widget_key"]
