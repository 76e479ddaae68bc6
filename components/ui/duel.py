"""The duel: rank strips, one above the other on a shared rank axis at one k, each with its live values.

A lesson that compares two orderings shows them here, next to its text, instead of loading them one after
the other into an editor far up the page. One ordering scored two ways (two gains, two ideals) is one strip
whose board holds both sets of values: the same list is not drawn twice.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from components.course import prose
from components.ranking_editor import EditorState, Scoreboard, ranking_editor, set_editor_state
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


def duel_controls() -> list[DeltaGenerator]:
    """A row for a duel's controls, drawn before it: the section's k slider (wide) and, beside it, the place for
    the duel's "start again" button (``show_duel(..., reset_in=...)``), so the button costs no line of its own."""
    return st.columns([2, 1], vertical_alignment="bottom")  # at 1024 px with the sidebar, a narrower one cut the label


def show_duel(key: str, items: Sequence[EditorItem], sides: Sequence[Side], *, k: int, scope: str,
              k_key: str | None = None, k_max: int | None = None, tray: bool = False,
              editable_grades: bool = False, grade_range: tuple[int, int] = (0, 1),
              reset_in: DeltaGenerator) -> tuple[EditorState, ...]:
    """A rank strip of ``items`` (the ranking editor's compact view) per side, one above the other on a shared
    rank axis at the cutoff ``k``, each headed by its side's title and values; return their states. (A page puts
    its sentence about them in a container drawn above, so it stays in sight of every board.)

    Each side's board comes from its :class:`Side`; "predict first" hides the boards until the page reveals the
    numbers of these states (``scope``, signature ``(*states, k)``, the one the page gives
    :func:`~components.ui.widgets.numbers_revealed`). Dragging any cutoff line sets ``k_key`` (up to
    ``k_max``). A button puts every side back to its starting order and grades, in ``reset_in`` (the place
    :func:`duel_controls` keeps beside the slider).
    """
    keys = [state.duel_side(key, i) for i in range(len(sides))]
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
    reset_in.button(prose.text(TEXT, "Duel reset"), key=f"{key}.reset", icon="↩️", on_click=_reset,
                    args=(key, sides, _defaults(items)), help=prose.text(TEXT, "Duel reset help"), width="stretch")
    return tuple(states)
