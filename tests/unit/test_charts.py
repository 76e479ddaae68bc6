"""Chart builders: the spec carries the data, fonts follow the scale, the text alternative states the values,
and the Altair part of a chart is built once per shape, whatever its data."""
import math

import altair as alt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components import charts


def test_metric_by_k_text_and_scale():
    figure = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4], "B": [0.0, 0.5, 0.5]}, metric="Recall@k",
                                current_k=2, scale=1.5)
    spec = figure.spec()
    assert spec["config"]["axis"]["labelFontSize"] == round(charts.BASE_FONT * 1.5)
    assert "A: 0.100 at k=1, 0.200 from k=2, 0.400 from k=3, and 0.400 at k=3." in figure.alt_text
    assert "At the current cutoff k = 2: A: 0.200; B: 0.500." in figure.alt_text
    rule = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rule")
    assert rule["data"] == {"values": [{"k": 2}]}


def test_metric_by_k_validation():
    with pytest.raises(ValueError):
        charts.metric_by_k([1, 2], {"A": [0.1]}, metric="R", current_k=1)
    with pytest.raises(ValueError, match="scale must be positive"):
        charts.share_bars({"a": 0.5}, {"a": "50%"}, scale=0)


def test_share_bars_labels_and_undefined():
    figure = charts.share_bars({"precision": float("nan"), "recall": 0.1}, {"precision": "undefined", "recall": "0.100"})
    assert figure.alt_text == "precision: undefined; recall: 0.100."
    assert [row["value"] for row in figure.rows["bars"]] == [0.0, 0.1]
    with pytest.raises(ValueError, match="one label per value"):
        charts.share_bars({"a": 0.5}, {})


EXAMPLES = {
    "metric_by_k": lambda: charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4]}, metric="R@k", current_k=2),
    "share_bars": lambda: charts.share_bars({"a": 0.5}, {"a": "0.500"}),
    "reciprocal_rank_curve": lambda: charts.reciprocal_rank_curve(10, {"q1": 2, "q2": None}),
    "reciprocal_rank_curve, no hit": lambda: charts.reciprocal_rank_curve(10, {"q1": None}),
    "discounted_gain_by_position": lambda: charts.discounted_gain_by_position([3.0, 0.63], [3.0, 1.89]),
    "rank_axis": lambda: charts.rank_axis([1, None, 7], k=5),
    "per_query_distribution": lambda: charts.per_query_distribution([0.0, 0.5, 1.0], metric="RR"),
    "win_loss_bars": lambda: charts.win_loss_bars(["a", "b", "c"], [0.5, 0.0, -0.5], metric="RR"),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_spec_is_valid_vega_lite_with_its_rows_inline(name):
    figure = EXAMPLES[name]()
    spec = figure.spec()
    alt.LayerChart.from_dict(spec, validate=True)  # the Vega-Lite schema Altair ships
    views = [spec, *spec["layer"]]
    assert all("name" not in view.get("data", {}) for view in views), "no dataset left for Streamlit to look up"
    inline = [view["data"]["values"] for view in views if "data" in view]
    assert all(any(rows is values for values in figure.rows.values()) for rows in inline)
    assert "continuousWidth" not in spec["config"]["view"]


def test_the_template_is_shared_and_never_changed_by_a_spec():
    first = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4]}, metric="R@k", current_k=1)
    second = charts.metric_by_k([1, 2, 3], {"A": [0.3, 0.3, 0.9]}, metric="R@k", current_k=3)
    assert first.template is second.template, "the same shape: one Altair chart, built once"
    spec = first.spec()
    spec["layer"][0]["mark"]["type"] = "bar"
    assert second.spec()["layer"][0]["mark"]["type"] == "line"
    assert all("values" not in view.get("data", {}) for view in [first.template, *first.template["layer"]])
    other = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4]}, metric="R@k", current_k=1, scale=1.5)
    assert other.template is not first.template, "another shape (projector fonts): another template"


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30), st.integers(1, 30))
def test_a_drag_changes_only_the_rows(values, k):
    ks = list(range(1, len(values) + 1))
    figure = charts.metric_by_k(ks, {"current order": values}, metric="Recall@k", current_k=min(k, len(ks)))
    points = figure.rows["points"]
    assert [row["value"] for row in points] == [float(v) for v in values]
    assert all(math.isclose(row["value"], float(v)) for row, v in zip(points, values))
    assert figure.template is charts.metric_by_k(ks, {"current order": [0.0] * len(ks)}, metric="Recall@k",
                                                 current_k=1).template


def test_comparisons_of_other_queries_share_one_template():
    first = charts.win_loss_bars(["a", "b", "c"], [0.5, 0.0, -0.5], metric="RR")
    same_scale = charts.win_loss_bars(["x", "y", "z"], [-0.5, 0.25, 0.0], metric="RR")
    assert same_scale.template is first.template, "the query order lives in the rows, not in the template"
    assert [row["query"] for row in same_scale.rows["bars"]] == ["y", "x"]
