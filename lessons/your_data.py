"""Your data: upload qrels and a run, see trec_eval's numbers per query, open any query in the ranking editor.

The files arrive through :mod:`components.ui.upload_flow` (received once,
read and joined once for the whole server, the pair on show kept as a
:class:`~components.ui.upload_flow.LoadedPair`); this page composes what it
shows from the pair.

Text from the files (ids, file names, the reader's messages, which quote
lines) is never rendered as HTML or Markdown: it goes into dataframes,
select boxes, ``st.code`` blocks, the editor (which sets ``textContent``) or
Markdown code spans built by :func:`components.engine.formatting.literal`.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from components.course import export, prose
from components.engine import metrics, model, run_diagnosis
from components.engine.formatting import fmt, literal, signed
from components.engine.measures import GEOMETRIC_MEAN, aggregate, aggregation, evaluate, parse_measure
from components.formats import chunks, json_formats, readers, tabular
from components.ranking_editor import EditorItem, Scoreboard, describe_change, ranking_editor, set_editor_state
from components.serving import uploads
from components.serving.shared_cache import freeze
from components.ui import charts, registry, state, upload_flow
from components.ui.diagnosis_view import show_diagnosis
from components.ui.widgets import chart_scale, read_control, show_chart

NAME = "your_data"
ASSETS = Path(__file__).resolve().parents[1] / "assets"
SAMPLE_QRELS = ASSETS / "sample_qrels.txt"
SAMPLE_RUN = ASSETS / "sample_run.txt"
SAMPLE_RUN_B = ASSETS / "sample_run_b.txt"
# The same collection in the formats practitioners bring: a BEIR folder's qrels and results, a JSONL golden set and
# results (with chunk ids: doc#chunk).
OTHER_SAMPLES = {"beir": (ASSETS / "beir_sample" / "qrels" / "test.tsv", ASSETS / "beir_sample" / "results.json"),
                 "jsonl": (ASSETS / "sample_golden.jsonl", ASSETS / "sample_results.jsonl")}
KINDS = upload_flow.KINDS
UPLOADERS = {"qrels": state.YOUR_DATA_QRELS_UPLOADER, "run": state.YOUR_DATA_RUN_UPLOADER}

DEFAULT_K = 10
MAX_K = 1000
POOL = 20  # the run's top results opened in the editor
TRAY_MAX = 30  # relevant judged documents not returned, shown in the tray
GRADE_LIMITS = (-10, 10)  # grades the editor shows as badges; others are named in the title and keep their value
CURVE_POINTS = 100  # at most this many k on the Recall@k / hit rate@k chart
TABLE_ROWS = 5_000  # at most this many queries in the per-query table (the CSV download has them all)
CARDS_PER_ROW = 4  # the means' cards per row: five in a row cut their values short at 1024 px and projected
FIELD_ROLES = ("qid", "docs", "value")  # what a learner maps in a JSON record: query id, documents, grade or score
OBJECT_ROLES = ("doc_id", "value")  # and in a record's list of objects: each one's document id, grade or score
OPTIONAL_ROLE = "value"  # without grades: 1 each; without scores: the list's order
SELECT_OPTIONS = 5_000  # up to this many queries, a select box picks one; beyond, a text box takes its id
# measure families offered, with their canonical names ("k" stands for the chosen k)
FAMILIES = {"R": "R@k", "Success": "Success@k", "P": "P@k", "RR": "RR", "RR@k": "RR@k", "AP": "AP", "AP@k": "AP@k",
            "GMAP": "GMAP", "R-prec": "R-prec", "nDCG": "nDCG@k", "nDCG-all": "nDCG", "DCG": "DCG@k",
            "bpref": "bpref", "Judged": "Judged@k"}
DEFAULT_FAMILIES = ["R", "Success", "RR", "AP", "nDCG"]
NEEDS_JUDGED_MARKS = ("bpref", "Judged")  # they tell unjudged from judged non-relevant, which the editor cannot show
GAIN_CHOICES = ("linear", "exponential")  # linear first: trec_eval's, the page's default
QUERY_COLUMN = prose.text(NAME, "Column query")  # the per-query table's first column: the query id
NOTE_COLUMN = prose.text(NAME, "Column note")  # why a query scores 0, if it does
# the note column's texts, in the order the table sets them (a later one overrides)
NOTES = (prose.section(NAME, "Note below k"), prose.section(NAME, "Note none returned"),
         prose.section(NAME, "Note no relevant"))
NOTE_CHAR_PX = 6.5  # the grid's width of a character of its 14 px font, a little generous, at scale 1


# ----------------------------------------------------------------------------
# Evaluating the loaded pair (cached by content hash)
# ----------------------------------------------------------------------------

def _use_samples(qrels: Path = SAMPLE_QRELS, run: Path = SAMPLE_RUN) -> None:
    upload_flow.receive("qrels", qrels.name, qrels.read_bytes())
    upload_flow.receive("run", run.name, run.read_bytes())
    upload_flow.empty_uploaders()


def _sync_chunks(separator: str | None) -> None:
    """Both received files are read with the chunk option as set (a file received later too): a record whose
    option differs is replaced, so the pair's key changes and it is read again."""
    for kind in KINDS:
        record = st.session_state.get(upload_flow.RECEIVED[kind])
        if record is not None and uploads.reading(record)[1] != separator:
            st.session_state[upload_flow.RECEIVED[kind]] = uploads.with_reading(record, uploads.reading(record)[0],
                                                                                 separator)


def _map_fields(kind: str, known: json_formats.Fields | None) -> None:
    """The learner's mapping of a JSON file's keys: that file is read again with it. ``known``: the record's keys
    already known, when the mapping is of the objects in its list of documents (:data:`OBJECT_ROLES`)."""
    roles = FIELD_ROLES if known is None else OBJECT_ROLES
    chosen = {role: st.session_state.get(f"{state.YOUR_DATA_FIELDS}.{kind}.{role}") for role in roles}
    record = st.session_state.get(upload_flow.RECEIVED[kind])
    if record is None or not all(chosen[role] for role in roles if role != OPTIONAL_ROLE):
        return
    value = {"grade" if kind == KINDS[0] else "score": chosen[OPTIONAL_ROLE]}
    fields = (json_formats.Fields(chosen["qid"], chosen["docs"], **value) if known is None else
              dataclasses.replace(known, doc_id=chosen["doc_id"], **value))
    st.session_state[upload_flow.RECEIVED[kind]] = uploads.with_reading(record, fields, uploads.reading(record)[1])


@st.cache_resource(max_entries=8, show_spinner=prose.text(NAME, "Evaluating"))
def _adjusted(files: uploads.Files, level: int, judged_only: bool, _judged: model.JudgedRun) -> model.JudgedRun:
    """The pair under the page's relevance level and judged-only choice (trec_eval's -l and -J); shared."""
    return _judged.adjusted(level, judged_only)


@st.cache_resource(max_entries=32, show_spinner=prose.text(NAME, "Evaluating"))
def _evaluate(files: tuple, names: tuple[str, ...], gain: str,
              _judged: model.JudgedRun) -> Mapping[str, np.ndarray]:
    """Per-query values of each measure (the engine's, as the command line computes them); shared, so read-only."""
    return MappingProxyType(freeze(evaluate(_judged.queries, names, gain)))


@st.cache_resource(max_entries=8, show_spinner=prose.text(NAME, "Diagnosing"))
def _diagnosis(files: tuple, k: int, names: tuple[str, ...], gain: str, level: int, _loaded: upload_flow.LoadedPair
               ) -> run_diagnosis.Diagnosis:
    return run_diagnosis.diagnose_read(_loaded.read("qrels"), _loaded.read("run"), _loaded.judged(), k=k,
                                       measures=names, gain=gain, relevance_level=level,
                                       chunks=uploads.reading(_loaded.run)[1])


def _open_query(qid: str) -> None:
    """A diagnosis example's button: that query opens in the editor below (and a toast says so)."""
    st.session_state[state.YOUR_DATA_QUERY] = qid
    st.toast(prose.text(NAME, "Diagnosis opened", qid=literal(qid)), icon="🔎")


@st.cache_resource(max_entries=16, show_spinner=prose.text(NAME, "Computing curves"))
def _curves(files: tuple, ks: tuple[int, ...],
            _judged: model.JudgedRun) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Mean Recall@k and hit rate@k at each k (one pass over the queries)."""
    return metrics.mean_recall_and_success_by_k(_judged.queries, ks)


# ----------------------------------------------------------------------------
# Pure helpers
# ----------------------------------------------------------------------------

def measure_names(families, k: int) -> tuple[str, ...]:
    """The canonical names of the chosen families at cutoff k (R@10, RR, RR@10, ...)."""
    return tuple(parse_measure(FAMILIES[f].replace("@k", f"@{k}")).name for f in families)


def shown_name(name: str, gain: str) -> str:
    """A measure's name as a label, with the gain named next to nDCG and DCG."""
    return f"{name} ({gain} gain)" if "DCG" in name else name


def mean_name(name: str, gain: str) -> str:
    """The label of a measure's value over the queries: MRR for RR, MAP for AP, the measure's own name otherwise
    (gain named)."""
    return "M" + name if name.startswith(("RR", "AP")) else shown_name(name, gain)


def per_query_table(judged: model.JudgedRun, values: dict[str, np.ndarray], k: int) -> pd.DataFrame:
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
    table[prose.text(NAME, "Column relevant")] = n_relevant
    table[prose.text(NAME, "Column returned")] = returned
    found = np.isfinite(first)
    table[prose.text(NAME, "Column first relevant")] = pd.arrays.IntegerArray(np.where(found, first, 0).astype(np.int64), ~found)
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


# ----------------------------------------------------------------------------
# Page sections
# ----------------------------------------------------------------------------

def _files_section() -> tuple[upload_flow.LoadedPair | None, upload_flow.FailedPair | None]:
    if st.session_state.get(state.YOUR_DATA_FILES_GONE):
        st.warning(prose.section(NAME, "Files gone"), icon="🔌")
    st.markdown(prose.section(NAME, "Uploads"))
    upload_flow.hide_uploader_size_line()
    st.caption(prose.text(NAME, "Limit", limit=uploads.size_text(upload_flow.file_limit()),
                          cap=uploads.size_text(uploads.session_cap())))
    upload_round = upload_flow.upload_round()
    columns = st.columns(2, gap="large")
    for column, kind in zip(columns, KINDS):
        key = f"{UPLOADERS[kind]}.{upload_round}"
        with column:
            uploaded = st.file_uploader(prose.text(NAME, f"Uploader {kind}"), type=None, key=key,
                                        help=prose.text(NAME, "Uploader help", columns=tabular.column_names(kind)))
            upload_flow.take_upload(kind, uploaded, key)
            _show_refusal(kind)
            received = st.session_state.get(upload_flow.RECEIVED[kind])
            if received is None:
                st.caption(prose.section(NAME, f"Waiting {kind}"))
            else:
                st.caption(prose.text(NAME, "Received", name=literal(received["name"]),
                                      size=uploads.size_text(len(received["data"]))))
    buttons = st.columns(3)
    buttons[0].button(prose.text(NAME, "Use samples"), key=state.YOUR_DATA_SAMPLES, on_click=_use_samples, icon="🧪",
                      width="stretch")
    for column, (name, files) in zip(buttons[1:], OTHER_SAMPLES.items()):
        column.button(prose.text(NAME, f"Use samples {name}"), key=f"{state.YOUR_DATA_SAMPLES}.{name}",
                      on_click=_use_samples, args=files, icon="🧪", width="stretch")
    st.caption(prose.section(NAME, "Samples"))
    _chunk_option()
    holding = upload_flow.held()
    if holding:
        button, note = st.columns([1, 3], vertical_alignment="center")
        button.button(prose.text(NAME, "Forget"), key=state.YOUR_DATA_FORGET, on_click=upload_flow.forget_files,
                      icon="🗑️", width="stretch")
        note.caption(prose.text(NAME, "Held", held=uploads.size_text(holding),
                                cap=uploads.size_text(uploads.session_cap())))
    with st.expander(prose.text(NAME, "Formats heading"), icon="📄"):
        st.markdown(prose.fill(prose.section(NAME, "Formats")))  # its JSON examples write each brace twice
    loaded, failed = upload_flow.current_files()
    upload_flow.remember_in_tab(loaded)
    if failed is not None:
        with st.container(border=True, key="your-data-error"):
            st.error(prose.section(NAME, "Error heading"), icon="🚫")
            st.code(failed.message, language=None, wrap_lines=True)
            if failed.no_common_query:
                st.markdown(prose.section(NAME, "No common query"))
            if failed.unmapped is not None:
                _field_mapping(*failed.unmapped)
            st.caption(prose.section(NAME, "Error kept" if loaded is not None else "Error nothing before"))
    return loaded, failed


def _chunk_option() -> None:
    """Count chunks as their document (doc12#3 -> doc12, best rank kept): a toggle and its separator."""
    toggle_column, separator_column = st.columns([3, 1], vertical_alignment="bottom")
    on = toggle_column.toggle(prose.text(NAME, "Chunks label"), key=state.YOUR_DATA_CHUNKS,
                              help=prose.text(NAME, "Chunks help"))
    separator = separator_column.text_input(prose.text(NAME, "Chunks separator"), value=chunks.DEFAULT_SEPARATOR,
                                            max_chars=3, key=state.YOUR_DATA_CHUNK_SEPARATOR)
    _sync_chunks((separator.strip() or chunks.DEFAULT_SEPARATOR) if on else None)


def _field_mapping(kind: str, err: json_formats.FieldsError) -> None:
    """The reader could not tell which keys of the JSON records (or of the objects in a record's list of documents)
    hold what: the learner says, from the keys seen."""
    roles = FIELD_ROLES if err.record is None else OBJECT_ROLES
    heading = (prose.text(NAME, "Fields heading", kind=kind) if err.record is None else
               prose.text(NAME, "Object fields heading", kind=kind, docs=literal(err.record.docs)))
    st.markdown(heading)
    keys = list(err.keys)
    columns = st.columns(len(roles))
    for column, role in zip(columns, roles):
        optional = role == OPTIONAL_ROLE
        column.selectbox(prose.text(NAME, f"Field {role} {kind}"), [None, *keys] if optional else keys,
                         key=f"{state.YOUR_DATA_FIELDS}.{kind}.{role}", index=0 if optional else None,
                         format_func=lambda key: prose.section(NAME, "Field none") if key is None else key)
    st.button(prose.text(NAME, "Fields read"), key=f"{state.YOUR_DATA_FIELDS}.{kind}.read", on_click=_map_fields,
              args=(kind, err.record), type="primary", icon="🔁")


def _show_refusal(kind: str) -> None:
    """Why the latest file of this kind was not taken (over the session's upload cap), if it was not."""
    refused = upload_flow.refused(kind)
    if refused is not None:
        st.error(prose.text(NAME, "Upload refused", file=literal(refused.file), size=refused.size,
                            total=refused.total, cap=refused.cap), icon="🧳")


def _settings(qrels: model.Qrels) -> tuple[int, list[str], str, int, bool]:
    st.subheader(prose.text(NAME, "Settings heading"))
    st.markdown(prose.section(NAME, "Settings intro"))
    st.session_state.setdefault(state.YOUR_DATA_K, DEFAULT_K)
    st.session_state.setdefault(state.YOUR_DATA_MEASURES, list(DEFAULT_FAMILIES))
    st.session_state.setdefault(state.YOUR_DATA_GAIN, "linear")
    left, middle = st.columns([1, 3], gap="medium")
    k = int(read_control(left.number_input(prose.text(NAME, "K label"), min_value=1, max_value=MAX_K, step=1,
                                           key=state.YOUR_DATA_K, help=prose.section(NAME, "K help")), DEFAULT_K))
    # labelled "R@k", not "R@10": a label that changes with k made the browser drop the choice on a later run
    families = read_control(middle.multiselect(prose.text(NAME, "Measures label"), list(FAMILIES), key=state.YOUR_DATA_MEASURES,
                                               format_func=FAMILIES.get, help=prose.section(NAME, "Measures help")),
                            [])
    gain_column, note_column = st.columns([1.7, 2.3], gap="medium", vertical_alignment="bottom")
    gain = read_control(gain_column.segmented_control(prose.text(NAME, "Gain label"), GAIN_CHOICES, key=state.YOUR_DATA_GAIN,
                                                      required=True,
                                                      format_func=lambda g: prose.text(NAME, "Gain choice", gain=g,
                                                                                       formula=metrics.GAIN_FORMULAS[g])),
                        GAIN_CHOICES[0], GAIN_CHOICES)
    try:
        model.check_gain_fits(qrels, gain)
    except model.TrecFormatError as err:
        st.warning(prose.section(NAME, "Gain too large"), icon="⚠️")
        st.code(str(err), language=None, wrap_lines=True)
        gain = "linear"
    who = prose.section(NAME, "Gain linear" if gain == "linear" else "Gain exponential")
    note_column.caption(prose.text(NAME, "Gain note", gain=gain, formula=metrics.GAIN_FORMULAS[gain], who=who))
    level, judged_only = _trec_options(qrels)
    return k, [f for f in FAMILIES if f in families], gain, level, judged_only  # the table's columns in a fixed order


def _trec_options(qrels: model.Qrels) -> tuple[int, bool]:
    """trec_eval's -l (the lowest grade that counts as relevant) and -J (judged documents only), each explained."""
    top_grade = max(1, int(qrels.grade.max()) if qrels.grade.size else 1)
    st.session_state.setdefault(state.YOUR_DATA_LEVEL, 1)
    if st.session_state[state.YOUR_DATA_LEVEL] > top_grade:  # a level left from files with higher grades
        st.session_state[state.YOUR_DATA_LEVEL] = 1
    st.session_state.setdefault(state.YOUR_DATA_JUDGED_ONLY, False)
    level_column, judged_column = st.columns(2, gap="medium")
    with level_column:
        level = int(read_control(st.number_input(prose.text(NAME, "Level label"), min_value=1, max_value=top_grade,
                                                 step=1, key=state.YOUR_DATA_LEVEL), 1))
        st.caption(prose.text(NAME, "Level note", level=level))
    with judged_column:
        judged_only = bool(read_control(st.toggle(prose.text(NAME, "Judged only label"),
                                                  key=state.YOUR_DATA_JUDGED_ONLY), False))
        st.caption(prose.section(NAME, "Judged only note"))
    differ = registry.spec("differ")
    st.page_link(registry.page_for(differ), label=prose.section(NAME, "Options link"), icon=differ.icon)
    return level, judged_only


def _summary(loaded: upload_flow.LoadedPair, judged: model.JudgedRun, qrels: model.Qrels, values: dict[str, np.ndarray],
             gain: str) -> None:
    st.subheader(prose.text(NAME, "Results heading"))
    qrels_format, run_format = (loaded.read(kind).understood.format.upper() for kind in KINDS)
    formats = (qrels_format if qrels_format == run_format
               else prose.text(NAME, "Two formats", qrels=qrels_format, run=run_format))
    st.caption(prose.text(NAME, "Files shown", qrels=literal(loaded.qrels["name"]), judgments=f"{len(qrels.line):,}",
                          run=literal(loaded.run["name"]), results=f"{judged.queries.qidx.size:,}", formats=formats))
    show_trailing_note(loaded.parsed_run(), loaded.run["name"])
    _understood(loaded)
    names = list(values)
    means = st.container(key="your-data-means")
    cards = [column for row in range(0, len(names) + 1, CARDS_PER_ROW)
             for column in means.columns(CARDS_PER_ROW, gap="small")][:len(names) + 1]
    cards[0].metric(prose.text(NAME, "Queries evaluated"), f"{len(judged.qids):,}")
    for column, name in zip(cards[1:], names):
        column.metric(mean_name(name, gain), fmt(aggregate(name, values[name])),
                      help=prose.section(NAME, "GMAP help") if aggregation(name) == GEOMETRIC_MEAN else
                      prose.text(NAME, "Mean help", measure=shown_name(name, gain)))
    skipped = judged.skipped
    with st.container(border=True):
        st.markdown(prose.text(NAME, "Counts", evaluated=f"{len(judged.qids):,}",
                               qrels_only=f"{skipped['qrels_only']:,}", run_only=f"{skipped['run_only']:,}"))
        st.caption(prose.section(NAME, "Skip reason"))
        empty = int((metrics.num_relevant(judged.queries) == 0).sum())
        if empty:
            st.caption(prose.text(NAME, "No relevant", count=f"{empty:,}"))
        if judged.qrels_only or judged.run_only:
            with st.expander(prose.section(NAME, "Skipped list")):
                reasons = ([prose.section(NAME, "Reason qrels only")] * len(judged.qrels_only)
                           + [prose.section(NAME, "Reason run only")] * len(judged.run_only))
                skipped_ids = [*judged.qrels_only, *judged.run_only]
                st.dataframe(pd.DataFrame({QUERY_COLUMN: skipped_ids,
                                           prose.text(NAME, "Column why skipped"): reasons}),
                             hide_index=True, width="stretch", height=min(38 + 35 * len(reasons), 300))


def _understood(loaded: upload_flow.LoadedPair) -> None:
    """What the readers understood of each file: its format, the columns or keys read, and its first rows."""
    with st.expander(prose.text(NAME, "Understood heading"), icon="🔍"):
        for kind, column in zip(KINDS, st.columns(2, gap="large")):
            seen = loaded.read(kind).understood
            with column:
                st.markdown(prose.text(NAME, "Understood file", kind=kind, format=seen.format.upper(),
                                       fields=literal(_read_as(seen))))
                notes = [prose.section(NAME, "Understood order")] if seen.scores_from_order else []
                if seen.merged_chunks:
                    notes.append(prose.text(NAME, "Understood merged", merged=f"{seen.merged_chunks:,}"))
                if notes:
                    st.caption(" ".join(notes))
                st.dataframe(pd.DataFrame(seen.preview, columns=[
                    prose.text(NAME, "Column query"), prose.text(NAME, "Understood docid"),
                    prose.text(NAME, f"Understood value {kind}")]), hide_index=True, width="stretch")


def _read_as(seen: readers.Understood) -> str:
    """The columns of a table, or the keys of JSON records (role = key), or, for TREC, "by position"."""
    if seen.columns:
        return ", ".join(seen.columns)
    if seen.fields:
        return ", ".join(f"{role} = {key}" for role, key in dataclasses.asdict(seen.fields).items() if key)
    return prose.section(NAME, "Understood positions")


def show_trailing_note(parsed: model.Run, name: str) -> None:
    """Say how many lines of a run had text after the tag, which the reader ignored (nothing when none did)."""
    if parsed.trailing_lines:
        st.caption(prose.text(NAME, "Trailing fields", count=f"{parsed.trailing_lines:,}", run=literal(name)))


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


def _per_query(judged: model.JudgedRun, values: dict[str, np.ndarray], families: list[str], k: int, gain: str,
               files) -> None:
    table = per_query_table(judged, values, k)
    shown = shown_rows(table, next(iter(values)), TABLE_ROWS)
    tab_table, tab_spread, tab_k = st.tabs([prose.text(NAME, "Tab table"), prose.text(NAME, "Tab distribution"),
                                            prose.text(NAME, "Tab by k")])
    with tab_table:
        st.caption(prose.section(NAME, "Table intro"))
        if len(shown) < len(table):
            st.caption(prose.text(NAME, "Table rows shown", shown=f"{len(shown):,}", total=f"{len(table):,}",
                                  measure=shown_name(next(iter(values)), gain)))
        config = {name: st.column_config.NumberColumn(shown_name(name, gain), format="%.3f") for name in values}
        config[NOTE_COLUMN] = st.column_config.TextColumn(width=note_width(chart_scale()))
        with st.container(key="your-data-table"):  # a CSS class for browser tests
            # a click on a row's box or on any of its cells opens that query; "—" where no relevant document
            # was returned (the column stays numeric, so it sorts by rank); the note comes second, so it is
            # on screen without scrolling sideways however many measures are chosen
            st.dataframe(shown, key=state.YOUR_DATA_TABLE,
                         on_select=functools.partial(_select_row, tuple(shown[QUERY_COLUMN])),
                         selection_mode=("single-row", "single-cell"), hide_index=True, width="stretch",
                         height=min(38 + 35 * len(shown), 420), column_config=config,
                         column_order=shown_order(shown), placeholder=prose.section(NAME, "Cell none"))
        st.download_button(prose.text(NAME, "Download table"), functools.partial(export.table_csv, table),
                           file_name="per_query.csv",
                           mime="text/csv", key=state.YOUR_DATA_DOWNLOAD, on_click="ignore", icon="⬇️")
    with tab_spread:
        st.caption(prose.section(NAME, "Distribution intro"))
        if st.session_state.get(state.YOUR_DATA_SHOWN_MEASURE) not in families:
            st.session_state[state.YOUR_DATA_SHOWN_MEASURE] = families[0]
        family = read_control(st.segmented_control(prose.text(NAME, "Distribution measure"), families, key=state.YOUR_DATA_SHOWN_MEASURE,
                                                   required=True,
                                                   format_func=lambda f: shown_name(measure_names([f], k)[0], gain)),
                              families[0], families)
        shown = measure_names([family], k)[0]
        show_chart(charts.per_query_distribution, values[shown], metric=shown_name(shown, gain),
                   key="your_data.distribution")
    with tab_k:
        st.caption(prose.section(NAME, "By k intro"))
        depth = int(judged.queries.rank.max()) if judged.queries.rank.size else 1
        ks = curve_ks(k, depth)
        recall, hit_rate = _curves(files, ks, judged)
        show_chart(charts.metric_by_k, ks, {prose.text(NAME, "Curve recall"): recall,
                                            prose.text(NAME, "Curve hit rate"): hit_rate},
                   metric=prose.text(NAME, "Curve axis"), current_k=k, step=len(ks) == ks[-1], key="your_data.by_k")


# ----------------------------------------------------------------------------
# One query in the ranking editor ("what if")
# ----------------------------------------------------------------------------

def editor_key(files, q: int, level: int = 1, judged_only: bool = False) -> str:
    """The editor key of evaluated query q of this pair of files, under the page's options (its own items, so its
    own key; the options' part is left out at their defaults, trec_eval's)."""
    options = "" if (level, judged_only) == (1, False) else f".l{level}{'J' if judged_only else ''}"
    return f"{state.YOUR_DATA_EDITOR}.{hashlib.sha256(repr(files).encode()).hexdigest()[:12]}{options}.{q}"


def query_pool(judged: model.JudgedRun, q: int) -> tuple[list[EditorItem], list[str], list[str], dict]:
    """The editor's items for query q: the run's top POOL, then up to TRAY_MAX relevant judged docs not returned.

    Returns (items, default order, tray, facts), facts holding the counts the page reports.
    """
    ranking = judged.ranking(q)
    grades = judged.grades(q)
    returned = {doc for doc, _, _ in ranking}
    top = ranking[:POOL]
    missing = sorted(((d, g) for d, g in grades.items() if d not in returned), key=lambda dg: -dg[1])
    level = judged.queries.relevance_level
    relevant_missing = [(d, g) for d, g in missing if g >= level]
    tray = relevant_missing[:TRAY_MAX]
    items = [_item(doc, f"{doc} · score {score:g}", grades.get(doc)) for doc, score, _ in top]
    items += [_item(doc, doc, g) for doc, g in tray]
    facts = {"relevant": sum(1 for g in grades.values() if g >= level), "returned": len(ranking),
             "missing": len(relevant_missing), "shown": len(tray), "more": len(relevant_missing) - len(tray),
             "non_relevant_missing": len(missing) - len(relevant_missing)}
    return items, [doc for doc, _, _ in top], [doc for doc, _ in tray], facts


def _item(doc: str, title: str, grade: int | None) -> EditorItem:
    """An editor item; a grade beyond GRADE_LIMITS is named in the title instead (it keeps its value)."""
    lo, hi = GRADE_LIMITS
    if grade is not None and not lo <= grade <= hi:
        return EditorItem(doc, f"{title} · grade {grade}", None)
    return EditorItem(doc, title, grade)


def what_if_values(judged: model.JudgedRun, q: int, order, edited_grades: dict[str, int], names, gain: str):
    """The measures of query q with the editor's order on top (positions beyond POOL as in the run).

    ``edited_grades`` are the editor's grades (a learner's change included);
    every other judged document of the query (and one whose grade the editor
    cannot show) keeps its grade, so Recall's denominator and nDCG's ideal
    still see all of them.
    """
    ranking = judged.ranking(q)
    judged_grades = {**judged.grades(q), **edited_grades}
    rest = [doc for doc, _, _ in ranking[POOL:]]
    grades = [judged_grades.get(doc, 0) for doc in [*order, *rest]]
    qs = metrics.with_relevance_level(metrics.from_rankings([grades], [list(judged_grades.values())]),
                                      judged.queries.relevance_level)
    return {name: float(v[0]) for name, v in evaluate(qs, names, gain).items()}


def query_scoreboard(judged: model.JudgedRun, q: int, items: list[EditorItem], names, gain: str) -> Scoreboard | None:
    """The editor's live scoreboard for query q: the page's measures, counting the run below the editor's list
    and the judged documents outside it (as :func:`what_if_values` does). None when an item's grade is beyond
    what the editor shows (it keeps its value there, which the editor's state cannot say)."""
    grades = judged.grades(q)
    if any(i.grade is None and i.id in grades for i in items):
        return None
    in_editor = {i.id for i in items}
    tail = [grades.get(doc, 0) for doc, _, _ in judged.ranking(q)[POOL:]]
    extra = [g for doc, g in grades.items() if doc not in in_editor]
    return Scoreboard(names, [shown_name(name, gain) for name in names], gain=gain, tail=tail, extra_judged=extra,
                      relevance_level=judged.queries.relevance_level)


def _query_picker(column, judged: model.JudgedRun) -> str | None:
    """A select box of the query ids; past SELECT_OPTIONS (every id sent on every run), a box for the id."""
    qids = judged.qids
    if len(qids) <= SELECT_OPTIONS:
        return column.selectbox(prose.text(NAME, "Query label"), qids, key=state.YOUR_DATA_QUERY,
                                help=prose.text(NAME, "Query help"))
    typed = column.text_input(prose.text(NAME, "Query id"), key=state.YOUR_DATA_QUERY,
                              help=prose.text(NAME, "Query id help", n=f"{len(qids):,}"))
    if typed not in judged.query_index:
        column.caption(prose.text(NAME, "Query id unknown", typed=literal(typed), first=literal(qids[0])))
    return typed


def _reset(key: str, order: list[str], tray: list[str]) -> None:
    st.session_state.pop(key, None)  # the items' own grades again, not the learner's
    set_editor_state(key, order, tray=tray)


@st.fragment
def _query_view(judged: model.JudgedRun, values: dict[str, np.ndarray], names: tuple[str, ...], k: int, gain: str,
                view: tuple) -> None:
    st.subheader(prose.section(NAME, "Query heading"))
    st.markdown(prose.text(NAME, "Query intro", pool=POOL))
    chosen = st.session_state.get(state.YOUR_DATA_QUERY)
    if chosen is None or (len(judged.qids) <= SELECT_OPTIONS and chosen not in judged.query_index):
        st.session_state[state.YOUR_DATA_QUERY] = judged.qids[0]  # a typed id that is unknown stays, noted
    pick, _ = st.columns([2, 3], gap="large")
    qid = read_control(_query_picker(pick, judged), judged.qids[0], judged.query_index)
    q = judged.query_index[qid]
    items, order, tray, facts = query_pool(judged, q)
    key = editor_key(view[0], q, *view[1:])
    lines = [prose.text(NAME, "Query facts", relevant=facts["relevant"], returned=facts["returned"],
                        missing=facts["missing"])]
    if facts["missing"]:
        lines.append(prose.text(NAME, "Tray note", shown=facts["shown"]))
    if facts["more"]:
        lines.append(prose.text(NAME, "Tray more", more=facts["more"]))
    if facts["non_relevant_missing"]:
        lines.append(prose.text(NAME, "Tray non-relevant", count=facts["non_relevant_missing"]))
    if facts["returned"] > POOL:
        lines.append(prose.text(NAME, "Rest below", start=POOL + 1, end=facts["returned"], pool=POOL))
    grades = [i.grade for i in items if i.grade is not None]
    grade_range = (min([0, *grades]), max([2, *grades]))
    left_out = [n for n in names if parse_measure(n).family in NEEDS_JUDGED_MARKS]
    if left_out:
        lines.append(prose.text(NAME, "Editor leaves out", names=", ".join(left_out)))
    names = tuple(n for n in names if n not in left_out)
    left, right = st.columns([3, 2], gap="large")
    with left:
        current = ranking_editor(items, key=key, default_order=order, k=k if k <= POOL else None, tray=True,
                                 editable_grades=True, grade_range=grade_range, scale=chart_scale(),
                                 label=prose.text(NAME, "Editor label", qid=qid, n=len(order)),
                                 scoreboard=query_scoreboard(judged, q, items, names, gain) if names else None)
    after = what_if_values(judged, q, current.order, dict(current.grades), names, gain)
    before = {name: float(values[name][q]) for name in names}
    changes = describe_change(before, after)
    with right, st.container(key="your-data-what-if"):
        for change in changes:
            st.metric(shown_name(change.name, gain), fmt(change.after),
                      delta=signed(change.delta, minus="-") if change.moved else None,  # "-": st.metric shows a fall
                      help=prose.text(NAME, "What-if help", before=fmt(change.before)))
        moved = [c.text() for c in changes if c.moved]
        if moved:
            st.info(prose.text(NAME, "What changed", changes="; ".join(moved)), icon="🔀")
        else:
            st.caption(prose.section(NAME, "Unchanged"))
        st.button(prose.section(NAME, "Reset"), key=state.YOUR_DATA_RESET, on_click=_reset, args=(key, order, tray),
                  icon="↩️", disabled=(current.order == tuple(order) and current.tray == tuple(tray)
                                       and dict(current.grades) == {i.id: i.grade for i in items
                                                                    if i.grade is not None}))
        st.caption(" ".join(lines))


def _compare_link() -> None:
    """Comparing runs has a page of its own, on these judgments: say so, with a link."""
    st.subheader(prose.text(NAME, "Compare heading"))
    compare_runs = registry.spec("compare_runs")
    text, link = st.columns([3, 1], vertical_alignment="center")
    text.markdown(prose.section(NAME, "Compare link intro"))
    link.page_link(registry.page_for(compare_runs), label=compare_runs.title, icon=compare_runs.icon)


# ----------------------------------------------------------------------------
# The page
# ----------------------------------------------------------------------------

def render() -> None:
    st.title(prose.section(NAME, "Title"))
    st.markdown(prose.section(NAME, "Intro"))
    loaded, _ = _files_section()
    if loaded is None:
        return
    qrels = loaded.parsed_qrels()
    st.divider()
    k, families, gain, level, judged_only = _settings(qrels)
    names = measure_names(families, k)
    if not names:
        st.info(prose.section(NAME, "No measure"), icon="☝️")
        return
    view = (loaded.key, level, judged_only)  # the files as the options read them: the caches' key
    judged = _adjusted(loaded.key, level, judged_only, loaded.judged())
    values = _evaluate(view, names, gain, judged)
    st.divider()
    _summary(loaded, judged, qrels, values, gain)
    show_diagnosis(_diagnosis(loaded.key, k, names, gain, level, loaded),
                   openable=judged.query_index, open_query=_open_query, key=state.YOUR_DATA_DIAGNOSIS)
    _per_query(judged, values, families, k, gain, view)
    st.divider()
    _query_view(judged, values, names, k, gain, view)
    st.divider()
    _compare_link()


if __name__ == "__main__":
    render()
