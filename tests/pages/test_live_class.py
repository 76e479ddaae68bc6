"""AppTest: a live class between an instructor's session and learners' sessions (one server process, so they
share the in-process class store): lead, follow, explore, the end and the expiry of a class."""
from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest

from components.course import prose
from components.live_class import app_run, follow, protocol, session
from components.live_class.session import ClassState, store
from components.ranking_editor import EditorState
from components.ui import registry, state
from tests.pages.helpers import open_page

RECALL = "lessons/recall.py"


def held(at: AppTest) -> ClassState:
    """The session's class state (components/live_class/session.py)."""
    return at.session_state[session.KEY]


def instructor():
    at = open_page(RECALL)
    at.button(key=session.START).click().run()
    assert not at.exception
    return at, held(at).lead


def learner(code: str):
    at = open_page("lessons/home.py")
    at.text_input(key=session.CODE_INPUT).set_value(f" {code.lower()} ").run()  # typed loosely
    assert not at.exception and held(at).joined == code
    return at


def news(at: AppTest) -> str:
    """The text of the class's live region (the sidebar's first element) as sent to the browser."""
    (region,) = [m.value for m in at.sidebar.markdown if 'data-testid="class-news"' in m.value]
    assert region.count('role="status"') == 1 and 'aria-live="polite"' in region
    return html.unescape(re.search(r'data-testid="class-news">([^<]*)</div>', region).group(1))


def test_starting_a_class_shows_its_code_link_and_qr_code_and_sends_the_page():
    at, lead = instructor()
    assert any(f"Class code: **{lead.code}**" == m.value for m in at.markdown)
    assert any(c.value.startswith("Join link:") and c.value.endswith(f"?class={lead.code}") for c in at.caption)
    assert any(t in ("imgs", "image") for t in _types(at)), "the QR code"
    assert protocol.view(store(), lead.code).page == "recall"


def test_a_learner_takes_the_instructors_values_and_says_so():
    teacher, lead = instructor()
    teacher.slider(key=state.RECALL_K).set_value(3).run()
    teacher.toggle(key=state.REVEAL).set_value(True).run()
    student = learner(lead.code)  # joining, the poll finds the class's view: its page, then its values
    assert [t.value for t in student.title] == ["Recall@k"]
    assert student.session_state[state.RECALL_K] == 3 and student.session_state[state.REVEAL] is True
    assert any("You are following class" in i.value for i in student.info)
    assert news(student) == prose.text("ui", "Class news following", code=lead.code, page="Recall@k")
    assert news(teacher) == ""  # the region is there, empty, for every session
    assert held(student).applied == protocol.version(store(), lead.code)


def test_a_learner_cannot_lead():
    teacher, lead = instructor()
    student = learner(lead.code)
    student.toggle(key=state.STEP_MODE).set_value(True).run()
    assert held(student).lead is None
    assert protocol.view(store(), lead.code).target.get(state.STEP_MODE) is not True


def test_exploring_stops_following_and_following_again_catches_up():
    teacher, lead = instructor()
    student = learner(lead.code)
    student.switch_page(RECALL).run()  # where the class took it (the test's own idea of the page follows)
    student.button(key=session.EXPLORE).click().run()
    assert any("exploring on your own" in w.value for w in student.warning)
    assert news(student) == prose.text("ui", "Class news exploring", code=lead.code)
    teacher.slider(key=state.RECALL_K).set_value(7).run()
    student.run()
    assert student.session_state[state.RECALL_K] == 5  # the lesson's own default, not the class's 7
    student.button(key=session.FOLLOW_AGAIN).click().run()
    student.run()  # the poll takes the class's latest view; already on its page
    assert student.session_state[state.RECALL_K] == 7
    assert news(student) == prose.text("ui", "Class news following", code=lead.code, page="Recall@k")


def test_an_ended_class_stops_following_for_everyone():
    teacher, lead = instructor()
    student = learner(lead.code)
    student.run()
    teacher.button(key=session.END).click().run()
    assert held(teacher).lead is None and teacher.button(key=session.START)
    student.run()
    assert any("The class has ended" in i.value for i in student.info)
    assert news(student) == prose.text("ui", "Class ended")
    assert held(student).joined is None


def test_an_expired_class_is_gone_for_its_learners():
    teacher, lead = instructor()
    student = learner(lead.code)
    store().delete(lead.code)  # what its expiry does, 12 hours after the last change
    student.run()
    assert any("The class has ended" in i.value for i in student.info)
    teacher.slider(key=state.RECALL_K).set_value(4).run()  # leading a gone class lets go of the lead
    assert held(teacher).lead is None


def test_a_wrong_code_says_so_and_a_link_joins():
    at = open_page("lessons/home.py")
    at.text_input(key=session.CODE_INPUT).set_value("HHHHHH").run()
    assert any("No class has that code" in e.value for e in at.error)
    _, lead = instructor()
    linked = open_page("lessons/home.py", query={session.PARAM_CLASS: lead.code})
    assert held(linked).joined == lead.code


def _types(at) -> set[str]:
    """The element types of the whole page tree, sidebar included."""
    seen, todo = set(), [at._tree]
    while todo:
        node = todo.pop()
        seen.add(getattr(node, "type", type(node).__name__))
        todo.extend(getattr(node, "children", {}).values())
    return seen


def test_a_learner_takes_the_instructors_ordering_of_the_lessons_editor():
    teacher, lead = instructor()
    shown = teacher.session_state[state.RECALL_EDITOR]
    moved = EditorState(order=(shown.order[3], *shown.order[:3], *shown.order[4:]), tray=shown.tray,
                        grades=dict(shown.grades))
    teacher.session_state[state.RECALL_EDITOR] = moved  # what a drag leaves behind
    teacher.run()
    student = learner(lead.code)
    assert student.session_state[state.RECALL_EDITOR].order == moved.order


def test_the_home_page_offers_to_join_a_class():
    _, lead = instructor()
    at = open_page("lessons/home.py")
    at.text_input(key=session.HOME_CODE).set_value(lead.code).run()
    assert not at.exception and held(at).joined == lead.code


def test_a_learner_takes_the_four_query_ranks_and_a_duels_sides():
    teacher, lead = instructor()
    side = state.duel_side(state.RECALL_BLIND, 0)
    shown = teacher.session_state[side]
    moved = EditorState(order=(shown.order[1], shown.order[0], *shown.order[2:]), tray=shown.tray,
                        grades=dict(shown.grades))
    teacher.session_state[side] = moved  # what a drag in the duel leaves behind
    teacher.run()
    student = learner(lead.code)
    assert student.session_state[side].order == moved.order
    teacher.switch_page("lessons/four_queries.py").run()
    ranks = (2, 3, None, 8)  # a dot dragged to "not returned"
    teacher.session_state[state.FOUR_RANKS] = ranks  # what a drag in the figure leaves behind
    teacher.run()
    student.run()
    student.run()  # the class's page first, then its values
    assert student.session_state[state.FOUR_RANKS] == ranks


def test_a_follower_taken_off_the_class_page_goes_back_to_it():
    """A run on another page (a link clicked while following, or a stale fragment rerun that names the page
    before a switch): the next poll takes the class's page again, from the top."""
    teacher, lead = instructor()
    student = learner(lead.code)
    assert held(student).on_page == "recall"
    student.switch_page("lessons/mrr.py").run()
    assert [t.value for t in student.title] == ["Recall@k"]
    assert held(student).on_page == "recall"


def test_a_class_on_the_home_page_takes_its_learners_there():
    teacher, lead = instructor()
    student = learner(lead.code)
    teacher.switch_page("lessons/home.py").run()
    assert protocol.view(store(), lead.code).page == ""  # Streamlit's path of the default page
    student.switch_page(RECALL).run()  # where the class took it before
    student.run()
    assert [t.value for t in student.title] == ["Rankwise: learn to measure a ranking"]  # the home page's
    assert held(student).on_page == "" and not student.exception
    assert news(student) == prose.text("ui", "Class news page", page=registry.spec("home").title)


def test_an_instructor_taken_off_their_page_goes_back_to_it():
    """A class timer, finding the session on another page than its last whole run drew, leaves the page to go
    back to (``timers.timed_fragment``): the next run goes there, and the class stays on it."""
    teacher, lead = instructor()
    teacher.switch_page("lessons/mrr.py").run()
    held(teacher).return_to = "recall"
    teacher.run()
    assert [t.value for t in teacher.title] == ["Recall@k"] and not teacher.exception
    assert protocol.view(store(), lead.code).page == "recall"
    assert held(teacher).return_to is None


def test_a_followers_lesson_notes_which_fragment_built_each_followed_widget():
    teacher, lead = instructor()
    student = learner(lead.code)
    student.switch_page(RECALL).run()  # where the class took it: its fragments note their widgets
    where = held(student).fragments
    assert where[state.RECALL_K] == where[state.RECALL_EDITOR]  # the lesson's slider and editor: one fragment
    assert where[state.RECALL_COMPARE_K] != where[state.RECALL_K]  # the fair comparison: a fragment of its own
    assert state.REVEAL not in where  # the sidebar's classroom modes: outside every fragment
    assert held(teacher).fragments == {}  # only a joined learner's page notes them


def test_a_follower_takes_a_change_at_the_top_of_the_fragment_that_shows_it():
    teacher, lead = instructor()
    student = learner(lead.code)
    student.switch_page(RECALL).run()
    fragment = held(student).fragments[state.RECALL_K]
    taken = held(student).target
    change = session.InFragments(lead.code, version=99, target={**taken, state.RECALL_K: 2},
                                 values={fragment: {state.RECALL_K: 2}})
    held(student).in_fragments = change  # what the poll leaves for the fragment's rerun
    student.run()
    assert student.slider(key=state.RECALL_K).value == 2  # set before the slider was built
    assert held(student).applied == 99
    assert held(student).target[state.RECALL_K] == 2
    assert held(student).in_fragments is None


def test_a_run_that_takes_the_class_view_waits_its_turn_and_gives_it_back_whatever_happens(monkeypatch):
    """One follower's whole-page run at a time takes the class's view; the turn comes back when the run ends,
    also when it stops for a rerun."""
    monkeypatch.setattr(follow, "takes_a_view", lambda: True)
    with app_run.class_turn():
        assert not app_run._TURNS.acquire(blocking=False)  # held by this run
    try:
        with app_run.class_turn():
            raise RuntimeError("stopped for a rerun")
    except RuntimeError:
        pass
    assert app_run._TURNS.acquire(blocking=False)
    app_run._TURNS.release()
    monkeypatch.setattr(follow, "takes_a_view", lambda: False)
    with app_run.class_turn():  # a run with no view to take does not wait
        assert app_run._TURNS.acquire(blocking=False)
        app_run._TURNS.release()


def going_back_twice():
    import streamlit as st

    from components.live_class import follow
    st.session_state["answers"] = [follow._may_go_back(), follow._may_go_back()]


def test_a_follower_off_the_class_page_goes_back_at_most_once_in_a_while():
    at = AppTest.from_function(going_back_twice).run()
    assert at.session_state["answers"] == [True, False]  # the second poll waits for the first one's run
    held(at).went_back -= session.BACK_SECONDS
    at.run()
    assert at.session_state["answers"][0] is True


def poll_takes_a_question():
    """A follower's poll finds the class's question changed: ``st.session_state["reruns"]`` gets what it asked to
    rerun (fragment id -> values), ``["took"]`` whether it took the change without a whole-page run."""
    import streamlit as st

    from components.live_class import follow, protocol, session
    question = protocol.Question("recall:0123456789ab", "number")
    held = session.held()
    held.joined, held.exploring, held.target, held.on_page, held.question = "ACDEFG", False, {}, "recall", None
    held.fragments, held.in_fragments, held.question_readers = {}, None, set(st.session_state["readers"])
    view = protocol.ClassView("ACDEFG", 7, "recall", {}, question, revealed=False)
    st.session_state["took"] = follow._rerun_fragments_for(view)


def test_a_followers_poll_takes_a_question_in_the_fragments_that_show_it(monkeypatch):
    """An ask (or a reveal) reruns the fragments that showed that question, not those that showed another; a
    question shown outside every fragment takes the whole page."""
    from components.serving import streamlit_compat
    monkeypatch.setattr(streamlit_compat, "in_fragment_run", lambda: True)  # the poll's own run
    monkeypatch.setattr(streamlit_compat, "rerun_fragments", lambda values: True)
    asked = {("lesson", "recall:0123456789ab"), ("duel", "recall.blind:ba9876543210"), (None, "warmup.recall")}
    at = AppTest.from_function(poll_takes_a_question)
    at.session_state["readers"] = asked
    at.run()
    assert not at.exception and at.session_state["took"]
    assert held(at).in_fragments.values == {"lesson": {}}  # the lesson's fragment alone
    assert held(at).question[0].id == "recall:0123456789ab"
    at.session_state["readers"] = asked | {(None, "recall:0123456789ab")}  # shown outside every fragment too
    at.run()
    assert not at.session_state["took"] and held(at).question is None


def test_a_class_value_that_does_not_fit_a_learners_editor_or_figure_is_left_out_with_a_logged_word(caplog,
                                                                                                       monkeypatch):
    """A learner's own editor and figure stay when the class sends what does not fit them, and the log says so."""
    monkeypatch.setattr(follow, "_shows", lambda key, value: False)  # as if this session showed another view
    follow._take(state.RECALL_EDITOR, {"order": [], "tray": [], "grades": {"a case": "not a grade"}})
    follow._take(state.FOUR_RANKS, [[999]])
    said = [r.getMessage() for r in caplog.records if r.name == follow.__name__]
    assert len(said) == 2 and state.RECALL_EDITOR in said[0] and state.FOUR_RANKS in said[1], said
