"""AppTest: a live class predicts, then reveals, together (one server process: the sessions share the class
store). A hidden value on the Recall@k lesson, and a choice and a numeric practice card."""
from __future__ import annotations

from components.course import prose, quiz
from components.engine import metrics
from components.engine.formatting import fmt
from components.live_class import questions, session
from components.ranking_editor.model import query_set
from components.ui import layout, quiz_ui, state
from tests.pages.helpers import board
from tests.pages.test_live_class import held, instructor, learner, news

RECALL = "lessons/recall.py"


def _value_id(teacher) -> str:
    return questions.value_id("recall", (teacher.session_state[state.RECALL_EDITOR],
                                         teacher.session_state[state.RECALL_K]))


def _metric(at, label: str) -> str:
    """The value the lesson editor's board shows under ``label``: the page's one place for it ("?" while hidden)."""
    return board(at, state.RECALL_EDITOR)[label]


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _class(predict: bool = True):
    teacher, lead = instructor()
    if predict:
        teacher.toggle(key=state.PREDICT_FIRST).set_value(True).run()
    students = [learner(lead.code) for _ in range(3)]
    for s in students:
        s.switch_page(RECALL).run()  # where the class took them (the test's own idea of the page follows)
    return teacher, students


def _guess(student, question_id: str, typed: str) -> None:
    key = f"class.guess.{question_id}"
    student.text_input(key=f"{key}.text").set_value(typed)
    student.button(key=f"{key}.send").click().run()


def test_the_class_guesses_a_hidden_value_and_the_instructor_sees_the_slips_on_reveal():
    teacher, students = _class()
    qid = _value_id(teacher)
    k = teacher.session_state[state.RECALL_K]
    qs = query_set(teacher.session_state[state.RECALL_EDITOR])
    recall, precision = fmt(metrics.recall(qs, k)[0]), fmt(metrics.precision(qs, k)[0])
    assert _metric(teacher, f"Recall@{k}") == "?" and not any(b.key == f"class.guess.{qid}.send"
                                                            for b in students[0].button)
    teacher.button(key=f"class.ask.{qid}").click().run()
    for student in students:
        student.run()  # the poll takes the class's question
    assert _metric(students[0], f"Recall@{k}") == "?"
    assert not any(b.key == "predict.recall.button" for b in students[0].button), "no peeking while asked"
    _guess(students[0], qid, recall)
    _guess(students[1], qid, precision)  # the slip: P@k, divided by k
    _guess(students[2], qid, "a lot")
    assert any("That is not a number" in e.value for e in students[2].error)
    _guess(students[2], qid, "1/2")
    assert any(f"Your guess, **{recall}**, is in" in s.value for s in students[0].success)
    assert news(students[0]) == prose.text("ui", "Class news guess sent", guess=recall)  # said in the live region
    teacher.run()
    assert "**3** answers so far" in _markdown(teacher)

    teacher.button(key=f"class.reveal.{qid}").click().run()
    assert _metric(teacher, f"Recall@{k}") == recall
    shown = _markdown(teacher)
    assert f"**3** answers; **1** right: Recall@{k} = {recall}." in shown
    assert f"**1** of you said {precision}: " + prose.text_choosing(
        "ui", "Class slip precision", {"label": f"Recall@{k}"}) in shown
    assert "**1** gave another number." in shown
    assert teacher.get("vega_lite_chart") or teacher.get("arrow_vega_lite_chart"), "the guesses' chart"
    for student in students:
        student.run()
        assert _metric(student, f"Recall@{k}") == recall  # revealed to everyone
    assert f"You said {recall}, and Recall@{k} is **{recall}**: right." in _markdown(students[0])
    assert (f"You said {precision}: " + prose.text_choosing("ui", "Class slip precision", {"label": f"Recall@{k}"})
            + f" Recall@{k} is **{recall}**.") in _markdown(students[1])
    assert f"You said 1/2; Recall@{k} is **{recall}**." in _markdown(students[2])

    teacher.slider(key=state.RECALL_K).set_value(k + 1).run()  # a new state: predict again
    students[0].run()
    assert _metric(students[0], f"Recall@{k + 1}") == "?"


def test_a_learner_who_explores_is_not_asked():
    teacher, students = _class()
    students[0].button(key=session.EXPLORE).click().run()
    qid = _value_id(teacher)
    teacher.button(key=f"class.ask.{qid}").click().run()
    students[0].run()
    assert not any(t.key == f"class.guess.{qid}.text" for t in students[0].text_input)
    assert any(b.key == "predict.recall.button" for b in students[0].button)  # their own reveal, as before


def _card(question_id: str, part: str) -> str:
    return f"{state.QUIZ_PREFIX}recall.{question_id}.{part}"


def test_a_choice_card_counts_each_option_and_its_verdict_waits_for_the_reveal():
    teacher, students = _class(predict=False)
    q = quiz.question("recall.never_decreases")
    (right,) = q.correct
    wrong = next(o for o in q.options if o != right)
    graded = [g.id for g in quiz.questions_for("recall") if quiz.is_graded(g)]
    teacher.radio(key=layout.practice_pick_key("recall")).set_value(graded.index(q.id)).run()  # its card, shown
    teacher.button(key=f"class.ask.{q.id}").click().run()
    for student, picked in zip(students, (right, wrong, wrong)):
        student.run()
        assert student.radio(key=layout.practice_pick_key("recall")).value == graded.index(q.id)  # asked: shown
        student.radio(key=_card(q.id, "choice")).set_value(picked)
        student.button(key=_card(q.id, "check")).click().run()
        assert any(prose.text("ui", "Class card sent") in i.value for i in student.info)
        assert not student.success and not student.error
    teacher.run()
    assert "**3** answers so far" in _markdown(teacher)
    teacher.button(key=f"class.reveal.{q.id}").click().run()
    captions = "\n".join(c.value for c in teacher.caption)
    assert f"({right}) ✓ 1" in captions and f"({wrong}) 2" in captions  # the chart's text alternative
    students[0].run()
    assert any(quiz_ui.text(quiz.FEEDBACK_CORRECT) in s.value for s in students[0].success)
    assert q.id in students[0].session_state[state.PROGRESS_SOLVED]
    students[1].run()
    assert any(quiz_ui.text(quiz.FEEDBACK_CHOICE_WRONG) in e.value for e in students[1].error)


def test_a_numeric_card_marks_the_banks_traps_for_the_class():
    teacher, students = _class(predict=False)
    q = quiz.question("recall.lawyer_a_recall_at_5")
    trap = next(t for t in q.traps if t.name == "precision")
    teacher.button(key=f"class.ask.{q.id}").click().run()
    for student, typed in zip(students, (fmt(q.answer), fmt(trap.value), fmt(trap.value))):
        student.run()
        student.text_input(key=_card(q.id, "answer")).set_value(typed)
        student.button(key=_card(q.id, "check")).click().run()
    teacher.button(key=f"class.reveal.{q.id}").click().run()
    shown = _markdown(teacher)
    assert f"**3** answers; **1** right: the answer = {fmt(q.answer)}." in shown
    assert f"**2** of you said {fmt(trap.value)}: " + quiz_ui.text(f"{q.id} trap precision", q.values) in shown


def test_a_followers_page_notes_where_it_shows_each_class_question():
    """What the poll reruns for an ask or a reveal (tests/pages/test_live_class.py): the fragment that showed a
    question about its value, or the whole page for a question shown outside every fragment."""
    teacher, students = _class()
    student = students[0]
    readers = held(student).question_readers
    fragment = held(student).fragments[state.RECALL_K]
    assert (fragment, _value_id(teacher)) in readers  # the lesson's hidden value: its slider's and editor's fragment
    assert (None, "warmup.recall") in readers  # the warm-up card: outside every fragment
    # Each a followed fragment, which takes the values the poll hands it (the editor's own fragment, nested in the
    # lesson's, is not one: a reader noted there left the follower's change pending for good), or None.
    assert {where for where, _ in readers} <= {*held(student).fragments.values(), None}
    assert not held(teacher).question_readers  # only a follower notes them
