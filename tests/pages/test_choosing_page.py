"""AppTest: "Choosing a metric", every metric on one ranking with a diagnosis."""
import pytest

from components.course import export, prose, scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import layout, state
from components.ui.take_home import panel_key
from tests.pages.helpers import board, cards, open_page

PAGE = "lessons/choosing.py"
Q = scenarios.CHOOSING


def metric(at, label):
    """The value the editor's board shows under ``label``: the page's one place for its six values."""
    return board(at, state.CHOOSING_EDITOR)[label]


def ap(order) -> float:
    """The engine's AP of ``order``: every relevant judged page, returned or not, in the denominator."""
    return float(metrics.average_precision(metrics.from_rankings([Q.grades(order)], [Q.judged_grades()]))[0])


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
    assert metric(at, "AP") == fmt(ap(Q.presets[preset]))
    assert any(diagnosis in i.value for i in at.info)


def test_ap_counts_the_relevant_pages_left_in_the_tray():
    """First hit only: the top page is the best one, but 3 of the 4 relevant pages were never returned."""
    at = open_page(PAGE)
    at.button(key="choosing.preset.First hit only").click().run()
    assert metric(at, "AP") == fmt(1 / 4) == fmt(ap(Q.presets["First hit only"]))
    assert metric(at, "RR") == fmt(1.0)


@pytest.mark.parametrize("projected, predict", [(False, False), (True, False), (False, True)])
def test_the_board_is_the_one_place_for_its_six_numbers(projected, predict):
    """Issue #42: no big card repeats a value the editor's board shows (mid-drag the board previews and a card
    would not), projected or not, predicting or not; the board holds all six."""
    at = open_page(PAGE, session={state.PROJECTOR: projected, state.PREDICT_FIRST: predict})
    assert not at.exception
    k = scenarios.CHOOSING_K
    labels = [f"Recall@{k}", f"hit rate@{k}", f"Precision@{k}", "RR", f"nDCG@{k} (exponential gain)", "AP"]
    assert list(board(at, state.CHOOSING_EDITOR)) == labels
    assert (set(board(at, state.CHOOSING_EDITOR).values()) == {"?"}) == predict
    assert cards(at) == {}


def test_take_home_panel_exports_ap_with_the_pages_numbers():
    at = open_page(PAGE, session={panel_key("choosing"): True})
    assert not at.exception
    current = EditorState(Q.presets[scenarios.CHOOSING_DEFAULT], (), {d.id: d.grade for d in Q.docs})
    pack = export.take_home("choosing", [current], k=scenarios.CHOOSING_K, gain="exponential", measures=scenarios.CHOOSING_MEASURES)
    assert pack.expected.endswith(f"\nAP {fmt(ap(current.order))}")
    assert pack.expected in [c.value.rstrip("\n") for c in at.code]
    assert any(prose.section("take_home", "AP note") in c.value for c in at.caption)


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
    at.radio(key=layout.practice_pick_key("choosing")).set_value(1).run()  # the second question's number
    keys = {w.key for w in at.radio} | {w.key for w in at.checkbox}
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
