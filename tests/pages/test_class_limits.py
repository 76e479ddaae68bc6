"""AppTest: a live class holds up in a real classroom. A guess out of the measure's range is refused with a worded
message and never reaches the chart; a dead join link says why, showing what it held as plain text; codes that
join no class are rate-limited per client; the server holds a bounded number of classes and a roll call shows a
bounded number of names; while the class store is down, learners and the instructor read that the connection is
lost, with no error box, and a class the store lost for good lets go of its instructor, saying so."""
from __future__ import annotations

import dataclasses
import time

import pytest

from components.live_class import members, panel, protocol, session
from components.live_class.session import store
from components.live_class.store import ClassStoreDown, RedisStore
from components.serving.rate_limit import RateLimit
from components.ui import state
from tests.pages.helpers import open_page
from tests.pages.test_class_questions import RECALL, _class, _guess, _value_id
from tests.pages.test_live_class import held, instructor, learner
from tests.unit.test_class_store import _free_port, start_redis, stop_redis

LOST = "The class's connection is lost; retrying."


def _texts(at) -> str:
    return "\n".join(e.value for kind in ("error", "warning", "info", "markdown", "caption") for e in at.get(kind))


@pytest.mark.parametrize("typed", ["1e308", "-1e308", "1.5", "-0.2"])
def test_a_guess_out_of_the_measures_range_is_refused_and_the_reveal_still_draws_its_chart(typed):
    teacher, students = _class()
    qid = _value_id(teacher)
    teacher.button(key=f"class.ask.{qid}").click().run()
    students[0].run()
    _guess(students[0], qid, typed)
    assert any("A guess is a number between 0 and 1." == e.value for e in students[0].error)
    assert not any("is in" in s.value for s in students[0].success)
    _guess(students[0], qid, "0.5")
    assert any("Your guess, **0.5**, is in" in s.value for s in students[0].success)
    teacher.run()
    teacher.button(key=f"class.reveal.{qid}").click().run()
    assert not teacher.exception
    assert "**1** answers" in _texts(teacher) and "inf" not in _texts(teacher)
    assert teacher.get("vega_lite_chart") or teacher.get("arrow_vega_lite_chart"), "the guesses' chart"


@pytest.mark.parametrize("link, shown", [("ACDEF", "` ACDEF `"), ("<b>", "` <b> `"),
                                         ("x" * 5000, f"` {'x' * panel.SHOWN_CHARACTERS}… `"),
                                         ("ACDEFG", "` ACDEFG `")])
def test_a_dead_join_link_says_why_and_shows_what_it_held_as_plain_text(link, shown):
    at = open_page("lessons/home.py", query={session.PARAM_CLASS: link})
    assert not at.exception and held(at).joined is None
    (warning,) = [w.value for w in at.warning]
    assert shown in warning and ("joins no class" in warning or "no class has that code" in warning)
    assert len(warning) < 300


def test_codes_that_join_no_class_are_limited_per_client_and_a_right_code_is_not_counted(monkeypatch):
    monkeypatch.setattr(panel, "rate_limits", lambda limits=(RateLimit(3), RateLimit(3)): limits)  # 3 a minute
    who = ["192.0.2.7"]
    monkeypatch.setattr(panel, "client", lambda: who[0])
    _, lead = instructor()
    at = open_page("lessons/home.py")
    for _ in range(3):
        at.text_input(key=session.CODE_INPUT).set_value("HHHHHH").run()
        assert any("No class has that code" in e.value for e in at.error)
        at.text_input(key=session.CODE_INPUT).set_value("").run()
    at.text_input(key=session.CODE_INPUT).set_value(lead.code).run()
    assert any("Too many codes tried from here" in e.value for e in at.error)
    assert held(at).joined is None  # not even a right one, until the minute is over
    who[0] = "192.0.2.8"  # another client
    other = open_page("lessons/home.py")
    other.text_input(key=session.CODE_INPUT).set_value(lead.code).run()
    assert held(other).joined == lead.code


def test_a_full_server_refuses_a_new_class_with_a_message(monkeypatch):
    live = store().count()
    monkeypatch.setattr(panel, "LIMITS", dataclasses.replace(panel.LIMITS, classes=live + 1))
    instructor()  # the last one it takes
    at = open_page(RECALL)
    at.button(key=session.START).click().run()
    assert not at.exception and held(at).lead is None
    assert any(f"as many live classes as it takes ({live + 1})" in e.value for e in at.sidebar.error)


def test_the_roll_call_shows_a_count_and_at_most_its_names(monkeypatch):
    monkeypatch.setattr(members, "ROLL_CALL_NAMES", 2)
    teacher, lead = instructor()
    for n in range(5):
        protocol.here(store(), lead.code, f"member-{n:04d}", f"N{n}", time.time())
    teacher.run()
    shown = "\n".join(m.value for m in teacher.sidebar.markdown)
    assert "Learners here: **5**" in shown and "` N0 `, ` N1 `, and 3 more" in shown and "N2" not in shown


class Outage:
    """The server's class store, with a switch that makes every call fail as a stopped Redis does."""

    def __init__(self, store):
        self.store, self.down = store, False

    def __getattr__(self, name):
        if self.down:
            raise ClassStoreDown("connection refused")
        return getattr(self.store, name)


def test_while_the_store_is_down_everyone_reads_that_the_connection_is_lost_and_no_error_box(monkeypatch):
    outage = Outage(store())
    monkeypatch.setattr(session, "store", lambda: outage)
    teacher, lead = instructor()
    student = learner(lead.code)
    outage.down = True
    student.run()
    teacher.run()
    teacher.slider(key=state.RECALL_K).set_value(3).run()  # leading while down: nothing sent, nothing lost
    assert not student.exception and not teacher.exception
    assert any(w.value.startswith(LOST) for w in student.warning)
    assert any(w.value.startswith(LOST) for w in teacher.sidebar.warning)
    assert held(student).joined == lead.code and held(teacher).lead == lead
    outage.down = False  # back, with the class
    student.run()
    teacher.run()
    assert not any(w.value.startswith(LOST) for w in [*student.warning, *teacher.sidebar.warning])
    assert protocol.view(outage.store, lead.code).target[state.RECALL_K] == 3  # sent once it was back


def test_a_class_the_store_lost_for_good_lets_go_of_its_instructor_and_says_so(monkeypatch):
    outage = Outage(store())
    monkeypatch.setattr(session, "store", lambda: outage)
    teacher, lead = instructor()
    student = learner(lead.code)
    outage.down = True
    teacher.run()
    outage.store.delete(lead.code)  # Redis restarted empty
    outage.down = False
    teacher.run()
    student.run()
    assert held(teacher).lead is None
    assert any(f"Class **{lead.code}** is gone" in w.value for w in teacher.sidebar.warning)
    assert "No learners here yet" not in "\n".join(c.value for c in teacher.sidebar.caption)
    assert any("The class has ended" in i.value for i in student.info)


def test_a_real_redis_stopped_then_restarted_empty(monkeypatch):
    """The same with a real redis-server: stopped, everyone reads that the connection is lost; restarted
    empty, the learner reads that the class ended and the instructor that it is gone."""
    port = _free_port()
    proc = start_redis(port)
    redis_store = RedisStore(f"redis://127.0.0.1:{port}/0")
    monkeypatch.setattr(session, "store", lambda: redis_store)
    try:
        teacher, lead = instructor()
        student = learner(lead.code)
        stop_redis(proc)
        student.run()
        teacher.run()
        assert not student.exception and not teacher.exception
        assert any(w.value.startswith(LOST) for w in student.warning)
        assert any(w.value.startswith(LOST) for w in teacher.sidebar.warning)
        proc = start_redis(port)
        redis_store._down_until = float("-inf")  # the wait before trying again, over
        student.run()
        teacher.run()
        assert any("The class has ended" in i.value for i in student.info)
        assert held(teacher).lead is None
        assert any(f"Class **{lead.code}** is gone" in w.value for w in teacher.sidebar.warning)
    finally:
        stop_redis(proc)


@pytest.mark.parametrize("typed, said", [("ACDEF", "` ACDEF ` is not a class code: a code is 6 letters and digits"),
                                         ("**bold**", "` **bold** ` is not a class code"),
                                         ("", None)])
def test_a_typed_code_that_cannot_be_one_says_so_as_typed(typed, said):
    at = open_page("lessons/home.py")
    at.text_input(key=session.HOME_CODE).set_value("HHHHHH").run()  # a wrong code first
    at.text_input(key=session.HOME_CODE).set_value(typed).run()
    errors = [e.value for e in at.error]
    assert (errors == []) if said is None else any(e.startswith(said) for e in errors)
