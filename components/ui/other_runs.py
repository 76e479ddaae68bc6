"""The "Compare runs" page's runs: run A (the one loaded on "Your data"), and up to nine other runs, each read
with run A's chunk option, judged against the loaded qrels and listed with a remove button; the uploader that
adds runs and the button that adds the samples' runs B and C."""
from __future__ import annotations

from typing import cast

import streamlit as st

from components.course import prose
from components.course.run_comparison import RUN_LABELS
from components.course.samples import SAMPLE_OTHERS
from components.engine import model
from components.engine.formatting import literal
from components.formats import readers
from components.serving import uploads
from components.serving.shared_cache import Holder
from components.ui import state, upload_flow
from components.ui.pair_summary import show_trailing_note

TEXT = "compare_runs"  # the page whose words these are
YOUR_DATA = "your_data"  # the page that loads the judgments and run A, and whose words this page shares


def add_sample_runs() -> None:
    """Runs B and C of the samples, each into the next free slot (unless a run of that name is there)."""
    names = {record.name for record in upload_flow.other_runs().values()}
    for path in SAMPLE_OTHERS:
        slot = upload_flow.free_slot()
        if path.name not in names and slot is not None:
            upload_flow.receive(slot, path.name, path.read_bytes())


def _holder(slot: str, files: uploads.PairKey) -> Holder:
    """The holder of a slot's pair: a new one (the old pair let go) when the pair changes."""
    holders = st.session_state.setdefault(state.COMPARE_HOLDERS, {})
    held = holders.get(slot)
    if held is None or held[0] != files:
        held = holders[slot] = (files, Holder())
    return held[1]


def _other_runs(loaded: upload_flow.LoadedPair) -> list[tuple[str, uploads.UploadRecord, model.JudgedRun]]:
    """Each other run that reads cleanly, judged against the loaded qrels (read with the first run's chunk
    option): (slot, record, judged). A run that fails shows its message and is left out."""
    runs = []
    for slot, record in upload_flow.other_runs().items():
        try:
            judged = uploads.judge_files(loaded.qrels, _as_read(loaded, record),
                                         _holder(slot, pair_key(loaded, record)))
        except ValueError as err:  # the reader's TrecFormatError, or no query in common with the qrels
            st.error(prose.text(TEXT, "Run error", letter=letter(slot), file=literal(record.name)), icon="🚫")
            st.code(str(err), language=None, wrap_lines=True)
            continue
        show_trailing_note(cast(model.Run, run_read(loaded, slot, record).parsed), record.name)
        runs.append((slot, record, judged))
    return runs


def _as_read(loaded: upload_flow.LoadedPair, record: uploads.UploadRecord) -> uploads.UploadRecord:
    """Another run's record with the reading options it is read with: run A's chunk option, no JSON fields."""
    return record.read_with(uploads.Reading(chunks=loaded.run.reading.chunks))


def pair_key(loaded: upload_flow.LoadedPair, record: uploads.UploadRecord) -> uploads.PairKey:
    """The key of another run's pair with the loaded qrels, the run as read (:func:`_as_read`)."""
    return uploads.pair_key(loaded.qrels, _as_read(loaded, record))


def run_read(loaded: upload_flow.LoadedPair, slot: str, record: uploads.UploadRecord) -> readers.Read:
    """Another run as read (shared while its slot's holder lives)."""
    return uploads.read("run", _as_read(loaded, record), _holder(slot, pair_key(loaded, record)))


def letter(slot: str) -> str:
    """The letter of another run's slot: B for the first."""
    return RUN_LABELS[1 + upload_flow.OTHER_RUNS.index(slot)]


def show_runs(loaded: upload_flow.LoadedPair) -> list[tuple[str, uploads.UploadRecord, model.JudgedRun]]:
    """The runs (A, then each other run that reads cleanly: :func:`_other_runs`), each with a remove button, and
    the uploader that adds runs; returns the other runs.

    The other runs are read and listed in a container above the uploader (filled after it): however many runs
    there are, the uploader keeps its place among the page's elements. A browser that sees it move draws it
    afresh and abandons the uploads it was making: files dropped in quick succession were lost so."""
    st.subheader(prose.text(TEXT, "Runs heading"))
    st.markdown(prose.text(TEXT, "Runs intro", file=literal(loaded.run.name), more=len(upload_flow.OTHER_RUNS)))
    first = loaded.judged()
    st.markdown(prose.text(TEXT, "Run line", letter="A", file=literal(loaded.run.name),
                           queries=f"{len(first.qids):,}"))
    listed = st.container()
    _add_runs()
    with listed:
        others = _other_runs(loaded)
        for slot, record, judged in others:
            line, remove = st.columns([4, 1.4], vertical_alignment="center")
            line.markdown(prose.text(TEXT, "Run line", letter=letter(slot), file=literal(record.name),
                                     queries=f"{len(judged.qids):,}"))
            remove.button(prose.text(TEXT, "Remove"), key=f"{state.COMPARE_REMOVE}.{slot}",
                          on_click=upload_flow.remove, args=(slot,), icon="✖️", width="stretch",
                          help=prose.text(TEXT, "Remove help", letter=letter(slot)))
    return others


def _add_runs() -> None:
    """The uploader of more runs (each file to the next free slot), the samples button, and what was refused."""
    upload_flow.hide_uploader_size_line()
    key = f"{state.COMPARE_UPLOADER}.{upload_flow.upload_round()}"
    upload, samples = st.columns([2, 1], vertical_alignment="top")
    uploaded = upload.file_uploader(prose.text(TEXT, "Uploader"), accept_multiple_files=True, key=key)
    samples.button(prose.text(TEXT, "Add samples"), key=state.COMPARE_SAMPLE_RUNS, on_click=add_sample_runs,
                   icon="🧪", width="stretch")
    upload.caption(prose.text(YOUR_DATA, "Limit", limit=uploads.size_text(upload_flow.file_limit()),
                              cap=uploads.size_text(uploads.session_cap())))
    upload_flow.take_uploads(uploaded, key)
    upload_flow.show_trimmed()
    if upload_flow.no_room():
        st.warning(prose.text(TEXT, "No room", files=", ".join(map(literal, upload_flow.no_room()))), icon="🧳")
    for slot in upload_flow.OTHER_RUNS:
        refused = upload_flow.refused(slot)
        if refused is not None:
            st.error(prose.text(YOUR_DATA, "Upload refused", file=literal(refused.file), size=refused.size,
                                total=refused.total, cap=refused.cap), icon="🧳")
