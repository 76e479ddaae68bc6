"""AppTest: Lesson 2, MRR with the JAR-file scenario."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import boards, cards, open_page

PAGE = "lessons/mrr.py"
QUERIES = scenarios.JAR_QUERIES


def metric(at, label):
    """The value on screen under exactly ``label``: each list's board holds its RR and the page's MRR (no card
    repeats them); the cutoff section's MRR@k cards are cards."""
    return {**cards(at), **boards(at)}[label]


def jar_state(query, order, tray=()):
    return EditorState(order=tuple(order), tray=tuple(tray), grades={d.id: d.grade for d in query.docs})


def test_defaults_show_the_brief_numbers():
    at = open_page(PAGE)
    assert not at.exception
    assert [metric(at, f"RR, query {i}") for i in (1, 2, 3)] == ["1.000", "0.500", "0.200"]  # hits at 1, 2, 5
    assert metric(at, "MRR") == fmt((1 + 1 / 2 + 1 / 5) / 3)  # 1.7 / 3 = 0.567
    assert any("(1/1 + 1/2 + 1/5) / 3 = 1.700 / 3 = **0.567**" in md.value for md in at.markdown)


def test_an_order_set_through_session_state():
    q = QUERIES[2]
    order = list(q.presets["Default"])
    target = next(d.id for d in q.docs if d.grade == 1)
    order.remove(target)
    order.insert(0, target)  # query 3's file to the top
    at = open_page(PAGE, session={state.MRR_EDITORS[2]: jar_state(q, order)})
    assert not at.exception
    assert metric(at, "RR, query 3") == "1.000"
    assert metric(at, "MRR") == fmt((1 + 1 / 2 + 1) / 3)


def test_the_tray_makes_a_query_score_zero():
    q = QUERIES[1]
    target = next(d.id for d in q.docs if d.grade == 1)
    order = [i for i in q.presets["Default"] if i != target]
    at = open_page(PAGE, session={state.MRR_EDITORS[1]: jar_state(q, order, tray=[target])})
    assert not at.exception
    assert metric(at, "RR, query 2") == "0.000"
    assert metric(at, "MRR") == fmt((1 + 0 + 1 / 5) / 3)


@pytest.mark.parametrize("cutoff", ["none"] + list(range(1, 11)))
def test_every_cutoff(cutoff):
    at = open_page(PAGE)
    at.select_slider(key=state.MRR_CUTOFF).set_value(cutoff).run()
    assert not at.exception
    if cutoff != "none":
        grades = [q.grades(q.presets["Default"]) for q in QUERIES]
        assert metric(at, f"MRR@{cutoff}") == fmt(metrics.mean_reciprocal_rank(grades, cutoff))


def test_a_hit_below_the_cutoff_counts_zero():
    at = open_page(PAGE)
    at.select_slider(key=state.MRR_CUTOFF).set_value(3).run()
    assert metric(at, "MRR@3") == fmt((1 + 1 / 2 + 0) / 3)  # query 3's hit at 5 is cut
    assert any("query 3 lose" in md.value for md in at.markdown)


def test_only_the_first_of_two_relevant_files_counts():
    at = open_page(PAGE)
    assert metric(at, "RR") == "0.500"  # the sources jar at 2; the jar at 4 adds nothing
    assert any("MRR@1" in md.value and "0.333" in md.value for md in at.markdown)
