"""Predict, then reveal, together: a live class's answers to a hidden value or to a practice question.

In a live class (:mod:`components.live_class.follow`) with "predict first" on:

- where a lesson hides a value (:func:`components.ui.widgets.numbers_revealed`), the instructor gets "Ask
  the class: nDCG@3?"; the learners who follow get a guess box in the same place; the instructor sees the
  answers come in (:func:`show_count_poll`) and "Reveal to the class", which shows everyone the numbers and
  shows the instructor the guesses against the value, the known slips marked
  (:mod:`components.course.class_answers`);
- a practice card works the same way: the instructor asks, the learners' checks are sent and their verdicts
  wait for the reveal; the instructor then sees the guesses (a number) or the counts per option (a choice).

A question's id names what is asked: a practice question's own id, or the lesson's scope and a digest of the
state on screen (:func:`value_id`), so a learner answers only about the state the instructor shows.

A number's guess is taken from 0 to the measure's largest value: 1 for every measure a lesson hides and for
the bank's "unit" questions, :data:`DCG_TOP` for a DCG; anything else is refused with "a guess is a number
between 0 and 1", and the store never holds it (:func:`components.live_class.protocol.takes_number`). Each
question takes at most ``RANKWISE_CLASS_ANSWERS`` answers. While the class store is down the count, the ask,
the reveal and a guess do without (:func:`outage.survives`).
"""
from __future__ import annotations

import hashlib
from typing import Callable

import streamlit as st

from components.course import class_answers, prose, quiz
from components.course.class_answers import Asked
from components.engine.formatting import fmt
from components.live_class import members, outage, protocol, session
from components.live_class.follow import class_question
from components.live_class.session import following, held, leading
from components.live_class.store import ClassStoreDown
from components.live_class.timers import timed_fragment
from components.serving.settings import LIMITS
from components.ui import charts
from components.ui.chart_view import show_chart

TEXT = "ui"
COUNT_SECONDS = LIMITS.count_seconds  # how often the instructor's count of answers is read (1 s)
NUMBER, CHOICE = "number", "choice"  # the kinds of question a class answers
DCG_TOP = 100.0  # the largest DCG guess a class takes (the bank's DCG questions are under 20)


def value_id(scope: str, signature) -> str:
    """The id of a question about the value a lesson's ``scope`` shows for this state (``signature``)."""
    return f"{scope}:{hashlib.sha256(repr(signature).encode('utf-8')).hexdigest()[:12]}"


def is_open(question_id: str) -> bool:
    asked = class_question(question_id)
    return asked is not None and asked[0].id == question_id and not asked[1]


def is_revealed(question_id: str) -> bool:
    asked = class_question(question_id)
    return asked is not None and asked[0].id == question_id and asked[1]


def value_revealed(scope: str, signature) -> bool:
    """Whether the class has revealed its question about this value (False at once outside a class)."""
    question_id = value_id(scope, signature)
    asked = class_question(question_id)
    return asked is not None and asked[1] and asked[0].id == question_id


@outage.survives()
def _ask(question_id: str, kind: str, options: tuple[str, ...] = (), top: float = 1.0) -> None:
    lead = leading()
    if lead is not None:
        protocol.ask(session.store(), lead, protocol.Question(question_id, kind, options, top),
                       ttl=LIMITS.class_seconds)


def _reveal(then: Callable[[], None] | None = None) -> None:
    lead = leading()
    if lead is not None:
        outage.survives()(protocol.reveal)(session.store(), lead, ttl=LIMITS.class_seconds)
    if then is not None:
        then()


@outage.survives({})
def _tally(question_id: str) -> dict[str, int]:
    lead = leading()
    return {} if lead is None else dict(protocol.tally(session.store(), lead.code, question_id))


def _counted(question_id: str) -> tuple[str, int, int]:
    """(the question, how many answers are in, how many learners are here) for the instructor's count; while
    the store is down, the count last shown."""
    lead = leading()
    try:
        here = 0 if lead is None else members.present(session.store(), lead.code).count
        tally = {} if lead is None else protocol.tally(session.store(), lead.code, question_id)
    except ClassStoreDown:
        outage.note_down()
        return held().counted or (question_id, 0, 0)
    return question_id, sum(tally.values()), here


def _show_count(question_id: str) -> None:
    """How many answers are in, of how many learners here (kept, so :func:`show_count_poll` sees a change)."""
    counted = held().counted = _counted(question_id)
    _, n, here = counted
    st.markdown(prose.text(TEXT, "Class answers so far here", n=n, here=here) if here
                else prose.text(TEXT, "Class answers so far", n=n))


def show_count_poll() -> None:
    """For the instructor while the class answers: a fragment that reads the count every :data:`COUNT_SECONDS`
    and, when it moved, reruns the app, so that the count on screen (often inside a lesson's own fragment) is
    drawn again in its place."""
    asked = class_question() if leading() is not None else None
    if asked is not None and not asked[1]:
        question_id = asked[0].id
        # this run draws the count as it is now: the poll, run with it, has nothing new to show
        held().counted = _counted(question_id)
        with st.sidebar:  # it draws nothing
            _count_poll(question_id)


@timed_fragment(COUNT_SECONDS)
def _count_poll(question_id: str) -> None:
    if is_open(question_id) and held().counted != _counted(question_id):
        st.rerun(scope="app")


def _ask_button(label: str, question_id: str, kind: str, options: tuple[str, ...] = (), top: float = 1.0) -> None:
    """Ask the class; then a run of the whole app, which starts :func:`show_count_poll`."""
    if st.button(label, key=f"class.ask.{question_id}", icon="🙋", help=prose.text(TEXT, "Class ask help")):
        _ask(question_id, kind, options, top)
        st.rerun(scope="app")


def _reveal_button(question_id: str, then: Callable[[], None] | None = None) -> None:
    """Reveal to the class; then a run of the whole app (the count's poll stops)."""
    if st.button(prose.text(TEXT, "Class reveal"), key=f"class.reveal.{question_id}", type="primary", icon="👀"):
        _reveal(then)
        st.rerun(scope="app")


@outage.survives(False)
def _send_guess(question_id: str, answer: str | float, typed: str) -> bool:
    """A follower's answer to the class's open question (``answer``: an option, or the parsed number; ``typed``:
    what the learner typed, shown back); False when it was not taken."""
    code = following()
    if code is None or not protocol.guess(session.store(), code, question_id, members.member(),
                                            answer, ttl=LIMITS.class_seconds, most=LIMITS.class_answers):
        return False
    held().guessed[question_id] = typed
    # the form goes and the box saying so arrives filled, which a screen reader may not read: the class's news says it
    held().news = prose.text(TEXT, "Class news guess sent", guess=typed)
    return True


def _refusal(value: float | None) -> str | None:
    """Why a follower's guess (``value``: what they typed, read as a number) is refused before it is sent (not a
    number; not a number the open question takes), or None."""
    if value is None:
        return prose.text(TEXT, "Class guess not a number")
    asked = class_question()
    question = protocol.Question("", NUMBER) if asked is None else asked[0]
    if not protocol.takes_number(question, value):
        return prose.text(TEXT, "Class guess out of range", top=f"{question.top:g}")
    return None


def _top(question: quiz.NumericQuestion) -> float:
    """The largest guess a bank question takes: 1 for a value in [0, 1], :data:`DCG_TOP` for a DCG."""
    return 1.0 if question.scale == "unit" else DCG_TOP


# --- a value a lesson hides ------------------------------------------------------------

def show_value_question(scope: str, signature, asked: Callable[[], Asked], reveal_own: Callable[[], None]) -> bool:
    """Where "predict first" hides a value (``scope`` and ``signature`` name it), the class's part: the
    instructor's Ask (or, once asked, the count and "Reveal to the class"), a follower's guess box while the
    question is open. True when it takes the place of the page's own Reveal button."""
    leads = leading() is not None
    if not leads and following() is None:
        return False
    question_id = value_id(scope, signature)
    if leads:
        if is_open(question_id):
            _show_count(question_id)
            _reveal_button(question_id, reveal_own)
            return True
        _ask_button(prose.text(TEXT, "Class ask", label=asked().label), question_id, NUMBER)
        return False
    if not is_open(question_id):
        return False
    label = asked().label
    sent = held().guessed.get(question_id)
    if sent is not None:
        st.success(prose.text(TEXT, "Class guess sent", guess=sent), icon="📨")
        return True
    key = f"class.guess.{question_id}"
    with st.form(key, border=False, enter_to_submit=True):
        st.text_input(prose.text(TEXT, "Class guess label", label=label), key=f"{key}.text", max_chars=20)
        st.form_submit_button(prose.text(TEXT, "Class guess send"), key=f"{key}.send", on_click=_on_guess,
                              args=(question_id, key), type="primary", icon="📨")
    refused = held().guess_errors.get(question_id)
    if refused:
        st.error(refused, icon="🔢")
    return True


def _on_guess(question_id: str, key: str) -> None:
    """Send the typed guess, or keep why it was refused (a worded message: ``ClassState.guess_errors``)."""
    typed = str(st.session_state.get(f"{key}.text") or "")
    value = quiz.parse_answer(typed).value
    refused = _refusal(value)
    if value is not None and refused is None and not _send_guess(question_id, value, typed):
        refused = prose.text(TEXT, "Class connection lost" if outage.is_down() else "Class guess not taken")
    held().guess_errors[question_id] = refused


def show_value_result(scope: str, signature, asked: Callable[[], Asked]) -> None:
    """Once the class's question about this value is revealed: the instructor sees the guesses against the value
    (a chart and its reading), a follower who guessed sees their guess beside the value."""
    if not value_revealed(scope, signature):
        return
    question_id = value_id(scope, signature)
    now = asked()
    if leading() is not None:
        _show_guesses(question_id, now, lambda trap: _slip_text(trap, now))
        return
    sent = held().guessed.get(question_id)
    if sent is None:
        return
    reading = class_answers.read_guesses({sent: 1}, now)
    values = dict(guess=sent, label=now.label, value=fmt(now.value))
    if reading.slips:
        st.markdown(prose.text(TEXT, "Class guess slip", why=_slip_text(reading.slips[0][0], now), **values))
    else:
        st.markdown(prose.text(TEXT, "Class guess right" if reading.right else "Class guess wrong", **values))


def _slip_text(trap: quiz.Trap, asked: Asked) -> str:
    """What a slip on a lesson's screen is ("that is ... , not Recall@5.")."""
    return prose.text_choosing(TEXT, f"Class slip {trap.name}", {"label": asked.label})


def _show_guesses(question_id: str, asked: Asked, why: Callable[[quiz.Trap], str]) -> None:
    """The instructor's reading of the guesses: the chart, how many were right, each slip made, the rest."""
    guesses = class_answers.read_guesses(_tally(question_id), asked)
    lines = [prose.text(TEXT, "Class result", n=guesses.total, right=guesses.right, label=asked.label,
                        value=fmt(asked.value))]
    lines += [prose.text(TEXT, "Class result slip", count=count, guess=fmt(trap.value), why=why(trap))
              for trap, count in guesses.slips]
    if guesses.other:
        lines.append(prose.text(TEXT, "Class result other", n=guesses.other))
    if guesses.not_numbers:
        lines.append(prose.text(TEXT, "Class result not numbers", n=guesses.not_numbers))
    st.markdown("\n\n".join(lines))
    show_chart(charts.class_guesses, guesses.values, label=asked.label, value=asked.value,
               slips=[(trap.name, trap.value) for trap in asked.slips], key=f"class.chart.{question_id}")


# --- a practice card -----------------------------------------------------------------------

def _askable(question: quiz.Question) -> bool:
    """A question of the bank that takes one number or one option (a generated exercise's id is its seed's)."""
    if isinstance(question, quiz.GeneratedExercise) or question.id not in quiz.counted_ids():
        return False
    return isinstance(question, quiz.NumericQuestion) or (isinstance(question, quiz.ChoiceQuestion)
                                                           and not question.multiple)


def card_waits(question: quiz.Question) -> bool:
    """Whether a follower's verdict on this card waits for the class's reveal (the class is answering it)."""
    return following() is not None and is_open(question.id)


def send_card_answer(question: quiz.Question, answer) -> None:
    """A follower's checked answer goes to the class while the class is answering this card."""
    if not card_waits(question):
        return
    if isinstance(question, quiz.NumericQuestion):
        value = quiz.parse_answer(str(answer)).value
        if value is not None:  # a number out of the question's range is refused by the class
            _send_guess(question.id, value, str(answer))
        return
    option = answer[0] if isinstance(answer, list) and answer else str(answer)
    _send_guess(question.id, option, option)


def show_card_class(question: quiz.Question, values_text: Callable[[str], str]) -> None:
    """Under a practice card, for the instructor: Ask the class; once asked, the count and the reveal; once
    revealed, the guesses against the answer with the bank's traps marked, or the counts per option.
    ``values_text(section)`` is the question's text of that section (its values filled)."""
    if leading() is None or not _askable(question):
        return
    if is_revealed(question.id):
        if isinstance(question, quiz.ChoiceQuestion):
            counts = class_answers.choice_counts(_tally(question.id), question.options)
            show_chart(charts.class_choices, counts, correct=question.correct, key=f"class.chart.{question.id}")
        elif isinstance(question, quiz.NumericQuestion):
            _show_guesses(question.id, Asked(prose.text(TEXT, "Class answer label"), question.answer, question.traps,
                                             question.scale),
                          lambda trap: values_text(f"{question.id} trap {trap.name}"))
        return
    if is_open(question.id):
        _show_count(question.id)
        _reveal_button(question.id)
        return
    if isinstance(question, quiz.ChoiceQuestion):
        _ask_button(prose.text(TEXT, "Class ask card"), question.id, CHOICE, tuple(question.options))
    elif isinstance(question, quiz.NumericQuestion):
        _ask_button(prose.text(TEXT, "Class ask card"), question.id, NUMBER, top=_top(question))
