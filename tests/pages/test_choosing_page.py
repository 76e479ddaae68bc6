"""AppTest: "Choosing a metric", every metric on one ranking with a diagnosis."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/choosing.py"
Q = scenarios.CHOOSING


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


@pytest.mark.parametrize("preset, diagnosis", [
    ("Well ordered", "Healthy"), ("Found but badly ordered", "A ranking problem"),
    ("First hit only", "A matching problem"),
])
def test_presets_show_the_engines_values_and_a_diagnosis(preset, diagnosis):
    at = open_page(PAGE)
    at.button(key=f"choosing.preset.{preset}").click().run()
    assert not at.exception
    grades, k = Q.grades(Q.presets[preset]), scenarios.CHOOSING_K
    assert metric(at, f"Recall@{k}") == fmt(metrics.recall_at_k(grades, k, Q.n_relevant()))
    assert metric(at, f"Precision@{k}") == fmt(metrics.precision_at_k(grades, k))
    assert metric(at, "RR") == fmt(metrics.reciprocal_rank_of(grades))
    assert metric(at, f"nDCG@{k} (exponential gain)") == fmt(metrics.ndcg_at_k(grades, k, Q.judged_grades()))
    assert any(diagnosis in i.value for i in at.info)


@pytest.mark.parametrize("k", [1, 5, len(Q.docs)])
def test_every_k(k):
    at = open_page(PAGE)
    at.slider(key=state.CHOOSING_K).set_value(k).run()
    assert not at.exception
    grades = Q.grades(Q.presets["Found but badly ordered"])
    assert metric(at, f"hit rate@{k}") == fmt(metrics.success_at_k(grades, k))


def test_practice_questions_9_and_10_are_on_the_page():
    at = open_page(PAGE)
    keys = {w.key for w in at.radio} | {w.key for w in at.checkbox}
    assert any("choosing.headline_metric" in key for key in keys)
    assert any("choosing.diagnosis" in key for key in keys)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_perfect_list_below_its_recall_ceiling_is_no_matching_problem(k):
    """Well ordered at k < 4 relevant pages: Recall@k = k/4 is the most it can be, so the list is healthy."""
    at = open_page(PAGE)
    at.button(key="choosing.preset.Well ordered").click().run()
    at.slider(key=state.CHOOSING_K).set_value(k).run()
    assert not at.exception
    text = " ".join(i.value for i in at.info)
    assert "matching problem" not in text and "Healthy" in text
    assert f"can reach {fmt(k / Q.n_relevant())} at best" in text and "capped recall" in text


def test_at_a_k_above_the_relevant_count_no_ceiling_is_mentioned():
    at = open_page(PAGE)
    at.slider(key=state.CHOOSING_K).set_value(Q.n_relevant()).run()
    assert "ceiling" not in " ".join(i.value for i in at.info)
