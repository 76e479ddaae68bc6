"""Streamlit's upload store, kept to what the pages asked for: bounded per session, and emptied of strays.

Streamlit keeps every file PUT to ``/_stcore/upload_file/<session>/<file>``
in memory (its ``MemoryUploadedFileManager``) until the session ends. A
client holding its own session id and XSRF token can PUT files that no page
asked for, as many as it likes, past the session's upload cap and past
"Forget my files". The pages take an upload on the rerun that follows it and
then drop it from the store (:mod:`lessons.your_data`), so a file still
there after :data:`GRACE_SECONDS` is one no page took. This module:

- :func:`guard` wraps the store's ``add_file``: it notes when each file
  arrived, and when a session's files then number more than
  :data:`MAX_FILES` or weigh more than the session's upload cap
  (``RANKWISE_SESSION_UPLOAD_MB``), the oldest go at once, their names kept
  for the session's page to say so (:func:`take_trimmed`): the browser still
  lists them;
- :func:`sweep` removes every file older than :data:`GRACE_SECONDS`: for one
  session at the end of each of its runs (app.py), and for every session
  every :data:`SWEEP_SECONDS` from a background thread that :func:`guard`
  starts, for uploads that no rerun follows. The same thread collects the
  garbage of sessions that ended (app.py hands it
  :func:`components.serving.uploads.collect_released`).

It reaches Streamlit's store through :mod:`components.serving.streamlit_compat`
only (tests/unit/test_upload_store.py checks it against the real store).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from components.serving import settings, streamlit_compat

# A session's uploads waiting at once. A page takes each upload on the rerun after it, but files dropped together
# arrive together: "Compare runs" takes up to nine runs in one drop (and names those past its slots), and the qrels
# and run uploaders may be busy too. With 4, the fifth of six runs dropped quickly pushed out the first still waiting,
# which was then lost without a word. The session's byte cap bounds the memory; this bounds the count of tiny files.
MAX_FILES = 32
GRACE_SECONDS = 30.0  # an upload no rerun has taken within this time is a stray
SWEEP_SECONDS = 10.0  # how often the background sweep looks at every session

_LOG = logging.getLogger(__name__)
_arrived: dict[tuple[str, str], float] = {}  # (session id, file id) -> when the file came in (monotonic)
_arrived_lock = threading.Lock()
_trimmed: dict[str, list[tuple[float, str]]] = {}  # session id -> (when, name) of files let go for its caps, untold
_sweeper_started = False


def guard(manager, clock: Callable[[], float] = time.monotonic, background: bool = True,
          every_sweep: Callable[[], None] | None = None) -> None:
    """Bound ``manager`` (Streamlit's upload store) per session; start the background sweep once. Idempotent.

    ``every_sweep`` is called after each background sweep (app.py passes
    :func:`components.serving.uploads.collect_released`).
    """
    global _sweeper_started

    def arrived(session_id: str, file_id: str) -> None:
        with _arrived_lock:
            _arrived[(session_id, file_id)] = now = clock()
        _trim(manager, session_id, now)

    if not streamlit_compat.watch_uploads(manager, arrived):
        return
    if background and not _sweeper_started:
        _sweeper_started = True
        threading.Thread(target=_sweep_forever, args=(manager, clock, every_sweep), name="rankwise-upload-sweep",
                         daemon=True).start()


def _files(manager, session_id: str) -> list[tuple[str, int]]:
    """(file id, size) of the session's files in the store, oldest first."""
    files = list(streamlit_compat.uploads_held(manager, session_id).get(session_id, {}).items())
    with _arrived_lock:
        return sorted(files, key=lambda f: _arrived.get((session_id, f[0]), 0.0))


def _remove(manager, session_id: str, file_id: str) -> None:
    streamlit_compat.remove_upload(manager, session_id, file_id)
    with _arrived_lock:
        _arrived.pop((session_id, file_id), None)


def _trim(manager, session_id: str, now: float) -> None:
    """Drop the session's oldest files until at most MAX_FILES are left, within the session's upload cap."""
    files = _files(manager, session_id)
    total = sum(size for _, size in files)
    cap = settings.LIMITS.session_upload_bytes
    while files and (len(files) > MAX_FILES or total > cap):
        file_id, size = files.pop(0)
        name = streamlit_compat.upload_name(manager, session_id, file_id)
        _remove(manager, session_id, file_id)
        with _arrived_lock:
            _trimmed.setdefault(session_id, []).append((now, name or file_id))
        total -= size


def take_trimmed(session_id: str | None) -> list[str]:
    """The names of this session's uploads let go for its caps since the last call (the page says so, once)."""
    with _arrived_lock:
        return [name for _, name in _trimmed.pop(session_id, [])] if session_id is not None else []


def sweep(manager, session_id: str | None = None, clock: Callable[[], float] = time.monotonic) -> int:
    """Remove the files older than GRACE_SECONDS (of one session, or of all); return how many went."""
    held = streamlit_compat.uploads_held(manager, session_id)
    now, removed = clock(), 0
    for sid in held:
        for file_id, _ in _files(manager, sid):
            with _arrived_lock:
                arrived = _arrived.setdefault((sid, file_id), now)  # one that came in before guard(): from now
            if now - arrived >= GRACE_SECONDS:
                _remove(manager, sid, file_id)
                removed += 1
    if session_id is None:  # the background sweep also forgets files Streamlit removed (their session ended)
        live = {(sid, file_id) for sid, files in streamlit_compat.uploads_held(manager).items() for file_id in files}
        with _arrived_lock:
            for gone in [key for key in _arrived if key not in live]:
                del _arrived[gone]
            for sid in [sid for sid, names in _trimmed.items() if now - names[-1][0] >= GRACE_SECONDS]:
                del _trimmed[sid]  # no run took the news: its session has ended
    return removed


def _sweep_forever(manager, clock: Callable[[], float], every_sweep: Callable[[], None] | None) -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        sweep_round(manager, clock, every_sweep)


def sweep_round(manager, clock: Callable[[], float] = time.monotonic,
                every_sweep: Callable[[], None] | None = None) -> None:
    """One round of the background thread: :func:`sweep` every session, then ``every_sweep``. An error is logged
    and the thread goes on: stopped by one, it would never release an upload again."""
    try:
        sweep(manager, clock=clock)
        if every_sweep is not None:
            every_sweep()
    except Exception:
        _LOG.exception("the upload sweep failed; it runs again in %s s", SWEEP_SECONDS)
