"""Page furniture shared by the lessons, each piece reading its prose from lessons/text/<module>.md:
the formula with its "where" list, the summary card, the real-world reps, previous/next links."""
from __future__ import annotations

from typing import Sequence

import streamlit as st

from components.course import prose, quiz
from components.live_class import questions as class_questions
from components.ui import registry
from components.ui.chart_view import chart_scale
from components.ui.quiz_ui import show_question, solved

TEXT = "ui"  # lessons/text/ui.md: the furniture's own headings


def show_formula(module: str) -> None:
    """The lesson's formula ("## Formula") and the meaning of every symbol ("## Where"); projected, the meanings
    are folded under the formula (the instructor says them; the list is one click away). (Not side by side: a
    formula in a column's width is cut short at 1024 px and when projected.)"""
    with st.container(border=True):
        st.markdown(prose.section(module, "Formula"))
        where = prose.text(TEXT, "Where") + "\n\n" + prose.section(module, "Where")
        if chart_scale() > 1:
            with st.expander(prose.text(TEXT, "Where fold")):
                st.markdown(where)
        else:
            st.markdown(where)


def show_lesson_opening(module: str, *, warm_up: bool = True, intro: str | None = None) -> None:
    """How a lesson opens, the same on each: its title, its warm-up question ("warmup.<module>", unless
    ``warm_up`` is False), its introduction (``intro``, the page's filled text, else its "## Intro"), its formula
    (:func:`show_formula`), and the heading of its "Try it" section."""
    st.title(prose.section(module, "Title"))
    if warm_up:
        show_warm_up(f"warmup.{module}")
    st.markdown(prose.section(module, "Intro") if intro is None else intro)
    show_formula(module)
    st.subheader(prose.section(module, "Heading try it"))


def show_warm_up(question_id: str) -> None:
    """The lesson's opening warm-up on the lesson before it (think, then reveal), folded under its label: the
    lesson itself starts at once, and the question is one click away."""
    with st.expander(prose.text(TEXT, "Warm-up"), icon="🤔"):
        show_question(quiz.question(question_id), key=f"warmup.{question_id}")


def practice_pick_key(lesson: str) -> str:
    """The session-state key of the lesson's question picker (its value: the shown question's index)."""
    return f"{lesson}.practice.pick"


def _follow_class_question(lesson: str, questions: Sequence[quiz.Question]) -> None:
    """When the instructor asks one of these questions in a live class, show it (once: the learner may move on)."""
    asked = next((i for i, q in enumerate(questions) if class_questions.is_open(q.id)), None)
    followed = f"{practice_pick_key(lesson)}.asked"
    if asked is not None and st.session_state.get(followed) != questions[asked].id:
        st.session_state[practice_pick_key(lesson)] = asked
        st.session_state[followed] = questions[asked].id


def show_practice(lesson: str) -> None:
    """The lesson's practice questions (graded ones), one at a time behind a numbered picker (✓: solved), each
    checked in place: a card, not a column of them. A question asked in a live class is the one shown."""
    st.subheader(prose.text(TEXT, "Practice"))
    questions = [q for q in quiz.questions_for(lesson) if quiz.is_graded(q)]
    _follow_class_question(lesson, questions)
    done = solved()
    pick = st.radio(prose.text(TEXT, "Practice pick"), range(len(questions)), horizontal=True,
                    key=practice_pick_key(lesson), label_visibility="collapsed",  # the heading says it: Practice
                    format_func=lambda i: prose.text(TEXT, "Practice solved", n=i + 1) if questions[i].id in done
                    else str(i + 1))
    question = questions[pick or 0]
    with st.container(border=True):
        show_question(question, key=f"{lesson}.{question.id}")


def show_where_it_matters(heading: str, text: str) -> None:
    """A lesson's "where it matters" section: its heading and text; projected, folded under its heading (the
    instructor tells it; the examples are one click away)."""
    if chart_scale() > 1:
        with st.expander(heading):
            st.markdown(text)
        return
    st.subheader(heading)
    st.markdown(text)


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


def show_lesson_end(module: str, where: tuple[str, str] | None = None) -> None:
    """Summary card beside the lesson's "where it matters" (``where``: its heading and its text) and real-world
    reps (stacked on a phone), then previous/next."""
    summary, reps = st.columns(2, gap="large")
    with summary:
        show_summary_card(module)
    with reps:
        if where is not None:
            st.subheader(where[0])
            st.markdown(where[1])
        show_reps(module)
    show_prev_next(module)
