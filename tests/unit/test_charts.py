"""Chart builders: the spec carries the data, fonts follow the scale, the text alternative states the values."""
import pytest

from components import charts


def test_metric_by_k_text_and_scale():
    figure = charts.metric_by_k([1, 2, 3], {"A": [0.1, 0.2, 0.4], "B": [0.0, 0.5, 0.5]}, metric="Recall@k",
                                current_k=2, scale=1.5)
    spec = figure.chart.to_dict()
    assert spec["config"]["axis"]["labelFontSize"] == round(charts.BASE_FONT * 1.5)
    assert "A: 0.100 at k=1, 0.200 from k=2, 0.400 from k=3, and 0.400 at k=3." in figure.alt_text
    assert "At the current cutoff k = 2: A: 0.200; B: 0.500." in figure.alt_text


def test_metric_by_k_validation():
    with pytest.raises(ValueError):
        charts.metric_by_k([1, 2], {"A": [0.1]}, metric="R", current_k=1)
    with pytest.raises(ValueError):
        charts.styled(charts.share_bars({"a": 0.5}, {"a": "50%"}).chart, scale=0)


def test_share_bars_labels_and_undefined():
    figure = charts.share_bars({"precision": float("nan"), "recall": 0.1}, {"precision": "undefined", "recall": "0.100"})
    assert figure.alt_text == "precision: undefined; recall: 0.100."
    data = next(iter(figure.chart.to_dict()["datasets"].values()))
    assert [row["value"] for row in data] == [0.0, 0.1]
    with pytest.raises(ValueError, match="one label per value"):
        charts.share_bars({"a": 0.5}, {})
