"""Your data: upload qrels and a run, see trec_eval's numbers per query, open any query in the ranking editor.

The files arrive through :mod:`components.ui.upload_flow` (received once,
read and joined once for the whole server, the pair on show kept as a
:class:`~components.ui.upload_flow.LoadedPair`); this page composes what it
shows from the pair: the measures (:mod:`components.course.measure_choices`),
the cached evaluation (:mod:`components.ui.evaluated_pair`), the summary
(:mod:`components.ui.pair_summary`), the per-query tabs
(:mod:`components.ui.per_query_view`) and one query in the ranking editor
(:mod:`components.ui.what_if_view`).

Text from the files (ids, file names, the reader's messages, which quote
lines) is never rendered as HTML or Markdown: it goes into dataframes,
select boxes, ``st.code`` blocks, the editor (which sets ``textContent``) or
Markdown code spans built by :func:`components.engine.formatting.literal`.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from components.course import prose
from components.course.measure_choices import (
    CHOICES,
    DEFAULT_CHOICES,
    DEFAULT_K,
    GAIN_CHOICES,
    MAX_K,
    in_order,
    measure_names,
)
from components.course.samples import OTHER_FORMATS, SAMPLE_QRELS, SAMPLE_RUN
from components.engine import metrics, model
from components.engine.formatting import literal
from components.formats import chunks, json_formats, tabular
from components.serving import uploads
from components.ui import evaluated_pair, registry, state, upload_flow
from components.ui.diagnosis_view import show_diagnosis
from components.ui.pair_summary import show_summary
from components.ui.per_query_view import show_per_query
from components.ui.what_if_view import open_query, show_query_view
from components.ui.widgets import read_control

NAME = "your_data"
KINDS = upload_flow.KINDS
UPLOADERS = {"qrels": state.YOUR_DATA_QRELS_UPLOADER, "run": state.YOUR_DATA_RUN_UPLOADER}


def _use_samples(qrels: Path = SAMPLE_QRELS, run: Path = SAMPLE_RUN) -> None:
    upload_flow.receive("qrels", qrels.name, qrels.read_bytes())
    upload_flow.receive("run", run.name, run.read_bytes())
    upload_flow.empty_uploaders()


def _files_section() -> tuple[upload_flow.LoadedPair | None, upload_flow.FailedPair | None]:
    if st.session_state.get(state.YOUR_DATA_FILES_GONE):
        st.warning(prose.section(NAME, "Files gone"), icon="🔌")
    st.markdown(prose.section(NAME, "Uploads"))
    upload_flow.hide_uploader_size_line()
    st.caption(prose.text(NAME, "Limit", limit=uploads.size_text(upload_flow.file_limit()),
                          cap=uploads.size_text(uploads.session_cap())))
    upload_round = upload_flow.upload_round()
    trimmed = st.container()  # above both uploaders: the news of either
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
                st.caption(prose.text(NAME, "Received", name=literal(received.name),
                                      size=uploads.size_text(len(received.data))))
    with trimmed:
        upload_flow.show_trimmed()
    buttons = st.columns(3)
    buttons[0].button(prose.text(NAME, "Use samples"), key=state.YOUR_DATA_SAMPLES, on_click=_use_samples, icon="🧪",
                      width="stretch")
    for column, (name, files) in zip(buttons[1:], OTHER_FORMATS.items()):
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
    upload_flow.sync_chunks((separator.strip() or chunks.DEFAULT_SEPARATOR) if on else None)


def _field_mapping(kind: str, err: json_formats.FieldsError) -> None:
    """The reader could not tell which keys of the JSON records (or of the objects in a record's list of documents)
    hold what: the learner says, from the keys seen."""
    roles = upload_flow.FIELD_ROLES if err.record is None else upload_flow.OBJECT_ROLES
    heading = (prose.text(NAME, "Fields heading", kind=kind) if err.record is None else
               prose.text(NAME, "Object fields heading", kind=kind, docs=literal(err.record.docs)))
    st.markdown(heading)
    keys = list(err.keys)
    columns = st.columns(len(roles))
    for column, role in zip(columns, roles):
        optional = role == upload_flow.OPTIONAL_ROLE
        column.selectbox(prose.text(NAME, f"Field {role} {kind}"), [None, *keys] if optional else keys,
                         key=upload_flow.field_key(kind, role), index=0 if optional else None,
                         format_func=lambda key: prose.section(NAME, "Field none") if key is None else key)
    st.button(prose.text(NAME, "Fields read"), key=f"{state.YOUR_DATA_FIELDS}.{kind}.read",
              on_click=upload_flow.map_fields, args=(kind, err.record), type="primary", icon="🔁")


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
    st.session_state.setdefault(state.YOUR_DATA_MEASURES, list(DEFAULT_CHOICES))
    st.session_state.setdefault(state.YOUR_DATA_GAIN, "linear")
    left, middle = st.columns([1, 3], gap="medium")
    k = int(read_control(left.number_input(prose.text(NAME, "K label"), min_value=1, max_value=MAX_K, step=1,
                                           key=state.YOUR_DATA_K, help=prose.section(NAME, "K help")), DEFAULT_K))
    # labelled "R@k", not "R@10": a label that changes with k made the browser drop the choice on a later run
    choices = read_control(middle.multiselect(prose.text(NAME, "Measures label"), list(CHOICES), key=state.YOUR_DATA_MEASURES,
                                              format_func=CHOICES.get, help=prose.section(NAME, "Measures help")), [])
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
    return k, in_order(choices), gain, level, judged_only  # the table's columns in a fixed order


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


def _compare_link() -> None:
    """Comparing runs has a page of its own, on these judgments: say so, with a link."""
    st.subheader(prose.text(NAME, "Compare heading"))
    compare_runs = registry.spec("compare_runs")
    text, link = st.columns([3, 1], vertical_alignment="center")
    text.markdown(prose.section(NAME, "Compare link intro"))
    link.page_link(registry.page_for(compare_runs), label=compare_runs.title, icon=compare_runs.icon)


def render() -> None:
    st.title(prose.section(NAME, "Title"))
    st.markdown(prose.section(NAME, "Intro"))
    loaded, _ = _files_section()
    if loaded is None:
        return
    qrels = loaded.parsed_qrels()
    st.divider()
    k, choices, gain, level, judged_only = _settings(qrels)
    names = measure_names(choices, k)
    if not names:
        st.info(prose.section(NAME, "No measure"), icon="☝️")
        return
    view = (loaded.key, level, judged_only)  # the files as the options read them: the caches' key
    judged = evaluated_pair.adjusted(loaded.key, level, judged_only, loaded.judged())
    values = evaluated_pair.evaluated(view, names, gain, judged)
    st.divider()
    show_summary(loaded, judged, qrels, values, gain)
    show_diagnosis(evaluated_pair.diagnosed(loaded.key, k, names, gain, level, loaded),
                   openable=judged.query_index, open_query=open_query, key=state.YOUR_DATA_DIAGNOSIS)
    show_per_query(judged, values, choices, k, gain, view)
    st.divider()
    show_query_view(judged, values, names, k, gain, view)
    st.divider()
    _compare_link()


if __name__ == "__main__":
    render()
