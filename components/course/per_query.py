"""The "Your data" page's per-query table and its Recall@k / hit rate@k curve: what is in them, which rows the
page shows.

No Streamlit import here.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from components.course import prose
from components.engine import metrics, model

TEXT = "your_data"  # the page whose words these are
QUERY_COLUMN = prose.text(TEXT, "Column query")  # the per-query table's first column: the query id
NOTE_COLUMN = prose.text(TEXT, "Column note")  # why a query scores 0, if it does
# the note column's texts, in the order the table sets them (a later one overrides)
NOTES = (prose.section(TEXT, "Note below k"), prose.section(TEXT, "Note none returned"),
         prose.section(TEXT, "Note no relevant"))
NOTE_CHAR_PX = 6.5  # the grid's width of a character of its 14 px font, a little generous, at scale 1
CURVE_POINTS = 100  # at most this many k on the Recall@k / hit rate@k chart


def per_query_table(judged: model.JudgedRun, values: Mapping[str, np.ndarray], k: int) -> pd.DataFrame:
    """One row per evaluated query: its values, counts and a short note on why it scores 0 (if it does)."""
    qs = judged.queries
    n_relevant = metrics.num_relevant(qs).astype(np.int64)
    returned = np.bincount(qs.qidx, minlength=qs.n_queries)
    first = metrics.first_hit_rank(qs)
    notes = np.full(qs.n_queries, "", dtype=object)
    below_k, none_returned, no_relevant = NOTES
    notes[first > k] = below_k
    notes[np.isinf(first)] = none_returned
    notes[n_relevant == 0] = no_relevant
    table = pd.DataFrame({QUERY_COLUMN: list(judged.qids)})
    for name, column in values.items():
        table[name] = column
    table[prose.text(TEXT, "Column relevant")] = n_relevant
    table[prose.text(TEXT, "Column returned")] = returned
    found = np.isfinite(first)
    table[prose.text(TEXT, "Column first relevant")] = pd.arrays.IntegerArray(np.where(found, first, 0).astype(np.int64), ~found)
    table[NOTE_COLUMN] = notes
    return table


def shown_order(table: pd.DataFrame) -> tuple[str, ...]:
    """The per-query table's columns as the page shows them: the query, its note, then the rest as built.

    The download keeps the built order.

    >>> shown_order(pd.DataFrame(columns=[QUERY_COLUMN, "RR", NOTE_COLUMN]))
    ('query', 'note', 'RR')
    """
    return (QUERY_COLUMN, NOTE_COLUMN, *(c for c in table.columns if c not in (QUERY_COLUMN, NOTE_COLUMN)))


def note_width(scale: float) -> int:
    """The note column's width in pixels, room for its longest note (left to itself, the grid cut notes short).

    >>> note_width(1.5) > note_width(1.0) > 6 * max(len(note) for note in NOTES)
    True
    """
    return round(scale * (max(len(note) for note in NOTES) * NOTE_CHAR_PX + 24))


def shown_rows(table: pd.DataFrame, measure: str, limit: int) -> pd.DataFrame:
    """The rows the page's table shows: all of them, or past ``limit`` the lowest-scoring by ``measure``.

    A browser grid of hundreds of thousands of rows is sent again on every
    change; the download keeps every row. Ties keep the table's order.

    >>> table = pd.DataFrame({"query": [f"q{i}" for i in range(6)], "RR": [0.5, 0.0, 1.0, 0.0, 0.2, 0.9]})
    >>> shown_rows(table, "RR", 6).equals(table), list(shown_rows(table, "RR", 3)["query"])
    (True, ['q1', 'q3', 'q4'])
    """
    if len(table) <= limit:
        return table
    return table.sort_values(measure, kind="stable").head(limit)


def curve_ks(k: int, depth: int) -> tuple[int, ...]:
    """The k on the Recall@k / hit rate@k chart: 1 to max(20, 2k) (and no deeper than the run), k included.

    Beyond CURVE_POINTS values, evenly spaced ones (k always among them).

    Examples
    --------
    >>> curve_ks(5, 30)[-1], len(curve_ks(5, 30)), curve_ks(300, 1000)[-1], 300 in curve_ks(300, 1000)
    (20, 20, 600, True)
    """
    top = max(min(max(20, 2 * k), max(depth, 1)), k)
    ks = list(range(1, top + 1))
    if len(ks) > CURVE_POINTS:
        ks = sorted({int(round(x)) for x in np.linspace(1, top, CURVE_POINTS)} | {k})
    return tuple(ks)
