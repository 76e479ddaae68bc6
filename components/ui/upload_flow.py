"""The "Your data" page's upload flow: files in, one pair read and joined once, the pair the page shows.

Data flow (one direction):

- the uploaders and the "use the sample files" buttons hand the bytes to
  :func:`receive`, the only writer of ``state.YOUR_DATA_QRELS``,
  ``state.YOUR_DATA_RUN`` and the other runs' slots ``state.YOUR_DATA_OTHER_RUNS``
  (a page test sets those keys itself), each an
  :class:`~components.serving.uploads.UploadRecord`; it refuses a file that would take the session past its
  upload cap (:func:`components.serving.uploads.refusal`), keeping what came before;
- the chunk option (:func:`sync_chunks`) and a learner's mapping of a JSON
  file's keys (:func:`map_fields`) replace a received record by the same
  bytes with other reading options, so the pair's key changes;
- :func:`current_files` reads a new pair once (a status box shows the steps),
  through :mod:`components.serving.uploads`: parsed and joined once per distinct
  file for the whole server, in a cache bounded in bytes, so that moving k
  or changing a measure never reads a file again; a session holds no
  parsed copy, only the :class:`~components.serving.shared_cache.Holder` that keeps
  the shared one while its files are on show;
- a pair that reads cleanly becomes ``state.YOUR_DATA_LOADED`` (a :class:`LoadedPair`),
  what the page shows; a pair that fails leaves it as it was and is kept, with
  the reader's message, in ``state.YOUR_DATA_FAILED`` (a :class:`FailedPair`).

Files dropped in quick succession (ten runs 0.1–0.3 s apart left the page on
the run before the last in 2 of 16 trials, without a word) were lost three ways:

- an uploader was replaced by an empty one (a new key) as soon as a file was
  taken from it, and the browser abandons an upload into an uploader it
  removes: a file dropped in the moment before the empty one showed never
  reached the server. Now an uploader keeps its key when a file is taken
  from it (:func:`take_upload`, :func:`take_uploads`) and goes on showing
  the file's name, as the page's "Received" line does; only loading the
  samples and forgetting the files empty the uploaders (:func:`empty_uploaders`);
- the server's answer telling the browser where to upload a dropped file
  could be thrown away unsent when a run started (each take starts one):
  :func:`components.serving.streamlit_compat.keep_upload_urls`, applied when this module is imported;
- the upload store let only four files wait at once, so the fifth of six runs
  dropped together pushed out the first still waiting
  (:data:`components.serving.upload_store.MAX_FILES`).

A page keeps its uploaders in place too: an element that comes and goes above
one (a status box, a run's line) moves it, and the browser then draws it
afresh, abandoning its uploads (lessons/compare_runs.py puts both in containers).

The status lines come from lessons/text/your_data.md, the page's own text.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, cast

import streamlit as st

from components.course import prose
from components.engine import model
from components.engine.formatting import literal
from components.formats import json_formats, readers
from components.serving import streamlit_compat, upload_store, uploads
from components.serving.shared_cache import Holder
from components.ui import browser_store, state

TEXT = "your_data"
TAB_STORAGE_KEY = "rankwise.your_data.v1"  # this tab's sessionStorage entry: {"files": true} while files are on show
KINDS = ("qrels", "run")
OTHER_RUNS = tuple(key.rsplit(".", 1)[1] for key in state.YOUR_DATA_OTHER_RUNS)  # "run_b" to "run_j": the slots
RECEIVED = {"qrels": state.YOUR_DATA_QRELS, "run": state.YOUR_DATA_RUN, **dict(zip(OTHER_RUNS, state.YOUR_DATA_OTHER_RUNS))}
FIELD_ROLES = ("qid", "docs", "value")  # what a learner maps in a JSON record: query id, documents, grade or score
OBJECT_ROLES = ("doc_id", "value")  # and in a record's list of objects: each one's document id, grade or score
OPTIONAL_ROLE = "value"  # without grades: 1 each; without scores: the list's order

streamlit_compat.keep_upload_urls()  # a dropped file's upload URL survives a run's start (see the docstring)


@dataclass(frozen=True)
class Refusal:
    """Why a received file was not taken: its name and the values of the page's "Upload refused" message."""

    file: str
    size: str
    total: str
    cap: str


@dataclass(frozen=True)
class LoadedPair:
    """A qrels and run pair that read cleanly: what the page shows.

    ``holder`` keeps the shared parsed copies alive while the pair is on show.
    """

    qrels: uploads.UploadRecord
    run: uploads.UploadRecord
    holder: Holder

    @property
    def key(self) -> uploads.PairKey:
        """What identifies the pair as read (:func:`components.serving.uploads.pair_key`): the caches' key."""
        return uploads.pair_key(self.qrels, self.run)

    def judged(self) -> model.JudgedRun:
        """The pair, joined (from the shared cache; read again only if the cache let it go)."""
        return uploads.judge_files(self.qrels, self.run, self.holder)

    def read(self, kind: str) -> readers.Read:
        """The qrels or run file as read, and what was understood of it (shared, like :meth:`judged`)."""
        return uploads.read(kind, self.qrels if kind == "qrels" else self.run, self.holder)

    def parsed_qrels(self) -> model.Qrels:
        """The qrels file, parsed."""
        return cast(model.Qrels, self.read("qrels").parsed)

    def parsed_run(self) -> model.Run:
        """The run file, parsed."""
        return cast(model.Run, self.read("run").parsed)


@dataclass(frozen=True)
class FailedPair:
    """The latest pair, which did not read: the reader's message (quoting the line), and its kind."""

    key: uploads.PairKey
    message: str
    no_common_query: bool
    unmapped: tuple[str, json_formats.FieldsError] | None = None  # (kind, error): JSON keys the reader could not guess


_NO_SIZE_LINE = '<style>[data-testid="stFileUploaderDropzoneInstructions"] { display: none; }</style>'


def hide_uploader_size_line() -> None:
    """Hide the line Streamlit writes in every uploader on this page ("300MB per file").

    That line says MB, meaning MiB on Windows and 1,000,000 bytes elsewhere;
    the page states the limit itself (:func:`file_limit`), in KiB and MiB like
    every size it shows.
    """
    st.html(_NO_SIZE_LINE)


def file_limit() -> int:
    """The size in bytes up to which an uploader takes a file in every browser: ``server.maxUploadSize`` MB.

    Streamlit's server counts that setting in MiB, and so does its uploader
    on Windows; on Linux and macOS the uploader counts 1 MB as 1,000,000
    bytes and refuses a larger file first. So this is the smaller, the
    decimal figure; the page shows it in MiB like every other size.
    """
    return int(st.get_option("server.maxUploadSize")) * 1_000_000


def refused(kind: str) -> Refusal | None:
    """Why the latest file of this kind was not taken, if it was not."""
    return (st.session_state.get(state.YOUR_DATA_REFUSED) or {}).get(kind)


def receive(kind: str, name: str, data: bytes) -> bool:
    """Hand a received file to the page: the one way uploaded bytes reach session state.

    ``kind`` is "qrels", "run" or another run's slot (:data:`OTHER_RUNS`). A file that would take the session
    past its upload cap (:func:`components.serving.uploads.refusal`) is refused: the
    files received before stay, and the :class:`Refusal` is kept for the page
    to show. Returns whether the file was taken.
    """
    if kind not in RECEIVED:
        raise ValueError(f"kind must be one of {sorted(RECEIVED)}, got {kind!r}")
    refusals = dict(st.session_state.get(state.YOUR_DATA_REFUSED) or {})
    refusals.pop(kind, None)
    why = uploads.refusal(len(data), held(replacing=kind))
    if why is not None:  # the setting's name stays out of the learner's message (docs/hosting.md names it)
        refusals[kind] = Refusal(file=uploads.shown_name(name), size=why["size"], total=why["total"], cap=why["cap"])
    else:
        st.session_state[RECEIVED[kind]] = uploads.upload_record(name, data)
        st.session_state[state.YOUR_DATA_FILES_GONE] = False
    st.session_state[state.YOUR_DATA_REFUSED] = refusals
    return why is None


def free_slot() -> str | None:
    """The first slot for another run that holds none (None: all :data:`OTHER_RUNS` are taken)."""
    return next((kind for kind in OTHER_RUNS if st.session_state.get(RECEIVED[kind]) is None), None)


def other_runs() -> dict[str, uploads.UploadRecord]:
    """The other runs received, by slot, in slot order."""
    return {kind: record for kind in OTHER_RUNS if (record := st.session_state.get(RECEIVED[kind])) is not None}


def remove(kind: str) -> None:
    """Let go of the run in this slot."""
    st.session_state.pop(RECEIVED[kind], None)


def sync_chunks(separator: str | None) -> None:
    """Both received files are read with the chunk option as set (a file received later too): a record whose
    option differs is replaced, so the pair's key changes and it is read again."""
    for kind in KINDS:
        record: uploads.UploadRecord | None = st.session_state.get(RECEIVED[kind])
        if record is not None and record.reading.chunks != separator:
            st.session_state[RECEIVED[kind]] = record.read_with(dataclasses.replace(record.reading, chunks=separator))


def field_key(kind: str, role: str) -> str:
    """The key of the select box where the learner says which key of a JSON file of this kind holds ``role``."""
    return f"{state.YOUR_DATA_FIELDS}.{kind}.{role}"


def map_fields(kind: str, known: json_formats.Fields | None) -> None:
    """The learner's mapping of a JSON file's keys (chosen in the :func:`field_key` select boxes): that file is
    read again with it. ``known``: the record's keys already known, when the mapping is of the objects in its list
    of documents (:data:`OBJECT_ROLES`)."""
    roles = FIELD_ROLES if known is None else OBJECT_ROLES
    chosen: dict[str, Any] = {role: st.session_state.get(field_key(kind, role)) for role in roles}  # keys, or None
    record: uploads.UploadRecord | None = st.session_state.get(RECEIVED[kind])
    if record is None or not all(chosen[role] for role in roles if role != OPTIONAL_ROLE):
        return
    value = {"grade" if kind == KINDS[0] else "score": chosen[OPTIONAL_ROLE]}
    fields = (json_formats.Fields(chosen["qid"], chosen["docs"], **value) if known is None else
              dataclasses.replace(known, doc_id=chosen["doc_id"], **value))
    st.session_state[RECEIVED[kind]] = record.read_with(dataclasses.replace(record.reading, fields=fields))


def take_uploads(uploaded: list, key: str) -> None:
    """Receive each new file of a many-file uploader into the next free slot (:func:`free_slot`), once; the
    names of those that found none (all taken) are kept for :func:`no_room`. Then, as :func:`take_upload`, the
    files leave Streamlit's upload store and the page runs again."""
    _note_trimmed()
    seen = key + state.YOUR_DATA_SEEN_SUFFIX
    fresh = [f for f in uploaded or [] if f.file_id not in st.session_state.get(seen, ())]
    if not fresh:
        return
    st.session_state[seen] = tuple(f.file_id for f in uploaded)
    left_out = []
    for file in fresh:
        slot = free_slot()
        if slot is None:
            left_out.append(uploads.shown_name(file.name))
        else:
            receive(slot, file.name, file.getvalue())
    st.session_state[state.COMPARE_NO_ROOM] = tuple(left_out)
    _done_with([f.file_id for f in fresh])


def no_room() -> tuple[str, ...]:
    """The files of the latest upload that found no free slot."""
    return tuple(st.session_state.get(state.COMPARE_NO_ROOM, ()))


def take_upload(kind: str, uploaded, key: str) -> None:
    """Receive the uploader's file once (its file_id tells a new upload from the same one rerun).

    Then the file leaves Streamlit's upload store at once (taken, the session
    holds the bytes; refused, nobody does), so no second copy stays behind,
    and the page runs again. The uploader stays: the next file dropped into
    it is taken the same way, however soon (see the module's docstring).
    """
    _note_trimmed()
    seen = key + state.YOUR_DATA_SEEN_SUFFIX
    if uploaded is not None and st.session_state.get(seen) != uploaded.file_id:
        st.session_state[seen] = uploaded.file_id
        receive(kind, uploaded.name, uploaded.getvalue())
        _done_with([uploaded.file_id])


def _note_trimmed() -> None:
    """Keep the names of this session's uploads that Streamlit's store let go for the session's caps (files
    dropped at once past its upload cap: :mod:`components.serving.upload_store`), for :func:`show_trimmed`."""
    names = upload_store.take_trimmed(streamlit_compat.session_id())
    if names:
        st.session_state[state.UPLOADS_TRIMMED] = tuple(uploads.shown_name(name) for name in names)


def show_trimmed() -> None:
    """Say which uploads were not kept because, dropped together, they passed the session's upload cap; once (the
    browser still lists them)."""
    names = st.session_state.pop(state.UPLOADS_TRIMMED, ())
    if names:
        st.error(prose.text(TEXT, "Uploads trimmed", files=", ".join(map(literal, names)),
                            cap=uploads.size_text(uploads.session_cap())), icon="🧳")


def _done_with(file_ids) -> None:
    """After receiving: the files leave Streamlit's upload store and the page runs again (the uploaders stay)."""
    streamlit_compat.release_uploads(file_ids)
    st.rerun()


def upload_round() -> int:
    """A number in every uploader's key: a new one empties them all."""
    return int(st.session_state.get(state.YOUR_DATA_UPLOAD_ROUND, 0))


def empty_uploaders() -> None:
    """New uploader keys: every uploader shows empty (the samples were loaded, or the files forgotten)."""
    st.session_state[state.YOUR_DATA_UPLOAD_ROUND] = upload_round() + 1


def forget_files() -> None:
    """Drop every file this session holds (received, loaded, failed, refused, in the uploaders); empty them."""
    for key in (*RECEIVED.values(), state.YOUR_DATA_LOADED, state.YOUR_DATA_FAILED, state.YOUR_DATA_REFUSED,
                state.COMPARE_HOLDERS):
        st.session_state.pop(key, None)  # deleted, not set to None: Streamlit keeps a set key's old value a run longer
    seen = [key for key in st.session_state if str(key).endswith(state.YOUR_DATA_SEEN_SUFFIX)]
    ids = [st.session_state.pop(key) for key in seen]  # a file_id, or a many-file uploader's tuple of them
    streamlit_compat.release_uploads([i for held_ids in ids for i in (held_ids if isinstance(held_ids, tuple) else (held_ids,))])
    empty_uploaders()


def held(replacing: str | None = None) -> int:
    """The bytes of uploaded files this session holds (each file once): received, and the pair on show.

    ``replacing`` leaves out the received file of that kind (a new one is about to take its place).
    """
    loaded: LoadedPair | None = st.session_state.get(state.YOUR_DATA_LOADED)
    records: list[uploads.UploadRecord | None] = [st.session_state.get(RECEIVED[kind]) for kind in RECEIVED
                                                  if kind != replacing]
    if loaded is not None:
        records += [loaded.qrels, loaded.run]
    return uploads.held_bytes(records)


def _on_tab_read() -> None:
    """The tab's stored flag arrived: files were on show here, and this session has none? Then the server lost them."""
    stored = browser_store.loaded(state.YOUR_DATA_TAB_STORE)
    st.session_state[state.YOUR_DATA_TAB_SYNCED] = True
    if isinstance(stored, dict) and stored.get("files") is True and held() == 0:
        st.session_state[state.YOUR_DATA_FILES_GONE] = True


def remember_in_tab(loaded: LoadedPair | None) -> None:
    """Keep in the tab's sessionStorage whether files are on show (read back by a new session: :func:`_on_tab_read`)."""
    browser_store.browser_store(key=state.YOUR_DATA_TAB_STORE, storage_key=TAB_STORAGE_KEY, storage="session",
                                synced=bool(st.session_state.get(state.YOUR_DATA_TAB_SYNCED)),
                                value={"files": loaded is not None}, on_loaded=_on_tab_read)


def _attempt(qrels: uploads.UploadRecord, run: uploads.UploadRecord) -> None:
    """Read a new pair, showing each step; on success it becomes what the page shows."""
    holder = Holder()  # claims the parsed files for this session once they are on show; dropped if they fail
    with st.status(prose.text(TEXT, "Reading"), expanded=False) as status:
        try:
            for kind, record in (("qrels", qrels), ("run", run)):
                parsed = uploads.read_file(kind, record, holder)
                status.write(prose.text(TEXT, "Read file", kind=kind, lines=f"{len(parsed.line):,}",
                                        queries=f"{len(parsed.qids):,}"))
            judged = uploads.judge_files(qrels, run, holder)
            status.write(prose.text(TEXT, "Read joined", queries=f"{len(judged.qids):,}"))
        except (ValueError, MemoryError) as err:  # TrecFormatError is a ValueError
            unmapped = (kind, err) if isinstance(err, json_formats.FieldsError) else None  # kind: the file that failed
            st.session_state[state.YOUR_DATA_FAILED] = FailedPair(uploads.pair_key(qrels, run),
                                                                  str(err) or type(err).__name__,
                                                                  isinstance(err, model.NoCommonQueryError), unmapped)
            status.update(label=prose.text(TEXT, "Read failed"), state="error")
            return
        status.update(label=prose.text(TEXT, "Read done"), state="complete")
    st.session_state[state.YOUR_DATA_LOADED] = LoadedPair(qrels, run, holder)
    st.session_state[state.YOUR_DATA_FAILED] = None


def current_files() -> tuple[LoadedPair | None, FailedPair | None]:
    """(the loaded pair or None, the failed latest pair or None), reading a new pair once."""
    qrels, run = (st.session_state.get(RECEIVED[kind]) for kind in KINDS)
    latest = None
    if qrels is not None and run is not None:
        latest = uploads.pair_key(qrels, run)
        loaded, failed = st.session_state.get(state.YOUR_DATA_LOADED), st.session_state.get(state.YOUR_DATA_FAILED)
        if (loaded is None or loaded.key != latest) and (failed is None or failed.key != latest):
            _attempt(qrels, run)
    loaded = st.session_state.get(state.YOUR_DATA_LOADED)
    failed = st.session_state.get(state.YOUR_DATA_FAILED)
    return loaded, failed if failed is not None and failed.key == latest else None
