"""The live class in the app: start or join it (the sidebar's Classroom panel), lead it, follow it.

The protocol and the store are :mod:`components.serving.live_class` and
:mod:`components.serving.class_store`; this module wires them to a session:

- the instructor starts a class: the session keeps its :class:`Lead` (code
  and token; the token never goes into a URL), shows the code, the join link
  and its QR code, and after every run :func:`broadcast` sends the page and the
  followed widget values (:data:`FOLLOWED`) and editors (:data:`EDITORS`) when they changed; a change
  inside a lesson's fragment (which reruns alone) is sent at the end of that fragment's run;
- a learner joins with the code (the panel, or a ``?class=`` link) and
  follows: while following, :func:`show_polls`, a fragment that reruns
  every :data:`POLL_SECONDS`, reads the class's version (one number) and,
  when it moved, keeps the class's view as pending and asks for a full-app
  rerun; at the top of that run, before any widget is built, :func:`apply_pending`
  sets the widget values and goes to the class's page (such runs go one at a
  time: :func:`class_turn`). "Explore on my own"
  stops following; "Follow the class" takes the class's latest view again.
- who is there: a joined learner's session says so when it joins and every few seconds after, with an
  optional nickname, and the instructor's panel shows the roll call (:mod:`components.ui.class_members_ui`).
- most changes (a new k, an order, a grade) are widgets inside one lesson
  fragment: a lesson draws those with :func:`followed_fragment`, which notes
  which followed widgets it built, and the poll reruns just those fragments,
  each taking its values at its top before its widgets are built (thirty
  followers rerunning a whole page at once are too slow for one process).
  A question asked or revealed reruns the fragments that show it too (they note
  which question they asked about: :func:`class_question`). A new page, a
  classroom mode, a value no fragment showed, or a question shown outside every
  fragment (a practice card) still takes the full-app rerun.
- limits: a session leads one class (starting again ends the last), the server holds at most
  ``RANKWISE_CLASSES``; codes that join no class, and classes started, are rate-limited per client
  (:func:`client`: its IP address, else its session) at ``RANKWISE_JOIN_TRIES`` a minute; a bad code or a
  dead link gets a worded message that shows what was typed as plain text, cut short.
- a screen reader hears the class's news in one polite live region at the top of the sidebar (:func:`show_news`):
  following the class (with its page), exploring alone, a page change and the end of the class.
- when the class store cannot be reached (:class:`~components.serving.class_store.ClassStoreDown`), the store
  calls of a run are caught (:func:`class_outage.survives` and the polls): learners and the instructor read
  "the class's connection is lost, retrying", and the polls go on; when it answers again without the class
  (restarted empty), the instructor's lead is let go, saying so, and the learners are told it ended.
"""
from __future__ import annotations

import contextlib
import functools
import html
import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import segno
import streamlit as st

from components import rank_figure, ranking_editor
from components.course import prose, scenarios
from components.engine.formatting import literal
from components.rank_figure import set_figure_ranks
from components.ranking_editor import editor_state, set_editor_state
from components.serving import class_store, live_class
from components.serving.class_store import ClassStoreDown
from components.serving.live_class import Lead
from components.serving.rate_limit import RateLimit
from components.serving.settings import LIMITS
from components.ui import browser_store, class_members_ui, class_outage, fragments, registry, state

_LOG = logging.getLogger(__name__)

TEXT = "ui"
POLL_SECONDS = LIMITS.poll_seconds  # how often a follower's session reads the class's version (1 s)
SHOWN_CHARACTERS = 24  # of a bad code or link, quoted back
START_ERROR = "class.start_error"  # why "Start a class" was refused (text), until the next start
LINK_ERROR = "class.link_error"  # why the ?class= link joined nothing (text), until a class is joined
GONE = "class.gone"  # the code of the class this session led and the store no longer holds
QUESTION_SEEN = "class.question_seen"  # the instructor's class question as last read (kept through an outage)
# a follower's: where this page asked about the class's question since its last whole run: {(the id of the
# fragment that asked (None: outside every fragment), the question id it asked about)}, so that an ask or a
# reveal reruns just the fragments it concerns (:func:`class_question`)
QUESTION_READERS = "class.question_readers"
_TURNS = threading.BoundedSemaphore(1)  # whole-page runs that take the class's view: one at a time (:func:`class_turn`)
TURN_SECONDS = 10.0  # the longest such a run waits for its turn
BACK_SECONDS = 5.0  # a follower off the class's page goes back at most this often (:func:`_may_go_back`)
NEWS = "class.news"  # what the class's live region says (text), until the next news (:func:`show_news`)
NEWS_REGION = {"role": "status", "aria-live": "polite", "aria-atomic": "true", "data-testid": "class-news"}
# The live region's box: out of sight and out of the sidebar's flow (no gap), yet read (not display: none).
NEWS_CSS = ('<style>[data-testid="stLayoutWrapper"]:has(> .st-key-class-news) { position: absolute; width: 1px; '
            'height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }</style>')
LEAD_STORAGE_KEY = "rankwise.class.lead.v1"  # the instructor's localStorage entry: {"code", "token"}
# widget values a class follows: the classroom modes and each lesson's cutoffs and choices
FOLLOWED = (state.REVEAL, state.PREDICT_FIRST, state.STEP_MODE, state.RECALL_K, state.RECALL_COMPARE_K,
            state.RECALL_HIT_RATE_K, state.RECALL_BLIND_K, state.MRR_CUTOFF, state.AP_K, state.AP_DUEL_K,
            state.AP_LEVEL, state.NDCG_K, state.NDCG_GAIN, state.NDCG_GAINS_K, state.NDCG_IDEAL_K,
            state.NDCG_SHORT_K, state.FOUR_K, state.FUSION_K, state.CHOOSING_K, state.DIFFER_K)
# each lesson's ranking editors (the main one, the duels' sides): their order, tray and grades follow too
EDITORS = (state.RECALL_EDITOR, *state.MRR_EDITORS, state.AP_EDITOR, state.NDCG_EDITOR, state.NDCG_SHORT,
           state.CHOOSING_EDITOR, state.DIFFER_EDITOR, *(state.duel_side(d, i) for d, n in state.DUELS.items() for i in range(n)))
# the four-query figure's hit ranks follow too: its key -> the length of its rank axis
FIGURES = {state.FOUR_RANKS: scenarios.FOUR_QUERY_LIST_LENGTH}
# the key each followed value's widget is built with -> the followed key
_FOLLOWED_BY_WIDGET = {**{key: key for key in FOLLOWED}, **{ranking_editor.widget_key(key): key for key in EDITORS},
                       **{rank_figure.widget_key(key): key for key in FIGURES}}


@dataclass
class InFragments:
    """A class change a follower takes inside the lesson fragments that show it (:func:`followed_fragment`)."""

    code: str
    version: int
    target: dict[str, Any]  # the class's whole view of the values, at ``version``
    values: dict[str, dict[str, Any]]  # fragment id -> {followed key: the class's value}, until that fragment ran


@st.cache_resource
def store() -> class_store.ClassStore:
    """The server's class store (``RANKWISE_CLASS_STORE``: in this process by default, or Redis)."""
    return class_store.store_from_env(os.environ)


@st.cache_resource
def rate_limits() -> tuple[RateLimit, RateLimit]:
    """This server's (codes that join no class, classes started) per client, ``RANKWISE_JOIN_TRIES`` a minute."""
    return RateLimit(LIMITS.join_tries), RateLimit(LIMITS.join_tries)


def client() -> str:
    """Who asks, for the rate limits: the connection's IP address (behind a proxy, the proxy's), else this
    session (a browser on the server's own machine has none)."""
    address = st.context.ip_address
    return address if isinstance(address, str) and address else f"session:{fragments.session_id()}"


def leading() -> Lead | None:
    return st.session_state.get(state.CLASS_LEAD)


def following() -> str | None:
    """The code of the class this session follows now (None: not joined, or exploring on its own)."""
    if st.session_state.get(state.CLASS_EXPLORING):
        return None
    return st.session_state.get(state.CLASS_JOINED)


def _start() -> None:
    """A new class led by this session (its last one ends: one class per session), unless this client started
    too many in the last minute or the server holds as many as it takes (then :data:`START_ERROR` says so)."""
    st.session_state.pop(GONE, None)
    starts = rate_limits()[1]
    if not starts.allowed(client()):
        st.session_state[START_ERROR] = prose.text(TEXT, "Class start too many")
        return
    starts.spend(client())
    try:
        lead = live_class.start(store(), LIMITS.class_seconds, most=LIMITS.classes, replacing=leading())
    except live_class.ClassesFull:
        st.session_state[START_ERROR] = prose.text(TEXT, "Class start full", most=LIMITS.classes)
        return
    except ClassStoreDown:
        st.session_state[START_ERROR] = prose.text(TEXT, "Class connection lost")
        return
    st.session_state.pop(START_ERROR, None)
    st.session_state[state.CLASS_LEAD] = lead
    st.session_state.pop(state.CLASS_SENT, None)


def _end() -> None:
    lead = st.session_state.pop(state.CLASS_LEAD, None)
    if lead is not None:
        class_outage.survives()(live_class.end)(store(), lead)  # down: the class expires on its own


def _join(input_key: str = state.CLASS_CODE_INPUT) -> None:
    """Join the class whose code is in the box ``input_key`` (a box emptied: nothing to say)."""
    typed = st.session_state.get(input_key) or ""
    st.session_state[state.CLASS_JOIN_ERROR] = _try_join(typed, link=False) if typed.strip() else None


def _try_join(typed: str, *, link: bool) -> str | None:
    """Join the class ``typed`` names; None when joined, else what to tell the learner (a code that is none,
    too many tries from this client, no such class, the store down), with what they typed as plain text."""
    kind = "link" if link else "join"
    code = live_class.normal_code(typed)
    if code is None:
        return prose.text(TEXT, f"Class {kind} malformed", typed=literal(typed, limit=SHOWN_CHARACTERS) or "“”",
                          length=live_class.CODE_LENGTH)
    joins = rate_limits()[0]
    if not joins.allowed(client()):
        return prose.text(TEXT, "Class join too many")
    try:
        found = live_class.version(store(), code) is not None
    except ClassStoreDown:
        return prose.text(TEXT, "Class connection lost")
    if not found:
        joins.spend(client())
        return prose.text(TEXT, "Class link unknown", typed=literal(code)) if link else prose.text(TEXT, "Class join error")
    join(code)
    return None


def join(code: str) -> None:
    """Follow the class ``code`` from its latest view (the address says ``?class=CODE``: a reload joins again)."""
    st.query_params[state.PARAM_CLASS] = code
    st.session_state[state.CLASS_JOINED] = code
    st.session_state[state.CLASS_EXPLORING] = False
    st.session_state[state.CLASS_APPLIED] = None
    st.session_state.pop(state.CLASS_TARGET, None)  # the first view is taken whole (a full-app rerun)
    st.session_state[state.CLASS_ENDED] = False
    st.session_state.pop(LINK_ERROR, None)
    class_members_ui.say_here(store(), code, now=True)


def _leave() -> None:
    code = st.session_state.get(state.CLASS_JOINED)
    if code is not None:
        class_members_ui.say_gone(store(), code)
    for key in (NEWS, state.CLASS_JOINED, state.CLASS_EXPLORING, state.CLASS_APPLIED, state.CLASS_PENDING,
                state.CLASS_ON_PAGE, state.CLASS_IN_FRAGMENTS, state.CLASS_TARGET, state.CLASS_FRAGMENTS):
        st.session_state.pop(key, None)
    st.query_params.pop(state.PARAM_CLASS, None)


def keep_class_in_browser() -> None:
    """What a reload (a new session) must keep, in this browser's localStorage: the instructor's lead and the
    learner's member id and nickname (:func:`class_members_ui.keep_member_in_browser`)."""
    _keep_lead_in_browser()
    class_members_ui.keep_member_in_browser(store())


def _keep_lead_in_browser() -> None:
    """The lead token in this browser's localStorage, never in a URL: a reload keeps leading.

    On the session's first run the stored lead is read back (:func:`_on_lead_loaded`); then every run
    writes the session's lead, or null once the class is over.
    """
    lead = leading()
    with st.sidebar:
        browser_store.browser_store(key=state.CLASS_LEAD_STORE, storage_key=LEAD_STORAGE_KEY, storage="local",
                                    synced=bool(st.session_state.get(state.CLASS_LEAD_SYNCED)),
                                    value=None if lead is None else {"code": lead.code, "token": lead.token},
                                    on_loaded=_on_lead_loaded)


def _on_lead_loaded() -> None:
    """The stored lead (untrusted): kept only when it still leads a live class."""
    st.session_state[state.CLASS_LEAD_SYNCED] = True
    stored = browser_store.loaded(state.CLASS_LEAD_STORE)
    if leading() is not None or not isinstance(stored, dict):
        return
    code, token = stored.get("code"), stored.get("token")
    if isinstance(code, str) and isinstance(token, str) and live_class.normal_code(code) == code:
        lead = Lead(code, token)
        try:
            leads = live_class.is_leader(store(), lead)
        except ClassStoreDown:
            leads = True  # kept for now: every change checks the token, and the panel lets go of a gone class
        if leads:
            st.session_state[state.CLASS_LEAD] = lead


def _explore() -> None:
    st.session_state[state.CLASS_EXPLORING] = True
    st.session_state[NEWS] = prose.text(TEXT, "Class news exploring", code=st.session_state.get(state.CLASS_JOINED))


def _follow_again() -> None:
    st.session_state[state.CLASS_EXPLORING] = False
    st.session_state[state.CLASS_APPLIED] = None  # take the class's latest view, whole, at the next poll
    st.session_state.pop(state.CLASS_TARGET, None)


def join_from_link() -> None:
    """A ``?class=CODE`` link joins that class once, on the session's first run; a link that joins nothing
    says why above the page (:func:`show_banner`), and leaves the address."""
    if state.CLASS_LINK_READ in st.session_state:
        return
    st.session_state[state.CLASS_LINK_READ] = True
    typed = st.query_params.get(state.PARAM_CLASS)
    if typed is None:
        return
    error = _try_join(typed, link=True)
    if error is not None:
        st.session_state[LINK_ERROR] = error
        st.query_params.pop(state.PARAM_CLASS, None)


@contextlib.contextmanager
def class_turn():
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
    if not _takes_a_view():
        yield
        return
    turn = _TURNS.acquire(timeout=TURN_SECONDS)
    try:
        yield
    finally:
        if turn:
            _TURNS.release()


def _takes_a_view() -> bool:
    """Whether this run will take the class's pending view (:func:`apply_pending`)."""
    pending: live_class.ClassView | None = st.session_state.get(state.CLASS_PENDING)
    return pending is not None and following() == pending.code


def apply_pending(page: st.Page) -> None:
    """At the top of the app's run, before any widget: a follower takes the class's pending view. When the class
    is on another page, that page first (the view stays pending: values set now would not survive the switch);
    then, on the class's page, its widget values. (A session a timer took off its page goes back to it:
    :func:`fragments.timed_fragment`.)"""
    st.session_state.pop(state.CLASS_FRAGMENTS, None)  # noted again by this run's fragments
    st.session_state.pop(QUESTION_READERS, None)  # and so is where the class's question is read
    back = st.session_state.pop(state.CLASS_RETURN, None)
    if back is not None:
        _switch_unless_on(back, page)
    if not _takes_a_view():
        st.session_state.pop(state.CLASS_PENDING, None)  # none, or another class's
        return
    pending: live_class.ClassView = st.session_state[state.CLASS_PENDING]
    _tell_where(pending, page)
    _switch_unless_on(pending.page, page)
    st.session_state.pop(state.CLASS_PENDING)
    if registry.spec_at(pending.page) is not None:
        st.session_state[state.CLASS_ON_PAGE] = pending.page
    st.session_state[state.CLASS_QUESTION] = _question_of(pending)
    for key, value in pending.target.items():
        _take(key, value)
    st.session_state[state.CLASS_APPLIED] = pending.version
    st.session_state[state.CLASS_TARGET] = pending.target


def _tell_where(view: live_class.ClassView, page: st.Page) -> None:
    """The news of a view a follower takes (:func:`show_news`): the first since joining or following again says
    that the screen follows the class, and on which page; a later one that changes the page says where it went.
    (Said before the page switch, which ends the run: the next run, on the class's page, draws it.)"""
    target = registry.spec_at(view.page)
    if st.session_state.get(state.CLASS_APPLIED) is None:
        st.session_state[NEWS] = prose.text(TEXT, "Class news following", code=view.code,
                                            page=page.title if target is None else target.title)
    elif target is not None and view.page != page.url_path:
        st.session_state[NEWS] = prose.text(TEXT, "Class news page", page=target.title)


def _take(key: str, value) -> None:
    """The class's ``value`` for the followed ``key``, unless this session shows it already (an editor or figure
    set again would be redrawn for nothing)."""
    if _shows(key, value):
        return
    if key in FOLLOWED:
        st.session_state[key] = value
    elif key in EDITORS and isinstance(value, dict):
        _apply_editor(key, value)
    elif key in FIGURES and isinstance(value, list):
        try:
            set_figure_ranks(key, value, FIGURES[key])
        except (ValueError, TypeError) as err:  # not the figure's ranks: the learner's own stay
            _LOG.warning("the class's ranks for %s do not fit the figure and were left out: %s", key, err)


def followed_fragment(body: Callable) -> Callable:
    """``@st.fragment`` for a lesson's fragment that builds followed widgets (:data:`FOLLOWED`, :data:`EDITORS`,
    :data:`FIGURES`). For a joined learner it notes which followed widgets it built (so the poll can rerun
    this fragment alone), and at its top, before its widgets, it takes the class's values meant for it. For the
    instructor, a run of this fragment alone ends by sending what changed (a whole run sends after the page).

    The instructor's session has no timer of its own for this: a timer's rerun can carry the page the browser
    showed before a click in the navigation and, arriving while the server is busy, Streamlit (1.67) merges the
    click into it and the click is lost (``benchmarks/concurrent_sessions.py --class --lead page``)."""
    @st.fragment
    @functools.wraps(body)
    def run(*args, **kwargs):
        fragment = fragments.current_fragment()
        if fragment is not None and leading() is not None:
            result = body(*args, **kwargs)
            if fragments.in_fragment_run():
                _send()
            return result
        if fragment is None or st.session_state.get(state.CLASS_JOINED) is None:
            return body(*args, **kwargs)  # no class: nothing to take or note
        _take_in_fragment(fragment)
        built_before = fragments.widget_keys_built()
        result = body(*args, **kwargs)
        where = st.session_state.setdefault(state.CLASS_FRAGMENTS, {})
        for widget in fragments.widget_keys_built() - built_before:
            if widget in _FOLLOWED_BY_WIDGET:
                where[_FOLLOWED_BY_WIDGET[widget]] = fragment
        return result
    return run


def _take_in_fragment(fragment: str) -> None:
    """At the top of a followed fragment: the class's values meant for it; once every fragment the change
    reran has taken its values, the session shows the change's version."""
    pending: InFragments | None = st.session_state.get(state.CLASS_IN_FRAGMENTS)
    if pending is None or fragment not in pending.values:
        return
    if following() != pending.code:
        st.session_state.pop(state.CLASS_IN_FRAGMENTS)
        return
    for key, value in pending.values.pop(fragment).items():
        _take(key, value)
    if not pending.values:
        st.session_state.pop(state.CLASS_IN_FRAGMENTS)
        st.session_state[state.CLASS_APPLIED] = pending.version
        st.session_state[state.CLASS_TARGET] = pending.target


def _rerun_fragments_for(view: live_class.ClassView) -> bool:
    """From the follower's poll: take the class's change by rerunning only the lesson fragments that show it;
    False when it needs the full-app rerun (another page, a question read outside the page's fragments, or a
    value no followed fragment built on this page changed since the session last took the class's values: a
    classroom mode, for one).

    A new question, or its reveal, reruns the fragments that read the class's question in this page's last
    runs (:data:`QUESTION_READERS`): the guess box, the verdict and the numbers are drawn there. (A whole-page
    run of every follower at once, one at a time (:func:`class_turn`), put the guess box on the last of thirty
    screens 2.5 s after the instructor asked: ``benchmarks/concurrent_sessions.py --class --lead ask``.)"""
    if (not fragments.in_fragment_run() or st.session_state.get(state.CLASS_IN_FRAGMENTS) is not None
            or state.CLASS_TARGET not in st.session_state or view.page != st.session_state.get(state.CLASS_ON_PAGE)):
        return False
    question, held = _question_of(view), st.session_state.get(state.CLASS_QUESTION)
    concerned = {each[0].id for each in (question, held) if each is not None} if question != held else set()
    readers = {fragment for fragment, about in st.session_state.get(QUESTION_READERS, ()) if about in concerned}
    if None in readers:  # a part outside the page's fragments shows the question
        return False
    values = live_class.split_by_fragment(view.target, st.session_state[state.CLASS_TARGET],
                                          st.session_state.get(state.CLASS_FRAGMENTS, {}), _shows)
    if values is None:
        return False
    if question != held:  # the fragments that show the question take it (with their values, or none)
        st.session_state[state.CLASS_QUESTION] = question
        for fragment in readers:
            values.setdefault(fragment, {})
    if not values:  # nothing this page shows has changed
        st.session_state[state.CLASS_APPLIED] = view.version
        st.session_state[state.CLASS_TARGET] = view.target
        return True
    st.session_state[state.CLASS_IN_FRAGMENTS] = InFragments(view.code, view.version, view.target, values)
    return fragments.rerun_fragments(values)


def _question_of(view: live_class.ClassView) -> tuple[live_class.Question, bool] | None:
    """The class's question and whether it is revealed, as a follower keeps it (:data:`state.CLASS_QUESTION`)."""
    return None if view.question is None else (view.question, view.revealed)


def class_question(about: str | None = None) -> tuple[live_class.Question, bool] | None:
    """The class's question and whether it is revealed, as this session knows it: the instructor reads it
    from the store, a follower from the view it last applied; None outside a class or with no question.

    ``about``: the id of the question the caller draws something for (whether it is the one open, or revealed):
    a follower notes where (:data:`QUESTION_READERS`), so that its poll reruns only the fragments that show a
    change of that question. A caller that draws nothing from the answer (a callback) gives none."""
    lead = leading()
    if lead is not None:
        try:
            view = live_class.view(store(), lead.code)
        except ClassStoreDown:  # the last one read, until the store answers again
            class_outage.note_down()
            return st.session_state.get(QUESTION_SEEN)
        held = None if view is None or view.question is None else (view.question, view.revealed)
        st.session_state[QUESTION_SEEN] = held
        return held
    if following() is None:
        return None
    if about is not None:
        st.session_state.setdefault(QUESTION_READERS, set()).add((fragments.current_fragment(), about))
    return st.session_state.get(state.CLASS_QUESTION)


def _shows(key: str, value) -> bool:
    """Whether this session shows the class's ``value`` for ``key`` already (as :func:`_send` writes it)."""
    if key not in st.session_state:
        return False
    if key in EDITORS:
        return _editor_values((key,)).get(key) == value
    if key in FIGURES:
        return list(st.session_state[key]) == value
    return st.session_state[key] == value


def _apply_editor(key: str, value: dict) -> None:
    """An editor's order, tray and grades from the class (checked by the editor: a state that does not fit its
    items is left out, and the learner's own stays)."""
    try:
        set_editor_state(key, list(value.get("order", ())), list(value.get("tray", ())),
                         {str(d): int(g) for d, g in dict(value.get("grades", {})).items()})
    except (ValueError, TypeError) as err:
        _LOG.warning("the class's state for editor %s does not fit it and was left out: %s", key, err)


def _editor_values(keys=EDITORS) -> dict[str, dict]:
    """The session's followed editors' states (of ``keys``), as JSON."""
    held = {key: editor_state(key) for key in keys}
    return {key: {"order": list(e.order), "tray": list(e.tray), "grades": dict(e.grades)}
            for key, e in held.items() if e is not None}


def broadcast() -> None:
    """After the instructor's run: send the page and the followed values when they changed (one write; while
    the store is down, nothing is sent, and the next run sends)."""
    if leading() is not None:
        class_outage.survives()(_send)()


def _switch_unless_on(url_path: str | None, page: st.Page) -> None:
    """Go to the page at ``url_path`` (a known page), unless this run is on it already."""
    target = registry.spec_at(url_path)
    if target is not None and url_path != page.url_path:
        st.switch_page(registry.page_for(target))


def show_polls(page: st.Page) -> None:
    """Before the page, in the sidebar: the class's live region (:func:`show_news`, for every session), then (they
    draw nothing) a follower's poll that reads the class's version
    (:data:`POLL_SECONDS`), or, for a learner exploring on their own, one that only says they are still there
    and notices the end of the class. For every session in a class, the page this run draws (the timers check
    it: :func:`fragments.timed_fragment`).

    Early in the run, so that the message that starts the browser's timer goes out at once: a message queued
    at the very end of a run can be lost when the browser's next request starts a new run before it is sent,
    and a follower's page would then stop following (found by ``benchmarks/concurrent_sessions.py --class``).
    """
    show_news()
    joined = st.session_state.get(state.CLASS_JOINED)
    if leading() is None and joined is None:
        return
    st.session_state[state.CLASS_PAGE] = page.url_path
    with st.sidebar:
        if following() is not None:
            _poll()
        elif joined is not None:
            _explorer_poll()


def show_news() -> None:
    """The class's news (:data:`NEWS`) in one polite live region, the sidebar's first element in every session's
    every run: it is there, empty, before a learner joins, and a page switch keeps it (Streamlit redraws the main
    area's elements, and keeps the sidebar's). A screen reader reads its text when it changes, once: a run that
    draws the same text changes nothing on the page. The text is the app's own sentences, escaped."""
    attributes = " ".join(f'{name}="{value}"' for name, value in NEWS_REGION.items())
    region = f"<div {attributes}>{html.escape(st.session_state.get(NEWS, ''))}</div>"
    with st.sidebar, st.container(key="class-news"):
        st.markdown(NEWS_CSS + region, unsafe_allow_html=True)  # Markdown's HTML: React keeps the node, sets its text


def _send() -> None:
    """The page and the followed values to the class, when they changed since the last send."""
    lead = leading()
    if lead is None:
        return
    page = st.session_state.get(state.CLASS_PAGE)
    target = {**{key: st.session_state[key] for key in FOLLOWED if key in st.session_state}, **_editor_values(),
              **{key: list(st.session_state[key]) for key in FIGURES if key in st.session_state}}
    sent = (page, target)
    if st.session_state.get(state.CLASS_SENT) == sent:
        return
    try:
        version = live_class.lead(store(), lead, page=page, target=target, ttl=LIMITS.class_seconds)
    except live_class.NotLeader:
        version = None
    if version is None:  # the class is gone (expired, or ended elsewhere)
        st.session_state.pop(state.CLASS_LEAD, None)
        return
    st.session_state[state.CLASS_SENT] = sent


def _stop_if_ended(code: str) -> int:
    """The class's version; when the class is gone (ended or expired), this session leaves it and the app
    reruns, saying so."""
    version = live_class.version(store(), code)
    if version is None:
        _leave()
        st.session_state[state.CLASS_ENDED] = True
        st.session_state[NEWS] = prose.text(TEXT, "Class ended")
        st.rerun(scope="app")
    return version


@fragments.timed_fragment(live_class.HERE_SECONDS)
@class_outage.polled
def _explorer_poll() -> None:
    code = st.session_state.get(state.CLASS_JOINED)
    if code is not None and following() is None:
        _stop_if_ended(code)
        class_members_ui.say_here(store(), code, now=True)


def _may_go_back() -> bool:
    """Whether a follower the poll found off the class's page goes back now: at most once per
    :data:`BACK_SECONDS`.

    A poll names the page its browser shows. On a busy server the run that took a follower to the class's new
    page can take a while to reach the browser, and its polls meanwhile still name the old page: going back on
    each of them reran that page, again and again, for every follower at once, and the server stopped sending
    anything at all (``benchmarks/concurrent_sessions.py --class --lead page``).
    """
    now = time.monotonic()
    if now - st.session_state.get(state.CLASS_WENT_BACK, -BACK_SECONDS) < BACK_SECONDS:
        return False
    st.session_state[state.CLASS_WENT_BACK] = now
    return True


@st.fragment(run_every=POLL_SECONDS)
@class_outage.polled
def _poll() -> None:
    code = following()
    if code is None:
        return
    version = _stop_if_ended(code)
    class_members_ui.say_here(store(), code)
    astray = fragments.left_page(st.session_state.get(state.CLASS_ON_PAGE))
    if astray and not _may_go_back():
        return  # went back a moment ago: this poll names the old page only because that run has not reached it
    if version != st.session_state.get(state.CLASS_APPLIED) or astray:
        view = live_class.view(store(), code)
        if view is None or (not astray and _rerun_fragments_for(view)):
            return
        st.session_state.pop(state.CLASS_IN_FRAGMENTS, None)
        st.session_state[state.CLASS_PENDING] = view
        st.rerun(scope="app")


def show_banner() -> None:
    """Above the page: which mode a joined learner is in, and the one click that changes it (and ``?class=CODE``
    kept in the address, so that a reload joins again)."""
    joined = st.session_state.get(state.CLASS_JOINED)
    if st.session_state.get(LINK_ERROR):
        st.warning(st.session_state[LINK_ERROR], icon="🔗")
    if st.session_state.get(state.CLASS_ENDED):
        st.info(prose.text(TEXT, "Class ended"), icon="🏁")
        return
    if joined is None:
        return
    if class_outage.is_down():
        st.warning(prose.text(TEXT, "Class connection lost"), icon="📡")
    if st.query_params.get(state.PARAM_CLASS) != joined:  # a page switch drops the address's parameters
        st.query_params[state.PARAM_CLASS] = joined
    text, button = st.columns([2.5, 1], vertical_alignment="center")  # room for the label at 1024 px and projected
    if following():
        text.info(prose.text(TEXT, "Class following", code=joined), icon="🧑‍🏫")
        button.button(prose.text(TEXT, "Class explore"), key=state.CLASS_EXPLORE, on_click=_explore, width="stretch")
    else:
        text.warning(prose.text(TEXT, "Class exploring", code=joined), icon="🧭")
        button.button(prose.text(TEXT, "Class follow"), key=state.CLASS_FOLLOW_AGAIN, on_click=_follow_again,
                      type="primary", width="stretch")


def show_class_controls() -> None:
    """In the Classroom panel: start a class (and, once started, its code, link, QR code and end), or join one."""
    lead = leading()
    if lead is not None:
        st.markdown(prose.text(TEXT, "Class code", code=lead.code))
        _lead_panel(lead.code)
        link = _join_link(lead.code)
        st.caption(prose.text(TEXT, "Class link", link=link))
        st.image(_qr_svg(link), caption=prose.text(TEXT, "Class QR"), width="stretch",
                 alt=prose.text(TEXT, "Class QR alt", link=link))  # an <img> without alt is a barrier (axe image-alt)
        st.button(prose.text(TEXT, "Class end"), key=state.CLASS_END, on_click=_end, icon="🏁", width="stretch")
        return
    if st.session_state.get(state.CLASS_JOINED) is not None:
        class_members_ui.nickname_box(state.CLASS_NICKNAME_BOX, store())
        st.button(prose.text(TEXT, "Class leave"), key=state.CLASS_LEAVE, on_click=_leave, width="stretch")
        return
    if st.session_state.get(GONE):
        st.warning(prose.text(TEXT, "Class gone", code=st.session_state[GONE]), icon="🏁")
    st.button(prose.text(TEXT, "Class start"), key=state.CLASS_START, on_click=_start, icon="📣", width="stretch",
              help=prose.text(TEXT, "Class start help"))
    if st.session_state.get(START_ERROR):
        st.error(st.session_state[START_ERROR], icon="📣")
    st.text_input(prose.text(TEXT, "Class join code"), key=state.CLASS_CODE_INPUT, max_chars=12,
                  on_change=_join)
    st.button(prose.text(TEXT, "Class join"), key=state.CLASS_JOIN, on_click=_join, width="stretch")
    if st.session_state.get(state.CLASS_JOIN_ERROR):
        st.error(st.session_state[state.CLASS_JOIN_ERROR], icon="🔎")


@fragments.timed_fragment(class_members_ui.ROLL_CALL_SECONDS)
def _lead_panel(code: str) -> None:
    """The instructor's roll call, read again every :data:`class_members_ui.ROLL_CALL_SECONDS`, and the class's
    state: while the store is down, "connection lost, retrying"; once it answers without the class (expired,
    or restarted empty), the lead is let go and the panel says so (:data:`GONE`)."""
    try:
        alive = live_class.version(store(), code) is not None
        if alive:
            class_members_ui.show_roll_call(store(), code)
    except ClassStoreDown:
        class_outage.note_down()
        st.warning(prose.text(TEXT, "Class connection lost lead"), icon="📡")
        return
    was_down = class_outage.back_up()
    if not alive:
        st.session_state.pop(state.CLASS_LEAD, None)
        st.session_state[GONE] = code
    if not alive or was_down:
        st.rerun(scope="app")


def show_join_box() -> None:
    """On the home page, for a learner in a class: the code from the instructor's screen, an optional nickname,
    and Join."""
    if leading() is not None or st.session_state.get(state.CLASS_JOINED) is not None:
        return
    with st.container(border=True):
        box, name, button = st.columns([3, 2, 1], vertical_alignment="bottom")
        box.text_input(prose.text(TEXT, "Class join home"), key=state.CLASS_HOME_CODE, max_chars=12,
                       on_change=_join, args=(state.CLASS_HOME_CODE,), placeholder=prose.text(TEXT, "Class join hint"))
        button.button(prose.text(TEXT, "Class join"), key=state.CLASS_HOME_JOIN, on_click=_join,
                      args=(state.CLASS_HOME_CODE,), width="stretch", icon="🧑‍🏫")
        with name:
            class_members_ui.nickname_box(state.CLASS_HOME_NICKNAME, store())
        if st.session_state.get(state.CLASS_JOIN_ERROR):
            st.error(st.session_state[state.CLASS_JOIN_ERROR], icon="🔎")


def _join_link(code: str) -> str:
    """This app's address with ``?class=CODE`` (the address the instructor's browser uses)."""
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{state.PARAM_CLASS}={code}"


def _qr_svg(link: str) -> str:
    """The join link as a QR code, drawn here as SVG (segno; nothing fetched)."""
    return segno.make(link, error="m").svg_inline(scale=6, dark="#1b1f24", light="#ffffff")
