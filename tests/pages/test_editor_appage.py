"""AppTest of the ranking editor's test page: an order set through session state shows the engine's metrics.

AppTest cannot drive the component itself (it is an unknown element here),
so the order comes in the way a lesson's preset or a deep link sets it: the
editor's session-state key, or a preset button. Widgets are found by key.
"""
from pathlib import Path

from streamlit.testing.v1 import AppTest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ranking_editor import EditorState

PAGE = str(Path(__file__).resolve().parents[1] / "e2e" / "editor_page.py")
GRADES = {d.id: d.grade for d in scenarios.FRAMEWORKS.docs}  # the page adds "html", unjudged
JUDGED = list(GRADES.values())


def open_page(session: dict | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    for key, value in (session or {}).items():
        at.session_state[key] = value
    return at.run()


def shown(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def engine(order, k=3, grades=GRADES) -> dict[str, str]:
    """What the page must show for editor "a" with this order, from the engine."""
    returned = [grades.get(i) or 0 for i in order]
    judged = [g for g in grades.values() if g is not None]
    return {
        f"Recall@{k}": fmt(metrics.recall_at_k(returned, k, n_relevant=sum(g >= 1 for g in judged))),
        "RR": fmt(metrics.reciprocal_rank_of(returned)),
        f"nDCG@{k}": fmt(metrics.ndcg_at_k(returned, k, judged_grades=judged)),
    }


def test_default_order_is_system_b():
    at = open_page()
    assert not at.exception
    order = list(scenarios.FRAMEWORKS.presets["System B"]) + ["html"]
    assert at.session_state["editor_a"].order == tuple(order)
    values = shown(at)
    for label, value in engine(order).items():
        assert values[label] == value
    assert values["nDCG@3"] == fmt(metrics.ndcg_at_k([0, 2, 2], 3, judged_grades=JUDGED))  # 3.393 / 6.393


def test_an_order_preset_through_session_state_shows_the_engines_metrics():
    order = ("django", "flask", "fastapi", "pyramid")  # System A's top, the rest in the tray
    at = open_page({"editor_a": EditorState(order=order)})
    assert not at.exception
    state = at.session_state["editor_a"]
    assert state.order == order and set(state.tray) == {"bottle", "snake", "monty", "pythons", "html"}
    values = shown(at)
    assert values == {**values, **engine(order)}
    assert values["nDCG@3"] == fmt(1.0)  # the ideal top 3
    assert any(c.value == "Tray: bottle › snake › monty › pythons › html" for c in at.caption)


def test_regraded_items_through_session_state():
    order = scenarios.FRAMEWORKS.presets["System B"]
    at = open_page({"editor_a": EditorState(order=order, grades={"snake": 2})})
    assert not at.exception
    values = shown(at)
    for label, value in engine(order, grades={**GRADES, "snake": 2}).items():
        assert values[label] == value


def test_preset_button_and_k_slider_found_by_key():
    at = open_page()
    at.button(key="preset_a_FastAPI missed").click().run()
    missed = list(scenarios.FRAMEWORKS.presets["FastAPI missed"]) + ["html"]
    assert at.session_state["editor_a"].order == tuple(missed)
    assert at.session_state["editor_a"].tray == ("fastapi",)
    values = shown(at)
    for label, value in engine(missed).items():
        assert values[label] == value
    for k in (1, 5, 9):  # min, middle, max
        at.slider(key="k_a").set_value(k).run()
        assert not at.exception
        values = shown(at)
        for label, value in engine(missed, k=k).items():
            assert values[label] == value


def test_the_second_editor_is_independent():
    at = open_page({"editor_a": EditorState(order=("snake",))})
    jar = [d.id for d in scenarios.JAR_QUERIES[2].docs]
    assert at.session_state["editor_b"].order == tuple(jar)
    assert shown(at)["RR (JAR)"] == fmt(metrics.reciprocal_rank_of([0, 0, 0, 0, 1]))  # the hit at 5
