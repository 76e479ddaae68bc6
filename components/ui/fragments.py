"""What Streamlit's run context knows of a session's page and fragments, for a live class (tested with
Streamlit 1.67; every read of Streamlit's internals the class needs is here).

A follower's session takes most of the class's changes (a new k, an order, a grade) inside one lesson
fragment. Rerunning that fragment alone costs a follower a few tens of milliseconds, where a whole page
costs about a hundred, and thirty followers rerun at once (``benchmarks/concurrent_sessions.py --class``).
Streamlit's public ``st.rerun("key")`` reruns other fragments only from a widget callback, not from the
follower's poll, so this module asks the run context itself, as ``st.rerun`` does:

- :func:`current_fragment` is the id of the fragment this code runs in (None outside one);
- :func:`widget_keys_built` is the widget keys this run has built so far;
- :func:`rerun_fragments` queues a rerun of the given fragments only, taken when this run ends;
- :func:`session_id` is the session's id (a client's name for the live class's rate limits when its
  connection has no address);
- :func:`session_page` is the page the session's runs go to now (not always the one last drawn), and
  :func:`timed_fragment` is ``st.fragment(run_every=...)`` for a class's timers, which first takes the session
  back to its page when a timer took it off.
"""
from __future__ import annotations

import functools
from typing import Callable, Iterable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

from components.ui import state


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


def session_id() -> str | None:
    """This session's id (None outside a run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.session_id


def session_page() -> str | None:
    """The url path of the page this session's runs go to now, as Streamlit's run context holds it.

    Not always the page the last full run drew: a fragment rerun that the browser asked for just before a page
    switch still names the old page, and Streamlit (1.67) takes the session back to it when it runs that
    fragment (the new page's body is then cleared, or the old page comes back at the next run). The live
    class's polls check it and go back to the page they belong on (found by its browser test).
    """
    ctx = get_script_run_ctx()
    info = None if ctx is None else ctx.pages_manager.get_pages().get(ctx.page_script_hash)
    return None if info is None else info.get("url_pathname")


def left_page(url_path: str | None) -> bool:
    """Whether this session's runs have left the page at ``url_path`` (see :func:`session_page`)."""
    return url_path is not None and session_page() not in (None, url_path)


def timed_fragment(seconds: float) -> Callable[[Callable], Callable]:
    """``@st.fragment(run_every=seconds)`` for a live class's timer, which first checks, in a run of its own, that
    the session is still on the page its last whole run drew (``state.CLASS_PAGE``).

    A browser's timer keeps the page it knew when it fired: one that fires just before a page switch names the
    old page, and Streamlit takes the session back there (:func:`session_page`). The fragment then asks, instead
    of running, for a whole run that goes back (``state.CLASS_RETURN``, taken at the top of the app).
    """
    def decorate(body: Callable) -> Callable:
        @st.fragment(run_every=seconds)
        @functools.wraps(body)
        def run(*args, **kwargs):
            drawn = st.session_state.get(state.CLASS_PAGE)
            if in_fragment_run() and left_page(drawn):
                st.session_state[state.CLASS_RETURN] = drawn
                st.rerun(scope="app")
            return body(*args, **kwargs)
        return run
    return decorate
