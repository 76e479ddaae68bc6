"""AppTest: Lesson 1, Recall@k with the lawyer scenario."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/recall.py"
Q = scenarios.LAWYER


def metric(at, label_start):
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def lawyer_state(order):
    grades = {d.id: d.grade for d in Q.docs}
    return EditorState(order=tuple(order), tray=(), grades=grades)


def test_opens_on_system_a_at_k_5():
    at = open_page(PAGE)
    assert not at.exception
    assert at.slider(key=state.RECALL_K).value == 5
    assert metric(at, "Recall@5") == "0.400"  # 4 of 10 relevant cases in the top 5


@pytest.mark.parametrize("preset, k, value", [("System A", 5, "0.400"), ("System B", 20, "0.900")])
def test_presets_set_order_and_k(preset, k, value):
    at = open_page(PAGE)
    at.button(key=f"recall.preset.{preset}").click().run()
    assert not at.exception
    assert at.slider(key=state.RECALL_K).value == k
    assert metric(at, f"Recall@{k}") == value


@pytest.mark.parametrize("k", [1, 10, 20])
def test_k_changes_recall_to_the_engines_value(k):
    at = open_page(PAGE)
    at.slider(key=state.RECALL_K).set_value(k).run()
    assert not at.exception
    expected = metrics.recall_at_k(Q.grades(Q.presets["System A"]), k, n_relevant=10)
    assert metric(at, f"Recall@{k}") == fmt(expected)


def test_an_order_set_through_session_state():
    order = Q.presets["System A, hits at 16–19"]
    at = open_page(PAGE, session={state.RECALL_EDITOR: lawyer_state(order)})
    at.slider(key=state.RECALL_K).set_value(15).run()
    assert not at.exception
    assert metric(at, "Recall@15") == "0.000"  # the four hits sit at 16–19
    assert metric(at, "RR") == fmt(1 / 16)


def test_moving_the_tenth_case_out_of_the_tray_raises_recall():
    order = Q.presets["System B"] + ("c10",)  # retrieve the tenth case at position 21
    at = open_page(PAGE, session={state.RECALL_EDITOR: lawyer_state(order)})
    at.slider(key=state.RECALL_K).set_value(20).run()
    assert metric(at, "Recall@20") == "0.900"
    order = ("c10",) + Q.presets["System B"][:-1]
    at.session_state[state.RECALL_EDITOR] = lawyer_state(order)
    at.run()
    assert not at.exception
    assert metric(at, "Recall@20") == fmt(10 / 10)


def test_the_fair_comparison_and_hit_rate_sections():
    at = open_page(PAGE)
    at.slider(key=state.RECALL_COMPARE_K).set_value(20).run()
    assert metric(at, "System A: Recall@20") == "0.400"
    assert metric(at, "System B: Recall@20") == "0.900"
    at.slider(key=state.RECALL_HIT_RATE_K).set_value(10).run()
    assert not at.exception
    table = next(df.value for df in at.dataframe if "R@10" in df.value.columns)
    assert list(table["R@10"]) == [fmt(1), fmt(2 / 3), fmt(3 / 10)]


def test_the_url_k_is_read_and_a_bad_one_noted():
    at = open_page(PAGE, query={"k": "7"})
    assert at.slider(key=state.RECALL_K).value == 7
    at = open_page(PAGE, query={"k": "99"})
    assert at.slider(key=state.RECALL_K).value == 5
    assert any("outside 1 to 20" in w.value for w in at.warning)


def test_practice_is_checked_in_place_with_the_precision_trap():
    at = open_page(PAGE)
    key = "quiz.recall.recall.lawyer_a_recall_at_5"
    at.text_input(key=f"{key}.answer").input("0.8")
    at.button(key=f"{key}.check").click().run()
    assert not at.exception
    assert any("precision" in w.value.lower() for w in at.warning), "the precision trap gets its own feedback"
    at.button(key=f"{key}.retry").click().run()
    at.text_input(key=f"{key}.answer").input("4/10")
    at.button(key=f"{key}.check").click().run()
    assert at.success
