"""Uploads at workshop scale: one parsed copy per distinct file, kept while claimed, a byte budget, a session cap.

The "your data" page parses and joins uploaded files through
``components.serving.uploads.read_file``/``judge_files``: one shared cache for the
server (``uploads.PARSED``), keyed by the files' SHA-256, kind and name (never
by their bytes), holding a value while a session's holder claims it, and
bounded in bytes. These tests count the parser's calls
(``components.formats.readers.read``, wrapped) and follow the
parsed objects by identity and by weak reference:

- 20 sessions (20 AppTest runs, each with its own session state and its own
  copy of the uploaded bytes, as 20 uploads would be) going through the
  page's own data path (``receive`` → ``current_files`` → ``loaded_judged``)
  parse each file once, hold the same parsed objects, keep no parsed data in
  session state, and parse nothing again on a rerun;
- 20 sessions uploading at the same moment (threads) still parse once;
- when the sessions end (or forget their files), the parsed copy goes;
- more distinct files than the budget holds leave only the most recent
  parsed copies alive, within the budget; the parsed arrays are read-only;
- a session keeps the uploader's own bytes (no second copy), and a file
  that would take it past its cap is refused with the page's message while
  the files before stay.
"""
from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import threading
import weakref

import pytest
from streamlit.testing.v1 import AppTest

from components.engine import metrics, model
from components.formats import readers
from components.serving import settings, uploads
from components.serving.shared_cache import Holder, SharedCache, nbytes
from components.serving.uploads import upload_record
from components.ui import state

LEARNERS = 20
HOLDER = Holder()  # a claim that outlives every test
QUERIES = 5


def qrels_file(variant: int = 0) -> bytes:
    return "".join(f"q{q} 0 d{q}-{d} {(d + variant) % 3}\n"
                   for q in range(1, QUERIES + 1) for d in range(8)).encode()


def run_file(variant: int = 0) -> bytes:
    return "".join(f"q{q} Q0 d{q}-{d} {d + 1} {10 - d + variant / 100:.2f} run{variant}\n"
                   for q in range(1, QUERIES + 1) for d in range(10)).encode()


@pytest.fixture
def parses(monkeypatch):
    """Calls of the page's parsers, per kind, on emptied caches (emptied again afterwards)."""
    counts = {"qrels": 0, "run": 0}

    reader = readers.read

    def counting(source, kind, *args, **kwargs):
        counts[kind] += 1
        return reader(source, kind, *args, **kwargs)

    monkeypatch.setattr(readers, "read", counting)
    uploads.PARSED.clear()
    yield counts
    uploads.PARSED.clear()


def learner(qrels: bytes, run: bytes) -> None:
    """One learner's session: upload both files once (as the uploaders' callback does), then the page's reads."""
    import streamlit as st

    from components.ui import state, upload_flow

    if state.YOUR_DATA_QRELS not in st.session_state:
        upload_flow.receive("qrels", "qrels.txt", qrels)
        upload_flow.receive("run", "run.txt", run)
    loaded, failed = upload_flow.current_files()
    assert failed is None and loaded is not None
    st.session_state["test.ids"] = (id(loaded.judged()), id(loaded.parsed_qrels()))


PARSED = (model.Qrels, model.Run, model.JudgedRun, metrics.QuerySet)


def parsed_inside(value, depth: int = 0) -> list:
    """Parsed objects reachable from a session-state value through dataclasses, dicts, lists and tuples."""
    if isinstance(value, PARSED):
        return [value]
    if depth > 4:
        return []
    if dataclasses.is_dataclass(value):
        return [p for f in dataclasses.fields(value) for p in parsed_inside(getattr(value, f.name), depth + 1)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in parsed_inside(v, depth + 1)]
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in parsed_inside(v, depth + 1)]
    return []


def test_twenty_sessions_uploading_the_same_files_hold_one_parsed_copy(parses):
    qrels, run = qrels_file(), run_file()
    sessions = []
    for _ in range(LEARNERS):
        # each learner's upload arrives as its own bytes object, as 20 real uploads would
        at = AppTest.from_function(learner, args=(bytes(bytearray(qrels)), bytes(bytearray(run))),
                                   default_timeout=30)
        at.run()
        assert not at.exception, at.exception
        sessions.append(at)
    assert parses == {"qrels": 1, "run": 1}, "each file is parsed once for all 20 sessions"

    judged = uploads.judge_files(upload_record("qrels.txt", qrels), upload_record("run.txt", run), HOLDER)
    parsed_qrels = uploads.read_file("qrels", upload_record("qrels.txt", qrels), HOLDER)
    assert {at.session_state["test.ids"] for at in sessions} == {(id(judged), id(parsed_qrels))}, \
        "every session holds the one cached parsed copy"
    assert parses == {"qrels": 1, "run": 1}

    for at in sessions:
        held = {key: at.session_state[key] for key in at.session_state}
        assert [k for k, v in held.items() if parsed_inside(v)] == [], "no parsed data is copied into a session"
        loaded, received = held[state.YOUR_DATA_LOADED], held[state.YOUR_DATA_QRELS]
        assert loaded.qrels.data is received.data, "a session keeps one copy of its raw bytes"

    for at in sessions[:5]:  # moving k or a measure reruns the page: nothing is parsed again
        at.run()
        assert not at.exception
    assert parses == {"qrels": 1, "run": 1}


def test_the_parsed_copy_goes_when_the_last_session_holding_it_ends(parses):
    qrels, run = qrels_file(), run_file()
    sessions = [AppTest.from_function(learner, args=(qrels, run), default_timeout=30).run() for _ in range(3)]
    pair = upload_record("qrels.txt", qrels), upload_record("run.txt", run)
    key = uploads.pair_key(*pair)
    judged = weakref.ref(uploads.judge_files(*pair, Holder()))  # a claim that ends at once
    assert ("judge", key) in uploads.PARSED
    sessions.pop().run()  # one session ends (its state, holder and all, is dropped); two still hold the copy
    gc.collect()
    assert judged() is not None and ("judge", key) in uploads.PARSED
    sessions.clear()
    gc.collect()
    assert judged() is None, "no session holds it: the parsed copy is gone"
    assert len(uploads.PARSED) == 0


def test_twenty_simultaneous_uploads_of_one_file_parse_it_once(parses, monkeypatch):
    run = run_file()
    reader = readers.read
    asked, everyone_asked = [0], threading.Event()
    lock = threading.Lock()

    def slow(*args, **kwargs):  # a large file: every learner asks for it while it is being parsed
        assert everyone_asked.wait(10)
        return reader(*args, **kwargs)

    monkeypatch.setattr(readers, "read", slow)
    results = [None] * LEARNERS

    def upload(i: int) -> None:
        data = bytes(bytearray(run))
        with lock:
            asked[0] += 1
            if asked[0] == LEARNERS:
                everyone_asked.set()
        results[i] = uploads.read_file("run", upload_record("run.txt", data), HOLDER)

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(LEARNERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert parses["run"] == 1
    assert all(r is results[0] for r in results) and results[0] is not None


def test_distinct_files_are_bounded_by_the_byte_budget(parses, monkeypatch):
    one = nbytes(uploads.read("run", upload_record("probe.txt", run_file(99)), HOLDER))  # what the cache holds
    budget = 3 * one + one // 2  # room for three parsed runs of this size
    monkeypatch.setattr(uploads, "PARSED", SharedCache(budget))
    files = [(f"run{i}.txt", run_file(i + 1)) for i in range(7)]
    alive = [weakref.ref(uploads.read_file("run", upload_record(name, data), HOLDER)) for name, data in files]
    assert parses["run"] == len(files) + 1
    gc.collect()
    kept = [i for i, ref in enumerate(alive) if ref() is not None]
    assert kept == [4, 5, 6], f"only the three most recent parsed files stay in memory, not {kept}"
    assert uploads.PARSED.size <= budget

    name, data = files[-1]  # a kept file is served from the cache ...
    assert uploads.read_file("run", upload_record(name, data), HOLDER) is alive[-1]()
    assert parses["run"] == len(files) + 1
    name, data = files[0]  # ... an evicted one is parsed again
    uploads.read_file("run", upload_record(name, data), HOLDER)
    assert parses["run"] == len(files) + 2


def test_the_newest_file_is_kept_even_alone_over_the_budget(parses, monkeypatch):
    monkeypatch.setattr(uploads, "PARSED", SharedCache(1))
    data = run_file()
    first = uploads.read_file("run", upload_record("big.txt", data), HOLDER)
    assert uploads.read_file("run", upload_record("big.txt", data), HOLDER) is first, "no re-parse on every rerun"
    assert parses["run"] == 1 and len(uploads.PARSED) == 1


def test_joined_pairs_share_the_budget(parses, monkeypatch):
    monkeypatch.setattr(uploads, "PARSED", SharedCache(1))  # only the newest value stays
    pairs = [(qrels_file(i), run_file(i)) for i in range(4)]
    alive = []
    for i, (qrels, run) in enumerate(pairs):
        pair = upload_record(f"q{i}.txt", qrels), upload_record(f"r{i}.txt", run)
        alive.append(weakref.ref(uploads.judge_files(*pair, HOLDER)))
    gc.collect()
    assert [ref() is not None for ref in alive] == [False, False, False, True]


def test_shared_parsed_arrays_are_read_only(parses):
    qrels, run = qrels_file(), run_file()
    judged = uploads.judge_files(upload_record("q.txt", qrels), upload_record("r.txt", run), HOLDER)
    parsed_run = uploads.read_file("run", upload_record("r.txt", run), HOLDER)
    for array in (judged.queries.grade, judged.queries.qidx, judged.docids, parsed_run.score, parsed_run.rank):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = array[0]
    assert float(metrics.recall(judged.queries, 5).mean()) >= 0, "the engine only reads them"


def cap_session(qrels: bytes, run: bytes, big: bytes) -> None:
    """A learner who loads a pair, then tries a run that would take the session past its cap."""
    import streamlit as st

    from components.ui import upload_flow
    from lessons import your_data

    if "test.done" not in st.session_state:
        st.session_state["test.done"] = True
        assert upload_flow.receive("qrels", "qrels.txt", qrels)
        assert upload_flow.receive("run", "run.txt", run)
        upload_flow.current_files()
        st.session_state["test.taken"] = upload_flow.receive("run", "huge <b>run</b>.txt", big)
    your_data.render()


def test_a_file_over_the_session_cap_is_refused_and_the_files_before_stay(monkeypatch):
    qrels, run = qrels_file(), run_file()
    big = run_file(7) * 40
    cap = len(qrels) + len(run) + len(big) // 2
    monkeypatch.setattr(settings, "LIMITS", settings.Limits(session_upload_bytes=cap, parsed_cache_bytes=10**9,
                                                            chart_cache_entries=100))
    at = AppTest.from_function(cap_session, args=(qrels, run, big), default_timeout=30).run()
    assert not at.exception, at.exception
    assert at.session_state["test.taken"] is False
    assert at.session_state[state.YOUR_DATA_RUN].name == "run.txt", "the run loaded before stays"
    assert at.session_state[state.YOUR_DATA_LOADED].run.name == "run.txt"
    message = " ".join(e.value for e in at.error)
    assert "` huge <b>run</b>.txt `" in message, "the file's name is shown as a code span, never as HTML"
    assert f"({uploads.size_text(len(big))})" in message and "RANKWISE_SESSION_UPLOAD_MB" not in message
    assert "Forget my files" in message

    at.button(key=state.YOUR_DATA_FORGET).click().run()  # forgetting frees the session's files
    assert not at.exception
    assert state.YOUR_DATA_RUN not in at.session_state and state.YOUR_DATA_LOADED not in at.session_state
    assert not at.error


def test_a_session_keeps_the_uploaders_own_bytes():
    from streamlit.runtime.uploaded_file_manager import UploadedFile, UploadedFileRec

    data = run_file()
    uploaded = UploadedFile(UploadedFileRec(file_id="f", name="run.txt", type="text/plain", data=data), None)
    assert upload_record(uploaded.name, uploaded.getvalue()).data is data
    kept = upload_record("run.txt", data)
    copy = upload_record("run.txt", bytes(bytearray(data)))  # equal to kept, but its own bytes
    assert uploads.held_bytes([kept, kept.read_with(uploads.Reading(chunks="#")), None, copy]) == 2 * len(data)


def test_a_records_key_names_the_file_as_read_and_never_its_bytes():
    data = run_file()
    record = upload_record("run.txt", data)
    chunked = record.read_with(uploads.Reading(chunks="#"))
    assert chunked.data is data, "the same bytes, read otherwise"
    assert chunked.reading == uploads.Reading(chunks="#") and record.reading == uploads.Reading()
    assert record.key == uploads.FileKey(hashlib.sha256(data).hexdigest(), "run.txt", uploads.Reading())
    assert chunked.key != record.key, "read otherwise, the file is another cache entry"
    assert uploads.pair_key(record, record) != uploads.pair_key(record, chunked)
    assert record == upload_record("run.txt", bytes(bytearray(data))), "records compare by their key"
    key = uploads.pair_key(record, chunked)
    assert hash(key) == hash(uploads.pair_key(record, chunked))
    json.dumps(dataclasses.asdict(key))  # what st.cache_resource hashes of a key: text and None, never bytes


def page_with_upload_store() -> None:
    """The "your data" page, then what Streamlit's upload store holds for this session (file names)."""
    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from lessons import your_data

    your_data.render()
    ctx = get_script_run_ctx()
    st.session_state["test.store"] = sorted(rec.name for rec in
                                            ctx.uploaded_file_mgr.file_storage.get(ctx.session_id, {}).values())


def test_refused_and_forgotten_uploads_leave_streamlits_upload_store(monkeypatch):
    monkeypatch.setattr(settings, "LIMITS", settings.Limits(session_upload_bytes=64 * 1024,
                                                            parsed_cache_bytes=10**9, chart_cache_entries=100))
    at = AppTest.from_function(page_with_upload_store, default_timeout=30).run()
    at.button(key=state.YOUR_DATA_SAMPLES).click().run()
    assert not at.exception and at.session_state[state.YOUR_DATA_LOADED] is not None

    big = run_file(3) * 60  # ~200 KiB: over the 64 KiB cap
    at.file_uploader[1].set_value(("big run.txt", big, "text/plain")).run()
    assert not at.exception, at.exception
    assert any("` big run.txt ` (" in e.value and "was not loaded" in e.value for e in at.error)
    assert at.session_state[state.YOUR_DATA_RUN].name == "sample_run.txt", "the samples stay"
    assert at.session_state["test.store"] == [], "the refused file is gone from the upload store"
    assert at.file_uploader[1].value.name == "big run.txt", "the uploader keeps its key and names the file"
    at.file_uploader[1].set_value(None)  # removed from the uploader (AppTest would put it in the store again)

    at.file_uploader[0].set_value(("my qrels.txt", qrels_file(), "text/plain")).run()
    assert at.session_state["test.store"] == [], "a taken file leaves the store too: the session holds its bytes"
    assert at.session_state[state.YOUR_DATA_QRELS].name == "my qrels.txt"
    assert at.file_uploader[0].value.name == "my qrels.txt", "the uploader names the file, as the page does"
    at.button(key=state.YOUR_DATA_FORGET).click().run()
    assert not at.exception
    assert at.session_state["test.store"] == [], "forgetting frees the uploader's copy too"
    assert state.YOUR_DATA_QRELS not in at.session_state and state.YOUR_DATA_LOADED not in at.session_state
