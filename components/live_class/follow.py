"""Following a live class: the instructor's page and values go to the class, a learner's page takes them.

The protocol and the store are :mod:`components.live_class.protocol` and :mod:`components.live_class.store`;
starting, joining and leaving are :mod:`components.live_class.panel`. This module wires the following to a session:

- after every run of the instructor's, :func:`broadcast` sends the page and the followed widget values
  (:data:`FOLLOWED`), editors (:data:`EDITORS`) and figures (:data:`FIGURES`) when they changed; a change inside a
  lesson's fragment (which reruns alone) is sent at the end of that fragment's run;
- while a learner follows, :func:`show_polls` runs a fragment that reruns every :data:`POLL_SECONDS`, reads the
  class's version (one number) and, when it moved, keeps the class's view as pending and asks for a full-app
  rerun; at the top of that run, before any widget is built, :func:`apply_pending` sets the widget values and goes
  to the class's page (such runs go one at a time: :func:`components.live_class.app_run.class_turn`). "Explore on
  my own" stops following; "Follow the class" takes the class's latest view again.
- who is there: a joined learner's session says so when it joins and every few seconds after, with an
  optional nickname, and the instructor's panel shows the roll call (:mod:`components.live_class.members`).
- most changes (a new k, an order, a grade) are widgets inside one lesson
  fragment: a lesson draws those with :func:`followed_fragment`, which notes
  which followed widgets it built, and the poll reruns just those fragments,
  each taking its values at its top before its widgets are built (thirty
  followers rerunning a whole page at once are too slow for one process).
  A question asked or revealed reruns the fragments that show it too (they note
  which question they asked about: :func:`class_question`). A new page, a
  classroom mode, a value no fragment showed, or a question shown outside every
  fragment (a practice card) still takes the full-app rerun.
- a screen reader hears the class's news in one polite live region at the top of the sidebar (:func:`show_news`):
  following the class (with its page), exploring alone, a page change and the end of the class.
- when the class store cannot be reached (:class:`~components.live_class.store.ClassStoreDown`), the store
  calls of a run are caught (:func:`outage.survives` and the polls): learners and the instructor read
  "the class's connection is lost, retrying", and the polls go on; when it answers again without the class
  (restarted empty), the instructor's lead is let go, saying so, and the learners are told it ended.
"""
from __future__ import annotations

import functools
import html
import logging
import time
from contextvars import ContextVar
from typing import Callable

import streamlit as st

from components import rank_figure, ranking_editor
from components.course import prose, scenarios
from components.live_class import members, outage, panel, protocol, session
from components.live_class.session import BACK_SECONDS, InFragments, following, held, leading
from components.live_class.store import ClassStoreDown
from components.live_class.timers import left_page, timed_fragment
from components.rank_figure import set_figure_ranks
from components.ranking_editor import editor_state, set_editor_state
from components.serving import streamlit_compat
from components.serving.settings import LIMITS
from components.ui import registry, state

_LOG = logging.getLogger(__name__)

TEXT = "ui"
POLL_SECONDS = LIMITS.poll_seconds  # how often a follower's session reads the class's version (1 s)
NEWS_REGION = {"role": "status", "aria-live": "polite", "aria-atomic": "true", "data-testid": "class-news"}
# The live region's box: out of sight and out of the sidebar's flow (no gap), yet read (not display: none).
NEWS_CSS = ('<style>[data-testid="stLayoutWrapper"]:has(> .st-key-class-news) { position: absolute; width: 1px; '
            'height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }</style>')
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


def takes_a_view() -> bool:
    """Whether this run will take the class's pending view (:func:`apply_pending`)."""
    pending = held().pending
    return pending is not None and following() == pending.code


def apply_pending(page: st.Page) -> None:
    """At the top of the app's run, before any widget: a follower takes the class's pending view. When the class
    is on another page, that page first (the view stays pending: values set now would not survive the switch);
    then, on the class's page, its widget values. (A session a timer took off its page goes back to it:
    :func:`components.live_class.timers.timed_fragment`.)"""
    ours = held()
    ours.fragments = {}  # noted again by this run's fragments
    ours.question_readers = set()  # and so is where the class's question is read
    back, ours.return_to = ours.return_to, None
    if back is not None:
        _switch_unless_on(back, page)
    pending = ours.pending
    if pending is None or not takes_a_view():
        ours.pending = None  # none, or another class's
        return
    _tell_where(pending, page)
    _switch_unless_on(pending.page, page)
    ours.pending = None
    if registry.spec_at(pending.page) is not None:
        ours.on_page = pending.page
    ours.question = _question_of(pending)
    for key, value in pending.target.items():
        _take(key, value)
    ours.applied, ours.target = pending.version, pending.target


def _tell_where(view: protocol.ClassView, page: st.Page) -> None:
    """The news of a view a follower takes (:func:`show_news`): the first since joining or following again says
    that the screen follows the class, and on which page; a later one that changes the page says where it went.
    (Said before the page switch, which ends the run: the next run, on the class's page, draws it.)"""
    target, ours = registry.spec_at(view.page), held()
    if ours.applied is None:
        ours.news = prose.text(TEXT, "Class news following", code=view.code,
                               page=page.title if target is None else target.title)
    elif target is not None and view.page != page.url_path:
        ours.news = prose.text(TEXT, "Class news page", page=target.title)


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


# The followed fragment whose body this thread is drawing, where :func:`class_question` notes a reader: a fragment
# nested in it (a lesson editor's own, components/ui/answer_first.py) is rerun by the poll only through it, and
# anything else (a practice card's fragment) by the full-app rerun.
_DRAWING: ContextVar[str | None] = ContextVar("rankwise_followed_fragment", default=None)


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
        fragment = streamlit_compat.current_fragment()
        if fragment is not None and leading() is not None:
            result = body(*args, **kwargs)
            if streamlit_compat.in_fragment_run():
                _send()
            return result
        if fragment is None or held().joined is None:
            return body(*args, **kwargs)  # no class: nothing to take or note
        _take_in_fragment(fragment)
        built_before = streamlit_compat.widget_keys_built()
        drawing = _DRAWING.set(fragment)
        try:
            result = body(*args, **kwargs)
        finally:
            _DRAWING.reset(drawing)
        where = held().fragments
        for widget in streamlit_compat.widget_keys_built() - built_before:
            if widget in _FOLLOWED_BY_WIDGET:
                where[_FOLLOWED_BY_WIDGET[widget]] = fragment
        return result
    return run


def _take_in_fragment(fragment: str) -> None:
    """At the top of a followed fragment: the class's values meant for it; once every fragment the change
    reran has taken its values, the session shows the change's version."""
    ours = held()
    pending = ours.in_fragments
    if pending is None or fragment not in pending.values:
        return
    if following() != pending.code:
        ours.in_fragments = None
        return
    for key, value in pending.values.pop(fragment).items():
        _take(key, value)
    if not pending.values:
        ours.in_fragments, ours.applied, ours.target = None, pending.version, pending.target


def _rerun_fragments_for(view: protocol.ClassView) -> bool:
    """From the follower's poll: take the class's change by rerunning only the lesson fragments that show it;
    False when it needs the full-app rerun (another page, a question read outside the page's fragments, or a
    value no followed fragment built on this page changed since the session last took the class's values: a
    classroom mode, for one).

    A new question, or its reveal, reruns the fragments that read the class's question in this page's last
    runs (``ClassState.question_readers``): the guess box, the verdict and the numbers are drawn there. (A
    whole-page run of every follower at once, one at a time (:func:`~components.live_class.app_run.class_turn`),
    put the guess box on the last of thirty screens 2.5 s after the instructor asked:
    ``benchmarks/concurrent_sessions.py --class --lead ask``.)"""
    ours = held()
    if (not streamlit_compat.in_fragment_run() or ours.in_fragments is not None or ours.target is None
            or view.page != ours.on_page):
        return False
    question, shown = _question_of(view), ours.question
    concerned = {each[0].id for each in (question, shown) if each is not None} if question != shown else set()
    asking = {fragment for fragment, about in ours.question_readers if about in concerned}
    if None in asking:  # a part outside the page's fragments shows the question
        return False
    readers = {fragment for fragment in asking if fragment is not None}
    values = protocol.split_by_fragment(view.target, ours.target, ours.fragments, _shows)
    if values is None:
        return False
    if question != shown:  # the fragments that show the question take it (with their values, or none)
        ours.question = question
        for fragment in readers:
            values.setdefault(fragment, {})
    if not values:  # nothing this page shows has changed
        ours.applied, ours.target = view.version, view.target
        return True
    ours.in_fragments = InFragments(view.code, view.version, view.target, values)
    return streamlit_compat.rerun_fragments(values)


def _question_of(view: protocol.ClassView) -> tuple[protocol.Question, bool] | None:
    """The class's question and whether it is revealed, as a follower keeps it (``ClassState.question``)."""
    return None if view.question is None else (view.question, view.revealed)


def class_question(about: str | None = None) -> tuple[protocol.Question, bool] | None:
    """The class's question and whether it is revealed, as this session knows it: the instructor reads it
    from the store, a follower from the view it last applied; None outside a class or with no question.

    ``about``: the id of the question the caller draws something for (whether it is the one open, or revealed):
    a follower notes where (``ClassState.question_readers``: the followed fragment drawing it, else None), so that
    its poll reruns only the fragments that show a change of that question. A caller that draws nothing from the
    answer (a callback) gives none."""
    lead = leading()
    if lead is not None:
        try:
            view = protocol.view(session.store(), lead.code)
        except ClassStoreDown:  # the last one read, until the store answers again
            outage.note_down()
            return held().question_seen
        seen = None if view is None or view.question is None else (view.question, view.revealed)
        held().question_seen = seen
        return seen
    if following() is None:
        return None
    if about is not None:
        held().question_readers.add((_DRAWING.get(), about))
    return held().question


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
    editors = {key: editor_state(key) for key in keys}
    return {key: {"order": list(e.order), "tray": list(e.tray), "grades": dict(e.grades)}
            for key, e in editors.items() if e is not None}


def broadcast() -> None:
    """After the instructor's run: send the page and the followed values when they changed (one write; while
    the store is down, nothing is sent, and the next run sends)."""
    if leading() is not None:
        outage.survives()(_send)()


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
    it: :func:`components.live_class.timers.timed_fragment`).

    Early in the run, so that the message that starts the browser's timer goes out at once: a message queued
    at the very end of a run can be lost when the browser's next request starts a new run before it is sent,
    and a follower's page would then stop following (found by ``benchmarks/concurrent_sessions.py --class``).
    """
    show_news()
    joined = held().joined
    if leading() is None and joined is None:
        return
    held().page = page.url_path
    with st.sidebar:
        if following() is not None:
            _poll()
        elif joined is not None:
            _explorer_poll()


def show_news() -> None:
    """The class's news (``ClassState.news``) in one polite live region, the sidebar's first element in every session's
    every run: it is there, empty, before a learner joins, and a page switch keeps it (Streamlit redraws the main
    area's elements, and keeps the sidebar's). A screen reader reads its text when it changes, once: a run that
    draws the same text changes nothing on the page. The text is the app's own sentences, escaped."""
    attributes = " ".join(f'{name}="{value}"' for name, value in NEWS_REGION.items())
    region = f"<div {attributes}>{html.escape(held().news)}</div>"
    with st.sidebar, st.container(key="class-news"):
        st.markdown(NEWS_CSS + region, unsafe_allow_html=True)  # Markdown's HTML: React keeps the node, sets its text


def _send() -> None:
    """The page and the followed values to the class, when they changed since the last send."""
    lead = leading()
    if lead is None:
        return
    page = held().page
    target = {**{key: st.session_state[key] for key in FOLLOWED if key in st.session_state}, **_editor_values(),
              **{key: list(st.session_state[key]) for key in FIGURES if key in st.session_state}}
    sent = (page, target)
    if held().sent == sent:
        return
    try:
        version = protocol.lead(session.store(), lead, page=page, target=target, ttl=LIMITS.class_seconds)
    except protocol.NotLeader:
        version = None
    if version is None:  # the class is gone (expired, or ended elsewhere)
        held().lead = None
        return
    held().sent = sent


def _stop_if_ended(code: str) -> int:
    """The class's version; when the class is gone (ended or expired), this session leaves it and the app
    reruns, saying so."""
    version = protocol.version(session.store(), code)
    if version is None:
        panel.leave()
        held().ended, held().news = True, prose.text(TEXT, "Class ended")
        st.rerun(scope="app")
    return version


@timed_fragment(protocol.HERE_SECONDS)
@outage.polled
def _explorer_poll() -> None:
    code = held().joined
    if code is not None and following() is None:
        _stop_if_ended(code)
        members.say_here(session.store(), code, now=True)


def _may_go_back() -> bool:
    """Whether a follower the poll found off the class's page goes back now: at most once per
    :data:`BACK_SECONDS`.

    A poll names the page its browser shows. On a busy server the run that took a follower to the class's new
    page can take a while to reach the browser, and its polls meanwhile still name the old page: going back on
    each of them reran that page, again and again, for every follower at once, and the server stopped sending
    anything at all (``benchmarks/concurrent_sessions.py --class --lead page``).
    """
    now, ours = time.monotonic(), held()
    if now - ours.went_back < BACK_SECONDS:
        return False
    ours.went_back = now
    return True


@st.fragment(run_every=POLL_SECONDS)
@outage.polled
def _poll() -> None:
    code = following()
    if code is None:
        return
    version = _stop_if_ended(code)
    members.say_here(session.store(), code)
    astray = left_page(held().on_page)
    if astray and not _may_go_back():
        return  # went back a moment ago: this poll names the old page only because that run has not reached it
    if version != held().applied or astray:
        view = protocol.view(session.store(), code)
        if view is None or (not astray and _rerun_fragments_for(view)):
            return
        held().in_fragments, held().pending = None, view
        st.rerun(scope="app")


