"""The ranking editor: a Streamlit Components v2 component and the functions that own its state.

The HTML, CSS and JS sit beside this file (``editor.html``, ``editor.css``,
``editor.js``, which imports the DOM helpers of ``dom.js``); the HTML is read
once at import, and the browser fetches the script and the stylesheet once
(:mod:`.served`). There is no frontend build and no iframe (the component
renders in an open shadow root).

State and sync
--------------
``st.session_state[key]`` holds the editor's :class:`EditorState` and is the
source of truth. The browser component (widget key ``<key>-ranking-editor``)
reports each move as a trigger value carrying the *whole* new state and a
sequence number; the ``on_edit_change`` callback checks it and writes
``st.session_state[key]`` before the rerun, so the rerun already shows the new
order. Each render sends the state back with ``ack`` (the last sequence number
seen) and ``rev`` (bumped whenever Python itself sets the state, e.g. a
preset): the browser adopts Python's state when it has nothing newer in flight
or when ``rev`` changed, so fast repeated moves never flicker back and a
preset always wins.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal, Mapping, Sequence

import streamlit as st

from components.course import prose
from components.engine.checks import check_whole
from components.engine.metrics import check_k
from components.ranking_editor.model import (
    DEFAULT_GRADE_RANGE,
    TEXT,
    EditorConfig,
    EditorItem,
    EditorState,
    check_editor_k,
    check_grade_range,
    check_items,
    config_for,
    grade_label,
    grade_labels,
    normalise,
    state_from_payload,
)
from components.ranking_editor.scoreboard import Scoreboard
from components.ranking_editor.scoreboard import payload as scoreboard_payload
from components.ranking_editor.served import component_name, served_component

FOLDER = Path(__file__).parent  # editor.css, editor.js and dom.js, served from here (the figure imports dom.js too)
COMPONENT_NAME = component_name(FOLDER)  # "rankwise.ranking_editor", as the browser's elements name it
_EVENT = "edit"  # the trigger's name: the browser calls setTriggerValue("edit", {...})

STRIP = FOLDER / "strip"  # the compact view's strip.html, strip.js and strip.css (served as "rankwise.strip")
STRIP_TEXT = "rank_strip"  # lessons/text/rank_strip.md: the strip's words
View = Literal["list", "strip"]

_components = {
    "list": served_component(FOLDER, html=(FOLDER / "editor.html").read_text(encoding="utf-8"),
                             js="editor.js"),  # which adopts editor.css
    "strip": served_component(STRIP, html=(STRIP / "strip.html").read_text(encoding="utf-8"), js="strip.js"),
}


@dataclass
class _Book:
    """Per-editor bookkeeping kept in session state beside the EditorState."""

    config: EditorConfig | None = None
    ack: int = 0  # last sequence number received from the browser
    rev: int = 0  # bumped whenever Python sets the state itself
    k_key: str | None = None  # the page's k slider, set when the learner drags the cutoff line
    k_max: int = 0  # the largest k the line can be dragged to


def widget_key(key: str) -> str:
    """The key of the browser component behind the editor ``key``."""
    return f"{key}-ranking-editor"


def _book_key(key: str) -> str:
    return f"{key}-ranking-editor-book"


def _book(key: str) -> _Book:
    """The editor's bookkeeping, created on first use."""
    return st.session_state.setdefault(_book_key(key), _Book())


def _check_key(key) -> str:
    """Return ``key``, or raise unless it is a non-empty string without "__" (Streamlit's delimiter)."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string naming the editor's session-state entry, got {key!r}")
    if "__" in key:
        raise ValueError(f"key must not contain '__' (Streamlit reserves it in component ids), got {key!r}")
    return key


# ----------------------------------------------------------------------------
# Reading and setting the state from Python
# ----------------------------------------------------------------------------

def editor_state(key: str) -> EditorState | None:
    """The editor's current state, without rendering it (None before the first render or preset)."""
    value = st.session_state.get(_check_key(key))
    return value if isinstance(value, EditorState) else None


def set_editor_state(key: str, order: Sequence[str], tray: Sequence[str] | None = None,
                     grades: Mapping[str, int] | None = None) -> None:
    """Set the editor's state from Python, e.g. in a preset button's ``on_click``.

    ``order`` is the returned list, top first. Items it leaves out go to the
    tray (or, without a tray, to the end of the list) unless ``tray`` says
    where they go. ``grades`` overrides the grades of the ids it names; None
    keeps the current grades (the learner's edits included): pass every grade
    to reset them.

    Checked at once when the editor has been rendered in this session (else at
    its next render): ``ValueError`` for unknown or repeated ids, a grade
    outside the editor's ``grade_range``, or a tray on an editor without one.
    """
    book = _book(_check_key(key))
    for value, name in ((order, "order"), (tray, "tray")):
        if isinstance(value, str):
            raise ValueError(f"{name} must be a list of ids, not the single string {value!r}")
    current = editor_state(key)
    if book.config is None:
        new = EditorState(order=tuple(order), tray=tuple(tray or ()), grades=dict(grades or {}))
    else:
        base = current.grades if current is not None else None
        new = normalise(book.config, order, tray, grades=grades, base_grades=base)
    st.session_state[key] = new
    book.rev += 1


def _on_edit(key: str) -> None:
    """Callback of the browser's trigger: check the new state and store it before the rerun."""
    book = _book(key)
    result = st.session_state.get(widget_key(key))
    payload = result.get(_EVENT) if result is not None else None
    if not isinstance(payload, Mapping) or book.config is None:
        return
    seq = payload.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool):
        book.ack = max(book.ack, seq)
    try:
        st.session_state[key] = state_from_payload(book.config, payload)
        if "k" in payload and book.k_key is not None:
            st.session_state[book.k_key] = check_whole(payload["k"], "k", lo=1, hi=book.k_max)
    except ValueError:
        # A stale or malformed message: keep Python's state; the new ack makes
        # the browser adopt it again.
        book.rev += 1


# ----------------------------------------------------------------------------
# Rendering
# ----------------------------------------------------------------------------

def _current_state(key: str, config: EditorConfig, default_order: Sequence[str]) -> EditorState:
    """The state to show: the stored one (completed and checked), else one from ``default_order``."""
    initial = normalise(config, default_order)  # checked on every render, so a bad default fails at once
    stored = st.session_state.get(key)
    if stored is None:
        return initial
    if not isinstance(stored, EditorState):
        raise ValueError(f"st.session_state[{key!r}] must hold an EditorState (set it with set_editor_state), "
                         f"got {type(stored).__name__}")
    base = {**config.item_grades, **stored.grades}
    try:
        return normalise(config, stored.order, stored.tray, base_grades=base)
    except ValueError as error:
        raise ValueError(f"st.session_state[{key!r}] does not fit this editor's items ({error}); "
                         f"give each set of items its own key, e.g. key=f'editor-{{query_id}}'") from None


def _payload(items: Sequence[EditorItem], state: EditorState, book: _Book, *, k, show_grades, editable_grades,
             grade_range, tray, scale, label, view: View, scroll_in_place: bool = False, fixed: bool = False) -> dict:
    """Everything the browser needs to draw the editor (JSON-serialisable)."""
    return {
        "items": [{"id": i.id, "title": i.title} for i in items],
        "order": list(state.order),
        "tray": list(state.tray),
        "grades": dict(state.grades),
        "k": k,
        "kDrag": book.k_max if book.k_key is not None and k is not None else None,  # the line's largest k
        "showGrades": bool(show_grades),
        "editableGrades": bool(editable_grades and show_grades),
        "gradeRange": list(grade_range),
        "gradeLabels": {str(g): text for g, text in grade_labels(grade_range).items()},
        "unjudgedLabel": grade_label(None),
        "text": dict(prose.sections(STRIP_TEXT if view == "strip" else TEXT)),  # the browser fills the {placeholders}
        "trayEnabled": bool(tray),
        "scrollInPlace": bool(scroll_in_place),
        "fixed": bool(fixed),
        "scale": float(scale),
        "label": label,
        "ack": book.ack,
        "rev": book.rev,
    }


def ranking_editor(items: Sequence[EditorItem], *, key: str, default_order: Sequence[str], k: int | None = None,
                   show_grades: bool = True, editable_grades: bool = False,
                   grade_range: tuple[int, int] = DEFAULT_GRADE_RANGE, tray: bool = False,
                   scale: float = 1.0, label: str | None = None,
                   scoreboard: Scoreboard | Callable[[EditorState], Scoreboard] | None = None,
                   k_key: str | None = None, k_max: int | None = None, view: View = "list",
                   scroll_in_place: bool = False, fixed: bool = False) -> EditorState:
    """Show a ranking the learner can reorder; return its current :class:`EditorState`.

    Parameters
    ----------
    items : the pool of documents (unique ids; grades inside ``grade_range``).
    key : the session-state key that holds the state (the source of truth;
        the browser component itself uses ``<key>-ranking-editor``; no "__").
    default_order : the returned list on first render, top first. Every other
        item goes to the tray when ``tray=True``, else to the end of the list.
    k : draw the cutoff line between positions k and k + 1 ("top k" above,
        "not seen" below); None for no line.
    show_grades : show each item's grade badge (words and colour).
    editable_grades : let the learner change grades (buttons − / +, keys
        + / − and digits) within ``grade_range`` (only with ``show_grades``).
    grade_range : (lowest, highest) grade, inclusive.
    tray : show the "Not returned" zone for judged documents the system did
        not return; the T and Delete keys and a button per row move an item
        between list and tray.
    scale : type size factor (pass ``widgets.chart_scale()`` for projector
        mode; the editor sizes itself from the theme's base font, so the
        page's projector style does not scale it twice).
    label : the list's visible and accessible name (default "Ranked documents", lessons/text/editor.md).
    scoreboard : the page's metrics, shown in the editor's header and previewed during a move
        (:class:`~components.ranking_editor.scoreboard.Scoreboard`, or a function of the editor's
        current state giving one, for a board that depends on it: "predict first" hides the
        numbers of each new state); None for none.
    k_key, k_max : the session-state key of the page's k slider and its largest value: the learner
        can then drag the cutoff line (to 1..k_max, at most the list's length), which sets the slider
        (the slider stays the keyboard way); None for a line that does not move.
    view : ``"list"``, the full list (a row per document with its title, grade and buttons), or
        ``"strip"``, the compact view for a comparison: one row of cells, one per position, each showing its
        document's grade (its title on hover, on focus and in its accessible name), the judged relevant
        documents not returned in a box at the row's end, the board's values at the row's head. The same
        state, moves (drag, keys, buttons) and board; stacked strips share their rank axis.
    scroll_in_place : a long list scrolls inside its own box, at most about 60 % of the window's height
        (a lesson's full list: its board, its rows and the page's numbers beside it fit one screen); a drag
        near the box's edge scrolls the box, never the page.
    fixed : a strip (``view="strip"`` only) that shows an order the page makes, such as a fused list: nothing
        moves; a click or the arrow keys choose a cell and its title shows under the row (put what the learner
        should read about it there). The page sets its order with :func:`set_editor_state`.

    Raises
    ------
    ValueError
        Repeated or unknown ids, a grade outside ``grade_range``, k < 1, a
        stored state that does not fit ``items``.

    The first call initialises ``st.session_state[key]``; later calls show the
    stored state (a preset set with :func:`set_editor_state`, or the
    learner's last move).

    Latency: a move reruns the enclosing ``@st.fragment`` and Streamlit
    re-sends every element in it, so keep that fragment to the editor, its
    numbers and its chart (``benchmarks/interaction_latency.py`` measures a
    page; each extra element costs a few ms on a 2-core machine).
    """
    key = _check_key(key)
    if view not in _components:
        raise ValueError(f"view must be one of {sorted(_components)}, got {view!r}")
    if fixed and (view != "strip" or k_key is not None or editable_grades):
        raise ValueError("fixed=True is for a strip (view='strip') whose line and grades do not move")
    grade_range = check_grade_range(grade_range)
    items = check_items(items, grade_range)
    k = check_editor_k(k)
    if not isinstance(scale, (int, float)) or not 0.5 <= scale <= 4:
        raise ValueError(f"scale must be a number from 0.5 to 4 (1 = normal, 1.5 = projector), got {scale!r}")
    config = config_for(items, tray, grade_range)
    book = _book(key)
    book.config = config
    book.k_key = k_key
    book.k_max = check_k(k_max, "k_max") if k_key is not None else 0
    state = _current_state(key, config, default_order)
    if st.session_state.get(key) != state:
        st.session_state[key] = state
    data = _payload(items, state, book, k=k, show_grades=show_grades, editable_grades=editable_grades,
                    grade_range=grade_range, tray=tray, scale=scale,
                    label=prose.text(TEXT, "Label") if label is None else str(label), view=view,
                    scroll_in_place=scroll_in_place, fixed=fixed)
    if callable(scoreboard):
        scoreboard = scoreboard(state)
    if scoreboard is not None:
        data["score"] = scoreboard_payload(scoreboard, state, k=k, tray=tray, grade_range=grade_range,
                                           editable_grades=bool(editable_grades and show_grades))
    _components[view](key=widget_key(key), data=data, on_edit_change=functools.partial(_on_edit, key))
    return state


__all__ = ["EditorItem", "EditorState", "editor_state", "ranking_editor", "set_editor_state", "widget_key"]
