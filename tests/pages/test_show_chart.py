"""``show_chart``: the same chart as ``st.altair_chart`` sends, built once for every session that shows it."""
from __future__ import annotations

import functools

import pytest
from streamlit.testing.v1 import AppTest

from components import charts, state, widgets

ARGS = ([1, 2, 3, 4], {"current order": [0.25, 0.25, 0.5, 1.0]})
KWARGS = {"metric": "Recall@k", "current_k": 2}


def both_ways() -> None:
    """The chart sent by ``st.altair_chart`` from the built figure, then by ``show_chart``."""
    import streamlit as st

    from components import charts
    from components.widgets import chart_scale, show_chart
    from tests.pages.test_show_chart import ARGS, KWARGS

    figure = charts.metric_by_k(*ARGS, **KWARGS, scale=chart_scale())
    st.altair_chart(figure.chart, alt=figure.alt_text)
    show_chart(charts.metric_by_k, *ARGS, **KWARGS)


def charts_sent(at: AppTest) -> list:
    return [element.proto for element in at.get("vega_lite_chart")]


@pytest.mark.parametrize("projector", [False, True])
def test_show_chart_sends_what_altair_chart_sends(projector):
    at = AppTest.from_function(both_ways, default_timeout=30)
    at.session_state[state.PROJECTOR] = projector
    at.run()
    assert not at.exception
    direct, cached = charts_sent(at)
    assert cached.spec == direct.spec
    assert [(d.name, d.data.data) for d in cached.datasets] == [(d.name, d.data.data) for d in direct.datasets]
    assert cached.alt == direct.alt and cached.alt.startswith("Recall@k for k = 1 to 4")
    assert ('"labelFontSize": 20' in cached.spec) is projector, "the chart is scaled for the mode"
    assert [c.value for c in at.caption] == [cached.alt], "the text alternative is also shown as a caption"


def test_a_chart_is_built_once_for_all_sessions(monkeypatch):
    calls = []

    @functools.wraps(charts.metric_by_k)
    def counting(*args, **kwargs):
        calls.append(kwargs["current_k"])
        return counting.__wrapped__(*args, **kwargs)

    monkeypatch.setattr(charts, "metric_by_k", counting)
    widgets._chart_spec.clear()
    try:
        for _ in range(3):  # three learners, each in its own session
            at = AppTest.from_function(both_ways, default_timeout=30).run()
            assert not at.exception
            assert len(charts_sent(at)) == 2
    finally:
        widgets._chart_spec.clear()
    assert calls == [2] * 4, "st.altair_chart builds it every run (3), show_chart once (1)"


def test_only_the_chart_builders_are_accepted():
    with pytest.raises(ValueError, match="not a chart builder"):
        widgets.show_chart(print)
