"""A live class's timers: ``st.fragment(run_every=...)`` that first takes the session back to its page.

A browser's timer keeps the page it knew when it fired: one that fires just before a page switch names the old page,
and Streamlit takes the session back there (:func:`components.serving.streamlit_compat.session_page`). A timer's
fragment then asks, instead of running, for a whole run that goes back (:attr:`ClassState.return_to`, taken at the
top of the app by :func:`components.live_class.follow.apply_pending`).
"""
from __future__ import annotations

import functools
from typing import Callable

import streamlit as st

from components.live_class.session import held
from components.serving import streamlit_compat


def left_page(url_path: str | None) -> bool:
    """Whether this session's runs have left the page at ``url_path`` (see
    :func:`~components.serving.streamlit_compat.session_page`)."""
    return url_path is not None and streamlit_compat.session_page() not in (None, url_path)


def timed_fragment(seconds: float) -> Callable[[Callable], Callable]:
    """``@st.fragment(run_every=seconds)`` for a live class's timer, which first checks, in a run of its own, that
    the session is still on the page its last whole run drew (:attr:`ClassState.page`)."""
    def decorate(body: Callable) -> Callable:
        @st.fragment(run_every=seconds)
        @functools.wraps(body)
        def run(*args, **kwargs):
            state = held()
            if streamlit_compat.in_fragment_run() and left_page(state.page):
                state.return_to = state.page
                st.rerun(scope="app")
            return body(*args, **kwargs)
        return run
    return decorate
