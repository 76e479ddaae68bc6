"""``show_chart``: the builder's spec, scaled for the mode, with its text alternative as alt text and caption."""
from __future__ import annotations

import json

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from components.ui import charts, state, widgets

ARGS = ([1, 2, 3, 4], {"current order": [0.25, 0.25, 0.5, 1.0]})
KWARGS = {"metric": "Recall@k", "current_k": 2}


def page() -> None:
    from components.ui import charts
    from components.ui.widgets import show_chart
    from tests.pages.test_show_chart import ARGS, KWARGS

    show_chart(charts.metric_by_k, *ARGS, **KWARGS)


@pytest.mark.parametrize("projector", [False, True])
def test_show_chart_sends_the_spec_with_its_rows_and_alt_text(projector):
    at = AppTest.from_function(page, default_timeout=30)
    at.session_state[state.PROJECTOR] = projector
    at.run()
    assert not at.exception
    [sent] = [element.proto for element in at.get("vega_lite_chart")]
    figure = charts.metric_by_k(*ARGS, **KWARGS, scale=widgets.PROJECTOR_SCALE if projector else 1.0)
    spec = json.loads(sent.spec)
    assert spec["layer"] == json.loads(json.dumps(figure.spec(apart="points")["layer"])), "marks and encodings"
    assert [layer.get("data") for layer in spec["layer"]] == [None, None, {"values": [{"k": 2}]}], \
        "the cutoff's row inline, the curve's rows beside the spec"
    assert pa.ipc.open_stream(sent.data.data).read_all().to_pylist() == figure.rows["points"]
    assert spec["config"]["axis"]["labelFontSize"] == round(charts.BASE_FONT * (1.5 if projector else 1.0))
    assert not sent.datasets
    assert sent.alt == figure.label == ("Chart of Recall@k against cutoff k, from 1 to 4 (current order); its values "
                                        "are in words under the chart.")
    assert [c.value for c in at.caption] == [figure.alt_text], "the values in words, under the chart"
    assert figure.alt_text.startswith("Recall@k for k = 1 to 4")
