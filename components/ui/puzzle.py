"""A constraint puzzle in place: a rank strip of the lesson's pool, its live values, and the check after each move."""
from __future__ import annotations

from typing import Sequence

import streamlit as st

from components.course import prose
from components.course.puzzles import Puzzle
from components.ranking_editor import Scoreboard, ranking_editor, set_editor_state
from components.ranking_editor.model import editor_items
from components.ui.widgets import chart_scale

TEXT = "ui"


def _start_again(key: str, puzzle: Puzzle) -> None:
    set_editor_state(key, puzzle.reference, grades={d.id: d.grade for d in puzzle.query.docs if d.grade is not None})


@st.fragment
def show_puzzle(puzzle: Puzzle, *, key: str, labels: Sequence[str], k: int, grade_range: tuple[int, int]) -> bool:
    """The puzzle's rank strip (starting from the reference order, tray of the pool's other judged pages, cutoff
    line at ``k``), its board with the constrained measures under ``labels``, and one line per constraint:
    met or not yet, with the learner's value beside the reference's. Return whether it is solved."""
    measures = [c.measure for c in puzzle.constraints]
    reference = puzzle.reference_values
    caption_at, reset_at = st.columns([2, 1], vertical_alignment="center")  # the button costs no line of its own
    caption_at.caption(prose.text(TEXT, "Puzzle reference", values=", ".join(
        f"{label} = {reference[m]}" for label, m in zip(labels, measures))))
    verdict = st.container()  # above the list: in sight while the learner moves rows
    current = ranking_editor(editor_items(puzzle.query.docs), key=key, default_order=puzzle.reference, k=k,
                             tray=True, grade_range=grade_range, scale=chart_scale(),
                             label=prose.section(TEXT, "Puzzle editor"),
                             scoreboard=Scoreboard(measures, labels, gain=puzzle.gain), view="strip")
    outcomes = puzzle.check(current.order)
    lines = [prose.text(TEXT, "Puzzle met" if o.met else "Puzzle not met", measure=label, yours=o.yours,
                        reference=o.reference, relation=prose.section(TEXT, f"Puzzle {o.constraint.relation}"))
             for label, o in zip(labels, outcomes)]
    solved = all(o.met for o in outcomes)
    checked = "\n".join(f"- {line}" for line in lines)
    # A bordered box, not an alert: an alert is a live region of its own, and a screen reader would read the check
    # again after every move, over the strip's own announcement of it.
    verdict.container(border=True).markdown("🎉 " + prose.section(TEXT, "Puzzle solved") + "\n\n" + checked
                                            if solved else checked)
    reset_at.button(prose.text(TEXT, "Puzzle start again"), key=f"{key}.reset", icon="↩️", on_click=_start_again,
                    args=(key, puzzle), help=prose.text(TEXT, "Puzzle start again help"), width="stretch")
    return solved
