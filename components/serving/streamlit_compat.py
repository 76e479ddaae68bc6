"""Every use Rankwise makes of Streamlit's internals, in one module that checks the version when imported.

Streamlit is pinned (``streamlit==1.67.0`` in pyproject.toml). Nothing below is Streamlit's public API, so this
module refuses to load under any other version than :data:`TESTED`: a new Streamlit is tried against the tests
(tests/unit/test_streamlit_compat.py, the live class's and the uploads' page and browser tests) before the pin and
:data:`TESTED` move together. What it relies on, and for whom:

- **the script run context** (``get_script_run_ctx``, ``ThreadState``): a session's id; the page its runs go to
  (``pages_manager.get_pages()`` at ``page_script_hash``); the widget keys a run has built
  (``shared.widget_user_keys_this_run``); whether a run reruns fragments only, and which (``fragment_ids_this_run``:
  a lesson editor's own fragment run alone tells its section to follow, :mod:`components.ui.answer_first`);
  the fragment a thread runs in; and a rerun of chosen fragments, queued as ``st.rerun`` queues one
  (``script_requests.request_rerun(RerunData(...))``). A live class's follower takes most changes by rerunning one
  lesson fragment (a few tens of milliseconds, where a whole page costs about a hundred, and thirty followers rerun at
  once: ``benchmarks/concurrent_sessions.py --class``), and Streamlit's public ``st.rerun("fragment")`` reruns other
  fragments only from a widget callback, not from the follower's poll (:mod:`components.live_class`);
- **the upload store** (``MemoryUploadedFileManager``): its ``file_storage`` read under its private ``_lock``, its
  ``add_file`` wrapped, its ``remove_file`` called (:mod:`components.serving.upload_store` bounds it and sweeps its
  strays; the "Your data" upload flow drops what it took);
- **the queue of messages to a browser** (``ForwardMsgQueue.clear``), made to keep the answers that give a dropped
  file its upload URL (:func:`keep_upload_urls`, for the upload flow);
- **the Components v2 manager** (``get_bidi_component_manager``, ``ComponentManifest``): a component's folder
  declared as served (:func:`serve_folder`, for :mod:`components.ranking_editor.served`);
- **a setting**, not code: ``global.minCachedMessageSize = 1e12`` in .streamlit/config.toml sends no message as a
  reference to the browser's cache: with a fragment that reruns every second (a live class's poll), the browser
  can drop a cached element between asking for a run and receiving it, and Streamlit 1.67 then drops the
  connection ("Cached ForwardMsg MISS", found by the live class's browser test).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

import streamlit as st
from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

TESTED = "1.67.0"  # the Streamlit whose internals this module reads (pyproject.toml pins it)

if st.__version__ != TESTED:
    raise ImportError(f"Rankwise relies on Streamlit {TESTED}'s internals (components/serving/streamlit_compat.py), "
                      f"and Streamlit {st.__version__} is installed: pip install streamlit=={TESTED}")


# --- the script run context ------------------------------------------------------------------------------------

def session_id() -> str | None:
    """This session's id (None outside a run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.session_id


def current_fragment() -> str | None:
    """The id of the fragment whose body this code runs in (None: outside every fragment, or no run)."""
    try:
        return ThreadState.get().fragment_id
    except RuntimeError:  # no script run on this thread
        return None


def widget_keys_built() -> frozenset[str]:
    """The keys of the widgets this run has built so far (empty outside a run)."""
    ctx = get_script_run_ctx()
    return frozenset() if ctx is None else ctx.shared.widget_user_keys_this_run.snapshot()


def in_fragment_run() -> bool:
    """Whether this run reruns fragments only (Streamlit's ``fragment_ids_this_run``), not the whole page."""
    ctx = get_script_run_ctx()
    return ctx is not None and bool(ctx.fragment_ids_this_run)


def fragment_runs_alone() -> bool:
    """Whether the fragment whose body this code runs in was itself asked to rerun (a widget inside it), not drawn
    by a run of its page or of a fragment around it."""
    ctx, fragment = get_script_run_ctx(), current_fragment()
    return ctx is not None and fragment is not None and fragment in (ctx.fragment_ids_this_run or ())


def rerun_fragments(fragment_ids: Iterable[str]) -> bool:
    """Queue a rerun of these fragments only, on this page; Streamlit starts it when the current run ends.

    False (nothing queued) outside a run or when the session is stopping.
    """
    ctx = get_script_run_ctx()
    ids = list(fragment_ids)
    if ctx is None or ctx.script_requests is None or not ids:
        return False
    return ctx.script_requests.request_rerun(RerunData(
        query_string=ctx.query_string, page_script_hash=ctx.page_script_hash, fragment_id_queue=ids,
        is_fragment_scoped_rerun=True, cached_message_hashes=ctx.cached_message_hashes,
        context_info=ctx.context_info))


def session_page() -> str | None:
    """The url path of the page this session's runs go to now, as Streamlit's run context holds it.

    Not always the page the last full run drew: a fragment rerun that the browser asked for just before a page
    switch still names the old page, and Streamlit (1.67) takes the session back to it when it runs that
    fragment (the new page's body is then cleared, or the old page comes back at the next run). The live
    class's timers check it and go back to the page they belong on (found by its browser test).
    """
    ctx = get_script_run_ctx()
    info = None if ctx is None else ctx.pages_manager.get_pages().get(ctx.page_script_hash)
    return None if info is None else info.get("url_pathname")


# --- the upload store ------------------------------------------------------------------------------------------

def upload_manager():
    """Streamlit's store of uploaded files, as this script run holds it (None outside a run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.uploaded_file_mgr


def watch_uploads(store, added: Callable[[str, str], None]) -> bool:
    """Call ``added(session id, file id)`` after ``store`` takes each file (its ``add_file`` wrapped). False, and
    nothing changed, when the store is not the in-memory one whose files :func:`uploads_held` reads, or is
    watched already."""
    if getattr(store, "_rankwise_watched", False) or not hasattr(store, "file_storage"):
        return False
    original = store.add_file

    def add_file(session_id, file, *args, **kwargs):
        original(session_id, file, *args, **kwargs)
        added(session_id, file.file_id)

    store.add_file = add_file
    store._rankwise_watched = True
    return True


def uploads_held(store, session_id: str | None = None) -> dict[str, dict[str, int]]:
    """Session id -> file id -> size in bytes of the files ``store`` holds (of ``session_id`` only, when given),
    read under its lock; {} for a store that is not the in-memory one."""
    if not hasattr(store, "file_storage"):
        return {}
    with store._lock:
        sessions = [session_id] if session_id is not None else list(store.file_storage)
        return {sid: {file_id: len(rec.data) for file_id, rec in store.file_storage.get(sid, {}).items()}
                for sid in sessions}


def upload_name(store, session_id: str, file_id: str) -> str | None:
    """The name the browser gave a file ``store`` holds (None when it holds no such file)."""
    if not hasattr(store, "file_storage"):
        return None
    with store._lock:
        record = store.file_storage.get(session_id, {}).get(file_id)
        return None if record is None else record.name


def remove_upload(store, session_id: str, file_id: str) -> None:
    """Drop one file from ``store``, as an uploader's remove button does."""
    store.remove_file(session_id, file_id)


def release_uploads(file_ids: Iterable[str]) -> None:
    """Drop these files of this session from the upload store (nothing outside a run)."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return
    for file_id in file_ids:
        remove_upload(ctx.uploaded_file_mgr, ctx.session_id, file_id)


# --- the queue of messages to a browser ------------------------------------------------------------------------

def keep_upload_urls(queue_class=ForwardMsgQueue) -> None:
    """Make the queue of messages to a browser keep the server's answers giving a dropped file its upload URL
    (``file_urls_response``) when a script run starts. Idempotent.

    Streamlit 1.67 empties that queue of everything but a run's lifecycle messages at the start of every run
    (``ForwardMsgQueue.clear(retain_lifecycle_msgs=True)``), answers included: an answer not yet sent when a
    run starts (files dropped in quick succession, each taken with a rerun) never reaches the browser, which
    waits for it for ever, and the file is lost without a word. Streamlit keeps toasts the same way.
    """
    original = queue_class.clear
    if getattr(original, "keeps_upload_urls", False):
        return

    def clear(self, retain_lifecycle_msgs: bool = False, fragment_ids_this_run=None) -> None:
        answers = [m for m in self._queue if m.WhichOneof("type") == "file_urls_response"] \
            if retain_lifecycle_msgs else []
        original(self, retain_lifecycle_msgs, fragment_ids_this_run)
        self._queue.extend(answers)  # after the deltas' index map was reset: these are no deltas

    clear.keeps_upload_urls = True  # type: ignore[attr-defined]
    queue_class.clear = clear


# --- Components v2 ---------------------------------------------------------------------------------------------

def serve_folder(component: str, package: str, folder: Path) -> None:
    """Declare ``folder`` as the asset directory of the component ``component`` (``package.<folder's name>``) on
    the running Streamlit runtime, as an installed component package's manifest would (once per runtime)."""
    manager = get_bidi_component_manager()
    if manager.get_component_asset_root(component) is None:
        manifest = ComponentManifest(name=package, version="1",
                                     components=[ComponentConfig(name=folder.name, asset_dir=".")])
        manager.register_from_manifest(manifest, package_root=folder)
