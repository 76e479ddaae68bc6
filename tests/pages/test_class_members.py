"""AppTest: who is in a live class. The instructor's roll call counts the learners and shows the nicknames
they chose (exactly as typed); leaving takes a learner off; a learner who comes back with their browser's
member id (a reload) is still one learner, with one answer."""
from __future__ import annotations

from components.live_class import protocol, session
from components.live_class.session import ClassState, store
from components.ui import state
from tests.pages.helpers import open_page
from tests.pages.test_class_questions import RECALL, _guess, _value_id
from tests.pages.test_live_class import held, instructor, learner


def _panel(at) -> str:
    """The instructor's Classroom panel's Markdown and captions."""
    return "\n".join([m.value for m in at.sidebar.markdown] + [c.value for c in at.sidebar.caption])


def join_as(code: str, nickname: str):
    """A learner who types a nickname on the home page, then the code."""
    at = open_page("lessons/home.py")
    at.text_input(key=session.HOME_NICKNAME).set_value(nickname).run()
    at.text_input(key=session.HOME_CODE).set_value(code).run()
    assert not at.exception and held(at).joined == code
    return at


def test_the_roll_call_counts_the_learners_and_names_those_who_gave_a_nickname():
    teacher, lead = instructor()
    assert "No learners here yet" in _panel(teacher)
    join_as(lead.code, "  Ada  ")
    zoe = join_as(lead.code, "zoe")
    plain = learner(lead.code)
    teacher.run()
    assert "Learners here: **3**" in _panel(teacher)
    assert "` Ada `, ` zoe `, and 1 without a nickname" in _panel(teacher)
    plain.button(key=session.LEAVE).click().run()  # off the roll call at once
    zoe.text_input(key=session.NICKNAME_BOX).set_value("Zoë K.").run()  # a new nickname, sent at once
    teacher.run()
    assert "Learners here: **2**" in _panel(teacher) and "` Ada `, ` Zoë K. `" in _panel(teacher)
    assert "without a nickname" not in _panel(teacher)


def test_a_nickname_is_shown_as_typed_never_as_markdown():
    teacher, lead = instructor()
    join_as(lead.code, "![x](http://a.b/p)")
    teacher.run()
    assert "` ![x](http://a.b/p) `" in _panel(teacher)  # a code span: shown as typed, nothing fetched


def test_a_learner_who_comes_back_with_their_browsers_member_id_is_one_learner_with_one_answer():
    teacher, lead = instructor()
    teacher.toggle(key=state.PREDICT_FIRST).set_value(True).run()
    first = learner(lead.code)
    first.switch_page(RECALL).run()
    qid = _value_id(teacher)
    teacher.button(key=f"class.ask.{qid}").click().run()
    first.run()
    _guess(first, qid, "0.5")
    # a reload: a new session, which the browser's stored member id reaches (what the member helper reads back)
    again = open_page("lessons/home.py", session={session.KEY: ClassState(member=held(first).member)})
    again.text_input(key=session.HOME_CODE).set_value(lead.code).run()
    again.switch_page(RECALL).run()
    _guess(again, qid, "0.75")
    assert protocol.tally(store(), lead.code, qid) == {"0.75": 1}
    teacher.run()
    assert "Learners here: **1**" in _panel(teacher)
    assert "**1** answers so far · learners here: 1" in "\n".join(m.value for m in teacher.markdown)


def test_an_explorer_stays_on_the_roll_call_and_learns_that_the_class_ended():
    teacher, lead = instructor()
    student = learner(lead.code)
    student.switch_page(RECALL).run()
    student.button(key=session.EXPLORE).click().run()
    teacher.run()
    assert "Learners here: **1**" in _panel(teacher)
    teacher.button(key=session.END).click().run()
    student.run()  # the explorer's own poll notices the end
    assert any("The class has ended" in i.value for i in student.info)
