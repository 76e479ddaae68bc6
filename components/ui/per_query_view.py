"""The "Your data" page's per-query results, in three tabs: the table (a click opens a query in the editor
below), the distribution of one measure, and mean Recall@k and hit rate@k for every k.

What the table holds and which rows it shows is :mod:`components.course.per_query`'s.
"""
from __future__ import annotations

import functools
from typing import Mapping

import numpy as np
import streamlit as st

from components.course import export, per_query, prose
from components.course.measure_choices import measure_names, shown_name
from components.engine import metrics, model
from components.ui import charts, state
from components.ui.widgets import chart_scale, read_control, show_chart

TEXT = "your_data"  # the page whose words these are
TABLE_ROWS = 5_000  # at most this many queries in the per-query table (the CSV download has them all)


@st.cache_resource(max_entries=16, show_spinner=prose.text(TEXT, "Computing curves"))
def _curves(files: tuple, ks: tuple[int, ...],
            _judged: model.JudgedRun) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Mean Recall@k and hit rate@k at each k (one pass over the queries); shared by every session."""
    return metrics.mean_recall_and_success_by_k(_judged.queries, ks)


def selected_row(selection: Mapping | None) -> int | None:
    """The position of the row a learner just clicked in the per-query table: a cell of it, or its box.

    ``selection`` is the table's selection state (``rows``, and ``cells`` as
    (row, column) pairs), or None before the first click. A cell counts
    first: :func:`_select_row` keeps only the row after every click, so a
    cell in the state is the newest click.

    >>> selected_row({"rows": [3], "cells": []}), selected_row({"rows": [3], "cells": [(5, "note")]})
    (3, 5)
    >>> selected_row({"rows": [], "cells": []}) is None, selected_row(None) is None
    (True, True)
    """
    if not selection:
        return None
    rows, cells = selection.get("rows") or [], selection.get("cells") or []
    return int(cells[0][0]) if cells else int(rows[0]) if rows else None


def _select_row(qids) -> None:
    """The table's selection callback: the clicked row opens that query below (``qids``: the shown rows' ids).

    The table then selects that row alone (its box ticked, no cell kept), whichever part of it was clicked.
    """
    table = st.session_state.get(state.YOUR_DATA_TABLE)
    row = selected_row(table["selection"] if table is not None else None)
    if row is not None:
        st.session_state[state.YOUR_DATA_QUERY] = qids[row]
        st.session_state[state.YOUR_DATA_TABLE] = {"selection": {"rows": [row], "cells": []}}


def show_per_query(judged: model.JudgedRun, values: Mapping[str, np.ndarray], choices: list[str], k: int, gain: str,
                   files) -> None:
    """The three tabs; ``choices``: the measure pickers' keys chosen, ``files``: the caches' key of the pair."""
    table = per_query.per_query_table(judged, values, k)
    shown = per_query.shown_rows(table, next(iter(values)), TABLE_ROWS)
    tab_table, tab_spread, tab_k = st.tabs([prose.text(TEXT, "Tab table"), prose.text(TEXT, "Tab distribution"),
                                            prose.text(TEXT, "Tab by k")])
    with tab_table:
        st.caption(prose.section(TEXT, "Table intro"))
        if len(shown) < len(table):
            st.caption(prose.text(TEXT, "Table rows shown", shown=f"{len(shown):,}", total=f"{len(table):,}",
                                  measure=shown_name(next(iter(values)), gain)))
        config = {name: st.column_config.NumberColumn(shown_name(name, gain), format="%.3f") for name in values}
        config[per_query.NOTE_COLUMN] = st.column_config.TextColumn(width=per_query.note_width(chart_scale()))
        with st.container(key="your-data-table"):  # a CSS class for browser tests
            # a click on a row's box or on any of its cells opens that query; "—" where no relevant document
            # was returned (the column stays numeric, so it sorts by rank); the note comes second, so it is
            # on screen without scrolling sideways however many measures are chosen
            st.dataframe(shown, key=state.YOUR_DATA_TABLE,
                         on_select=functools.partial(_select_row, tuple(shown[per_query.QUERY_COLUMN])),
                         selection_mode=("single-row", "single-cell"), hide_index=True, width="stretch",
                         height=min(38 + 35 * len(shown), 420), column_config=config,
                         column_order=per_query.shown_order(shown), placeholder=prose.section(TEXT, "Cell none"))
        st.download_button(prose.text(TEXT, "Download table"), functools.partial(export.table_csv, table),
                           file_name="per_query.csv",
                           mime="text/csv", key=state.YOUR_DATA_DOWNLOAD, on_click="ignore", icon="⬇️")
    with tab_spread:
        st.caption(prose.section(TEXT, "Distribution intro"))
        if st.session_state.get(state.YOUR_DATA_SHOWN_MEASURE) not in choices:
            st.session_state[state.YOUR_DATA_SHOWN_MEASURE] = choices[0]
        choice = read_control(st.segmented_control(prose.text(TEXT, "Distribution measure"), choices,
                                                   key=state.YOUR_DATA_SHOWN_MEASURE, required=True,
                                                   format_func=lambda c: shown_name(measure_names([c], k)[0], gain)),
                              choices[0], choices)
        measure = measure_names([choice], k)[0]
        show_chart(charts.per_query_distribution, values[measure], metric=shown_name(measure, gain),
                   key="your_data.distribution")
    with tab_k:
        st.caption(prose.section(TEXT, "By k intro"))
        depth = int(judged.queries.rank.max()) if judged.queries.rank.size else 1
        ks = per_query.curve_ks(k, depth)
        recall, hit_rate = _curves(files, ks, judged)
        show_chart(charts.metric_by_k, ks, {prose.text(TEXT, "Curve recall"): recall,
                                            prose.text(TEXT, "Curve hit rate"): hit_rate},
                   metric=prose.text(TEXT, "Curve axis"), current_k=k, step=len(ks) == ks[-1], key="your_data.by_k")
