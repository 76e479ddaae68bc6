"""The "Your data" page's summary of the loaded pair: the files shown, the means of the chosen measures, the
queries evaluated and skipped, and what the readers understood of each file."""
from __future__ import annotations

import dataclasses
from typing import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from components.course import prose
from components.course.measure_choices import mean_name, shown_name
from components.course.per_query import QUERY_COLUMN
from components.engine import metrics, model
from components.engine.formatting import fmt, literal
from components.engine.measures import GEOMETRIC_MEAN, aggregate, aggregation
from components.formats import readers
from components.ui import upload_flow

TEXT = "your_data"  # the page whose words these are
CARDS_PER_ROW = 4  # the means' cards per row: five in a row cut their values short at 1024 px and projected


def show_trailing_note(parsed: model.Run, name: str) -> None:
    """Say how many lines of a run had text after the tag, which the reader ignored (nothing when none did)."""
    if parsed.trailing_lines:
        st.caption(prose.text(TEXT, "Trailing fields", count=f"{parsed.trailing_lines:,}", run=literal(name)))


def show_summary(loaded: upload_flow.LoadedPair, judged: model.JudgedRun, qrels: model.Qrels,
                 values: Mapping[str, np.ndarray], gain: str) -> None:
    """The files and formats shown, a card per measure's value over the queries, the counts of queries."""
    st.subheader(prose.text(TEXT, "Results heading"))
    qrels_format, run_format = (loaded.read(kind).understood.format.upper() for kind in upload_flow.KINDS)
    formats = (qrels_format if qrels_format == run_format
               else prose.text(TEXT, "Two formats", qrels=qrels_format, run=run_format))
    st.caption(prose.text(TEXT, "Files shown", qrels=literal(loaded.qrels.name), judgments=f"{len(qrels.line):,}",
                          run=literal(loaded.run.name), results=f"{judged.queries.qidx.size:,}", formats=formats))
    member = loaded.read("qrels").understood.member
    if member is not None:  # a BEIR dataset's zip: say which of its files holds the judgments read
        st.caption(prose.text(TEXT, "Qrels in zip", member=literal(member), zip=literal(loaded.qrels.name)))
    show_trailing_note(loaded.parsed_run(), loaded.run.name)
    _understood(loaded)
    names = list(values)
    means = st.container(key="your-data-means")
    cards = [column for row in range(0, len(names) + 1, CARDS_PER_ROW)
             for column in means.columns(CARDS_PER_ROW, gap="small")][:len(names) + 1]
    cards[0].metric(prose.text(TEXT, "Queries evaluated"), f"{len(judged.qids):,}")
    for column, name in zip(cards[1:], names):
        column.metric(mean_name(name, gain), fmt(aggregate(name, values[name])),
                      help=prose.section(TEXT, "GMAP help") if aggregation(name) == GEOMETRIC_MEAN else
                      prose.text(TEXT, "Mean help", measure=shown_name(name, gain)))
    skipped = judged.skipped
    with st.container(border=True):
        st.markdown(prose.text(TEXT, "Counts", evaluated=f"{len(judged.qids):,}",
                               qrels_only=f"{skipped['qrels_only']:,}", run_only=f"{skipped['run_only']:,}"))
        st.caption(prose.section(TEXT, "Skip reason"))
        empty = int((metrics.num_relevant(judged.queries) == 0).sum())
        if empty:
            st.caption(prose.text(TEXT, "No relevant", count=f"{empty:,}"))
        if judged.qrels_only or judged.run_only:
            with st.expander(prose.section(TEXT, "Skipped list")):
                reasons = ([prose.section(TEXT, "Reason qrels only")] * len(judged.qrels_only)
                           + [prose.section(TEXT, "Reason run only")] * len(judged.run_only))
                skipped_ids = [*judged.qrels_only, *judged.run_only]
                st.dataframe(pd.DataFrame({QUERY_COLUMN: skipped_ids,
                                           prose.text(TEXT, "Column why skipped"): reasons}),
                             hide_index=True, width="stretch", height=min(38 + 35 * len(reasons), 300))


def _understood(loaded: upload_flow.LoadedPair) -> None:
    """What the readers understood of each file: its format, the columns or keys read, and its first rows."""
    with st.expander(prose.text(TEXT, "Understood heading"), icon="🔍"):
        for kind, column in zip(upload_flow.KINDS, st.columns(2, gap="large")):
            seen = loaded.read(kind).understood
            with column:
                st.markdown(prose.text(TEXT, "Understood file", kind=kind, format=seen.format.upper(),
                                       fields=literal(_read_as(seen))))
                notes = [prose.section(TEXT, "Understood order")] if seen.scores_from_order else []
                if seen.merged_chunks:
                    notes.append(prose.text(TEXT, "Understood merged", merged=f"{seen.merged_chunks:,}"))
                if notes:
                    st.caption(" ".join(notes))
                st.dataframe(pd.DataFrame(seen.preview, columns=[
                    prose.text(TEXT, "Column query"), prose.text(TEXT, "Understood docid"),
                    prose.text(TEXT, f"Understood value {kind}")]), hide_index=True, width="stretch")


def _read_as(seen: readers.Understood) -> str:
    """The columns of a table, or the keys of JSON records (role = key), or, for TREC, "by position"."""
    if seen.columns:
        return ", ".join(seen.columns)
    if seen.fields:
        return ", ".join(f"{role} = {key}" for role, key in dataclasses.asdict(seen.fields).items() if key)
    return prose.section(TEXT, "Understood positions")
