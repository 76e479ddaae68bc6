"""The live class around a run of the app: the two calls app.py makes.

- :func:`class_turn`, around the whole run: a follower's run that takes the class's view waits its turn;
- :func:`around_page`, around the page: before it, the class's part of the run in the order it needs (the link that
  joins, the class's page and values before any widget is built, the polls, then the app's own sidebar, the
  browser storage, the banner, the instructor's count of answers); after it, the instructor's page and values go to
  the class.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Callable, Iterator

import streamlit as st

from components.live_class import follow, panel, questions

_TURNS = threading.BoundedSemaphore(1)  # whole-page runs that take the class's view: one at a time (:func:`class_turn`)
TURN_SECONDS = 10.0  # the longest such a run waits for its turn


@contextlib.contextmanager
def class_turn() -> Iterator[None]:
    """Around a whole run of the app: a follower's run that will take the class's pending view waits its turn
    first, one at a time in this process, before anything goes to the browser.

    A new page reruns every follower's whole page at once, about 100 ms of CPU each, and Python runs one thread
    at a time: thirty runs side by side all end late, and the server's own thread, which sends the messages,
    gets a thirtieth of the time (with thirty followers on one process nothing reached them for tens of seconds:
    ``benchmarks/concurrent_sessions.py --class --lead page``). One after another, the first follower sees the
    page at once and the last no later than before. A run waits at most :data:`TURN_SECONDS`, and before its
    navigation: a run that stopped to wait after it had sent the new page's name left that browser with an
    empty page.
    """
    if not follow.takes_a_view():
        yield
        return
    turn = _TURNS.acquire(timeout=TURN_SECONDS)
    try:
        yield
    finally:
        if turn:
            _TURNS.release()


@contextlib.contextmanager
def around_page(page: st.Page, sidebar: Callable[[], None]) -> Iterator[None]:
    """The class's part of a run, around the page's: ``sidebar`` draws the app's own sidebar, at the one place it
    may go (after the class's values are set, since the class follows its toggles; before the class's hidden
    helpers, which sit at the sidebar's end). A run the page stops (a rerun, a page switch) sends nothing."""
    panel.join_from_link()
    follow.apply_pending(page)  # a follower takes the class's page and values before any widget is built
    follow.show_polls(page)  # a follower's reading, an explorer's "still here": early, the timer at once
    sidebar()
    panel.keep_class_in_browser()
    panel.show_banner()
    questions.show_count_poll()  # the instructor's count of answers, while the class answers
    yield
    follow.broadcast()  # the instructor's page and values, to the class
