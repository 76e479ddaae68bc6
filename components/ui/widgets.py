"""Small Streamlit helpers shared by every page: mode controls, figures, metric cards."""
from __future__ import annotations

from typing import Callable, Sequence
from urllib.parse import urlencode

import streamlit as st

from components.course import prose
from components.course.class_answers import Asked
from components.course.steps import arithmetic_steps
from components.engine.formatting import Style, fmt
from components.live_class import panel as live_class
from components.live_class import questions as class_questions
from components.rank_figure import rank_figure
from components.ranking_editor import EditorState, Scoreboard, editor_state, ranking_editor, set_editor_state
from components.ranking_editor.model import initial_state
from components.ui import state
from components.ui.chart_view import PROJECTOR_SCALE, chart_scale, show_chart  # noqa: F401 (the pages' names)

TEXT = "ui"  # lessons/text/ui.md: the labels of the shared controls

# On every page: a metric's label, a page's name in the sidebar and a button's label wrap onto a second line where
# their column is narrow, instead of being cut short with an ellipsis ("nDCG@5 (expo…", "Why does my n…", a preset
# "Top 10, half of the…" at 1024 px or projected with the sidebar open). A formula too wide for its column wraps
# between its equations (each a {group} followed by \allowbreak in lessons/text/), with room between its lines,
# rather than being cut at the column's edge (on a phone; projected with the sidebar open). A formula's box keeps a
# quarter em either side: KaTeX draws a closing bracket's exponent a pixel or two past the width it measures, and the
# box (shrunk to the formula) scrolled sideways by those pixels, with nothing focusable in it (Compare runs' power
# formula at 1366x768). A table's cells wrap their words where the table is wider than its column (Streamlit 1.67
# keeps each cell on one line and scrolls the table sideways, a box with nothing focusable in it, WCAG 2.1.1):
# projected with the sidebar open, a table beside the editor, the four queries' ten cutoffs. In the conventions
# table beside Why does my number differ?'s editor, a name longer than its column is broken anywhere
# (ndcg_score(k=k), relevance_level=2); its values (the second column) never are.
# The keyboard's focus shows as a ring in the primary colour on a page's link (in the sidebar, and a lesson's previous
# and next), a chart's toolbar buttons and the main area (a Tab stop, and the skip link's target), where Streamlit 1.67
# draws none; a text box gets the ring Streamlit draws round its buttons (it has only a 1 px border in the primary
# colour). tests/e2e/test_accessibility.py walks a lesson by keyboard.
# The hidden helpers beside a lesson's editor (components/ui/answer_first.py) take no room, not even the gap between
# elements.
_BASE_CSS = """
<style>
  [data-testid="stMetricLabel"], [data-testid="stMetricLabel"] *,
  [data-testid="stSidebarNavLink"], [data-testid="stSidebarNavLink"] * { white-space: normal !important;
    overflow: visible !important; text-overflow: clip !important; }
  [data-testid="stSidebarNavLink"] { height: auto !important; }
  button [data-testid="stMarkdownContainer"], button [data-testid="stMarkdownContainer"] * {
    white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
  .katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }
  .katex-display > .katex > .katex-html > .base { margin: 0.35em 0; }
  .katex-display { padding-inline: 0.25em; }
  [data-testid="stTable"] :is(th, td) { white-space: normal; }
  [data-testid="stSidebarNavLink"]:focus-visible, [data-testid="stBaseButton-elementToolbar"]:focus-visible,
  [data-testid="stMain"]:focus-visible, [data-testid="stPageLink-NavLink"]:focus-visible {
    outline: #1762d6 solid 2px; outline-offset: -2px; }
  [data-testid="stTextInputRootElement"]:focus-within { box-shadow: rgba(23, 98, 214, 0.5) 0 0 0 0.2rem; }
  .st-key-differ-conventions :is(th, td):not(:nth-child(2)) > [data-testid="stMarkdownContainer"] p {
    overflow-wrap: anywhere; }
  .stElementContainer[class*="st-key-answered-"] { display: none; }
</style>
"""

_PROJECTOR_CSS = f"""
<style>
  html {{ font-size: {PROJECTOR_SCALE * 100:.0f}%; }}
  [data-testid="stMetricValue"] {{ font-size: 3.2rem; }}
  [data-testid="stMainBlockContainer"] {{ padding-top: 2.5rem; max-width: 100%; }}
  [data-testid="stMarkdownContainer"]:not(button *), [data-testid="stCaptionContainer"] {{ color: #000; }}
  [data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li {{ line-height: 1.45; }}
  [data-testid="stTable"] :is(th, td) {{ padding-left: 0.3rem !important; padding-right: 0.3rem !important; }}
</style>
"""


def keep_link_note(note: str | None) -> None:
    """Keep a note about an unusable link value on screen (see :func:`show_link_notes`) until dismissed.

    ``note`` is a reader's note (:class:`components.ui.state.Reading`): Markdown
    whose raw value is a code span. A note the learner dismissed is not shown again.
    """
    if not note or note in st.session_state.get(state.LINK_NOTES_DISMISSED, ()):
        return
    kept = st.session_state.get(state.LINK_NOTES, ())
    if note not in kept:
        st.session_state[state.LINK_NOTES] = (*kept, note)


def _dismiss_link_note(note: str) -> None:
    st.session_state[state.LINK_NOTES] = tuple(n for n in st.session_state.get(state.LINK_NOTES, ()) if n != note)
    st.session_state[state.LINK_NOTES_DISMISSED] = (*st.session_state.get(state.LINK_NOTES_DISMISSED, ()), note)


def show_link_notes(area) -> None:
    """Every kept link note in ``area`` (a container at the top of the page), each with a Dismiss button.

    app.py fills ``area`` after the page ran, so notes the page's readers kept
    on this run show too; they stay through later reruns until dismissed.
    """
    for i, note in enumerate(st.session_state.get(state.LINK_NOTES, ())):
        with area.container(horizontal=True, vertical_alignment="center", key=f"link-note-{i}"):
            st.warning(note, icon="🔗", width="stretch")
            st.button(prose.text(TEXT, "Dismiss"), key=f"link_note.dismiss.{i}", on_click=_dismiss_link_note,
                      args=(note,), help=prose.text(TEXT, "Dismiss help"))


def show_mode_controls() -> None:
    """Sidebar: read the mode flags from the URL once, and offer the projector toggle."""
    for note in state.load_mode_flags(st.query_params, st.session_state):
        keep_link_note(note)
    st.sidebar.toggle(prose.text(TEXT, "Projector mode"), key=state.PROJECTOR,
                      help=prose.text(TEXT, "Projector mode help"))
    show_classroom_controls()
    for flag in state.MODE_FLAGS:  # in the address: a reload or a copied link keeps every mode
        set_url_param(flag, "1" if st.session_state.get(flag) else None)
    st.html(_BASE_CSS)
    if st.session_state[state.PROJECTOR]:
        st.html(_PROJECTOR_CSS)


def read_control(value, default, options=None):
    """A control's value, or ``default`` when it is missing (None) or, given ``options``, not among them.

    A control can hand back None during a quick change (a segmented control
    whose options or key just changed); every page reads its controls through
    this, so such a run shows the default instead of failing.

    Examples
    --------
    >>> read_control(None, "linear", ("linear", "exponential")), read_control("exponential", "linear")
    ('linear', 'exponential')
    """
    if value is None or (options is not None and value not in options):
        return default
    return value


def show_k_slider(key: str, *, hi: int, default: int, label: str | None = None, lo: int = 1,
                  param: str = state.PARAM_K, help: str | None = None) -> int:
    """A slider for the cutoff k that owns ``key``, mirrored in the URL as ``?<param>=`` (the page's main k
    is ``?k=``; a section's own k gets its own name, e.g. ``?blind_k=``).

    On the first run the value comes from the URL when it is valid (else the
    default, with a note saying why); every later change is written back, so a
    copied link opens at the same k. ``label`` defaults to "Cutoff k" (lessons/text/ui.md).
    """
    initial_key = f"{key}.initial"  # the first value, from the URL or the default; fixed for the session
    if initial_key not in st.session_state:
        reading = state.read_k(st.query_params.get(param), default=default, hi=hi, lo=lo, name=param)
        st.session_state[initial_key] = reading.value
        keep_link_note(reading.note)
    value = read_control(st.slider(label or prose.text(TEXT, "Cutoff k"), lo, hi, value=st.session_state[initial_key], key=key, help=help),
                         st.session_state[initial_key])
    set_url_param(param, str(value))
    return int(value)


# --- classroom: predict first, step-by-step arithmetic, links ---------------------------

def show_classroom_controls() -> None:
    """Sidebar toggles for instructors: hide answers, predict first, step through the arithmetic.

    The panel opens with a mode on and stays open for the session once it has been (switching the last
    toggle off does not fold it away under the pointer).
    """
    if any(st.session_state.get(f) for f in (state.REVEAL, state.PREDICT_FIRST, state.STEP_MODE)):
        st.session_state[state.CLASSROOM_OPEN] = True
    with st.sidebar.expander(prose.text(TEXT, "Classroom"), icon="🧑‍🏫",
                             expanded=bool(st.session_state.get(state.CLASSROOM_OPEN))):
        st.toggle(prose.text(TEXT, "Hide answers"), key=state.REVEAL, help=prose.text(TEXT, "Hide answers help"))
        st.toggle(prose.text(TEXT, "Predict first"), key=state.PREDICT_FIRST,
                  help=prose.text(TEXT, "Predict first help"))
        st.toggle(prose.text(TEXT, "Step mode"), key=state.STEP_MODE, help=prose.text(TEXT, "Step mode help"))
        live_class.show_class_controls()


def _reveal(key: str, signature: str) -> None:
    st.session_state[key] = signature


def numbers_hidden(scope: str, signature) -> bool:
    """Whether "predict first" hides the numbers of this state (nothing drawn: see :func:`numbers_revealed`):
    until this session reveals them, or the live class it follows reveals its question about them."""
    if not st.session_state.get(state.PREDICT_FIRST) or st.session_state.get(f"predict.{scope}") == repr(signature):
        return False
    return not class_questions.value_revealed(scope, signature)


def numbers_revealed(scope: str, signature, ask: Callable[[], Asked] | None = None) -> bool:
    """With "predict first" on, False (and a reveal button) until the numbers of *this* state are revealed.

    ``signature`` describes the state the numbers belong to (order, k, gain...):
    any change hides them again, so the class can predict the new value.
    ``ask`` (the hidden value, its label and known slips) lets a live class predict it together: the
    instructor asks, the learners guess here, the instructor reveals (:mod:`components.live_class.questions`);
    once revealed, the instructor sees the guesses here, above the numbers.
    """
    if not numbers_hidden(scope, signature):
        if ask is not None:
            class_questions.show_value_result(scope, signature, ask)
        return True
    key, sig = f"predict.{scope}", repr(signature)
    if ask is not None and class_questions.show_value_question(scope, signature, ask, lambda: _reveal(key, sig)):
        return False
    st.button(prose.text(TEXT, "Reveal numbers"), key=f"{key}.button", on_click=_reveal, args=(key, sig),
              type="primary", icon="👀", help=prose.text(TEXT, "Reveal numbers help"))
    return False


def shown(value: float, revealed: bool, style: Style = "metric") -> str:
    """A value for display, or "?" while the class is predicting it."""
    return fmt(value, style) if revealed else "?"


def steps_done(key: str, text: str) -> bool:
    """Whether the page's numbers may show: False while step-by-step mode walks through ``text`` (the
    arithmetic :func:`show_steps` shows under the same ``key``) and has not reached its last step, so the
    cards and the live board give the result with the last line, not before it."""
    if not st.session_state.get(state.STEP_MODE):
        return True
    total = len(arithmetic_steps(text))
    seen = st.session_state.get(f"steps.{key}.text") == text
    return total <= 1 or (seen and st.session_state.get(f"steps.{key}.n", 1) >= total)


def board_hidden(scope: str, signature, arithmetic: Callable[[], str] | None = None) -> bool:
    """Whether a live board hides its numbers: "predict first" hides this state's (:func:`numbers_hidden`),
    or step-by-step mode has not reached the last step of ``arithmetic()`` (built only in that mode)."""
    if numbers_hidden(scope, signature):
        return True
    return (arithmetic is not None and bool(st.session_state.get(state.STEP_MODE))
            and not steps_done(scope, arithmetic()))


def _step(key: str, delta: int | None) -> None:
    st.session_state[key] = 1 if delta is None else st.session_state.get(key, 1) + delta


_DISPLAY_STYLE = r"\displaystyle"  # full-size fractions in inline math


def _math_line(line: str) -> None:
    st.markdown(f"${_DISPLAY_STYLE} {line}$")


def show_steps(text: str, *, key: str, latex: bool = False) -> None:
    """Worked arithmetic, all at once or, in step-by-step mode, one step per "Next step".

    Stepping starts over whenever the arithmetic itself changes (a new order or k). ``latex``: one LaTeX
    line per step, set as inline math so a long sum wraps after a + or = in a narrow column instead of
    being cut off at its edge.
    """
    render = _math_line if latex else st.markdown
    if not st.session_state.get(state.STEP_MODE):
        for line in (text.splitlines() if latex else [text]):
            render(line)
        return
    lines = arithmetic_steps(text)
    count_key, seen_key = f"steps.{key}.n", f"steps.{key}.text"
    if st.session_state.get(seen_key) != text:
        st.session_state[seen_key], st.session_state[count_key] = text, 1
    count = min(st.session_state[count_key], len(lines))
    for line in lines[:count]:
        render(line)
    with st.container(horizontal=True, gap="small"):
        st.button(prose.text(TEXT, "Next step"), key=f"steps.{key}.next", icon="➡️", disabled=count >= len(lines),
                  on_click=_step, args=(count_key, 1))
        st.button(prose.text(TEXT, "Show all"), key=f"steps.{key}.all", disabled=count >= len(lines),
                  on_click=_step, args=(count_key, len(lines)))
        st.button(prose.text(TEXT, "Start over"), key=f"steps.{key}.restart", disabled=count <= 1, on_click=_step,
                  args=(count_key, None))


def show_link_to_view(key: str = "link_to_view") -> None:
    """The address of this exact view (k, orders, grades, gain, modes), ready to copy.

    Built only while the expander is open (``key`` holds whether it is), so a
    drag or a slider move does not re-send it.
    """
    box = st.expander(prose.text(TEXT, "Link to view"), icon="🔗", key=key, on_change="rerun")
    if not box.open:
        return
    query = urlencode({name: st.query_params.get(name) for name in st.query_params})
    base = (st.context.url or "").split("?")[0]
    with box:
        st.caption(prose.text(TEXT, "Link to view caption"))
        st.code(f"{base}?{query}" if query else base, language=None)


# --- deep links for ranking editors --------------------------------------------------------

def show_ranking_editor(items, *, key: str, default_order, url_suffix: str = "", address: bool = True, **options):
    """The ranking editor, with its order and grades mirrored in the URL (``order``/``grades`` + suffix).

    On the first run a valid order and grades in the URL replace the default
    (an invalid one is noted and ignored); every later state is written back, unless ``address`` is False (a run of
    the editor's own fragment, whose section's run writes it just after: components/ui/answer_first.py; the
    address's change costs the browser a render of the page, about 15 ms of the drop's answer).
    """
    order_param, grades_param = state.PARAM_ORDER + url_suffix, state.PARAM_GRADES + url_suffix
    read_key = f"{key}.url_read"
    if not st.session_state.get(read_key):
        st.session_state[read_key] = True
        ids = [item.id for item in items]
        defaults = {item.id: item.grade for item in items if item.grade is not None}
        lo, hi = options.get("grade_range", (0, 2))
        order = state.read_order(st.query_params.get(order_param), valid_ids=ids, default=default_order,
                                 name=order_param)
        grades = state.read_grades(st.query_params.get(grades_param), valid_ids=list(defaults), default=defaults,
                                   lo=lo, hi=hi)
        keep_link_note(order.note)
        keep_link_note(grades.note)
        if order_param in st.query_params or grades_param in st.query_params:
            set_editor_state(key, order.value, grades=grades.value)
    current = ranking_editor(items, key=key, default_order=default_order, **options)
    if address:
        defaults = {item.id: item.grade for item in items}
        changed = ",".join(f"{i}:{g}" for i, g in current.grades.items() if defaults.get(i) != g)
        set_url_param(order_param, state.write_order(current.order))
        set_url_param(grades_param, changed or None)
    return current


def show_rank_figure(*, key: str, default_ranks, length: int, k: int, scope: str, arithmetic: Callable | None = None,
                     **options):
    """The hit-rank figure, its ranks mirrored in the URL (``ranks``); "predict first" hides its numbers.

    On the first run valid ranks in the URL replace the default (invalid ones
    are noted and ignored); every later state is written back. ``scope`` is the
    page's :func:`numbers_revealed` scope; the signature is ``(ranks, k)``; step-by-step mode hides the
    numbers while ``arithmetic(ranks, k)`` (the page's worked arithmetic) is not at its last step.
    """
    from_url_once(key, state.PARAM_RANKS,
                  lambda raw: state.read_ranks(raw, n=len(default_ranks), length=length, default=default_ranks))
    before = list(st.session_state[key])
    hidden = board_hidden(scope, (before, k), arithmetic and (lambda: arithmetic(before, k)))
    ranks = rank_figure(key=key, default_ranks=default_ranks, length=length, k=k, hidden=hidden, **options)
    set_url_param(state.PARAM_RANKS, state.write_ranks(ranks))
    return ranks


def from_url_once(key: str, param: str, read: Callable[[str | None], state.Reading]) -> None:
    """On the session's first run, put the URL's ``param`` (checked by ``read``) into the control ``key``.

    A value ``read`` refuses is noted (:func:`keep_link_note`) and its default used; pair it with
    :func:`set_url_param` after the control, so the address always holds the control's value.
    """
    if key in st.session_state:
        return
    reading = read(st.query_params.get(param))
    keep_link_note(reading.note)
    st.session_state[key] = reading.value


def set_url_param(name: str, value: str | None) -> None:
    """Write ``value`` into the address as ``?name=`` (None: remove it), only when it changed."""
    if value is None:
        if name in st.query_params:
            del st.query_params[name]
    elif st.query_params.get(name) != value:
        st.query_params[name] = value


# --- live scoreboards of a page whose numbers span several editors ----------------------------

def state_before(key: str, items, default_order, *, tray: bool, grade_range: tuple[int, int]) -> EditorState:
    """An editor's state before this run draws it (on the first run, the state it will start in)."""
    return editor_state(key) or initial_state(items, default_order, tray=tray, grade_range=grade_range)


def shared_scoreboard(states: Sequence[EditorState], i: int, measures: Sequence[str], labels: Sequence[str], *,
                      scope: str, signature: Callable = list, arithmetic: Callable | None = None,
                      own: Sequence[bool] | None = None) -> Callable[[EditorState], Scoreboard]:
    """Editor i's scoreboard for a page-level number (MRR over three lists, the four queries' means).

    ``states`` are every editor's states as they stand (the ones drawn already
    this run, :func:`state_before` for the rest); the board's values are the
    page's means with the other editors fixed. "Predict first" hides them
    while the page's numbers for ``signature(states)`` are hidden (the same
    signature the page gives :func:`numbers_revealed`); step-by-step mode hides them
    while ``arithmetic(states)`` (the page's worked arithmetic) is not at its last step. ``own`` flags the
    measures shown as editor i's own value instead (its RR beside the page's MRR).
    """
    def board(current: EditorState) -> Scoreboard:
        everyone = [current if j == i else s for j, s in enumerate(states)]
        hidden = board_hidden(scope, signature(everyone), arithmetic and (lambda: arithmetic(everyone)))
        return Scoreboard(measures, labels, others=[s for j, s in enumerate(states) if j != i], query_index=i,
                          hidden=hidden, own=own)
    return board
