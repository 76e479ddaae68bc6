"""AppTest: Lesson 0, "Why accuracy fails"."""
import pytest

from components.course import scenarios
from components.engine import metrics
from components.engine.formatting import fmt
from components.ui import state
from tests.pages.helpers import open_page

PAGE = "lessons/accuracy.py"


def metric_values(at):
    return {m.label.split(" (")[0]: m.value for m in at.metric}


def test_opens_on_the_top_10_preset():
    at = open_page(PAGE)
    assert not at.exception
    assert metric_values(at) == {"Precision": "50%", "Recall": "10%", "Accuracy": "99.5%"}


@pytest.mark.parametrize("name, expected", [
    ("Top 10, half of them relevant", {"Precision": "50%", "Recall": "10%", "Accuracy": "99.5%"}),
    ("Return everything", {"Precision": "0.5%", "Recall": "100%", "Accuracy": "0.5%"}),
    ("Return nothing", {"Precision": "undefined", "Recall": "0%", "Accuracy": "99.5%"}),
])
def test_presets_show_the_brief_numbers(name, expected):
    at = open_page(PAGE)
    at.button(key=f"accuracy.preset.{name}").click().run()
    assert not at.exception
    assert metric_values(at) == expected


@pytest.mark.parametrize("returned, relevant", [(0, 0), (10_000, 50), (5_000, 25), (9_960, 10), (1, 1)])
def test_inputs_at_their_bounds_match_the_engine(returned, relevant):
    at = open_page(PAGE)
    at.number_input(key=state.ACCURACY_RETURNED).set_value(returned).run()
    at.number_input(key=state.ACCURACY_RELEVANT_RETURNED).set_value(relevant).run()
    assert not at.exception
    counts = metrics.set_retrieval(scenarios.ACCURACY_COLLECTION, scenarios.ACCURACY_RELEVANT, returned, relevant)
    assert metric_values(at)["Accuracy"] == fmt(counts.accuracy, "percent")
    assert metric_values(at)["Recall"] == fmt(counts.recall, "percent")


def test_relevant_is_clamped_when_returned_shrinks():
    at = open_page(PAGE)
    at.number_input(key=state.ACCURACY_RETURNED).set_value(3).run()
    assert not at.exception
    assert at.number_input(key=state.ACCURACY_RELEVANT_RETURNED).value == 3  # was 5, at most 3 now
