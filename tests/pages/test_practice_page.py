"""AppTest: the Practice page (through app.py's navigation) and the progress sidebar."""
import json

import pytest
from streamlit.testing.v1 import AppTest

from components.course import prose, quiz
from components.engine.formatting import fmt
from components.ranking_editor import EditorState, widget_key
from components.ui import quiz_ui, state
from tests.pages.helpers import open_page

PAGE = "lessons/practice.py"
RECALL_AT_3 = "four_queries.recall_at_3"


def k(question_id, part):
    """The key show_question gives a part of a question on the practice page."""
    return f"{state.QUIZ_PREFIX}practice.{question_id}.{part}"


def answer(at, question_id, typed):
    at.text_input(key=k(question_id, "answer")).input(typed)
    at.button(key=k(question_id, "check")).click()
    return at.run()


def shown(elements):
    return [e.value for e in elements]


def solved_ids(at):
    """The solved ids so far (nothing is stored before the first solve)."""
    return at.session_state[state.PROGRESS_SOLVED] if state.PROGRESS_SOLVED in at.session_state else frozenset()


def practice_with_sidebar():
    """The app's shell with the progress sidebar, on the practice page (what app.py does with its one line)."""
    from components.ui.quiz_ui import show_progress_sidebar
    from components.ui.widgets import show_mode_controls
    from lessons import practice

    show_mode_controls()
    show_progress_sidebar()
    practice.render()


def sidebar_app():
    return AppTest.from_function(practice_with_sidebar, default_timeout=30).run()


def test_every_question_and_warm_up_is_on_the_page():
    at = open_page(PAGE)
    assert not at.exception
    assert at.title[0].value == prose.section("practice", "Title")
    text = "\n".join(shown(at.markdown))
    for question in quiz.QUESTIONS:
        assert quiz_ui.text(f"{question.id} prompt", getattr(question, "values", {})) in text
        if quiz.is_graded(question):
            assert at.button(key=k(question.id, "check"))
        else:
            assert at.button(key=k(question.id, "reveal"))
    assert prose.text("practice", "Lesson progress", solved=0, total=5) in shown(at.caption)


def test_a_correct_answer_shows_success_and_progress_counts_up():
    at = open_page(PAGE)
    assert prose.text("practice", "Lesson progress", solved=0, total=5) in shown(at.caption)
    at = answer(at, RECALL_AT_3, "3/4")
    assert not at.exception
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    assert RECALL_AT_3 in at.session_state[state.PROGRESS_SOLVED]
    assert prose.text("practice", "Lesson progress", solved=1, total=5) in shown(at.caption)


def test_a_trap_gets_its_targeted_feedback():
    at = answer(open_page(PAGE), RECALL_AT_3, "0.5")  # counted ranks < 3 only
    q = quiz.question(RECALL_AT_3)
    assert quiz_ui.text(f"{RECALL_AT_3} trap strictly above", q.values) in shown(at.warning)
    assert not at.success
    assert prose.text("practice", "Lesson progress", solved=0, total=5) in shown(at.caption)


def test_lawyer_precision_trap():
    at = answer(open_page(PAGE), "recall.lawyer_a_recall_at_5", "0.8")
    q = quiz.question("recall.lawyer_a_recall_at_5")
    assert quiz_ui.text("recall.lawyer_a_recall_at_5 trap precision", q.values) in shown(at.warning)


def test_any_other_wrong_answer_gets_generic_feedback_and_the_first_hint():
    at = answer(open_page(PAGE), RECALL_AT_3, "0.9")
    q = quiz.question(RECALL_AT_3)
    assert quiz_ui.text(quiz.FEEDBACK_WRONG) in shown(at.error)
    assert any(quiz_ui.text(f"{RECALL_AT_3} hint 1", q.values) in i for i in shown(at.info))


def test_junk_input_is_answered_with_the_format_message():
    at = answer(open_page(PAGE), RECALL_AT_3, "three quarters")
    assert not at.exception
    assert any("enter a number like 0.75, 3/4 or 75%" in i for i in shown(at.info))


def test_hints_come_in_two_stages():
    at = open_page(PAGE)
    q = quiz.question(RECALL_AT_3)
    hint_1, hint_2 = (quiz_ui.text(f"{RECALL_AT_3} hint {i}", q.values) for i in (1, 2))
    assert not any(hint_1 in i for i in shown(at.info))
    at.button(key=k(RECALL_AT_3, "hint")).click().run()
    assert any(hint_1 in i for i in shown(at.info)) and not any(hint_2 in i for i in shown(at.info))
    at.button(key=k(RECALL_AT_3, "hint")).click().run()
    assert any(hint_2 in i for i in shown(at.info))
    assert at.button(key=k(RECALL_AT_3, "hint")).disabled


def test_show_solution_and_try_again():
    at = open_page(PAGE)
    q = quiz.question(RECALL_AT_3)
    at.button(key=k(RECALL_AT_3, "show_solution")).click().run()
    assert quiz_ui.text(f"{RECALL_AT_3} solution", q.values) in shown(at.success)
    at = answer(at, RECALL_AT_3, "0.5")
    assert at.button(key=k(RECALL_AT_3, "retry")).disabled is False
    at.button(key=k(RECALL_AT_3, "retry")).click().run()
    assert at.text_input(key=k(RECALL_AT_3, "answer")).value == ""
    assert not at.warning


def test_reveal_mode_hides_correctness_and_solutions_until_revealed():
    at = open_page(PAGE, query={"reveal": "1"})
    assert at.session_state[state.REVEAL] is True
    at = answer(at, RECALL_AT_3, "0.75")
    assert not at.exception
    assert quiz_ui.text(quiz.FEEDBACK_RECORDED) in shown(at.info)
    assert not at.success and not at.warning and not at.error
    assert at.button(key=k(RECALL_AT_3, "show_solution")).disabled
    assert prose.text("practice", "Lesson progress", solved=0, total=5) in shown(at.caption)
    at.button(key=k("warmup.rrf_constant", "reveal")).click().run()
    assert quiz_ui.text(quiz.FEEDBACK_HIDDEN) in shown(at.caption)
    assert quiz_ui.text("warmup.rrf_constant answer") not in shown(at.info)
    # the instructor reveals: the recorded answer now shows as correct and counts
    at.session_state[state.REVEAL] = False
    at.run()
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    assert RECALL_AT_3 in at.session_state[state.PROGRESS_SOLVED]
    assert quiz_ui.text("warmup.rrf_constant answer") in shown(at.info)


def test_multiple_choice_explains_the_picked_option_then_all():
    at = open_page(PAGE)
    qid = "four_queries.recall_and_mrr"
    q = quiz.question(qid)
    at.radio(key=k(qid, "answer")).set_value("a")
    at.button(key=k(qid, "check")).click().run()
    notes = "\n".join(shown(at.markdown))
    assert quiz_ui.text(f"{qid} option a why", q.values) in notes
    assert quiz_ui.text(f"{qid} option c why", q.values) not in notes
    at.radio(key=k(qid, "answer")).set_value("b")
    at.button(key=k(qid, "check")).click().run()
    notes = "\n".join(shown(at.markdown))
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    assert all(quiz_ui.text(f"{qid} option {o} why", q.values) in notes for o in q.options)


def test_several_correct_options():
    at = open_page(PAGE)
    qid = "choosing.diagnosis"
    at.checkbox(key=k(qid, "option.a")).check()
    at.button(key=k(qid, "check")).click().run()
    assert quiz_ui.text(quiz.FEEDBACK_CHOICE_PARTIAL) in shown(at.error)
    at.checkbox(key=k(qid, "option.d")).check()
    at.button(key=k(qid, "check")).click().run()
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)


def editor_element(at, question_id):
    """The ranking editor's browser component of an ordering question (found by its key)."""
    (element,) = [e for e in at.get("bidi_component") if e.key == widget_key(k(question_id, "editor"))]
    return element


def test_ordering_shows_the_pool_in_the_ranking_editor():
    at = open_page(PAGE)
    qid = "ndcg.best_order"
    q = quiz.question(qid)
    element = editor_element(at, qid)
    data = json.loads(element.proto.json)
    assert data["order"] == list(q.start) and data["tray"] == []
    assert data["k"] == q.k  # the cut-off line at the question's k
    assert data["showGrades"] and not data["editableGrades"] and not data["trayEnabled"]
    assert [i["id"] for i in data["items"]] == list(q.start)
    assert not element.proto.form_id  # outside the form, so every move reruns at once
    assert at.session_state[k(qid, "answer")] == list(q.start)  # where the checker reads the order
    assert not at.get("multiselect")


def test_ordering_accepts_an_optimal_order_and_explains_a_poor_one():
    at = open_page(PAGE)
    qid = "ndcg.best_order"
    q = quiz.question(qid)
    poor = ("snake", "django", "flask", "fastapi", "pyramid", "bottle", "monty", "pythons")
    at.session_state[k(qid, "editor")] = EditorState(order=poor)  # what a drag in the editor leaves behind
    at.button(key=k(qid, "check")).click().run()
    assert not at.exception
    outcome = quiz.check_ordering(q, poor)
    assert outcome.feedback == "ordering trap irrelevant on top"
    assert quiz_ui.text(outcome.feedback, outcome.values) in shown(at.warning)
    assert at.session_state[k(qid, "answer")] == list(poor)
    best = ("fastapi", "flask", "django", "snake", "pyramid", "bottle", "monty", "pythons")
    at.session_state[k(qid, "editor")] = EditorState(order=best)
    at.button(key=k(qid, "check")).click().run()
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    assert qid in at.session_state[state.PROGRESS_SOLVED]
    assert json.loads(editor_element(at, qid).proto.json)["order"] == list(best)


def test_reset_my_progress_puts_the_ordering_pool_back():
    at = sidebar_app()
    qid = "ndcg.best_order"
    best = ("django", "flask", "fastapi", "pyramid", "bottle", "snake", "monty", "pythons")
    at.session_state[k(qid, "editor")] = EditorState(order=best)
    at.button(key=k(qid, "check")).click().run()
    assert qid in at.session_state[state.PROGRESS_SOLVED]
    rev = json.loads(editor_element(at, qid).proto.json)["rev"]
    at.button(key=state.PROGRESS_RESET).click().run()
    assert not at.exception
    start = list(quiz.question(qid).start)
    assert list(at.session_state[k(qid, "editor")].order) == start
    data = json.loads(editor_element(at, qid).proto.json)
    assert data["order"] == start and data["rev"] > rev  # a new revision: the browser adopts the reset order
    assert at.session_state[state.PROGRESS_SOLVED] == frozenset()
    assert not at.success


def test_warm_ups_reveal_their_answer():
    at = open_page(PAGE)
    qid = "warmup.reranking_cost"
    assert quiz_ui.text(f"{qid} answer") not in shown(at.info)
    at.button(key=k(qid, "reveal")).click().run()
    assert quiz_ui.text(f"{qid} answer") in shown(at.info)


@pytest.mark.parametrize("question_id, shown_number", [
    ("warmup.recall", "99.5%"), ("warmup.mrr", "0.400"), ("warmup.ndcg", "0.567"),
    ("warmup.four_queries", "0.531"), ("warmup.choosing", "0.615"),
])
def test_a_lesson_warm_up_opens_its_lesson_tab_and_reveals_engine_numbers(question_id, shown_number):
    at = open_page(PAGE)
    warm_up = quiz.question(question_id)
    answer_text = quiz_ui.text(f"{question_id} answer", warm_up.values)
    assert quiz_ui.text(f"{question_id} prompt", warm_up.values) in shown(at.markdown)
    assert answer_text not in shown(at.info)
    at.button(key=k(question_id, "reveal")).click().run()
    assert not at.exception
    assert answer_text in shown(at.info) and shown_number in answer_text
    assert not solved_ids(at)  # ungraded: nothing counts
    # the lesson's tab: its warm-up first, then its graded questions
    lesson_tab = at.tabs[quiz.LESSONS.index(warm_up.lesson)]
    prompts = [m.value for m in lesson_tab.markdown]
    first_graded = next(q for q in quiz.questions_for(warm_up.lesson) if quiz.is_graded(q))
    warm_at = prompts.index(quiz_ui.text(f"{question_id} prompt", warm_up.values))
    assert warm_at < prompts.index(quiz_ui.text(f"{first_graded.id} prompt", first_graded.values))


def test_the_warm_ups_tab_keeps_the_earlier_topic_ones():
    at = open_page(PAGE)
    warm_tab = at.tabs[len(quiz.LESSONS)]
    text = "\n".join(m.value for m in warm_tab.markdown)
    for warm_up in quiz.WARM_UPS:
        assert (quiz_ui.text(f"{warm_up.id} prompt", warm_up.values) in text) is (warm_up.lesson is None)


@pytest.mark.parametrize("question_id, typed, trap", [
    ("recall.system_b_recall_at_20", "0.45", "precision"),
    ("recall.system_b_recall_at_20", "1", "returned only"),
    ("mrr.rr_factor_1_to_2", "2", "inverted"),
])
def test_the_new_traps_show_their_feedback_on_the_page(question_id, typed, trap):
    at = answer(open_page(PAGE), question_id, typed)
    assert not at.exception
    q = quiz.question(question_id)
    assert quiz_ui.text(f"{question_id} trap {trap}", q.values) in shown(at.warning)
    assert question_id not in solved_ids(at)


@pytest.mark.parametrize("question_id, typed", [("recall.system_b_recall_at_20", "9/10"),
                                                ("mrr.rr_factor_1_to_2", "50%")])
def test_the_new_numeric_questions_count_when_solved(question_id, typed):
    at = open_page(PAGE)
    lesson = quiz.question(question_id).lesson
    done, total = quiz.progress([])[lesson]
    at = answer(at, question_id, typed)
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    assert question_id in at.session_state[state.PROGRESS_SOLVED]
    assert prose.text("practice", "Lesson progress", solved=done + 1, total=total) in shown(at.caption)


@pytest.mark.parametrize("question_id", ["recall.never_decreases", "mrr.wrong_headline", "ndcg.best_swap",
                                         "ndcg.gains_agree"])
def test_the_new_multiple_choice_questions_explain_every_option(question_id):
    at = open_page(PAGE)
    q = quiz.question(question_id)
    (right,) = q.correct  # from the engine for the swap question
    wrong = next(o for o in q.options if o not in q.correct)
    at.radio(key=k(question_id, "answer")).set_value(wrong)
    at.button(key=k(question_id, "check")).click().run()
    notes = "\n".join(shown(at.markdown))
    assert quiz_ui.text(quiz.FEEDBACK_CHOICE_WRONG) in shown(at.error)
    assert quiz_ui.text(f"{question_id} option {wrong} why", q.values) in notes
    at.radio(key=k(question_id, "answer")).set_value(right)
    at.button(key=k(question_id, "check")).click().run()
    notes = "\n".join(shown(at.markdown))
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    assert all(quiz_ui.text(f"{question_id} option {o} why", q.values) in notes for o in q.options)
    assert question_id in at.session_state[state.PROGRESS_SOLVED]


def test_the_seed_in_the_url_picks_the_exercise_and_the_engine_checks_it():
    at = open_page(PAGE, query={"seed": "123"})
    assert not at.exception
    ex = quiz.generate_exercise(123)
    assert quiz_ui.text(f"{ex.id} prompt", ex.values) in shown(at.markdown)
    assert prose.text("practice", "Exercise link", seed=123) in shown(at.markdown)
    key = f"{state.QUIZ_PREFIX}practice.generated.123"
    at.text_input(key=f"{key}.answer").input(fmt(ex.answer))
    at.button(key=f"{key}.check").click().run()
    assert quiz_ui.text(quiz.FEEDBACK_CORRECT) in shown(at.success)
    at.button(key=f"{key}.show_solution").click().run()
    assert quiz_ui.text(f"{ex.id} {ex.solution_part}", ex.values) in shown(at.success)


@pytest.mark.parametrize("raw", ["banana", "-5", str(2**32)])
def test_a_bad_seed_falls_back_to_the_default_with_a_note(raw):
    at = open_page(PAGE, query={"seed": raw})
    assert not at.exception
    assert any(raw in w and str(quiz.DEFAULT_SEED) in w for w in shown(at.warning))
    ex = quiz.generate_exercise(quiz.DEFAULT_SEED)
    assert quiz_ui.text(f"{ex.id} prompt", ex.values) in shown(at.markdown)


def test_new_exercise_puts_a_new_seed_in_the_url():
    at = open_page(PAGE)
    assert prose.text("practice", "Exercise default", seed=quiz.DEFAULT_SEED) in shown(at.markdown)
    at.button(key=state.PRACTICE_NEW_EXERCISE).click().run()
    assert not at.exception
    seed = int(at.query_params[state.PARAM_SEED])
    assert seed != quiz.DEFAULT_SEED and 0 <= seed <= state.MAX_SEED
    ex = quiz.generate_exercise(seed)
    assert quiz_ui.text(f"{ex.id} prompt", ex.values) in shown(at.markdown)


# --- the progress sidebar ----------------------------------------------------

def sidebar_total(at):
    return at.sidebar.get("progress")[0].proto.text


def test_the_sidebar_counts_solved_questions_per_lesson():
    at = sidebar_app()
    assert not at.exception
    total = len(quiz.counted_ids())
    text = "\n".join(shown(at.sidebar.markdown))
    assert f"{quiz_ui.lesson_title('four_queries')}: **0 / 5**" in text
    at = answer(at, RECALL_AT_3, "0,75")
    text = "\n".join(shown(at.sidebar.markdown))
    assert f"{quiz_ui.lesson_title('four_queries')}: **1 / 5**" in text
    assert at.session_state[state.PROGRESS_SHOWN] == {RECALL_AT_3}
    assert sidebar_total(at) == quiz_ui.text("progress total", {"solved": "1", "total": str(total)})


def test_reset_my_progress_forgets_solved_questions_and_answers():
    at = answer(sidebar_app(), RECALL_AT_3, "0.75")
    assert at.session_state[state.PROGRESS_SOLVED] == {RECALL_AT_3}
    at.button(key=state.PROGRESS_RESET).click().run()
    assert not at.exception
    assert at.session_state[state.PROGRESS_SOLVED] == frozenset()
    assert f"{quiz_ui.lesson_title('four_queries')}: **0 / 5**" in "\n".join(shown(at.sidebar.markdown))
    assert at.text_input(key=k(RECALL_AT_3, "answer")).value == ""
    assert not at.success


def fragment_app():
    """A lesson-like page that checks its question inside a fragment."""
    import streamlit as st

    from components.course import quiz
    from components.ui.quiz_ui import show_progress_sidebar, show_question

    show_progress_sidebar()

    @st.fragment
    def practice():
        show_question(quiz.question("four_queries.recall_at_3"), key="lesson.q")

    practice()


def test_a_question_inside_a_fragment_works_with_the_sidebar():
    at = AppTest.from_function(fragment_app, default_timeout=30).run()
    at.text_input(key=f"{state.QUIZ_PREFIX}lesson.q.answer").input("3/4")
    at.button(key=f"{state.QUIZ_PREFIX}lesson.q.check").click().run()
    assert not at.exception
    assert f"{quiz_ui.lesson_title('four_queries')}: **1 / 5**" in "\n".join(shown(at.sidebar.markdown))
    assert at.session_state[state.PROGRESS_SHOWN] == {RECALL_AT_3}


def probe_app():
    """A question alone, counting runs, to watch the full-app rerun a stale sidebar asks for."""
    import streamlit as st

    from components.course import quiz
    from components.ui.quiz_ui import show_question

    st.session_state["runs"] = st.session_state.get("runs", 0) + 1
    show_question(quiz.question("four_queries.recall_at_3"), key="probe")


def test_a_stale_sidebar_gets_exactly_one_full_rerun():
    # In the browser a check inside a fragment reruns only the fragment, so the sidebar
    # keeps showing the old count (AppTest reruns everything, so it is simulated here).
    at = AppTest.from_function(probe_app, default_timeout=30).run()
    assert at.session_state["runs"] == 1  # no sidebar drawn: nothing to refresh
    at.session_state[state.PROGRESS_SHOWN] = frozenset()
    at.session_state[state.PROGRESS_SOLVED] = frozenset({RECALL_AT_3})
    at.run()
    assert not at.exception
    assert at.session_state["runs"] == 3  # the run, then one full-app rerun
    at.run()
    assert at.session_state["runs"] == 4  # asked once per change, never in a loop


def lesson_like_app():
    """What a lesson page does: its warm-up at the top, its practice questions further down."""
    from components.ui import layout

    layout.show_warm_up("warmup.mrr")
    layout.show_practice("mrr")


def test_a_lesson_page_shows_its_warm_up_once_and_practice_only_graded():
    at = AppTest.from_function(lesson_like_app, default_timeout=30).run()
    assert not at.exception
    warm_up = quiz.question("warmup.mrr")
    prompts = shown(at.markdown)
    assert prompts.count(quiz_ui.text("warmup.mrr prompt", warm_up.values)) == 1
    assert at.button(key=f"{state.QUIZ_PREFIX}warmup.warmup.mrr.reveal")
    for q in quiz.questions_for("mrr"):
        if quiz.is_graded(q):
            assert at.button(key=f"{state.QUIZ_PREFIX}mrr.{q.id}.check")
