"""Start, join, leave and end a live class: the sidebar's Classroom panel, the home page's join box, a ``?class=``
link, the banner above the page, and what a reload keeps in the browser.

- the instructor starts a class: the session keeps its :class:`~components.live_class.protocol.Lead` (code and
  token; the token never goes into a URL, only into this browser's localStorage: :func:`keep_class_in_browser`),
  and the panel shows the code, the join link and its QR code, and the roll call (:func:`_lead_panel`);
- a learner joins with the code (the panel, the home page's box, or a ``?class=`` link) and follows
  (:mod:`components.live_class.follow`); the banner says whether they follow or explore on their own, with the one
  click that changes it;
- limits: a session leads one class (starting again ends the last), the server holds at most
  ``RANKWISE_CLASSES``; codes that join no class, and classes started, are rate-limited per client
  (:func:`client`: its IP address, else its session) at ``RANKWISE_JOIN_TRIES`` a minute; a bad code or a
  dead link gets a worded message that shows what was typed as plain text, cut short.
"""
from __future__ import annotations

import segno
import streamlit as st

from components.course import prose
from components.engine.formatting import literal
from components.live_class import members, outage, protocol, session
from components.live_class.protocol import Lead
from components.live_class.session import PARAM_CLASS, held, leading
from components.live_class.store import ClassStoreDown
from components.live_class.timers import timed_fragment
from components.serving import streamlit_compat
from components.serving.rate_limit import RateLimit
from components.serving.settings import LIMITS
from components.ui import browser_store

TEXT = "ui"
SHOWN_CHARACTERS = 24  # of a bad code or link, quoted back
LEAD_STORAGE_KEY = "rankwise.class.lead.v1"  # the instructor's localStorage entry: {"code", "token"}


@st.cache_resource
def rate_limits() -> tuple[RateLimit, RateLimit]:
    """This server's (codes that join no class, classes started) per client, ``RANKWISE_JOIN_TRIES`` a minute."""
    return RateLimit(LIMITS.join_tries), RateLimit(LIMITS.join_tries)


def client() -> str:
    """Who asks, for the rate limits: the connection's IP address (behind a proxy, the proxy's), else this
    session (a browser on the server's own machine has none)."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else f"session:{streamlit_compat.session_id()}"


def _start() -> None:
    """A new class led by this session (its last one ends: one class per session), unless this client started
    too many in the last minute or the server holds as many as it takes (then ``start_error`` says so)."""
    state = held()
    state.gone = None
    starts = rate_limits()[1]
    if not starts.allowed(client()):
        state.start_error = prose.text(TEXT, "Class start too many")
        return
    starts.spend(client())
    try:
        lead = protocol.start(session.store(), LIMITS.class_seconds, most=LIMITS.classes, replacing=leading())
    except protocol.ClassesFull:
        state.start_error = prose.text(TEXT, "Class start full", most=LIMITS.classes)
        return
    except ClassStoreDown:
        state.start_error = prose.text(TEXT, "Class connection lost")
        return
    state.start_error, state.lead, state.sent = None, lead, None


def _end() -> None:
    state = held()
    lead, state.lead = state.lead, None
    if lead is not None:
        outage.survives()(protocol.end)(session.store(), lead)  # down: the class expires on its own


def _join(input_key: str = session.CODE_INPUT) -> None:
    """Join the class whose code is in the box ``input_key`` (a box emptied: nothing to say)."""
    typed = st.session_state.get(input_key) or ""
    held().join_error = _try_join(typed, link=False) if typed.strip() else None


def _try_join(typed: str, *, link: bool) -> str | None:
    """Join the class ``typed`` names; None when joined, else what to tell the learner (a code that is none,
    too many tries from this client, no such class, the store down), with what they typed as plain text."""
    kind = "link" if link else "join"
    code = protocol.normal_code(typed)
    if code is None:
        return prose.text(TEXT, f"Class {kind} malformed", typed=literal(typed, limit=SHOWN_CHARACTERS) or "“”",
                          length=protocol.CODE_LENGTH)
    joins = rate_limits()[0]
    if not joins.allowed(client()):
        return prose.text(TEXT, "Class join too many")
    try:
        found = protocol.version(session.store(), code) is not None
    except ClassStoreDown:
        return prose.text(TEXT, "Class connection lost")
    if not found:
        joins.spend(client())
        return prose.text(TEXT, "Class link unknown", typed=literal(code)) if link else prose.text(TEXT, "Class join error")
    join(code)
    return None


def join(code: str) -> None:
    """Follow the class ``code`` from its latest view (the address says ``?class=CODE``: a reload joins again)."""
    st.query_params[PARAM_CLASS] = code
    held().join(code)
    members.say_here(session.store(), code, now=True)


def leave() -> None:
    """Leave the class joined: off its roll call at once, and out of the address."""
    state = held()
    if state.joined is not None:
        members.say_gone(session.store(), state.joined)
    state.leave()
    st.query_params.pop(PARAM_CLASS, None)


def join_from_link() -> None:
    """A ``?class=CODE`` link joins that class once, on the session's first run; a link that joins nothing
    says why above the page (:func:`show_banner`), and leaves the address."""
    state = held()
    if state.link_read:
        return
    state.link_read = True
    typed = st.query_params.get(PARAM_CLASS)
    if typed is None:
        return
    error = _try_join(typed, link=True)
    if error is not None:
        state.link_error = error
        st.query_params.pop(PARAM_CLASS, None)


def keep_class_in_browser() -> None:
    """What a reload (a new session) must keep, in this browser's localStorage: the instructor's lead and the
    learner's member id and nickname (:func:`members.keep_member_in_browser`)."""
    _keep_lead_in_browser()
    members.keep_member_in_browser(session.store())


def _keep_lead_in_browser() -> None:
    """The lead token in this browser's localStorage, never in a URL: a reload keeps leading.

    On the session's first run the stored lead is read back (:func:`_on_lead_loaded`); then every run
    writes the session's lead, or null once the class is over.
    """
    lead = leading()
    with st.sidebar:
        browser_store.browser_store(key=session.LEAD_STORE, storage_key=LEAD_STORAGE_KEY, storage="local",
                                    synced=held().lead_synced,
                                    value=None if lead is None else {"code": lead.code, "token": lead.token},
                                    on_loaded=_on_lead_loaded)


def _on_lead_loaded() -> None:
    """The stored lead (untrusted): kept only when it still leads a live class."""
    state = held()
    state.lead_synced = True
    stored = browser_store.loaded(session.LEAD_STORE)
    if state.lead is not None or not isinstance(stored, dict):
        return
    code, token = stored.get("code"), stored.get("token")
    if isinstance(code, str) and isinstance(token, str) and protocol.normal_code(code) == code:
        lead = Lead(code, token)
        try:
            leads = protocol.is_leader(session.store(), lead)
        except ClassStoreDown:
            leads = True  # kept for now: every change checks the token, and the panel lets go of a gone class
        if leads:
            state.lead = lead


def _explore() -> None:
    state = held()
    state.exploring = True
    state.news = prose.text(TEXT, "Class news exploring", code=state.joined)


def _follow_again() -> None:
    state = held()
    state.exploring, state.applied, state.target = False, None, None  # the class's latest view, whole, at the next poll


def show_banner() -> None:
    """Above the page: which mode a joined learner is in, and the one click that changes it (and ``?class=CODE``
    kept in the address, so that a reload joins again)."""
    state = held()
    joined = state.joined
    if state.link_error:
        st.warning(state.link_error, icon="🔗")
    if state.ended:
        st.info(prose.text(TEXT, "Class ended"), icon="🏁")
        return
    if joined is None:
        return
    if outage.is_down():
        st.warning(prose.text(TEXT, "Class connection lost"), icon="📡")
    if st.query_params.get(PARAM_CLASS) != joined:  # a page switch drops the address's parameters
        st.query_params[PARAM_CLASS] = joined
    text, button = st.columns([2.5, 1], vertical_alignment="center")  # room for the label at 1024 px and projected
    if not state.exploring:
        text.info(prose.text(TEXT, "Class following", code=joined), icon="🧑‍🏫")
        button.button(prose.text(TEXT, "Class explore"), key=session.EXPLORE, on_click=_explore, width="stretch")
    else:
        text.warning(prose.text(TEXT, "Class exploring", code=joined), icon="🧭")
        button.button(prose.text(TEXT, "Class follow"), key=session.FOLLOW_AGAIN, on_click=_follow_again,
                      type="primary", width="stretch")


def show_class_controls() -> None:
    """In the Classroom panel: start a class (and, once started, its code, link, QR code and end), or join one."""
    state = held()
    lead = state.lead
    if lead is not None:
        st.markdown(prose.text(TEXT, "Class code", code=lead.code))
        _lead_panel(lead.code)
        link = _join_link(lead.code)
        st.caption(prose.text(TEXT, "Class link", link=link))
        st.image(_qr_svg(link), caption=prose.text(TEXT, "Class QR"), width="stretch",
                 alt=prose.text(TEXT, "Class QR alt", link=link))  # an <img> without alt is a barrier (axe image-alt)
        st.button(prose.text(TEXT, "Class end"), key=session.END, on_click=_end, icon="🏁", width="stretch")
        return
    if state.joined is not None:
        members.nickname_box(session.NICKNAME_BOX, session.store())
        st.button(prose.text(TEXT, "Class leave"), key=session.LEAVE, on_click=leave, width="stretch")
        return
    if state.gone:
        st.warning(prose.text(TEXT, "Class gone", code=state.gone), icon="🏁")
    st.button(prose.text(TEXT, "Class start"), key=session.START, on_click=_start, icon="📣", width="stretch",
              help=prose.text(TEXT, "Class start help"))
    if state.start_error:
        st.error(state.start_error, icon="📣")
    st.text_input(prose.text(TEXT, "Class join code"), key=session.CODE_INPUT, max_chars=12, on_change=_join)
    st.button(prose.text(TEXT, "Class join"), key=session.JOIN, on_click=_join, width="stretch")
    if state.join_error:
        st.error(state.join_error, icon="🔎")


@timed_fragment(members.ROLL_CALL_SECONDS)
def _lead_panel(code: str) -> None:
    """The instructor's roll call, read again every :data:`members.ROLL_CALL_SECONDS`, and the class's state: while
    the store is down, "connection lost, retrying"; once it answers without the class (expired, or restarted
    empty), the lead is let go and the panel says so (``gone``)."""
    try:
        alive = protocol.version(session.store(), code) is not None
        if alive:
            members.show_roll_call(session.store(), code)
    except ClassStoreDown:
        outage.note_down()
        st.warning(prose.text(TEXT, "Class connection lost lead"), icon="📡")
        return
    was_down = outage.back_up()
    if not alive:
        state = held()
        state.lead, state.gone = None, code
    if not alive or was_down:
        st.rerun(scope="app")


def show_join_box() -> None:
    """On the home page, for a learner in a class: the code from the instructor's screen, an optional nickname,
    and Join."""
    state = held()
    if state.lead is not None or state.joined is not None:
        return
    with st.container(border=True):
        box, name, button = st.columns([3, 2, 1], vertical_alignment="bottom")
        box.text_input(prose.text(TEXT, "Class join home"), key=session.HOME_CODE, max_chars=12,
                       on_change=_join, args=(session.HOME_CODE,), placeholder=prose.text(TEXT, "Class join hint"))
        button.button(prose.text(TEXT, "Class join"), key=session.HOME_JOIN, on_click=_join,
                      args=(session.HOME_CODE,), width="stretch", icon="🧑‍🏫")
        with name:
            members.nickname_box(session.HOME_NICKNAME, session.store())
        if state.join_error:
            st.error(state.join_error, icon="🔎")


def _join_link(code: str) -> str:
    """This app's address with ``?class=CODE`` (the address the instructor's browser uses)."""
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{PARAM_CLASS}={code}"


def _qr_svg(link: str) -> str:
    """The join link as a QR code, drawn here as SVG (segno; nothing fetched)."""
    return segno.make(link, error="m").svg_inline(scale=6, dark="#1b1f24", light="#ffffff")
