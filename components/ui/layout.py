"""Page furniture shared by the lessons, each piece reading its prose from lessons/text/<module>.md:
the formula with its "where" list, the summary card, the real-world reps, previous/next links."""
from __future__ import annotations

import streamlit as st

from components.course import prose, quiz
from components.ui import registry
from components.ui.quiz_ui import show_question

TEXT = "ui"  # lessons/text/ui.md: the furniture's own headings


def show_formula(module: str) -> None:
    """The lesson's formula ("## Formula") and the meaning of every symbol ("## Where")."""
    with st.container(border=True):
        st.markdown(prose.section(module, "Formula"))
        st.markdown(prose.text(TEXT, "Where") + "\n\n" + prose.section(module, "Where"))


def show_warm_up(question_id: str) -> None:
    """The lesson's opening warm-up on the lesson before it (think, then reveal)."""
    show_question(quiz.question(question_id), key=f"warmup.{question_id}")


def show_practice(lesson: str) -> None:
    """The lesson's practice questions, each checked in place (graded questions only)."""
    st.subheader(prose.text(TEXT, "Practice"))
    for question in quiz.questions_for(lesson):
        if quiz.is_graded(question):
            with st.container(border=True):
                show_question(question, key=f"{lesson}.{question.id}")


def show_summary_card(module: str) -> None:
    """Three lines: what the metric sees, what it is blind to, when to use it."""
    st.subheader(prose.text(TEXT, "Summary"))
    with st.container(border=True):
        st.markdown(prose.text(TEXT, "Card", sees=prose.section(module, "Card sees"),
                               blind=prose.section(module, "Card blind"), use=prose.section(module, "Card use")))


def show_reps(module: str) -> None:
    """A short checklist for the learner's own pipeline."""
    st.subheader(prose.text(TEXT, "Reps"))
    st.markdown(prose.section(module, "Reps"))


def show_prev_next(module: str) -> None:
    """Links to the previous and next page of the course sequence."""
    before, after = registry.neighbours(module)
    st.divider()
    left, right = st.columns(2)
    if before:
        left.page_link(registry.page_for(before), label=prose.text(TEXT, "Previous", title=before.title), icon="⬅️")
    if after:
        right.page_link(registry.page_for(after), label=prose.text(TEXT, "Next", title=after.title), icon="➡️")


def show_lesson_end(module: str) -> None:
    """Summary card, real-world reps and previous/next, in the lesson format's order."""
    show_summary_card(module)
    show_reps(module)
    show_prev_next(module)
