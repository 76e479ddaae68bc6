"""Who is in a live class: each learner's member id and optional nickname, their "here", the instructor's roll call.

The protocol is :mod:`components.live_class.protocol` (:func:`~components.live_class.protocol.here`,
:func:`~components.live_class.protocol.gone`, :func:`~components.live_class.protocol.roll_call`); this module
keeps a session's side of it, with the server's class store:

- a learner is a random **member id**, kept with their nickname in their browser's localStorage
  (:func:`keep_member_in_browser`), so that a reload is the same learner: one place on the roll call, one
  answer per question; a session that joined before its browser's id was read gives its own up for it;
- a joined session says :func:`say_here` when it joins, when its nickname changes, and from its poll
  every :data:`~components.live_class.protocol.HERE_SECONDS`; leaving takes it off at once (:func:`say_gone`);
- the instructor's panel shows the roll call (:func:`show_roll_call`): how many are here, and the
  nicknames of those who gave one (shown as typed, never as Markdown; at most :data:`ROLL_CALL_NAMES`, then
  how many more), never beside an answer. A class's roll call holds at most ``RANKWISE_CLASS_MEMBERS``.

While the class store is down, "here" and "gone" are skipped (:func:`outage.survives`).
"""
from __future__ import annotations

import functools
import time

import streamlit as st

from components.course import prose
from components.engine.formatting import literal
from components.live_class import outage, protocol
from components.live_class import store as class_store
from components.live_class.session import MEMBER_STORE, NICKNAME_BOXES, held
from components.serving.settings import LIMITS
from components.ui import browser_store

TEXT = "ui"
MEMBER_STORAGE_KEY = "rankwise.class.member.v1"  # the learner's localStorage entry: {"member", "nickname"}
ROLL_CALL_SECONDS = LIMITS.roll_call_seconds  # how often the instructor's roll call is read again (5 s)
ROLL_CALL_NAMES = 30  # nicknames the roll call shows at most (the count says how many are here)


def member() -> str:
    """This session's member id (made now when neither the session nor its browser has one yet)."""
    state = held()
    if state.member is None:
        state.member = protocol.new_member()
    return state.member


def nickname() -> str:
    return held().nickname


@outage.survives()
def say_here(store: class_store.ClassStore, code: str, *, now: bool = False) -> None:
    """Tell the class this learner is there: at once with ``now``, else when
    :data:`~components.live_class.protocol.HERE_SECONDS` have passed since the last time."""
    at, state = time.time(), held()
    if not now and at - state.here_at < protocol.HERE_SECONDS:
        return
    state.here_at = at
    protocol.here(store, code, member(), nickname(), at, LIMITS.class_seconds, most=LIMITS.class_members)


@outage.survives()
def say_gone(store: class_store.ClassStore, code: str) -> None:
    """This learner leaves the class's roll call now."""
    protocol.gone(store, code, member())
    held().here_at = 0.0


def keep_member_in_browser(store: class_store.ClassStore) -> None:
    """The member id and nickname in this browser's localStorage: read back on the session's first run, then
    written on every run."""
    state = held()
    with st.sidebar:
        browser_store.browser_store(key=MEMBER_STORE, storage_key=MEMBER_STORAGE_KEY, storage="local",
                                    synced=state.member_synced,
                                    value=None if state.member is None else {"member": state.member,
                                                                             "nickname": nickname()},
                                    on_loaded=functools.partial(_on_member_loaded, store))


def _on_member_loaded(store: class_store.ClassStore) -> None:
    """The browser's member id and nickname (untrusted) become the session's. A session that joined before
    they came (from a link, on its first run) gives its own id up, so a reload is not two learners."""
    state = held()
    state.member_synced = True
    stored = browser_store.loaded(MEMBER_STORE)
    if not isinstance(stored, dict):
        return
    if not nickname():
        _set_nickname(protocol.normal_nickname(stored.get("nickname") or ""))
    kept, joined = protocol.normal_member(stored.get("member")), state.joined
    if kept is None or kept == state.member:
        return
    if joined is not None and state.member is not None:
        say_gone(store, joined)
    state.member = kept
    if joined is not None:
        say_here(store, joined, now=True)


def _set_nickname(text: str) -> None:
    """The session's nickname, and the boxes that show it (those on screen now are set again)."""
    held().nickname = text
    for box in NICKNAME_BOXES:
        if box in st.session_state:
            st.session_state[box] = text


def nickname_box(box: str, store: class_store.ClassStore) -> None:
    """A box for the optional nickname (``box``: its key, one of :data:`~components.live_class.session.NICKNAME_BOXES`)."""
    if box not in st.session_state:  # a box not on screen last run lost its value: it shows the session's
        st.session_state[box] = nickname()
    st.text_input(prose.text(TEXT, "Class nickname"), key=box, max_chars=protocol.MAX_NICKNAME,
                  placeholder=prose.text(TEXT, "Class nickname hint"), help=prose.text(TEXT, "Class nickname help"),
                  on_change=_on_nickname, args=(box, store))


def _on_nickname(box: str, store: class_store.ClassStore) -> None:
    _set_nickname(protocol.normal_nickname(st.session_state.get(box) or ""))
    joined = held().joined
    if joined is not None:
        say_here(store, joined, now=True)


def present(store: class_store.ClassStore, code: str) -> protocol.RollCall:
    return protocol.roll_call(store, code, time.time())


def show_roll_call(store: class_store.ClassStore, code: str) -> None:
    """The instructor's roll call (read again every :data:`ROLL_CALL_SECONDS` by the panel): how many learners
    are here and the first :data:`ROLL_CALL_NAMES` nicknames given (each shown exactly as typed)."""
    call = present(store, code)
    if call.count == 0:
        st.caption(prose.text(TEXT, "Class roll call empty"))
        return
    lines = [prose.text(TEXT, "Class roll call", n=call.count)]
    if call.nicknames:
        names = ", ".join(literal(name) for name in call.nicknames[:ROLL_CALL_NAMES])
        more = len(call.nicknames) - ROLL_CALL_NAMES
        if more > 0:
            lines.append(prose.text(TEXT, "Class roll call more", names=names, more=more + call.unnamed))
        else:
            lines.append(prose.text(TEXT, "Class roll call names", names=names, unnamed=call.unnamed)
                         if call.unnamed else names)
    st.markdown("  \n".join(lines))
