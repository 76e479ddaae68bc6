"""Practice: every question grouped by lesson (each lesson's section opens with its warm-up), the warm-ups
carried over from earlier topics, and seeded exercises. A row of buttons that wraps (never a tab strip
that hides its last tabs behind an arrow) picks the section shown."""
from __future__ import annotations

import streamlit as st

from components.course import prose, quiz
from components.course.quiz.generated import new_seed
from components.ui import quiz_ui, state
from components.ui.practice_sections import EXERCISES, SECTIONS, WARM_UPS, section_label
from components.ui.widgets import keep_link_note

NAME = "practice"


def _new_exercise(current: str) -> None:
    """Draw a new seed (never the current one) and put it in the URL."""
    st.query_params[state.PARAM_SEED] = new_seed(avoid=current)


def _lesson_section(lesson: str, counts) -> None:
    done, total = counts[lesson]
    st.caption(prose.text(NAME, "Lesson progress", solved=done, total=total))
    # A lesson's own warm-up (on the lesson before) opens its section, as it opens the lesson.
    for question in quiz.questions_for(lesson):
        quiz_ui.show_question(question, key=f"practice.{question.id}")


def _warm_up_section() -> None:
    st.markdown(prose.section(NAME, "Warm-ups"))
    for question in quiz.EARLIER_WARM_UPS:
        quiz_ui.show_question(question, key=f"practice.{question.id}")


def _exercise_section(seed: str, *, from_url: bool) -> None:
    st.markdown(prose.section(NAME, "Exercises"))
    left, right = st.columns([3, 1], vertical_alignment="center")
    left.markdown(prose.text(NAME, "Exercise link" if from_url else "Exercise default", seed=seed))
    right.button(prose.section(NAME, "Button new exercise"), key=state.PRACTICE_NEW_EXERCISE, icon="🎲",
                 type="primary", on_click=_new_exercise, args=(seed,), width="stretch")
    quiz_ui.show_question(quiz.generate_exercise(seed), key=f"practice.generated.{seed}")


def render() -> None:
    st.title(prose.section(NAME, "Title"), anchor=False)
    st.markdown(prose.section(NAME, "Intro"))
    raw_seed = st.query_params.get(state.PARAM_SEED)
    reading = quiz_ui.read_seed(raw_seed)
    keep_link_note(reading.note)

    counts = quiz.progress(quiz_ui.solved())
    shown = st.segmented_control(prose.section(NAME, "Sections label"), SECTIONS, required=True, wrap=True,
                                 default=EXERCISES if raw_seed else SECTIONS[0], key=state.PRACTICE_TABS,
                                 format_func=lambda s: section_label(s, counts), label_visibility="collapsed")
    if shown == WARM_UPS:
        _warm_up_section()
    elif shown == EXERCISES:
        _exercise_section(reading.value, from_url=bool(raw_seed) and reading.note is None)
    else:
        _lesson_section(shown, counts)


if __name__ == "__main__":
    render()
