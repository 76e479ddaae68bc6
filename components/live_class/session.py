"""A session's side of a live class: its state (one :class:`ClassState` under :data:`KEY`), its widget keys, the
server's class store, and who this session is in the class (:func:`leading`, :func:`following`).

The class's own state is one dataclass in one session key, so that a reader sees all of it in one place, typed,
and leaving a class resets what it must in one call (:meth:`ClassState.leave`). The keys of the class's widgets and
browser-storage helpers stay top-level session keys, where Streamlit keeps a widget's value.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from components.live_class import store as class_store
from components.live_class.protocol import ClassView, Lead, Question

KEY = "live_class"  # the session key of this session's ClassState
PARAM_CLASS = "class"  # the URL query parameter: ?class=CODE joins that class

# --- the widget and helper keys (top-level: Streamlit keeps their values under them) ---------------------------
LEAD_STORE = "class.lead_store"  # the localStorage helper that keeps the lead token
MEMBER_STORE = "class.member_store"  # the localStorage helper that keeps the member id and nickname
START, END, JOIN, LEAVE = "class.start", "class.end", "class.join", "class.leave"  # the panel's buttons
EXPLORE, FOLLOW_AGAIN = "class.explore", "class.follow_again"  # the banner's buttons
CODE_INPUT = "class.code_input"  # the code a learner types (the Classroom panel)
HOME_CODE, HOME_JOIN = "class.home_code", "class.home_join"  # the same, on the home page
NICKNAME_BOX, HOME_NICKNAME = "class.nickname_box", "class.home_nickname"  # the nickname's boxes: panel, home page
NICKNAME_BOXES = (NICKNAME_BOX, HOME_NICKNAME)

BACK_SECONDS = 5.0  # a follower off the class's page goes back at most this often (follow._may_go_back)


@dataclass
class InFragments:
    """A class change a follower takes inside the lesson fragments that show it (:func:`follow.followed_fragment`)."""

    code: str
    version: int
    target: dict[str, Any]  # the class's whole view of the values, at ``version``
    values: dict[str, dict[str, Any]]  # fragment id -> {followed key: the class's value}, until that fragment ran


@dataclass
class ClassState:
    """Everything a session keeps about its live class, but its widgets' values."""

    # --- leading
    lead: Lead | None = None  # the Lead (code, token) of the class this session leads
    sent: tuple | None = None  # (page, values) last sent to the class
    lead_synced: bool = False  # the browser's stored lead has been read
    start_error: str | None = None  # why "Start a class" was refused, until the next start
    gone: str | None = None  # the code of the class this session led and the store no longer holds
    question_seen: tuple[Question, bool] | None = None  # the instructor's class question as last read
    counted: tuple[str, int, int] | None = None  # (question id, answers, learners here) the page last showed
    # --- every session in a class
    page: str | None = None  # the url path of the page a class session's last whole run drew
    return_to: str | None = None  # the url path to go back to at the next run (a timer took the session off it)
    news: str = ""  # what the class's live region says, until the next news (follow.show_news)
    down: bool = False  # a class store call failed, and no poll has reached the store since (outage.py)
    # --- joining and following
    link_read: bool = False  # the ?class= link has been read
    link_error: str | None = None  # why the ?class= link joined nothing, until a class is joined
    join_error: str | None = None  # why the code typed joined nothing
    joined: str | None = None  # the code of the class this session joined
    exploring: bool = False  # joined, but exploring on its own (not following)
    applied: int | None = None  # the class version this session's page shows
    pending: ClassView | None = None  # the class's view, to apply at the top of the next run
    on_page: str | None = None  # the url path of the class's page, as a follower last applied it
    went_back: float = -BACK_SECONDS  # when (monotonic s) the poll last took a follower back to the class's page
    fragments: dict[str, str] = field(default_factory=dict)  # followed key -> the fragment that built it this page
    in_fragments: InFragments | None = None  # a class change a follower takes inside fragments
    target: dict[str, Any] | None = None  # the class's widget values as a follower last took them
    ended: bool = False  # the class this session followed has ended
    question: tuple[Question, bool] | None = None  # a follower's copy of the class's question, and its reveal
    # where this page asked about the class's question since its last whole run: {(the id of the fragment that
    # asked (None: outside every fragment), the question id)}, so that an ask or a reveal reruns just those
    question_readers: set[tuple[str | None, str]] = field(default_factory=set)
    guessed: dict[str, str] = field(default_factory=dict)  # question id -> the answer this session sent
    guess_errors: dict[str, str | None] = field(default_factory=dict)  # question id -> why its guess was refused
    # --- who this learner is
    member: str | None = None  # this learner's member id (random; kept in the browser with the nickname)
    member_synced: bool = False  # the browser's stored member id has been read
    nickname: str = ""  # the learner's optional nickname ("" for none), as the class shows it
    here_at: float = 0.0  # when (time.time()) this session last told its class it was there

    def join(self, code: str) -> None:
        """Follow the class ``code`` from its latest view (taken whole, by a full-app rerun)."""
        self.joined, self.exploring, self.applied, self.target, self.ended = code, False, None, None, False
        self.link_error = None

    def leave(self) -> None:
        """Out of the class joined: following and its news go."""
        self.news, self.joined, self.exploring, self.applied, self.pending = "", None, False, None, None
        self.on_page, self.in_fragments, self.target, self.fragments = None, None, None, {}


def held() -> ClassState:
    """This session's class state (made on first use)."""
    if KEY not in st.session_state:
        st.session_state[KEY] = ClassState()
    return st.session_state[KEY]


@st.cache_resource
def store() -> class_store.ClassStore:
    """The server's class store (``RANKWISE_CLASS_STORE``: in this process by default, or Redis)."""
    return class_store.store_from_env(os.environ)


def leading() -> Lead | None:
    return held().lead


def following() -> str | None:
    """The code of the class this session follows now (None: not joined, or exploring on its own)."""
    state = held()
    return None if state.exploring else state.joined
