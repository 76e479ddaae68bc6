"""AppTest: Lesson 3, nDCG with the frameworks scenario."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/ndcg.py"
Q = scenarios.FRAMEWORKS
GRADES = {d.id: d.grade for d in Q.docs}


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def cards(at, k=3, gain="exponential"):
    return tuple(metric(at, f"{name}@{k} ({gain} gain)") for name in ("DCG", "IDCG", "nDCG"))


@pytest.mark.parametrize("preset, expected", [
    ("System A", ("6.393", "6.393", "1.000")),  # 3/1 + 3/1.585 + 3/2
    ("System B", ("3.393", "6.393", "0.531")),  # 0 + 3/1.585 + 3/2
])
def test_presets_show_the_brief_numbers(preset, expected):
    at = open_page(PAGE)
    at.button(key=f"ndcg.preset.{preset}").click().run()
    assert not at.exception
    assert cards(at) == expected


def test_a_regrade_through_session_state():
    grades = GRADES | {"django": 0, "pyramid": 2}
    order = Q.presets["System A"]
    at = open_page(PAGE, session={state.NDCG_EDITOR: EditorState(order=order, tray=(), grades=grades)})
    assert not at.exception
    row = [grades[i] for i in order]
    judged = list(grades.values())
    assert cards(at) == (fmt(metrics.dcg_at_k(row, 3)), fmt(metrics.idcg_at_k(judged, 3)),
                         fmt(metrics.ndcg_at_k(row, 3, judged)))


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_the_gain_switch(gain):
    at = open_page(PAGE)
    at.button(key="ndcg.preset.Mixed grades").click().run()
    at.segmented_control(key=state.NDCG_GAIN).set_value(gain).run()
    assert not at.exception
    grades = Q.grades(Q.presets["Mixed grades"])
    assert cards(at, gain=gain)[2] == fmt(metrics.ndcg_at_k(grades, 3, Q.judged_grades(), gain))
    assert metric(at, "nDCG@3, linear gain") != metric(at, "nDCG@3, exponential gain")


def test_the_tray_changes_only_what_the_engine_says():
    at = open_page(PAGE)
    at.button(key="ndcg.preset.FastAPI missed").click().run()
    assert not at.exception
    grades = Q.grades(Q.presets["FastAPI missed"])
    assert cards(at)[1] == "6.393"  # the ideal still holds all three grade-2 pages
    assert cards(at)[2] == fmt(metrics.ndcg_at_k(grades, 3, Q.judged_grades()))
    assert metric(at, "nDCG@3, ideal from the returned list only") == fmt(metrics.ndcg_at_k(grades, 3))


@pytest.mark.parametrize("k", [1, 3, len(Q.docs)])
def test_every_k(k):
    at = open_page(PAGE)
    at.button(key="ndcg.preset.System B").click().run()
    at.slider(key=state.NDCG_K).set_value(k).run()
    assert not at.exception
    grades = Q.grades(Q.presets["System B"])
    assert cards(at, k=k)[2] == fmt(metrics.ndcg_at_k(grades, k, Q.judged_grades()))
    table = next(df.value for df in at.dataframe if "running DCG" in df.value.columns)
    assert len(table) == k


def test_a_bad_gain_in_the_url_is_noted():
    at = open_page(PAGE, query={"gain": "log"})
    assert not at.exception
    assert at.segmented_control(key=state.NDCG_GAIN).value == "exponential"
    assert any("gain" in w.value for w in at.warning)


def gain_sentence(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("Here "))


def test_the_gain_sentence_gives_system_bs_true_reason():
    """System B puts a grade-0 page on top, so the order is not 'already right': every relevant page in play
    (its top 3 and the ideal's) has grade 2, which is why the gains agree."""
    at = open_page(PAGE)
    at.button(key="ndcg.preset.System B").click().run()
    assert "same grade" in gain_sentence(at) and "already" not in gain_sentence(at)


def test_the_gain_sentence_speaks_of_mixed_grades_while_it_is_loaded():
    at = open_page(PAGE)
    at.button(key="ndcg.preset.Mixed grades").click().run()
    sentence = gain_sentence(at)
    assert "disagree" in sentence and "grade-1 page sits above a grade-2 page" in sentence
    assert '"Mixed grades" shows' not in sentence  # no advice to load what is on screen
