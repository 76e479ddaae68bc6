"""The duel: two rank strips, one above the other on a shared rank axis at one k, each with its live values.

A lesson that compares two orderings shows them here, next to its text, instead of loading them one after
the other into an editor far up the page. Linked, the two editors show *one* ordering (a move on either side
is made on both) scored two ways, e.g. with exponential and with linear gain.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import streamlit as st

from components.course import prose
from components.ranking_editor import EditorState, Scoreboard, editor_state, ranking_editor, set_editor_state
from components.ranking_editor.model import EditorItem
from components.ui import state
from components.ui.widgets import board_hidden, chart_scale, state_before

TEXT = "ui"


@dataclass(frozen=True)
class Side:
    """One column of a duel: its heading (also the list's accessible name), its starting order, its board
    and an optional caption under the list."""

    title: str
    default_order: Sequence[str]
    scoreboard: Scoreboard
    note: str | None = None


def _defaults(items: Sequence[EditorItem]) -> dict[str, int]:
    return {item.id: item.grade for item in items if item.grade is not None}


def _reset(key: str, sides: Sequence[Side], grades: dict[str, int]) -> None:
    for i, side in enumerate(sides):
        set_editor_state(state.duel_side(key, i), side.default_order, grades=grades)


def _follow(key: str) -> None:
    """Linked: the side the learner moved since the last run gives its state to the other one."""
    shown = st.session_state.get(f"{key}.shown")
    left, right = editor_state(state.duel_side(key, 0)), editor_state(state.duel_side(key, 1))
    if shown is None or left is None or right is None:
        return
    for moved, other in ((left, 1), (right, 0)):
        if moved != shown:
            set_editor_state(state.duel_side(key, other), moved.order, moved.tray, moved.grades)
            return


def duel_controls():
    """A row for a duel's controls, drawn before it: the section's k slider (wide) and, beside it, the place for
    the duel's "start again" button (``show_duel(..., reset_in=...)``), so the button costs no line of its own."""
    return st.columns([5, 1], vertical_alignment="bottom")


def show_duel(key: str, items: Sequence[EditorItem], sides: tuple[Side, Side], *, k: int, scope: str,
              k_key: str | None = None, k_max: int | None = None, linked: bool = False, tray: bool = False,
              editable_grades: bool = False, grade_range: tuple[int, int] = (0, 1),
              reset_in=None) -> tuple[EditorState, ...]:
    """Two rank strips of ``items`` (the ranking editor's compact view), one above the other on a shared rank
    axis at the cutoff ``k``, each headed by its side's title and values; return both states. (A page puts its sentence about the pair in a container drawn above
    the duel, so it stays in sight of both boards.)

    Each side's board comes from its :class:`Side`; "predict first" hides both boards until the page
    reveals the numbers of this pair of states (``scope``, signature ``(left, right, k)``, the one the page
    gives :func:`~components.ui.widgets.numbers_revealed`). Dragging either cutoff line sets ``k_key``
    (up to ``k_max``). ``linked``: the two sides start from the same order and every move on one side is
    made on the other at the next run. A button puts both sides back to their starting orders and grades: in
    ``reset_in`` (the place :func:`duel_controls` keeps beside the slider), else under the strips.
    """
    if linked:
        _follow(key)
    keys = [state.duel_side(key, i) for i in range(2)]
    before = [state_before(k_, items, side.default_order, tray=tray, grade_range=grade_range)
              for k_, side in zip(keys, sides)]
    states = list(before)
    for i, side in enumerate(sides):

        def board(current: EditorState, i=i, side=side) -> Scoreboard:
            pair = [current if j == i else s for j, s in enumerate(states)]
            return dataclasses.replace(side.scoreboard, hidden=board_hidden(scope, (*pair, k)))

        states[i] = ranking_editor(items, key=keys[i], default_order=side.default_order, k=k, tray=tray,
                                   editable_grades=editable_grades, grade_range=grade_range, scale=chart_scale(),
                                   label=side.title, scoreboard=board, k_key=k_key, k_max=k_max, view="strip")
        if side.note:
            st.caption(side.note)
    if linked:
        st.session_state[f"{key}.shown"] = states[0]
    (reset_in or st.container()).button(prose.text(TEXT, "Duel reset"), key=f"{key}.reset", icon="↩️",
                                        on_click=_reset, args=(key, sides, _defaults(items)),
                                        help=prose.text(TEXT, "Duel reset help"), width="stretch")
    return tuple(states)
