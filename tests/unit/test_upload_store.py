"""Streamlit's upload store holds only what the pages asked for (components/serving/upload_store.py).

Files go in as Streamlit's upload route puts them (``add_file`` on the real
``MemoryUploadedFileManager``, keyword arguments and all); a fake clock
stands in for time.
"""
from __future__ import annotations

import pytest
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from components.serving import settings, upload_store

MIB = 1024 * 1024


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store(monkeypatch):
    monkeypatch.setattr(upload_store, "_trimmed", {})  # the news of files let go: each test's own
    manager, clock = MemoryUploadedFileManager("/_stcore/upload_file"), Clock()
    upload_store.guard(manager, clock=clock, background=False)
    return manager, clock


def put(manager, session: str, file_id: str, size: int) -> None:
    """What the upload route does with a PUT."""
    manager.add_file(session_id=session, file=UploadedFileRec(file_id=file_id, name=f"{file_id}.txt",
                                                               type="text/plain", data=b"x" * size))


def held(manager, session: str) -> list[str]:
    return sorted(manager.file_storage.get(session, {}))


def test_a_flood_of_unasked_uploads_keeps_only_the_newest_few(store):
    manager, clock = store
    for i in range(2000):
        clock.now += 0.001
        put(manager, "s1", f"f{i:04}", 10)
    assert held(manager, "s1") == [f"f{i:04}" for i in range(2000 - upload_store.MAX_FILES, 2000)]


def test_a_quick_drop_of_as_many_runs_as_compare_runs_names_stays_whole(store):
    """Six runs dropped quickly once lost the first: with four files allowed to wait, the fifth pushed it out
    before the page's next run could take it. Every file the pages can take or name from one drop waits."""
    from components.ui import upload_flow

    manager, clock = store
    burst = ["qrels", "run", *upload_flow.OTHER_RUNS, "one more, named as finding no slot"]
    for i, _ in enumerate(burst):
        clock.now += 0.01
        put(manager, "s1", f"f{i:02}", 10_000)
    assert held(manager, "s1") == [f"f{i:02}" for i in range(len(burst))]


def test_a_session_store_stays_within_the_session_cap(store, monkeypatch):
    monkeypatch.setattr(settings, "LIMITS", settings.Limits(session_upload_bytes=120 * MIB,
                                                            parsed_cache_bytes=10**9, chart_cache_entries=100))
    manager, clock = store
    for i in range(8):  # 8 x 50 MiB
        clock.now += 1
        put(manager, "s1", f"big{i}", 50 * MIB)
    assert held(manager, "s1") == ["big6", "big7"]
    assert manager._total_bytes == 100 * MIB
    put(manager, "s2", "other", 10)  # another session is not touched
    assert held(manager, "s2") == ["other"] and held(manager, "s1") == ["big6", "big7"]


def test_files_let_go_for_the_cap_are_named_once_for_the_page(store, monkeypatch):
    """Files dropped together past the session's cap: the oldest went without a word while the browser still listed
    them (session 19's follow-up). Their names wait for the session's next run to say so, once; news no run took
    goes with the sweep."""
    monkeypatch.setattr(settings, "LIMITS", settings.Limits(session_upload_bytes=120 * MIB,
                                                            parsed_cache_bytes=10**9, chart_cache_entries=100))
    manager, clock = store
    for i in range(4):  # 4 x 50 MiB dropped at once: the first two cannot stay beside the last two
        clock.now += 0.01
        put(manager, "s1", f"run{i}", 50 * MIB)
    assert held(manager, "s1") == ["run2", "run3"]
    assert upload_store.take_trimmed("s1") == ["run0.txt", "run1.txt"]
    assert upload_store.take_trimmed("s1") == [] and upload_store.take_trimmed(None) == []
    put(manager, "s2", "huge", 130 * MIB)  # alone over the cap
    clock.now += upload_store.GRACE_SECONDS
    upload_store.sweep(manager, clock=clock)  # no run of s2 took the news: it goes
    assert upload_store.take_trimmed("s2") == []


def test_the_sweep_removes_uploads_no_rerun_took_and_keeps_fresh_ones(store):
    manager, clock = store
    put(manager, "s1", "old", 10)
    put(manager, "s2", "old", 10)
    clock.now += upload_store.GRACE_SECONDS - 1
    put(manager, "s1", "fresh", 10)
    assert upload_store.sweep(manager, "s1", clock=clock) == 0
    clock.now += 1
    assert upload_store.sweep(manager, "s1", clock=clock) == 1, "one session's own sweep"
    assert held(manager, "s1") == ["fresh"] and held(manager, "s2") == ["old"]
    assert upload_store.sweep(manager, clock=clock) == 1, "the background sweep sees every session"
    assert held(manager, "s2") == []
    clock.now += upload_store.GRACE_SECONDS
    upload_store.sweep(manager, clock=clock)
    assert manager.file_storage.get("s1", {}) == {} and manager._total_bytes == 0


def test_guard_is_idempotent(store):
    manager, clock = store
    upload_store.guard(manager, clock=clock, background=False)
    for i in range(upload_store.MAX_FILES + 10):
        put(manager, "s1", f"f{i}", 1)
    assert len(held(manager, "s1")) == upload_store.MAX_FILES


def test_a_failing_sweep_round_is_logged_and_the_next_one_still_sweeps(store, caplog):
    manager, clock = store
    put(manager, "s1", "old", 10)
    clock.now += upload_store.GRACE_SECONDS

    def broken():
        raise RuntimeError("collecting failed")

    upload_store.sweep_round(manager, clock, broken)  # the thread's round: no exception escapes it
    assert "the upload sweep failed" in caplog.text and "collecting failed" in caplog.text
    put(manager, "s1", "stray", 10)
    clock.now += upload_store.GRACE_SECONDS
    upload_store.sweep_round(manager, clock)
    assert held(manager, "s1") == []
