"""Uploads at workshop scale: many learners with the same files share one parsed copy; distinct files are bounded.

The "your data" page parses an uploaded file in ``lessons.your_data._read``
(``st.cache_resource``, keyed by the file's SHA-256, kind and name, never by
its bytes) and joins a pair in ``_judge``. These tests count the parser's
calls (``components.tabular.read_qrels``/``read_run``, wrapped) and follow
the parsed objects by identity and by weak reference:

- 20 sessions (20 AppTest runs, each with its own session state and its own
  copy of the uploaded bytes, as 20 uploads would be) going through the
  page's own data path (``receive`` → ``current_files`` → ``loaded_judged``)
  parse each file once, hold the same parsed objects, keep no parsed data in
  session state, and parse nothing again on a rerun;
- 20 sessions uploading at the same moment (threads) still parse once;
- more distinct files than the cache's ``max_entries`` leave at most
  ``max_entries`` parsed copies alive.
"""
from __future__ import annotations

import gc
import hashlib
import threading
import time
import weakref

import pytest
from streamlit.testing.v1 import AppTest

from components import metrics, state, tabular, trec
from lessons import your_data

LEARNERS = 20
QUERIES = 5


def qrels_file(variant: int = 0) -> bytes:
    return "".join(f"q{q} 0 d{q}-{d} {(d + variant) % 3}\n"
                   for q in range(1, QUERIES + 1) for d in range(8)).encode()


def run_file(variant: int = 0) -> bytes:
    return "".join(f"q{q} Q0 d{q}-{d} {d + 1} {10 - d + variant / 100:.2f} run{variant}\n"
                   for q in range(1, QUERIES + 1) for d in range(10)).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def max_entries(cached) -> int:
    """The ``max_entries`` an ``st.cache_resource`` function was declared with (None: unbounded)."""
    return cached._info.max_entries


CACHES = (your_data._read, your_data._judge)


@pytest.fixture
def parses(monkeypatch):
    """Calls of the page's parsers, per kind, on emptied caches (emptied again afterwards)."""
    counts = {"qrels": 0, "run": 0}

    def counting(kind, reader):
        def read(*args, **kwargs):
            counts[kind] += 1
            return reader(*args, **kwargs)
        return read

    monkeypatch.setattr(tabular, "read_qrels", counting("qrels", tabular.read_qrels))
    monkeypatch.setattr(tabular, "read_run", counting("run", tabular.read_run))
    for cached in CACHES:
        cached.clear()
    yield counts
    for cached in CACHES:
        cached.clear()


def learner(qrels: bytes, run: bytes) -> None:
    """One learner's session: upload both files once (as the uploaders' callback does), then the page's reads."""
    import streamlit as st

    from components import state
    from lessons import your_data

    if state.YOUR_DATA_QRELS not in st.session_state:
        your_data.receive("qrels", "qrels.txt", qrels)
        your_data.receive("run", "run.txt", run)
    loaded, failed = your_data.current_files()
    assert failed is None and loaded is not None
    loaded_qrels = loaded["qrels"]
    st.session_state["test.ids"] = (
        id(your_data.loaded_judged(loaded)),
        id(your_data._read("qrels", loaded_qrels["sha256"], loaded_qrels["name"], loaded_qrels["data"])),
    )


PARSED = (trec.Qrels, trec.Run, trec.JudgedRun, metrics.QuerySet)


def parsed_inside(value, depth: int = 0) -> list:
    """Parsed objects (or their arrays) reachable from a session-state value through dicts, lists and tuples."""
    if isinstance(value, PARSED):
        return [value]
    if depth > 4:
        return []
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

    judged = your_data._judge((sha(qrels), "qrels.txt", sha(run), "run.txt"), qrels, run)
    parsed_qrels = your_data._read("qrels", sha(qrels), "qrels.txt", qrels)
    assert {at.session_state["test.ids"] for at in sessions} == {(id(judged), id(parsed_qrels))}, \
        "every session holds the one cached parsed copy"
    assert parses == {"qrels": 1, "run": 1}

    for at in sessions:
        held = {key: at.session_state[key] for key in at.session_state}
        assert [k for k, v in held.items() if parsed_inside(v)] == [], "no parsed data is copied into a session"
        loaded, received = held[state.YOUR_DATA_LOADED], held[state.YOUR_DATA_QRELS]
        assert loaded["qrels"]["data"] is received["data"], "a session keeps one copy of its raw bytes"

    for at in sessions[:5]:  # moving k or a measure reruns the page: nothing is parsed again
        at.run()
        assert not at.exception
    assert parses == {"qrels": 1, "run": 1}


def test_twenty_simultaneous_uploads_of_one_file_parse_it_once(parses, monkeypatch):
    run = run_file()
    slow_reader = tabular.read_run

    def slow(*args, **kwargs):  # a large file: the others arrive while it is being parsed
        time.sleep(0.3)
        return slow_reader(*args, **kwargs)

    monkeypatch.setattr(tabular, "read_run", slow)
    start = threading.Barrier(LEARNERS)
    results = [None] * LEARNERS

    def upload(i: int) -> None:
        data = bytes(bytearray(run))
        start.wait()
        results[i] = your_data._read("run", sha(data), "run.txt", data)

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(LEARNERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert parses["run"] == 1
    assert all(r is results[0] for r in results) and results[0] is not None


def test_distinct_files_are_bounded_by_max_entries(parses):
    bound = max_entries(your_data._read)
    assert bound is not None and bound >= 2, "parsed uploads must sit in a bounded cache (max_entries)"
    files = [(f"run{i}.txt", run_file(i + 1)) for i in range(2 * bound + 1)]
    alive = [weakref.ref(your_data._read("run", sha(data), name, data)) for name, data in files]
    assert parses["run"] == len(files)
    gc.collect()
    kept = [i for i, ref in enumerate(alive) if ref() is not None]
    assert kept == list(range(len(files) - bound, len(files))), \
        f"only the {bound} most recent parsed files stay in memory, not {len(kept)}"

    name, data = files[-1]  # a kept file is served from the cache ...
    assert your_data._read("run", sha(data), name, data) is alive[-1]()
    assert parses["run"] == len(files)
    name, data = files[0]  # ... an evicted one is parsed again
    your_data._read("run", sha(data), name, data)
    assert parses["run"] == len(files) + 1


def test_joined_pairs_are_bounded_by_max_entries(parses):
    bound = max_entries(your_data._judge)
    assert bound is not None and bound >= 1, "joined uploads must sit in a bounded cache (max_entries)"
    pairs = [(qrels_file(i), run_file(i)) for i in range(2 * bound + 1)]
    alive = []
    for i, (qrels, run) in enumerate(pairs):
        key = (sha(qrels), f"q{i}.txt", sha(run), f"r{i}.txt")
        alive.append(weakref.ref(your_data._judge(key, qrels, run)))
    gc.collect()
    kept = sum(ref() is not None for ref in alive)
    assert 1 <= kept <= bound
