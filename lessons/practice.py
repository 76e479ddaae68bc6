"""Practice: every question grouped by lesson (each lesson's tab opens with its warm-up), the warm-ups
carried over from earlier topics, and seeded exercises."""
from __future__ import annotations

import secrets

import streamlit as st

from components.course import prose, quiz
from components.ui import quiz_ui, state
from components.ui.widgets import keep_link_note

NAME = "practice"


def _new_exercise(current: int) -> None:
    """Draw a new seed (never the current one) and put it in the URL."""
    seed = current
    while seed == current:
        seed = secrets.randbelow(state.MAX_SEED + 1)
    st.query_params[state.PARAM_SEED] = str(seed)


def _exercise_tab(seed: int, *, from_url: bool) -> None:
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
    reading = state.read_seed(raw_seed, default=quiz.DEFAULT_SEED)
    keep_link_note(reading.note)

    counts = quiz.progress(quiz_ui.solved())
    lesson_labels = [quiz_ui.lesson_title(lesson) for lesson in quiz.LESSONS]
    warm_label = prose.text(NAME, "Tab warm-ups", title=quiz_ui.lesson_title(None))
    exercise_label = prose.section(NAME, "Tab exercises")
    tabs = st.tabs(lesson_labels + [warm_label, exercise_label], key=state.PRACTICE_TABS,
                   default=exercise_label if raw_seed is not None else None)
    for lesson, tab in zip(quiz.LESSONS, tabs):
        with tab:
            done, total = counts[lesson]
            st.caption(prose.text(NAME, "Lesson progress", solved=done, total=total))
            # A lesson's own warm-up (on the lesson before) opens its tab, as it opens the lesson.
            for question in quiz.questions_for(lesson):
                quiz_ui.show_question(question, key=f"practice.{question.id}")
    with tabs[len(quiz.LESSONS)]:
        st.markdown(prose.section(NAME, "Warm-ups"))
        for question in quiz.EARLIER_WARM_UPS:
            quiz_ui.show_question(question, key=f"practice.{question.id}")
    with tabs[-1]:
        _exercise_tab(reading.value, from_url=raw_seed is not None and reading.note is None)


if __name__ == "__main__":
    render()
